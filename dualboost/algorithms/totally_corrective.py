"""Totally corrective column generation: LPBoost (thesis Alg. 2.1) and ERLPBoost (Alg. 3.2).

Each master step re-solves the formulation's primal over all columns so far and certifies it:
the solver's multipliers are made exactly dual-feasible and completed by the formulation's best
response, giving ``Theta <= optimum <= P(d)`` (:meth:`Formulation.certify`). The KKT / active-set
system at d is checked at every step as a diagnostic (its residual is recorded): the master's
multipliers restricted to the active sets read off d must satisfy it, or the multipliers are
recovered from d alone (``record.kkt_source`` says which).

Stopping (with the certified values; exact at exact optima):

* ``lpboost`` (Alg. 2.1, any formulation): stop after solving t when
  ``min_{q<=t} u^q . d^{q-1} - Theta^t <= eps``; the output keeps h^1..h^T with T = t.
* ``erlpboost`` (Alg. 3.2, strictly convex formulations): before solving t,
  ``delta^t = min_{q<=t} P^q(d^{q-1}) - P^{t-1}(d^{t-1})`` (``simple``, §3.2.1) or
  ``delta~^t = min_{q<=t} P^q(d^{q-1}) - Theta^{t-1}`` (``practical``, §3.2.2); stop when it is
  ``<= eps/2``, discard h^t and output T = t - 1 hypotheses. P^0(d^0) = Theta^0 = -1 (the empty
  max is -1). At least one hypothesis is always kept.

Both also stop early, with status ``vacuous_guarantee`` / ``weak_guarantee``, when the guarantee
of their eventual stop is certified empty or weak (:meth:`_TotallyCorrective._check_guarantee`,
due as :func:`guarantee_check_due` says; docs/theory.md, "Stopping early"); LPBoost also with
``degenerate_lp`` when its LP's value is still <= 0 then
(:meth:`LPBoostAlgorithm._guarantee_verdict`).
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..formulation import Certificate, Formulation
from ..masters.highs_lp import DEGENERATE_LP_VALUE
from ..masters.highs_run import GUARD_NONZEROS, pivot_passes
from ..params import Param
from ..result import IterationRecord
from ..run_control import TimeLimitReached, current
from .base import Algorithm, Claim, Output

STOPPING = Param("stopping", "stopping rule: delta^t (simple, thesis §3.2.1) or delta~^t "
                 "(practical, §3.2.2)", kind="str", default="practical",
                 check=lambda v, N, values: None if v in ("simple", "practical")
                 else f"must be one of ('simple', 'practical'), got {v!r}")


#: the output's P_LP^T (a diagnostic of the finished fit) may take this fraction of the fit's
#: own time, and at least REPORT_LP_MIN_SECONDS; past it the value is not computed and the
#: result's message says so (issue: an N = 3e4 fit of 210 s spent 380 s more in this LP)
REPORT_LP_FRACTION = 0.5
REPORT_LP_MIN_SECONDS = 1.0

#: the per-solve KKT recovery (a diagnostic: every solve is certified without it) stops for the
#: rest of the run once its total time exceeds KKT_FRACTION x the master solves' total and
#: KKT_MIN_SECONDS, and the message says so: on a formulation without a hand-assembled system
#: (cvxpy's gradients, e.g. sss_smoothed_hard) at N = 1e4 it took 29.5 s against the master's
#: 13.5 s in 100 solves, with a peak of 1.1 GB against 0.23 GB without it
KKT_FRACTION = 1.0
KKT_MIN_SECONDS = 1.0

#: Both algorithms check their guarantee (_TotallyCorrective._check_guarantee, docs/theory.md
#: "Stopping early") once the fit has done GUARANTEE_CHECK_WORK units of master work and made
#: GUARANTEE_CHECK_SOLVES master solves, or has done GUARANTEE_CHECK_SLOW_WORK units whatever the
#: number of solves. Work, never the clock: a fit is a function of its data and parameters,
#: whatever the machine's load (issue 31: the same fit twice gave T = 137 and 135 when the check
#: fell due on the wall clock); only a time limit given by the user reads the clock. One unit
#: is one entry of the master's matrix (N x t) visited once: a solve costs N t times its
#: solver's iterations (simplex pivots, Newton steps; :data:`UNREPORTED_ITERATIONS` for a solver
#: that reports none, cvxpy's interior point methods), see :func:`solve_work`. Calibrated on a
#: 2-core machine to about 10 s and 20 s of master solves (a simplex pivot or Newton step over
#: N t entries: ~2e8 units a second). A run that ends within GUARANTEE_CHECK_WORK is never
#: checked (it stops by its own rule; the diagnostics flag an empty guarantee at the end);
#: 100 solves keep fast runs of many cheap solves (a9a's 79) on their rule; the second bound is
#: for slow solves (LPBoost on a degenerate LP at N = 1e4-1e5: a handful of solves of many
#: pivots each), which would never reach 100 solves
GUARANTEE_CHECK_WORK = 2e9
GUARANTEE_CHECK_SOLVES = 100
GUARANTEE_CHECK_SLOW_WORK = 4e9
#: the iterations counted for a master solve whose solver reports none (an interior point
#: method's typical count)
UNREPORTED_ITERATIONS = 25


def solve_work(entries: int, iterations: int | None) -> float:
    """The work units of one master solve over ``entries`` = N t matrix entries with the
    solver's ``iterations`` (None: :data:`UNREPORTED_ITERATIONS`): a deterministic count."""
    its = UNREPORTED_ITERATIONS if iterations is None else max(int(iterations), 1)
    return float(entries) * its


def guarantee_check_due(work: float, solves: int, last_work: float = 0.0) -> bool:
    """Whether the guarantee check runs after ``work`` units of master work (:func:`solve_work`)
    and ``solves`` master solves (see GUARANTEE_CHECK_WORK). ``last_work`` is the last master
    solve's work: a run whose next solve, as costly as the last one, would end past
    GUARANTEE_CHECK_SLOW_WORK is checked now rather than after it (LPBoost at N = 1e5: one
    degenerate solve of many pivots, and the check would otherwise wait for the second).
    Never reads the clock."""
    if work < GUARANTEE_CHECK_WORK:
        return False
    return (solves >= max(GUARANTEE_CHECK_SOLVES, 1)
            or work + max(last_work, 0.0) >= GUARANTEE_CHECK_SLOW_WORK)


