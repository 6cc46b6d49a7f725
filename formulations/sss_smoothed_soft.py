"""Seed 001 F8: the entropy-smoothed soft margin (its R5-cap; what Figure 1 and Eq. 13 optimize).

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N, its cap
nu in [1/N, 1] is this project's 1/nu (nu a count in [1, N]), h(d) = sum d ln d + ln N.

Primal (d-domain), catalogue F8::

    min_{d, gamma} gamma + beta h(d)
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         d <= 1/nu                               (psi)
         sum(d) = 1                              (beta, the multiplier; not the weight beta)

Dual (w-domain), catalogue F8 with the hinges xi = psi::

    max_{||w||_1 <= 1, psi >= 0}  -sum(psi)/nu - beta (ln sum_n exp(-((U w)_n + psi_n)/beta) - ln N)

The map d*-w*: d* = softmax(-(U w* + psi*)/beta) = the relative-entropy projection of
softmax(-U w*/beta) onto d <= 1/nu (seed 001 Eq. 14, Figure 2); the capped entries are those with
psi*_n > 0. Sandwich with F2: the smoothed value lies in [soft margin, soft margin + beta ln(N/nu)].

In the thesis's terms this is ERLPBoost (3.6)/(3.10) with eta = 1/beta and d0 uniform over the
columns [U, -U]; its value is ERLPBoost's minus beta ln N (h = Delta(d, uniform) + 0: the
thesis's Delta(d, 1/N) already equals h; docs/formulations.md).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.params import EPS, NU
from dualboost.projection import (
    capped_entropic_projection,
    euclidean_capped_projection,
    log_sum_exp,
)
from dualboost.sss import BETA, ReflexiveMaster, SSSRelaxation, entropy, softmax


class SSSSmoothedSoft(SSSRelaxation):
    name = "sss_smoothed_soft"
    summary = "seed 001 F8: entropy-smoothed soft margin (capped simplex), signed w"
    equations = "seed 001 Eq. 7, Eq. 8, Eq. 14, Figure 2; catalogue F8 (R5-cap)"
    params = (NU, EPS, BETA)
    capabilities = Capabilities(strictly_convex=True, cones=("exp",),
                                closed_forms=("best_response", "d_from_dual", "optimal_beta"),
                                primal_form="regularized", signed_weights=True)
    default_algorithm = "erlpboost"
    catalogue = "F8"
    dual_variables = ("w", "psi")
    smoothing_weight = "beta"

    def penalty_model(self, d):
        return (-self.beta * cp.sum(cp.entr(d)) + self.beta * math.log(self.N),
                {"psi": d <= 1.0 / self.nu})

    def in_domain(self, d):
        return bool(np.all(np.asarray(d, dtype=float) <= 1.0 / self.nu + 1e-7))

    def penalty(self, d):
        return self.beta * entropy(d) if self.in_domain(d) else math.inf

    def primal_feasible(self, d):
        return euclidean_capped_projection(np.asarray(d, dtype=float), self.nu)

    def penalty_gradient(self, d):
        """beta (1 + ln d): the gradient of beta h (d clipped at 1e-300, as the model's)."""
        return self.beta * (1.0 + np.log(np.maximum(d, 1e-300)))

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi")
        value = (-cp.sum(psi) / self.nu
                 - self.beta * (cp.log_sum_exp(-(U @ w + psi) / self.beta) - math.log(self.N)))
        return Model(cp.Problem(cp.Maximize(value), [cp.norm1(w) <= 1]), {"w": w, "psi": psi})

    def _projection(self, z, beta):
        return capped_entropic_projection(-np.asarray(z, dtype=float) / beta, self.nu)

    def relaxed_point(self, z):
        """d = the capped projection of softmax(-z/beta) (Figure 2), psi = beta (ln(d0_n nu) +
        the projection's log scale) on the capped entries, value <z, d> + beta h(d)."""
        z = np.asarray(z, dtype=float)
        proj = self._projection(z, self.beta)
        psi = np.zeros(self.N)
        log_a = -z / self.beta
        psi[proj.capped] = self.beta * (math.log(self.nu) + proj.log_scale + log_a[proj.capped])
        psi = np.maximum(psi, 0.0)
        d = proj.d
        return float(d @ z) + self.beta * entropy(d), {"psi": psi}, d

    def smoothed_distribution(self, z, beta):
        """The capped projection of softmax(-z / (self.beta + beta)) (seed 001 Eq. 14)."""
        return self._projection(z, self.beta + beta).d

    def d_from_dual(self, U, point):
        z = self.check_columns(U) @ self.signed_w(point)
        psi = point.get("psi")
        b = point.get("beta")
        if psi is None:
            return self._projection(z, self.beta).d
        s = z + np.asarray(psi, dtype=float)
        if b is None:
            return softmax(-s / self.beta)
        return np.exp(-(s + float(b)) / self.beta - 1.0)

    def optimal_beta(self, U, point):
        """The normalization's multiplier: beta (ln sum exp(-(U w + psi)/beta) - 1)."""
        z = self.check_columns(U) @ self.signed_w(point)
        psi = point.get("psi")
        s = z + (0.0 if psi is None else np.asarray(psi, dtype=float))
        return float(self.beta * (log_sum_exp(-s / self.beta) - 1.0))

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        out = {"F8 d* = Figure 2 projection of softmax(-Uw*/beta)":
               float(np.max(np.abs(d - self._projection(z, self.beta).d)))}
        psi = point.get("psi")
        if psi is not None:
            out["F8 psi*_n > 0 only where d*_n = 1/nu"] = float(np.max(
                np.asarray(psi, dtype=float) * (1.0 / self.nu - d)))
        return out

    def fast_master(self):
        """ERLPBoost's projected-Newton master over [u1, -u1, u2, -u2, ...] (eta = 1/beta,
        uniform prior), certified here (:class:`dualboost.sss.ReflexiveMaster`)."""
        from formulations.erlpboost import ERLPBoost

        inner = ERLPBoost(self.N, nu=self.nu, eta=1.0 / self.beta, eps=self.eps)
        return ReflexiveMaster(self, inner)

    # -- what the regularized algorithm (thesis Alg. 3.2) reads ----------------------------------
    @property
    def eta(self) -> float:
        """eta = 1/beta: beta h(d) is the thesis's (1/eta) Delta(d, uniform)."""
        return 1.0 / self.beta

    def modulus(self) -> float:
        """sigma = 1 (Pinsker)."""
        return 1.0

    def range_bound(self) -> float:
        """B = ln(N/nu): h <= ln(N/nu) on the capped simplex (thesis §3.2.5)."""
        return math.log(self.N / self.nu)


FORMULATION = SSSSmoothedSoft
