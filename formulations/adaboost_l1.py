"""AdaBoost with an l1 budget (AdaBoost_l1), seed 002 (Shen & Li) (5)/(6) <-> (10)/(15).

Names: Shen & Li call the w-domain problem (5)/(6) the *primal* and (10)/(15) the *dual*; this
project calls the d-domain problem (15) the primal and the w-domain problem (5)/(6) the dual
(docs/formulations.md). The translation is made here, once.

Seed 002's pair, with u the distribution on the examples (our d) and lambda = T w_(5) = w_(6)
the normalized hypothesis weights (our w)::

    (5)   min_w  log sum_i exp(-y_i H_i w)     s.t. w >= 0, 1^T w = 1/T           (dual here)
    (15)  min_{r, u} r + T sum_i u_i log u_i   s.t. (YH)^T u <= r 1, u in simplex  (primal here)

(15) is the regularized-LPBoost family (:mod:`dualboost.regularized`) with the relative entropy
to the uniform prior, no caps (nu = 1) and eta = 1/T: ``T sum u log u = (1/eta) Delta(u, 1/N)
- T ln N``, so this file declares ERLPBoost's R, R*, sigma = 1, B = ln N (its fast paths and
the projected-Newton master apply unchanged) and

    P_here = Opt(15) + T ln N,    Opt(5) = Opt(6) = Opt(10) = -Opt(15)/T = ln N - P_here/T

(seed 002 E1; the verifier's margin-identity rows check it). The relations: u = softmax(-YH
w_(5)) (24) is thesis (3.11) at nu = 1 with eta = 1/T, and the edge constraints' multipliers
are w_(6) (sum 1) = T w_(5) (seed 002 §4.3; E9).

``budget="inequality"`` is seed 002's F1b, ``1^T w <= 1/T``: its Lagrangian (12) gets r <= 0
(in (10)'s sign), i.e. (15) with r >= 0. Here that is the same d-domain problem with the max
edge floored at 0 (an all-zero column, the unused budget)::

    min_{d in simplex, gamma}  gamma + (1/eta) Delta(d, 1/N)
        s.t. U^T d <= gamma 1 (w),  -gamma <= 0 (slack),  sum(d) = 1 (beta)

and the w-domain Theta(w, beta) of the family with ``sum(w) + slack = 1``, slack >= 0 (from
stationarity in gamma: 1 - sum(w) - slack = 0): w no longer sums to 1, and 1 - sum(w) is the
budget left unused (seed 002 §2.1: the two budgets agree when the pool is closed under negation
or the bound is active; proofs_check ``shen_li_core`` derives both). The fast master runs the
equality member on the columns [0, U].
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.formulation import Certificate, Formulation, Model, Multipliers
from dualboost.params import EPS, NU, Param
from dualboost.params import pinned as fixed
from formulations.erlpboost import ERLPBoost

#: Shen & Li's regularization parameter: the l1 budget 1/T of (5), the temperature of (15)
T_PARAM = Param("T", "seed 002's regularization parameter: l1 budget 1^T w = 1/T in (5), "
                "temperature of the entropy in (15); eta = 1/T", default=0.1, low=0,
                low_open=True)
BUDGET = Param("budget", "the l1 budget of (5): 'equality' 1^T w = 1/T (F1) or 'inequality' "
               "1^T w <= 1/T (F1b: (15) with r >= 0)", kind="str", default="equality",
               check=lambda v, N, values: None if v in ("equality", "inequality")
               else f"must be one of ('equality', 'inequality'), got {v!r}")


def shen_li_values(primal: float, dual: float, T: float, N: int) -> dict:
    """Seed 002's values from the d-domain bracket ``dual <= P* <= primal`` (P = Opt(15) +
    T ln N): Opt(15) (its sign and scale) and Opt(5) = -Opt(15)/T, each as a bracket."""
    shift = T * math.log(N)
    return {"(15) min r + T sum u log u": [dual - shift, primal - shift],
            "(5) min log sum exp(-y H w), 1'w = 1/T": [(shift - primal) / T,
                                                      (shift - dual) / T]}


class AdaBoostL1(ERLPBoost):
    name = "adaboost_l1"
    summary = ("AdaBoost with l1 budget 1'w = 1/T (Shen & Li): the relative entropy to "
               "uniform, nu = 1, eta = 1/T")
    equations = ("seed 002 (5), (6), (10), (11), (12), (15), (24)-(26); Theorem 3.1; "
                 "= thesis (3.6)/(3.10) at nu = 1, eta = 1/T")
    default_algorithm = "adaboost_cg"
    #: the problem seed 002's AdaBoost-CG (Algorithm 2) runs
    cg_problem = "adaboost"
    supports_sample_weight = False
    pinned = (fixed(NU, 1.0),)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.params = _PARAMS  # the family's hook sets nu, d0, eta: fixed here (from T)

    def _check(self) -> None:
        self.d0 = np.full(self.N, 1.0 / self.N)
        self.eta = 1.0 / float(self.T)
        self._twin = None
        super()._check()

    def parameters(self) -> dict:
        out = super().parameters()
        out["eta"] = self.eta  # derived: 1/T
        out["d0"] = "uniform"
        return out

    @property
    def inequality(self) -> bool:
        return self.budget == "inequality"

    def objective_as_printed(self, primal: float, dual: float) -> dict:
        """Seed 002's objectives bracketed by the d-domain bracket (see the module docstring)."""
        return shen_li_values(primal, dual, float(self.T), self.N)

    def master_r(self, U: np.ndarray, d: np.ndarray) -> float:
        """r of (15) at d: the largest edge of the columns (floored at 0 for the inequality
        budget, F1b: (15) with r >= 0)."""
        r = float((U.T @ d).max()) if U.shape[1] else -math.inf
        return max(r, 0.0) if self.inequality else r

    def verifier_rows(self, U: np.ndarray, d: np.ndarray, point, tol: float) -> list:
        """Seed 002 §3.4's identities E1-E9 at an optimum, rows SL1-SL9
        (:mod:`dualboost.verify.margin_identities`)."""
        from dualboost.verify.margin_identities import adaboost_l1_identities

        return adaboost_l1_identities(U, d, point["w"], float(self.T),
                                      primal_value=self.primal_objective(U, d), tol=max(tol, 1e-6),
                                      inequality=self.inequality)

    # -- the inequality budget (F1b): the family with the max edge floored at 0 --------------
    def _equality_twin(self) -> AdaBoostL1:
        if self._twin is None:
            self._twin = AdaBoostL1(self.N, T=self.T, eps=self.eps, budget="equality")
        return self._twin

    @staticmethod
    def _with_zero(U: np.ndarray) -> np.ndarray:
        return np.hstack([np.zeros((U.shape[0], 1)), U])

    def primal(self, U: np.ndarray) -> Model:
        if not self.inequality:
            return super().primal(U)
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints = {"w": U.T @ d <= gamma, "slack": -gamma <= 0,
                       "beta": cp.sum(d) == 1}
        problem = cp.Problem(cp.Minimize(gamma + self.regularizer(d) / self.eta),
                             list(constraints.values()))
        return Model(problem, {"d": d, "gamma": gamma}, constraints, {"psi": np.zeros(self.N)})

    def dual(self, U: np.ndarray) -> Model:
        if not self.inequality:
            return super().dual(U)
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        slack = cp.Variable(nonneg=True, name="slack")
        beta = cp.Variable(name="beta")
        objective = -self.conjugate(-self.eta * (U @ w + beta)) / self.eta - beta
        problem = cp.Problem(cp.Maximize(objective), [cp.sum(w) + slack == 1])
        return Model(problem, {"w": w, "slack": slack, "beta": beta}, {},
                     {"psi": np.zeros(self.N)})

    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        if not self.inequality:
            return super().primal_objective(U, d)
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if not self.in_domain(d):
            return math.inf
        max_edge = max(float((U.T @ d).max()) if U.shape[1] else 0.0, 0.0)
        return max_edge + self.regularizer_value(np.clip(d, 0.0, 1.0)) / self.eta

    def dual_feasible(self, U: np.ndarray, point) -> Multipliers:
        if not self.inequality:
            return super().dual_feasible(U, point)
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        if w.sum() > 1.0:
            w = w / w.sum()
        out = Multipliers(w=w, slack=max(1.0 - float(w.sum()), 0.0))
        if point.get("beta") is not None:
            out["beta"] = float(point["beta"])
        return out

    def dual_objective(self, U: np.ndarray, point) -> float:
        if not self.inequality:
            return super().dual_objective(U, point)
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        if w.min(initial=0.0) < -1e-7 or w.sum() > 1 + 1e-7:
            return -math.inf
        beta = point.get("beta")
        if beta is None:
            beta = self.optimal_beta(U, point)
        return float(self.dual_value(U, point, float(beta)))

    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        if not self.inequality:
            return super().best_response(U, w)
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float).reshape(-1)
        slack = 1.0 - float(w.sum())
        if w.min(initial=0.0) < -1e-7 or slack < -1e-7:
            cert = self._equality_twin().best_response(self._with_zero(U),
                                                       np.concatenate([[0.0], w]))
            return Certificate(Multipliers(w=w, slack=0.0, beta=cert.point["beta"]), cert.d,
                               self.primal_objective(U, cert.d), -math.inf)
        cert = self._equality_twin().best_response(self._with_zero(U),
                                                   np.concatenate([[max(slack, 0.0)], w]))
        return self._from_twin(cert)

    @staticmethod
    def _from_twin(cert: Certificate) -> Certificate:
        """A certificate of the twin on [0, U] as one of this problem on U."""
        w_all = np.asarray(cert.point["w"], dtype=float)
        point = Multipliers(w=w_all[1:], slack=float(w_all[0]))
        if cert.point.get("beta") is not None:
            point["beta"] = float(cert.point["beta"])
        edges = None if cert.edges is None else np.asarray(cert.edges)[1:]
        return Certificate(point, cert.d, cert.primal_value, cert.dual_value, edges=edges)

    def kkt_system(self, U, d):
        if not self.inequality:
            return super().kkt_system(U, d)
        # the generic system of the primal model (its slack block included)
        return Formulation.kkt_system(self, U, d)

    def set_auxiliary(self, U, model, d) -> None:
        if not self.inequality:
            return super().set_auxiliary(U, model, d)
        edges = U.T @ d if U.shape[1] else np.zeros(1)
        model.variables["gamma"].value = np.asarray(max(float(edges.max()), 0.0))

    def fast_master(self):
        if not self.inequality:
            return super().fast_master()
        from dualboost.masters.shen_li import ZeroColumnMaster

        inner = self._equality_twin().fast_master()
        self.fast_path_notes = getattr(self._equality_twin(), "fast_path_notes", [])
        self.fast_master_reason = getattr(self._equality_twin(), "fast_master_reason", None)
        return None if inner is None else ZeroColumnMaster(self, inner)


_PARAMS = (T_PARAM, BUDGET, EPS)
AdaBoostL1.params = _PARAMS

FORMULATION = AdaBoostL1
