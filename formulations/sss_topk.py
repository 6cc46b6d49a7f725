"""Seed 001 F3: the average of the k smallest margins (its Eq. 3, Corollary 5).

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N.

Primal (d-domain), seed 001 Eq. 2 with the cap 1/k (= F2 with nu = k)::

    min_{d, gamma} gamma
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         d <= 1/k                                (psi)
         sum(d) = 1                              (beta)

Dual (w-domain), seed 001 Eq. 3::

    max_{||w||_1 <= 1}  AvgMin_k(U w) = (1/k) sum of the k smallest (U w)_n

(Corollary 5: the same value as F2 with nu = k; the hinge form's gamma is the k-th smallest
margin). Over the columns [U, -U] this is the thesis's LP (2.2) at nu = k; docs/formulations.md.

Relations (catalogue F3, checked by C6): with z(k) <= z(k+1) the k-th and (k+1)-th smallest
margins of U w*, d*_n = 0 where (U w*)_n > z(k) and d*_n = 1/k where (U w*)_n < z(k+1); at least
N - k + 1 examples have margin >= the optimum.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.margins import capped_simplex_minimizer
from dualboost.params import EPS, Param
from dualboost.projection import capped_entropic_projection, euclidean_capped_projection
from dualboost.sss import ReflexiveMaster, SSSRelaxation

K = Param("k", "average of the k smallest margins: a count in [1, N] (the cap d <= 1/k; "
          "seed 001's k)", kind="int", default=lambda N, values: max(1, math.ceil(N / 10)),
          low=1, high="N", default_text="ceil(N/10)")


class SSSTopK(SSSRelaxation):
    name = "sss_topk"
    summary = "seed 001 F3: average of the k smallest margins (top-k), signed w"
    equations = "seed 001 Eq. 2, Eq. 3, Corollary 5; catalogue F3"
    params = (K, EPS)
    capabilities = Capabilities(strictly_convex=False, cones=("lp",),
                                closed_forms=("best_response",), primal_form="lp",
                                signed_weights=True)
    default_algorithm = "lpboost"
    catalogue = "F3"
    dual_variables = ("w",)

    @property
    def nu(self) -> float:
        """k as the capping count (the caps 1/k, the soft margin at nu = k)."""
        return float(self.k)

    def penalty_model(self, d):
        return 0, {"psi": d <= 1.0 / self.k}

    def in_domain(self, d):
        return bool(np.all(np.asarray(d, dtype=float) <= 1.0 / self.k + 1e-7))

    def primal_feasible(self, d):
        return euclidean_capped_projection(np.asarray(d, dtype=float), float(self.k))

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        value = cp.sum_smallest(U @ w, self.k) / self.k
        return Model(cp.Problem(cp.Maximize(value), [cp.norm1(w) <= 1]), {"w": w})

    def penalty_gradient(self, d):
        return np.zeros(self.N)

    def relaxed_point(self, z):
        """AvgMin_k(z), attained by d = 1/k on the k smallest margins."""
        z = np.asarray(z, dtype=float)
        smallest = np.partition(z, self.k - 1)[:self.k]
        return float(smallest.mean()), {}, capped_simplex_minimizer(z, float(self.k))

    def smoothed_distribution(self, z, beta):
        """The relative-entropy projection of softmax(-z/beta) onto d <= 1/k (seed 001 Eq. 14)."""
        return capped_entropic_projection(-np.asarray(z, dtype=float) / beta, float(self.k)).d

    def fast_master(self):
        """LPBoost's HiGHS master (2.3) over [u1, -u1, u2, -u2, ...] (identity I8), certified
        here (:class:`dualboost.sss.ReflexiveMaster`)."""
        from formulations.lpboost import LPBoost

        return ReflexiveMaster(self, LPBoost(self.N, nu=float(self.k), eps=self.eps))

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        ordered = np.sort(z)
        low = ordered[self.k - 1]
        high = ordered[min(self.k, self.N - 1)]
        cap = 1.0 / self.k
        return {"F3 d*_n = 0 above the k-th margin, 1/k below the (k+1)-th":
                max(float(np.max(d * np.maximum(z - low, 0.0))),
                    float(np.max((cap - d) * np.maximum(high - z, 0.0))))}


FORMULATION = SSSTopK
