"""Seed 001 F1: weak learnability = l1 separability (its Theorem 4), the hard margin.

Seed 001 calls the d-domain problem primal too (this project's primal); its A is U, m is N.

Primal (d-domain), seed 001 Definition 2 / catalogue F1::

    min_{d, gamma} gamma
    s.t. U^T d <= gamma 1      (w >= 0, the seed's w+)
         -U^T d <= gamma 1     (w_neg >= 0, the seed's w-)
         sum(d) = 1            (beta)
         d >= 0

Dual (w-domain), seed 001 Definition 1 with gamma = -beta::

    max_{w, beta} -beta   s.t.  U w + beta 1 >= 0,  ||w||_1 <= 1

so the value at w is the smallest margin min_n (U w)_n. The seed's w is signed (w = w+ - w-):
over the columns [U, -U] (a class closed under negation, as stumps are) this is the thesis's hard
margin (2.1) with w on the simplex; docs/formulations.md, "Seed 001's relaxation family".

Relations (catalogue F1, checked by C6): d*_n > 0 only where (U w*)_n = gamma*; w* lives on the
columns of largest |edge| with the edge's sign, ||w*||_1 = 1 when gamma* > 0.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Model
from dualboost.params import EPS
from dualboost.sss import ReflexiveMaster, SSSRelaxation, softmax


class SSSHardMargin(SSSRelaxation):
    name = "sss_hard_margin"
    summary = "seed 001 F1: hard l1 margin, signed w with ||w||_1 <= 1, two-sided edges"
    equations = "seed 001 Theorem 4, Definitions 1-2; catalogue F1"
    params = (EPS,)
    capabilities = Capabilities(strictly_convex=False, cones=("lp",),
                                closed_forms=("best_response",), primal_form="lp",
                                signed_weights=True)
    default_algorithm = "lpboost"
    catalogue = "F1"
    dual_variables = ("w", "beta")

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        beta = cp.Variable(name="beta")
        problem = cp.Problem(cp.Maximize(-beta), [U @ w + beta >= 0, cp.norm1(w) <= 1])
        return Model(problem, {"w": w, "beta": beta})

    def penalty_gradient(self, d):
        return np.zeros(self.N)

    def relaxed_point(self, z):
        """min_{d in S} <z, d> = min_n z_n, at the vertex of the smallest margin."""
        smallest = int(np.argmin(z))
        d = np.zeros(self.N)
        d[smallest] = 1.0
        return float(z[smallest]), {"beta": -float(z[smallest])}, d

    def smoothed_distribution(self, z, beta):
        """softmax(-z / beta) (seed 001 §3.3, the hard margin)."""
        return softmax(-np.asarray(z, dtype=float) / beta)

    def fast_master(self):
        """LPBoost's HiGHS master (2.3) over [u1, -u1, u2, -u2, ...] (identity I8), certified
        here (:class:`dualboost.sss.ReflexiveMaster`)."""
        from formulations.lpboost import LPBoost

        return ReflexiveMaster(self, LPBoost(self.N, nu=1.0, eps=self.eps))

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        gamma = -float(point["beta"]) if point.get("beta") is not None else float(z.min())
        return {"F1 d*_n > 0 only where (Uw*)_n = gamma*":
                float(np.max(d * np.abs(z - gamma)))}


FORMULATION = SSSHardMargin
