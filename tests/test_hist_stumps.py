"""Histogram stumps (issue 32, item 1): exact over the binned class, saved as ordinary stumps."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dualboost.api import run
from dualboost.cli import main
from dualboost.errors import DualBoostInputError
from dualboost.oracles import HistStumpOracle, StumpOracle, make_oracle
from dualboost.oracles.trees import bin_thresholds


def brute_force(X: np.ndarray, y: np.ndarray, d: np.ndarray, max_bins: int) -> float:
    """The largest edge over the constants and every stump at a bin-edge threshold, each
    column computed from X itself (the reference does not read the oracle)."""
    best = abs(float(y @ d))
    for j in range(X.shape[1]):
        for theta in bin_thresholds(X[:, j], max_bins):
            best = max(best, abs(float((y * np.where(X[:, j] > theta, 1.0, -1.0)) @ d)))
    return best


@pytest.mark.parametrize("max_bins", [4, 16, 255])
def test_best_edge_is_the_brute_force_maximum(max_bins):
    rng = np.random.default_rng(max_bins)
    X = np.round(rng.normal(size=(200, 4)), 2)
    X[:, 3] = rng.integers(0, 3, size=200)  # few distinct values
    y = np.where(rng.random(200) < 0.4, 1.0, -1.0)
    oracle = HistStumpOracle(max_bins=max_bins).fit(X, y)
    U, _ = oracle.all_columns()
    for _ in range(10):
        d = rng.random(200)
        d /= d.sum()
        h, u = oracle.best(d)
        assert np.array_equal(u, y * h.predict(X))  # the stump on the original scale
        assert float(u @ d) == pytest.approx(brute_force(X, y, d, max_bins), abs=1e-12)
        assert float(u @ d) == pytest.approx(float((U.T @ d).max()), abs=1e-12)
        cands = oracle.candidates(d)
        assert cands[0][0] == h and all(np.array_equal(c, y * g.predict(X)) for g, c in cands)


def test_equals_exact_stumps_when_features_have_few_values():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 20, size=(300, 3)).astype(float)
    y = np.where(X[:, 0] + rng.normal(size=300) * 4 > 10, 1.0, -1.0)
    hist, exact = HistStumpOracle().fit(X, y), StumpOracle().fit(X, y)
    for _ in range(5):
        d = rng.random(300)
        d /= d.sum()
        assert float(hist.best(d)[1] @ d) == pytest.approx(float(exact.best(d)[1] @ d),
                                                           abs=1e-12)


def test_options_and_certificate_scope():
    with pytest.raises(DualBoostInputError, match="max_bins"):
        make_oracle("hist_stumps", max_bins=300)
    with pytest.raises(DualBoostInputError, match="takes max_bins"):
        make_oracle("hist_stumps", max_depth=2)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=150) > 0, 1.0, -1.0)
    result = run(X, y, oracle="hist_stumps", oracle_params={"max_bins": 16}, eps=0.1)
    assert result.certificate_scope.startswith("whole class: binned stumps")


def test_cli_fit_and_predict_round_trip(tmp_path, capsys):
    rng = np.random.default_rng(1)
    X = np.round(rng.normal(size=(300, 3)), 3)
    y = (X[:, 0] - X[:, 1] + 0.3 * rng.normal(size=300) > 0).astype(int)
    data = tmp_path / "train.npy"
    np.save(data, np.column_stack([X, y]))
    model = tmp_path / "m.json"
    code = main(["fit", "--data", str(data), "--oracle", "hist_stumps", "--param",
                 "max_bins=32", "--eps", "0.1", "--max-iter", "30", "--json", str(model),
                 "--quiet"])
    assert code in (0, 3), capsys.readouterr().err
    capsys.readouterr()
    assert main(["fit", "--data", str(data), "--oracle", "hist_stumps", "--eps", "0.1",
                 "--max-iter", "5"]) in (0, 3)
    assert "over the binned stumps" in capsys.readouterr().out  # the summary names the class
    doc = json.loads(model.read_text())
    assert doc["certificate"].startswith("whole class: binned stumps")
    pred = tmp_path / "p.csv"
    assert main(["predict", "--model", str(model), "--data", str(data), "--out", str(pred)]) == 0
    scores = np.array([float(r.split(",")[1]) for r in pred.read_text().splitlines()[1:]])
    # the saved stumps, applied by hand on the original scale, give the predicted scores
    by_hand = np.zeros(300)
    for w, h in zip(doc["weights"], doc["hypotheses"]):
        assert h["type"] == "stump"
        x = X[:, h["feature"]]
        theta = -np.inf if h["threshold"] is None else h["threshold"]
        by_hand += w * h["sign"] * np.where(x > theta, 1.0, -1.0)
    assert np.allclose(scores, by_hand, rtol=0, atol=1e-12)
    accuracy = float(np.mean((scores > 0) == (y > 0)))
    assert f"error {doc['train_error']:.4f}" in capsys.readouterr().out
    assert accuracy == pytest.approx(1 - doc["train_error"], abs=1 / 300)


def test_estimator_round_trip():
    from dualboost.estimator import DualBoostClassifier

    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 5))
    y = (X[:, 0] + X[:, 2] > 0).astype(int)
    clf = DualBoostClassifier(oracle="hist_stumps", oracle_params={"max_bins": 64}, eps=0.1)
    clf.fit(X, y)
    assert clf.score(X, y) > 0.8
