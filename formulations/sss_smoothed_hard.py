"""Seed 001 F7: the entropy-smoothed hard margin (its R4, AdaBoost's soft-min; Eq. 8 with f = 0).

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N, and
h(d) = sum d ln d + ln N is the relative entropy to the uniform distribution.

Primal (d-domain), catalogue F7::

    min_{d, gamma} gamma + beta h(d)
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         sum(d) = 1                              (beta, the multiplier; not the weight beta)

Dual (w-domain), catalogue F7 (seed 001 §5.1, App. B: (I_S + h)* = ln((1/N) sum e^theta))::

    max_{||w||_1 <= 1}  -beta (ln sum_n exp(-(U w)_n / beta) - ln N)

The map d*-w* is d* = softmax(-U w*/beta) (unique: the primal is strictly convex), and with the
normalization's multiplier b, d = exp(-(U w + b)/beta - 1). Sandwich with F1: the smoothed value
lies in [hard margin, hard margin + beta ln N] (seed 001 Eq. 7).

In the thesis's terms this is ERLPBoost (3.6) with nu = 1, eta = 1/beta and d0 uniform over the
columns [U, -U] (docs/formulations.md, "Seed 001's relaxation family"); the regularized
algorithm (thesis Alg. 3.2) runs it with sigma = 1 (Pinsker) and B = ln N.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.params import EPS
from dualboost.projection import log_sum_exp
from dualboost.sss import BETA, ReflexiveMaster, SSSRelaxation, entropy, softmax


class SSSSmoothedHard(SSSRelaxation):
    name = "sss_smoothed_hard"
    summary = "seed 001 F7: entropy-smoothed hard margin (soft-min), signed w"
    equations = "seed 001 Eq. 7, Eq. 8, §5.1, App. B; catalogue F7 (R4)"
    params = (EPS, BETA)
    capabilities = Capabilities(strictly_convex=True, cones=("exp",),
                                closed_forms=("best_response", "d_from_dual", "optimal_beta"),
                                primal_form="regularized", signed_weights=True)
    default_algorithm = "erlpboost"
    catalogue = "F7"
    dual_variables = ("w",)
    smoothing_weight = "beta"

    def penalty_model(self, d):
        return -self.beta * cp.sum(cp.entr(d)) + self.beta * math.log(self.N), {}

    def penalty(self, d):
        return self.beta * entropy(d)

    def penalty_gradient(self, d):
        """beta (1 + ln d): the gradient of beta h (d clipped at 1e-300, as the model's)."""
        return self.beta * (1.0 + np.log(np.maximum(d, 1e-300)))

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        value = -self.beta * (cp.log_sum_exp(-(U @ w) / self.beta) - math.log(self.N))
        return Model(cp.Problem(cp.Maximize(value), [cp.norm1(w) <= 1]), {"w": w})

    def relaxed_point(self, z):
        """d = softmax(-z/beta), value -beta (ln sum exp(-z/beta) - ln N) (seed 001 §3.3)."""
        x = -np.asarray(z, dtype=float) / self.beta
        value = -self.beta * (log_sum_exp(x) - math.log(self.N))
        return value, {}, softmax(x)

    def smoothed_distribution(self, z, beta):
        """softmax(-z / (self.beta + beta)): the extra smoothing adds to the built-in one."""
        return softmax(-np.asarray(z, dtype=float) / (self.beta + beta))

    def d_from_dual(self, U, point):
        z = self.check_columns(U) @ self.signed_w(point)
        b = point.get("beta")
        if b is None:
            return softmax(-z / self.beta)
        return np.exp(-(z + float(b)) / self.beta - 1.0)

    def optimal_beta(self, U, point):
        """The normalization's multiplier: beta (ln sum exp(-U w/beta) - 1)."""
        z = self.check_columns(U) @ self.signed_w(point)
        return float(self.beta * (log_sum_exp(-z / self.beta) - 1.0))

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        return {"F7 d* = softmax(-Uw*/beta)": float(np.max(np.abs(d - softmax(-z / self.beta))))}

    def fast_master(self):
        """ERLPBoost's projected-Newton master over [u1, -u1, u2, -u2, ...] (eta = 1/beta,
        uniform prior), certified here (:class:`dualboost.sss.ReflexiveMaster`)."""
        from formulations.erlpboost import ERLPBoost

        return ReflexiveMaster(self, ERLPBoost(self.N, nu=1.0, eta=1.0 / self.beta, eps=self.eps))

    # -- what the regularized algorithm (thesis Alg. 3.2) reads ----------------------------------
    @property
    def eta(self) -> float:
        """eta = 1/beta: beta h(d) is the thesis's (1/eta) Delta(d, uniform)."""
        return 1.0 / self.beta

    def modulus(self) -> float:
        """sigma = 1: h is 1-strongly convex in l1 on the simplex (Pinsker; seed 001 §3.2)."""
        return 1.0

    def range_bound(self) -> float:
        """B = ln N: 0 <= h <= ln N on the simplex (seed 001 Table 1)."""
        return math.log(self.N)


FORMULATION = SSSSmoothedHard
