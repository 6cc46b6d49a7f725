"""Unnormalized ERLPBoost: the unnormalized relative entropy, thesis (3.18)-(3.21), §3.2.6.

The regularized-LPBoost family (:mod:`dualboost.regularized`) with::

    R(d) = Delta_U(d, d0) = sum_n d_n ln(d_n / d0_n) - d_n + d0_n          (thesis (3.18), (3.21))
    R*(y) = sum_n d0_n (e^{y_n} - 1)

so Theta is the thesis's (3.19): Theta_U(w, psi, beta) = (1/eta) sum d0 (1 - e^{-eta s}) -
sum(psi)/nu - beta with s = U w + psi + beta, and d = d0 e^{-eta s} is (3.20) (no "+1" in the
exponent). On the simplex Delta_U equals the relative entropy, so the primal is ERLPBoost's (3.6):
the same d; the optimal beta_U = (1/eta) ln sum d0 e^{-eta (U w + psi)} differs from (3.16) by
1/eta, and with beta optimized out Theta_U = Theta (3.10) (thesis §3.2.6).

sigma = 1 and B = ln(1/(nu min d0)) (= ln(N/nu) for uniform d0), as for ERLPBoost.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
from scipy.special import logsumexp, rel_entr

from dualboost.regularized import RegularizedLPBoost


class UnnormalizedERLPBoost(RegularizedLPBoost):
    name = "erlpboost_unnormalized"
    summary = "ERLPBoost with the unnormalized relative entropy (same d; beta shifted by 1/eta)"
    equations = "thesis (3.18), (3.19), (3.20), (3.21); §3.2.6"
    cones = ("exp",)
    fast_paths = ("regularizer_value", "conjugate_value", "conjugate_gradient", "optimal_beta",
                  "regularizer_gradient")

    def regularizer(self, d):
        # the -entr form, as ERLPBoost's: Clarabel and ECOS solve it more reliably than rel_entr
        return -cp.sum(cp.entr(d)) - np.log(self.d0) @ d - cp.sum(d) + float(self.d0.sum())

    def conjugate(self, y):
        return self.d0 @ cp.exp(y) - float(self.d0.sum())

    def modulus(self):
        return 1.0

    def range_bound(self):
        return math.log(1.0 / (self.nu * float(np.min(self.d0))))

    # -- fast paths --------------------------------------------------------------------------
    def regularizer_value(self, d):
        d = np.clip(d, 0.0, None)
        return float(rel_entr(d, self.d0).sum() - d.sum() + self.d0.sum())

    def conjugate_value(self, y):
        return float(np.exp(logsumexp(y, b=self.d0)) - self.d0.sum())

    def conjugate_gradient(self, y):
        return self.d0 * np.exp(y)

    def regularizer_gradient(self, d):
        return np.log(d / self.d0)

    def inverse_curvature(self, d):
        """1 / R''(d) = d, as for the relative entropy."""
        return np.asarray(d, dtype=float)

    def optimal_beta(self, U, point):
        """beta_U = (1/eta) ln sum_n d0_n exp(-eta (U w + psi)_n) (thesis §3.2.6)."""
        s = self._slack_margins(self.check_columns(U), point)
        return float(logsumexp(-self.eta * s, b=self.d0) / self.eta)


FORMULATION = UnnormalizedERLPBoost
