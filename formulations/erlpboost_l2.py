"""ERLPBoost with a squared Euclidean regularizer (the regularized-LPBoost family, thesis (3.6)).

The relative entropy of thesis (3.6) replaced by a quadratic (cf. seed 002's (27), where the
l2-regularized d-domain problem is "variance-regularized LPBoost")::

    R(d) = (N/2) ||d - d0||_2^2
    R*(y) = sup_{d >= 0} y.d - R(d) = (N/2) sum_n pos(d0_n + y_n / N)^2 - (N/2) ||d0||_2^2

with d = grad R*(-eta s) = pos(d0 - eta s / N), s = U w + psi + beta (the analogue of thesis
(3.13)); unlike the entropies, d_n can be exactly 0.

sigma = 1 w.r.t. ||.||_1, because ||x||_2^2 >= ||x||_1^2 / N. On the capped simplex ||d||^2 <=
max d <= 1/nu and d.d0 >= min d0, so B = (N/2)(1/nu + ||d0||^2 - 2 min d0) (exactly
(N/2)(1/nu - 1/N), the value at a vertex, for uniform d0 and integer nu).
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost


class L2ERLPBoost(RegularizedLPBoost):
    name = "erlpboost_l2"
    summary = "LPBoost regularized by (N/2) ||d - d0||_2^2 (quadratic; d may vanish)"
    equations = "thesis (3.6), (3.12), (3.13) with a quadratic R; seed 002 (27)"
    cones = ("soc",)
    fast_paths = ("regularizer_value", "conjugate_value", "conjugate_gradient",
                  "regularizer_gradient")

    def regularizer(self, d):
        return self.N / 2.0 * cp.sum_squares(d - self.d0)

    def conjugate(self, y):
        return self.N / 2.0 * (cp.sum_squares(cp.pos(self.d0 + y / self.N))
                               - float(self.d0 @ self.d0))

    def modulus(self):
        return 1.0

    def range_bound(self):
        return self.N / 2.0 * (1.0 / self.nu + float(self.d0 @ self.d0)
                               - 2.0 * float(np.min(self.d0)))

    # -- fast paths --------------------------------------------------------------------------
    def regularizer_value(self, d):
        return float(self.N / 2.0 * np.sum((np.asarray(d) - self.d0) ** 2))

    def conjugate_value(self, y):
        return float(self.N / 2.0 * (np.sum(self.conjugate_gradient(y) ** 2) - self.d0 @ self.d0))

    def conjugate_gradient(self, y):
        return np.maximum(self.d0 + np.asarray(y, dtype=float) / self.N, 0.0)

    def inverse_curvature(self, d):
        """1 / R''(d) = 1/N (R'' = N)."""
        return np.full(np.shape(d), 1.0 / self.N)

    def regularizer_gradient(self, d):
        return self.N * (np.asarray(d, dtype=float) - self.d0)


FORMULATION = L2ERLPBoost
