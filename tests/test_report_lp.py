"""The output's P_LP^T (the LP (2.3) over the kept hypotheses) never runs unbounded: it gets a
share of the fit's time, and past it the value is skipped with a note in the message."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.algorithms import totally_corrective as tc
from dualboost.api import run


def _data(N: int = 300, seed: int = 1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 4))
    y = np.where(X[:, 0] + X[:, 1] + 0.8 * rng.normal(size=N) > 0, 1.0, -1.0)
    return X, y


def _columns(N: int = 400, t: int = 25, seed: int = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random((N, t)) < 0.55, 1.0, -1.0)


def test_fit_with_a_tiny_budget_skips_the_lp_with_a_note(monkeypatch):
    monkeypatch.setattr(tc, "REPORT_LP_FRACTION", 0.0)
    monkeypatch.setattr(tc, "REPORT_LP_MIN_SECONDS", 1e-9)
    X, y = _data()
    result = run(X, y, nu_frac=0.2, eps=0.05, kkt=False)
    assert result.lp_value is None
    assert "P_LP^T" in result.message and "not computed" in result.message


def test_fit_with_the_default_budget_computes_the_lp():
    X, y = _data()
    result = run(X, y, nu_frac=0.2, eps=0.05, kkt=False)
    expected = tc.independent_lp_value(result.columns, 0.2 * y.size)
    assert result.lp_value == pytest.approx(expected, abs=1e-8)
    assert "not computed" not in result.message


@pytest.mark.parametrize("w_start", [None, "uniform"])
def test_restricted_lp_value_with_a_time_limit(w_start):
    U = _columns()
    nu = 40.0
    w = np.full(U.shape[1], 1.0 / U.shape[1]) if w_start else None
    expected = tc.independent_lp_value(U, nu)
    # a generous limit: the certified optimum, by sifting or (without w) one bounded HiGHS model
    assert tc.restricted_lp_value(U, nu, w_start=w, time_limit=60.0) == \
        pytest.approx(expected, abs=1e-8)
    # a limit already spent: nothing, at once
    assert tc.restricted_lp_value(U, nu, w_start=w, time_limit=0.0) is None
