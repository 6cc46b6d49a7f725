"""A fit is a function of its data and parameters (issue 31): without a time limit no stopping
decision reads the clock, so the same fit on a busy machine, or under a clock that runs 100x
faster, gives the same model. The guarantee check (docs/theory.md, 'Stopping early') falls due
on a count of master work (``totally_corrective.solve_work``), never on seconds."""

from __future__ import annotations

import re
import threading
import time

import numpy as np
import pytest

from dualboost.algorithms import totally_corrective as tc
from dualboost.api import run


def _noisy(N=300, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 6))
    y = np.where(X[:, 0] + 1.5 * rng.normal(size=N) > 0, 1.0, -1.0)
    return X, y


class _Busy:
    """Threads spinning in Python (they hold the GIL half the time) and a clock 100x fast."""

    def __init__(self, monkeypatch, threads=2):
        real = time.perf_counter
        origin = real()
        monkeypatch.setattr(time, "perf_counter", lambda: origin + 100.0 * (real() - origin))
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._spin, daemon=True) for _ in range(threads)]

    def _spin(self):
        x = 0
        while not self.stop.is_set():
            x = (x * 31 + 7) % 1000003

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join()


def _same(a, b):
    # the message's diagnostics may differ (the KKT recovery's time budget, a diagnostic that
    # never changes the model): the stop itself may not
    def stop(message):
        return re.sub(r"[0-9.]+ s\b", "", message.split(";")[0])

    assert a.status == b.status and stop(a.message) == stop(b.message)
    assert len(a.weights) == len(b.weights)
    np.testing.assert_allclose(a.weights, b.weights, rtol=0, atol=1e-12)
    assert sum(r.solved for r in a.history) == sum(r.solved for r in b.history)


@pytest.mark.parametrize("formulation", ["erlpboost", "lpboost"])
def test_the_same_fit_on_a_busy_machine_is_the_same_model(monkeypatch, formulation):
    # the check falls due after a few solves' work (scaled down from the shipped bounds so the
    # test is short): it must fall due at the same solve whatever the clock says
    X, y = _noisy()
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 300 * 10 * tc.UNREPORTED_ITERATIONS)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SLOW_WORK", 300 * 40 * tc.UNREPORTED_ITERATIONS)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SOLVES", 8)
    kwargs = dict(formulation=formulation, nu_frac=0.1, eps=0.02, max_iter=300)
    quiet = run(X, y, **kwargs)
    with _Busy(monkeypatch):
        busy = run(X, y, **kwargs)
    _same(quiet, busy)


def test_the_shipped_check_reads_no_clock(monkeypatch):
    # the shipped bounds: a clock 100x fast would have put the old 10 s / 20 s clocks in reach
    # of this short run; the work count is not
    X, y = _noisy(N=400, seed=5)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 2e9)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SLOW_WORK", 4e9)
    kwargs = dict(formulation="erlpboost", nu_frac=0.1, eps=0.01, max_iter=400)
    quiet = run(X, y, **kwargs)
    with _Busy(monkeypatch):
        busy = run(X, y, **kwargs)
    _same(quiet, busy)
    assert busy.status not in ("weak_guarantee", "vacuous_guarantee")


def test_the_estimator_twice_gives_one_model(monkeypatch):
    from dualboost.estimator import DualBoostClassifier

    X, y = _noisy(N=250, seed=7)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 250 * 10 * tc.UNREPORTED_ITERATIONS)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SLOW_WORK", 250 * 40 * tc.UNREPORTED_ITERATIONS)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SOLVES", 6)
    first = DualBoostClassifier(nu_frac=0.3, eps=0.01).fit(X, y)
    with _Busy(monkeypatch):
        second = DualBoostClassifier(nu_frac=0.3, eps=0.01).fit(X, y)
    a, b = first.result_, second.result_
    _same(a, b)
    np.testing.assert_array_equal(first.decision_function(X), second.decision_function(X))


def test_work_not_seconds_decides():
    # the due rule is on work units; a solve's work is its N t entries times its iterations
    assert tc.solve_work(1000, 4) == 4000.0
    assert tc.solve_work(1000, None) == 1000.0 * tc.UNREPORTED_ITERATIONS
    assert not tc.guarantee_check_due(0.99 * tc.GUARANTEE_CHECK_WORK, 10_000)
    assert tc.guarantee_check_due(tc.GUARANTEE_CHECK_SLOW_WORK, 1)
