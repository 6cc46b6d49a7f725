"""Tests of the scikit-learn estimator :class:`dualboost.estimator.DualBoostClassifier`."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils.estimator_checks import check_estimator

import dualboost
from dualboost.algorithms import algorithm_class
from dualboost.estimator import DualBoostClassifier
from dualboost.margins import soft_margin
from dualboost.oracles import StumpOracle
from dualboost.registry import available_formulations, load_formulation

FORMULATIONS_DIR = Path(__file__).resolve().parent.parent / "formulations"


@pytest.fixture(scope="module")
def breast_cancer() -> tuple[np.ndarray, np.ndarray]:
    """Breast cancer with its string labels ("malignant" / "benign"), to exercise encoding."""
    bunch = load_breast_cancer()
    return bunch.data, bunch.target_names[bunch.target]


@pytest.fixture(scope="module")
def fitted(breast_cancer) -> dict[str, DualBoostClassifier]:
    """One fit per formulation, shared by the tests below: a breast-cancer fit costs seconds."""
    X, y = breast_cancer
    return {
        name: DualBoostClassifier(formulation=name, nu_frac=0.2, eps=0.05).fit(X, y)
        for name in ("lpboost", "erlpboost")
    }


@pytest.fixture(scope="module")
def small() -> tuple[np.ndarray, np.ndarray]:
    X, y = make_classification(n_samples=40, n_features=4, random_state=0)
    return X, y


# -- scikit-learn's estimator checks ------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_check_estimator():
    # Every check applies and passes: no expected_failed_checks. (Checks that need pandas or
    # SCIPY_ARRAY_API are skipped by scikit-learn itself when those are unavailable.)
    check_estimator(DualBoostClassifier(eps=0.1, max_iter=20))


def test_tags_binary_only():
    tags = DualBoostClassifier().__sklearn_tags__()
    assert tags.classifier_tags.multi_class is False
    assert tags.estimator_type == "classifier"


# -- breast cancer --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lpboost", "erlpboost"])
def test_breast_cancer_accuracy_and_soft_margin(fitted, breast_cancer, name):
    X, y = breast_cancer
    est = fitted[name]
    assert est.result_.status == "converged", est.result_.message
    accuracy = np.mean(est.predict(X) == y)
    assert accuracy > 0.85
    assert est.score(X, y) == pytest.approx(accuracy)
    assert est.nu_ == pytest.approx(0.2 * X.shape[0])
    # soft_margin_ is the soft margin (2.2) of the output weights, recomputed from scratch.
    recomputed = soft_margin(est.result_.columns @ est.weights_, est.nu_)
    assert est.soft_margin_ == pytest.approx(recomputed, abs=1e-12)
    assert est.n_iter_ == len(est.hypotheses_) == est.weights_.shape[0] >= 1
    assert est.n_features_in_ == X.shape[1]
    if name == "erlpboost":
        assert est.eta_ == pytest.approx(est.result_.parameters["eta"]) and est.eta_ > 0
    else:
        assert est.eta_ is None


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lpboost", "erlpboost"])
def test_breast_cancer_decision_function(fitted, breast_cancer, name):
    X, _ = breast_cancer
    est = fitted[name]
    scores = est.decision_function(X)
    assert scores.shape == (X.shape[0],)
    expected = sum(w * h.predict(X) for w, h in zip(est.weights_, est.hypotheses_))
    np.testing.assert_allclose(scores, expected, atol=1e-12)
    np.testing.assert_array_equal(est.predict(X), est.classes_[(scores > 0).astype(int)])


@pytest.mark.slow
def test_string_labels_round_trip(fitted, breast_cancer):
    X, y = breast_cancer
    est = fitted["erlpboost"]
    np.testing.assert_array_equal(est.classes_, ["benign", "malignant"])
    pred = est.predict(X)
    assert set(np.unique(pred)) == {"benign", "malignant"}
    # classes_[1] = "malignant" is the +1 class: the training columns are y_pm * h(x).
    y_pm = np.where(y == "malignant", 1.0, -1.0)
    np.testing.assert_allclose(est.result_.columns[:, 0], y_pm * est.hypotheses_[0].predict(X))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lpboost", "erlpboost"])
def test_pickle_round_trip(fitted, breast_cancer, name):
    X, _ = breast_cancer
    est = fitted[name]
    restored = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(restored.predict(X), est.predict(X))
    np.testing.assert_array_equal(restored.decision_function(X), est.decision_function(X))


# -- labels and parameters ----------------------------------------------------------------------


def test_three_classes_raise_binary_error(small):
    X, _ = small
    y = np.arange(X.shape[0]) % 3
    with pytest.raises(ValueError, match="binary"):
        DualBoostClassifier().fit(X, y)


def test_one_class_raises(small):
    X, _ = small
    with pytest.raises(ValueError, match="1 class"):
        DualBoostClassifier().fit(X, np.ones(X.shape[0]))


def test_clone_get_set_params():
    est = DualBoostClassifier(formulation="lpboost", nu_frac=0.3, eps=0.05, max_iter=7)
    params = est.get_params()
    assert params == {"formulation": "lpboost", "nu_frac": 0.3, "eps": 0.05, "eta": None,
                      "oracle": "stumps", "stopping": None, "max_iter": 7,
                      "solver": None, "algorithm": None, "params": None, "time_limit": None,
                      "oracle_params": None, "estimator": None}
    twin = clone(est)
    assert twin is not est and twin.get_params() == params
    assert twin.set_params(oracle="raw", eta=2.0, params={"q": 0.3}) is twin
    assert twin.oracle == "raw" and twin.eta == 2.0 and twin.params == {"q": 0.3}
    assert est.oracle == "stumps" and est.params is None  # the clone is independent
    # a params dict survives clone (scikit-learn deep-copies it) unchanged
    assert clone(twin).params == {"q": 0.3}


def test_clone_of_fitted_is_unfitted(small):
    X, y = small
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    twin = clone(est)
    with pytest.raises(NotFittedError):
        twin.predict(X)


def test_formulation_from_file_path(tmp_path, small):
    X, y = small
    path = tmp_path / "my_lpboost.py"
    shutil.copy(FORMULATIONS_DIR / "lpboost.py", path)
    by_path = DualBoostClassifier(formulation=str(path), nu_frac=0.2, eps=0.05).fit(X, y)
    # a copied file runs on the reference path (its primal could differ from the shipped one);
    # forcing HiGHS puts the registered one on the same path, so the two runs must agree
    by_name = DualBoostClassifier(formulation="lpboost", nu_frac=0.2, eps=0.05,
                                  solver="HIGHS").fit(X, y)
    assert by_path.result_.formulation == "lpboost"
    assert {r.path for r in by_path.result_.history} == {"reference"}
    np.testing.assert_allclose(by_path.weights_, by_name.weights_, atol=1e-9)
    np.testing.assert_array_equal(by_path.predict(X), by_name.predict(X))
    # A pathlib.Path works as well, and the fitted estimator still pickles.
    by_pathlib = DualBoostClassifier(formulation=path, nu_frac=0.2, eps=0.05).fit(X, y)
    restored = pickle.loads(pickle.dumps(by_pathlib))
    np.testing.assert_array_equal(restored.predict(X), by_name.predict(X))


def test_raw_feature_oracle(small):
    X, y = small
    est = DualBoostClassifier(oracle="raw", eps=0.1).fit(X, y)
    assert all(type(h).__name__ == "RawFeature" for h in est.hypotheses_)
    scores = est.decision_function(X)
    assert np.all(np.abs(scores) <= 1 + 1e-9)
    assert est.score(X, y) > 0.5


def test_nu_clamped_to_one_on_tiny_data():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    est = DualBoostClassifier(nu_frac=0.1).fit(X, y)  # 0.1 * 4 = 0.4 < 1
    assert est.nu_ == 1.0
    assert est.result_.parameters["nu"] == 1.0
    np.testing.assert_array_equal(est.predict(X), y)


def test_nu_from_fraction(small):
    X, y = small
    est = DualBoostClassifier(nu_frac=0.25, eps=0.1).fit(X, y)
    assert est.nu_ == pytest.approx(10.0)


@pytest.mark.parametrize("params, match", [
    ({"nu_frac": 0.0}, "nu_frac"),
    ({"nu_frac": 1.5}, "nu_frac"),
    ({"nu_frac": float("nan")}, "nu_frac"),
    ({"oracle": "finite"}, "oracle"),
    ({"max_iter": 0}, "max_iter"),
    ({"max_iter": 2.5}, "max_iter"),
    ({"formulation": "no_such_formulation"}, "unknown formulation"),
    ({"eps": -1.0}, "eps"),
    ({"stopping": "sometimes"}, "stopping"),
    # a parameter the formulation and the algorithm do not declare is refused, not ignored
    ({"formulation": "lpboost", "eta": 2.0}, "'eta' is not a parameter of formulation "
                                             "'lpboost' or algorithm 'lpboost'"),
    ({"formulation": "lpboost", "stopping": "simple"}, "'stopping' is not a parameter"),
    ({"algorithm": "lpboost", "stopping": "simple"}, "'stopping' is not a parameter"),
    ({"params": {"q": 0.3}}, "'q' is not a parameter of formulation 'erlpboost'"),
    ({"params": {"eta": 2.0}}, "own 'eta' argument"),
    ({"params": {"nu": 3}}, "own 'nu_frac' argument"),
    ({"params": [("q", 0.3)]}, "params must be a dict"),
    ({"params": {"d0": [0.5, 0.5]}}, "length N = 40"),
    ({"algorithm": "no_such_algorithm"}, "unknown algorithm"),
    ({"formulation": "lpboost", "algorithm": "erlpboost"},
     "algorithm 'erlpboost' cannot run formulation 'lpboost'"),
])
def test_invalid_parameters_raise_in_fit(small, params, match):
    X, y = small
    est = DualBoostClassifier(**params)  # __init__ stores, never validates
    with pytest.raises(ValueError, match=match):
        est.fit(X, y)


def test_constant_features_give_a_constant_classifier():
    X = np.ones((10, 3))
    y = np.array([0] * 4 + [1] * 6)
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    # Only the constant stumps exist; the combination predicts one class everywhere.
    assert np.unique(est.predict(X)).size == 1


def test_predict_validates_features(small):
    X, y = small
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but DualBoostClassifier is "
                                         "expecting 4 features"):
        est.predict(X[:, :3])
    with pytest.raises(ValueError, match="NaN"):
        est.predict(np.full_like(X, np.nan))


def test_not_fitted():
    with pytest.raises(NotFittedError):
        DualBoostClassifier().decision_function(np.zeros((2, 2)))


def test_max_iter_warns(small):
    X, y = small
    # eps = 1e-3 cannot be reached in two master solves (eps = 1e-6 would also make the
    # certified gap tolerance eps/100 unreachable for the exponential-cone solvers)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        est = DualBoostClassifier(eps=1e-3, max_iter=2).fit(X, y)
    assert est.n_iter_ == 2 and est.result_.status == "max_iter"


def test_time_limit_ends_the_fit(small):
    # the CLI's --time-limit reaches run(): a limit shorter than any fit stops after the first
    # certified master solve, keeps a usable model and says so (a bound for a GridSearchCV)
    X, y = small
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        est = DualBoostClassifier(eps=1e-3, time_limit=1e-9).fit(X, y)
    assert est.result_.status == "time_limit" and est.n_iter_ == 1
    assert est.predict(X).shape == y.shape
    assert clone(est).get_params()["time_limit"] == 1e-9
    # no limit by default: the same fit runs to its rule
    assert DualBoostClassifier(eps=1e-3).fit(X, y).n_iter_ > 1


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), True, "10"])
def test_time_limit_must_be_positive(small, bad):
    X, y = small
    with pytest.raises(ValueError, match="time_limit"):
        DualBoostClassifier(time_limit=bad).fit(X, y)


def test_exported_from_package():
    assert dualboost.DualBoostClassifier is DualBoostClassifier
    assert "DualBoostClassifier" in dualboost.__all__


# -- algorithm and declared parameters -----------------------------------------------------------


def test_algorithm_lpboost_on_erlpboost_is_refused(small):
    X, y = small
    with pytest.raises(ValueError, match="Alg. 2.1's stopping rule"):
        DualBoostClassifier(algorithm="lpboost", eps=0.05).fit(X, y)


def test_algorithm_lpboost_on_lpboost(small):
    X, y = small
    est = DualBoostClassifier(formulation="lpboost", algorithm="lpboost", eps=0.05).fit(X, y)
    assert est.algorithm_ == est.result_.algorithm == "lpboost"
    assert est.result_.stopping == "lp" and est.result_.status == "converged"
    # Alg. 2.1 step (c) held at the last solve: min_q u^q.d^(q-1) - Theta^T <= eps
    history = est.result_.history
    assert min(r.edge for r in history) - history[-1].dual <= 0.05
    names = [p.name for p in load_formulation("lpboost").params]
    assert list(est.parameters_) == names + ["pricing", "smoothing"] and est.eta_ is None
    assert est.parameters_["pricing"] == "multiple"


def test_stopping_reaches_the_algorithm(small):
    X, y = small
    est = DualBoostClassifier(stopping="simple", eps=0.1).fit(X, y)
    assert est.parameters_["stopping"] == "simple" == est.result_.stopping
    assert est.result_.algorithm_parameters == {"stopping": "simple"}
    last = est.result_.history[-1]
    assert not last.solved and last.delta_simple <= 0.05  # thesis §3.2.1: delta^t <= eps/2
    default = DualBoostClassifier(eps=0.1).fit(X, y)
    assert default.parameters_["stopping"] == "practical"  # None: the algorithm's default


def test_params_d0_is_the_first_distribution(small):
    """params={"d0": prior}: the oracle's first call is made under d0 (Alg. 3.2 starts at d0)."""
    X, y = small
    N = X.shape[0]
    d0 = np.linspace(1.0, 2.0, N)
    d0 /= d0.sum()
    params = {"d0": d0}
    est = DualBoostClassifier(params=params, eps=0.1).fit(X, y)
    assert params == {"d0": d0} and params["d0"] is d0  # the estimator's dict is untouched
    np.testing.assert_allclose(est.parameters_["d0"], d0, rtol=0, atol=1e-15)
    # independent: the best stump edge under d0 over every distinct stump column
    y_pm = np.where(y == est.classes_[1], 1.0, -1.0)
    U_all, _ = StumpOracle().fit(X, y_pm).all_columns()
    assert est.result_.history[0].edge == pytest.approx((U_all.T @ d0).max(), abs=1e-12)


