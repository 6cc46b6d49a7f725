"""Ctrl-C inside a long HiGHS solve ends the run (dualboost/masters/highs_run.py): before, HiGHS
ran on in C++ and the signal was seen only when the solve ended (an LPBoost run at N = 10^4 with
200 features was still running 60 s after SIGINT); now the run ends ``interrupted`` at once."""

from __future__ import annotations

import signal
import threading

import numpy as np
import pytest

from dualboost.masters import highs_run
from dualboost.run_control import RunControl, running

pytestmark = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread()
    or signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
    reason="SIGINT is handled by Python's default handler in the main thread only")


def _lp(n: int = 120, seed: int = 0):
    """A dense random LP that takes many dual simplex pivots: max 1'x, A x <= 1, 0 <= x <= 1."""
    import highspy

    rng = np.random.default_rng(seed)
    A = rng.random((n, n))
    h = highspy_model = highs_run.new_highs(highs_run.HIGHS_OPTIONS)
    inf = highspy.kHighsInf
    h.addVars(n, np.zeros(n), np.ones(n))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), -np.ones(n))
    for i in range(n):
        h.addRow(-inf, 1.0, n, np.arange(n, dtype=np.int32), A[i])
    return highspy_model


def test_sigint_interrupts_a_long_solve(monkeypatch):
    monkeypatch.setattr(highs_run, "GUARD_NONZEROS", 0, raising=False)  # a long one
    h = _lp()
    pivots = []

    def press_ctrl_c(event) -> None:  # Ctrl-C at the first pivot
        pivots.append(int(event.data_out.simplex_iteration_count))
        if len(pivots) == 1:
            signal.raise_signal(signal.SIGINT)

    h.cbSimplexInterrupt.subscribe(press_ctrl_c)
    with running(RunControl()), pytest.raises(KeyboardInterrupt):
        highs_run.run_optimal(h)
    assert h.modelStatusToString(h.getModelStatus()) != "Optimal"  # abandoned, not finished
    # the default handler is back: Python raises KeyboardInterrupt again as usual
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    h.cbSimplexInterrupt.unsubscribe(press_ctrl_c)
    assert highs_run.run_optimal(h)  # the model can be solved on afterwards


def test_short_solves_are_not_guarded(monkeypatch):
    """No callback (a Python call per pivot) on a small model that has not run long."""
    h = _lp(n=10)
    assert not highs_run._may_be_long(h)
    with running(RunControl()):
        assert highs_run.run_optimal(h)
