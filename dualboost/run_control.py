"""Run control: the time limit and the progress pulses of one run, seen from inside a solve.

:func:`dualboost.algorithms.run_loop` checks its time limit between steps, but one master solve
can take longer than the whole limit (an LP over 10^5 examples). So the loop publishes a
:class:`RunControl` for the duration of the run (a context variable, :func:`current`), and the
code that solves (the HiGHS masters, sifting's rounds, the cvxpy solver policy) reads it:

* :meth:`RunControl.remaining` is handed to the solver as its own time limit (HiGHS
  ``time_limit``, Clarabel ``time_limit``, SCS ``time_limit_secs``), and
  :meth:`RunControl.check` raises :class:`TimeLimitReached` once the limit has passed, so the
  step under way is abandoned and the run keeps its last certified master solve;
* :meth:`RunControl.pulse` is called from the solver's callbacks and between rounds; every
  :attr:`RunControl.every` seconds it hands a :class:`SolveProgress` to the progress hook's
  ``pulse`` method (when the hook has one), so a long master solve shows that it is alive;
  a solve without callbacks (cvxpy's) gets a :meth:`RunControl.heartbeat` thread instead.

A context variable (not an argument) because the solves sit below formulation code that users
write (``Formulation.solve_primal``) and that must not need to pass anything along.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["RunControl", "SolveProgress", "TimeLimitReached", "current", "running"]


class TimeLimitReached(Exception):
    """The run's time limit passed inside a step (a master solve, a sifting round): the step is
    abandoned and :func:`dualboost.algorithms.run_loop` ends the run with status
    ``"time_limit"`` at its last certified master solve.

    ``detail`` (empty when the limit simply passed) says why a solve was not even started: one
    that cannot be interrupted and would not finish in the time left (a cvxpy fallback's
    solver without a time limit of its own); the run's message quotes it."""

    def __init__(self, message: str = "", detail: str = ""):
        super().__init__(message)
        self.detail = detail