@pytest.mark.skipif("erlpboost_tsallis" not in available_formulations(),
                    reason="the Tsallis formulation is not registered")
def test_params_q_for_tsallis(small):
    X, y = small
    est = DualBoostClassifier(formulation="erlpboost_tsallis", params={"q": 0.3},
                              eps=0.1).fit(X, y)
    cls = load_formulation("erlpboost_tsallis")
    algo = algorithm_class(cls.default_algorithm)
    assert list(est.parameters_) == [p.name for p in (*cls.params, *algo.params)]
    assert est.parameters_["q"] == 0.3
    assert est.result_.duality_gap >= -1e-9
    with pytest.raises(ValueError, match="q must lie in"):
        DualBoostClassifier(formulation="erlpboost_tsallis", params={"q": 1.5}).fit(X, y)


def test_formulation_without_nu_or_eps(tmp_path, hard_margin_file, small):
    """nu_frac / eps keep their defaults for a formulation without nu: not passed; another
    value is refused rather than ignored."""
    X, y = small
    path = hard_margin_file
    est = DualBoostClassifier(formulation=str(path), eps=0.05).fit(X, y)
    assert est.nu_ is None and est.parameters_ == {"eps": 0.05, "pricing": "multiple",
                                                   "smoothing": 0.5}
    # the hard margin: the result equals LPBoost with nu = 1 (nu_frac * N = 1 here)
    twin = DualBoostClassifier(formulation="lpboost", nu_frac=1 / X.shape[0], eps=0.05).fit(X, y)
    np.testing.assert_allclose(est.weights_, twin.weights_, atol=1e-9)
    with pytest.raises(ValueError, match="do not declare 'nu'"):
        DualBoostClassifier(formulation=str(path), nu_frac=0.3).fit(X, y)


