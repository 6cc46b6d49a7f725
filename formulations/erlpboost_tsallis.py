"""ERLPBoost with the Tsallis relative entropy (the regularized-LPBoost family, thesis (3.6)).

R is the Bregman divergence to d0 of the negative Tsallis entropy phi(d) = -sum d^q / (1 - q),
q in (0, 1) (seed 002, Def. 3.2 and (29), states the Tsallis entropy S_q and pairs q > 1 with the
l_p hinge, (28); q -> 1 gives back the relative entropy of thesis (3.6))::

    R(d) = (1/(1-q)) sum_n [q d0_n^{q-1} d_n - d_n^q + (1-q) d0_n^q]
    R*(y) = sum_n [g_n^{-q/(1-q)} - d0_n^q],  g_n = d0_n^{q-1} - (1-q) y_n / q  (+inf unless g > 0)

(equivalently K b^{-q/(1-q)} with b = q g / (1-q) and K = ((1-q)/q) (q/(1-q))^{1/(1-q)}; the
g form keeps the solver's coefficients near 1 when q is close to 1). The primal point of a dual
point is the q-exponential d = grad R*(-eta s) = g^{-1/(1-q)}, s = U w + psi + beta (the analogue
of thesis (3.13)); d_n > 0 always (grad R -> -inf at 0).

sigma = q nu^{1-q}: the Hessian is diag(q d^{q-2}) and 1 / sum_n (d_n^{2-q} / q) >= q nu^{1-q} on
the capped simplex (sum d^{2-q} <= (max d)^{1-q} <= nu^{q-1}). B = (q max d0^{q-1} + (1-q) sum d0^q
- nu^{1-q}) / (1-q), because sum d^q >= nu^{1-q} on the capped simplex (= (N^{1-q} - nu^{1-q}) /
(1-q) for uniform d0, the value at a vertex when nu is an integer).
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
from scipy.optimize import brentq

from dualboost.params import Param
from dualboost.regularized import RegularizedLPBoost


class TsallisERLPBoost(RegularizedLPBoost):
    name = "erlpboost_tsallis"
    summary = "LPBoost regularized by the Tsallis relative entropy (index q in (0, 1))"
    equations = "thesis (3.6), (3.12), (3.13) with a Tsallis R; seed 002 Def. 3.2, (29)"
    extra_params = (Param("q", "Tsallis index q in (0, 1) (q -> 1: the relative entropy)",
                          default=0.5, low=0, high=1, low_open=True, high_open=True),)
    cones = ("pow",)
    fast_paths = ("regularizer_value", "conjugate_value", "conjugate_gradient", "optimal_beta")

    def _d0_powers(self) -> tuple[np.ndarray, float]:
        """(d0^(q-1), sum d0^q), computed once per d0 and q: the projected-Newton master
        evaluates the numpy lines below thousands of times per fit, and a fractional power of N
        numbers costs as much as the rest of an evaluation."""
        cached = self.__dict__.get("_d0_powers_cache")
        if cached is None or cached[0] is not self.d0 or cached[1] != self.q:
            d0 = np.asarray(self.d0, dtype=float)
            cached = (self.d0, self.q, d0 ** (self.q - 1), float(np.sum(d0 ** self.q)))
            self.__dict__["_d0_powers_cache"] = cached
        return cached[2], cached[3]

    def _g(self, y):
        return self._d0_powers()[0] - (1 - self.q) / self.q * y

    # approx=False below: exact power cones (cvxpy's default SOC form rounds q to a rational)
    def regularizer(self, d):
        q = self.q
        return ((q * self.d0 ** (q - 1)) @ d - cp.sum(cp.power(d, q, approx=False))) / (1 - q) \
            + float(np.sum(self.d0 ** q))

    def conjugate(self, y):
        q = self.q
        return cp.sum(cp.power(self._g(y), -q / (1 - q), approx=False)) \
            - float(np.sum(self.d0 ** q))

    def modulus(self):
        return self.q * self.nu ** (1 - self.q)

    def range_bound(self):
        q = self.q
        return float(q * np.min(self.d0) ** (q - 1) + (1 - q) * np.sum(self.d0 ** q)
                     - self.nu ** (1 - q)) / (1 - q)

    # -- fast paths --------------------------------------------------------------------------
    def regularizer_value(self, d):
        d, q = np.maximum(d, 0.0), self.q
        d0_q1, total = self._d0_powers()
        return float((q * (d0_q1 @ d) - np.sum(_power(d, q))) / (1 - q) + total)

    def conjugate_value(self, y):
        g = self._g(y)
        if np.min(g) <= 0:
            return np.inf
        return float(np.sum(g * self.conjugate_gradient(y)) - self._d0_powers()[1])

    def conjugate_gradient(self, y):
        g = self._g(np.asarray(y, dtype=float))
        if g.min() > 0:  # every point the master evaluates: no mask, no warning to silence
            return self._q_exponential(g)
        with np.errstate(divide="ignore"):
            return np.where(g > 0, self._q_exponential(np.maximum(g, 0.0)), np.inf)

    def _q_exponential(self, g):
        """d = g^(-1/(1-q)) for g >= 0 (the q-exponential of the module docstring)."""
        return _power(g, -1 / (1 - self.q))

    def inverse_curvature(self, d):
        """1 / R''(d) = d^(2-q) / q (R'' = q d^(q-2))."""
        return _power(np.maximum(d, 0.0), 2 - self.q) / self.q

    def optimal_beta(self, U, point):
        """The beta with sum(d) = 1: g = c + t with c = g(-eta s) - min g(-eta s) >= 0 and
        t = (1-q) eta beta / q + min g(-eta s) > 0; the mass sum g^{-1/(1-q)} falls from >= 1 at
        t = 1 to <= 1 at t = N^{1-q}, a bracketed root in ln(mass)."""
        q = self.q
        c = self._g(-self.eta * self._slack_margins(self.check_columns(U), point))

        def log_mass(t):
            return float(np.log(np.sum((c - c.min() + t) ** (-1 / (1 - q)))))

        t = brentq(log_mass, 1.0, self.N ** (1 - q), xtol=1e-15, rtol=1e-15, maxiter=500)
        return float((t - c.min()) * q / ((1 - q) * self.eta))


def _power(x: np.ndarray, exponent: float) -> np.ndarray:
    """x ** exponent for x >= 0, by square roots and products at the exponents of the default
    q = 1/2 (-2, 1/2, 3/2), which numpy's general power computes 3-5x slower (equal to a few
    units in the last place)."""
    if exponent == -2.0:
        return 1.0 / (x * x)
    if exponent == 0.5:
        return np.sqrt(x)
    if exponent == 1.5:
        return x * np.sqrt(x)
    return np.power(x, exponent)


FORMULATION = TsallisERLPBoost
