"""The algorithm contract and the one loop that runs every algorithm.

The loop is: ask the oracle for the hypothesis of largest edge under the algorithm's current
distribution d, hand it to :meth:`Algorithm.step`, record, report progress, stop when the
algorithm says so (or at ``max_iter`` master steps). Everything else (the master problem, its
certification, the stopping rule, what the output weights are) belongs to the algorithm, so a
corrective step or AdaBoost is one more subclass, not a change to the loop.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..errors import DualBoostInputError
from ..formulation import Formulation, Multipliers
from ..margins import soft_margin
from ..params import Param, resolve_params
from ..result import ROUNDS_COMPLETED, BoostResult, IterationRecord
from ..run_control import EarlyStop, RunControl, TimeLimitReached, running


@dataclass
class Output:
    """What an algorithm returns at the end of a run."""

    weights: np.ndarray
    point: Multipliers
    d: np.ndarray
    primal_objective: float
    dual_objective: float
    #: P_LP^T, the soft-margin LP (2.3) over the kept hypotheses, or None if not computed
    lp_value: float | None
    #: how many of the collected hypotheses the output keeps (the first T)
    kept: int
    stopping: str


@dataclass
class Claim:
    """One statement of an algorithm's theory checked on a finished run (the verifier's rows).

    ``check_id`` names the derivation in docs/theory.md (e.g. "T2"), ``reference`` the seed's
    numbers ("thesis Lemma 3.7"); ``value`` is the measured margin (>= 0 means it holds, unless
    the label says otherwise), ``ok`` the verdict, ``tolerance`` the slack allowed.
    """

    check_id: str
    label: str
    reference: str
    value: float | None
    ok: bool | None  # None: not applicable (detail says why)
    detail: str = ""
    tolerance: float | None = None


#: which master solves a run: the fast one where available, or the cvxpy reference path
MASTER_CHOICES = ("auto", "reference")


class Algorithm(ABC):
    """Base class: state, master step, stopping rule, output. See the module docstring."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    #: the seed's algorithm box, e.g. "thesis Algorithm 2.1"
    reference: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()

    def __init__(self, formulation: Formulation, *, solver: str | None = None,
                 gap_tol: float | None = None, kkt: bool = True, master: str = "auto",
                 **params: Any):
        if master not in MASTER_CHOICES:
            raise DualBoostInputError(f"master must be one of {MASTER_CHOICES}, got {master!r}")
        reason = self.unsupported(formulation)
        if reason:
            raise DualBoostInputError(
                f"algorithm {self.name!r} cannot run formulation {formulation.name!r}: {reason}")
        self.formulation = formulation
        self.values = resolve_params(self.params, formulation.N, params,
                                     owner=f"algorithm {self.name!r}")
        for key, value in self.values.items():
            setattr(self, key, value)
        self.solver = solver
        #: "auto": the formulation's fast master when it has one (and no solver is forced);
        #: "reference": the cvxpy models through the solver policy at every iteration
        self.master_choice = "reference" if solver is not None else master
        eps = getattr(formulation, "eps", 0.01)
        self.gap_tol = eps / 100 if gap_tol is None else float(gap_tol)
        self.kkt = kkt
        self.N = formulation.N
        self.U = np.empty((self.N, 0))
        self._column_buffer = np.empty((self.N, 0), order="F")
        # d^0: the prior, else uniform (s / sum s with sample weights: the repeated rows' 1/N')
        weights = getattr(formulation, "sample_weight", None)
        start = np.full(self.N, 1.0 / self.N) if weights is None else weights / weights.sum()
        self.d = np.asarray(getattr(formulation, "d0", start), float)
        self.done = False
        self.status, self.message = "max_iter", ""
        #: which of the extra columns handed to the last step() it added (after u)
        self.accepted_extra: list[int] = []
        #: False when the last step() found u among its columns already and did not append
        #: it (a corrective algorithm re-selects hypotheses); the loop then keeps no new
        #: hypothesis for it. The loop sets it to True before every step.
        self.new_column = True
        #: seconds left of the run's time limit when output() is called (None: no limit), set
        #: by run_loop: output()'s diagnostics (ERLPBoost's P_LP^T) may not pass the limit
        self.time_left: float | None = None

    @classmethod
    def unsupported(cls, formulation: Formulation) -> str | None:
        """Why this algorithm cannot run ``formulation`` (None when it can)."""
        return None

    @property
    def wants_candidates(self) -> bool:
        """Whether step() also takes the oracle's other candidates (``extra``), see
        :meth:`dualboost.oracles.Oracle.candidates`; the loop then passes them."""
        return False

    def extended(self, *columns: np.ndarray) -> np.ndarray:
        """``self.U`` with the given columns appended: a view of one column-major buffer kept
        across iterations, so an iteration copies its new columns only (``np.column_stack``
        copied all t columns each time: O(N T^2) over a run). Earlier views keep their
        contents: a view's columns are never written again, only those after it."""
        t, k = self.U.shape[1], len(columns)
        buffer = self._column_buffer
        if buffer.shape[1] < t + k:
            grown = np.empty((self.N, max(t + k, 2 * buffer.shape[1], 16)), order="F")
            grown[:, :t] = self.U
            buffer = self._column_buffer = grown
        for j, column in enumerate(columns):
            buffer[:, t + j] = column
        return buffer[:, :t + k]

    @abstractmethod
    def step(self, t: int, u: np.ndarray, may_solve: bool) -> IterationRecord:
        """Take the new column u = y h(x) (its hypothesis is kept by the loop); update d.

        ``may_solve`` is False after ``max_iter`` master solves: the algorithm may still
        evaluate its stopping rule (Alg. 3.2 checks it before solving) but must not solve.
        Set ``self.done`` (with ``status``/``message``) to stop. An algorithm whose
        :attr:`wants_candidates` is True also gets ``extra``, the columns of the oracle's other
        candidates; it adds those it wants after u, in the order of ``self.accepted_extra``.
        """

    @abstractmethod
    def output(self) -> Output:
        """The final combination and its certificate."""

    @classmethod
    def claims(cls, result: BoostResult, formulation: Formulation, tol: float) -> list[Claim]:
        """The theory's statements about a finished run, each checked (for the verifier).

        Every constant is computed here from the formulation's declared properties
        (:mod:`dualboost.theory`), never read from the formulation class.
        """
        return []

    @classmethod
    def stated_iteration_bound(cls, formulation: Formulation, params: dict
                               ) -> float | None:
        """The algorithm's own bound on its iterations before its stop, for ``params`` (the
        algorithm's parameters), or None. The verifier reads it: a run that ends at the
        verifier's iteration budget below this bound hit the verifier's limit, not the
        algorithm's (row A1 is then not applicable)."""
        return None

    #: max_iter is the run's plan, not a limit (the stagewise baselines): a run that reaches it
    #: ends ROUNDS_COMPLETED (finished, exit 0), not "max_iter"
    rounds_are_the_plan: bool = False

    def default_max_iter(self) -> int:
        """The iterations a run gets when the user gives no ``max_iter``: DEFAULT_MAX_ITER, or
        an algorithm's own (the corrective algorithms size it from their iteration bound)."""
        return DEFAULT_MAX_ITER

    def describe(self) -> dict:
        return {"algorithm": self.name, **self.values}


