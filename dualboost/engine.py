"""``boost``: run a formulation with an algorithm (default: the formulation's own) and an oracle.

The loop itself is :func:`dualboost.algorithms.run_loop`; the algorithms (thesis Algorithms 2.1,
3.1, 3.2, ...) live in :mod:`dualboost.algorithms`. This module only wires them together, so the
CLI, the estimator, the verifier and user code call one function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .algorithms import algorithm_class, run_loop
from .algorithms.totally_corrective import restricted_lp_value
from .formulation import Formulation
from .result import BoostResult, IterationRecord

STOPPING_RULES = ("simple", "practical")

__all__ = ["SLOW_PATH_N", "STOPPING_RULES", "boost", "restricted_lp_value", "slow_path_warnings"]


def boost(
    formulation: Formulation,
    oracle,
    *,
    algorithm: str | None = None,
    stopping: str | None = None,
    max_iter: int | None = None,
    solver: str | None = None,
    gap_tol: float | None = None,
    kkt: bool = True,
    master: str = "auto",
    progress: Callable[[IterationRecord], None] | None = None,
    time_limit: float | None = None,
    **algorithm_params: Any,
) -> BoostResult:
    """Run ``algorithm`` (default ``formulation.default_algorithm``) with a fitted ``oracle``.

    ``gap_tol`` is the largest certified primal-dual gap accepted from a master solve (default
    eps/100, well inside the eps/4 that the practical rule needs); a solver whose certificate
    fails hands over to the next one in :mod:`dualboost.solvers`' order. ``stopping`` is the
    ERLPBoost rule; it is ignored by algorithms that have one rule only (LPBoost, SoftBoost).
    ``master="reference"`` solves every master on the cvxpy reference path even where the
    formulation has a fast master (``"auto"``, the default, takes the fast one; a forced
    ``solver`` implies the reference path). ``time_limit`` (seconds) ends the run once it has
    passed, inside a master solve too (the solvers get the remaining time; status
    ``"time_limit"``); Ctrl-C ends it with status ``"interrupted"``; both keep the last
    certified master solve (see :func:`dualboost.algorithms.run_loop`). A ``progress`` hook
    with a ``pulse`` method also gets a :class:`dualboost.run_control.SolveProgress` every
    couple of seconds from inside long solves. Other keyword arguments are the algorithm's
    declared parameters.
    """
    cls = algorithm_class(algorithm or formulation.default_algorithm)
    if stopping is not None and any(p.name == "stopping" for p in cls.params):
        algorithm_params["stopping"] = stopping
    elif stopping is not None and stopping not in STOPPING_RULES:
        from .errors import DualBoostInputError
        raise DualBoostInputError(f"stopping must be one of {STOPPING_RULES}, got {stopping!r}")
    exact = oracle_is_exact(oracle)
    if not exact and hasattr(cls, "_check_guarantee"):
        # the early stops (vacuous / weak guarantee, degenerate LP) read gamma_hat >= g, which
        # only an exact oracle's best edges certify (docs/theory.md, "Heuristic oracles")
        algorithm_params["guarantee_check"] = False
    runner = cls(formulation, solver=solver, gap_tol=gap_tol, kkt=kkt, master=master,
                 **algorithm_params)
    if max_iter is None:  # the algorithm's own default (corrective: from its iteration bound)
        max_iter = runner.default_max_iter()
    result = run_loop(runner, oracle, max_iter=max_iter, progress=progress,
                      time_limit=time_limit)
    if not exact:
        label_relative(result, oracle)
    else:  # e.g. hist_stumps: exact over the binned stumps, not over every threshold
        result.certificate_class = getattr(oracle, "certificate_class", None)
    result.max_iter = int(max_iter)
    if master == "auto" and solver is None:
        result.warnings = list(result.warnings) + slow_path_warnings(formulation, result)
    return result


def oracle_is_exact(oracle: Any) -> bool:
    """The oracle's declared ``exact`` (:class:`dualboost.oracles.Oracle`; True when absent)."""
    return bool(getattr(oracle, "exact", True))


#: the one line a run with a heuristic oracle carries (message, JSON ``certificate``, summary)
RELATIVE_CERTIFICATE = (
    "certificate relative to the hypotheses found: the oracle {name!r} is heuristic (not "
    "exact), so P, Theta, the gap and the KKT recovery hold over the hypotheses it returned, "
    "while the whole-class statements (gamma_hat = min_t edge^t >= g, soft margin >= g - eps, "
    "the early stops) are not made (docs/theory.md, \"Heuristic oracles\")")


def label_relative(result: BoostResult, oracle: Any) -> None:
    """Mark a finished run of a heuristic oracle: ``oracle_exact`` False, no certified gap on
    the whole-class optimum g, and the message saying what the certificate covers."""
    result.oracle_exact = False
    result.certified_gap = None  # best edge - soft margin bounds g - soft margin only if exact
    note = RELATIVE_CERTIFICATE.format(name=getattr(oracle, "name", type(oracle).__name__))
    result.message = f"{result.message}; {note}" if result.message else note


#: above this many examples a run on the reference path is worth a warning
SLOW_PATH_N = 2000


def slow_path_warnings(formulation: Formulation, result: BoostResult) -> list[dict]:
    """At most one ``{"code": "slow_path", ...}`` entry: the fast path a formulation declared
    was rejected (a hand-written numpy line that disagrees with its derived version, master
    solves that fell back to the reference path), or a run with N > SLOW_PATH_N examples ran
    on the reference path (a cvxpy model per iteration) because there is no fast master; with
    the reason and the measured cost."""
    reasons = list(getattr(formulation, "fast_path_notes", None) or [])
    solved = [r for r in result.history if r.solved]
    reference = [r for r in solved if r.path == "reference"]
    fast = [r for r in solved if r.path != "reference"]
    spent = sum(float(r.master_seconds or 0.0) for r in reference)
    if reference and fast:
        why = reference[0].status or ""
        reasons.append(f"{len(reference)} of {len(solved)} master solves fell back to the "
                       f"reference path (cvxpy), {spent:.2f} s of "
                       f"{result.master_seconds:.2f} s master time (first: {why})")
    elif reference and formulation.N > SLOW_PATH_N:
        cause = getattr(formulation, "fast_master_reason", None) or "no fast master"
        reasons.append(f"every master solve ran on the reference path (a cvxpy model per "
                       f"iteration, {spent / len(reference):.2f} s each at N = "
                       f"{formulation.N}) because {cause}")
    if not reasons:
        return []
    return [{"code": "slow_path", "message": "; ".join(reasons)}]
