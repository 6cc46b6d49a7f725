"""SoftBoost (thesis Algorithm 3.1; TotalBoost at nu = 1).

Iteration t: the oracle's column u^t against d^{t-1} sets ``gamma_hat_t = min(gamma_hat_{t-1},
u^t.d^{t-1})`` (gamma_hat_0 = 1); the master (3.1) projects d0 in relative entropy onto the capped
distributions whose edges on u^1..u^t are at most ``gamma_hat_t - eps``
(``formulation.updated(edge_bound=gamma_hat_t - eps)``).

Termination (step (c)) is the normal stop and is decided *before* the entropy solve, from the
certified value P_LP^t of the soft-margin LP (2.3) over u^1..u^t (the smallest edge bound any
capped distribution achieves):

* P_LP^t > gamma_hat_t - eps: (3.1) is infeasible (its dual is unbounded);
* P_LP^t = gamma_hat_t - eps (within ``boundary_tol``): (3.1) has no point with all d_n > 0, so
  d^t "contains a zero".

Either way T = t, h^T is kept, and P_LP^T >= gamma_hat_T - eps >= g - eps (Thm 3.2, step 1).
Otherwise Slater's condition holds, and (3.1) is solved and certified by its corrected dual
(formulations/softboost.py). The output weights are the soft-margin LP (2.2) solution over
h^1..h^T: SoftBoost's own w is unnormalized and does not exist at T (the master is infeasible),
and the LP carries the guarantee above (thesis Alg. 3.1 output, docs/theory.md).

SoftBoost also stops early, as LPBoost and ERLPBoost do (docs/theory.md, "Stopping early"),
once :func:`~dualboost.algorithms.totally_corrective.guarantee_check_due` says the check is
due: the stop promises softmargin(w^T) >= gamma_hat_T - eps >= g - eps (Thm 3.2), and
gamma_hat_t only decreases, so gamma_hat_t <= eps (empty) or < 2 eps (less than g/2) is certain
however long the run goes on. Thm 3.2 allows up to (2/eps^2) ln(N/nu) iterations, each with an
LP (2.3) over all columns so far; on noisy data (make_classification, N = 10^4, nu = 0.1 N,
eps = 0.01) SoftBoost ran 150 s (TotalBoost: 281 iterations) into its time limit with
gamma_hat below 2 eps after 10 s. The run then ends with status ``vacuous_guarantee`` /
``weak_guarantee`` before the LP of step t (h^t discarded, the output is the LP over
h^1..h^(t-1)); ``guarantee_check=False`` runs on to step (c).

Per iteration the record holds the certified bracket of (3.1) (``primal`` = Delta(d^t, d0),
``dual`` = Theta_S), d^t and its dual point (for the run claims S1-S7), P_LP^t (``lp_value``) and
``delta_simple = delta_practical = gamma_hat_t - P_LP^t`` (the stop is ``<= eps``, the same
quantity as LPBoost's Alg. 2.1 step (c)); ``primal_before`` is Delta(d^{t-1}, d0) (d^{t-1}
violates the new edge bound by construction, so P^t(d^{t-1}) itself is +inf). The terminating
record has no entropy solve: its ``primal``, ``dual`` and ``d`` are None.
"""

from __future__ import annotations

import math
import time

import numpy as np
from scipy.special import logsumexp, rel_entr

from ..formulation import Certificate, Formulation
from ..margins import soft_margin
from ..params import Param
from ..result import BoostResult, IterationRecord
from ..solvers import SolveRecord
from .base import Algorithm, Claim, Output

BOUNDARY_TOL = Param(
    "boundary_tol", "(3.1) counts as having no interior point when P_LP^t >= gamma_hat_t - eps "
    "- boundary_tol (thesis Alg. 3.1 step (c))", default=1e-7, low=0)


def _lp_certificate(U: np.ndarray, nu: float, solver: str | None, master=None):
    """The soft-margin LP (2.3)/(2.2) over the columns U, solved and certified (gap <= 1e-9):
    by ``master`` (LPBoost's warm HiGHS master, kept across the iterations) when given, else by
    the reference path. Returns (certificate, record with solver and status, path)."""
    from ..registry import shipped

    if master is not None:
        solved = master.solve(U, 1e-9)
        record = SolveRecord(solved.solver, solved.status, solved.seconds)
        return solved.certificate, record, solved.path or master.path
    _, cert, record = shipped("lpboost")(U.shape[0], nu=nu).solve_primal(U, 1e-9, solver=solver)
    return cert, record, "reference"