# -- issue 9: ties, predict_proba, feature_importances_, sample_weight, multi-class, JSON ----------


def test_ties_go_to_the_majority_class():
    X, y = make_classification(n_samples=41, n_features=4, weights=[0.3], random_state=1)
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    majority = int(np.mean(y == 1) > 0.5)
    assert majority == 1  # the case where scikit-learn's default (classes_[0]) would differ
    assert est.tie_class_ == majority
    est.weights_ = np.zeros_like(est.weights_)  # every score exactly 0
    assert np.all(est.decision_function(X) == 0)
    np.testing.assert_array_equal(est.predict(X), np.full(X.shape[0], majority))
    proba = est.predict_proba(X)
    np.testing.assert_array_equal(np.argmax(proba, axis=1), est.predict(X))


def test_predict_proba_is_the_documented_logistic_map(small):
    X, y = small
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    f = est.decision_function(X)
    proba = est.predict_proba(X)
    a = est.proba_slope_
    assert a > 0
    np.testing.assert_allclose(proba[:, 1], 1 / (1 + np.exp(-a * f)), rtol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    order = np.argsort(f, kind="stable")
    assert np.all(np.diff(proba[order, 1]) >= 0)  # monotone in the score
    np.testing.assert_array_equal(est.classes_[np.argmax(proba, axis=1)], est.predict(X))
    # a is the optimum of the L2-penalized log-likelihood (C = 1, no intercept): derivative 0
    t = (y == est.classes_[1]).astype(float)
    assert abs(np.sum((t - proba[:, 1]) * f) - a) < 1e-3


def test_calibrated_classifier_cv(small):
    from sklearn.calibration import CalibratedClassifierCV

    X, y = make_classification(n_samples=90, n_features=4, random_state=2)
    clf = CalibratedClassifierCV(DualBoostClassifier(eps=0.1, nu_frac=0.2), cv=3).fit(X, y)
    proba = clf.predict_proba(X)
    assert proba.shape == (90, 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.mean(clf.predict(X) == y) > 0.7


def test_feature_importances_are_summed_weights(small):
    X, y = small
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    expected = np.zeros(X.shape[1])
    for w, h in zip(est.weights_, est.hypotheses_):
        d = h.describe()
        if d["threshold"] is not None:  # the constant stump counts nowhere
            expected[d["feature"]] += w
    expected /= expected.sum()
    np.testing.assert_allclose(est.feature_importances_, expected, atol=1e-12)
    raw = DualBoostClassifier(eps=0.1, oracle="raw").fit(X, y)
    assert raw.feature_importances_.sum() == pytest.approx(1.0)


def test_feature_importances_of_constant_data_are_zero():
    X = np.ones((10, 3))
    y = np.array([0] * 4 + [1] * 6)
    est = DualBoostClassifier(eps=0.1).fit(X, y)
    np.testing.assert_array_equal(est.feature_importances_, np.zeros(3))


@pytest.mark.parametrize("name", ["lpboost", "erlpboost"])
def test_integer_sample_weight_equals_repeated_rows(small, name):
    X, y = small
    sw = np.random.default_rng(0).integers(0, 4, size=X.shape[0])
    weighted = DualBoostClassifier(formulation=name, nu_frac=0.2, eps=0.05).fit(
        X, y, sample_weight=sw)
    repeated = DualBoostClassifier(formulation=name, nu_frac=0.2, eps=0.05).fit(
        np.repeat(X, sw, axis=0), np.repeat(y, sw))
    # nu counts the total weight: nu = nu_frac * sum(s)
    assert weighted.nu_ == pytest.approx(0.2 * sw.sum()) == pytest.approx(repeated.nu_)
    # the weights are passed on (per-example caps, docs/theory.md "Sample weights"), not repeated
    assert weighted.parameters_.get("sample_weight") is not None
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X),
                               atol=1e-6)
    np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))


