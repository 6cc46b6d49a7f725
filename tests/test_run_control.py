"""Run control (dualboost.run_control): time limits that hold inside a master solve, progress
pulses from inside long solves, the time-limit message, and no HiGHS banner on a quiet fit.

Functional checks, not timings: the bounds on elapsed time are generous multiples of the limit
(the machine may be loaded), and the LPs are chosen to take far longer than the limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from dualboost.masters.highs_run import HIGHS_OPTIONS, run_optimal
from dualboost.masters.lp_rows import add_edge_rows, soft_margin_model
from dualboost.run_control import RunControl, SolveProgress, TimeLimitReached, running

ROOT = Path(__file__).resolve().parent.parent


def long_lp():
    """A soft-margin LP (2.3) over 6,000 random +-1 columns' rows that the dual simplex needs
    seconds for (thousands of pivots over dense rows), built but not solved."""
    rng = np.random.default_rng(0)
    N, t = 6000, 200
    U = np.where(rng.random((N, t)) < 0.5, 1.0, -1.0)
    h = soft_margin_model(N, 1.0 / (0.1 * N), HIGHS_OPTIONS)
    add_edge_rows(h, U)
    return h


class Pulses:
    """A progress hook with a ``pulse`` method (the run loop's records go to ``__call__``)."""

    def __init__(self):
        self.pulses: list[SolveProgress] = []
        self.records = []

    def __call__(self, record):
        self.records.append(record)

    def pulse(self, info: SolveProgress) -> None:
        self.pulses.append(info)


def test_a_time_limit_interrupts_a_long_master_solve_and_it_pulses_meanwhile():
    h = long_lp()
    hook = Pulses()
    limit = 0.6
    control = RunControl(time_limit=limit, progress=hook, every=0.1)
    tick = time.perf_counter()
    with running(control), pytest.raises(TimeLimitReached):
        run_optimal(h)
    elapsed = time.perf_counter() - tick
    assert elapsed <= 3 * limit + 0.5, elapsed
    assert h.modelStatusToString(h.getModelStatus()) in ("Time limit reached",
                                                         "Interrupted by user")
    # progress from inside the one solve: HiGHS's callback, every 0.1 s
    assert len(hook.pulses) >= 2
    assert all("HiGHS" in p.what and p.iterations is not None for p in hook.pulses)
    assert "in master" in hook.pulses[-1].line()


def test_without_a_limit_the_same_lp_still_solves_after_a_pulse_hook():
    """The callback only reports: a control without a limit never stops a solve."""
    rng = np.random.default_rng(1)
    U = np.where(rng.random((300, 20)) < 0.5, 1.0, -1.0)
    h = soft_margin_model(300, 1.0 / 30, HIGHS_OPTIONS)
    add_edge_rows(h, U)
    hook = Pulses()
    with running(RunControl(progress=hook, every=0.0)):
        assert run_optimal(h) is True
    assert hook.pulses  # every=0: each callback pulses


def test_a_run_stopped_by_its_limit_keeps_its_last_certified_solve_and_counts_solves():
    """LPBoost with multiple pricing adds several hypotheses per master solve; the message
    counts master solves (the solved records), not hypotheses, and the status says
    time_limit. The limit passes while the progress hook sleeps (no timing of the solves)."""
    from dualboost.api import run
    from dualboost.data import load_dataset

    data = load_dataset("breast_cancer")

    def slow(record):
        time.sleep(0.4)

    result = run(data.X, data.y, formulation="lpboost", nu_frac=0.2, eps=1e-6,
                 progress=slow, time_limit=1.0)
    assert result.status == "time_limit"
    solves = sum(r.solved for r in result.history)
    assert 1 <= solves < 10
    assert result.columns.shape[1] > solves  # several hypotheses per solve
    assert f"after {solves} master solves" in result.message
    assert result.dual_objective <= result.primal_objective + 1e-9


def test_the_first_master_solve_completes_and_the_limit_holds_from_then_on():
    """Before the first certified solve there is no bracket to keep: that solve completes
    whatever the limit; the control is armed from then on."""
    from dualboost.api import run
    from dualboost.data import load_dataset

    data = load_dataset("breast_cancer")
    result = run(data.X, data.y, formulation="lpboost", nu_frac=0.2, time_limit=1e-9)
    assert result.status == "time_limit"
    assert [r.solved for r in result.history] == [True]
    assert "after 1 master solves" in result.message
    control = RunControl(time_limit=1e-9)
    control.armed = False
    time.sleep(0.01)
    assert control.remaining() is None and not control.expired()
    control.check()  # no raise
    control.armed = True
    assert control.expired() and control.remaining() == 0.0
    with pytest.raises(TimeLimitReached):
        control.check()


@pytest.mark.parametrize("extra", [[], ["--master", "reference"]])
def test_no_highs_banner_on_a_quiet_fit(extra, tmp_path):
    """HiGHS writes "Running HiGHS ..." on its first model unless silenced before; neither
    the LP master's models nor cvxpy's (the reference path) may print it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "dualboost", "fit", "--data", "breast_cancer", "--formulation",
         "lpboost", "--nu-frac", "0.2", "--eps", "0.05", "--quiet", "--max-iter", "5", *extra],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert out.returncode in (0, 3), out.stderr
    assert "Running HiGHS" not in out.stdout + out.stderr
    assert "Copyright" not in out.stdout + out.stderr


def test_the_limit_counts_from_now_on_a_model_that_ran_before():
    """HiGHS's ``time_limit`` is on a model's run time summed over its runs: a warm re-solve
    of a model that has run longer than the time left must still get that time, not stop at
    once (which would fall back to the slow reference path)."""
    rng = np.random.default_rng(2)
    N = 400
    U = np.where(rng.random((N, 40)) < 0.5, 1.0, -1.0)
    h = soft_margin_model(N, 1.0 / 40, HIGHS_OPTIONS)
    add_edge_rows(h, U[:, :39])
    while h.getRunTime() < 1.5:  # cold solves until the model has run 1.5 s in all
        h.clearSolver()
        h.run()
    add_edge_rows(h, U[:, 39:])
    with running(RunControl(time_limit=1.0)):
        assert run_optimal(h) is True


def test_a_first_solve_with_many_candidates_keeps_the_time_limit(monkeypatch):
    """LPBoost's first master solve with multiple pricing (one candidate per feature) is under
    the time limit: past it, h^1 alone is solved (an LP over one column) and the run ends on
    its limit with that bracket, instead of the limit waiting for the whole first solve
    (20,000 x 500 sparse binary features: a 20 s limit ended at 103 s)."""
    import time

    from dualboost.api import run
    from dualboost.masters.highs_lp import HighsLPMaster
    from dualboost.run_control import TimeLimitReached, current

    real = HighsLPMaster.solve
    widths = []

    def slow_with_many_columns(self, U, gap_tol):
        widths.append(U.shape[1])
        if U.shape[1] > 1:  # a long solve: interrupted by the limit when it is given one
            control = current()
            for _ in range(300):
                remaining = control.remaining() if control is not None else None
                if remaining is not None and remaining <= 0.0:
                    raise TimeLimitReached("time limit reached in a slow master solve")
                time.sleep(0.01)
        return real(self, U, gap_tol)

    monkeypatch.setattr(HighsLPMaster, "solve", slow_with_many_columns)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 8))
    y = np.where(X[:, 0] + rng.normal(size=300) > 0, 1.0, -1.0)
    tick = time.perf_counter()
    result = run(X, y, formulation="lpboost", nu_frac=0.2, eps=0.01, time_limit=0.5)
    assert time.perf_counter() - tick < 2.5  # the slow solve lasts 3 s unless interrupted
    assert widths[:2] == [widths[0], 1] and widths[0] > 1
    assert result.status == "time_limit" and result.iterations == 1
    first = result.history[0]
    assert first.solved and first.extra_columns == 0 and "h^1 alone" in first.status
    assert result.duality_gap <= 0.01 / 100