class SoftBoostAlgorithm(Algorithm):
    """Thesis Algorithm 3.1 (module docstring), with the early guarantee check."""

    name = "softboost"
    summary = ("totally corrective entropy projection under gamma_hat_t - eps; stop when (3.1) "
               "is infeasible or has no interior point (decided by P_LP^t)")
    reference = "thesis Algorithm 3.1 (TotalBoost at nu = 1)"
    params = (BOUNDARY_TOL,)
    #: what ``dualboost fit --algorithm softboost`` fits without --formulation (erlpboost, the
    #: general default, has no edge bound)
    default_formulation = "softboost"

    @classmethod
    def unsupported(cls, formulation: Formulation) -> str | None:
        if not any(p.name == "edge_bound" for p in formulation.params):
            return ("Algorithm 3.1 sets an edge bound gamma_hat_t - eps in the master problem; "
                    "the formulation has no 'edge_bound' parameter (use softboost or totalboost)")
        return None

    def __init__(self, formulation: Formulation, *, guarantee_check: bool = True, **kwargs):
        super().__init__(formulation, **kwargs)
        self.nu = float(getattr(formulation, "nu", 1.0))
        #: stop early when the eps-guarantee is certified empty or weak (_check_guarantee)
        self.guarantee_check = bool(guarantee_check)
        self.started = time.perf_counter()  # the fit's clock (guarantee check)
        self.solves = 0  # steps that solved the LP (2.3)
        self.last_solve_seconds = 0.0
        #: master work so far and the last step's (totally_corrective.solve_work: the LP and
        #: the projection, each counted as a solve that reports no iterations)
        self.work = self.last_work = 0.0
        self.gamma_hat = 1.0  # gamma_hat_0 = 1
        self.delta_prev = 0.0  # Delta(d^0, d0) = 0
        self.lp_cert: Certificate | None = None
        self.lp_columns = -1  # number of columns lp_cert was computed on
        # fast paths (master="auto"): LPBoost's warm HiGHS master for P_LP^t, kept across the
        # iterations, and the formulation's projected Newton (polish) for (3.1)
        fast = self.master_choice == "auto"
        self.lp_master = None
        if fast:
            from ..registry import shipped

            self.lp_master = shipped("lpboost")(formulation.N, nu=self.nu).fast_master()
        self.master = formulation.fast_master() if fast else None

    def step(self, t, u, may_solve):
        f = self.formulation
        edge = float(u @ self.d)
        gamma_hat = min(self.gamma_hat, edge)
        bound = gamma_hat - f.eps
        record = IterationRecord(t=t, edge=edge, primal_before=self.delta_prev,
                                 delta_simple=math.nan, delta_practical=math.nan,
                                 oracle_seconds=0.0)
        if not may_solve:
            return record
        self.gamma_hat = gamma_hat
        if self._check_guarantee(t):
            return record
        U_t = self.extended(u)

        tick = time.perf_counter()
        lp_cert, lp_record, lp_path = _lp_certificate(U_t, self.nu, self.solver, self.lp_master)
        p_lp = lp_cert.dual_value  # certified lower bound of P_LP^t (gap <= 1e-9)
        record.lp_value = p_lp
        record.delta_simple = record.delta_practical = gamma_hat - p_lp
        self.U, self.lp_cert, self.lp_columns = U_t, lp_cert, U_t.shape[1]
        record.solved = True
        if p_lp >= bound - self.boundary_tol:
            record.master_seconds = time.perf_counter() - tick
            record.solver, record.status = lp_record.solver, lp_record.status
            record.attempts = [vars(a) for a in lp_record.attempts]
            record.path = lp_path
            why = ("(3.1) is infeasible" if p_lp > bound + self.boundary_tol
                   else "(3.1) has no interior point (d^t would contain a zero)")
            self.done, self.status = True, "converged"
            self.message = (f"{why}: P_LP^{t} = {p_lp:.6g} vs gamma_hat_{t} - eps = {bound:.6g}; "
                            f"T = {t}")
            return record

        f_t = f.updated(edge_bound=bound)
        if self.master is not None:
            # the master keeps its w across iterations; the edge bound is this iteration's, and
            # this iteration's LP point (edges <= P_LP^t < the bound) restores edge feasibility
            self.master.formulation, self.master.anchor = f_t, lp_cert.d
            solved = self.master.solve(U_t, self.gap_tol)
            cert = solved.certificate
            solve_record = SolveRecord(solved.solver, solved.status, solved.seconds)
            record.path = solved.path or self.master.path
        else:
            _, cert, solve_record = f_t.solve_primal(U_t, self.gap_tol, solver=self.solver)
            record.path = "reference"
        record.master_seconds = self.last_solve_seconds = time.perf_counter() - tick
        self.solves += 1
        from .totally_corrective import solve_work

        self.last_work = 2 * solve_work(U_t.size, None)
        self.work += self.last_work
        if self.kkt:
            tick = time.perf_counter()
            recovery = f_t.recover_dual(U_t, cert.d, hint=cert.point)
            record.kkt_seconds = time.perf_counter() - tick
            record.kkt_residual, record.kkt_source = recovery.residual, recovery.source
            record.kkt_w_difference = float(np.abs(recovery.w - cert.w).max())
        record.primal, record.dual, record.duality_gap = (cert.primal_value, cert.dual_value,
                                                          cert.gap)
        record.solver, record.status = solve_record.solver, solve_record.status
        record.attempts = [vars(a) for a in solve_record.attempts]
        record.d = np.array(cert.d, dtype=float)
        record.point = cert.point.copy()
        self.d, self.delta_prev = record.d, cert.primal_value
        return record

    def _check_guarantee(self, t: int) -> bool:
        """Before the LP of step t, once the check is due (the rule LPBoost and ERLPBoost
        use): stop when gamma_hat_t <= eps (the promise gamma_hat_T - eps is <= 0, met by the
        cancelling pair 0.5 h - 0.5 h) or gamma_hat_t < 2 eps (less than half of g). True when
        it stopped the run."""
        from .totally_corrective import broken_promise, guarantee_check_due, guarantee_verdict

        elapsed = time.perf_counter() - self.started
        if not (self.guarantee_check and self.solves >= 1 and self.lp_cert is not None
                and getattr(self.formulation, "promises_soft_margin", True)
                and guarantee_check_due(self.work, self.solves, self.last_work)):
            return False
        eps, gamma_hat = float(self.formulation.eps), self.gamma_hat
        verdict = guarantee_verdict(gamma_hat, eps)
        if verdict is None:
            return False
        promise = broken_promise(verdict, gamma_hat, eps)
        softer = ("a larger nu (g grows with nu; --formulation softboost with nu > 1: "
                  "TotalBoost is its hard margin nu = 1)" if self.nu <= 1
                  else "a larger nu (g grows with nu)")
        self.done, self.status = True, verdict
        self.message = (
            f"stopped early before step {t} ({elapsed:.1f} s, {self.solves} master solves, "
            f"T = {self.U.shape[1]}): the best soft margin g over all hypotheses is certified "
            f"<= gamma_hat = min_q u^q.d^(q-1) = {gamma_hat:.3g}, so the guarantee of the "
            f"stop (thesis Thm 3.2), soft margin >= gamma_hat_T - eps >= g - eps with eps = "
            f"{eps:g}, {promise}; more iterations cannot change that (docs/theory.md, "
            f"'Stopping early'). Remedies: {softer}, or eps <= {gamma_hat / 4:.2g} (Thm 3.2 "
            f"allows (2/eps^2) ln(N/nu) iterations: add a --time-limit); --no-early-stop "
            f"(run(..., guarantee_check=False)) runs on to Algorithm 3.1's step (c)")
        return True

    def output(self) -> Output:
        cert = self.lp_cert
        if cert is None or self.lp_columns != self.U.shape[1]:
            cert, _, _ = _lp_certificate(self.U, self.nu, self.solver)
        return Output(weights=cert.w, point=cert.point, d=cert.d,
                      primal_objective=cert.primal_value, dual_objective=cert.dual_value,
                      lp_value=cert.dual_value, kept=self.U.shape[1], stopping="lp")

    # -- the run claims (thesis Thm 3.2 and its proof; docs/theory.md S1-S7) -----------------
    @classmethod
    def claims(cls, result: BoostResult, formulation: Formulation, tol: float) -> list[Claim]:
        """S1-S7 and E11 on a finished run, every constant computed here from nu, eps, d0."""
        f = formulation
        nu = float(getattr(f, "nu", 1.0))
        eps = float(f.eps)
        N = f.N
        d0 = np.asarray(getattr(f, "d0", np.full(N, 1.0 / N)), dtype=float)
        U = np.asarray(result.columns, dtype=float)
        solved = [r for r in result.history if r.solved]
        T = result.iterations
        # gamma_hat_t = min(1, min_{q <= t} u^q . d^{q-1})
        gamma_hats = np.minimum.accumulate(np.r_[1.0, [r.edge for r in solved]])[1:]
        projected = [(i, r) for i, r in enumerate(solved) if r.d is not None]
        gaps = [abs(r.duality_gap) for _, r in projected if r.duality_gap is not None]
        slack = tol + 2 * max(gaps, default=0.0)
        out: list[Claim] = []

        def kl(p, q):
            # q's exact zeros are round-off (a projection clipping 1e-30 entries); d^(t-1) has
            # full support in exact arithmetic, so they are read as the smallest double
            return float(rel_entr(np.clip(p, 0.0, None), np.maximum(q, np.finfo(float).tiny))
                         .sum())

        if not projected:
            for check_id, label in (("S1", "feasibility of d^t"), ("S2", "Pythagoras (3.5)"),
                                    ("S3", "edge drop >= eps"), ("S6", "Theta_S = Delta")):
                out.append(Claim(check_id, label, "thesis Thm 3.2", None, None,
                                 "no master (3.1) was solved (the run stopped at t = 1)"))
        else:
            # S1: feasibility of every d^t for (3.1) at t
            worst, where = -math.inf, 0
            for i, r in projected:
                d = r.d
                edges = U[:, :i + 1].T @ d - (gamma_hats[i] - eps)
                violation = max(edges.max(), (d - 1.0 / nu).max(), -d.min(), abs(d.sum() - 1))
                if violation > worst:
                    worst, where = violation, r.t
            out.append(Claim("S1", "feasibility: max_q u^q.d^t <= gamma_hat_t - eps, "
                             "d^t <= 1/nu, sum d^t = 1, d^t >= 0", "thesis (3.1)", -worst,
                             bool(worst <= tol), f"largest violation {worst:.3g} at t = {where}",
                             tol))
            # S2 and S3 along d^0 = d0, d^1, ..., d^(T-1)
            pyth, step, drop = math.inf, math.inf, math.inf
            previous = d0
            for i, r in projected:
                d = r.d
                pyth = min(pyth, kl(d, d0) - kl(previous, d0) - kl(d, previous))
                step = min(step, kl(d, previous) - eps ** 2 / 2)
                drop = min(drop, float(U[:, i] @ previous - U[:, i] @ d) - eps)
                previous = d
            out.append(Claim("S2", "Bregman Pythagoras: Delta(d^t,d0) - Delta(d^(t-1),d0) >= "
                             "Delta(d^t,d^(t-1))", "thesis (3.5)", pyth, bool(pyth >= -slack),
                             "value = min over t < T of (left - right)", slack))
            out.append(Claim("S2", "progress: Delta(d^t,d^(t-1)) >= eps^2/2 (Pinsker, Hoelder)",
                             "thesis Thm 3.2 proof", step, bool(step >= -slack),
                             "value = min over t < T of (Delta(d^t,d^(t-1)) - eps^2/2)", slack))
            out.append(Claim("S3", "edge drop: u^t.d^(t-1) - u^t.d^t >= eps", "thesis Thm 3.2 "
                             "proof", drop, bool(drop >= -tol),
                             "value = min over t < T of (drop - eps)", tol))
            # S6: Theta_S(w^t, psi^t) = Delta(d^t, d0), Theta_S evaluated here in numpy
            worst_gap, worst_d = 0.0, 0.0
            for i, r in projected:
                point = r.point or {}
                w = np.asarray(point.get("w"), dtype=float)
                s = U[:, :i + 1] @ w
                penalty = 0.0
                if nu > 1 and point.get("psi") is not None:
                    psi = np.asarray(point["psi"], dtype=float)
                    s, penalty = s + psi, psi.sum() / nu
                theta = -logsumexp(-s, b=d0) - (gamma_hats[i] - eps) * w.sum() - penalty
                worst_gap = max(worst_gap, abs(theta - kl(r.d, d0)))
                log_d = np.log(d0) - s
                worst_d = max(worst_d, float(np.abs(np.exp(log_d - logsumexp(log_d))
                                                    - r.d).sum()))
            out.append(Claim("S6", "strong duality: |Theta_S(w^t,psi^t) - Delta(d^t,d0)| "
                             "(<= tolerance)", "thesis Lemma 3.1 (corrected), (3.2)", worst_gap,
                             bool(worst_gap <= slack), f"max over t; ||d(3.2) - d^t||_1 <= "
                             f"{worst_d:.3g}", slack))

        # S4: Delta(d^t, d0) <= ln(1 / (nu min d0)) (= ln(N/nu) for uniform d0)
        B = math.log(1.0 / (nu * float(d0.min())))
        largest = max((kl(r.d, d0) for _, r in projected), default=0.0)
        out.append(Claim("S4", "Delta(d^t,d0) <= ln(1/(nu min d0)) (ln(N/nu) for uniform d0)",
                         "thesis Thm 3.2 proof", B - largest, bool(largest <= B + tol),
                         f"max Delta = {largest:.6g}, bound {B:.6g}", tol))
        # S5: T <= floor((2/eps^2) ln(1/(nu min d0))) + 1 (Thm 3.2 with erratum 12)
        bound_T = math.floor(2.0 / eps ** 2 * B + 1e-12) + 1
        out.append(Claim("S5", f"iteration bound T <= floor((2/eps^2) ln(1/(nu min d0))) + 1 = "
                         f"{bound_T}", "thesis Thm 3.2", float(bound_T - T), T <= bound_T,
                         f"T = {T}"))
        # S7 and E11: on stop, the LP over h^1..h^T reaches gamma_hat_T - eps
        if result.status != "converged" or T == 0:
            why = f"the run did not stop by Alg. 3.1 step (c) (status {result.status!r})"
            out.append(Claim("S7", "on stop: P_LP^T >= gamma_hat_T - eps", "thesis Thm 3.2",
                             None, None, why))
            out.append(Claim("E11", "soft margin of the output >= gamma_hat_T - eps",
                             "thesis Alg. 3.1 output", None, None, why))
            return out
        target = float(gamma_hats[T - 1]) - eps
        p_lp = _independent_lp_value(U, nu)
        out.append(Claim("S7", "on stop: P_LP^T >= gamma_hat_T - eps", "thesis Thm 3.2, step 1",
                         p_lp - target, bool(p_lp >= target - tol),
                         f"P_LP^T = {p_lp:.8g} (independent HiGHS solve of (2.3)), "
                         f"gamma_hat_T - eps = {target:.8g}", tol))
        margin = soft_margin(U @ np.asarray(result.weights, dtype=float), nu)
        out.append(Claim("E11", "soft margin (2.2) of the output >= gamma_hat_T - eps",
                         "thesis Alg. 3.1 output", margin - target, bool(margin >= target - tol),
                         f"soft margin {margin:.8g}", tol))
        return out


def _independent_lp_value(U: np.ndarray, nu: float) -> float:
    """P_LP of (2.3) over U by scipy's HiGHS directly (not through the formulation classes)."""
    N, t = U.shape
    c = np.r_[np.zeros(N), 1.0]
    A_ub = np.hstack([U.T, -np.ones((t, 1))])
    A_eq = np.r_[np.ones(N), 0.0][None, :]
    bounds = [(0.0, 1.0 / nu)] * N + [(None, None)]
    from scipy.optimize import linprog  # 0.2 s to import: only when needed

    sol = linprog(c, A_ub=A_ub, b_ub=np.zeros(t), A_eq=A_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if sol.status != 0:
        return math.nan
    return float(sol.fun)


__all__ = ["SoftBoostAlgorithm"]
