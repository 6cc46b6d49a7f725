"""AdaBoost-CG and LogitBoost-CG: seed 002 (Shen & Li) Algorithm 2 (§3.7), LogitBoost (§3.4).

Totally corrective column generation on the d-domain problem ((15) for AdaBoost_l1, (31) for
LogitBoost_l1; Shen & Li call these the *dual*, this project the *primal*)::

    1. u = d^0 (uniform), r = -inf, no columns
    2. loop: h' = the oracle's hypothesis of largest edge sum_i u_i y_i h'(x_i) at u   ((42))
             if edge(h') < r + eps: stop (h' is not added)
             add h', solve the restricted master: d^t (= u), its r^t = max_q u^q.d^t, and w^t
             (the edge constraints' multipliers, seed 002 §3.7, (24))

r^t is the restricted problem's r: the largest edge of the columns so far at d^t (floored at 0
for the inequality budget, F1b: (15) with r >= 0). Every master solve is certified like the
thesis family's (``Theta^t <= optimum of the restricted problem <= P^t(d^t)``, the same
:meth:`Formulation.certify`), and the history also brackets the problem over the *whole* pool:
Theta^t is a lower bound (the restricted w padded with zeros is feasible for the whole pool's
w-domain problem) and ``P^t(d^t) + max(0, e - r^t)``, e the next best edge, an upper bound
(d^t is feasible for the whole pool's d-domain problem with r = max(r^t, e)). The stop
``e < r^t + eps`` therefore certifies the whole-pool optimum within eps plus the master gap
(claim CG2), whatever the pool (the oracle's best edge is exact for stumps).

Both algorithms report seed 002's own objectives beside the d-domain bracket:
``record.as_printed`` (per iteration) and the result's ``objective_as_printed`` via the
formulation's ``objective_as_printed(primal, dual)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..result import IterationRecord
from .base import Claim
from .totally_corrective import RegularizedAlgorithm, _class_of, _run_slack

__all__ = ["AdaBoostCG", "CGRecord", "LogitBoostCG"]

CG1_REF = "docs/theory.md CG1; seed 002 Algorithm 2, §4.2 (convergence)"
CG2_REF = "docs/theory.md CG2; seed 002 Algorithm 2 step 2"


@dataclass
class CGRecord(IterationRecord):
    """An iteration of Algorithm 2: ``edge`` is e^t = u^t.d^(t-1), ``r_before`` r^(t-1) (the
    rule stops when e^t < r^(t-1) + eps; ``delta_simple`` = ``delta_practical`` = e^t - r^(t-1)),
    ``pool_upper`` = P^(t-1)(d^(t-1)) + max(0, e^t - r^(t-1)), with ``pool_lower`` =
    Theta^(t-1) the certified bracket of the whole pool's optimum at d^(t-1) (None at t = 1),
    ``r`` the master's r^t after the solve, ``as_printed`` seed 002's objectives bracketed by
    (dual, primal) of this solve."""

    r_before: float | None = None
    pool_lower: float | None = None
    pool_upper: float | None = None
    r: float | None = None
    as_printed: dict | None = None


class _ShenLiCG(RegularizedAlgorithm):
    """Algorithm 2 (see the module docstring); the master step, its certificate and the KKT
    diagnostic are the thesis family's (:class:`RegularizedAlgorithm`), the stopping rule and
    the record are seed 002's."""

    params = ()
    #: the stop certifies this problem's value over the whole pool (claim CG2), not the soft
    #: margin (2.2): dualboost.guarantee and the verifier's G1 do not apply
    soft_margin_guarantee = False
    #: the formulations' declared problem (``cg_problem``) this algorithm runs
    problem: str = ""

    @classmethod
    def unsupported(cls, formulation):
        declared = getattr(_class_of(formulation), "cg_problem", None)
        if declared != cls.problem:
            return (f"{cls.reference} runs the {cls.problem} problem (a formulation "
                    f"declaring cg_problem = {cls.problem!r}: "
                    f"{'adaboost_l1' if cls.problem == 'adaboost' else 'logitboost_l1'})")
        return None

    def __init__(self, formulation, **kwargs):
        kwargs.pop("stopping", None)
        super().__init__(formulation, **kwargs)
        self.stopping = "cg"
        self.r = -math.inf  # Algorithm 2 leaves r uninitialized: -inf adds the first column

    def _r_of(self, U: np.ndarray, d: np.ndarray) -> float:
        gamma = getattr(self.formulation, "master_r", None)
        return float(gamma(U, d)) if callable(gamma) else float((U.T @ d).max())

    def step(self, t, u, may_solve):
        f = self.formulation
        edge = float(u @ self.d)
        self.min_edge = min(self.min_edge, edge)
        U_t = self.extended(u)
        record = CGRecord(t=t, edge=edge, primal_before=f.primal_objective(U_t, self.d),
                          delta_simple=edge - self.r, delta_practical=edge - self.r,
                          oracle_seconds=0.0, r_before=self.r if t > 1 else None)
        if self.cert is not None:
            record.pool_lower = self.cert.dual_value
            record.pool_upper = self.cert.primal_value + max(0.0, edge - self.r)
        if t > 1 and edge < self.r + f.eps:
            self.done, self.status = True, "converged"
            gap = record.pool_upper - record.pool_lower
            self.message = (f"best edge {edge:.6g} < r + eps = {self.r:.6g} + {f.eps:g} "
                            f"(seed 002 Algorithm 2); h^{t} not added, T = {t - 1}; the "
                            f"whole pool's optimum is certified within {gap:.3g}")
            return record
        if not may_solve:
            return record
        self._solve(U_t, record)
        self.r = self._r_of(U_t, self.d)
        record.r = self.r
        self.primal_prev, self.dual_prev = record.primal, record.dual
        printed = getattr(f, "objective_as_printed", None)
        if callable(printed):
            record.as_printed = printed(record.primal, record.dual)
        return record

    def output(self):
        out = super().output()
        out.stopping = "cg"
        return out

    @classmethod
    def claims(cls, result, formulation, tol):
        """CG1 (the restricted optimum never decreases as columns are added) and CG2 (the stop
        certifies the whole pool's optimum within eps), and for AdaBoost_l1 seed 002's §3.3/§3.5
        identities at the output (:mod:`dualboost.margin_identities`)."""
        slack = _run_slack(result, tol)
        solved = [r for r in result.history if r.solved]
        drops = [solved[i].dual - solved[i + 1].primal for i in range(len(solved) - 1)]
        worst = max(drops, default=0.0)
        out = [Claim("CG1", "restricted optimum non-decreasing: max_t (Theta^(t-1) - P^t)",
                     CG1_REF, worst, worst <= slack,
                     f"over {len(solved)} certified master solves", slack)]
        eps = float(formulation.eps)
        last = result.history[-1] if result.history else None
        if not result.success or last is None or last.solved or not solved:
            out.append(Claim("CG2", "stop: whole-pool bracket P(d^T) + max(0, e - r^T) - "
                             "Theta^T <= eps", CG2_REF, None, None,
                             f"the run did not stop by its rule ({result.status})"))
        else:
            # recomputed from the output (d^T, the kept columns) and the discarded best edge
            f = formulation
            r_T = cls._r_static(f, result.columns, result.d)
            upper = f.primal_objective(result.columns, result.d) + max(0.0, last.edge - r_T)
            value = upper - result.dual_objective
            out.append(Claim("CG2", "stop: whole-pool bracket P(d^T) + max(0, e - r^T) - "
                             "Theta^T <= eps", CG2_REF, value,
                             value <= eps + slack,
                             f"e = {last.edge:.8g}, r^T = {r_T:.8g}, P(d^T) = "
                             f"{f.primal_objective(result.columns, result.d):.8g}, Theta^T = "
                             f"{result.dual_objective:.8g}", eps + slack))
        out += cls._identity_claims(result, formulation, tol)
        return out

    @staticmethod
    def _r_static(f, U, d) -> float:
        gamma = getattr(f, "master_r", None)
        return float(gamma(U, d)) if callable(gamma) else float((U.T @ d).max())

    @classmethod
    def _identity_claims(cls, result, formulation, tol) -> list[Claim]:
        return []


