"""The ``kernel`` oracle (SVM hypotheses h_i(x) = <x_i, x> / s, thesis §5) as a first-class
oracle: ``dualboost fit --oracle kernel``, its saved model, ``dualboost predict``, and
``DualBoostClassifier(oracle="kernel")``.

The references are computed here from the data (dense numpy products, the scale
s = max_n ||x_n||^2 written out), not read from the code under test.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import check_estimator

from dualboost.api import run
from dualboost.cli import main
from dualboost.data import load_dataset
from dualboost.errors import DualBoostInputError
from dualboost.estimator import DualBoostClassifier
from dualboost.model_io import load_model, model_document
from dualboost.oracles import KernelHypothesis, make_oracle


def _sparse_problem(seed: int, n: int, n_features: int = 12,
                    density: float = 0.35) -> tuple[np.ndarray, np.ndarray]:
    """Sparse rows with a linear signal through the origin (what SVM hypotheses can learn),
    values rounded so that a LIBSVM text file holds them exactly, and 10 % label noise."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, n_features)), 3) * (rng.random((n, n_features)) < density)
    w = np.linspace(-1.0, 1.0, n_features)
    y = np.where(X @ w + 0.05 > 0, 1.0, -1.0)
    flip = rng.random(n) < 0.1
    y[flip] = -y[flip]
    return X, y


