"""Shared fixtures: the breast cancer data and its full stump column matrix (built once)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from dualboost.data import load_dataset, shared_data_dir
from dualboost.oracles import StumpOracle

# Property tests draw the same examples on every run (hypothesis's advice for CI): a clean
# checkout then runs a fixed, reviewed set instead of new random draws that may land on a
# solver's accuracy limit (one such draw is kept as an explicit example in
# tests/test_formulations.py). HYPOTHESIS_PROFILE=explore searches afresh.
settings.register_profile("deterministic", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(scope="session")
def breast_cancer():
    """scikit-learn's Wisconsin breast cancer data (569 x 30, labels in {-1, +1})."""
    return load_dataset("breast_cancer")


@pytest.fixture(scope="session")
def german():
    """german.csv from the shared data folder; the tests that need it skip when it is absent."""
    root = shared_data_dir()
    if root is None or not (root / "german.csv").is_file():
        pytest.skip("shared data (german.csv) not available: shared_data_dir() is None")
    return load_dataset(str(root / "german.csv"))


@pytest.fixture(scope="session")
def breast_cancer_stumps(breast_cancer):
    """Every distinct stump column ``y * h(X)`` on breast cancer (569 x ~30,000; ~2 s to build)."""
    U, _ = StumpOracle().fit(breast_cancer.X, breast_cancer.y).all_columns()
    return U


HARD_MARGIN = (
    "from dualboost.params import EPS\n"
    "from formulations.lpboost import LPBoost\n"
    "class HardMargin(LPBoost):\n"
    "    name = 'hard_margin'\n"
    "    summary = 'LPBoost with nu = 1 fixed'\n"
    "    params = (EPS,)\n"
    "    nu = 1.0\n"
    "FORMULATION = HardMargin\n")


@pytest.fixture
def hard_margin_file(tmp_path):
    """A formulation file that declares no nu (LPBoost with nu = 1 fixed, only eps)."""
    path = tmp_path / "hard_margin.py"
    path.write_text(HARD_MARGIN)
    return path


@pytest.fixture(autouse=True)
def _no_early_stop(monkeypatch):
    """The guarantee check (docs/theory.md, 'Stopping early') falls due after a deterministic
    amount of master work; tests get their runs' own rules, so that a larger test instance does
    not change what they check. Those that test the check set its bounds themselves
    (tests/test_guarantee_stop.py's ``check_at_once``), which overrides this."""
    from dualboost.algorithms import totally_corrective as tc

    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 1e30)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SLOW_WORK", 2e30)


@pytest.fixture
def check_at_once(monkeypatch):
    """The guarantee check at every master solve from the first (docs/theory.md, 'Stopping
    early'): for the tests of the check itself."""
    from dualboost.algorithms import totally_corrective as tc

    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 0.0)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SOLVES", 1)


@pytest.fixture
def newton_fallbacks(monkeypatch):
    """The (t, reason) of every projected-Newton solve that fell back to the reference path in
    the test, in order (the master still falls back, so runs end as they would)."""
    from dualboost.masters.newton import ProjectedNewtonMaster

    fallbacks: list[tuple[int, str]] = []
    original = ProjectedNewtonMaster.reference

    def reference(self, U, gap_tol, reason, **kwargs):
        fallbacks.append((U.shape[1], reason))
        return original(self, U, gap_tol, reason, **kwargs)

    monkeypatch.setattr(ProjectedNewtonMaster, "reference", reference)
    return fallbacks


@pytest.fixture
def tie_group_columns():
    """``make(seed, N=400, T=25)``: T stump columns (and their negations) on 6 integer features
    in 0..3 with noisy labels, in a seeded random order: stumps on few distinct values, whose
    tie groups of examples with equal margins sit together at the kink d = 0 (the projected
    Newton master's hard case)."""
    import numpy as np

    def make(seed: int, N: int = 400, T: int = 25):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 4, size=(N, 6)).astype(float)
        y = np.where(X[:, 0] + X[:, 1] + rng.normal(scale=1.5, size=N) > 3, 1.0, -1.0)
        columns = []
        for j in range(6):
            for cut in (0.5, 1.5, 2.5):
                h = np.where(X[:, j] > cut, 1.0, -1.0)
                columns += [y * h, -y * h]
        return np.column_stack(columns)[:, rng.permutation(len(columns))[:T]]

    return make
