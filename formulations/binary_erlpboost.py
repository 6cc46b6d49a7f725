"""Binary ERLPBoost: the caps built into the regularizer, thesis (3.25)-(3.27), Algorithm 3.3.

The regularized-LPBoost family (:mod:`dualboost.regularized`) with the capped binary relative
entropy (thesis §3.3) as R, whose domain 0 <= d <= 1/nu *is* the cap (no psi block, no cap
constraint; the dual has t + 1 variables w, beta)::

    R(d) = Delta_{2,nu}(d, d0) = sum_n d_n ln(d_n / d0_n)
                                 + sum_n (1/nu - d_n) ln((1/nu - d_n) / (1/nu - d0_n))   (3.25)
    R*(y) = (1/nu) sum_n ln(1 - nu d0_n + nu d0_n e^{y_n})
          = (1/nu) sum_n [ln(1 - a_n) + softplus(logit(a_n) + y_n)],   a_n = nu d0_n

so Theta(w, beta) = -(1/eta) R*(-eta (U w + beta)) - beta is the thesis's dual (3.26), and
d = grad R*(-eta s) = (1/nu) sigmoid(logit(nu d0) - eta s), s = U w + beta, is (3.27) in its
stable sigmoid form. beta has no closed form: it is the monotone 1-D root of sum(d) = 1.

sigma = 1 (the Hessian 1/d + 1/(1/nu - d) dominates the relative entropy's 1/d, so Pinsker applies).
B = ln(1/(nu min d0)) + max(1, (N/nu - 1) ln(1/(1 - nu max d0))): the first term bounds the
relative entropy part, the second the complement part (mass N/nu - 1, each ratio at most
1/(1 - nu max d0)). For uniform d0 the second term is <= 1 and B = ln(N/nu) + 1, the thesis's
constant (Thm 3.21; Thm 3.23 in its consistent form, with ln(N/nu) + 1 in place of the printed
ln(N/nu)). Needs nu < N (at nu = N, 1/nu - d0_n = 0) and nu d0_n < 1.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
from scipy.special import expit, logit, rel_entr

from dualboost.errors import DualBoostInputError
from dualboost.regularized import RegularizedLPBoost


class BinaryERLPBoost(RegularizedLPBoost):
    name = "binary_erlpboost"
    summary = "Binary ERLPBoost (capped binary relative entropy to d0; caps inside R)"
    equations = "thesis (3.25), (3.26), (3.27), (3.28); Algorithm 3.3; Thms 3.21, 3.23"
    caps_in_domain = True
    cones = ("exp",)
    fast_paths = ("regularizer_value", "conjugate_value", "conjugate_gradient",
                  "regularizer_gradient")

    def _check(self):
        self._interior()
        super()._check()

    def _interior(self) -> float:
        """nu max d0, which must be < 1 (checked first: eta's default calls range_bound)."""
        a = self.nu * float(np.max(self.d0))
        if a >= 1.0:
            raise DualBoostInputError(
                f"{self.name} needs d0 < 1/nu strictly, so nu < N (its regularizer divides by "
                f"1/nu - d0_n); got nu = {self.nu:g}, N = {self.N}, nu max d0 = {a:g}")
        return a

    def regularizer(self, d):
        c = 1.0 / self.nu
        return (-cp.sum(cp.entr(d)) - np.log(self.d0) @ d
                - cp.sum(cp.entr(c - d)) - np.log(c - self.d0) @ (c - d))

    def conjugate(self, y):
        a = self.nu * self.d0
        return cp.sum(np.log1p(-a) + cp.logistic(logit(a) + y)) / self.nu

    def modulus(self):
        return 1.0

    def range_bound(self):
        complement = (self.N / self.nu - 1.0) * -math.log1p(-self._interior())
        return math.log(1.0 / (self.nu * float(np.min(self.d0)))) + max(1.0, complement)

    # -- KKT recovery (thesis §3.3.4: no psi; the gradient holds ln d and ln(1/nu - d)) --------
    def recover_dual(self, U, d, tol=1e-6, hint=None):
        # a solver's d may touch the cap, where ln(1/nu - d) (and cvxpy's gradient) is undefined
        return super().recover_dual(U, np.minimum(d, (1.0 - 1e-15) / self.nu), tol, hint)

    def kkt_row_weights(self, d):
        # rows with d_n near 0 or near 1/nu carry round-off amplified by the logarithms; the
        # scale is the largest room, but at least 1e-6 / nu (on a peaked d every row may sit
        # within round-off of a bound, where ln(1/nu - d) is noise)
        room = np.clip(np.minimum(d, 1.0 / self.nu - d), 0.0, None)
        return room / max(float(room.max()), 1e-6 / self.nu)

    # -- fast paths (sigmoid / softplus forms of (3.26)-(3.27)) -------------------------------
    def regularizer_value(self, d):
        c = 1.0 / self.nu
        d = np.clip(d, 0.0, c)
        return float(rel_entr(d, self.d0).sum() + rel_entr(c - d, c - self.d0).sum())

    def conjugate_value(self, y):
        log1p_minus_a, logit_a = self._d0_terms()
        return float(np.sum(log1p_minus_a + np.logaddexp(0.0, logit_a + y)) / self.nu)

    def conjugate_gradient(self, y):
        return expit(self._d0_terms()[1] + y) / self.nu

    def _d0_terms(self):
        """ln(1 - a) and logit(a) for a = nu d0, computed once per d0 and nu (the fast master
        evaluates R* and its gradient thousands of times)."""
        cached = getattr(self, "_d0_terms_cache", None)
        if cached is None or cached[0] is not self.d0 or cached[1] != self.nu:
            a = self.nu * self.d0
            cached = (self.d0, self.nu, np.log1p(-a), logit(a))
            self._d0_terms_cache = cached
        return cached[2], cached[3]

    def inverse_curvature(self, d):
        """1 / R''(d) = d (1/nu - d) nu (R'' = 1/d + 1/(1/nu - d); thesis (3.27))."""
        d = np.asarray(d, dtype=float)
        return d * (1.0 - self.nu * d)

    def regularizer_gradient(self, d):
        c = 1.0 / self.nu
        return np.log(d / self.d0) - np.log((c - d) / (c - self.d0))


FORMULATION = BinaryERLPBoost
