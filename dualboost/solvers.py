"""Solver policy: which conic solver gets which model, and when a solution is accepted.

* Pure LPs go to HiGHS first, then Clarabel.
* Exponential-cone models go to Clarabel, then ECOS, then SCS.
* MOSEK is put first for both only when it is importable *and* licensed. ``pip install mosek``
  installs it without a licence and every solve then fails, so the licence is probed once with a
  tiny solve and the answer is cached; an unlicensed MOSEK is skipped, never a crash.
* ``optimal`` and ``optimal_inaccurate`` are accepted only when the caller's certificate (a
  primal-dual gap computed exactly by the formulation) passes; otherwise the next solver is
  tried. Without a certificate, ``optimal`` is accepted and ``optimal_inaccurate`` is not.
  (Clarabel often says ``optimal`` with multipliers good to 1e-6 only; a caller that needs
  1e-9 says so through its certificate and gets ECOS.)

Every attempt is recorded in a :class:`SolveRecord` (solver, status, seconds).
"""

from __future__ import annotations

import contextlib
import functools
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cvxpy as cp

from .errors import DualBoostInputError, SolverFailure
from .masters.highs_run import silence_banner
from .run_control import TimeLimitReached, current

LP_ORDER: tuple[str, ...] = ("HIGHS", "CLARABEL", "ECOS", "SCS")
EXP_ORDER: tuple[str, ...] = ("CLARABEL", "ECOS", "SCS")
#: power cones (Tsallis): ECOS has none
POW_ORDER: tuple[str, ...] = ("CLARABEL", "SCS")
#: cvxpy interfaces with exponential-cone support (cvxpy 1.9 SUPPORTED_CONSTRAINTS)
EXP_CAPABLE: tuple[str, ...] = ("CLARABEL", "ECOS", "SCS", "MOSEK", "COPT", "KNITRO")
POW_CAPABLE: tuple[str, ...] = ("CLARABEL", "SCS", "MOSEK", "COPT")

#: what a model of each kind needs, for messages ('exp' is every non-LP model without power
#: cones: exponential and second-order cones, e.g. AdaBoost-QP's (41))
CONE_TEXT: dict[str, str] = {"lp": "linear programs",
                             "exp": "exponential-cone models or second-order-cone models",
                             "pow": "power-cone models"}

# Tight defaults: the verifier compares multipliers to 1e-6, so the solvers must do better.
SOLVER_OPTIONS: dict[str, dict] = {
    "CLARABEL": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10,
                 "tol_ktratio": 1e-8, "max_iter": 400},
    "ECOS": {"abstol": 1e-10, "reltol": 1e-10, "feastol": 1e-10, "max_iters": 400},
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
    "HIGHS": {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    "MOSEK": {},
}

#: each solver's own time limit option (seconds): the run's remaining time goes there
#: (dualboost.run_control); ECOS has none, its solves are checked before they start
TIME_LIMIT_OPTION: dict[str, str] = {"CLARABEL": "time_limit", "SCS": "time_limit_secs",
                                     "HIGHS": "time_limit"}

#: interior-point iterations an ECOS solve is budgeted (its measured solves of ERLPBoost's
#: exponential-cone model take 40-55), each costed as one of the previous attempt's
ECOS_ITERATIONS = 50


#: second settings tried, after the policy's order, on a model no solver closed: more
#: iterations, stronger equilibration and iterative refinement for Clarabel (its reduced-accuracy
#: "AlmostSolved" on badly scaled power and exponential cones). (SCS's defaults above already
#: allow 200,000 iterations.) Any answer is still accepted only on the caller's exact check.
RESCUE_OPTIONS: dict[str, dict] = {
    "CLARABEL": {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9, "max_iter": 2000,
                 "equilibrate_max_iter": 100, "iterative_refinement_max_iter": 50,
                 "iterative_refinement_reltol": 1e-14, "iterative_refinement_abstol": 1e-14,
                 "static_regularization_constant": 1e-9},
}

