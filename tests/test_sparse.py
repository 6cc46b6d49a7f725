"""Sparse data end to end (issue 8, item 4): LIBSVM input stays scipy.sparse, and the stump and
raw oracles on a sparse X are the oracles of its dense copy ``X.toarray()``.

The dense oracles are checked against brute-force enumeration in tests/test_oracles.py; here the
sparse paths are compared with them (and with a brute-force maximum) on random sparse matrices
with negative values, repeated values and all-zero columns. Weights ``d`` that are multiples of
2^-10 make every edge sum exact in floating point, so on those the two paths must agree bit for
bit, ties included; on general weights the edges agree to rounding and the hypotheses agree
whenever the maximum is not a tie up to rounding.
"""

from __future__ import annotations

import contextlib
import io
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import dump_svmlight_file

from dualboost.api import run
from dualboost.cli import main
from dualboost.data import load_dataset, shared_data_dir, validate_features
from dualboost.errors import DualBoostInputError
from dualboost.estimator import DualBoostClassifier
from dualboost.oracles import (
    Column,
    FiniteColumnOracle,
    RawFeature,
    RawFeatureOracle,
    Stump,
    StumpOracle,
)
from dualboost.oracles.base import as_feature_matrix

SETTINGS = settings(max_examples=150, deadline=None)
FORMATS = ("csr", "csc", "coo")
VALUES = (-2.5, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 3.0, 7.25)


@st.composite
def sparse_problems(draw):
    """(sparse X, dense copy, y) with negatives, repeats, all-zero and all-nonzero columns."""
    n = draw(st.integers(1, 12))
    f = draw(st.integers(1, 6))
    X = np.array(draw(st.lists(st.sampled_from(VALUES), min_size=n * f, max_size=n * f)),
                 dtype=float).reshape(n, f)
    zero_cols = draw(st.lists(st.booleans(), min_size=f, max_size=f))
    X[:, np.array(zero_cols)] = 0.0
    if draw(st.booleans()):  # a column with no implicit zero
        X[:, draw(st.integers(0, f - 1))] = draw(st.sampled_from((-1.0, 2.0)))
    y = np.array(draw(st.lists(st.sampled_from((-1.0, 1.0)), min_size=n, max_size=n)))
    Xs = sp.csr_matrix(X).asformat(draw(st.sampled_from(FORMATS)))
    return Xs, X, y


def weights(data, n: int, exact: bool) -> np.ndarray:
    if exact:  # multiples of 2**-10: every partial sum below is exact
        ints = data.draw(st.lists(st.integers(0, 1024), min_size=n, max_size=n))
        return np.array(ints, dtype=float) / 1024.0
    vals = data.draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n))
    return np.array(vals)


def check_same_best(sparse_oracle, dense_oracle, d: np.ndarray, exact: bool) -> None:
    hs, us = sparse_oracle.best(d)
    hd, ud = dense_oracle.best(d)
    if exact:
        assert hs == hd
        np.testing.assert_array_equal(us, ud)
        return
    # Independent maximum: brute force over every distinct column of the class.
    U, hyps = dense_oracle.all_columns()
    edges = d @ U
    top = edges.max()
    assert us @ d == pytest.approx(top, abs=1e-12)
    assert ud @ d == pytest.approx(top, abs=1e-12)
    if np.count_nonzero(edges >= top - 1e-12) == 1:  # one best column, up to rounding
        # Several hypotheses may give that column (e.g. two features splitting the examples
        # alike, with edges that are equal sums in different orders): both oracles return the
        # first in the enumeration order, the one all_columns() keeps.
        assert hs == hd == hyps[int(np.argmax(edges))]
        np.testing.assert_array_equal(us, ud)


# ------------------------------------------------------------------ oracles


