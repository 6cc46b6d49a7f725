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
are w_(6) (sum 1) = T w_(5) (seed 002 §3.7, (24); E9).

``budget="inequality"`` is seed 002's F1b, ``1^T w <= 1/T`` ((15) with r >= 0): building
``adaboost_l1`` with it returns the formulation of ``formulations/adaboost_l1_ineq.py``
(``adaboost_l1_ineq``, whose docstring derives it), the same problem with the max edge floored at
0 and w summing to at most 1.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

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
    return {"(15) min r + T sum u log u": [value - shift for value in (dual, primal)],
            "(5) min log sum exp(-y H w), 1'w = 1/T": [(shift - value) / T
                                                      for value in (primal, dual)]}


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
    #: T is the problem's own parameter (eta = 1/T is fixed by it), not an accuracy knob: a run
    #: with erlpboost's algorithm certifies (15), not a soft margin (no empty-guarantee warning
    #: whose remedy, a larger eta, the user cannot apply)
    promises_soft_margin = False
    pinned = (fixed(NU, 1.0),)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # the family's hook sets nu, d0, eta: fixed here (eta from T); a subclass may declare
        # its own (adaboost_l1_ineq.py)
        cls.params = getattr(cls, "declared_params", _PARAMS)

    def __new__(cls, N: int | None = None, **params):
        # budget="inequality" (F1b) is the subclass of adaboost_l1_ineq.py, which Python then
        # initializes with the same arguments
        if params.get("budget") == "inequality" and not getattr(cls, "inequality_class", False):
            # by the registry's name (that file imports this one)
            from dualboost.registry import load_formulation

            inequality = load_formulation("adaboost_l1_ineq")
            if issubclass(inequality, cls):
                return super().__new__(inequality)
        return super().__new__(cls)

    def _check(self) -> None:
        self.d0 = np.full(self.N, 1.0 / self.N)
        self.eta = 1.0 / float(self.T)
        super()._check()

    def parameters(self) -> dict:
        out = super().parameters()
        out["eta"] = self.eta  # derived: 1/T
        out["d0"] = "uniform"
        return out

    #: the budget 1^T w = 1/T (False) or <= 1/T (adaboost_l1_ineq.py)
    inequality = False

    def objective_as_printed(self, primal: float, dual: float) -> dict:
        """Seed 002's objectives bracketed by the d-domain bracket (see the module docstring)."""
        return shen_li_values(primal, dual, float(self.T), self.N)

    def printed_problems(self, U: np.ndarray) -> dict:
        """Seed 002's problems as printed, as cvxpy models keyed like
        :meth:`objective_as_printed` (the verifier's D6 solves each and checks that its optimum
        lies in the printed bracket): (15) over u on the simplex, (5) over w_(5) >= 0 with the
        l1 budget (``1'w = 1/T``; ``<= 1/T`` and ``r >= 0`` for the inequality budget)."""
        U = self.check_columns(U)
        N, t = U.shape
        T = float(self.T)
        u, r = cp.Variable(N, nonneg=True), cp.Variable()
        rows = [U.T @ u <= r, cp.sum(u) == 1] + ([r >= 0] if self.inequality else [])
        lp15 = cp.Problem(cp.Minimize(r - T * cp.sum(cp.entr(u))), rows)
        w = cp.Variable(t, nonneg=True)
        budget = cp.sum(w) <= 1.0 / T if self.inequality else cp.sum(w) == 1.0 / T
        lse5 = cp.Problem(cp.Minimize(cp.log_sum_exp(-(U @ w))), [budget])
        keys = list(self.objective_as_printed(0.0, 0.0))
        return {next(k for k in keys if k.startswith("(15)")): lp15,
                next(k for k in keys if k.startswith("(5)")): lse5}

    def master_r(self, U: np.ndarray, d: np.ndarray) -> float:
        """r of (15) at d: the largest edge of the columns (floored at 0 for the inequality
        budget, F1b: (15) with r >= 0)."""
        r = float((U.T @ d).max()) if U.shape[1] else -math.inf
        return max(r, 0.0) if self.inequality else r

    def verifier_rows(self, U: np.ndarray, d: np.ndarray, point, tol: float) -> list:
        """Seed 002 §3.4's identities E1-E9 at an optimum, rows SL1-SL9
        (:mod:`dualboost.margin_identities`)."""
        from scipy.special import logsumexp

        from dualboost.margin_identities import (
            adaboost_l1_identities,
            printed_objective_row,
        )

        P, T = self.primal_objective(U, d), float(self.T)
        rows = adaboost_l1_identities(U, d, point["w"], T, primal_value=P, tol=max(tol, 1e-6),
                                      inequality=self.inequality)
        key = next(k for k in self.objective_as_printed(P, P) if k.startswith("(5)"))
        at_w = float(logsumexp(-(U @ np.asarray(point["w"], dtype=float)) / T))
        rows.append(printed_objective_row(self.objective_as_printed(P, P)[key], at_w,
                                          "seed 002 (5)/(6)", max(tol, 1e-6),
                                          "seed 002 (5), (15), E1"))
        return rows

_PARAMS = (T_PARAM, BUDGET, EPS)
AdaBoostL1.params = _PARAMS

FORMULATION = AdaBoostL1