#: solver statuses that say the model itself has no finite optimum
MODEL_STATUSES: tuple[str, ...] = ("infeasible", "unbounded", "infeasible_inaccurate",
                                   "unbounded_inaccurate")


@dataclass
class Attempt:
    solver: str
    status: str
    seconds: float
    message: str = ""
    #: the type of an exception that is not a solver's own error (a DCP error, a licence
    #: error): the model or the set-up is at fault, not the solver's accuracy
    raised: str = ""


def undecided(exc: SolverFailure) -> bool:
    """True when a :class:`SolverFailure` says only that no solver reached the accuracy asked
    (reduced-accuracy answers, iteration or time limits, numerical errors): nothing about the
    model is proven wrong. False when a solver found the model infeasible or unbounded, an
    answer failed its exact certificate, or the model could not be given to a solver at all."""
    return _only_shortfalls(getattr(exc, "attempts", None) or [])


def _only_shortfalls(attempts: list[Attempt]) -> bool:
    """Attempts that only fell short of the accuracy asked (see :func:`undecided`)."""
    return bool(attempts) and not any(
        a.status in MODEL_STATUSES or a.raised or "certificate" in (a.message or "")
        for a in attempts)


@dataclass
class SolveRecord:
    """What happened in one model solve: the accepted solver and status, and every attempt."""

    solver: str
    status: str
    seconds: float
    attempts: list[Attempt] = field(default_factory=list)


def _refuse_unfinishable(name: str, remaining: float, per_iteration: float | None,
                         attempts: list[Attempt], control) -> None:
    """Raise :class:`~dualboost.run_control.TimeLimitReached` (with a ``detail``) instead of
    starting a solver that the run's time limit could not stop in time.

    ECOS has no time limit at all: its whole solve, ``ECOS_ITERATIONS`` interior-point
    iterations costed at the previous attempt's seconds per iteration (the same model: an
    iteration of each factorizes a KKT system of the same size), must fit in the time left.
    A solver with a time limit reads its clock only after its setup and first iteration:
    two of the previous attempt's iterations must fit. The first attempt has no measure to go
    by and is started (its own limit bounds it after one iteration); a forced ECOS too (the
    caller's choice). Measured on ERLPBoost's model of a9a's columns (nu = 1, t = 60): Clarabel
    ~0.3 s an iteration at N = 8,000 and several at N = 29,305, ECOS as many iterations, SCS's
    setup 0.9 s at N = 29,305."""
    if per_iteration is None:
        return
    if name in TIME_LIMIT_OPTION:
        needed = 2.0 * per_iteration
        part = "its setup and first iteration, before it reads its clock,"
    elif name == "ECOS":
        needed = ECOS_ITERATIONS * per_iteration
        part = "its solve, which has no time limit,"
    else:
        return
    if needed <= remaining:
        return
    before = "; ".join(f"{a.solver}: {a.status} after {a.seconds:.1f} s" for a in attempts)
    detail = (f"{name} was not started: {part} would take about {needed:.0f} s "
              f"({before}) and {remaining:.1f} s were left")
    raise TimeLimitReached(f"time limit {control.time_limit:g} s: {name} not started", detail)


@functools.lru_cache(maxsize=1)
def installed() -> frozenset[str]:
    """cvxpy's installed solvers, looked up once (the lookup imports every solver module)."""
    return frozenset(cp.installed_solvers())


@functools.lru_cache(maxsize=1)
def mosek_usable() -> bool:
    """True when MOSEK is importable and a tiny LP solves, i.e. a licence was found."""
    if "MOSEK" not in installed():
        return False
    try:
        x = cp.Variable()
        prob = cp.Problem(cp.Minimize(x), [x >= 1])
        prob.solve(solver="MOSEK")
        return prob.status == cp.OPTIMAL
    except Exception:  # an unlicensed MOSEK raises its own error types; any failure means "skip"
        return False


