"""LPBoost: the soft-margin linear program, thesis (2.2) and (2.3); nu = 1 is the hard margin (2.1).

Primal (d-domain), thesis (2.3)::

    P_LP^t = min_{d, gamma} gamma
             s.t. U^T d <= gamma 1    (w >= 0)
                  d <= 1/nu           (psi >= 0; not modelled when nu = 1)
                  sum(d) = 1          (beta)
                  d >= 0

Dual (w-domain), thesis (2.2) with rho = -beta (the soft margin)::

    max_{w, psi, beta} -beta - sum(psi)/nu
    s.t. U w + psi + beta 1 >= 0,  w >= 0,  sum(w) = 1,  psi >= 0

For fixed w the best psi is ``max(0, rho - U w)`` (erratum #2: the thesis prints min) and the
value is the average of the nu smallest margins (:func:`dualboost.margins.soft_margin`).

``sample_weight`` s (docs/theory.md, "Sample weights"): the same LP with per-example caps
``d_n <= s_n N / (nu sum s)`` in place of 1/nu and the dual penalty ``caps . psi``; for integer s
it is the LP of the rows repeated s_n times, aggregated (nu/N is the fraction of total weight).
There is no closed-form map from w to d (the LP's d is generally not unique), and no iteration
bound: the thesis's instance (Thm 2.5) needs N/2 iterations.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from dualboost.margins import capped_simplex_minimizer, lp_slacks
from dualboost.params import EPS, NU, SAMPLE_WEIGHT
from dualboost.projection import euclidean_capped_projection


class LPBoost(Formulation):
    name = "lpboost"
    summary = "soft-margin LPBoost (nu = 1: hard margin)"
    equations = "thesis (2.2), (2.3); Algorithm 2.1"
    params = (NU, EPS, SAMPLE_WEIGHT)
    capabilities = Capabilities(strictly_convex=False, cones=("lp",),
                                closed_forms=("dual_objective", "best_response"),
                                primal_form="lp")
    default_algorithm = "lpboost"

    @property
    def has_caps(self) -> bool:
        return self.nu > 1 or self.sample_weight is not None

    def primal(self, U):
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints = {"w": U.T @ d <= gamma}
        if self.has_caps:
            constraints["psi"] = d <= self.cap
        constraints["beta"] = cp.sum(d) == 1
        problem = cp.Problem(cp.Minimize(gamma), list(constraints.values()))
        absent = {} if self.has_caps else {"psi": np.zeros(self.N)}
        return Model(problem, {"d": d, "gamma": gamma}, constraints, absent)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        beta = cp.Variable(name="beta")
        variables = {"w": w}
        slack, penalty = 0, 0
        if self.has_caps:
            psi = cp.Variable(self.N, nonneg=True, name="psi")
            variables["psi"] = psi
            slack, penalty = psi, cp.sum(cp.multiply(self.cap, psi))
        variables["beta"] = beta
        problem = cp.Problem(cp.Maximize(-beta - penalty),
                             [U @ w + slack + beta >= 0, cp.sum(w) == 1])
        absent = {} if self.has_caps else {"psi": np.zeros(self.N)}
        return Model(problem, variables, {}, absent)

    def primal_objective(self, U, d):
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if abs(d.sum() - 1) > 1e-7 or d.min() < -1e-7 or np.any(d > self.cap + 1e-7):
            return math.inf
        return float((U.T @ d).max()) if U.shape[1] else -1.0

    def primal_feasible(self, d):
        return euclidean_capped_projection(np.asarray(d, dtype=float), self.nu,
                                           cap=self.cap_vector)

    def dual_feasible(self, U, point):
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        total = w.sum()
        w = w / total if total > 0 else np.full(w.shape, 1.0 / w.size)
        out = Multipliers(w=w)
        psi = point.get("psi")
        if self.has_caps:
            out["psi"] = np.zeros(self.N) if psi is None else np.clip(psi, 0.0, None)
        return out  # beta is re-optimized: its best value is -min(U w + psi)

    def dual_objective(self, U, point):
        """(2.2) with beta = -min_n (U w + psi)_n (the optimal beta for (w, psi))."""
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        psi = point.get("psi")
        psi = np.zeros(self.N) if psi is None or not self.has_caps else np.asarray(psi, float)
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7 or psi.min() < -1e-7:
            return -math.inf
        slack_margins = U @ w + psi
        beta = point.get("beta")
        if beta is None:
            beta = -slack_margins.min()
        elif (slack_margins + beta).min() < -1e-9 * (1 + abs(beta)):
            return -math.inf  # the Lagrange dual function is -inf off U w + psi + beta >= 0
        return float(-beta - np.sum(self.cap * psi))

    def best_response(self, U, w):
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        margins = U @ w
        psi = lp_slacks(margins, self.nu, self.cap_vector) if self.has_caps else np.zeros(self.N)
        beta = -float((margins + psi).min())
        d = capped_simplex_minimizer(margins, self.nu, self.cap_vector)
        point = Multipliers(w=w, psi=psi, beta=beta)
        return Certificate(point, d, self.primal_objective(U, d),
                           self.dual_objective(U, Multipliers(w=w, psi=psi)))

    def fast_master(self):
        """LP (2.3) on HiGHS directly, re-solved by dual simplex from the previous basis
        (:class:`dualboost.masters.highs_lp.HighsLPMaster`, path "highs-warm")."""
        from dualboost.masters.highs_lp import HighsLPMaster
        from formulations.lpboost import LPBoost as Shipped

        # the HiGHS model is (2.3) as shipped here: a subclass, or a copy of this file, that
        # declares another primal model keeps the reference path (its own cvxpy model)
        if type(self).primal is not Shipped.primal or \
                type(self).primal_objective is not Shipped.primal_objective:
            return None
        return HighsLPMaster(self)

    def kkt_system(self, U, d):
        """The active-set system of (2.3) at d in numpy (zero objective gradient in d):
        ``U w + psi + beta 1 - mu = 0``, ``1 - sum(w) = 0``. Check K3 compares it with the
        system from the cvxpy model's gradients (a copy of this file that changes primal()
        must change this too, or K3 fails)."""
        from dualboost.kkt import soft_margin_system

        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        return soft_margin_system(U, d, np.zeros(self.N), self.nu, self.has_caps,
                                  row_weights=self.kkt_row_weights(d),
                                  absent={} if self.has_caps else {"psi": np.zeros(self.N)},
                                  cap=self.cap_vector)


FORMULATION = LPBoost
