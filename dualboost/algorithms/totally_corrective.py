"""Totally corrective column generation: LPBoost (thesis Alg. 2.1) and ERLPBoost (Alg. 3.2).

Each master step re-solves the formulation's primal over all columns so far and certifies it:
the solver's multipliers are made exactly dual-feasible and completed by the formulation's best
response, giving ``Theta <= optimum <= P(d)`` (:meth:`Formulation.certify`). The KKT / active-set
recovery of the multipliers from d runs at every step as a diagnostic (its residual is recorded).

Stopping (with the certified values; exact at exact optima):

* ``lpboost`` (Alg. 2.1, any formulation): stop after solving t when
  ``min_{q<=t} u^q . d^{q-1} - Theta^t <= eps``; the output keeps h^1..h^T with T = t.
* ``erlpboost`` (Alg. 3.2, strictly convex formulations): before solving t,
  ``delta^t = min_{q<=t} P^q(d^{q-1}) - P^{t-1}(d^{t-1})`` (``simple``, §3.2.1) or
  ``delta~^t = min_{q<=t} P^q(d^{q-1}) - Theta^{t-1}`` (``practical``, §3.2.2); stop when it is
  ``<= eps/2``, discard h^t and output T = t - 1 hypotheses. P^0(d^0) = Theta^0 = -1 (the empty
  max is -1). At least one hypothesis is always kept.
"""

from __future__ import annotations

import time

import numpy as np

from ..formulation import Certificate, Formulation
from ..params import Param
from ..result import IterationRecord
from .base import Algorithm, Output

STOPPING = Param("stopping", "stopping rule: delta^t (simple, thesis §3.2.1) or delta~^t "
                 "(practical, §3.2.2)", kind="str", default="practical",
                 check=lambda v, N, values: None if v in ("simple", "practical")
                 else f"must be one of ('simple', 'practical'), got {v!r}")


def restricted_lp_value(U: np.ndarray, nu: float, solver: str | None = None) -> float:
    """P_LP^T: the soft-margin LP (2.3) over the selected columns, certified by its dual.

    The thesis states every algorithm's guarantee on it (g - P_LP^T <= eps, Lemmas 3.3, 3.5).
    """
    from formulations.lpboost import LPBoost

    _, cert, _ = LPBoost(U.shape[0], nu=nu).solve_primal(U, 1e-9, solver=solver)
    return cert.dual_value


class _TotallyCorrective(Algorithm):
    """Shared master step: solve the primal over every column, certify, recover KKT."""

    def __init__(self, formulation: Formulation, **kwargs):
        super().__init__(formulation, **kwargs)
        self.cert: Certificate | None = None
        self.min_edge = np.inf  # gamma_hat_t = min_q u^q . d^{q-1}

    def _solve(self, U_t: np.ndarray, record: IterationRecord) -> None:
        f = self.formulation
        tick = time.perf_counter()
        model, cert, solve_record = f.solve_primal(U_t, self.gap_tol, solver=self.solver)
        master = time.perf_counter() - tick
        if self.kkt:
            tick = time.perf_counter()
            recovery = f.recover_dual(U_t, model.values()["d"])
            record.kkt_seconds = time.perf_counter() - tick
            record.kkt_residual = recovery.residual
            solver_w = model.multipliers()["w"]
            record.kkt_w_difference = float(np.abs(recovery.w - solver_w).max())
        record.master_seconds = master
        self.U, self.d, self.cert = U_t, cert.d, cert
        record.solved = True
        record.primal, record.dual, record.duality_gap = (cert.primal_value, cert.dual_value,
                                                          cert.gap)
        record.solver, record.status = solve_record.solver, solve_record.status
        record.attempts = [vars(a) for a in solve_record.attempts]

    def _output(self, stopping: str, lp_value: float | None) -> Output:
        cert = self.cert
        return Output(weights=cert.w, point=cert.point, d=cert.d,
                      primal_objective=cert.primal_value, dual_objective=cert.dual_value,
                      lp_value=lp_value, kept=self.U.shape[1], stopping=stopping)


class LPBoostAlgorithm(_TotallyCorrective):
    name = "lpboost"
    summary = "totally corrective; stop when min_q u^q.d^(q-1) - Theta^t <= eps"
    reference = "thesis Algorithm 2.1"

    def step(self, t, u, may_solve):
        edge = float(u @ self.d)
        self.min_edge = min(self.min_edge, edge)
        U_t = np.column_stack([self.U, u])
        f = self.formulation
        record = IterationRecord(t=t, edge=edge, primal_before=f.primal_objective(U_t, self.d),
                                 delta_simple=np.nan, delta_practical=np.nan, oracle_seconds=0.0)
        if not may_solve:
            return record
        self._solve(U_t, record)
        record.delta_simple = record.delta_practical = self.min_edge - record.dual
        eps = f.eps
        if self.min_edge - record.dual <= eps:
            self.done, self.status = True, "converged"
            self.message = (f"min_q u^q.d^(q-1) - P_LP^{t} = {self.min_edge - record.dual:.3g} "
                            f"<= eps = {eps:g}; T = {t}")
        return record

    def output(self):
        return self._output("lp", self.cert.dual_value)


class RegularizedAlgorithm(_TotallyCorrective):
    name = "erlpboost"
    summary = "totally corrective; stop before solving when delta^t <= eps/2, drop h^t"
    reference = "thesis Algorithm 3.2 (3.3 for the binary entropy)"
    params = (STOPPING,)

    @classmethod
    def unsupported(cls, formulation):
        if not formulation.capabilities.strictly_convex:
            return ("its stopping rule needs a strictly convex primal (a unique d^t); use "
                    "--algorithm lpboost")
        return None

    def __init__(self, formulation, **kwargs):
        super().__init__(formulation, **kwargs)
        self.primal_prev = self.dual_prev = -1.0  # P^0(d^0) = Theta^0 = -1 (thesis §3.2)
        self.min_primal_before = np.inf  # min_q P^q(d^{q-1})

    def step(self, t, u, may_solve):
        f = self.formulation
        edge = float(u @ self.d)
        self.min_edge = min(self.min_edge, edge)
        U_t = np.column_stack([self.U, u])
        primal_before = f.primal_objective(U_t, self.d)
        self.min_primal_before = min(self.min_primal_before, primal_before)
        record = IterationRecord(
            t=t, edge=edge, primal_before=primal_before,
            delta_simple=self.min_primal_before - self.primal_prev,
            delta_practical=self.min_primal_before - self.dual_prev, oracle_seconds=0.0)
        delta = record.delta_simple if self.stopping == "simple" else record.delta_practical
        if t > 1 and delta <= f.eps / 2:
            self.done, self.status = True, "converged"
            self.message = (f"delta{'~' if self.stopping == 'practical' else ''}^{t} = "
                            f"{delta:.3g} <= eps/2 = {f.eps / 2:g}; h^{t} discarded, "
                            f"T = {t - 1}")
            return record
        if not may_solve:
            return record
        self._solve(U_t, record)
        self.primal_prev, self.dual_prev = record.primal, record.dual
        return record

    def output(self):
        nu = getattr(self.formulation, "nu", 1.0)
        return self._output(self.stopping, restricted_lp_value(self.U, nu, self.solver))