def test_sample_weight_shuffled_rows_erlpboost(small):
    """ERLPBoost's regularized solution is unique, so the order of the rows does not matter."""
    X, y = small
    sw = np.random.default_rng(1).integers(1, 4, size=X.shape[0])
    perm = np.random.default_rng(2).permutation(X.shape[0])
    weighted = DualBoostClassifier(eps=0.05).fit(X[perm], y[perm], sample_weight=sw[perm])
    repeated = DualBoostClassifier(eps=0.05).fit(np.repeat(X, sw, axis=0), np.repeat(y, sw))
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X),
                               atol=1e-6)


def test_sample_weight_ones_is_no_weight(small):
    X, y = small
    a = DualBoostClassifier(eps=0.1).fit(X, y, sample_weight=np.ones(X.shape[0]))
    b = DualBoostClassifier(eps=0.1).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize("sw, match", [
    (np.r_[np.ones(39), -1.0], "Negative values"),
    (np.zeros(40), "non-zero|zero for every row"),
])
def test_bad_sample_weight(small, sw, match):
    X, y = small
    with pytest.raises(ValueError, match=match):
        DualBoostClassifier(eps=0.1).fit(X, y, sample_weight=sw)


@pytest.mark.parametrize("sw", [np.full(40, 0.5), np.r_[np.ones(39), 1.5]])
def test_non_integer_sample_weight_unsupported_formulation(small, sw):
    """A formulation without the aggregated weighted form (docs/theory.md, "Sample weights")
    refuses non-integer weights by name; integer weights still work by repeating rows."""
    X, y = small
    est = DualBoostClassifier(formulation="erlpboost_l2", eps=0.1)
    with pytest.raises(ValueError, match="Sample weights.*integer weights"):
        est.fit(X, y, sample_weight=sw)
    est.fit(X, y, sample_weight=np.r_[np.ones(39), 2.0])
    assert est.nu_ == pytest.approx(0.1 * 41)


