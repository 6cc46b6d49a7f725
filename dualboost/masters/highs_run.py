"""Running HiGHS for dualboost: silent models, and solves that end optimal, on time, visibly.

* :func:`new_highs`: a ``highspy.Highs`` whose options are set before it can print anything.
  highspy's constructor registers its callbacks, and HiGHS writes its banner ("Running HiGHS
  ...") at that moment when ``output_flag`` is still on, so the model is made silent first.
  :func:`silence_banner` does the same once per process for models that dualboost does not
  build (cvxpy's HIGHS interface makes its own).
* :func:`run_optimal`: one solve of a model. The dual simplex runs with HiGHS's random cost
  perturbation on: the soft-margin LPs are highly degenerate (the d have cost 0; on noisy data
  the optimum is 0 and every column in a complementary pair is tight), and without the
  perturbation the dual simplex can stall for hundreds of thousands of pivots (make_classification
  N = 10^4, nu = 0.1 N, t = 252: a sifting round did not finish in 100 s, 0.04 s perturbed).
  A warm re-solve from an optimal basis may first try a short budget of pivots without the
  perturbation (``unperturbed``): the perturbation costs pivots of its own (HiGHS perturbs
  nearly every cost and removes it again after the solve), which dominate a re-solve that
  needs a few pivots; past the budget it continues perturbed from where it stopped.
* The run's control (:mod:`dualboost.run_control`): its remaining time is HiGHS's
  ``time_limit``, and while a solve runs HiGHS's simplex callback pulses the progress hook and
  interrupts the solve once the limit has passed; a solve stopped that way raises
  :class:`dualboost.run_control.TimeLimitReached`.
* Ctrl-C inside a solve that may be long (:func:`_may_be_long`): HiGHS runs in C++ and Python
  sees the signal only between its own bytecodes, so a degenerate solve of minutes ignored
  Ctrl-C until it ended (LPBoost, N = 10^4 x 200 features: still running 60 s after SIGINT).
  During such a solve SIGINT only sets a flag, the simplex callback interrupts the solve when
  it sees it, and the solve raises ``KeyboardInterrupt`` (the run ends ``interrupted``).
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import signal
import sys
import threading

from ..run_control import TimeLimitReached, current

__all__ = ["HIGHS_OPTIONS", "UNPERTURBED", "new_highs", "pivot_limit", "run_optimal",
           "silence_banner"]

#: HiGHS options: silent, dual simplex, the tolerances of dualboost.solvers.SOLVER_OPTIONS
HIGHS_OPTIONS = {
    "output_flag": False,
    "log_to_console": False,
    "presolve": "off",
    "solver": "simplex",
    "simplex_strategy": 1,  # dual simplex: a new row keeps the old basis dual feasible
    # devex pricing: dual steepest-edge weights are recomputed after every added row, which
    # cost more than the pivots they save (german, nu = 0.2 N: 22.7 s -> 9.7 s for T = 275)
    "simplex_dual_edge_weight_strategy": 1,
    "primal_feasibility_tolerance": 1e-10,
    "dual_feasibility_tolerance": 1e-10,
    # HiGHS's default cost perturbation (module docstring; a solve may start without it)
    "dual_simplex_cost_perturbation_multiplier": 1.0,
}

#: the options of a budgeted first attempt without the cost perturbation (module docstring)
UNPERTURBED = {"dual_simplex_cost_perturbation_multiplier": 0.0}

_STOPPED = ("Time limit reached", "Interrupted by user")

#: a dual simplex pivot's work in passes over the LP's N x t matrix (the edge rows are sparse
#: on +-1 columns): measured against a projected Newton step (one pass) on make_classification
#: N = 1e4 (8.7e8 against 2.5e8 entries a second); the fit's work count (the guarantee check)
PIVOT_PASSES = 0.25


def pivot_passes(pivots: float) -> int:
    """Simplex ``pivots`` as passes over the LP's matrix (:data:`PIVOT_PASSES`), at least 1."""
    return max(int(math.ceil(float(pivots) * PIVOT_PASSES)), 1)


def pivot_limit(size: int) -> int:
    """Simplex pivots allowed to one solve of an LP over ``size`` examples: far above what a
    perturbed solve takes (a few thousand at N ~ 10^4), a guard against a solver that loops."""
    return 40 * size + 1000


@functools.lru_cache(maxsize=1)
def _quiet_class() -> type:
    import highspy

    class QuietHighs(highspy.Highs):
        """highspy.Highs with its output off before the constructor enables the callbacks
        (the moment HiGHS writes its banner)."""

        def enableCallbacks(self) -> None:  # noqa: N802 (highspy's name)
            self.setOptionValue("output_flag", False)
            super().enableCallbacks()

    return QuietHighs


def new_highs(options: dict | None = None):
    """A silent ``highspy.Highs`` with ``options`` set (module docstring)."""
    h = _quiet_class()()
    for key, value in (options or {}).items():
        h.setOptionValue(key, value)
    return h


