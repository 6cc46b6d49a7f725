"""LogitBoost with an l1 budget (LogitBoost_l1), seed 002 (Shen & Li) (32) <-> (30)/(31).

Names: Shen & Li call the w-domain problem (32) the *primal* and (30)/(31) the *dual*; this
project calls the d-domain problem (31) the primal and the w-domain problem (32) the dual
(docs/formulations.md). The translation is made here, once.

Seed 002's pair, with u the (unnormalized) weights on the examples (our d, 0 <= d <= 1) and
lambda = T w_(32) the normalized hypothesis weights (our w, summing to 1)::

    (32)  min_w  sum_i log(1 + exp(-y_i H_i w))   s.t. w >= 0, 1^T w = 1/T          (dual here)
    (31)  min_{r, u} r + T sum_i [u_i log u_i + (1 - u_i) log(1 - u_i)]
          s.t. (YH)^T u <= r 1   (0 <= u <= 1 implicit; no normalization)         (primal here)

In this project's form, with eta = 1/T and R(d) = sum_n d_n ln d_n + (1 - d_n) ln(1 - d_n) on
[0, 1]^N (the negative binary entropy; R*(y) = sum_n ln(1 + e^{y_n}), the softplus)::

    P(d) = max_q u^q.d + (1/eta) R(d)                     min over 0 <= d <= 1   ((31))
    Theta(w) = -(1/eta) R*(-eta U w)                      max over the simplex   (-T (32))
    d(w) = grad R*(-eta U w) = sigmoid(-U w / T)           ((33): u_i = sigma(-y_i H_i w_(32)))

so Opt(32) = Opt(30) = -Opt(31)/T and the edge constraints' multipliers are T w_(32) (seed 002
§3.4, §3.7). This is not a member of the regularized family: there is no sum(d) = 1 (no beta),
so the Lagrangian's stationarity in r alone gives sum(w) = 1; the fast master is the family's
projected Newton without the beta elimination (:mod:`dualboost.masters.shen_li`).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
from scipy.special import expit, xlogy

from dualboost.formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from dualboost.params import EPS, Param

T_PARAM = Param("T", "seed 002's regularization parameter: l1 budget 1^T w = 1/T in (32), "
                "temperature of the binary entropy in (31); eta = 1/T", default=0.1, low=0,
                low_open=True)


class LogitBoostL1(Formulation):
    name = "logitboost_l1"
    summary = ("LogitBoost with l1 budget 1'w = 1/T (Shen & Li): binary entropy, 0 <= d <= 1, "
               "no normalization")
    equations = "seed 002 (30), (31), (32), (33); Theorem 3.2"
    params = (T_PARAM, EPS)
    capabilities = Capabilities(strictly_convex=True, cones=("lp", "exp"),
                                closed_forms=("d_from_dual", "best_response"),
                                primal_form="other")
    default_algorithm = "logitboost_cg"
    #: the problem seed 002's LogitBoost-CG (§3.4) runs
    cg_problem = "logitboost"

    def _check(self) -> None:
        self.eta = 1.0 / float(self.T)

    def parameters(self) -> dict:
        out = super().parameters()
        out["eta"] = self.eta  # derived: 1/T
        return out

    def objective_as_printed(self, primal: float, dual: float) -> dict:
        """Seed 002's objectives bracketed by the d-domain bracket: Opt(31) = P, Opt(32) =
        -Opt(31)/T."""
        T = float(self.T)
        return {"(31) min r + T sum [u log u + (1-u) log(1-u)]": [dual, primal],
                "(32) min sum log(1 + exp(-y H w)), 1'w = 1/T": [-primal / T, -dual / T]}

    def printed_problems(self, U: np.ndarray) -> dict:
        """Seed 002's (31) over u in [0, 1]^N and (32) over w_(5) >= 0, 1'w = 1/T, as printed,
        keyed like :meth:`objective_as_printed` (the verifier's D6)."""
        U = self.check_columns(U)
        N, t = U.shape
        T = float(self.T)
        u, r = cp.Variable(N), cp.Variable()
        p31 = cp.Problem(cp.Minimize(r - T * cp.sum(cp.entr(u) + cp.entr(1 - u))),
                         [U.T @ u <= r])
        w = cp.Variable(t, nonneg=True)
        p32 = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-(U @ w)))), [cp.sum(w) == 1.0 / T])
        keys = list(self.objective_as_printed(0.0, 0.0))
        return {next(k for k in keys if k.startswith("(31)")): p31,
                next(k for k in keys if k.startswith("(32)")): p32}

    # -- the declared math -------------------------------------------------------------------
    def regularizer(self, d):
        """R(d) = sum d ln d + (1 - d) ln(1 - d): the domain 0 <= d <= 1 is entr's."""
        return -cp.sum(cp.entr(d)) - cp.sum(cp.entr(1 - d))

    def conjugate(self, y):
        """R*(y) = sum ln(1 + e^y) (seed 002's logit* with u -> -u, §3.4)."""
        return cp.sum(cp.logistic(y))

    def primal(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints = {"w": U.T @ d <= gamma}
        problem = cp.Problem(cp.Minimize(gamma + self.regularizer(d) / self.eta),
                             list(constraints.values()))
        return Model(problem, {"d": d, "gamma": gamma}, constraints)

    def dual(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        problem = cp.Problem(cp.Maximize(-self.conjugate(-self.eta * (U @ w)) / self.eta),
                             [cp.sum(w) == 1])
        return Model(problem, {"w": w})

    # -- numpy ---------------------------------------------------------------------------------
    def regularizer_value(self, d: np.ndarray) -> float:
        d = np.clip(np.asarray(d, dtype=float), 0.0, 1.0)
        return float(np.sum(xlogy(d, d) + xlogy(1.0 - d, 1.0 - d)))

    def conjugate_value(self, y: np.ndarray) -> float:
        return float(np.sum(np.logaddexp(0.0, np.asarray(y, dtype=float))))

    def in_domain(self, d: np.ndarray, tol: float = 1e-7) -> bool:
        return bool(d.min(initial=0.0) >= -tol and d.max(initial=0.0) <= 1 + tol)

    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if not self.in_domain(d):
            return math.inf
        max_edge = float((U.T @ d).max()) if U.shape[1] else -math.inf
        return max_edge + self.regularizer_value(d) / self.eta

    def primal_feasible(self, d: np.ndarray) -> np.ndarray:
        return np.clip(np.asarray(d, dtype=float), 0.0, 1.0)

    def dual_feasible(self, U: np.ndarray, point) -> Multipliers:
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        total = w.sum()
        w = w / total if total > 0 else np.full(w.shape, 1.0 / w.size)
        return Multipliers(w=w)

    def dual_objective(self, U: np.ndarray, point) -> float:
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7:
            return -math.inf
        return -self.conjugate_value(-self.eta * (U @ w)) / self.eta

    def d_from_dual(self, U: np.ndarray, point) -> np.ndarray:
        """(33): d = sigmoid(-U w / T)."""
        U = self.check_columns(U)
        return expit(-self.eta * (U @ np.asarray(point["w"], dtype=float)))

    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """Nothing to maximize for fixed w (no beta, no psi): Theta(w) and d(w) of (33)."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float).reshape(-1)
        margins = U @ w
        d = expit(-self.eta * margins)
        edges = U.T @ d
        primal = float(edges.max()) + self.regularizer_value(d) / self.eta
        feasible = w.min(initial=0.0) >= -1e-7 and abs(w.sum() - 1) <= 1e-7
        dual = (-self.conjugate_value(-self.eta * margins) / self.eta if feasible
                else -math.inf)
        return Certificate(Multipliers(w=w), d, primal, dual, edges=edges)

    def inverse_curvature(self, d: np.ndarray) -> np.ndarray:
        """1 / R''(d) = d (1 - d) (R'' = 1/d + 1/(1 - d)): the Newton master's curvature."""
        d = np.asarray(d, dtype=float)
        return d * (1.0 - d)

    def kkt_row_weights(self, d: np.ndarray) -> np.ndarray:
        # ln d and ln(1 - d) amplify round-off near both ends of [0, 1]
        room = np.clip(np.minimum(d, 1.0 - d), 0.0, None)
        return room / max(float(room.max()), 1e-12)

    def kkt_system(self, U, d):
        """The active-set system of (31) at d, assembled in numpy (x = (gamma, d); check K3
        compares it with the cvxpy model's): stationarity ``(1/eta)(ln d - ln(1 - d)) + U w -
        mu = 0`` and ``1 - sum(w) = 0``, no normalization block."""
        from dualboost.kkt import KKTBlock, KKTSystem

        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        N, t = U.shape
        edges = U.T @ d
        inside = np.clip(d, 1e-300, 1.0 - 1e-16)
        gradient = np.concatenate([[1.0], (np.log(inside) - np.log1p(-inside)) / self.eta])
        blocks = {"w": KKTBlock(np.vstack([-np.ones((1, t)), U]), edges - float(edges.max()),
                                False)}
        weights = np.concatenate([[1.0], np.clip(self.kkt_row_weights(d), 0.0, 1.0)])
        return KKTSystem(gradient, blocks, {"d": (np.arange(1, N + 1), d)}, weights)

    def set_auxiliary(self, U, model, d) -> None:
        model.variables["gamma"].value = np.asarray(float((U.T @ d).max()))

    def verifier_rows(self, U: np.ndarray, d: np.ndarray, point, tol: float) -> list:
        """Seed 002 §3.4's relations at an optimum, rows SL21-SL25 and SL10
        (:mod:`dualboost.margin_identities`)."""
        from dualboost.margin_identities import (
            logitboost_l1_identities,
            printed_objective_row,
        )

        P, T = self.primal_objective(U, d), float(self.T)
        w = np.asarray(point["w"], dtype=float)
        rows = logitboost_l1_identities(U, d, w, T, primal_value=P, tol=max(tol, 1e-6))
        key = next(k for k in self.objective_as_printed(P, P) if k.startswith("(32)"))
        at_w = float(np.sum(np.logaddexp(0.0, -(U @ w) / T)))
        rows.append(printed_objective_row(self.objective_as_printed(P, P)[key], at_w,
                                          "seed 002 (32)", max(tol, 1e-6), "seed 002 (31), (32)"))
        return rows

    def fast_master(self):
        """Projected Newton in the w-domain without beta (:mod:`dualboost.masters.shen_li`)."""
        from dualboost.masters.shen_li import UnnormalizedNewtonMaster

        return UnnormalizedNewtonMaster(self)


FORMULATION = LogitBoostL1
