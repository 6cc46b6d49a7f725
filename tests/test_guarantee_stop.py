"""ERLPBoost stops early when its eventual guarantee is certified empty or weak
(RegularizedAlgorithm._check_guarantee; docs/theory.md, "Stopping early")."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.algorithms import totally_corrective as tc
from dualboost.api import run


def _noisy(N: int = 150, seed: int = 3):
    """Labels independent of the features: the hard-margin optimum g is negative."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(N, 3)), np.where(rng.random(N) < 0.5, 1.0, -1.0)


def _separable(N: int = 150, seed: int = 4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 3))
    return X, np.where(X[:, 0] > 0, 1.0, -1.0)


@pytest.fixture
def check_at_once(monkeypatch):
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SECONDS", 0.0)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SOLVES", 1)


def _eps_eff(result) -> float:
    p = result.parameters
    N = result.columns.shape[0]
    return p["eps"] / 2 + np.log(N / p["nu"]) / p["eta"]  # eps/2 + B/eta, uniform d0


def test_empty_guarantee_stops_early_with_the_remedy(check_at_once):
    X, y = _noisy()
    result = run(X, y, nu=1, eps=0.05, kkt=False)
    assert result.status in ("vacuous_guarantee", "weak_guarantee")
    assert not result.success
    assert "Stopping early" in result.message and "larger nu" in result.message
    # the certified reason: the smallest best edge seen is below 2 eps_eff
    gamma_hat = min(r.edge for r in result.history)
    assert gamma_hat < 2 * _eps_eff(result)
    # h^t of the stopping step is discarded, the last certified master solve is kept
    assert result.iterations == sum(r.solved for r in result.history)
    assert result.duality_gap is not None and result.duality_gap >= 0
    on = run(X, y, nu=1, eps=0.05, kkt=False, guarantee_check=False, max_iter=3 * len(
        result.history) + 10)
    assert on.status not in ("vacuous_guarantee", "weak_guarantee")
    assert on.iterations > result.iterations


def test_meaningful_guarantee_runs_to_convergence(check_at_once):
    X, y = _separable()
    result = run(X, y, nu=1, eps=0.05, kkt=False)
    assert result.status == "converged"
    assert min(r.edge for r in result.history) >= 2 * _eps_eff(result)


def test_short_runs_are_not_checked():
    # the check starts after GUARANTEE_CHECK_SECONDS of fitting and GUARANTEE_CHECK_SOLVES
    # master solves: a short run ends by its rule
    X, y = _noisy()
    result = run(X, y, nu=1, eps=0.05, kkt=False)
    assert result.status not in ("vacuous_guarantee", "weak_guarantee")