def _write_libsvm(path, X: np.ndarray, y: np.ndarray) -> None:
    lines = []
    for row, label in zip(X, y):
        cells = [f"{j + 1}:{row[j]:g}" for j in np.flatnonzero(row)]
        lines.append(" ".join([f"{int(label):+d}", *cells]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _read_predictions(path) -> tuple[list[str], np.ndarray]:
    lines = path.read_text().splitlines()
    assert lines[0] == "prediction,score"
    rows = [line.split(",") for line in lines[1:]]
    return [r[0] for r in rows], np.array([float(r[1]) for r in rows])


@pytest.fixture
def libsvm_files(tmp_path):
    X, y = _sparse_problem(0, 160)
    X_test, y_test = _sparse_problem(1, 60)
    X_test[:5] *= 6.0  # rows beyond the training norms: their values are clipped
    train, test = tmp_path / "toy.train", tmp_path / "toy.t"
    _write_libsvm(train, X, y)
    _write_libsvm(test, X_test, y_test)
    return train, test


FIT = ["--oracle", "kernel", "--nu-frac", "0.2", "--eps", "0.05", "--n-features", "12"]
RUN = {"oracle": "kernel", "nu_frac": 0.2, "eps": 0.05}


# -- fit -> save -> predict -----------------------------------------------------------------------


def test_fit_save_predict_round_trip_is_the_in_memory_result(tmp_path, capsys, libsvm_files):
    train, test = libsvm_files
    model, pred = tmp_path / "k.json", tmp_path / "pred.csv"
    code = main(["fit", "--data", str(train), *FIT, "--test", str(test), "--json", str(model),
                 "--quiet"])
    assert code == 0, capsys.readouterr().err
    code = main(["predict", "--model", str(model), "--data", str(test), "--out", str(pred)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    labels, scores = _read_predictions(pred)

    data = load_dataset(str(train), n_features=12)
    assert sp.issparse(data.X)  # LIBSVM data stay sparse through the fit
    result = run(data.X, data.y, **RUN)  # the same fit, in memory
    X_test = load_dataset(str(test), n_features=12, index_base=data.index_base).X
    doc = json.loads(model.read_text())
    assert doc["oracle"] == "kernel"
    assert doc["hypotheses"] == [h.describe() for h in result.hypotheses]
    assert doc["weights"] == [float(w) for w in result.weights]
    ref = result.decision_function(X_test)
    assert np.array_equal(scores, ref)  # exactly: same rows, scale, weights and order
    classes = np.asarray(doc["classes"])
    expected = np.where(ref > 0, classes[1], classes[0])
    expected[np.abs(ref) <= 1e-9] = doc["tie_class"]  # e.g. a row sharing no feature with any x_i
    assert labels == [str(int(v)) for v in expected]
    assert np.array_equal(result.decision_function(X_test.toarray()), ref)  # dense == sparse
    # the summary's test error is the error of these predictions
    truth = load_dataset(str(test), n_features=12, index_base=data.index_base).y
    assert doc["test_error"] == pytest.approx(np.mean(expected.astype(float) != truth))


def test_saved_model_describes_kernel_hypotheses_by_training_row(tmp_path, capsys,
                                                                   libsvm_files):
    train, _ = libsvm_files
    model = tmp_path / "k.json"
    assert main(["fit", "--data", str(train), *FIT, "--json", str(model), "--quiet"]) == 0
    capsys.readouterr()
    doc = json.loads(model.read_text())
    X = load_dataset(str(train), n_features=12).X.toarray()
    s = float(np.max(np.sum(X * X, axis=1)))
    assert doc["hypotheses"]
    for h in doc["hypotheses"]:
        assert h["type"] == "kernel" and h["sign"] in (1, -1) and h["n_features"] == 12
        assert h["scale"] == s
        row = X[h["index"]]  # the stored support is that training row, sparsely
        assert h["features"] == np.flatnonzero(row).tolist()
        assert h["values"] == row[np.flatnonzero(row)].tolist()


def test_python_model_document_round_trip_bit_for_bit(libsvm_files):
    train, test = libsvm_files
    data = load_dataset(str(train), n_features=12)
    result = run(data.X, data.y, **RUN)
    doc = json.loads(json.dumps(model_document(result, data.classes, y=data.y,
                                               n_features=12)))
    saved = load_model(doc)
    X_test = load_dataset(str(test), n_features=12, index_base=data.index_base).X
    for X in (X_test, X_test.tocsr(), X_test.tocsc(), X_test.toarray()):
        assert np.array_equal(saved.decision_function(X), result.decision_function(X_test))


# -- values in [-1, 1]; clipping on new data ------------------------------------------------------


def test_values_in_range_on_training_data_and_clipped_on_new_data(libsvm_files):
    train, test = libsvm_files
    data = load_dataset(str(train), n_features=12)
    X = data.X.toarray()
    s = float(np.max(np.sum(X * X, axis=1)))
    X_new = load_dataset(str(test), n_features=12, index_base=data.index_base).X.toarray()
    oracle = make_oracle("kernel").fit(data.X, data.y)
    clipped_somewhere = False
    rng = np.random.default_rng(5)
    for _ in range(20):
        h, _ = oracle.best(rng.dirichlet(np.ones(X.shape[0])))
        x_i = X[h.index]
        raw_train = X @ x_i / s
        assert np.max(np.abs(raw_train)) <= 1.0 + 1e-12  # Cauchy-Schwarz: no clipping needed
        assert np.allclose(h.predict(data.X), h.sign * raw_train, rtol=0, atol=1e-12)
        raw_new = X_new @ x_i / s
        values = h.predict(sp.csr_matrix(X_new))
        assert np.all(np.abs(values) <= 1.0)
        assert np.allclose(values, h.sign * np.clip(raw_new, -1.0, 1.0), rtol=0, atol=1e-12)
        clipped_somewhere |= bool(np.any(np.abs(raw_new) > 1.0))
    assert clipped_somewhere  # the scaled-up test rows did leave the training range
    # the row of largest norm against itself is exactly +-1
    top = int(np.argmax(np.sum(X * X, axis=1)))
    h_top = oracle._hypothesis(top, 1)
    assert h_top.predict(X[top:top + 1])[0] == pytest.approx(1.0, abs=1e-12)


def test_predict_clips_new_data_in_the_cli(tmp_path, capsys, libsvm_files):
    train, test = libsvm_files
    model, pred = tmp_path / "k.json", tmp_path / "pred.csv"
    assert main(["fit", "--data", str(train), *FIT, "--json", str(model), "--quiet"]) == 0
    big = tmp_path / "big.t"
    X_test, y_test = _sparse_problem(1, 60)
    _write_libsvm(big, X_test * 100.0, y_test)
    assert main(["predict", "--model", str(model), "--data", str(big), "--out",
                 str(pred)]) == 0
    capsys.readouterr()
    _, scores = _read_predictions(pred)
    assert np.all(np.abs(scores) <= 1.0 + 1e-12)


# -- the edge of a kernel hypothesis, brute force -------------------------------------------------


@pytest.mark.parametrize("sparse", [True, False])
def test_edge_equals_the_dense_brute_force_edge(sparse):
    X, y = _sparse_problem(2, 90)
    s = max(float(x @ x) for x in X)
    oracle = make_oracle("kernel").fit(sp.csr_matrix(X) if sparse else X, y)
    rng = np.random.default_rng(7)
    for _ in range(10):
        d = rng.dirichlet(np.ones(X.shape[0]))
        h, u = oracle.best(d)
        # edge of h_i: sum_n d_n y_n <x_i, x_n> / s, every inner product written out densely
        plus = np.array([sum(d[n] * y[n] * float(np.dot(X[i], X[n])) for n in range(len(y)))
                         for i in range(len(y))]) / s
        edges = np.concatenate([plus, -plus])
        assert u @ d == pytest.approx(edges.max(), abs=1e-12)
        brute = h.sign * plus[h.index]
        assert u @ d == pytest.approx(brute, abs=1e-12)
        assert np.allclose(u, y * h.sign * (X @ X[h.index]) / s, rtol=0, atol=1e-12)


# -- the estimator --------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.filterwarnings("ignore::dualboost.estimator.DualBoostWarning")
def test_check_estimator_with_the_kernel_oracle():
    # Every check applies and passes. nu_frac = 0.2: scikit-learn's sample-weight check keeps
    # 9 rows of positive weight, where nu_frac = 0.1 gives nu_frac * N < 1 and the estimator's
    # documented clamp of nu to 1 differs from the repeated rows' nu = 2.7 (class docstring,
    # "nu_"); the kernel class, unlike stumps on that data, is sensitive to nu there.
    check_estimator(DualBoostClassifier(oracle="kernel", nu_frac=0.2, eps=0.1, max_iter=20))


def test_estimator_kernel_predicts_and_matches_sparse_and_saved(tmp_path):
    X, y = _sparse_problem(3, 120)
    X_new, _ = _sparse_problem(4, 40)
    labels = np.where(y > 0, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = DualBoostClassifier(oracle="kernel", nu_frac=0.2, eps=0.05).fit(X, labels)
        sparse = DualBoostClassifier(oracle="kernel", nu_frac=0.2, eps=0.05).fit(
            sp.csr_matrix(X), labels)
    assert all(isinstance(h, KernelHypothesis) for h in dense.hypotheses_)
    scores = dense.decision_function(X_new)
    s = max(float(x @ x) for x in X)
    ref = sum(w * h.sign * np.clip(X_new @ X[h.index] / s, -1, 1)
              for w, h in zip(dense.weights_, dense.hypotheses_))
    assert np.allclose(scores, ref, rtol=0, atol=1e-12)
    assert list(dense.predict(X_new)) == list(np.where(scores > 0, "yes", "no"))
    assert dense.score(X, labels) > 0.7
    assert np.array_equal(sparse.predict(X_new), dense.predict(X_new))
    assert np.allclose(sparse.decision_function(sp.csc_matrix(X_new)), scores, atol=1e-12)
    imp = dense.feature_importances_
    assert imp.shape == (12,) and imp.sum() == pytest.approx(1.0) and np.all(imp >= 0)
    path = tmp_path / "est.json"
    dense.to_json(path)
    loaded = DualBoostClassifier.from_json(path)
    assert np.array_equal(loaded.decision_function(X_new), scores)
    assert np.array_equal(loaded.feature_importances_, imp)


@pytest.mark.parametrize("oracle", ["finite", "kernels", "svm"])
def test_estimator_refuses_an_oracle_that_cannot_predict(oracle):
    X, y = _sparse_problem(3, 40)
    with pytest.raises(ValueError, match=r"oracle must be one of \('stumps', 'raw', 'kernel'[,)]"):
        DualBoostClassifier(oracle=oracle).fit(X, y)


# -- help and errors ------------------------------------------------------------------------------


def test_fit_help_states_the_scale_and_the_clipping(capsys):
    assert main(["fit", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "{stumps,raw,kernel" in text
    assert "s = max_n ||x_n||^2 over the training rows" in text
    assert "on new data clipped to [-1, 1]" in text


def test_summary_says_how_the_kernel_is_scaled(capsys, libsvm_files):
    train, _ = libsvm_files
    assert main(["fit", "--data", str(train), *FIT]) == 0
    X = load_dataset(str(train), n_features=12).X.toarray()
    s = float(np.max(np.sum(X * X, axis=1)))
    out = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert f"s = max_n ||x_n||^2 = {s:.6g}" in out


def test_kernel_oracle_refused_where_it_does_not_apply(tmp_path, capsys):
    code = main(["fit", "--data", "worst_case:8", "--oracle", "kernel", "--quiet"])
    assert code == 2
    assert "--oracle kernel does not apply" in capsys.readouterr().err
    H = tmp_path / "H.npy"
    np.save(H, np.ones((8, 2)))
    # argparse: the two weak learners exclude each other
    assert main(["fit", "--data", "worst_case:8", "--oracle", "kernel", "--hypotheses",
                 str(H)]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def _kernel_doc(tmp_path, libsvm_files, capsys) -> dict:
    train, _ = libsvm_files
    model = tmp_path / "k.json"
    assert main(["fit", "--data", str(train), *FIT, "--json", str(model), "--quiet"]) == 0
    capsys.readouterr()
    return json.loads(model.read_text())


@pytest.mark.parametrize("change, match", [
    ({"scale": 0}, r"scale must be > 0"),
    ({"scale": "14"}, r"scale must be a number"),
    ({"features": [3, 1]}, r"features must be increasing column indices below n_features"),
    ({"features": [0, 12]}, r"below n_features = 12"),
    ({"values": []}, r"two arrays of the same length"),
    ({"sign": 0}, r"sign must be 1 or -1"),
    ({"index": -1}, r"index must be an integer >= 0"),
    ({"n_features": 13}, r"kernel hypothesis has n_features 13 but the model has 12"),
])
def test_malformed_kernel_entries_are_one_line_errors(tmp_path, capsys, libsvm_files, change,
                                                      match):
    doc = _kernel_doc(tmp_path, libsvm_files, capsys)
    entry = doc["hypotheses"][0]
    if "features" in change and "values" not in change:
        entry["values"] = [1.0] * len(change["features"])
    entry.update(change)
    with pytest.raises(DualBoostInputError, match=match):
        load_model(doc)


def test_predict_checks_the_columns_a_kernel_hypothesis_reads(tmp_path, capsys, libsvm_files):
    doc = _kernel_doc(tmp_path, libsvm_files, capsys)
    model = load_model(doc)
    X = np.zeros((3, 12))
    with pytest.raises(DualBoostInputError, match="11 features but the model was trained on 12"):
        model.decision_function(X[:, :11])
    read = sorted({j for h in model.hypotheses for j in h.features})
    unread = [j for j in range(12) if j not in read]
    bad = X.copy()
    bad[0, read[0]] = np.nan
    with pytest.raises(DualBoostInputError, match="finite"):
        model.decision_function(bad)
    with pytest.raises(DualBoostInputError, match="finite"):
        model.decision_function(sp.csr_matrix(bad))
    if unread:  # a NaN in a column no hypothesis reads does not matter (as for stumps)
        ok = X.copy()
        ok[0, unread[0]] = np.nan
        assert np.all(np.isfinite(model.decision_function(ok)))


def test_a9a_kernel_fit_and_predict_stay_sparse(tmp_path, capsys):
    """The thesis's a9a set (29,305 x 123, 14 ones per row): s = 14, and the CLI's saved model
    predicts a9a.test exactly as the fit's own result does."""
    from dualboost.data import shared_data_dir

    root = shared_data_dir()
    if root is None or not (root / "a9a.train").is_file() or not (root / "a9a.test").is_file():
        pytest.skip("shared data (a9a.train, a9a.test) not available")
    model, pred = tmp_path / "a9a.json", tmp_path / "pred.csv"
    args = ["--oracle", "kernel", "--nu-frac", "0.2", "--eps", "0.05", "--n-features", "123"]
    assert main(["fit", "--data", str(root / "a9a.train"), *args, "--json", str(model),
                 "--quiet"]) in (0, 3)
    assert main(["predict", "--model", str(model), "--data", str(root / "a9a.test"),
                 "--out", str(pred)]) == 0
    capsys.readouterr()
    doc = json.loads(model.read_text())
    assert {h["scale"] for h in doc["hypotheses"]} == {14.0}
    _, scores = _read_predictions(pred)
    train = load_dataset(str(root / "a9a.train"), n_features=123)
    X_test = load_dataset(str(root / "a9a.test"), n_features=123,
                          index_base=train.index_base).X
    assert sp.issparse(train.X) and sp.issparse(X_test)
    ref = np.zeros(X_test.shape[0])
    dense_rows = {}
    for w, h in zip(doc["weights"], doc["hypotheses"]):  # written out from the stored rows
        x_i = np.zeros(123)
        x_i[h["features"]] = h["values"]
        dense_rows[h["index"]] = x_i
        ref = ref + w * h["sign"] * np.clip(X_test @ x_i / 14.0, -1, 1)
    assert np.allclose(scores, ref, rtol=0, atol=1e-12)
    for i, x_i in dense_rows.items():  # each stored row is that training row
        assert np.array_equal(train.X[i].toarray().ravel(), x_i)


def test_list_names_every_oracle_with_the_kernel_scale(capsys):
    from dualboost.oracles import ORACLE_NAMES

    assert main(["list", "--json"]) == 0
    oracles = {o["name"]: o for o in json.loads(capsys.readouterr().out)["oracles"]}
    assert set(oracles) == set(ORACLE_NAMES)
    assert "s = max_n ||x_n||^2" in oracles["kernel"]["summary"]
    assert oracles["kernel"]["predicts_new_data"] and not oracles["finite"]["predicts_new_data"]
    assert main(["list"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Oracles (dualboost fit --oracle NAME" in out and "kernel SVM hypotheses" in out


def test_estimator_from_a_cli_kernel_model(tmp_path, capsys, libsvm_files):
    """A 'dualboost fit --json' kernel model loads as an estimator that predicts like
    'dualboost predict' and refits with the same oracle."""
    train, test = libsvm_files
    model, pred = tmp_path / "k.json", tmp_path / "pred.csv"
    assert main(["fit", "--data", str(train), *FIT, "--json", str(model), "--quiet"]) == 0
    assert main(["predict", "--model", str(model), "--data", str(test), "--out",
                 str(pred)]) == 0
    capsys.readouterr()
    _, scores = _read_predictions(pred)
    est = DualBoostClassifier.from_json(model)
    X_test = load_dataset(str(test), n_features=12).X
    assert est.get_params()["oracle"] == "kernel" and est.n_features_in_ == 12
    assert np.array_equal(est.decision_function(X_test), scores)