#: a run still going when its guarantee check falls due is told how far its stop is, once, when
#: the rate of its stopping quantity so far puts the stop more than this many seconds away
SLOW_NOTICE_SECONDS = 60.0


def projected_distance(trace: list[tuple[int, float]], target: float
                       ) -> tuple[int, float, int, float] | None:
    """How many more master solves a stopping quantity delta (LPBoost's gamma_hat - Theta^t,
    ERLPBoost's delta~^t) needs to fall to ``target`` at the rate it fell over the second half
    of ``trace`` ((solves, delta) pairs in order): delta taken as c solves^(-p) through the
    points at half the solves and at the last (ERLPBoost's iteration bound, thesis Thm 3.10
    and docs/theory.md T4, is of this form: p = 1/2 for its 1/eps^2). Returns (more solves
    (-1: no decrease at all), p, the first point's solves, its delta), or None when the trace
    is too short or the target is reached."""
    if len(trace) < 4:
        return None
    b, delta_b = trace[-1]
    if not delta_b > target > 0.0:
        return None
    a, delta_a = next((s, d) for s, d in trace if s >= b / 2)
    if a >= b:
        return None
    if not delta_a > delta_b:
        return -1, 0.0, a, delta_a
    p = math.log(delta_a / delta_b) / math.log(b / a)
    more = b * ((delta_b / target) ** (1.0 / p) - 1.0) if p > 0 else math.inf
    return (int(min(more, 1e15)) + 1, p, a, delta_a)


def broken_promise(verdict: str, bound: float, eps: float, bound_name: str = "gamma_hat",
                   eps_name: str = "eps") -> str:
    """What the stop's guarantee 'soft margin >= g - eps' still promises under a verdict of
    :func:`guarantee_verdict`, with the certified upper bound ``bound`` >= g (docs/theory.md,
    'Stopping early')."""
    if verdict == "vacuous_guarantee":
        return (f"is empty: g - {eps_name} <= 0, which the cancelling pair 0.5 h - 0.5 h "
                "already meets")
    return (f"can certify at most {bound_name} - {eps_name} = {bound - eps:.3g}, less than "
            "half of g")


def guarantee_verdict(gamma_hat: float, eps_eff: float) -> str | None:
    """``"vacuous_guarantee"`` when the promise softmargin >= g - eps_eff is certified empty
    (g <= gamma_hat <= eps_eff), ``"weak_guarantee"`` when it is certified below g/2
    (gamma_hat < 2 eps_eff), else None (docs/theory.md, "Stopping early")."""
    if not gamma_hat < 2 * eps_eff:
        return None
    return "vacuous_guarantee" if gamma_hat <= eps_eff else "weak_guarantee"


def restricted_lp_value(U: np.ndarray, nu: float, solver: str | None = None,
                        w_start: np.ndarray | None = None,
                        sample_weight: np.ndarray | None = None,
                        time_limit: float | None = None) -> float | None:
    """P_LP^T: the soft-margin LP (2.3) over the selected columns, certified by its dual.

    The thesis states every algorithm's guarantee on it (g - P_LP^T <= eps, Lemmas 3.3, 3.5).
    With ``w_start`` (the last master's w) it is solved by sifting over the examples
    (:mod:`dualboost.masters.sifting`), otherwise, or when that does not certify, whole.
    ``sample_weight``: the weighted LP (per-example caps; docs/theory.md "Sample weights").
    ``time_limit`` (seconds; the fast path only): its HiGHS solves run under that limit
    (:mod:`dualboost.run_control`, no cvxpy fallback), and None is returned when no certified
    value was reached in time.
    """
    if time_limit is None or solver is not None:
        return _restricted_lp_value(U, nu, solver, w_start, sample_weight, bounded=False)
    from ..run_control import RunControl, TimeLimitReached, running

    if time_limit <= 0:
        return None
    try:
        with running(RunControl(time_limit=float(time_limit))):
            return _restricted_lp_value(U, nu, None, w_start, sample_weight, bounded=True)
    except TimeLimitReached:
        return None


def _restricted_lp_value(U, nu, solver, w_start, sample_weight, bounded: bool) -> float | None:
    from ..registry import shipped

    lp = shipped("lpboost")(U.shape[0], nu=nu, sample_weight=sample_weight)
    if solver is None and w_start is not None and U.shape[1]:
        from ..masters.sifting import sifted_soft_margin_lp

        # a cold solve: a first working set of t + 101 examples (half the master's default)
        # and a round or two more cost less than one LP over twice as many (pima- and
        # australian-sized runs, t ~ 300: 0.43-0.75 s -> 0.35-0.51 s), from a basis guessed
        # from the master's w
        sifted = sifted_soft_margin_lp(U, nu, w_start, caps=lp.cap_vector,
                                       first_size=U.shape[1] + 101, crash=True)
        if sifted is not None:
            cert = lp.certify(U, {"w": sifted.w, "psi": sifted.psi}, sifted.d)
            if 0.0 <= cert.gap <= 1e-9 * (1.0 + abs(cert.dual_value)):
                return cert.dual_value
    if bounded and U.shape[1]:
        return _whole_lp_value(lp, U)
    master = lp.fast_master() if solver is None else None
    if master is not None and U.shape[1]:
        # HiGHS directly, certified by the same bracket (falls back to cvxpy on its own)
        return master.solve(U, 1e-9).certificate.dual_value
    _, cert, _ = lp.solve_primal(U, 1e-9, solver=solver)
    return cert.dual_value


def _whole_lp_value(lp, U: np.ndarray) -> float | None:
    """(2.3) over U by HiGHS in one model under the current run control (no cvxpy fallback),
    certified; None when it does not end optimal and certified."""
    from ..masters.highs_run import HIGHS_OPTIONS, run_optimal
    from ..masters.lp_rows import add_edge_rows, soft_margin_model

    N = U.shape[0]
    caps = lp.cap_vector if lp.cap_vector is not None else np.full(N, 1.0 / lp.nu)
    h = soft_margin_model(N, np.minimum(caps, 1.0), dict(HIGHS_OPTIONS))
    rows = add_edge_rows(h, U)
    if not run_optimal(h, what="HiGHS dual simplex, P_LP^T"):
        return None
    solution = h.getSolution()
    w, _ = rows.multipliers(np.asarray(solution.row_dual, dtype=float))
    psi = np.clip(-np.asarray(solution.col_dual, dtype=float)[:N], 0.0, None)
    cert = lp.certify(U, {"w": w, "psi": psi}, np.asarray(solution.col_value, dtype=float)[:N])
    return cert.dual_value if 0.0 <= cert.gap <= 1e-9 * (1.0 + abs(cert.dual_value)) else None


