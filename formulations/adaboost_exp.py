"""AdaBoost's exponential loss with the l1 budget, seed 002 (2) + 1^T w = 1/T, and its dual (14).

Naming: seed 002 calls the w-domain problem the *primal*; here (as in the whole toolkit) the
*primal* is the d-domain problem and the *dual* the w-domain one. Translated here, once.

Seed 002's w-domain problem ((2) with the budget of (5); docs/formulations.md, "Seed 002's
problems"), with w_(2) = w / T so that the toolkit's w lies on the simplex::

    min_{w_(2) >= 0, 1^T w_(2) = 1/T}  sum_i exp(-y_i H_i w_(2))                           (2)

Its Lagrange dual is seed 002's (14) (printed as coming from "the cost function in (3)": it is the
dual of the non-log loss (2), erratum 5 of docs/errata.md), with u >= 0 and **no** normalization.
Divided by N (the mean loss; the same problem) and written in the LPBoost-like minimization form
(u_(14) = N d, r_(14) = -N gamma), the d-domain problem here is::

    P(d) = min_{d >= 0, gamma}  gamma + T Delta_U(d, d0)     s.t.  U^T d <= gamma 1   (w)

    Delta_U(d, d0) = sum_n d_n ln(d_n / d0_n) - d_n + d0_n,   d0 = 1/N   (thesis (3.18))

i.e. ERLPBoost's unnormalized relative entropy (thesis (3.18)-(3.21)) with eta = 1/T **without**
sum(d) = 1 (no beta block: ``Capabilities.d_domain = "orthant"``). The Lagrangian
``gamma + T Delta_U(d, d0) + w.(U^T d - gamma)`` is stationary at sum(w) = 1 and
``d = d0 exp(-U w / T)`` (seed 002's u_i = exp(-y_i H_i w_(2)), divided by N), which gives the
w-domain problem::

    Theta(w) = T - T sum_n d0_n exp(-(U w)_n / T),   w >= 0, sum(w) = 1

so Opt(2) = N (1 - Theta*/T) (= N times the optimal mean exponential loss) and seed 002's
u_(14) = N d. The maximizer w is the one of AdaBoost-l1 (5)/(15) (ERLPBoost at nu = 1,
eta = 1/T): Theta is an increasing function of ERLPBoost's -(1/eta) ln sum d0 exp(-eta U w);
only the scale of d differs (sum d = the mean loss instead of 1).

The run's stop promises no soft margin (``promises_soft_margin = False``): T is the problem's
parameter, not an accuracy knob. The fast master is the projected-Newton one of the family
(:mod:`dualboost.masters.newton`) on Theta, whose -Hessian is (1/T) U^T diag(d) U (no rank-one
term: no normalization).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
from scipy.special import rel_entr

from dualboost.formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from dualboost.kkt import soft_margin_system
from dualboost.params import EPS, Param
from dualboost.temperature import Temperature

T_PARAM = Param("T", "seed 002's regularization parameter T > 0: l1 budget 1^T w = 1/T "
                "(temperature of the Gibbs form; small T: hard margin)", default=0.1, low=0,
                low_open=True)


class AdaBoostExp(Temperature, Formulation):
    name = "adaboost_exp"
    summary = "exponential loss (2) with the l1 budget 1/T; dual (14): d >= 0, no simplex"
    equations = "seed 002 (2), (5), (14); thesis (3.18)"
    params = (EPS, T_PARAM)
    capabilities = Capabilities(
        strictly_convex=True, cones=("exp",), primal_form="regularized", d_domain="orthant",
        closed_forms=("primal_objective", "dual_objective", "d_from_dual", "best_response"))
    default_algorithm = "erlpboost"
    promises_soft_margin = False

    def seed_objective(self, value: float) -> float:
        """Opt(2) = sum_i exp(-y_i H_i w_(2)) from the value here (module docstring)."""
        return self.N * (1.0 - value / self.T)

    def seed_problem(self, U):
        """Seed 002's (2) with the l1 budget, as printed: min sum exp(-U w_(2)), w_(2) >= 0,
        1^T w_(2) = 1/T (the verifier's D5 solves it and compares with seed_objective)."""
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True)
        return cp.Problem(cp.Minimize(cp.sum(cp.exp(-(U @ w)))), [cp.sum(w) == 1.0 / self.T])

    def optimum_identities(self, U, w, d):
        """Seed 002's KKT identities of (2) <-> (14) at an optimal pair (w the multipliers
        of the edge rows, d the primal's): the verifier's rows K4-K6."""
        from dualboost.verify.stated import Identity

        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        d = np.asarray(d, dtype=float)
        rho = U @ (w / w.sum())
        ref = "seed 002 (2), (14)"
        return [
            Identity("K4", "u_(14) = exp(-y H w_(2)): N d = exp(-rho/T), max |diff|",
                     ref + " (24) unnormalized", self.N * d, np.exp(-rho / self.T)),
            Identity("K5", "1^T u_(14) = Opt(2): N sum d = seed value of P", ref,
                     self.N * float(d.sum()),
                     self.seed_objective(self.primal_objective(U, d))),
            Identity("K6", "E6: max_j d.U_j (= gamma = -r_(14)/N) = sum d rho", ref + " E6",
                     float((U.T @ d).max()), float(d @ rho)),
        ]

    # -- the models ---------------------------------------------------------------------------
    def _regularizer(self, d):
        # Delta_U(d, 1/N) with the -entr form (Clarabel and ECOS solve it more reliably)
        return (-cp.sum(cp.entr(d)) + math.log(self.N) * cp.sum(d) - cp.sum(d) + 1.0)

    def primal(self, U):
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints = {"w": U.T @ d <= gamma}
        problem = cp.Problem(cp.Minimize(gamma + self.T * self._regularizer(d)),
                             list(constraints.values()))
        return Model(problem, {"d": d, "gamma": gamma}, constraints)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        objective = self.T - self.T * (self.d0 @ cp.exp(-(U @ w) / self.T))
        return Model(cp.Problem(cp.Maximize(objective), [cp.sum(w) == 1]), {"w": w})

    # -- numpy ---------------------------------------------------------------------------------
    def _delta(self, d: np.ndarray) -> float:
        d = np.clip(d, 0.0, None)
        return float(rel_entr(d, self.d0).sum() - d.sum() + 1.0)

    def primal_objective(self, U, d):
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if d.min(initial=0.0) < -1e-7:
            return math.inf
        max_edge = float((U.T @ d).max()) if U.shape[1] else 0.0
        return max_edge + self.T * self._delta(d)

    def primal_feasible(self, d):
        return np.clip(np.asarray(d, dtype=float), 0.0, None)

    def d_from_dual(self, U, point):
        U = self.check_columns(U)
        with np.errstate(over="ignore"):
            return self.d0 * np.exp(-(U @ np.asarray(point["w"], dtype=float)) / self.T)

    def dual_feasible(self, U, point):
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        total = w.sum()
        return Multipliers(w=w / total if total > 0 else np.full(w.shape, 1.0 / w.size))

    def dual_objective(self, U, point):
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7:
            return -math.inf
        with np.errstate(over="ignore"):
            return float(self.T - self.T * self.d_from_dual(U, point).sum())

    def best_response(self, U, w):
        """No other dual variable: d(w) = d0 exp(-U w / T) and its bracket."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        point = Multipliers(w=w)
        d = self.d_from_dual(U, point)
        edges = U.T @ d
        mass = float(d.sum())
        if not math.isfinite(mass):
            return Certificate(point, d, math.inf, -math.inf, edges=edges)
        # P(d) with ln(d/d0) = -U w / T read off the map (no logarithm of N numbers)
        regularizer = float(d @ (-(U @ w) / self.T)) - mass + 1.0
        primal = float(edges.max()) + self.T * regularizer if U.shape[1] else math.inf
        dual = (self.T - self.T * mass
                if w.min(initial=0.0) >= -1e-7 and abs(w.sum() - 1) <= 1e-7 else -math.inf)
        return Certificate(point, d, primal, dual, edges=edges)

    def inverse_curvature(self, d):
        """1 / R''(d) = d (R = Delta_U): the Newton master's curvature weights."""
        return np.asarray(d, dtype=float)

    def kkt_system(self, U, d):
        """Stationarity ``T ln(d/d0) + U w - mu = 0``, ``1 - sum(w) = 0`` in numpy: the
        soft-margin system without its normalization block (check K3 compares it with the
        cvxpy model's gradients)."""
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        gradient = self.T * np.log(np.maximum(d, 1e-300) / self.d0)
        system = soft_margin_system(U, d, gradient, 1.0, False,
                                    row_weights=self.kkt_row_weights(d))
        del system.blocks["beta"]
        return system

    def fast_master(self):
        """The projected-Newton master on Theta (:mod:`dualboost.masters.newton`)."""
        from dualboost.masters.newton import ProjectedNewtonMaster

        return ProjectedNewtonMaster(self)


FORMULATION = AdaBoostExp