def available_solvers() -> list[str]:
    """Installed solvers that dualboost may use (MOSEK only when licensed)."""
    names = [s for s in dict.fromkeys(LP_ORDER + EXP_ORDER) if s in installed()]
    if mosek_usable():
        names.insert(0, "MOSEK")
    return names


def solver_order(kind: str, forced: str | None = None) -> list[str]:
    """Solvers to try, in order, for a model of ``kind`` ('lp', 'exp' or 'pow')."""
    if kind not in ("lp", "exp", "pow"):
        raise ValueError(f"unknown model kind {kind!r}")
    if forced is not None:
        name = forced.upper()
        if name == "MOSEK" and not mosek_usable():
            raise DualBoostInputError(
                "solver MOSEK was requested but it is not installed or has no licence "
                "(pip installs it unlicensed); choose CLARABEL, ECOS, SCS or HIGHS"
            )
        if name not in installed():
            raise DualBoostInputError(
                f"solver {forced!r} is not installed; available: {', '.join(available_solvers())}"
            )
        capable = {"exp": EXP_CAPABLE, "pow": POW_CAPABLE}.get(kind)
        if capable is not None and name not in capable:
            raise DualBoostInputError(
                f"{name} cannot solve {CONE_TEXT[kind]} such as this one "
                f"(use one of {', '.join(s for s in capable if s in installed())})"
            )
        return [name]
    orders = {"lp": LP_ORDER, "exp": EXP_ORDER, "pow": POW_ORDER}
    order = [s for s in orders[kind] if s in installed()]
    if mosek_usable():
        order.insert(0, "MOSEK")
    return order


#: the cones of cvxpy's canonical form (ConeDims fields) and the names ``Capabilities.cones`` uses
CONE_FIELDS: tuple[tuple[str, str], ...] = (("exp", "exp"), ("soc", "soc"), ("p3d", "pow"),
                                            ("psd", "psd"))


def needed_cones(problem: cp.Problem) -> set[str]:
    """The cone types a model needs after cvxpy's canonicalization ('exp', 'soc', 'pow',
    'psd'; an LP needs none), read off the conic form cvxpy hands Clarabel."""
    data = problem.get_problem_data(cp.CLARABEL)[0]
    out = set()
    for field_name, cone in CONE_FIELDS:
        value = getattr(data["dims"], field_name, 0)
        if len(value) if hasattr(value, "__len__") else value:
            out.add(cone)
    # Clarabel takes a quadratic objective as such; a pure LP solver cannot (HiGHS would get a
    # QP), and ECOS and SCS take it as a second-order cone
    quadratic = data.get("P")
    if quadratic is not None and getattr(quadratic, "nnz", 1):
        out.add("soc")
    return out


def kind_of_cones(cones) -> str:
    """The solver policy's model kind for a set of cone names ('lp', 'exp' or 'pow')."""
    cones = set(cones) - {"lp"}
    if not cones:
        return "lp"
    return "pow" if "pow" in cones else "exp"


def no_capable_solver(kind: str) -> str:
    """One line for a model of ``kind`` that no installed solver can take."""
    capable = {"lp": LP_ORDER, "exp": EXP_CAPABLE, "pow": POW_CAPABLE}[kind]
    have = ", ".join(sorted(installed())) or "none"
    return (f"no installed solver can solve {CONE_TEXT[kind]} such as this one (installed: "
            f"{have}); install one of {', '.join(capable)} (e.g. pip install clarabel)")