#: the iterations (master steps) of a run without an explicit max_iter, for the algorithms
#: whose stop comes within it on ordinary data (the totally corrective ones: tens to hundreds)
DEFAULT_MAX_ITER = 1000


def run_loop(algorithm: Algorithm, oracle, *, max_iter: int | None = None,
             progress: Callable[[IterationRecord], None] | None = None,
             time_limit: float | None = None) -> BoostResult:
    """Run ``algorithm`` with a fitted ``oracle`` for at most ``max_iter`` master steps.

    ``time_limit`` (seconds, None = no limit) holds inside a step too: the loop publishes a
    :class:`dualboost.run_control.RunControl` whose remaining time the solvers are given (HiGHS,
    Clarabel, SCS) and whose clock sifting and the HiGHS callbacks check; once the limit has
    passed the run ends with status ``"time_limit"``, the step under way abandoned (like an
    interrupted one, below). The first master solve always completes (before it there is no
    certified bracket to keep), so a run stops at the limit or after its first solve, whichever
    is later. The same control hands a
    :class:`dualboost.run_control.SolveProgress` every couple of seconds to ``progress.pulse``
    when the progress hook has that method, so a long master solve shows that it runs. A
    ``KeyboardInterrupt`` (Ctrl-C) during the loop ends it with status ``"interrupted"``: the
    step under way is abandoned (the algorithms replace their state only after a completed,
    certified master solve) and the result is the algorithm's ``output()`` at its last certified
    master solve, so the bracket Theta <= optimum <= P of that solve still holds. An interrupt
    before any master solve was certified is re-raised (there is nothing to keep).
    """
    if max_iter is None:
        max_iter = algorithm.default_max_iter()
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise DualBoostInputError(f"max_iter must be a positive integer, got {max_iter!r}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float, np.number)) \
                or not time_limit > 0 or not np.isfinite(time_limit):
            raise DualBoostInputError(f"time_limit must be a positive number of seconds or "
                                      f"None, got {time_limit!r}")
    control = RunControl(time_limit, progress)
    control.armed = False  # the first master solve completes: a bracket to keep (see above)
    start = control.start
    hypotheses: list = []
    history: list[IterationRecord] = []
    algorithm.message = f"stopped after max_iter = {max_iter} master solves"
    pending = None  # the hypothesis handed to the step under way
    t = 0

    def solves() -> int:
        return sum(1 for r in history if r.solved)

    def stop_by_time(where: str) -> None:
        elapsed = time.perf_counter() - start
        algorithm.done = False
        algorithm.status = "time_limit"
        place = f" {where}" if where else ""
        algorithm.message = (f"stopped by time_limit = {time_limit:g} s{place} after "
                             f"{solves()} master solves ({elapsed:.1f} s); the last "
                             "certified master solve is kept")

    try:
        with running(control):
            for t in range(1, int(max_iter) + 2):
                control.begin_step(t)
                tick = time.perf_counter()
                others: list = []
                if algorithm.wants_candidates and hasattr(oracle, "candidates"):
                    (h, u), *others = oracle.candidates(algorithm.d)
                else:
                    h, u = oracle.best(algorithm.d)
                oracle_seconds = time.perf_counter() - tick
                if t > 1 and control.expired():  # the oracle ran past the limit
                    stop_by_time("before master step t = " + str(t))
                    break
                pending = h
                algorithm.accepted_extra = []
                algorithm.new_column = True
                # only an algorithm that asked for candidates takes the ``extra`` keyword
                extra = ({"extra": [np.asarray(v, dtype=float) for _, v in others]}
                         if others else {})
                record = algorithm.step(t, np.asarray(u, dtype=float),
                                        may_solve=t <= max_iter, **extra)
                pending = None
                record.oracle_seconds = oracle_seconds
                if record.solved or algorithm.done:
                    history.append(record)
                    control.armed = control.armed or record.solved
                    if record.solved and algorithm.new_column:
                        hypotheses.append(h)
                        hypotheses.extend(others[i][0] for i in algorithm.accepted_extra)
                    if progress:
                        progress(record)
                        control.touched()
                if algorithm.done or t > max_iter:
                    break
                if control.expired():
                    stop_by_time("")
                    break
    except EarlyStop as stop:
        # the algorithm's own early stop fell due inside a master solve (RunControl.stop_check)
        algorithm.done = False
        algorithm.status, algorithm.message = stop.status, stop.message
        abandoned = True
    except TimeLimitReached as reached:
        # the limit passed inside a step (a master solve, a sifting round): that step is
        # abandoned like an interrupted one, the last certified master solve is kept (the
        # limit is armed only once there is one); a solve refused because it could not have
        # finished in time says why (its detail)
        stop_by_time(f"in master step t = {t}"
                     + (f" ({reached.detail})" if getattr(reached, "detail", "") else ""))
        abandoned = True
    except KeyboardInterrupt:
        if not any(r.solved for r in history):
            raise
        algorithm.done = False
        algorithm.status = "interrupted"
        algorithm.message = (f"interrupted after {solves()} master solves; the last "
                             "certified master solve is kept")
        abandoned = True
    else:
        abandoned = False
    if abandoned:
        # an algorithm that stores a column before its solve (SoftBoost) keeps it in its
        # output; the hypothesis of that column is the pending one
        if pending is not None and algorithm.U.shape[1] == len(hypotheses) + 1:
            hypotheses.append(pending)
    # the output's diagnostics run after the loop's control is withdrawn (a TimeLimitReached
    # there would lose the run); they read the time left (ERLPBoost's P_LP^T took 1.5 s past
    # a 20 s limit at N = 1e4, and may take up to half the fit's time)
    algorithm.time_left = control.remaining()
    if algorithm.status == "max_iter" and algorithm.rounds_are_the_plan:
        algorithm.status = ROUNDS_COMPLETED
        algorithm.message = (f"ran the max_iter = {max_iter} rounds it was given (a stagewise "
                             "baseline's planned end; its soft margin is reported against the "
                             "LP over its columns, not certified against g)")
    out = algorithm.output()
    f = algorithm.formulation
    kept = hypotheses[:out.kept]
    columns = algorithm.U[:, :out.kept]
    nu = getattr(f, "nu", 1.0)
    return BoostResult(
        formulation=f.name,
        parameters=f.parameters(),
        weights=out.weights,
        hypotheses=kept,
        columns=columns,
        d=out.d,
        psi=out.point.get("psi"),
        beta=out.point.get("beta"),
        history=history,
        success=algorithm.status in ("converged", ROUNDS_COMPLETED),
        status=algorithm.status,
        message=algorithm.message,
        primal_objective=out.primal_objective,
        dual_objective=out.dual_objective,
        soft_margin=(soft_margin(columns @ out.weights, nu, getattr(f, "sample_weight", None))
                     if columns.shape[1] else -1.0),
        lp_value=out.lp_value,
        seconds=time.perf_counter() - start,
        master_seconds=sum(r.master_seconds for r in history),
        oracle_seconds=sum(r.oracle_seconds for r in history),
        kkt_seconds=sum(r.kkt_seconds for r in history),
        stopping=out.stopping,
        algorithm=algorithm.name,
        algorithm_parameters=dict(algorithm.values),
        point=out.point,
        certified_gap=next((r.certified_gap for r in reversed(history)
                            if r.certified_gap is not None), None),
    )