@SETTINGS
@given(prob=sparse_problems(), data=st.data(), exact=st.booleans())
def test_sparse_stumps_equal_dense(prob, data, exact):
    Xs, X, y = prob
    sparse_oracle = StumpOracle().fit(Xs, y)
    dense_oracle = StumpOracle().fit(X, y)
    assert sp.issparse(sparse_oracle._X)
    Us, hs = sparse_oracle.all_columns()
    Ud, hd = dense_oracle.all_columns()
    assert hs == hd  # same class, same enumeration order
    np.testing.assert_array_equal(Us, Ud)
    for _ in range(3):
        check_same_best(sparse_oracle, dense_oracle, weights(data, len(y), exact), exact)


@SETTINGS
@given(prob=sparse_problems(), data=st.data(), exact=st.booleans(),
       shift=st.sampled_from((0.0, 0.5, -4.0)))
def test_sparse_raw_equal_dense(prob, data, exact, shift):
    Xs, X, y = prob
    # A shift moves the zeros away from the middle of some ranges (z_j(0) != 0).
    X = X + shift * (X != 0)
    Xs = sp.csr_matrix(X).asformat(Xs.format)
    sparse_oracle = RawFeatureOracle().fit(Xs, y)
    dense_oracle = RawFeatureOracle().fit(X, y)
    Us, hs = sparse_oracle.all_columns()
    Ud, hd = dense_oracle.all_columns()
    assert hs == hd
    np.testing.assert_array_equal(Us, Ud)
    # Raw edges involve divisions, so weights on a grid do not make them exact: compare values.
    d = weights(data, len(y), exact)
    Z = np.column_stack([RawFeature(j, 1, X[:, j].min(), X[:, j].max()).predict(X)
                         for j in range(X.shape[1])])
    np.testing.assert_allclose(sparse_oracle._edges(d * y), (d * y) @ Z, rtol=0, atol=1e-12)
    check_same_best(sparse_oracle, dense_oracle, d, exact=False)


def test_stump_ties_between_equal_sparse_features():
    """Equal features give bit-identical edges: the first one wins, as on the dense copy."""
    rng = np.random.default_rng(3)
    col = (rng.random(40) < 0.3) * rng.choice([-2.0, 1.0, 5.0], size=40)
    X = np.column_stack([np.zeros(40), col, col, 2.0 * col])
    y = np.where(rng.random(40) < 0.5, -1.0, 1.0)
    sparse_oracle = StumpOracle().fit(sp.csc_matrix(X), y)
    dense_oracle = StumpOracle().fit(X, y)
    for _ in range(50):
        d = rng.random(40)
        hs, _ = sparse_oracle.best(d)
        assert hs.feature != 2  # feature 2 equals feature 1, which comes first
        hd, _ = dense_oracle.best(d)
        if hd.feature in (1, 2):
            assert hs == hd


@pytest.mark.parametrize("cls", [StumpOracle, RawFeatureOracle])
def test_equal_columns_of_complementary_features_give_the_first(cls):
    """A 0/1 feature and its complement have the same columns (with opposite signs); their edges
    are computed from different entries and differ by rounding, yet both paths return the
    hypothesis of the first feature, the one all_columns() keeps."""
    rng = np.random.default_rng(11)
    x = (rng.random(300) < 0.4).astype(float)
    X = np.column_stack([x, 1.0 - x])
    y = np.where(x + 0.2 * rng.normal(size=300) > 0.5, 1.0, -1.0)
    for oracle in (cls().fit(X, y), cls().fit(sp.csr_matrix(X), y)):
        _, hyps = oracle.all_columns()
        for _ in range(30):
            h, _ = oracle.best(rng.dirichlet(np.ones(300)))
            assert h.feature == 0 and h in hyps


def test_sparse_oracles_never_densify():
    """fit + best on a 40,000 x 500 matrix with 0.1% nonzeros: the dense copy alone would be
    160 MB, the dense oracle's tables about 3x that; the sparse paths stay at O(nnz + N + F)."""
    rng = np.random.default_rng(0)
    n, f = 40_000, 500
    Xs = sp.random(n, f, density=0.001, format="csr", random_state=1,
                   data_rvs=lambda k: rng.choice([-1.0, 1.0, 2.0], size=k))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    d = np.full(n, 1.0 / n)
    for oracle in (StumpOracle(), RawFeatureOracle()):
        tracemalloc.start()
        oracle.fit(Xs, y)
        oracle.best(d)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak < 20e6, (type(oracle).__name__, peak)


