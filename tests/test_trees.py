"""Trees and any estimator as weak learners (issue 30).

The exact depth-2 oracle is checked against an enumeration of every depth-2 tree (root split,
one split or none per child, every choice of leaf signs) on small binned data; a heuristic
oracle's run must make no whole-class statement; a saved tree model must predict as the
estimator that wrote it; scikit-learn's checks must pass with ``estimator=``.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import (
    AdaBoostClassifier,
    GradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import check_estimator

from dualboost.api import run
from dualboost.cli import main
from dualboost.errors import DualBoostInputError
from dualboost.estimator import DualBoostClassifier
from dualboost.guarantee import run_guarantee
from dualboost.model_io import load_model
from dualboost.oracles import ORACLE_NAMES, make_oracle
from dualboost.oracles.trees import ExactDepth2TreeOracle, TreeOracle, bin_features
from dualboost.reweight import reweight_ensemble, reweighted_scores
from proofs_check.trees import brute_force_depth2


def small_data(seed: int, n: int = 60, f: int = 3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, f))
    X[:, -1] = rng.integers(0, 3, n)  # a feature with few values
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    d = rng.random(n)
    return X, y, d / d.sum()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_depth2_equals_brute_force(seed):
    X, y, d = small_data(seed, n=40)
    oracle = ExactDepth2TreeOracle(max_bins=5).fit(X, y)
    tree, u = oracle.best(d)
    assert oracle.exact
    assert tree.depth <= 2
    np.testing.assert_array_equal(u, y * tree.predict(X))  # the column is the tree's
    codes, thresholds = bin_features(X, 5)
    n_bins = np.array([t.size + 1 for t in thresholds])
    assert float(u @ d) == pytest.approx(brute_force_depth2(codes, n_bins, d * y), abs=1e-12)


def test_binning_splits_on_the_original_scale():
    X, y, _ = small_data(3, n=500)
    codes, thresholds = bin_features(X, 16)
    assert codes.dtype == np.uint8 and max(t.size for t in thresholds) <= 15
    for j, thr in enumerate(thresholds):
        for b, theta in enumerate(thr):  # code <= b exactly when x <= theta
            np.testing.assert_array_equal(codes[:, j] <= b, X[:, j] <= theta)


@pytest.mark.parametrize("criterion", ["edge", "gini"])
def test_greedy_tree_column_and_depth(criterion):
    X, y, d = small_data(4, n=300, f=4)
    for depth in (1, 2, 3):
        oracle = TreeOracle(max_depth=depth, criterion=criterion).fit(X, y)
        tree, u = oracle.best(d)
        assert tree.depth <= depth
        np.testing.assert_array_equal(u, y * tree.predict(X))
        assert oracle.exact == (depth == 1)
    # depth 1 with the edge criterion is the exact best binned stump; the exact depth-2 tree
    # does at least as well
    stump = TreeOracle(max_depth=1).fit(X, y).best(d)[1] @ d
    two = ExactDepth2TreeOracle(max_bins=255).fit(X, y).best(d)[1] @ d
    greedy_two = TreeOracle(max_depth=2).fit(X, y).best(d)[1] @ d
    assert two >= greedy_two - 1e-12 and greedy_two >= stump - 1e-12


def test_oracle_names_and_options():
    assert {"tree", "tree2_exact"} <= set(ORACLE_NAMES)
    assert make_oracle("tree", max_depth=4).max_depth == 4
    with pytest.raises(DualBoostInputError, match="takes max_bins"):
        make_oracle("tree2_exact", max_depth=3)
    with pytest.raises(DualBoostInputError, match="max_depth"):
        make_oracle("tree", max_depth=0)


def test_heuristic_oracle_reports_no_whole_class_guarantee():
    X, y, _ = small_data(5, n=200, f=4)
    # eps = 0.9 makes the promise empty: with stumps (exact) the run says so ...
    exact = run(X, y, formulation="erlpboost", nu_frac=0.3, eps=0.9, oracle="stumps")
    assert exact.oracle_exact and run_guarantee(exact).vacuous
    assert "vacuous_guarantee" in {w["code"] for w in exact.warnings}
    # ... with greedy trees (heuristic) no whole-class statement is made at all
    for kwargs in ({"formulation": "lpboost", "eps": 0.9}, {"formulation": "erlpboost",
                                                           "eps": 0.9}):
        result = run(X, y, nu_frac=0.3, oracle="tree", oracle_params={"max_depth": 2},
                     **kwargs)
        assert not result.oracle_exact
        assert result.status not in ("converged_vacuous", "vacuous_guarantee",
                                     "weak_guarantee", "degenerate_lp")
        assert run_guarantee(result) is None and result.certified_gap is None
        assert not [w for w in result.warnings if w["code"] == "vacuous_guarantee"]
        assert "relative to the hypotheses found" in result.message
        assert result.certificate_scope == "hypotheses found"
    # the exact depth-2 oracle keeps the whole-class statements
    exact2 = run(X, y, formulation="lpboost", nu_frac=0.3, eps=0.9, oracle="tree2_exact")
    assert exact2.oracle_exact and run_guarantee(exact2) is not None


def test_heuristic_oracle_never_stops_early(monkeypatch):
    """The guarantee check is switched off for a heuristic oracle (the algorithm's own rule
    decides), even when it would be due at once."""
    from dualboost.algorithms import totally_corrective

    monkeypatch.setattr(totally_corrective, "guarantee_check_due", lambda *a, **k: True)
    X, y, _ = small_data(6, n=200, f=4)
    stumps = run(X, y, formulation="erlpboost", nu_frac=0.3, eps=0.5, oracle="stumps")
    assert stumps.status in ("vacuous_guarantee", "weak_guarantee")  # the check is live
    trees = run(X, y, formulation="erlpboost", nu_frac=0.3, eps=0.5, oracle="tree",
                oracle_params={"max_depth": 2})
    assert trees.status.startswith("converged") and not trees.oracle_exact


@pytest.mark.parametrize("oracle, options", [("tree", {"max_depth": 3}),
                                             ("tree2_exact", {"max_bins": 8})])
def test_saved_tree_model_predicts_as_the_estimator(tmp_path, oracle, options):
    X, y = make_classification(n_samples=300, n_features=6, random_state=0)
    est = DualBoostClassifier(oracle=oracle, oracle_params=options, nu_frac=0.2,
                              eps=0.05).fit(X[:200], y[:200])
    path = tmp_path / "model.json"
    est.to_json(path)
    model = load_model(path)
    np.testing.assert_array_equal(model.decision_function(X), est.decision_function(X))
    np.testing.assert_array_equal(model.predict(X), est.predict(X))
    again = DualBoostClassifier.from_json(path)
    np.testing.assert_array_equal(again.predict(X), est.predict(X))
    assert est.feature_importances_.sum() == pytest.approx(1.0)


def test_cli_fit_trees_and_predict(tmp_path, capsys):
    X, y = make_classification(n_samples=200, n_features=5, random_state=1)
    data = tmp_path / "train.csv"
    np.savetxt(data, np.column_stack([X, y]), delimiter=",", fmt="%.17g")
    model, pred = tmp_path / "run.json", tmp_path / "pred.csv"
    code = main(["fit", "--data", str(data), "--oracle", "tree", "--param", "max_depth=2",
                 "--eps", "0.1", "--json", str(model)])
    out = capsys.readouterr().out
    assert code == 0
    assert "relative to the hypotheses found" in out
    assert main(["predict", "--model", str(model), "--data", str(data), "--out",
                 str(pred)]) == 0
    doc = load_model(model)
    scores = np.array([float(r.split(",")[1]) for r in pred.read_text().splitlines()[1:]])
    np.testing.assert_array_equal(scores, doc.decision_function(X))
    import json

    saved = json.loads(model.read_text())
    assert saved["certificate"] == "hypotheses found"
    assert saved["oracle_params"] == {"max_depth": 2}
    assert all(h["type"] == "tree" for h in saved["hypotheses"])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_check_estimator_with_estimator():
    check_estimator(DualBoostClassifier(eps=0.1, max_iter=20,
                                        estimator=DecisionTreeClassifier(max_depth=2)))


def test_estimator_oracle_refusals_and_pickle(tmp_path):
    X, y = make_classification(n_samples=200, n_features=5, random_state=2)
    with pytest.raises(ValueError, match="sample_weight"):
        DualBoostClassifier(estimator=KNeighborsClassifier()).fit(X, y)
    est = DualBoostClassifier(estimator=DecisionTreeClassifier(max_depth=2), nu_frac=0.2,
                              eps=0.05, max_iter=50).fit(X, y)
    assert not est.result_.oracle_exact
    with pytest.raises(DualBoostInputError, match="pickle or joblib"):
        est.to_json(tmp_path / "m.json")
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))


@pytest.mark.parametrize("ensemble", [
    AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=20, random_state=0),
    RandomForestClassifier(n_estimators=20, max_depth=3, random_state=0),
    GradientBoostingClassifier(n_estimators=20, max_depth=2, random_state=0),
])
def test_reweight_a_fitted_ensemble(ensemble):
    X, y = make_classification(n_samples=400, n_features=8, flip_y=0.05, random_state=3)
    ensemble.fit(X[:300], y[:300])
    result, members = reweight_ensemble(ensemble, X[:300], y[:300], formulation="lpboost",
                                        nu_frac=0.2, eps=0.01)
    assert result.oracle_exact and result.success  # certified over the members
    assert len(members) == 20
    scores = reweighted_scores(result, members, X[300:])
    accuracy = np.mean(np.where(scores > 0, 1, 0) == y[300:])
    assert accuracy > 0.7