def solve(
    problem: cp.Problem,
    kind: str,
    *,
    solver: str | None = None,
    certify: Callable[[], bool] | None = None,
    order: Sequence[str] | None = None,
    accept_inaccurate: Callable[[], bool] | None = None,
) -> SolveRecord:
    """Solve ``problem`` under the policy above and return the record of the accepted solve.

    ``certify`` is called after an ``optimal`` or ``optimal_inaccurate`` solve: it returns True
    when the formulation's own primal-dual gap check passes.
    ``accept_inaccurate`` (used when there is no ``certify``): called after an
    ``optimal_inaccurate`` solve, True when the caller's exact check of the answer passes;
    ``optimal`` is accepted without it as before. When the policy's order gives no accepted
    answer and ``certify`` or ``accept_inaccurate`` is given, :data:`RESCUE_OPTIONS` are tried
    (the check still decides).
    Raises :class:`SolverFailure` when no solver is accepted. Inside a run with a time limit
    (:mod:`dualboost.run_control`) each solver gets the remaining time as its own limit, and
    :class:`dualboost.run_control.TimeLimitReached` is raised once it has passed (no further
    solver is tried then).
    """
    control = current()
    attempts: list[Attempt] = []
    per_iteration: float | None = None  # seconds per iteration of the last attempt
    names = list(order if order is not None else solver_order(kind, solver))
    if not names:  # say what is missing, not "no solver produced an accepted solution ()"
        raise SolverFailure(no_capable_solver(kind))
    checked = certify is not None or accept_inaccurate is not None
    plan = [(name, SOLVER_OPTIONS.get(name, {})) for name in names]
    rescue = [(name, RESCUE_OPTIONS[name]) for name in names
              if name in RESCUE_OPTIONS] if checked and solver is None else []
    for index, (name, settings) in enumerate(plan + rescue):
        if index == len(plan) and not _only_shortfalls(attempts):
            break  # the model or its certificate is at fault: other settings change nothing
        options = dict(settings)
        if control is not None:
            control.check(f"the {name} solve")
            remaining = control.remaining()
            if remaining is not None:
                _refuse_unfinishable(name, remaining, per_iteration, attempts, control)
            if remaining is not None and name in TIME_LIMIT_OPTION:
                options[TIME_LIMIT_OPTION[name]] = max(remaining, 1e-3)
        if name == "HIGHS":
            silence_banner()  # cvxpy builds its own HiGHS model, which would print it
        start, raised = time.perf_counter(), ""
        try:
            with warnings.catch_warnings(), (
                    control.heartbeat(f"{name} through cvxpy") if control is not None
                    else contextlib.nullcontext()):
                # the status carries the same information; the caller's certificate decides
                warnings.simplefilter("ignore", UserWarning)
                problem.solve(solver=name, **options)
            status = problem.status
            message = ""
        except cp.error.SolverError as exc:
            status, message = "solver_error", str(exc).splitlines()[0] if str(exc) else ""
        except Exception as exc:  # e.g. licence errors raised by a commercial solver
            status, message = "solver_error", f"{type(exc).__name__}: {exc}".splitlines()[0]
            raised = type(exc).__name__
        seconds = time.perf_counter() - start
        attempts.append(Attempt(name, status, seconds, message, raised))
        stats = getattr(problem, "solver_stats", None) if status != "solver_error" else None
        iterations = getattr(stats, "num_iters", None) if stats is not None else None
        per_iteration = seconds / max(int(iterations or 1), 1)
        if control is not None and status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            control.check(f"the {name} solve")  # stopped by the run's time limit
        if status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) and certify is not None:
            accepted = bool(certify())
            if not accepted:
                attempts[-1].message = "certificate failed (primal-dual gap above tolerance)"
        elif status == cp.OPTIMAL_INACCURATE and accept_inaccurate is not None:
            accepted = bool(accept_inaccurate())
            if not accepted:
                attempts[-1].message = "its answer failed the exact check"
        else:
            accepted = status == cp.OPTIMAL
        if accepted:
            return SolveRecord(name, status, seconds, attempts)
    summary = "; ".join(f"{a.solver}: {a.status}{' ' + a.message if a.message else ''}"
                        for a in attempts)
    raise SolverFailure(f"no solver produced an accepted solution ({summary})", attempts)
