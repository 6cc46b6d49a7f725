"""Seed 001 F10: the squared-norm penalty f(d) = (weight/2) ||d||_p^2 (catalogue R6/F10).

Not in the paper: built from its Appendix B pairs (``(1/2)||.||^2`` and ``c f(d/c)``); it satisfies
Theorem 7's (i)-(iii) for l_p norms. Seed 001 calls the d-domain problem primal too (this
project's primal); its A is U, m is N, its weight nu is the parameter ``weight`` (not a count).

Primal (d-domain), catalogue F10 (1 < p < inf: strictly convex)::

    min_{d, gamma} gamma + (weight/2) ||d||_p^2
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         sum(d) = 1                              (beta)

Dual (w-domain), catalogue F10 with gamma = -beta, xi = psi and 1/p + 1/q = 1::

    max_{w, psi >= 0, beta} -beta - ||psi||_q^2 / (2 weight)   s.t.  U w + psi + beta 1 >= 0,
                                                                     ||w||_1 <= 1

Relations (catalogue F10, checked by C1, C2 and C6): xi* = [gamma* - U w*]_+ and, by stationarity
in xi, d* = ||xi*||_q^(2-q) xi*^(q-1) / weight; for p = 2 exactly d* = [gamma* 1 - U w*]_+ / weight,
so sum_n [gamma* - (U w*)_n]_+ = weight (numpy closed form: gamma* by sorting).
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.params import EPS
from dualboost.sss import (
    P_NORM_STRICT,
    PENALTY,
    SSSRelaxation,
    cvxpy_norm,
    golden_max,
    numpy_norm,
    with_norm,
)


def hinge_level(z: np.ndarray, mass: float) -> float:
    """The gamma with sum_n [gamma - z_n]_+ = mass (mass > 0), by sorting."""
    ordered = np.sort(np.asarray(z, dtype=float))
    sums = np.cumsum(ordered)
    counts = np.arange(1, ordered.size + 1)
    levels = (mass + sums) / counts  # gamma if exactly the first k margins lie below it
    upper = np.append(ordered[1:], np.inf)
    k = int(np.argmax(levels <= upper))
    return float(levels[k])


class SSSSqNormPenalty(SSSRelaxation):
    name = "sss_sq_norm_penalty"
    summary = "seed 001 F10: squared-norm penalty (weight/2)||d||_p^2, signed w"
    equations = "seed 001 App. B pairs, Theorem 7; catalogue F10 (R6)"
    params = (P_NORM_STRICT, PENALTY, EPS)
    capabilities = Capabilities(strictly_convex=True, cones=("soc", "pow"),
                                closed_forms=("best_response", "d_from_dual"),
                                signed_weights=True)
    catalogue = "F10"
    dual_variables = ("w", "psi", "beta")
    #: its optimum is its own relaxed margin, not the soft margin (2.2): no E11 / G1 promise
    promises_soft_margin = False

    def _check(self):
        with_norm(self, self.p)

    def penalty_model(self, d):
        if self.p_value == 2.0:
            return self.weight / 2 * cp.sum_squares(d), {}
        return self.weight / 2 * cp.square(cvxpy_norm(d, self.p_value)), {}

    def penalty(self, d):
        return self.weight / 2 * numpy_norm(d, self.p_value) ** 2

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi")
        beta = cp.Variable(name="beta")
        value = -beta - cp.square(cvxpy_norm(psi, self.q_value)) / (2 * self.weight)
        problem = cp.Problem(cp.Maximize(value), [U @ w + psi + beta >= 0, cp.norm1(w) <= 1])
        return Model(problem, {"w": w, "psi": psi, "beta": beta})

    def _value(self, gamma, z):
        xi = np.maximum(gamma - z, 0.0)
        return gamma - numpy_norm(xi, self.q_value) ** 2 / (2 * self.weight)

    def relaxed_point(self, z):
        """p = 2: gamma with sum [gamma - z]_+ = weight, d = [gamma - z]_+ / weight (catalogue
        F10); other p: max_gamma gamma - ||[gamma - z]_+||_q^2 / (2 weight) by golden section
        on [min z, max z + weight] (no d)."""
        z = np.asarray(z, dtype=float)
        if self.p_value == 2.0:
            gamma = hinge_level(z, self.weight)
            xi = np.maximum(gamma - z, 0.0)
            d = xi / self.weight
            return self._value(gamma, z), {"psi": xi, "beta": -gamma}, d / d.sum()
        gamma = golden_max(lambda g: self._value(g, z), float(z.min()),
                           float(z.max()) + self.weight)
        return self._value(gamma, z), {"psi": np.maximum(gamma - z, 0.0), "beta": -gamma}, None

    def d_from_dual(self, U, point):
        """p = 2: d = [gamma - U w]_+ / weight with gamma = -beta, or gamma by sorting when beta
        is not given (catalogue F10)."""
        if self.p_value != 2.0:
            return None
        z = self.check_columns(U) @ self.signed_w(point)
        b = point.get("beta")
        gamma = hinge_level(z, self.weight) if b is None else -float(b)
        return np.maximum(gamma - z, 0.0) / self.weight

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        gamma = -float(point["beta"])
        xi = np.maximum(gamma - z, 0.0)
        q = self.q_value
        size = numpy_norm(xi, q)
        mapped = (size ** (2.0 - q) * xi ** (q - 1.0) / self.weight) if size > 0 else xi
        out = {"F10 d* = ||xi*||_q^(2-q) xi*^(q-1) / weight": float(np.max(np.abs(d - mapped)))}
        if self.p_value == 2.0:
            out["F10 sum [gamma* - Uw*]_+ = weight"] = abs(float(xi.sum()) - self.weight)
        if point.get("psi") is not None:
            out["F10 xi* = [gamma* - Uw*]_+"] = float(np.max(np.abs(
                np.asarray(point["psi"], dtype=float) - xi)))
        return out


FORMULATION = SSSSqNormPenalty