def independent_lp_value_and_d(U: np.ndarray, nu: float,
                               sample_weight: np.ndarray | None = None
                               ) -> tuple[float, np.ndarray]:
    """P_LP of the soft-margin LP (2.3) on the columns U and its d, by scipy's HiGHS directly (no
    formulation code, no cvxpy): the independent re-solve of the verifier's claims (L5, G1).

    Variables (d, gamma): min gamma s.t. U^T d - gamma <= 0, sum(d) = 1, 0 <= d <= 1/nu (with
    ``sample_weight`` s: 0 <= d_n <= s_n N / (nu sum s)).
    """
    from scipy.optimize import linprog

    U = np.asarray(U, dtype=float)
    N, t = U.shape
    if t == 0:
        return -1.0, np.full(N, 1.0 / N)
    c = np.zeros(N + 1)
    c[-1] = 1.0
    A_ub = np.hstack([U.T, -np.ones((t, 1))])
    A_eq = np.zeros((1, N + 1))
    A_eq[0, :N] = 1.0
    caps = np.full(N, 1.0 / nu) if sample_weight is None else \
        np.asarray(sample_weight, dtype=float) * (N / (nu * float(np.sum(sample_weight))))
    bounds = [(0.0, float(cap)) for cap in caps] + [(None, None)]
    solution = linprog(c, A_ub=A_ub, b_ub=np.zeros(t), A_eq=A_eq, b_eq=[1.0], bounds=bounds,
                       method="highs")
    if solution.status != 0:
        raise RuntimeError(f"HiGHS could not solve the LP (2.3): {solution.message}")
    return float(solution.fun), np.clip(solution.x[:N], 0.0, caps)


def independent_lp_value(U: np.ndarray, nu: float,
                         sample_weight: np.ndarray | None = None) -> float:
    """P_LP of (2.3) on U (see :func:`independent_lp_value_and_d`)."""
    return independent_lp_value_and_d(U, nu, sample_weight)[0]


def _run_slack(result, tol: float) -> float:
    """tol plus twice the largest certified gap of the run's master solves (an inexact optimum
    moves every certified value by at most its gap)."""
    gaps = [max(r.duality_gap or 0.0, 0.0) for r in result.history if r.solved]
    return tol + 2.0 * max(gaps, default=0.0)


def _is_worst_case_run(result, formulation) -> bool:
    """Whether the run's columns are those of the thesis's Thm 2.5 instance at nu = 1."""
    from ..data import lpboost_worst_case

    N = formulation.N
    if N % 2 or N < 2 or float(getattr(formulation, "nu", 1.0)) != 1.0 or \
            result.columns.shape[1] == 0:
        return False
    W = lpboost_worst_case(N)
    return all(np.any(np.all(np.abs(W - col[:, None]) <= 1e-12, axis=0))
               for col in result.columns.T)


def _class_of(formulation) -> type:
    """unsupported() is asked with a formulation or its class (``dualboost list``)."""
    return formulation if isinstance(formulation, type) else type(formulation)


def _is_lp_family(formulation) -> bool:
    """The primal's value is the soft-margin LP (2.3) (declared: primal_form == "lp")."""
    return _class_of(formulation).capabilities.primal_form == "lp"


