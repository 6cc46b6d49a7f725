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

__all__ = ["STOPPING_RULES", "boost", "restricted_lp_value"]


def boost(
    formulation: Formulation,
    oracle,
    *,
    algorithm: str | None = None,
    stopping: str | None = None,
    max_iter: int = 1000,
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
    ``solver`` implies the reference path). ``time_limit`` (seconds) ends the run after the
    first master step that finishes past it (status ``"time_limit"``); Ctrl-C ends it with
    status ``"interrupted"``; both keep the last certified master solve (see
    :func:`dualboost.algorithms.run_loop`). Other keyword arguments are the algorithm's
    declared parameters.
    """
    cls = algorithm_class(algorithm or formulation.default_algorithm)
    if stopping is not None and any(p.name == "stopping" for p in cls.params):
        algorithm_params["stopping"] = stopping
    elif stopping is not None and stopping not in STOPPING_RULES:
        from .errors import DualBoostInputError
        raise DualBoostInputError(f"stopping must be one of {STOPPING_RULES}, got {stopping!r}")
    runner = cls(formulation, solver=solver, gap_tol=gap_tol, kkt=kkt, master=master,
                 **algorithm_params)
    return run_loop(runner, oracle, max_iter=max_iter, progress=progress,
                    time_limit=time_limit)