class EarlyStop(TimeLimitReached):
    """The algorithm's own early stop fell due inside a step (:attr:`RunControl.stop_check`):
    the step is abandoned like one stopped by the time limit, and the run ends with the
    ``status`` and ``message`` the check gave, at its last certified master solve."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class SolveProgress:
    """A pulse from inside a step: what is running and for how long."""

    #: the master step under way (1-based), 0 before the first
    t: int
    #: seconds since the run started, and since the step's solve started
    elapsed: float
    in_solve: float
    #: what runs, e.g. "HiGHS dual simplex" or "sifting round 3"
    what: str
    #: the solver's iteration count in this solve, and its objective when it reports one
    iterations: int | None = None
    objective: float | None = None

    def line(self) -> str:
        """One plain progress line, e.g. ``t=2 in master: HiGHS dual simplex, 5400 pivots,
        12.0 s in this solve  31.4s``."""
        parts = [self.what]
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        parts.append(f"{self.in_solve:.1f} s in this solve")
        return f"t={self.t:<5d} in master: {', '.join(parts)}  {self.elapsed:7.1f}s"

    __str__ = line


class RunControl:
    """The clock and the progress hook of one run (module docstring).

    ``time_limit`` in seconds (None: none) counts from construction; ``progress`` is the run's
    progress hook: its ``pulse(SolveProgress)`` method, when it has one, is called at most
    every ``every`` seconds from inside solves.
    """

    def __init__(self, time_limit: float | None = None, progress: Any = None,
                 every: float = 2.0, clock: Callable[[], float] = time.perf_counter):
        self.clock = clock
        self.start = clock()
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else self.start + float(time_limit)
        self.every = float(every)
        self._pulse = getattr(progress, "pulse", None) if progress is not None else None
        self.t = 0
        self._solve_start = self.start
        self._last_pulse = self.start
        #: whether the limit is enforced: the run loop arms it once a master solve has been
        #: certified (before that there is no bracket to keep, so the first solve completes)
        self.armed = True
        #: an algorithm's early-stop test, asked at every pulse inside a solve (seconds since
        #: the start, the solver's iterations in this solve or None -> None or (status,
        #: message)); its verdict interrupts the solve. The algorithms' tests read the
        #: iterations (work), not the seconds: a fit does not depend on the machine's load
        self.stop_check: Callable[..., tuple[str, str] | None] | None = None
        self.early_stop: tuple[str, str] | None = None

    # -- the clock ----------------------------------------------------------------------------
    def elapsed(self) -> float:
        return self.clock() - self.start

    def remaining(self) -> float | None:
        """Seconds left before the time limit (never below 0), None without a limit (or while
        it is not :attr:`armed`)."""
        if self.deadline is None or not self.armed:
            return None
        return max(0.0, self.deadline - self.clock())

    def expired(self) -> bool:
        return self.deadline is not None and self.armed and self.clock() >= self.deadline

    def check(self, where: str = "") -> None:
        """Raise :class:`TimeLimitReached` when the time limit has passed."""
        if self.expired():
            raise TimeLimitReached(f"time limit {self.time_limit:g} s reached"
                                   + (f" in {where}" if where else ""))

    # -- progress ------------------------------------------------------------------------------
    @property
    def wants_pulses(self) -> bool:
        """Whether anything listens to :meth:`pulse` (a progress hook with ``pulse``, or a
        time limit to check)."""
        return (self._pulse is not None or self.deadline is not None
                or self.stop_check is not None)

    def begin_step(self, t: int) -> None:
        """A new master step starts (its solve's clock starts here)."""
        self.t = t
        self._solve_start = self.clock()

    def pulse(self, what: str, iterations: int | None = None,
              objective: float | None = None, check: bool = True) -> bool:
        """Called from inside a solve; returns True when the time limit has passed (a solver
        callback then interrupts the solve). Hands a :class:`SolveProgress` to the progress
        hook when ``every`` seconds have passed since the last one. ``check=False``: progress
        only, the early-stop test is not asked (a heartbeat thread beside a cvxpy solve, which
        nothing could interrupt on its verdict)."""
        now = self.clock()
        if self._pulse is not None and now - self._last_pulse >= self.every:
            self._last_pulse = now
            self._pulse(SolveProgress(t=self.t, elapsed=now - self.start,
                                      in_solve=now - self._solve_start, what=what,
                                      iterations=iterations, objective=objective))
        if not check:
            return self.deadline is not None and self.armed and now >= self.deadline
        if self.stop_check is not None and self.armed and self.early_stop is None:
            self.early_stop = self.stop_check(now - self.start, iterations)
        return (self.deadline is not None and self.armed and now >= self.deadline
                or self.early_stop is not None)

    def announce(self, what: str) -> None:
        """A progress line now (not ``every`` seconds after the last): a step that may take
        long has started, e.g. a master's fallback to the reference path on a large N."""
        if self._pulse is not None:
            now = self._last_pulse = self.clock()
            self._pulse(SolveProgress(t=self.t, elapsed=now - self.start,
                                      in_solve=now - self._solve_start, what=what))

    @contextlib.contextmanager
    def heartbeat(self, what: str, period: float = 0.25) -> Iterator[None]:
        """Progress pulses from a thread while the block runs: for a solve without callbacks
        that releases the GIL (the cvxpy solvers Clarabel, ECOS and SCS do), so a fallback
        that takes minutes still prints a line every ``every`` seconds. Progress only
        (``pulse(check=False)``): nothing could act on a verdict mid-solve."""
        if self._pulse is None:
            yield
            return
        done = threading.Event()

        def beat() -> None:
            while not done.wait(period):
                self.pulse(what, check=False)

        thread = threading.Thread(target=beat, name="dualboost-heartbeat", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    def raise_early_stop(self) -> None:
        """Raise :class:`EarlyStop` when a pulse's stop check gave its verdict."""
        if self.early_stop is not None:
            raise EarlyStop(*self.early_stop)

    def touched(self) -> None:
        """The progress hook printed something itself (a finished step): the next pulse is due
        ``every`` seconds from now."""
        self._last_pulse = self.clock()


_CURRENT: contextvars.ContextVar[RunControl | None] = contextvars.ContextVar(
    "dualboost_run_control", default=None)


def current() -> RunControl | None:
    """The control of the run under way in this context (None outside a run)."""
    return _CURRENT.get()


@contextlib.contextmanager
def running(control: RunControl | None) -> Iterator[RunControl | None]:
    """Publish ``control`` as :func:`current` for the duration of the block."""
    token = _CURRENT.set(control)
    try:
        yield control
    finally:
        _CURRENT.reset(token)
