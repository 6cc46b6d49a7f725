"""Soft-margin LPBoost with the generalized l_p hinge, seed 002 (27)/(28): a regularized member.

Naming: seed 002 calls the w-domain problem the *primal*; here (as in the whole toolkit) the
*primal* is the d-domain problem and the *dual* the w-domain one. Translated here, once.

Seed 002's w-domain problem (§3.2 of the paper, p > 1; p = 2 the squared hinge)::

    max_{w, rho, xi}  rho - D sum_i xi_i^p   s.t.  y_i H_i w >= rho - xi_i,  w >= 0, 1^T w = 1,
                                                  xi >= 0

and its dual (28) (q = p/(p-1) > 1; (27) at p = 2 with coefficient 1/(4D))::

    min_{r, u}  r + c_p sum_i u_i^q   s.t.  U^T u <= r 1,  u >= 0,  1^T u = 1,
    c_p = D^{1-q} (p^{1-q} - p^{-q}) = (1/q) (p D)^{1-q}                                    (28)

(Tsallis-entropy-regularized LPBoost: sum u^q = 1 - (q-1) S_q(u), Def. 3.2, (29)). It is a member
of the regularized-LPBoost family (:mod:`dualboost.regularized`, thesis (3.6)) with nu = 1 (no
caps: (28) has none) and the Bregman divergence to uniform d0 = 1/N of kappa sum d^q::

    R(d) = kappa sum_n [d_n^q - q d0^{q-1} d_n + (q-1) d0^q]
         = kappa sum_n d_n^q - sum_n d_n / (q-1) + 1/q,        kappa = N^{q-1} / (q (q-1))
    R*(y) = (q-1) kappa sum_n (pos(y_n + 1/(q-1)) / (kappa q))^p - 1/q

so R(d0) = 0 <= R, and on the simplex R(d) = kappa (sum d^q - N^{1-q}). Then (28)'s objective is
``gamma + R(d)/eta + c_p N^{1-q}`` with

    eta = (p D N)^{q-1} / (q - 1)          (p = 2: eta = 2 D N, the l2 member erlpboost_l2)

i.e. Opt(28) = P* + c_p N^{1-q} (a constant shift), and the multipliers of the edge rows are w.
The primal point of a dual point is d = grad R*(-eta (U w + beta)) (thesis (3.13)), which is
seed 002's u_i = p D max(0, rho - (U w)_i)^{p-1} with rho = -beta'.

Modulus (w.r.t. ||.||_1 on the simplex): R'' = kappa q (q-1) d^{q-2}; for q <= 2 (p >= 2)
1 / sum_n d_n^{2-q} / (kappa q (q-1)) >= kappa q (q-1) N^{1-q} = 1, so sigma = 1 (= the l2 member's
at p = 2); for q > 2 (1 < p < 2) the curvature vanishes at d_n = 0 and sigma = 0 (the theory's
T2/T4 are then not applicable; R2 still checks R >= 0 curvature). B = R at a vertex =
(N^{q-1} - 1) / (q (q-1)).

D (seed 002's name) is the parameter; eta is derived from it (not a parameter), as are nu = 1 and
the uniform d0. At p = 1 the problem is the hinge, soft-margin LPBoost (21)/(22) with caps
u <= D, i.e. ``lpboost_hinge`` = ``lpboost`` with nu = 1/D (not a member: p > 1 here; identity
I33). The run's stop promises no soft margin (``promises_soft_margin = False``): D is the
problem's parameter.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Certificate, Multipliers
from dualboost.params import EPS, NU, Param
from dualboost.params import pinned as fixed
from dualboost.regularized import RegularizedLPBoost

P_PARAM = Param("p", "exponent p > 1 of the l_p hinge max(0, rho - margin)^p (2: the squared "
                "hinge (27); Tsallis index q = p/(p-1); p = 1, the hinge (21)/(22), is "
                "--formulation lpboost_hinge, lpboost with nu = 1/D)", default=2.0, low=1,
                low_open=True)
D_PARAM = Param("D", "seed 002's soft-margin constant D > 0 of (27)/(28): max rho - D sum xi^p",
                default=lambda N, values: 10.0 / N, low=0, low_open=True,
                default_text="10/N (at p = 1, the caps 1/D of nu = 0.1 N)")


class LpHingeLPBoost(RegularizedLPBoost):
    name = "lpboost_phinge"
    summary = "LPBoost with the l_p hinge (p > 1; p = 2 squared hinge): Tsallis q = p/(p-1)"
    equations = "seed 002 (27), (28), Def. 3.2, (29); thesis (3.6), (3.12), (3.13)"
    cones = ("pow",)
    fast_paths = ("regularizer_value", "regularizer_gradient", "conjugate_value",
                  "conjugate_gradient", "best_response")
    own_params = (EPS, P_PARAM, D_PARAM)
    pinned = (fixed(NU, 1.0),)
    promises_soft_margin = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.params = cls.own_params  # the family adds nu, d0, eta: derived here from p, D

    # -- derived parameters ------------------------------------------------------------------
    @property
    def q(self) -> float:
        return self.p / (self.p - 1.0)

    @property
    def kappa(self) -> float:
        return self.N ** (self.q - 1.0) / (self.q * (self.q - 1.0))

    def _check(self) -> None:
        self.d0 = np.full(self.N, 1.0 / self.N)
        self.eta = (self.p * self.D * self.N) ** (self.q - 1.0) / (self.q - 1.0)
        super()._check()

    def parameters(self) -> dict:
        return {**super().parameters(), "eta": self.eta, "d0": "uniform"}

    def seed_coefficient(self) -> float:
        """c_p = D^{1-q} (p^{1-q} - p^{-q}) of (28) (1/(4D) at p = 2)."""
        q = self.q
        return self.D ** (1 - q) * (self.p ** (1 - q) - self.p ** (-q))

    def seed_objective(self, value: float) -> float:
        """-Opt(28) (= the optimum of :meth:`seed_problem`, seed 002's w-domain problem written
        as a minimization) from the value here."""
        return -(value + self.seed_coefficient() * self.N ** (1 - self.q))

    def seed_problem(self, U):
        """Seed 002's w-domain l_p-hinge problem as printed (its optimum is Opt(28)), as a
        minimization of -(rho - D sum xi^p): the verifier's D5 compares -value with
        seed_objective."""
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True)
        rho = cp.Variable()
        xi = cp.Variable(self.N, nonneg=True)
        loss = self.D * cp.sum(cp.power(xi, self.p, approx=False))
        return cp.Problem(cp.Minimize(loss - rho), [U @ w >= rho - xi, cp.sum(w) == 1])

    # -- the declared math -------------------------------------------------------------------
    def regularizer(self, d):
        q = self.q
        return self.kappa * cp.sum(cp.power(d, q, approx=False)) - cp.sum(d) / (q - 1) + 1 / q

    def conjugate(self, y):
        q, p, kappa = self.q, self.p, self.kappa
        scaled = cp.pos(y + 1.0 / (q - 1)) / (kappa * q)
        return (q - 1) * kappa * cp.sum(cp.power(scaled, p, approx=False)) - 1 / q

    def modulus(self):
        return 1.0 if self.q <= 2.0 + 1e-12 else 0.0

    def range_bound(self):
        q = self.q
        return (self.N ** (q - 1) - 1.0) / (q * (q - 1))


    # -- fast paths (compared by the verifier's F1 and C4 with the derived ones) -------------
    def regularizer_value(self, d):
        d, q = np.maximum(np.asarray(d, dtype=float), 0.0), self.q
        return float(self.kappa * np.sum(d ** q) - d.sum() / (q - 1) + 1 / q)

    def regularizer_gradient(self, d):
        d, q = np.maximum(np.asarray(d, dtype=float), 0.0), self.q
        return self.kappa * q * d ** (q - 1) - 1 / (q - 1)

    def _scaled(self, y):
        """pos(y + 1/(q-1)) / (kappa q): R*'s per-coordinate argument."""
        q = self.q
        return np.maximum(np.asarray(y, dtype=float) + 1 / (q - 1), 0.0) / (self.kappa * q)

    def conjugate_value(self, y):
        q = self.q
        return float((q - 1) * self.kappa * np.sum(self._scaled(y) ** self.p) - 1 / q)

    def conjugate_gradient(self, y):
        return self._scaled(y) ** (self.p - 1)  # (q-1) p / q = 1

    def inverse_curvature(self, d):
        """1 / R''(d) = d^(2-q) / (kappa q (q-1)) (infinite at d = 0 when q > 2)."""
        d, q = np.maximum(np.asarray(d, dtype=float), 0.0), self.q
        with np.errstate(divide="ignore"):
            return d ** (2 - q) / (self.kappa * q * (q - 1))

    def best_response(self, U, w):
        """beta for fixed w in closed form up to a 1-D root: d_n = (pos(b - eta m_n)/(kappa q))
        ^(p-1) (seed 002's u_i = p D max(0, rho - margin_i)^(p-1)) with b = 1/(q-1) - eta beta
        and sum(d) = 1, i.e. sum_n pos(b - v_n)^(p-1) = (kappa q)^(p-1), v = eta U w: the
        active set by bisection over the sorted v, then a safeguarded Newton on its piece."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        q, p, kappa, eta = self.q, self.p, self.kappa, float(self.eta)
        m = U @ w
        b = _power_root(eta * m, p - 1.0, (kappa * q) ** (p - 1.0))
        beta = (1.0 / (q - 1) - b) / eta
        scaled = np.maximum(b - eta * m, 0.0) / (kappa * q)
        d = scaled ** (p - 1.0)
        d /= d.sum()  # round-off of the root only
        edges = U.T @ d
        conjugate = (q - 1) * kappa * float(np.sum(scaled ** p)) - 1 / q
        feasible = w.min(initial=0.0) >= -1e-7 and abs(w.sum() - 1) <= 1e-7
        dual = -conjugate / eta - beta if feasible else -math.inf
        primal = float(edges.max()) + self.regularizer_value(d) / eta
        return Certificate(Multipliers(w=w, beta=beta), d, primal, dual, edges=edges)


def _power_root(v: np.ndarray, e: float, target: float) -> float:
    """The b with sum_n pos(b - v_n)^e = target (> 0), e > 0: increasing in b."""
    vs = np.sort(v)
    N = vs.size

    def total(b: float, k: int) -> float:
        return float(np.sum((b - vs[:k]) ** e))

    # the active set: the largest k with total(vs[k-1], k - 1) < target (bisection on k)
    lo_k, hi_k = 1, N  # total at vs[0] is 0 < target
    while lo_k < hi_k:
        mid = (lo_k + hi_k + 1) // 2
        if total(vs[mid - 1], mid - 1) < target:
            lo_k = mid
        else:
            hi_k = mid - 1
    k = lo_k
    head = vs[:k]
    # on the piece [vs[k-1], vs[k]) the k terms are smooth; k (b - vs[k-1])^e <= target and
    # k (b - vs[0])^e >= target bracket the root
    lo = max(float(vs[k - 1]), float(vs[0]) + (target / k) ** (1 / e))
    hi = float(vs[k - 1]) + (target / k) ** (1 / e)
    if k < N:
        hi = min(hi, float(vs[k]))
    lo = min(lo, hi)

    def excess(b: float) -> float:
        return float(np.sum((b - head) ** e)) - target

    if excess(hi) <= 0:
        return hi
    if excess(lo) >= 0:
        return lo
    from scipy.optimize import brentq  # a kink at each end of the piece: Brent, not Newton

    return float(brentq(excess, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200))


LpHingeLPBoost.params = LpHingeLPBoost.own_params

FORMULATION = LpHingeLPBoost
