"""Seed 002's squared-hinge LPBoost, (27): a member of the regularized-LPBoost family.

Naming: seed 002 calls the w-domain problem the *primal* and the u-domain problem (27) the
*dual*; here (as in the whole toolkit) the *primal* is the d-domain problem (d = seed 002's u)
and the *dual* the w-domain one. Translated here, once.

Seed 002's w-domain problem ((27) of the paper; footnote 5: xi >= 0 is implicit)::

    max_{w, rho, xi}  rho - D sum_i xi_i^2   s.t.  y_i H_i w >= rho - xi_i,  w >= 0, 1^T w = 1

and its u-domain dual (27) ("variance-regularized LPBoost")::

    min_{r, u}  r + (1/(4D)) sum_i u_i^2   s.t.  U^T u <= r 1,  u >= 0,  1^T u = 1       (27)

It is a member of the regularized-LPBoost family (:mod:`dualboost.regularized`, thesis (3.6))
with nu = 1 (no caps: (27) has none), the uniform d0 = 1/N and the squared Euclidean distance::

    R(d)  = (N/2) ||d - 1/N||_2^2 = (N/2) sum_n d_n^2 - sum_n d_n + 1/2
    R*(y) = sup_{d >= 0} y.d - R(d) = (N/2) sum_n pos(1/N + y_n/N)^2 - 1/2

(R(d0) = 0 <= R). On the simplex (N/2) ||d - 1/N||^2 = (N/2) sum d^2 - 1/2, so (27)'s objective
is ``gamma + R(d)/eta + 1/(4DN)`` with

    eta = 2 D N        (= the l_p hinge's (pDN)^{q-1}/(q-1) at p = q = 2, identity I32)

i.e. Opt(27) = P* + 1/(4DN) (a constant shift; the verifier's D5 checks it against the printed
w-domain problem), and the multipliers of the edge rows are w. The primal point of a dual point
is d = grad R*(-eta (U w + beta)) = pos(1/N - 2D (U w + beta)) (thesis (3.13)), which is seed
002's u_i = 2D max(0, rho - (U w)_i) with rho = -beta + 1/(2DN).

Modulus w.r.t. ||.||_1: ||x||_2^2 >= ||x||_1^2 / N gives sigma = 1. B = R at a vertex of the
simplex = (N/2)(1 - 1/N) = (N - 1)/2.

D (seed 002's name) is the parameter; eta = 2DN is derived from it (not a parameter), as are
nu = 1 (pinned) and the uniform d0. The run's stop promises no soft margin
(``promises_soft_margin = False``): D is the problem's parameter, not a capping count.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from dualboost.params import EPS, NU, Param
from dualboost.params import pinned as fixed
from dualboost.regularized import RegularizedLPBoost

D_PARAM = Param("D", "seed 002's soft-margin constant D > 0 of the squared hinge (27): "
                "max rho - D sum xi^2 (eta = 2 D N)", default=lambda N, values: 10.0 / N,
                low=0, low_open=True, default_text="10/N")


class SquaredHingeLPBoost(RegularizedLPBoost):
    name = "lpboost_sqhinge"
    summary = "seed 002's squared-hinge LPBoost (27): l2-regularized, eta = 2DN, nu = 1"
    equations = "seed 002 (27); thesis (3.6), (3.12), (3.13)"
    cones = ("soc",)
    fast_paths = ("regularizer_value", "regularizer_gradient", "conjugate_value",
                  "conjugate_gradient")
    own_params = (EPS, D_PARAM)
    pinned = (fixed(NU, 1.0),)
    promises_soft_margin = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.params = cls.own_params  # the family adds nu, d0, eta: derived here from D

    def _check(self) -> None:
        self.d0 = np.full(self.N, 1.0 / self.N)
        self.eta = 2.0 * self.D * self.N
        super()._check()

    def parameters(self) -> dict:
        return {**super().parameters(), "eta": self.eta, "d0": "uniform"}

    def seed_objective(self, value: float) -> float:
        """-Opt(27) (= the optimum of :meth:`seed_problem`, the w-domain problem written as a
        minimization) from the value here: Opt(27) = P + 1/(4DN)."""
        return -(value + 1.0 / (4.0 * self.D * self.N))

    def seed_problem(self, U):
        """Seed 002's w-domain squared-hinge problem as printed (its optimum is Opt(27)), as a
        minimization of -(rho - D sum xi^2): the verifier's D5 compares -value with
        seed_objective."""
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True)
        rho = cp.Variable()
        xi = cp.Variable(self.N, nonneg=True)
        return cp.Problem(cp.Minimize(self.D * cp.sum_squares(xi) - rho),
                          [U @ w >= rho - xi, cp.sum(w) == 1])

    # -- the declared math -------------------------------------------------------------------
    def regularizer(self, d):
        return self.N / 2.0 * cp.sum_squares(d) - cp.sum(d) + 0.5

    def conjugate(self, y):
        return self.N / 2.0 * cp.sum_squares(cp.pos(1.0 / self.N + y / self.N)) - 0.5

    def modulus(self):
        return 1.0

    def range_bound(self):
        return (self.N - 1.0) / 2.0

    # -- fast paths (compared by the verifier's F1 and C4 with the derived ones) -------------
    def regularizer_value(self, d):
        d = np.asarray(d, dtype=float)
        return float(self.N / 2.0 * np.sum(d * d) - d.sum() + 0.5)

    def regularizer_gradient(self, d):
        return self.N * np.asarray(d, dtype=float) - 1.0

    def conjugate_value(self, y):
        return float(self.N / 2.0 * np.sum(self.conjugate_gradient(y) ** 2) - 0.5)

    def conjugate_gradient(self, y):
        return np.maximum(1.0 / self.N + np.asarray(y, dtype=float) / self.N, 0.0)

    def inverse_curvature(self, d):
        """1 / R''(d) = 1/N (R'' = N)."""
        return np.full(np.shape(d), 1.0 / self.N)


SquaredHingeLPBoost.params = SquaredHingeLPBoost.own_params

FORMULATION = SquaredHingeLPBoost
