"""LPBoost: the soft-margin linear program, thesis (2.2) and (2.3); nu = 1 is the hard margin (2.1).

Primal (d-domain), thesis (2.3)::

    P_LP^t = min_{d, gamma} gamma
             s.t. U^T d <= gamma 1    (multipliers w >= 0)
                  d <= 1/nu           (multipliers psi >= 0; not modelled when nu = 1)
                  sum(d) = 1          (multiplier beta)
                  d >= 0

Dual (w-domain), thesis (2.2) with rho = -beta (the soft margin)::

    max_{w, psi, beta} -beta - sum(psi)/nu
    s.t. U w + psi + beta 1 >= 0,  w >= 0,  sum(w) = 1,  psi >= 0

For fixed w the best psi is ``max(0, rho - U w)`` (erratum #2: the thesis prints min) and the
value is the average of the nu smallest margins (:func:`dualboost.margins.soft_margin`).
There is no closed-form map from w to d (the LP's d is generally not unique), and no iteration
bound: the thesis's instance (Thm 2.5) needs N/2 iterations.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from dualboost.formulation import Certificate, DualModel, Formulation, PrimalModel
from dualboost.kkt import active_set_multipliers
from dualboost.margins import capped_simplex_minimizer, lp_slacks


class LPBoost(Formulation):
    name = "lpboost"
    kind = "lp"
    regularized = False
    theory = "lp"
    equations = "thesis (2.2), (2.3); Algorithm 2.1"

    def primal(self, U):
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        edge = U.T @ d <= gamma
        cap = d <= 1.0 / self.nu if self.has_caps else None
        normalization = cp.sum(d) == 1
        constraints = [edge, normalization] + ([cap] if cap is not None else [])
        problem = cp.Problem(cp.Minimize(gamma), constraints)
        return PrimalModel(problem, d, gamma, edge, cap, normalization)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi") if self.has_caps else None
        beta = cp.Variable(name="beta")
        slack = psi if psi is not None else 0
        penalty = cp.sum(psi) / self.nu if psi is not None else 0
        margin_constraint = U @ w + slack + beta >= 0  # its multipliers are d
        problem = cp.Problem(cp.Maximize(-beta - penalty), [margin_constraint, cp.sum(w) == 1])
        return DualModel(problem, w, psi, beta, self.N, d_constraint=margin_constraint)

    def primal_objective(self, U, d):
        U = self.check_columns(U)
        return float((U.T @ d).max()) if U.shape[1] else -1.0

    def dual_objective(self, U, w, psi, beta=None):
        U = self.check_columns(U)
        slack_margins = U @ w + psi
        if beta is None:
            beta = -slack_margins.min()
        elif (slack_margins + beta).min() < -1e-9:
            return -np.inf  # the Lagrange dual function is -inf off U w + psi + beta >= 0
        return float(-beta - psi.sum() / self.nu)

    def best_response(self, U, w):
        U = self.check_columns(U)
        margins = U @ w
        psi = lp_slacks(margins, self.nu) if self.has_caps else np.zeros(self.N)
        beta = -float((margins + psi).min())
        d = capped_simplex_minimizer(margins, self.nu)
        return Certificate(w=w, psi=psi, beta=beta, d=d,
                           primal_value=self.primal_objective(U, d),
                           dual_value=self.dual_objective(U, w, psi))

    def recover_dual(self, U, d, tol=1e-6):
        U = self.check_columns(U)
        return active_set_multipliers(U, d, np.zeros(self.N), self.nu, tol=tol,
                                      explicit_nonnegativity=True)


FORMULATION = LPBoost