class _TotallyCorrective(Algorithm):
    """Shared master step: solve the primal over every column, certify, recover KKT."""

    def __init__(self, formulation: Formulation, *, guarantee_check: bool = True, **kwargs):
        super().__init__(formulation, **kwargs)
        self.started = time.perf_counter()  # the fit's clock (guarantee check, P_LP^T budget)
        #: stop early when the eps-guarantee is certified empty or weak (_check_guarantee)
        self.guarantee_check = bool(guarantee_check)
        self.solves = 0  # certified master solves so far
        #: (solves, the stopping quantity) after each solve, for the slow-progress note
        self._trace: list[tuple[int, float]] = []
        self._noticed = False
        self.last_solve_seconds = 0.0  # the last master solve's (the slow-progress note)
        #: master work so far and the last solve's (solve_work; guarantee_check_due)
        self.work = self.last_work = 0.0
        self.cert: Certificate | None = None
        self.min_edge = np.inf  # gamma_hat_t = min_q u^q . d^{q-1}
        #: the KKT recovery's and the master solves' seconds so far, and the master step after
        #: which the recovery stopped for costing more than the solves (KKT_FRACTION), or None
        self.kkt_total = self.master_total = 0.0
        self.kkt_stopped: int | None = None
        # a forced solver means the reference path through that solver
        self.master = (formulation.fast_master() if self.master_choice == "auto" else None)

    def _solve(self, U_t: np.ndarray, record: IterationRecord) -> None:
        """One master solve (the fast master where the formulation has one, else the reference
        cvxpy path), its certificate recorded, and the KKT recovery from the solver's d."""
        f = self.formulation
        tick = time.perf_counter()
        control = current()
        # asked from the solver's callback (HiGHS), so only where a solve could outlast the
        # moment the check falls due: a Python call per simplex pivot costs short runs. A large
        # LP can outlast it from any start (N = 1e5, LPBoost: after two sifted solves of 1-2 s
        # the whole LP's first solve took 41 s, unwatched), and its solves are watched anyway
        # (Ctrl-C, dualboost.masters.highs_run.GUARD_NONZEROS). Whether it is asked, and what
        # it answers, depend on work counts only (the pivots of the solve under way)
        if (control is not None and self.guarantee_check and self.solves >= 1
                and (self.work + max(self.last_work, float(U_t.size)) >= GUARANTEE_CHECK_WORK
                     or U_t.size >= GUARD_NONZEROS)):
            control.stop_check = (lambda elapsed, iterations=None, t=record.t, size=U_t.size:
                                  self._verdict_in_solve(
                                      t, elapsed, 0.0 if iterations is None
                                      else solve_work(size, pivot_passes(iterations))))
        if self.master is not None:
            try:
                solved = self.master.solve(U_t, self.gap_tol)
            finally:
                if control is not None:
                    control.stop_check = None
            cert = solved.certificate
            solver_d, multipliers = cert.d, solved.multipliers or cert.point
            record.path, record.solver, record.status = (solved.path or self.master.path,
                                                         solved.solver, solved.status)
            iterations = solved.iterations
        else:
            model, cert, solve_record = f.solve_primal(U_t, self.gap_tol, solver=self.solver)
            solver_d, multipliers = model.values()["d"], model.multipliers()
            record.path, record.solver, record.status = ("reference", solve_record.solver,
                                                         solve_record.status)
            record.attempts = [vars(a) for a in solve_record.attempts]
            iterations = None
        record.master_seconds = self.last_solve_seconds = time.perf_counter() - tick
        self.master_total += record.master_seconds
        self.last_work = solve_work(U_t.size, iterations)
        self.work += self.last_work
        control = current()
        # the KKT recovery is a diagnostic: past the run's time limit it is skipped (the
        # solve is certified without it), so the limit holds; and once it has cost more than
        # the solves it checks, it stops (KKT_FRACTION; the message says so)
        if (self.kkt and self.kkt_stopped is None
                and not (control is not None and control.expired())):
            tick = time.perf_counter()
            # the solver's multipliers are verified on the active sets read off d, and solved
            # for from d alone only when they fail (thesis §3.2.4)
            recovery = f.recover_dual(U_t, solver_d, hint=multipliers)
            record.kkt_seconds = time.perf_counter() - tick
            record.kkt_residual, record.kkt_source = recovery.residual, recovery.source
            record.kkt_w_difference = float(np.abs(recovery.w - multipliers["w"]).max())
            self.kkt_total += record.kkt_seconds
            if self.kkt_total > max(KKT_FRACTION * self.master_total, KKT_MIN_SECONDS):
                self.kkt_stopped = record.t
        self.U, self.d, self.cert = U_t, cert.d, cert
        self.solves += 1
        record.solved = True
        record.primal, record.dual, record.duality_gap = (cert.primal_value, cert.dual_value,
                                                          cert.gap)

    def eps_eff(self) -> float:
        """The eps of the stop's promise softmargin(w) >= g - eps_eff: eps for LPBoost (thesis
        Alg. 2.1, docs/theory.md L5), eps/2 + B/eta for ERLPBoost (T1, E11; = eps at the default
        eta = 2B/eps): :func:`dualboost.guarantee.stop_guarantee`, as for the finished run."""
        from ..guarantee import stop_guarantee

        return stop_guarantee(self.name, float(self.formulation.eps),
                              self.formulation).eps_effective

    def _remedy_eps(self, gamma_hat: float) -> str:
        return (f"eps <= {gamma_hat / 4:.2g} (a promise of at least g - gamma_hat/4; add a "
                f"--time-limit)")

    def _guarantee_stopped(self, t: int, may_solve: bool,
                           record: IterationRecord | None = None) -> bool:
        """Run the guarantee check before solving t when it is due; True when it stopped.
        A run that goes on is told once (``record.notice``) when its stop is far off at its
        present rate (:meth:`_slow_notice`)."""
        if not (self.guarantee_check and may_solve and self.solves >= 1 and
                guarantee_check_due(self.work, self.solves, self.last_work)):
            return False
        self._check_guarantee(t)
        if not self.done and record is not None and not self._noticed:
            record.notice = self._slow_notice()
        return self.done

    def _stop_quantity(self) -> tuple[str, float] | None:
        """The name of the quantity the stopping rule drives down and its target
        (:func:`dualboost.guarantee.stop_rule`); None for a rule of another kind."""
        from ..guarantee import stop_rule

        rule = stop_rule(self.name, getattr(self, "stopping", "lp"), float(self.formulation.eps))
        return None if rule is None else rule[:2]

    def _slow_notice(self) -> str | None:
        """The projected distance of the stop (:func:`projected_distance`) as a note, when it
        is more than SLOW_NOTICE_SECONDS away at the last solve's seconds; None otherwise."""
        rule = self._stop_quantity()
        if rule is None:
            return None
        name, target = rule
        projection = projected_distance(self._trace, target)
        if projection is None:
            return None
        self._noticed = True  # judged once, on a trace long enough to have a rate
        more, p, a, delta_a = projection
        b, delta_b = self._trace[-1]
        per_solve = max(self.last_solve_seconds, 1e-3)
        if more >= 0 and more * per_solve < SLOW_NOTICE_SECONDS:
            return None
        if more < 0:
            rate = (f"{name} = {delta_b:.3g} has not fallen since solve {a} "
                    f"({delta_a:.3g}): at this rate the stop ({name} <= {target:g}) is not "
                    "in sight")
        else:
            hours = more * per_solve / 3600.0
            when = f"{hours:.3g} h" if hours >= 1 else f"{60 * hours:.2g} min"
            rate = (f"{name} fell from {delta_a:.3g} (solve {a}) to {delta_b:.3g} (solve {b}), "
                    f"like solves^-{p:.2g}: at that rate the stop ({name} <= {target:g}) is "
                    f"about {more:.2g} more master solves away (> {when} at "
                    f"{per_solve:.2g} s a solve, which grows with T)")
        return (f"slow progress: {rate}; the run goes on. Remedies: a larger eps (the stop "
                f"promises soft margin >= g - eps), {self._softer_margin()}, or a time "
                "limit (--time-limit, time_limit=: the last certified solve is kept) "
                "(docs/theory.md, 'Stopping early'; docs/choosing_nu.md)")

    def _verdict_in_solve(self, t: int, elapsed: float, in_solve: float = 0.0
                          ) -> tuple[str, str] | None:
        """The guarantee check asked from inside master solve t once it is due (a degenerate
        LP's solve can take minutes): (status, message) when it would stop the run, else None.
        ``in_solve`` is the work of the solve under way so far (its pivots, :func:`solve_work`);
        ``elapsed`` (seconds) is not read: the check falls due on work alone. Its inputs
        (gamma_hat, the last certified solve) do not change during the solve."""
        # the solve under way counts as the "last solve" of guarantee_check_due: once it has
        # done so much work that, had it ended, the next as costly would pass the slow bound
        if self.solves < 1 or not guarantee_check_due(self.work + in_solve, self.solves,
                                                      in_solve):
            return None
        verdict = self._guarantee_verdict(t)
        if verdict is None:
            return None
        status, message = verdict
        return status, (f"{message} (the check fell due inside master solve {t}, which was "
                        "abandoned)")

    def _check_guarantee(self, t: int) -> None:
        """Stop before solving t when :meth:`_guarantee_verdict` says so."""
        verdict = self._guarantee_verdict(t)
        if verdict is not None:
            self.done = True
            self.status, self.message = verdict

    def _stopped_early(self, t: int) -> str:
        """The opening of an early stop's message: when, after how many solves and columns."""
        return (f"stopped early before solving {t} ({time.perf_counter() - self.started:.1f} s, "
                f"{self.solves} master solves, T = {self.U.shape[1]})")

    def _guarantee_verdict(self, t: int) -> tuple[str, str] | None:
        """(status, message) when the guarantee of the eventual stop is certified empty or weak
        (docs/theory.md, "Stopping early when the guarantee cannot mean much"), else None.

        The stop promises softmargin(w) >= g - eps_eff (:meth:`eps_eff`), and g <= gamma_hat =
        min_q u^q.d_q is certified at every step (weak duality of (2.2)/(2.3) at each capped
        pricing point d_q). gamma_hat <= eps_eff: the promise is at most 0, met by the
        cancelling pair 0.5 h - 0.5 h (empty); gamma_hat < 2 eps_eff: it is less than g/2
        (weak). Either is certain, however long the run goes on (gamma_hat only decreases)."""
        eps_eff = self.eps_eff()
        if not math.isfinite(eps_eff):  # the formulation promises no soft margin
            return None
        gamma_hat = self.min_edge
        verdict = guarantee_verdict(gamma_hat, eps_eff)
        if verdict is None:
            return None
        promise = broken_promise(verdict, gamma_hat, eps_eff, eps_name="eps_eff")
        return verdict, (
            f"{self._stopped_early(t)}: the best soft margin g over "
            f"all hypotheses is certified <= gamma_hat = min_q u^q.d^(q-1) = {gamma_hat:.3g}, "
            f"so the guarantee of the stop, soft margin >= g - eps_eff with eps_eff = "
            f"{eps_eff:.3g}, {promise}; more iterations cannot change that (docs/theory.md, "
            f"'Stopping early'). Remedies: {self._softer_margin()}, or "
            f"{self._remedy_eps(gamma_hat)}; --no-early-stop (run(..., guarantee_check=False)) "
            f"runs on to the algorithm's own stopping rule")

    def _softer_margin(self) -> str:
        """The remedy 'a softer margin' in the member's own knob: seed 002's hinge members take
        the slack penalty D (nu = 1/D), the others nu."""
        D = getattr(self.formulation, "D", None)
        if isinstance(D, (int, float)):
            return f"a smaller D (g grows as D falls; now D = {float(D):.4g})"
        return "a larger nu (g grows with nu)"

    def _output(self, stopping: str, lp_value: float | None) -> Output:
        if self.kkt_stopped is not None and "KKT check" not in self.message:
            self.message += (f"; the KKT check (a diagnostic, thesis §3.2.4) ran for master "
                             f"solves 1-{self.kkt_stopped} only: it had cost "
                             f"{self.kkt_total:.3g} s against their {self.master_total:.3g} s")
        cert = self.cert
        return Output(weights=cert.w, point=cert.point, d=cert.d,
                      primal_objective=cert.primal_value, dual_objective=cert.dual_value,
                      lp_value=lp_value, kept=self.U.shape[1], stopping=stopping)