class AdaBoostCG(_ShenLiCG):
    name = "adaboost_cg"
    summary = "totally corrective CG on AdaBoost_l1 (15); stop when best edge < r + eps"
    reference = "seed 002 Algorithm 2 (AdaBoost-CG)"
    problem = "adaboost"
    #: what ``dualboost fit --algorithm adaboost_cg`` fits without --formulation
    default_formulation = "adaboost_l1"

    @classmethod
    def _identity_claims(cls, result, formulation, tol):
        from ..margin_identities import adaboost_l1_identities

        if result.columns.shape[1] == 0:
            return []
        rows = adaboost_l1_identities(result.columns, result.d, result.weights,
                                      float(formulation.T), tol=max(tol, 1e-6) + _run_slack(
                                          result, 0.0) ** 0.5,
                                      inequality=getattr(formulation, "inequality", False))
        return [Claim(r.id, r.label, r.reference, r.value, r.status == "pass", r.detail,
                      r.tolerance) for r in rows]


class LogitBoostCG(_ShenLiCG):
    name = "logitboost_cg"
    summary = "totally corrective CG on LogitBoost_l1 (31); stop when best edge < r + eps"
    reference = "seed 002 §3.4, §3.7 (LogitBoost-CG: Algorithm 2 on (31))"
    problem = "logitboost"
    default_formulation = "logitboost_l1"
