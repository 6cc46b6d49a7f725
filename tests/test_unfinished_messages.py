"""A run that ends at max_iter or at its time limit says how far its stopping rule still was and
what to change (dualboost.diagnostics.max_iter_advice), and a P_LP^T skipped because the time
limit had run out says so rather than blame the diagnostic's share of the fit."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dualboost.api import run


def _noisy(N: int = 400, seed: int = 3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 6))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=N) > 0, 1.0, -1.0)
    return X, y


def _number(pattern: str, text: str) -> float:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in {text!r}"
    return float(match.group(1))


def test_erlpboost_max_iter_names_delta_and_gamma_hat():
    X, y = _noisy()
    result = run(X, y, nu_frac=0.2, eps=1e-3, max_iter=3, kkt=False)
    assert result.status == "max_iter"
    solved = [r for r in result.history if r.solved]
    delta = _number(r"delta~\^t = ([0-9.e-]+) > eps/2 = 0\.0005 at master solve 3", result.message)
    assert delta == pytest.approx(solved[-1].delta_practical, rel=1e-2)
    gamma_hat = _number(r"gamma_hat = min_t edge\^t = ([0-9.e-]+)", result.message)
    assert gamma_hat == pytest.approx(min(r.edge for r in result.history), rel=1e-2)
    assert "--max-iter" in result.message and "larger nu" in result.message


def test_lpboost_time_limit_names_its_bracket_and_the_remedy():
    X, y = _noisy()
    result = run(X, y, formulation="lpboost", nu_frac=0.2, eps=1e-6, time_limit=1e-9)
    assert result.status == "time_limit"
    gap = _number(r"gamma_hat - Theta\^t = ([0-9.e-]+) > eps = 1e-06 at master solve 1",
                  result.message)
    assert gap == pytest.approx(result.history[-1].delta_practical, rel=1e-2)
    assert "--time-limit" in result.message


def test_converged_run_gets_no_advice():
    X, y = _noisy()
    result = run(X, y, nu_frac=0.3, eps=0.05, kkt=False)
    assert result.status.startswith("converged")
    assert "had not held" not in result.message


def test_lp_skipped_at_the_time_limit_blames_the_limit():
    # the first master solve completes past a tiny limit; nothing is left for P_LP^T
    X, y = _noisy()
    result = run(X, y, nu_frac=0.2, eps=1e-3, time_limit=1e-9, kkt=False)
    assert result.status == "time_limit" and result.lp_value is None
    assert "not computed: the time limit had passed" in result.message
    assert "x the fit's" not in result.message
    assert "s  after" not in result.message  # one space where the stop has no place to name
