"""Seed 001 F5: the norm-penalty relaxation f(d) = weight ||d||_p (its Example 2, R3).

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N, and
its penalty weight nu is the parameter ``weight`` here (not a count).

Primal (d-domain), catalogue F5::

    min_{d, gamma} gamma + weight ||d||_p
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         sum(d) = 1                              (beta)

Dual (w-domain), catalogue F5 with gamma = -beta, xi = psi and 1/p + 1/q = 1 (f* is the
indicator of the dual-norm ball, seed 001 App. B)::

    max_{w, psi >= 0, beta} -beta   s.t.  U w + psi + beta 1 >= 0,  ||psi||_q <= weight,
                                          ||w||_1 <= 1

i.e. the largest margin gamma whose hinge vector [gamma 1 - U w]_+ has q-norm at most weight.
p = 1: the hard margin plus weight (the penalty is constant on the simplex).

Relations (catalogue F5, checked by C6): (U w*)_n > gamma* => d*_n = 0; for 1 < p < inf and
xi* = [gamma* - U w*]_+ != 0 the budget is tight and d* = xi*^(q-1) / sum xi*^(q-1) (p = 2:
d* = xi*/sum xi*).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.params import EPS
from dualboost.sss import P_NORM, PENALTY, SSSRelaxation, cvxpy_norm, numpy_norm, with_norm


class SSSNormPenalty(SSSRelaxation):
    name = "sss_norm_penalty"
    summary = "seed 001 F5: norm penalty weight ||d||_p (hinge budget), signed w"
    equations = "seed 001 Example 2, Theorem 7; catalogue F5 (R3)"
    params = (P_NORM, PENALTY, EPS)
    capabilities = Capabilities(strictly_convex=False, cones=("soc", "pow"),
                                closed_forms=("best_response",), signed_weights=True)
    catalogue = "F5"
    dual_variables = ("w", "psi", "beta")
    #: its optimum is its own relaxed margin, not the soft margin (2.2): no E11 / G1 promise
    promises_soft_margin = False

    def _check(self):
        with_norm(self, self.p)

    def penalty_model(self, d):
        if math.isinf(self.p_value):  # weight max_n d_n as an epigraph (lam: d <= top)
            top = cp.Variable(name="top")
            return self.weight * top, {"lam": d <= top}, {"top": (top, np.max)}
        return self.weight * cvxpy_norm(d, self.p_value), {}

    def penalty(self, d):
        return self.weight * numpy_norm(d, self.p_value)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi")
        beta = cp.Variable(name="beta")
        problem = cp.Problem(cp.Maximize(-beta),
                             [U @ w + psi + beta >= 0, cvxpy_norm(psi, self.q_value) <= self.weight,
                              cp.norm1(w) <= 1])
        return Model(problem, {"w": w, "psi": psi, "beta": beta})

    def dual_feasible(self, U, point):
        """As the base, and a point whose hinges exceed the budget ||psi||_q <= weight (solver
        round-off) is replaced by the best feasible one for its w."""
        out = super().dual_feasible(U, point)
        psi = out.get("psi")
        if psi is not None and numpy_norm(psi, self.q_value) > self.weight:
            _, best, _ = self.relaxed_point(self.check_columns(U) @ out["w"])
            out.update(best)
        return out

    def relaxed_point(self, z):
        """The largest gamma with ||[gamma - z]_+||_q <= weight (increasing in gamma: bisection
        on [min z, min z + weight])."""
        z = np.asarray(z, dtype=float)
        low, high = float(z.min()), float(z.min()) + self.weight
        for _ in range(200):
            mid = 0.5 * (low + high)
            if numpy_norm(np.maximum(mid - z, 0.0), self.q_value) <= self.weight:
                low = mid
            else:
                high = mid
            if high - low <= 1e-15 * (1.0 + abs(low)):
                break
        gamma = low
        return gamma, {"psi": np.maximum(gamma - z, 0.0), "beta": -gamma}, None

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        gamma = -float(point["beta"])
        xi = np.maximum(gamma - z, 0.0)
        out = {"F5 (Uw*)_n > gamma* => d*_n = 0": float(np.max(d * np.maximum(z - gamma, 0.0)))}
        if 1.0 < self.p_value < math.inf and xi.sum() > 1e-6:
            powered = xi ** (self.q_value - 1.0)
            out["F5 d* = xi*^(q-1) / sum xi*^(q-1)"] = float(np.max(np.abs(
                d - powered / powered.sum())))
            out["F5 budget tight: ||xi*||_q = weight"] = abs(
                numpy_norm(xi, self.q_value) - self.weight)
        return out


FORMULATION = SSSNormPenalty