PRICING = Param(
    "pricing", "columns per master solve: the best hypothesis only (single, Alg. 2.1 as "
    "printed), or with it the oracle's other candidates whose edge exceeds Theta^(t-1) + eps "
    "and that can enter the LP (multiple; stumps: the best stump of each feature)", kind="str",
    default="multiple",
    check=lambda v, N, values: None if v in ("single", "multiple")
    else f"must be one of ('single', 'multiple'), got {v!r}")


#: a column whose edge at the master's d^(t-1) is <= Theta^(t-1) + this cannot enter the LP
MISPRICE_TOL = 1e-12

#: the adaptive smoothing moves alpha by this much per step, within [0, ALPHA_MAX]
ALPHA_STEP, ALPHA_MAX = 0.1, 0.9

SMOOTHING = Param(
    "smoothing", "Wentges' dual smoothing: the oracle is asked at alpha c + (1 - alpha) "
    "d^(t-1), c the pricing point of smallest best edge so far, alpha starting here and adapted "
    "at every step (0: off, the oracle at d^(t-1) as Alg. 2.1 prints)", kind="float",
    default=0.5, low=0.0, high=ALPHA_MAX)


class LPBoostAlgorithm(_TotallyCorrective):
    """Thesis Algorithm 2.1, with two standard column-generation accelerations (both on by
    default, both off gives the algorithm as printed):

    * ``pricing="multiple"``: a master solve also takes, beside the best hypothesis h^t, every
      other candidate of the oracle (the best stump of each feature) whose edge exceeds
      Theta^(t-1) + eps at the pricing point and Theta^(t-1) at the master's d^(t-1) (so it
      can enter the LP): the "multiple pricing" of column generation.
    * ``smoothing`` (Wentges' dual smoothing, with an adaptive weight): the oracle is asked at
      ``alpha c + (1 - alpha) d^(t-1)`` instead of the master's d^(t-1), where the centre c is
      the pricing point with the smallest best edge so far. The LP (2.3) is often degenerate
      and its simplex vertex d^(t-1) jumps between optimal faces; the smoothed point moves
      less, and fewer columns reach the stop. alpha starts at ``smoothing`` and moves by 0.1
      per step within [0, 0.9]: up when the best hypothesis's edge rises from the pricing
      point towards d^(t-1) (u^t.(d^(t-1) - c) > 0: the bound is better nearer the centre),
      down otherwise, so data whose LP vertices are informative (twonorm) drift back to
      Alg. 2.1. After a *mis-price* (h^t cannot enter the LP at d^(t-1)) the next pricing
      point is d^t itself, so the run cannot stall.

    The guarantee is untouched: every pricing point is a capped distribution, so by weak
    duality of (2.2)/(2.3) each best edge is an upper bound on the optimum g, gamma_hat =
    min_q u^q.d_q (d_q the q-th pricing point) too, and the stop gamma_hat - P_LP^t <= eps
    gives soft margin = P_LP^t >= g - eps (docs/theory.md L5); the master solves stay exact.
    Measured on UCI-sized data at nu = 0.2 N (benchmarks/README.md): a third to an eighth of the
    master solves of one column per solve at d^(t-1), and 2-7 times faster (before the sparse
    edge rows of :mod:`dualboost.masters.highs_lp`, which speed up both)."""

    name = "lpboost"
    summary = "totally corrective; stop when min_q u^q.d^(q-1) - Theta^t <= eps"
    reference = "thesis Algorithm 2.1"
    #: what ``dualboost fit --algorithm lpboost`` fits without --formulation (Alg. 2.1's rule
    #: is stated on the LP (2.3); erlpboost, the general default, is refused)
    default_formulation = "lpboost"
    params = (PRICING, SMOOTHING)

    def __init__(self, formulation, **kwargs):
        super().__init__(formulation, **kwargs)
        self.master_d = self.d  # d^(t-1), the master's; self.d is the pricing point
        self.center = self.d
        self.alpha = self.smoothing

    @property
    def wants_candidates(self) -> bool:
        return self.pricing == "multiple"

    @classmethod
    def unsupported(cls, formulation):
        # Alg. 2.1 tests min_q u^q.d^(q-1) - P_LP^t <= eps with the master's value as P_LP^t:
        # only a primal whose value IS the LP (2.3) makes that the thesis's guarantee
        if formulation.capabilities.strictly_convex or not _is_lp_family(formulation):
            return ("Alg. 2.1's stopping rule is stated for the soft-margin LP value P_LP^t "
                    "(thesis (2.3)); use the formulation's default algorithm")
        return None

    def step(self, t, u, may_solve, extra=()):
        edge = float(u @ self.d)
        if edge < self.min_edge:
            self.min_edge, self.center = edge, self.d
        f = self.formulation
        theta = self.cert.dual_value if self.cert is not None else -1.0  # Theta^0 = -1 (§3.2)
        if may_solve and len(extra):
            block = np.column_stack(extra)
            # (at d^(t-1) itself the first test below implies this one)
            enters = (block.T @ self.master_d > theta + MISPRICE_TOL
                      if self.d is not self.master_d else True)
            self.accepted_extra = np.flatnonzero((block.T @ self.d > theta + f.eps)
                                                 & enters).tolist()
        # the checked read-only view (the master and the KKT recovery then skip the O(N t) scan;
        # only the appended columns are scanned, the earlier ones are never written again)
        U_t = f.check_columns(self.extended(u, *(extra[i] for i in self.accepted_extra)),
                              extends=self.U)
        record = IterationRecord(t=t, edge=edge, primal_before=f.primal_objective(U_t, self.d),
                                 delta_simple=np.nan, delta_practical=np.nan, oracle_seconds=0.0,
                                 extra_columns=len(self.accepted_extra))
        if not may_solve or self._guarantee_stopped(t, may_solve, record):
            return record
        # a mis-price: h^t cannot enter the LP at d^(t-1) (its reduced cost is not negative)
        mispriced = self.cert is not None and float(u @ self.master_d) <= theta + MISPRICE_TOL
        if self.d is not self.master_d:  # a smoothed pricing point: adapt alpha
            # u is a subgradient of max_h u_h.d at the pricing point: where it rises towards
            # d^(t-1), the best bound on the segment lies nearer the centre, and conversely
            rises = float(u @ (self.master_d - self.center)) > 0
            self.alpha = min(ALPHA_MAX, self.alpha + ALPHA_STEP) if rises else \
                max(0.0, self.alpha - ALPHA_STEP)
        if self.cert is None and self.accepted_extra:
            U_t = self._first_solve(U_t, u, record)
        else:
            self._solve(U_t, record)
        self.master_d = self.d
        if self.smoothing > 0 and not mispriced:
            self.d = self.alpha * self.center + (1.0 - self.alpha) * self.master_d
        record.delta_simple = record.delta_practical = self.min_edge - record.dual
        self._trace.append((self.solves, record.delta_simple))
        eps = f.eps
        if self.min_edge - record.dual <= eps:
            self.done, self.status = True, "converged"
            self.message = (f"min_q u^q.d^(q-1) - P_LP^{t} = {self.min_edge - record.dual:.3g} "
                            f"<= eps = {eps:g}; T = {U_t.shape[1]}"
                            + (f" hypotheses from {t} master solves" if U_t.shape[1] != t
                               else ""))
        return record

    def _first_solve(self, U_t: np.ndarray, u: np.ndarray, record: IterationRecord
                     ) -> np.ndarray:
        """The first master solve with the other candidates of multiple pricing, under the
        run's time limit; when the limit passes inside it, h^1 alone is solved instead (an LP
        over one column: milliseconds) and the run then ends on its limit with that bracket.
        The run loop lets a first solve complete whatever the limit (a bracket to keep), and
        with one candidate per feature that solve can be the longest of the run (20,000 x 500
        sparse binary features: 500 columns, 30-100 s, where h^1 alone is instant). Returns the
        columns solved."""
        control = current()
        if control is None or control.deadline is None or control.armed:
            self._solve(U_t, record)
            return U_t
        control.armed = True
        try:
            self._solve(U_t, record)
            return U_t
        except TimeLimitReached:
            dropped = len(self.accepted_extra)
            self.accepted_extra = []
            control.armed = False
            U_t = self.formulation.check_columns(self.extended(u), extends=self.U)
            record.extra_columns = 0
            self._solve(U_t, record)
            record.status = (f"{record.status}; h^1 alone: the time limit passed in the first "
                             f"solve with {dropped} more candidates (multiple pricing)")
            return U_t
        finally:
            control.armed = False

    def _guarantee_verdict(self, t: int) -> tuple[str, str] | None:
        """The shared verdicts (:meth:`_TotallyCorrective._guarantee_verdict`), then LPBoost's
        own early stop on a degenerate LP (docs/theory.md, "Stopping early"): when the check is
        due and the restricted LP (2.3) still has value Theta^t <= 0 (no combination of the
        hypotheses so far has a positive soft margin: a stump and its negation cancel) while
        the stop's bracket gamma_hat - Theta^t is above eps, the run is on the degenerate face
        where Algorithm 2.1 may need up to N/2 iterations (thesis Theorem 2.5) and each
        re-solve pivots through thousands of degenerate vertices. It stops with status
        ``degenerate_lp`` and the certified bracket Theta^t <= g <= gamma_hat, rather than run
        on for minutes; the remedies are ERLPBoost (whose entropy-smoothed distributions bring
        gamma_hat down in seconds on such data) or a larger nu."""
        shared = super()._guarantee_verdict(t)
        theta = self.cert.dual_value if self.cert is not None else None
        if shared is not None or theta is None or theta > DEGENERATE_LP_VALUE:
            return shared
        gap = self.min_edge - theta
        if not gap > self.formulation.eps:
            return None
        return "degenerate_lp", (
            f"{self._stopped_early(t)}: the LP (2.3) over the "
            f"hypotheses so far has value Theta^{t - 1} = {theta:.3g} <= 0 (no combination of "
            f"them has a positive soft margin), and the stop needs gamma_hat - Theta <= eps = "
            f"{self.formulation.eps:g} but has {gap:.3g}: the best soft margin g is certified in "
            f"[{theta:.3g}, {self.min_edge:.3g}] and Algorithm 2.1 on this degenerate LP may need "
            f"up to N/2 iterations (thesis Theorem 2.5; docs/theory.md, 'Stopping early'). "
            f"Remedies: ERLPBoost (--formulation erlpboost; its smoothed distributions bound g "
            f"far sooner), or {self._softer_margin()}; --no-early-stop "
            f"(guarantee_check=False) runs on to Algorithm 2.1's own rule")

    def output(self):
        return self._output("lp", self.cert.dual_value)

    @classmethod
    def claims(cls, result, formulation, tol):
        """L1 (master value non-decreasing), L5 (the stop certified by an independent LP solve),
        L6 (the Thm 2.5 lower bound, on that instance only)."""
        slack = _run_slack(result, tol)
        solved = [r for r in result.history if r.solved]
        out = []
        drops = [solved[i].dual - solved[i + 1].primal for i in range(len(solved) - 1)]
        worst = max(drops, default=0.0)
        out.append(Claim("L1", "master value non-decreasing: max_t (Theta^(t-1) - P^t)",
                         "docs/theory.md L1; thesis Algorithm 2.1", worst, worst <= slack,
                         f"over {len(solved)} certified master solves", slack))
        eps = float(formulation.eps)
        if not result.success:
            out.append(Claim("L5", "stop: gamma_hat - P_LP^T (independent LP solve)",
                             "docs/theory.md L5; thesis Algorithm 2.1, (2.3)", None, None,
                             f"the run did not stop by its rule ({result.status})"))
        else:
            nu = float(getattr(formulation, "nu", 1.0))
            columns = result.columns
            if formulation.capabilities.signed_weights:  # the LP over [U, -U] (seed 001 form)
                columns = np.hstack([columns, -columns])
            p_lp = independent_lp_value(columns, nu,
                                        getattr(formulation, "sample_weight", None))
            gamma_hat = min(r.edge for r in result.history)
            value = gamma_hat - p_lp
            out.append(Claim("L5", "stop: gamma_hat - P_LP^T (independent LP solve) <= eps",
                             "docs/theory.md L5; thesis Algorithm 2.1, (2.3)", value,
                             value <= eps + slack,
                             f"gamma_hat = min_q u^q.d^(q-1) = {gamma_hat:.8g}, P_LP^T = "
                             f"{p_lp:.8g} (HiGHS on the {result.columns.shape[1]} kept columns),"
                             f" eps = {eps:g}", eps + slack))
        as_printed = (result.algorithm_parameters.get("pricing", "single") == "single"
                      and result.algorithm_parameters.get("smoothing", 0.0) == 0.0)
        if _is_worst_case_run(result, formulation) and formulation.capabilities.signed_weights:
            out.append(Claim("L6", "worst case: T (LPBoost needs >= N/2 iterations)",
                             "docs/theory.md L6; thesis Thm 2.5, Fig. 2.8", None, None,
                             "Thm 2.5 is about w on the simplex of the given columns; a signed "
                             "w (seed 001) also has their negations, for which the instance "
                             "is not hard"))
        elif _is_worst_case_run(result, formulation) and not as_printed:
            out.append(Claim("L6", "worst case: T (LPBoost needs >= N/2 iterations)",
                             "docs/theory.md L6; thesis Thm 2.5, Fig. 2.8", None, None,
                             "Thm 2.5 is about Alg. 2.1 as printed (pricing='single', "
                             "smoothing=0); this run asked the oracle elsewhere"))
        elif _is_worst_case_run(result, formulation) and \
                set(formulation.capabilities.cones) <= {"lp"}:
            half = formulation.N / 2
            out.append(Claim("L6", "worst case: T (LPBoost needs >= N/2 iterations)",
                             "docs/theory.md L6; thesis Thm 2.5, Fig. 2.8",
                             float(result.iterations), result.iterations >= half,
                             f"N/2 = {half:g}", None))
        else:
            out.append(Claim("L6", "worst case: T (LPBoost needs >= N/2 iterations)",
                             "docs/theory.md L6; thesis Thm 2.5, Fig. 2.8", None, None,
                             "not the Thm 2.5 instance with an LP master"))
        return out


