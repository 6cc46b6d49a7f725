"""Seed 001 F2: capped probabilities = the hinge soft margin (its Eq. 2 = Eq. 6, Example 1).

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N, and
its cap nu in [1/N, 1] is this project's 1/nu with nu a count in [1, N].

Primal (d-domain), seed 001 Eq. 2 / catalogue F2::

    min_{d, gamma} gamma
    s.t. U^T d <= gamma 1, -U^T d <= gamma 1    (w >= 0, w_neg >= 0: the seed's w+ and w-)
         d <= 1/nu                               (psi)
         sum(d) = 1                              (beta)
         d >= 0

Dual (w-domain), seed 001 Eq. 6 with gamma = -beta and the hinges xi = psi::

    max_{w, psi, beta} -beta - sum(psi)/nu   s.t.  U w + psi + beta 1 >= 0,  psi >= 0,
                                                 ||w||_1 <= 1

whose value at w is the average of the nu smallest margins (Corollary 5; the fractional part of
nu weights the next one). Over the columns [U, -U] (a class closed under negation) this is the
thesis's LP (2.2)/(2.3) with w on the simplex: docs/formulations.md.

Relations (catalogue F2, checked by C6): xi* = [gamma* - U w*]_+; (U w*)_n < gamma* => d*_n = 1/nu,
(U w*)_n > gamma* => d*_n = 0; w* aligned with the largest |edges|.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.margins import capped_simplex_minimizer, lp_slacks
from dualboost.params import EPS, NU
from dualboost.projection import capped_entropic_projection, euclidean_capped_projection
from dualboost.sss import ReflexiveMaster, SSSRelaxation


class SSSSoftMargin(SSSRelaxation):
    name = "sss_soft_margin"
    summary = "seed 001 F2: capped simplex d <= 1/nu = hinge soft margin, signed w"
    equations = "seed 001 Eq. 2, Eq. 6, Example 1, Corollary 5; catalogue F2"
    params = (NU, EPS)
    capabilities = Capabilities(strictly_convex=False, cones=("lp",),
                                closed_forms=("best_response",), primal_form="lp",
                                signed_weights=True)
    default_algorithm = "lpboost"
    catalogue = "F2"
    dual_variables = ("w", "psi", "beta")

    def penalty_model(self, d):
        return 0, {"psi": d <= 1.0 / self.nu}

    def in_domain(self, d):
        return bool(np.all(np.asarray(d, dtype=float) <= 1.0 / self.nu + 1e-7))

    def primal_feasible(self, d):
        return euclidean_capped_projection(np.asarray(d, dtype=float), self.nu)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi")
        beta = cp.Variable(name="beta")
        problem = cp.Problem(cp.Maximize(-beta - cp.sum(psi) / self.nu),
                             [U @ w + psi + beta >= 0, cp.norm1(w) <= 1])
        return Model(problem, {"w": w, "psi": psi, "beta": beta})

    def penalty_gradient(self, d):
        return np.zeros(self.N)

    def relaxed_point(self, z):
        """AvgMin_nu(z): gamma the ceil(nu)-th smallest margin, xi = [gamma - z]_+ (seed 001
        §2.1), d = 1/nu on the nu smallest margins."""
        psi = lp_slacks(z, self.nu)
        gamma = float((z + psi).min())
        value = gamma - float(psi.sum()) / self.nu
        return value, {"psi": psi, "beta": -gamma}, capped_simplex_minimizer(z, self.nu)

    def smoothed_distribution(self, z, beta):
        """The relative-entropy projection of softmax(-z/beta) onto d <= 1/nu (seed 001 Eq. 14,
        Figure 2)."""
        return capped_entropic_projection(-np.asarray(z, dtype=float) / beta, self.nu).d

    def fast_master(self):
        """LPBoost's HiGHS master (2.3) over [u1, -u1, u2, -u2, ...] (identity I8), certified
        here (:class:`dualboost.sss.ReflexiveMaster`)."""
        from formulations.lpboost import LPBoost

        return ReflexiveMaster(self, LPBoost(self.N, nu=self.nu, eps=self.eps))

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        gamma = -float(point["beta"])
        cap = 1.0 / self.nu
        out = {"F2 (Uw*)_n < gamma* => d*_n = 1/nu, > gamma* => d*_n = 0":
               max(float(np.max(d * np.maximum(z - gamma, 0.0))),
                   float(np.max((cap - d) * np.maximum(gamma - z, 0.0))))}
        if point.get("psi") is not None:
            out["F2 xi* = [gamma* - Uw*]_+"] = float(np.max(np.abs(
                np.asarray(point["psi"], dtype=float) - np.maximum(gamma - z, 0.0))))
        return out


FORMULATION = SSSSoftMargin
