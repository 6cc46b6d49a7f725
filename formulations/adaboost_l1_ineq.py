"""AdaBoost_l1 with the inequality budget 1^T w <= 1/T: seed 002 (Shen & Li) F1b.

Names: Shen & Li call the w-domain problem (5) the *primal* and (10)/(15) the *dual*; this
project calls the d-domain problem the primal and the w-domain problem the dual
(docs/formulations.md).

Seed 002's (5) with ``1^T w <= 1/T``: in its Lagrangian (12) the budget's multiplier gets a
sign, r <= 0 in (10)'s convention, so the d-domain problem is (15) with r >= 0 (seed 002 (5)–(15)).
In this project's form (eta = 1/T, d0 uniform, as ``adaboost_l1``)::

    min_{d, gamma}  gamma + (1/eta) Delta(d, 1/N)
    s.t.  U^T d <= gamma 1 (w),   -gamma <= 0 (slack),   sum(d) = 1 (beta),   d >= 0

    Theta(w, beta) = -(1/eta) R*(-eta (U w + beta 1)) - beta,    w >= 0, sum(w) + slack = 1

(the family's Theta; stationarity in gamma gives 1 - sum(w) - slack = 0, so w sums to at most 1
and 1 - sum(w) is the budget left unused, the weight of an all-zero column). The primal value is
max(max_q u^q.d, 0) + (1/eta) Delta(d, 1/N) = Opt(15 with r >= 0) + T ln N, and seed 002's
Opt(5, <=) = ln N - P/T (E1 holds with the same shift). It equals ``adaboost_l1`` when the
optimum of the inequality problem uses the whole budget (r > 0), e.g. when the pool is closed
under negation (seed 002 (5)–(15); docs/errata.md, seed 002 S11); otherwise its value is lower.
``proofs_check`` (``shen_li_core``) derives the pair from the Lagrangian.

Numerics: the equality member on the columns [0, U] (``adaboost_l1`` with the zero column
first): its best response and projected-Newton master, with the first weight read back as the
slack (:class:`dualboost.masters.shen_li.ZeroColumnMaster`).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Certificate, Model, Multipliers
from dualboost.params import EPS, Param
from formulations.adaboost_l1 import T_PARAM, AdaBoostL1

BUDGET_INEQUALITY = Param("budget", "the l1 budget of (5): 1^T w <= 1/T here (F1b)", kind="str",
                          default="inequality",
                          check=lambda v, N, values: None if v == "inequality"
                          else f"must be 'inequality' here (adaboost_l1 takes 'equality'), "
                               f"got {v!r}")


class AdaBoostL1Inequality(AdaBoostL1):
    name = "adaboost_l1_ineq"
    summary = ("AdaBoost with l1 budget 1'w <= 1/T (Shen & Li F1b): (15) with r >= 0; w sums "
               "to <= 1")
    equations = ("seed 002 (5) with 1'w <= 1/T, (10) with r <= 0, (15) with r >= 0; (5)-(15); "
                 "docs/errata.md, seed 002 S11")
    declared_params = (T_PARAM, BUDGET_INEQUALITY, EPS)
    inequality = True
    inequality_class = True

    def _check(self) -> None:
        super()._check()
        self._twin = None

    def objective_as_printed(self, primal: float, dual: float) -> dict:
        out = super().objective_as_printed(primal, dual)
        return {key.replace("1'w = 1/T", "1'w <= 1/T").replace("u log u", "u log u, r >= 0"):
                value for key, value in out.items()}

    def master_r(self, U: np.ndarray, d: np.ndarray) -> float:
        """r of (15) with r >= 0 at d: the largest edge of the columns, floored at 0."""
        return max(float((U.T @ d).max()) if U.shape[1] else 0.0, 0.0)

    def _equality_twin(self) -> AdaBoostL1:
        if self._twin is None:
            self._twin = AdaBoostL1(self.N, T=self.T, eps=self.eps, budget="equality")
        return self._twin

    @staticmethod
    def _with_zero(U: np.ndarray) -> np.ndarray:
        return np.hstack([np.zeros((U.shape[0], 1)), U])

    def primal(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints = {"w": U.T @ d <= gamma, "slack": -gamma <= 0, "beta": cp.sum(d) == 1}
        problem = cp.Problem(cp.Minimize(gamma + self.regularizer(d) / self.eta),
                             list(constraints.values()))
        return Model(problem, {"d": d, "gamma": gamma}, constraints, {"psi": np.zeros(self.N)})

    def dual(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        slack = cp.Variable(nonneg=True, name="slack")
        beta = cp.Variable(name="beta")
        objective = -self.conjugate(-self.eta * (U @ w + beta)) / self.eta - beta
        problem = cp.Problem(cp.Maximize(objective), [cp.sum(w) + slack == 1])
        return Model(problem, {"w": w, "slack": slack, "beta": beta}, {},
                     {"psi": np.zeros(self.N)})

    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if not self.in_domain(d):
            return math.inf
        max_edge = max(float((U.T @ d).max()) if U.shape[1] else 0.0, 0.0)
        return max_edge + self.regularizer_value(np.clip(d, 0.0, 1.0)) / self.eta

    def dual_feasible(self, U: np.ndarray, point) -> Multipliers:
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        if w.sum() > 1.0:
            w = w / w.sum()
        out = Multipliers(w=w, slack=max(1.0 - float(w.sum()), 0.0))
        if point.get("beta") is not None:
            out["beta"] = float(point["beta"])
        return out

    def dual_objective(self, U: np.ndarray, point) -> float:
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        if w.min(initial=0.0) < -1e-7 or w.sum() > 1 + 1e-7:
            return -math.inf
        beta = point.get("beta")
        if beta is None:
            beta = self.optimal_beta(U, point)
        return float(self.dual_value(U, point, float(beta)))

    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """The equality member's best response on [0, U] at (1 - sum(w), w): the same Theta and
        d (the zero column adds nothing to U w), and its P is max(max edge, 0) + R/eta."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float).reshape(-1)
        slack = 1.0 - float(w.sum())
        cert = self._equality_twin().best_response(self._with_zero(U),
                                                   np.concatenate([[max(slack, 0.0)], w]))
        if w.min(initial=0.0) < -1e-7 or slack < -1e-7:  # off the dual's feasible set
            return Certificate(Multipliers(w=w, slack=0.0, beta=cert.point["beta"]), cert.d,
                               self.primal_objective(U, cert.d), -math.inf)
        return self._from_twin(cert)

    @staticmethod
    def _from_twin(cert: Certificate) -> Certificate:
        """A certificate of the equality member on [0, U] as one of this problem on U."""
        w_all = np.asarray(cert.point["w"], dtype=float)
        point = Multipliers(w=w_all[1:], slack=float(w_all[0]))
        if cert.point.get("beta") is not None:
            point["beta"] = float(cert.point["beta"])
        edges = None if cert.edges is None else np.asarray(cert.edges)[1:]
        return Certificate(point, cert.d, cert.primal_value, cert.dual_value, edges=edges)

    def kkt_system(self, U, d):
        """The active-set system of the primal above at d, assembled in numpy (x = (gamma, d);
        check K3 compares it with the cvxpy model's): the family's blocks w, beta and the
        floor -gamma <= 0 (slack), with gamma = max(max edge, 0)."""
        from scipy import sparse

        from dualboost.kkt import KKTBlock, KKTSystem

        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        N, t = U.shape
        n = N + 1
        edges = U.T @ d
        gamma = max(float(edges.max()) if t else 0.0, 0.0)
        gradient = np.concatenate([[1.0], self.regularizer_gradient(np.maximum(d, 1e-300))
                                   / self.eta])
        unit = sparse.csc_array((np.array([-1.0]), (np.array([0]), np.array([0]))),
                                shape=(n, 1))
        ones = sparse.csc_array(np.concatenate([[0.0], np.ones(N)])[:, None])
        blocks = {"w": KKTBlock(np.vstack([-np.ones((1, t)), U]), edges - gamma, False),
                  "slack": KKTBlock(unit, np.array([-gamma]), False, scalar=True),
                  "beta": KKTBlock(ones, np.array([d.sum() - 1.0]), True, scalar=True)}
        weights = np.concatenate([[1.0], np.clip(self.kkt_row_weights(d), 0.0, 1.0)])
        return KKTSystem(gradient, blocks, {"d": (np.arange(1, n), d)}, weights,
                         {"psi": np.zeros(N)})

    def set_auxiliary(self, U, model, d) -> None:
        edges = U.T @ d if U.shape[1] else np.zeros(1)
        model.variables["gamma"].value = np.asarray(max(float(edges.max()), 0.0))

    def fast_master(self):
        """The equality member's master on [0, U] (:mod:`dualboost.masters.shen_li`)."""
        from dualboost.masters.shen_li import ZeroColumnMaster

        twin = self._equality_twin()
        inner = twin.fast_master()
        self.fast_path_notes = getattr(twin, "fast_path_notes", [])
        self.fast_master_reason = getattr(twin, "fast_master_reason", None)
        return None if inner is None else ZeroColumnMaster(self, inner)


FORMULATION = AdaBoostL1Inequality