class RegularizedAlgorithm(_TotallyCorrective):
    name = "erlpboost"
    summary = "totally corrective; stop before solving when delta^t <= eps/2, drop h^t"
    reference = "thesis Algorithm 3.2 (3.3 for the binary entropy)"
    params = (STOPPING,)

    @classmethod
    def unsupported(cls, formulation):
        if _class_of(formulation).capabilities.primal_form != "regularized":
            return ("Alg. 3.2's delta rule needs a primal max_q u^q.d + (1/eta) R(d) of the "
                    "regularized-LPBoost family (dualboost.regularized)")
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
        # the checked read-only view (the master and the KKT recovery then skip the O(N t) scan;
        # only the appended column is scanned, the earlier ones are never written again)
        U_t = f.check_columns(self.extended(u), extends=self.U)
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
        if self.solves:
            self._trace.append((self.solves, delta))
        if self._guarantee_stopped(t, may_solve, record):
            return record
        if not may_solve:
            return record
        self._solve(U_t, record)
        self.primal_prev, self.dual_prev = record.primal, record.dual
        return record

    def _remedy_eps(self, gamma_hat: float) -> str:
        return (f"eps <= {gamma_hat / 4:.2g} (eps_eff well below gamma_hat; ERLPBoost's "
                f"iterations grow like 1/eps^2: add a --time-limit)")

    def output(self):
        nu = getattr(self.formulation, "nu", 1.0)
        w = self.cert.w if self.cert is not None else None
        weights = getattr(self.formulation, "sample_weight", None)
        # a diagnostic may not cost more than the fit: P_LP^T gets a share of its time
        fit = time.perf_counter() - self.started
        budget = max(REPORT_LP_FRACTION * fit, REPORT_LP_MIN_SECONDS)
        from ..run_control import current

        outer = current()  # a run's time limit holds for this diagnostic too (run_loop has
        # withdrawn its control by now and left the seconds remaining in time_left)
        left = outer.remaining() if outer is not None else self.time_left
        share = (f"{REPORT_LP_FRACTION:g} x the fit's {fit:.3g} s" if budget >
                 REPORT_LP_MIN_SECONDS else f"at least {REPORT_LP_MIN_SECONDS:g} s")
        if left is not None and float(left) < budget:
            # the run's time limit, not the diagnostic's share, bounded it
            budget = max(float(left), 0.0)
            share = "what the time limit left"
        tick = time.perf_counter()
        value = (restricted_lp_value(self.U, nu, self.solver, w, weights,
                                     time_limit=None if self.solver is not None else budget)
                 if budget > 0 or self.solver is not None else None)
        if value is None and not budget > 0 and self.solver is None:
            self.message += ("; P_LP^T (the LP (2.3) over the T hypotheses) not computed: the "
                             "time limit had passed")
        elif value is None:
            self.message += (f"; P_LP^T (the LP (2.3) over the T hypotheses) not computed: "
                             f"no certified value within its budget of {budget:.3g} s "
                             f"({share}; {time.perf_counter() - tick:.3g} s spent)")
        return self._output(self.stopping, value)

    @classmethod
    def claims(cls, result, formulation, tol):
        """T2 (Lemma 3.7 generalized), T4 (Thms 3.10 / 3.12 generalized), E11; the constants
        from the declared (sigma, B) through dualboost.theory (never read from the class)."""
        from ..margins import soft_margin
        from ..theory import iteration_bound, progress_constant

        slack = _run_slack(result, tol)
        f = formulation
        out = []
        sigma = float(f.modulus()) if callable(getattr(f, "modulus", None)) else None
        eta = float(f.eta) if getattr(f, "eta", None) is not None else None
        eps = float(f.eps)
        solved = [r for r in result.history if r.solved]
        t2_label = "progress Lemma 3.7: min_t (P^t - P^(t-1) - c (P^t(d^(t-1)) - P^(t-1))^2)"
        t2_ref = "docs/theory.md T2; thesis Lemma 3.7"
        if sigma is None or eta is None or not sigma > 0:
            out.append(Claim("T2", t2_label, t2_ref, None, None,
                             "the formulation declares no modulus sigma or eta"))
        elif eta < sigma / 2 - 1e-15:
            out.append(Claim("T2", t2_label, t2_ref, None, None,
                             f"eta = {eta:g} < sigma/2 = {sigma / 2:g}: the lemma needs eta >= "
                             "sigma/2"))
        else:
            c = progress_constant(eta, sigma)
            previous_upper = -1.0  # P^0(d^0) = -1
            worst = math.inf
            for r in solved:
                # certified: P^t - P^(t-1) >= Theta^t - P^(t-1)(d~^(t-1)); the jump is evaluated
                # at the recorded d~^(t-1) against the certified P^(t-1) bracket
                increase = r.dual - previous_upper
                jump = max(r.primal_before - previous_upper, 0.0)
                worst = min(worst, increase - c * jump ** 2)
                previous_upper = r.primal
            out.append(Claim("T2", t2_label, t2_ref, worst, worst >= -slack,
                             f"c = sigma/(8 eta) = {c:.4g} (sigma = {sigma:g}, eta = {eta:.6g})",
                             slack))
        t4_ref = "docs/theory.md T4; thesis Thm 3.10 (simple), 3.12 (practical)"
        stopping = result.stopping if result.stopping in ("simple", "practical") else "simple"
        if sigma is None or eta is None or not sigma > 0:
            out.append(Claim("T4", "iteration bound: T", t4_ref, None, None,
                             "the formulation declares no modulus sigma or eta"))
        else:
            bound = iteration_bound(eps, eta, sigma, stopping)
            T = result.iterations
            if not math.isfinite(bound):
                out.append(Claim("T4", "iteration bound: T", t4_ref, float(T), None,
                                 f"eta = {eta:g} < sigma/2: the theory gives no bound"))
            else:
                factor = 16 if stopping == "simple" else 32
                ok = T < bound if result.success else None
                out.append(Claim("T4", f"iteration bound: T < {factor} eta/(sigma eps) = "
                                 f"{bound:.4g} ({stopping} rule)", t4_ref, float(T), ok,
                                 f"status {result.status}" if ok is None else
                                 f"sigma = {sigma:g}, eta = {eta:.6g}, eps = {eps:g}", None))
        e11_label = "soft margin(w^T) - (min_q u^q.d^(q-1) - eps) (>= 0)"
        if not getattr(f, "promises_soft_margin", True):
            out.append(Claim("E11", e11_label, "docs/theory.md E11; thesis Lemma 3.3", None,
                             None, f"formulation {f.name!r} solves its own problem at a fixed "
                             "parameter and promises no soft margin (promises_soft_margin)"))
        elif result.columns.shape[1] == 0 or not result.history:
            out.append(Claim("E11", e11_label, "docs/theory.md E11; thesis Lemma 3.3", None,
                             None, "the output keeps no hypothesis"))
        else:
            nu = float(getattr(f, "nu", 1.0))
            w = np.asarray(result.weights, dtype=float)
            if f.capabilities.signed_weights:  # seed 001: the margin of w in the l1 ball itself
                w = w / max(1.0, float(np.abs(w).sum()))
            else:
                w = np.clip(w, 0, None)
                w = w / w.sum() if w.sum() > 0 else w
            margin = soft_margin(result.columns @ w, nu, getattr(f, "sample_weight", None))
            min_edge = min(r.edge for r in result.history)
            value = margin - (min_edge - eps)
            ok = value >= -slack if result.success else None
            out.append(Claim("E11", e11_label, "docs/theory.md E11; thesis Lemma 3.3", value, ok,
                             f"soft margin {margin:.8g}, min edge {min_edge:.8g}, eps {eps:g}"
                             if ok is not None else f"the run did not stop ({result.status})",
                             slack))
        return out
