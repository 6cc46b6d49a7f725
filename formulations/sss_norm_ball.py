"""Seed 001 F4: the norm-ball relaxation ||d||_p <= r (its Example 1, R2).

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N, and
its ball radius nu is written here r = nu^(1/p - 1) with nu a count in [1, N]: the l_p norm of
the uniform distribution on nu examples, so that p = inf is the capped simplex d <= 1/nu (F2),
p = 1 the whole simplex (F1), and the ball meets the simplex exactly when nu <= N (the seed's
condition r >= N^(1/p - 1)).

Primal (d-domain), catalogue F4::

    min_{d, gamma} gamma
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         ||d||_p <= r                            (lam; p = inf: d <= r, named psi as in F2)
         sum(d) = 1                              (beta)

Dual (w-domain), catalogue F4 with gamma = -beta, xi = psi and 1/p + 1/q = 1::

    max_{w, psi >= 0, beta} -beta - r ||psi||_q   s.t.  U w + psi + beta 1 >= 0,  ||w||_1 <= 1

Relations (catalogue F4, checked by C6): xi* = [gamma* - U w*]_+; (U w*)_n > gamma* => d*_n = 0;
for 1 < p < inf and xi* != 0, d* = r xi*^(q-1) / ||xi*||_q^(q-1) (the gradient of r ||.||_q;
p = 2: d* = r xi*/||xi*||_2).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.errors import DualBoostInputError
from dualboost.formulation import Capabilities, Model
from dualboost.params import EPS, NU, Param
from dualboost.projection import euclidean_capped_projection
from dualboost.sss import (
    P_NORM,
    SSSRelaxation,
    cvxpy_norm,
    golden_max,
    numpy_norm,
    with_norm,
)

NU_BALL = Param("nu", "the ball's radius r = nu^(1/p - 1), the l_p norm of the uniform "
                "distribution on nu examples: a count in [1, N] (p = inf: the caps d_n <= 1/nu; "
                "seed 001's radius is r)", default=1.0, low=1, high="N",
                default_text=NU.default_text)


class SSSNormBall(SSSRelaxation):
    name = "sss_norm_ball"
    summary = "seed 001 F4: l_p-ball relaxation ||d||_p <= nu^(1/p-1), signed w"
    equations = "seed 001 Example 1, Theorem 7; catalogue F4 (R2)"
    params = (P_NORM, NU_BALL, EPS)
    capabilities = Capabilities(strictly_convex=False, cones=("soc", "pow"),
                                closed_forms=("best_response",), signed_weights=True)
    catalogue = "F4"
    dual_variables = ("w", "psi", "beta")
    #: its optimum is its own relaxed margin, not the soft margin (2.2): no E11 / G1 promise
    promises_soft_margin = False

    def _check(self):
        with_norm(self, self.p)
        if self.nu >= self.N and 1.0 < self.p_value < math.inf:
            raise DualBoostInputError(
                f"nu must be below N = {self.N} for 1 < p < inf: at nu = N the ball meets the "
                "simplex in the uniform distribution only, and the w-domain optimum (gamma -> "
                "inf) is not attained; use sss_soft_margin (p = inf) for nu = N")

    @property
    def radius(self) -> float:
        """r = nu^(1/p - 1): the l_p norm of the uniform distribution on nu examples."""
        return self.nu ** (1.0 / self.p_value - 1.0)

    def penalty_model(self, d):
        if math.isinf(self.p_value):
            return 0, {"psi": d <= self.radius}
        return 0, {"lam": cvxpy_norm(d, self.p_value) <= self.radius}

    def in_domain(self, d):
        return numpy_norm(d, self.p_value) <= self.radius * (1 + 1e-9) + 1e-9

    def primal_feasible(self, d):
        """The simplex projection, then moved towards the uniform distribution (which lies in
        the ball) until it is in the ball."""
        d = euclidean_capped_projection(np.asarray(d, dtype=float), 1.0)
        if numpy_norm(d, self.p_value) <= self.radius:
            return d
        uniform = np.full(self.N, 1.0 / self.N)
        low, high = 0.0, 1.0
        for _ in range(60):
            mid = 0.5 * (low + high)
            if numpy_norm((1 - mid) * d + mid * uniform, self.p_value) <= self.radius:
                high = mid
            else:
                low = mid
        return (1 - high) * d + high * uniform

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi")
        beta = cp.Variable(name="beta")
        problem = cp.Problem(cp.Maximize(-beta - self.radius * cvxpy_norm(psi, self.q_value)),
                             [U @ w + psi + beta >= 0, cp.norm1(w) <= 1])
        return Model(problem, {"w": w, "psi": psi, "beta": beta})

    def _value(self, gamma, z):
        return gamma - self.radius * numpy_norm(np.maximum(gamma - z, 0.0), self.q_value)

    def relaxed_point(self, z):
        """max_gamma gamma - r ||[gamma - z]_+||_q: concave in gamma, maximized on
        [min z, max z] (r N^(1/q) >= 1), by golden section."""
        z = np.asarray(z, dtype=float)
        gamma = golden_max(lambda g: self._value(g, z), float(z.min()), float(z.max()))
        psi = np.maximum(gamma - z, 0.0)
        return self._value(gamma, z), {"psi": psi, "beta": -gamma}, None

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        gamma = -float(point["beta"])
        xi = np.maximum(gamma - z, 0.0)
        out = {"F4 (Uw*)_n > gamma* => d*_n = 0": float(np.max(d * np.maximum(z - gamma, 0.0)))}
        if point.get("psi") is not None:
            out["F4 xi* = [gamma* - Uw*]_+"] = float(np.max(np.abs(
                np.asarray(point["psi"], dtype=float) - xi)))
        size = numpy_norm(xi, self.q_value)
        if 1.0 < self.p_value < math.inf and size > 1e-6:
            q = self.q_value
            out["F4 d* = r xi*^(q-1) / ||xi*||_q^(q-1)"] = float(np.max(np.abs(
                d - self.radius * xi ** (q - 1.0) / size ** (q - 1.0))))
        return out


FORMULATION = SSSNormBall
