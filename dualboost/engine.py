"""The totally corrective column-generation loop (thesis Algorithms 2.1 and 3.2).

Each iteration asks the oracle for the hypothesis of largest edge under the current d, appends
its column ``u = y h(x)``, re-solves the formulation's primal (d-domain) model and certifies the
solution: the solver's multipliers w are completed by the formulation's exact best response
(psi, beta) and bracketed ``Theta(w, psi) <= optimum <= P(d)``. The KKT / active-set recovery of
(w, psi, beta) from the solver's d is run at every iteration and its residual recorded.

Stopping (with the certified values; exact at exact optima):

* LPBoost, Alg. 2.1: stop after solving t when ``min_{q<=t} u^q . d^{q-1} - Theta^t <= eps``;
  the output keeps h^1..h^T with T = t.
* ERLPBoost, Alg. 3.2: before solving t, ``delta^t = min_{q<=t} P^q(d^{q-1}) - P^{t-1}(d^{t-1})``
  (``simple``, §3.2.1) or ``delta~^t = min_{q<=t} P^q(d^{q-1}) - Theta^{t-1}`` (``practical``,
  §3.2.2); stop when it is ``<= eps/2``, discard h^t and output T = t - 1 hypotheses.
  P^0(d^0) = Theta^0 = -1 (the empty max is -1). At least one hypothesis is always kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .errors import DualBoostInputError
from .formulation import Formulation
from .margins import soft_margin
from .result import BoostResult, IterationRecord

STOPPING_RULES = ("simple", "practical")


def _solve_master(formulation: Formulation, U: np.ndarray, solver: str | None, gap_tol: float,
                  kkt: bool):
    model, cert, record = formulation.solve_primal(U, gap_tol, solver=solver)
    residual = w_difference = None
    kkt_seconds = 0.0
    if kkt:
        tick = time.perf_counter()
        recovery = formulation.recover_dual(U, model.d.value)
        kkt_seconds = time.perf_counter() - tick
        residual = recovery.residual
        w_difference = float(np.abs(recovery.w - model.multipliers().w).max())
    return cert, record, residual, w_difference, kkt_seconds


def restricted_lp_value(U: np.ndarray, nu: float, solver: str | None = None) -> float:
    """P_LP^T: the soft-margin LP (2.3) over the selected columns, certified by its dual.

    The thesis states every algorithm's guarantee on it (g - P_LP^T <= eps, Lemmas 3.3, 3.5).
    """
    from formulations.lpboost import LPBoost

    _, cert, _ = LPBoost(U.shape[0], nu=nu).solve_primal(U, 1e-9, solver=solver)
    return cert.dual_value


def boost(
    formulation: Formulation,
    oracle,
    *,
    stopping: str = "practical",
    max_iter: int = 1000,
    solver: str | None = None,
    gap_tol: float | None = None,
    kkt: bool = True,
    progress: Callable[[IterationRecord], None] | None = None,
) -> BoostResult:
    """Run the column-generation loop of ``formulation`` with a fitted ``oracle``.

    ``gap_tol`` is the largest certified primal-dual gap accepted from a master solve (default
    eps/100, well inside the eps/4 that the practical rule needs); a solver whose certificate
    fails hands over to the next one in :mod:`dualboost.solvers`' order.
    """
    if stopping not in STOPPING_RULES:
        raise DualBoostInputError(f"stopping must be one of {STOPPING_RULES}, got {stopping!r}")
    if not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise DualBoostInputError(f"max_iter must be a positive integer, got {max_iter!r}")
    eps = formulation.eps
    gap_tol = eps / 100 if gap_tol is None else float(gap_tol)
    N = formulation.N
    start = time.perf_counter()

    d = formulation.d0.copy()
    U = np.empty((N, 0))
    hypotheses: list = []
    history: list[IterationRecord] = []
    cert = None
    primal_prev = dual_prev = -1.0  # P^0(d^0) = Theta^0 = -1 (thesis §3.2, convention)
    min_primal_before = np.inf  # min_q P^q(d^{q-1})
    min_edge = np.inf  # gamma_hat_t = min_q u^q . d^{q-1}
    status, message = "max_iter", f"stopped after max_iter = {max_iter} master solves"

    for t in range(1, int(max_iter) + 2):
        tick = time.perf_counter()
        h, u = oracle.best(d)
        oracle_seconds = time.perf_counter() - tick
        u = np.asarray(u, dtype=float)
        edge = float(u @ d)
        U_t = np.column_stack([U, u])
        primal_before = formulation.primal_objective(U_t, d)
        min_primal_before = min(min_primal_before, primal_before)
        min_edge = min(min_edge, edge)
        if formulation.regularized:
            delta_simple = min_primal_before - primal_prev
            delta_practical = min_primal_before - dual_prev
        else:
            delta_simple = delta_practical = np.nan  # filled in after the solve
        record = IterationRecord(t=t, edge=edge, primal_before=primal_before,
                                 delta_simple=delta_simple, delta_practical=delta_practical,
                                 oracle_seconds=oracle_seconds)
        history.append(record)

        delta = delta_simple if stopping == "simple" else delta_practical
        if formulation.regularized and t > 1 and delta <= eps / 2:
            status = "converged"
            message = (f"delta{'~' if stopping == 'practical' else ''}^{t} = {delta:.3g} "
                       f"<= eps/2 = {eps / 2:g}; h^{t} discarded, T = {t - 1}")
            if progress:
                progress(record)
            break
        if t > max_iter:
            history.pop()
            break

        tick = time.perf_counter()
        cert, solve_record, residual, w_difference, kkt_seconds = _solve_master(
            formulation, U_t, solver, gap_tol, kkt)
        record.kkt_seconds = kkt_seconds
        record.master_seconds = time.perf_counter() - tick - kkt_seconds
        U, d = U_t, cert.d
        hypotheses.append(h)
        primal_prev, dual_prev = cert.primal_value, cert.dual_value
        record.solved = True
        record.primal, record.dual, record.duality_gap = primal_prev, dual_prev, cert.gap
        record.kkt_residual, record.kkt_w_difference = residual, w_difference
        record.solver, record.status = solve_record.solver, solve_record.status
        record.attempts = [vars(a) for a in solve_record.attempts]
        if not formulation.regularized:
            record.delta_simple = record.delta_practical = min_edge - dual_prev
        if progress:
            progress(record)
        if not formulation.regularized and min_edge - dual_prev <= eps:
            status = "converged"
            message = (f"min_q u^q.d^(q-1) - P_LP^{t} = {min_edge - dual_prev:.3g} <= eps = "
                       f"{eps:g}; T = {t}")
            break

    weights = cert.w
    return BoostResult(
        formulation=formulation.name,
        parameters=formulation.parameters(),
        weights=weights,
        hypotheses=hypotheses,
        columns=U,
        d=d,
        psi=cert.psi,
        beta=cert.beta,
        history=history,
        success=status == "converged",
        status=status,
        message=message,
        primal_objective=cert.primal_value,
        dual_objective=cert.dual_value,
        soft_margin=soft_margin(U @ weights, formulation.nu),
        lp_value=(cert.dual_value if not formulation.regularized
                  else restricted_lp_value(U, formulation.nu, solver)),
        seconds=time.perf_counter() - start,
        master_seconds=sum(r.master_seconds for r in history),
        oracle_seconds=sum(r.oracle_seconds for r in history),
        kkt_seconds=sum(r.kkt_seconds for r in history),
        stopping=stopping if formulation.regularized else "lp",
    )
