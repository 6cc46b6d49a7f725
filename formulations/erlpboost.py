"""ERLPBoost: entropy-regularized LPBoost, thesis (3.6), its dual (3.10)/(3.14) and the map (3.11).

The regularized-LPBoost family (:mod:`dualboost.regularized`) with the relative entropy::

    R(d) = Delta(d, d0) = sum_n d_n ln(d_n / d0_n)           (thesis (3.6))
    R*(y) = sum_n d0_n exp(y_n - 1)                          (so Theta is thesis (3.14))

sigma = 1 (Pinsker: Delta(d, d') >= ||d - d'||_1^2 / 2) and B = ln(1/(nu min d0)) (= ln(N/nu) for
uniform d0, thesis §3.2.5), so eta = max((2/eps) ln(N/nu), 1/2) and T <= max(32 ln(N/nu)/eps^2,
8/eps) (Thm 3.10; Thm 3.12 doubles it for the practical rule).

``sample_weight`` s (docs/theory.md, "Sample weights"): the same program with per-example caps
``d_n <= s_n N / (nu sum s)`` and the prior d0 = s / sum s (the default; for integer s the
aggregate of the rows repeated s_n times with the uniform prior), B = max_n ln(cap_n / d0_n).

Fast paths (each compared by the verifier with the version derived from the two expressions):
(3.11) with the optimal beta (3.16) in closed form, Theta (3.10) by logsumexp, and the exact psi for
fixed w by the capped entropic projection (O(N log N)).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
from scipy.special import logsumexp, rel_entr

from dualboost.formulation import Certificate, Multipliers
from dualboost.projection import capped_entropic_projection
from dualboost.regularized import RegularizedLPBoost


class ERLPBoost(RegularizedLPBoost):
    name = "erlpboost"
    summary = "entropy-regularized LPBoost (relative entropy to d0)"
    equations = "thesis (3.6), (3.10), (3.11), (3.14), (3.16); Algorithm 3.2"
    cones = ("exp",)
    fast_paths = ("regularizer_value", "conjugate_value", "conjugate_gradient", "optimal_beta",
                  "best_response", "regularizer_gradient")
    supports_sample_weight = True

    # -- the declared math -------------------------------------------------------------------
    def regularizer(self, d):
        # sum d ln(d/d0) written as -entr(d) - ln(d0).d: the same function, but Clarabel and ECOS
        # solve this form reliably where rel_entr(d, d0) made them stall on some stump subsets
        return -cp.sum(cp.entr(d)) - np.log(self.d0) @ d

    def conjugate(self, y):
        return self.d0 @ cp.exp(y - 1)

    def modulus(self):
        return 1.0

    def range_bound(self):
        if self.sample_weight is not None:  # R(d) <= max_n ln(cap_n / d0_n) on the capped simplex
            return math.log(float(np.max(self.cap_vector / self.d0)))
        return math.log(1.0 / (self.nu * float(np.min(self.d0))))

    # -- fast paths --------------------------------------------------------------------------
    def regularizer_value(self, d):
        return float(rel_entr(np.clip(d, 0.0, None), self.d0).sum())

    def conjugate_value(self, y):
        return float(np.exp(logsumexp(y - 1, b=self.d0)))

    def conjugate_gradient(self, y):
        return self.d0 * np.exp(y - 1)

    def regularizer_gradient(self, d):
        return 1.0 + np.log(d / self.d0)

    def inverse_curvature(self, d):
        """1 / R''(d) = d (R'' = 1/d): the Newton master's curvature in closed form."""
        return np.asarray(d, dtype=float)

    def optimal_beta(self, U, point):
        """(3.16): beta = -1/eta + (1/eta) ln sum_n d0_n exp(-eta (U w + psi)_n)."""
        s = self._slack_margins(self.check_columns(U), point)
        return float((-1.0 + logsumexp(-self.eta * s, b=self.d0)) / self.eta)

    def best_response(self, U, w):
        """Exact psi for fixed w: the capped entropic projection of ``d0 exp(-eta U w)``."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        log_d0 = self._log_d0()
        # log_d0 - eta (U w), in place in the product's own array (the same numbers)
        log_a = U @ w
        np.multiply(log_a, -self.eta, out=log_a)
        log_a += log_d0
        # from the scale of the last projection (a master's evaluations are near each other)
        proj = capped_entropic_projection(log_a, self.nu if self.has_caps else 1.0,
                                          cap=self.cap_vector,
                                          guess=getattr(self, "_last_log_scale", None))
        self._last_log_scale = proj.log_scale
        # the capped examples by index: a boolean gather or scatter over N entries costs about
        # ten times a pass of arithmetic (a fast master calls this thousands of times)
        capped = np.flatnonzero(proj.capped)
        psi = np.zeros(self.N)
        psi_capped = np.zeros(capped.size)
        if self.has_caps:
            # ln(1/cap) + ln c + ln a_n: ln(nu), or per example with sample weights
            if self.cap_vector is None:
                shift = np.log(self.nu) + proj.log_scale
            else:
                shift = (-np.log(self.cap_vector) + proj.log_scale).take(capped)
            psi_capped = np.maximum((shift + log_a.take(capped)) / self.eta, 0.0)
            psi.put(capped, psi_capped)
        beta = (-1.0 - proj.log_scale) / self.eta
        point = Multipliers(w=w, psi=psi, beta=beta)
        # both values from the quantities at hand: P(d) = max_q u^q.d + R(d)/eta with R(d) =
        # sum d (ln d - ln d0) from the projection's own ln d (no log of N numbers), and
        # Theta(w, psi, beta) of (3.14) with the projection's beta (any beta gives a lower
        # bound), where R*(-eta s) = sum d0 exp(-eta (U w + psi + beta) - 1)
        # = sum exp(log_a - eta psi + c)
        d, edges = proj.d, U.T @ proj.d
        primal = (float(edges.max()) + float(d @ (proj.log_d - log_d0)) / self.eta
                  if self.in_domain(d) else math.inf)
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7:
            dual = -math.inf  # off the simplex: dual_objective's convention
        else:
            # exp(log_a - eta psi + c) is d_n off the capped set (psi = 0 there; within the
            # projection's 1e-12 slack of the cap); on it, the k capped exponentials
            exponent = log_a.take(capped) - self.eta * psi_capped + proj.log_scale
            uncapped = float(d.sum()) - float(d.take(capped).sum())
            conjugate = uncapped + float(np.exp(exponent).sum())
            penalty = float(np.sum(self.cap * psi)) if self.has_caps else 0.0
            dual = -conjugate / self.eta - beta - penalty
        return Certificate(point, d, primal, dual, edges=edges)

    def _log_d0(self):
        """ln d0, computed once per d0 (the fast master evaluates the best response often)."""
        cached = getattr(self, "_log_d0_cache", None)
        if cached is None or cached[0] is not self.d0:
            cached = (self.d0, np.log(self.d0))
            self._log_d0_cache = cached
        return cached[1]


FORMULATION = ERLPBoost