def test_stump_structure_for_binary_features():
    """A 0/1 feature has exactly one split; the splits are counted independently."""
    rng = np.random.default_rng(5)
    X = (rng.random((200, 30)) < 0.2).astype(float)
    X[:, 4] = 0.0
    oracle = StumpOracle().fit(sp.csr_matrix(X), np.where(rng.random(200) < 0.5, -1.0, 1.0))
    n_splits = sum(len(np.unique(X[:, j])) - 1 for j in range(30))
    assert oracle._sparse.split_group.size == n_splits == 29


def test_hypotheses_predict_on_sparse():
    rng = np.random.default_rng(2)
    X = (rng.random((30, 5)) < 0.4) * rng.normal(size=(30, 5))
    for fmt in FORMATS:
        Xs = sp.csr_matrix(X).asformat(fmt)
        for h in (Stump(2, 0.1, -1), Stump(0, -np.inf, 1), RawFeature(3, 1, -1.0, 2.0),
                  Column(1, n_columns=5)):
            np.testing.assert_array_equal(h.predict(Xs), h.predict(X))
    with pytest.raises(DualBoostInputError, match="at least 7 column"):
        Stump(6, 0.0, 1).predict(sp.csr_matrix(X))
    bad = sp.csr_matrix(X)
    bad.data[0] = np.nan
    col = int(bad.indices[0])
    with pytest.raises(DualBoostInputError, match="must be finite"):
        Stump(col, 0.0, 1).predict(bad)


def test_sparse_input_validation():
    X = sp.coo_matrix(([1.0, 2.0, 0.0], ([0, 0, 1], [1, 1, 0])), shape=(3, 2))
    Xc = as_feature_matrix(X)  # duplicates summed, stored zero dropped, CSC float64
    assert Xc.format == "csc" and Xc.dtype == np.float64 and Xc.nnz == 1
    np.testing.assert_array_equal(Xc.toarray(), X.toarray())
    assert X.nnz == 3  # the caller's matrix is untouched
    bad = sp.csr_matrix(np.array([[0.0, np.inf], [1.0, 0.0]]))
    with pytest.raises(DualBoostInputError, match="finite"):
        as_feature_matrix(bad)
    with pytest.raises(DualBoostInputError, match="at least one row"):
        as_feature_matrix(sp.csr_matrix((0, 3)))
    with pytest.raises(DualBoostInputError, match=r"first at row 1, column 0"):
        validate_features(sp.csc_matrix(np.array([[0.0, 1.0], [np.nan, 0.0]])))
    V = validate_features(sp.coo_matrix(np.eye(3, dtype=int)))
    assert sp.issparse(V) and V.format == "csr" and V.dtype == np.float64
    # the finite oracle takes a sparse X for its row count
    H = np.ones((3, 2))
    FiniteColumnOracle(H).fit(sp.eye(3, format="csr"), np.ones(3))
    with pytest.raises(DualBoostInputError, match="3 rows"):
        FiniteColumnOracle(H).fit(sp.eye(4, format="csr"), np.ones(3))


# ------------------------------------------------------------------ loading


def _svm_file(path: Path, X: np.ndarray, y: np.ndarray) -> Path:
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return path


