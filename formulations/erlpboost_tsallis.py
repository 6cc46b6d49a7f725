"""ERLPBoost with the Tsallis relative entropy (the regularized-LPBoost family, thesis (3.6)).

R is the Bregman divergence to d0 of the negative Tsallis entropy phi(d) = -sum d^q / (1 - q),
q in (0, 1) (seed 002, Def. 3.2 and (29), states the Tsallis entropy S_q and pairs q > 1 with the
l_p hinge, (28); q -> 1 gives back the relative entropy of thesis (3.6))::

    R(d) = (1/(1-q)) sum_n [q d0_n^{q-1} d_n - d_n^q + (1-q) d0_n^q]
    R*(y) = sum_n [K b_n^{-q/(1-q)} - d0_n^q],  b_n = q d0_n^{q-1}/(1-q) - y_n  (+inf unless b > 0)
    K = ((1-q)/q) (q/(1-q))^{1/(1-q)}

with d = grad R*(-eta s) = (q / ((1-q) b))^{1/(1-q)}, s = U w + psi + beta (the analogue of
thesis (3.13)); d_n > 0 always (grad R -> -inf at 0).

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

    def _b0(self):  # b at y = 0, i.e. -grad phi(d0)
        return self.q * self.d0 ** (self.q - 1) / (1 - self.q)

    def regularizer(self, d):
        q = self.q
        return (self._b0() @ d - cp.sum(cp.power(d, q)) / (1 - q) + float(np.sum(self.d0 ** q)))

    def conjugate(self, y):
        q = self.q
        K = (1 - q) / q * (q / (1 - q)) ** (1 / (1 - q))
        return K * cp.sum(cp.power(self._b0() - y, -q / (1 - q))) - float(np.sum(self.d0 ** q))

    def modulus(self):
        return self.q * self.nu ** (1 - self.q)

    def range_bound(self):
        q = self.q
        return float(q * np.min(self.d0) ** (q - 1) + (1 - q) * np.sum(self.d0 ** q)
                     - self.nu ** (1 - q)) / (1 - q)

    # -- fast paths --------------------------------------------------------------------------
    def regularizer_value(self, d):
        d, q = np.clip(d, 0.0, None), self.q
        return float(self._b0() @ d - np.sum(d ** q) / (1 - q) + np.sum(self.d0 ** q))

    def conjugate_value(self, y):
        b = self._b0() - y
        if np.min(b) <= 0:
            return np.inf
        return float(np.sum((1 - self.q) / self.q * b * self.conjugate_gradient(y))
                     - np.sum(self.d0 ** self.q))

    def conjugate_gradient(self, y):
        b = self._b0() - y
        with np.errstate(divide="ignore"):
            d = (self.q / ((1 - self.q) * np.maximum(b, 0.0))) ** (1 / (1 - self.q))
        return np.where(b > 0, d, np.inf)

    def optimal_beta(self, U, point):
        """The beta with sum(d) = 1: with b = c + t, c = b0 + eta s - min(b0 + eta s) >= 0 and
        t = eta beta + min(b0 + eta s) > 0, the mass sum (k / b)^{1/(1-q)}, k = q/(1-q), falls
        from >= 1 at t = k to <= 1 at t = k N^{1-q}: a bracketed root in ln(mass)."""
        c = self._b0() + self.eta * self._slack_margins(self.check_columns(U), point)
        k, p = self.q / (1 - self.q), 1 / (1 - self.q)

        def log_mass(t):
            return float(np.log(np.sum((k / (c - c.min() + t)) ** p)))

        t = brentq(log_mass, k, k * self.N ** (1 - self.q), xtol=1e-15, rtol=1e-15, maxiter=500)
        return float((t - c.min()) / self.eta)


FORMULATION = TsallisERLPBoost