def test_multiclass_error_names_one_vs_rest(small):
    X, _ = small
    with pytest.raises(ValueError, match="OneVsRestClassifier"):
        DualBoostClassifier().fit(X, np.arange(X.shape[0]) % 3)


def test_one_vs_rest_on_iris():
    from sklearn.datasets import load_iris
    from sklearn.multiclass import OneVsRestClassifier

    X, y = load_iris(return_X_y=True)
    clf = OneVsRestClassifier(DualBoostClassifier(nu_frac=0.2, eps=0.05)).fit(X, y)
    assert len(clf.estimators_) == 3
    assert np.mean(clf.predict(X) == y) > 0.9
    assert clf.predict_proba(X).shape == (150, 3)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lpboost", "erlpboost"])
def test_json_round_trip(fitted, breast_cancer, name, tmp_path):
    from dualboost.model_io import load_model

    X, y = breast_cancer
    est = fitted[name]
    path = tmp_path / "model.json"
    est.to_json(path)
    back = DualBoostClassifier.from_json(path)
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    np.testing.assert_array_equal(back.classes_, est.classes_)
    np.testing.assert_array_equal(back.feature_importances_, est.feature_importances_)
    assert back.tie_class_ == est.tie_class_ and back.get_params() == est.get_params()
    # the same document is a model for the CLI's loader (dualboost predict --model)
    saved = load_model(path)
    np.testing.assert_array_equal(saved.decision_function(X), est.decision_function(X))
    np.testing.assert_array_equal(saved.predict(X), est.predict(X))
    # a loaded estimator writes the document again, unchanged as a model
    again = tmp_path / "again.json"
    back.to_json(again)
    np.testing.assert_array_equal(DualBoostClassifier.from_json(again).decision_function(X),
                                  est.decision_function(X))


def test_json_round_trip_small_and_sparse(small, tmp_path):
    import scipy.sparse as sp

    X, y = small
    est = DualBoostClassifier(eps=0.1, oracle="raw").fit(sp.csr_matrix(X), y)
    est.to_json(tmp_path / "m.json")
    back = DualBoostClassifier.from_json(tmp_path / "m.json")
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    assert back.n_features_in_ == 4 and back.result_ is None
