"""The slow-progress note: when the guarantee check falls due and the run goes on, it is told
once how far its stop is at the rate its stopping quantity fell so far (docs/theory.md,
'Stopping early')."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dualboost.algorithms import totally_corrective as tc
from dualboost.algorithms.totally_corrective import projected_distance
from dualboost.api import run


def test_projection_of_a_power_law():
    # delta = solves^-0.5 exactly: from 0.1 (solve 100) the target 0.01 is at solve 10,000
    trace = [(s, s ** -0.5) for s in range(1, 101)]
    more, p, a, delta_a = projected_distance(trace, 0.01)
    assert p == pytest.approx(0.5)
    assert a == 50 and delta_a == pytest.approx(50 ** -0.5)
    assert more == pytest.approx(10_000 - 100, rel=1e-3)


def test_projection_without_decrease_and_when_reached():
    flat = [(s, 0.02) for s in range(1, 50)]
    assert projected_distance(flat, 0.005)[0] == -1
    assert projected_distance([(s, 1.0 / s) for s in range(1, 50)], 0.5) is None  # reached
    assert projected_distance([(1, 0.1), (2, 0.05)], 0.01) is None  # too short to tell


def _noisy(N=400, seed=0, noise=0.3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 10))
    y = np.where(X[:, 0] + X[:, 1] + noise * rng.normal(size=N) > 0, 1.0, -1.0)
    return X, y


def _no_verdicts(monkeypatch):
    """The check runs but never stops the run (no empty, weak or degenerate verdict)."""
    for cls in (tc._TotallyCorrective, tc.LPBoostAlgorithm):
        monkeypatch.setattr(cls, "_guarantee_verdict", lambda self, t: None)


@pytest.mark.parametrize("formulation", ["erlpboost", "lpboost"])
def test_a_run_that_goes_on_is_told_once(check_at_once, monkeypatch, formulation):
    # the check at every solve from the first, and any projected distance counts as slow
    monkeypatch.setattr(tc, "SLOW_NOTICE_SECONDS", 0.0)
    _no_verdicts(monkeypatch)
    X, y = _noisy()
    result = run(X, y, formulation=formulation, nu_frac=0.3, eps=1e-4, max_iter=30)
    notes = [(r.t, r.notice) for r in result.history if r.notice]
    assert len(notes) == 1, notes
    note = notes[0][1]
    assert note.startswith("slow progress:") and "the run goes on" in note
    assert "a larger eps" in note and "time limit" in note
    # the run itself is not changed by the note
    plain = run(X, y, formulation=formulation, nu_frac=0.3, eps=1e-4, max_iter=30)
    assert plain.iterations == result.iterations
    assert math.isclose(plain.soft_margin, result.soft_margin, abs_tol=1e-12)


def test_no_note_when_the_stop_is_near(check_at_once, monkeypatch):
    _no_verdicts(monkeypatch)
    X, y = _noisy()
    result = run(X, y, formulation="erlpboost", nu_frac=0.3, eps=0.05)
    assert result.status.startswith("converged")
    assert not any(r.notice for r in result.history)


def test_the_cli_prints_a_note_as_it_comes(capsys):
    from dualboost.cli.progress import Progress
    from dualboost.result import IterationRecord

    record = IterationRecord(t=3, edge=0.1, primal_before=0.1, delta_simple=0.1,
                             delta_practical=0.1, oracle_seconds=0.0,
                             notice="slow progress: far")
    with Progress(stopping="practical", max_iter=10, enabled=False) as progress:
        progress(record)
    assert "dualboost: warning: slow progress: far" in capsys.readouterr().err