def test_libsvm_stays_sparse_and_n_features(tmp_path):
    X = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, -1.5], [0.0, 0.0, 3.0], [1.0, 1.0, 0.0]])
    y = np.array([1, -1, 1, -1])
    p = _svm_file(tmp_path / "d.svm", X, y)
    ds = load_dataset(str(p))
    assert sp.issparse(ds.X) and ds.X.format == "csr" and ds.X.dtype == np.float64
    assert ds.X.nnz == np.count_nonzero(X)
    np.testing.assert_array_equal(ds.X.toarray(), X)
    wide = load_dataset(str(p), n_features=5)  # padded with zero columns
    assert wide.X.shape == (4, 5) and wide.F == 5 and len(wide.feature_names) == 5
    assert sp.issparse(wide.X)
    np.testing.assert_array_equal(wide.X.toarray()[:, :3], X)
    assert wide.X[:, 3:].nnz == 0
    assert load_dataset(str(p), n_features=3).X.shape == (4, 3)
    with pytest.raises(DualBoostInputError, match=r"above n_features=2") as ei:
        load_dataset(str(p), n_features=2)
    assert "\n" not in str(ei.value)
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(DualBoostInputError, match="positive integer"):
            load_dataset(str(p), n_features=bad)


def test_n_features_only_for_libsvm(tmp_path):
    csv = tmp_path / "d.csv"
    csv.write_text("a,b,y\n1,2,0\n3,4,1\n")
    with pytest.raises(DualBoostInputError, match="only to LIBSVM"):
        load_dataset(str(csv), n_features=3)
    with pytest.raises(DualBoostInputError, match="only to LIBSVM"):
        load_dataset("breast_cancer", n_features=30)
    assert not sp.issparse(load_dataset(str(csv)).X)  # CSV and built-ins stay dense


def test_cli_n_features(tmp_path):
    rng = np.random.default_rng(4)
    X = (rng.random((40, 6)) < 0.4) * rng.choice([-1.0, 1.0, 2.0], size=(40, 6))
    X[:, 5] = 0.0  # the file's largest index is 5
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 1, -1)
    p = _svm_file(tmp_path / "train.svm", X, y)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["fit", "--data", str(p), "--n-features", "8", "--formulation", "lpboost",
                     "--nu-frac", "0.3", "--quiet"])
    assert code == 0, err.getvalue()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["fit", "--data", str(p), "--n-features", "3", "--quiet"])
    assert code == 2 and "above n_features=3" in err.getvalue()


# ------------------------------------------------------------------ end to end


def _mixed_problem(n: int = 80) -> tuple[np.ndarray, np.ndarray]:
    """0/1, negative, all-zero and continuous sparse features; labels that depend on them."""
    rng = np.random.default_rng(7)
    X = np.column_stack([
        (rng.random(n) < 0.3).astype(float),
        (rng.random(n) < 0.5) * rng.choice([-2.0, -1.0, 1.0, 3.0], size=n),
        np.zeros(n),
        (rng.random(n) < 0.4) * rng.normal(size=n),
        (rng.random(n) < 0.6).astype(float),
    ])
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + X[:, 3] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("oracle, nu_frac", [("stumps", 0.5), ("raw", 0.5)])
def test_run_sparse_equals_dense(oracle, nu_frac):
    """ERLPBoost (strictly convex: its d is unique) takes the same steps on sparse X as on its
    dense copy where no two stumps tie (see the next test for a run where they do)."""
    X, y = _mixed_problem()
    kw = dict(formulation="erlpboost", nu_frac=nu_frac, eps=0.01, oracle=oracle, kkt=False)
    dense = run(X, y, **kw)
    sparse = run(sp.csr_matrix(X), y, **kw)
    assert sparse.iterations == dense.iterations
    assert sparse.hypotheses == dense.hypotheses
    assert sparse.soft_margin == pytest.approx(dense.soft_margin, abs=1e-9)
    np.testing.assert_allclose(sparse.decision_function(sp.csc_matrix(X)),
                               dense.decision_function(X), atol=1e-9)


def test_run_sparse_with_tied_stumps_certified_like_dense():
    """At nu = 0.2 N the first ERLPBoost solve puts all mass on 22 capped examples (d = 1/22
    there, 1e-281 elsewhere), and two different stumps then have edges equal to the last bit
    but computed in another order by the two oracles: rounding picks the winner, the paths
    differ, and both runs must still converge within eps of each other's margin."""
    X, y = _mixed_problem()
    kw = dict(formulation="erlpboost", nu_frac=0.2, eps=0.01, kkt=False)
    dense = run(X, y, **kw)
    sparse = run(sp.csr_matrix(X), y, **kw)
    assert dense.status == sparse.status == "converged"
    assert sparse.soft_margin == pytest.approx(dense.soft_margin, abs=0.01)