_banner_lock = threading.Lock()
_banner_done = False


def silence_banner() -> None:
    """Let HiGHS write its once-per-process banner into /dev/null, so that no later model (cvxpy
    builds its own, with output on at construction) prints it. Harmless where the standard
    output is not a file descriptor (the banner then goes wherever HiGHS writes)."""
    global _banner_done
    if _banner_done:
        return
    with _banner_lock:
        if _banner_done:
            return
        _banner_done = True
        import highspy

        try:
            sys.stdout.flush()
            saved = os.dup(1)
        except (OSError, ValueError, AttributeError):
            return
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
            highspy.Highs()  # writes the banner (to /dev/null) and records it as written
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(null)


def _option(h, key: str):
    """An option's value (highspy returns (status, value) in some versions)."""
    value = h.getOptionValue(key)
    return value[1] if isinstance(value, tuple) else value


def _status(h) -> str:
    return h.modelStatusToString(h.getModelStatus())


#: a solve is guarded against Ctrl-C (module docstring) when its model has run this long before
#: or has this many nonzeros: a Python call per pivot costs the many short warm re-solves of
#: small runs, and a short solve's Ctrl-C is seen as soon as it returns
GUARD_SECONDS, GUARD_NONZEROS = 0.5, 200_000


def _may_be_long(h) -> bool:
    return float(h.getRunTime()) > GUARD_SECONDS or int(h.getNumNz()) > GUARD_NONZEROS


class _SigintFlag:
    """While active, SIGINT sets :attr:`hit` instead of raising KeyboardInterrupt (only in the
    main thread, and only over Python's default handler: a user's own handler is kept)."""

    def __init__(self) -> None:
        self.hit = False
        self.previous = None

    def __enter__(self) -> _SigintFlag:
        try:
            if (threading.current_thread() is threading.main_thread()
                    and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
                self.previous = signal.signal(signal.SIGINT, self._set)
        except (ValueError, OSError):  # not the main interpreter
            self.previous = None
        return self

    def _set(self, signum, frame) -> None:
        self.hit = True

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    @property
    def active(self) -> bool:
        return self.previous is not None


def _run(h, control, what: str) -> str:
    """One ``h.run()`` under the run's control; returns HiGHS's model status."""
    handler = None
    remaining = control.remaining() if control is not None else None
    if remaining is not None and remaining <= 0.0:
        raise TimeLimitReached(f"time limit {control.time_limit:g} s reached before {what}")
    # HiGHS's time limit is on the model's run time summed over all its runs (a warm re-solve
    # of a model that ran 4 s before stops at once under time_limit = 1)
    h.setOptionValue("time_limit", float("inf") if remaining is None
                     else float(h.getRunTime()) + float(remaining))
    sigint = _SigintFlag()
    with sigint if control is not None and _may_be_long(h) else contextlib.nullcontext():
        if control is not None and (control.wants_pulses or sigint.active):
            pulses = control.wants_pulses

            def handler(event) -> None:
                if sigint.hit:
                    event.interrupt()
                    return
                out = event.data_out
                if pulses and control.pulse(what, int(out.simplex_iteration_count),
                                            float(out.objective_function_value)):
                    event.interrupt()

            h.cbSimplexInterrupt.subscribe(handler)
        try:
            h.run()
        finally:
            if handler is not None:
                h.cbSimplexInterrupt.unsubscribe(handler)
    if sigint.hit:
        raise KeyboardInterrupt  # the run loop ends the run "interrupted"
    status = _status(h)
    if control is not None:
        control.raise_early_stop()  # the algorithm's early stop interrupted the solve
    # only the run's limit sets a finite time_limit and interrupts, so a solve stopped that way
    # is the limit's (HiGHS's clock may stop it a few milliseconds before ours says so)
    if status in _STOPPED and remaining is not None:
        raise TimeLimitReached(f"time limit {control.time_limit:g} s reached in {what}")
    return status


def run_optimal(h, unperturbed: int = 0, what: str = "HiGHS dual simplex") -> bool:
    """``h.run()`` (module docstring): with ``unperturbed`` > 0 first at most that many pivots
    without the cost perturbation, then (when that did not end optimal) on from there with it.
    True when the model ends optimal; raises :class:`TimeLimitReached` when the run's time
    limit stopped the solve."""
    control = current()
    if unperturbed > 0:
        limit = _option(h, "simplex_iteration_limit")
        for key, value in UNPERTURBED.items():
            h.setOptionValue(key, value)
        h.setOptionValue("simplex_iteration_limit", min(int(unperturbed), int(limit)))
        try:
            status = _run(h, control, what)
        finally:
            for key in UNPERTURBED:
                h.setOptionValue(key, HIGHS_OPTIONS[key])
            h.setOptionValue("simplex_iteration_limit", limit)
        if status == "Optimal":
            return True
    return _run(h, control, what) == "Optimal"
