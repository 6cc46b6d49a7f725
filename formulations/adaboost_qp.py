"""AdaBoost-QP: margin mean and variance, seed 002 (41), with its derived dual (d of any sign).

Naming: seed 002 calls the w-domain problem the *primal*; here (as in the whole toolkit) the
*primal* is the d-domain problem and the *dual* the w-domain one. Translated here, once.

Seed 002's QP (41), from Theorem 3.3's (39): with U = YH (N x t, the toolkit's columns),
b = U^T 1 / N and C = U - 1 b^T (the centered margins' matrix), A = C^T C / N::

    min_{w >= 0, 1^T w = 1}  (1/2) w^T A w - T b^T w  =  (1/2) var(rho) - T mean(rho)       (41)

with rho = U w the (normalized) margins. Its Lagrange dual is not printed in the seed (derived in
proofs_check/shen_li_more.py derives it symbolically; docs/formulations.md, "Seed 002's
problems").
Divided by T, in the LPBoost-like minimization form, the d-domain problem here is::

    P(d) = min_{d, gamma}  gamma + (N T / 2) ||d - 1/N||_2^2
           s.t.  U^T d <= gamma 1   (w),   sum(d) = 1   (beta),   d free (no d >= 0)

i.e. the l2 member of the regularized family (formulations/erlpboost_l2.py, eta = 1/T, nu = 1)
**without** d >= 0 (``Capabilities.d_domain = "affine"``). Stationarity of the Lagrangian
``gamma + (NT/2)||d - d0||^2 + w.(U^T d - gamma) + beta (1.d - 1)`` gives sum(w) = 1 and
``d = d0 - (U w + beta)/(N T)``; the optimal beta is -mean(U w), so::

    d(w) = (1/N) (1 - (rho - mean(rho)) / T)        (seed 002's u~, the linearized softmax (24))
    Theta(w, beta) = (U w + beta).d0 - (1/(2 N T)) ||U w + beta||^2 - beta
    Theta(w) = mean(rho) - var(rho) / (2 T) = -Opt(41)(w) / T

(var the population variance). So Opt(41) = -T Theta* and the multipliers of the edge rows are w.
Some d_n are negative (seed 002 reports min u~ = -0.028 in its test): the oracle is asked with
signed weights, and the KKT recovery has no bound d >= 0 (the cvxpy model declares none).

The run's stop promises no soft margin (``promises_soft_margin = False``). The fast master is the
family's projected-Newton master (:mod:`dualboost.masters.newton`) on Theta, a concave quadratic
with -Hessian (1/T) (U^T U / N - b b^T): one Newton step per face.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from dualboost.kkt import soft_margin_system
from dualboost.params import EPS, Param
from dualboost.temperature import Temperature

T_PARAM = Param("T", "seed 002's trade-off T > 0 of (41): minimize var(rho)/2 - T mean(rho)",
                default=0.1, low=0, low_open=True)


class AdaBoostQP(Temperature, Formulation):
    name = "adaboost_qp"
    summary = "AdaBoost-QP (41): var(rho)/2 - T mean(rho); dual: l2 to uniform, d of any sign"
    equations = "seed 002 (39), (41), derived dual (proofs_check shen_li_more)"
    params = (EPS, T_PARAM)
    capabilities = Capabilities(
        strictly_convex=True, cones=("soc",), primal_form="regularized", d_domain="affine",
        closed_forms=("primal_objective", "dual_objective", "d_from_dual", "optimal_beta",
                      "best_response"))
    default_algorithm = "erlpboost"
    promises_soft_margin = False

    def seed_objective(self, value: float) -> float:
        """Opt(41) = (1/2) var(rho) - T mean(rho) from the value here: -T value."""
        return -self.T * value

    def seed_problem(self, U):
        """Seed 002's (41) as printed: min (1/2) w^T A w - T b^T w over the simplex, with
        b = U^T 1/N, A = C^T C / N, C = U - 1 b^T (the verifier's D5)."""
        U = self.check_columns(U)
        b = U.mean(axis=0)
        C = U - b[None, :]
        w = cp.Variable(U.shape[1], nonneg=True)
        objective = 0.5 * cp.sum_squares(C @ w) / self.N - self.T * (b @ w)
        return cp.Problem(cp.Minimize(objective), [cp.sum(w) == 1])

    def optimum_identities(self, U, w, d):
        """Seed 002 §3.4's margin mean/variance identities for (41) at an optimal pair (w the
        multipliers of the edge rows, d = u~ the primal's): the verifier's rows K4-K7."""
        from dualboost.verify.stated import Identity

        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        d = np.asarray(d, dtype=float)
        rho = U @ (w / w.sum())
        mean, variance = float(rho.mean()), float(rho.var())
        ref = "seed 002 (41), §3.4"
        value = self.primal_objective(U, d)
        return [
            Identity("K4", "(24) linearized: u~ = (1 - (rho - mean rho)/T)/N, max |diff|",
                     ref + " (24)", d, (1.0 - (rho - mean) / self.T) / self.N),
            Identity("K5", "(26) for (41): var(rho) = N^2 T^2 var(u~)", ref + " (26)",
                     variance, self.N ** 2 * self.T ** 2 * float(d.var())),
            Identity("K6", "E6: max_j u~.U_j (the max edge r) = sum u~ rho", ref + " E5, E6",
                     float((U.T @ d).max()), float(d @ rho)),
            Identity("K7", "A4: Opt(41) = var(rho)/2 - T mean(rho) = -T P", ref + " A4, (38)",
                     self.seed_objective(value), 0.5 * variance - self.T * mean),
        ]

    # -- the models ---------------------------------------------------------------------------
    def primal(self, U):
        U = self.check_columns(U)
        d = cp.Variable(self.N, name="d")  # no sign constraint: seed 002's u~ is free
        gamma = cp.Variable(name="gamma")
        constraints = {"w": U.T @ d <= gamma, "beta": cp.sum(d) == 1}
        objective = gamma + self.N * self.T / 2.0 * cp.sum_squares(d - self.d0)
        return Model(cp.Problem(cp.Minimize(objective), list(constraints.values())),
                     {"d": d, "gamma": gamma}, constraints)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        beta = cp.Variable(name="beta")
        s = U @ w + beta
        objective = self.d0 @ s - cp.sum_squares(s) / (2.0 * self.N * self.T) - beta
        return Model(cp.Problem(cp.Maximize(objective), [cp.sum(w) == 1]),
                     {"w": w, "beta": beta})

    # -- numpy ---------------------------------------------------------------------------------
    def primal_objective(self, U, d):
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if abs(d.sum() - 1) > 1e-7:
            return math.inf
        max_edge = float((U.T @ d).max()) if U.shape[1] else -math.inf
        return max_edge + self.N * self.T / 2.0 * float(np.sum((d - self.d0) ** 2))

    def primal_feasible(self, d):
        d = np.asarray(d, dtype=float)
        return d + (1.0 - d.sum()) / d.size  # the Euclidean projection onto sum(d) = 1

    def optimal_beta(self, U, point):
        """beta = -mean(U w) (stationarity in beta)."""
        U = self.check_columns(U)
        return -float(np.mean(U @ np.asarray(point["w"], dtype=float)))

    def d_from_dual(self, U, point):
        U = self.check_columns(U)
        beta = point.get("beta")
        if beta is None:
            beta = self.optimal_beta(U, point)
        s = U @ np.asarray(point["w"], dtype=float) + float(beta)
        return self.d0 - s / (self.N * self.T)

    def dual_feasible(self, U, point):
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        total = w.sum()
        out = Multipliers(w=w / total if total > 0 else np.full(w.shape, 1.0 / w.size))
        if point.get("beta") is not None:
            out["beta"] = float(point["beta"])
        return out

    def dual_objective(self, U, point):
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7:
            return -math.inf
        beta = point.get("beta")
        if beta is None:
            beta = self.optimal_beta(U, point)
        s = U @ w + float(beta)
        return float(self.d0 @ s - s @ s / (2.0 * self.N * self.T) - float(beta))

    def best_response(self, U, w):
        """beta = -mean(U w), d(w) and the bracket: Theta = mean(rho) - var(rho)/(2T)."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        rho = U @ w
        mean = float(rho.mean())
        centered = rho - mean
        d = self.d0 - centered / (self.N * self.T)
        edges = U.T @ d
        variance = float(centered @ centered) / self.N
        spread = self.N * self.T / 2.0 * float(np.sum((d - self.d0) ** 2))
        primal = float(edges.max()) + spread if U.shape[1] else math.inf
        feasible = w.min(initial=0.0) >= -1e-7 and abs(w.sum() - 1) <= 1e-7
        dual = mean - variance / (2.0 * self.T) if feasible else -math.inf
        return Certificate(Multipliers(w=w, beta=-mean), d, primal, dual, edges=edges)

    def inverse_curvature(self, d):
        """1 / R''(d) = 1/N (R = (N/2)||d - d0||^2): the Newton master's curvature weights."""
        return np.full(np.shape(d), 1.0 / self.N)

    def kkt_row_weights(self, d):
        return None  # the gradient N T (d - d0) has no logarithm to damp

    def kkt_system(self, U, d):
        """Stationarity ``N T (d - d0) + U w + beta 1 = 0``, ``1 - sum(w) = 0`` in numpy: the
        soft-margin system with no bound d >= 0 (check K3 compares it with the cvxpy model's
        gradients)."""
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        system = soft_margin_system(U, d, self.N * self.T * (d - self.d0), 1.0, False)
        system.bounds = {}
        return system

    def fast_master(self):
        """The projected-Newton master on Theta (:mod:`dualboost.masters.newton`)."""
        from dualboost.masters.newton import ProjectedNewtonMaster

        return ProjectedNewtonMaster(self)


FORMULATION = AdaBoostQP