def test_run_lpboost_sparse_certified_like_dense():
    """LPBoost's d is an LP vertex, where different stumps often have exactly equal edges (a tie
    rounding decides, so the paths may differ); both runs still certify the same optimum."""
    X, y = _mixed_problem()
    kw = dict(formulation="lpboost", nu_frac=0.2, eps=0.01, kkt=False)
    dense = run(X, y, **kw)
    sparse = run(sp.csr_matrix(X), y, **kw)
    assert dense.status == sparse.status == "converged"
    assert sparse.soft_margin == pytest.approx(dense.soft_margin, abs=0.01)


def test_estimator_sparse_equals_dense():
    rng = np.random.default_rng(8)
    X = (rng.random((90, 6)) < 0.35) * rng.choice([-1.0, 1.0, 4.0], size=(90, 6))
    y = np.where(X[:, 1] + X[:, 2] + 0.5 * rng.normal(size=90) > 0, "yes", "no")
    dense = DualBoostClassifier(nu_frac=0.2).fit(X, y)
    for fmt in ("csr", "csc"):
        sparse = DualBoostClassifier(nu_frac=0.2).fit(
            sp.csr_matrix(X).asformat(fmt), y)
        assert sparse.n_iter_ == dense.n_iter_
        assert sparse.soft_margin_ == pytest.approx(dense.soft_margin_, abs=1e-9)
        np.testing.assert_array_equal(sparse.predict(sp.csr_matrix(X)), dense.predict(X))
        np.testing.assert_allclose(sparse.decision_function(sp.csc_matrix(X)),
                                   dense.decision_function(X), atol=1e-9)


# ------------------------------------------------------------------ a9a (shared data)


def _a9a(name: str) -> Path:
    root = shared_data_dir()
    if root is None or not (root / name).is_file():
        pytest.skip(f"shared data ({name}) not available: shared_data_dir() is None or no file")
    return root / name


def test_a9a_loads_sparse_with_common_width():
    train = load_dataset(str(_a9a("a9a.train")))
    # a9a has 123 binary features; the training file never uses index 123.
    assert sp.issparse(train.X) and train.X.shape == (29305, 122)
    train = load_dataset(str(_a9a("a9a.train")), n_features=123)
    assert sp.issparse(train.X) and train.X.shape == (29305, 123)
    assert set(np.unique(train.X.data)) == {1.0}
    test = load_dataset(str(_a9a("a9a.test")), n_features=123)
    assert sp.issparse(test.X) and test.X.shape == (9769, 123)


def test_a9a_sparse_stumps_match_dense():
    train = load_dataset(str(_a9a("a9a.train")), n_features=123)
    X = train.X[:8000]  # a slice keeps the dense copy and the dense oracle quick
    y = train.y[:8000]
    sparse_oracle = StumpOracle().fit(X, y)
    dense_oracle = StumpOracle().fit(X.toarray(), y)
    rng = np.random.default_rng(0)
    Us, hyps = sparse_oracle.all_columns()
    for exact in (True, True, False, False, False):
        if exact:  # multiples of 2^-19: exact sums
            d = rng.integers(0, 64, size=8000) / 2.0**19
        else:  # features 73 and 74 (female / male) are complements: equal columns, and
            d = rng.dirichlet(np.ones(8000))  # equal edges up to rounding
        hs, us = sparse_oracle.best(d)
        hd, ud = dense_oracle.best(d)
        assert hs == hd and hs in hyps
        np.testing.assert_array_equal(us, ud)
    n_splits = sum(np.unique(X[:, [j]].toarray()).size - 1 for j in range(X.shape[1]))
    assert Us.shape == (8000, len(hyps))
    assert len(hyps) <= 2 + 2 * n_splits
