"""Oracles return the exact maximum-edge hypothesis: checked against brute-force enumeration."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dualboost.errors import DualBoostInputError
from dualboost.oracles import (
    Column,
    FiniteColumnOracle,
    RawFeature,
    RawFeatureOracle,
    Stump,
    StumpOracle,
    make_oracle,
)

SETTINGS = settings(max_examples=150, deadline=None)


# --- brute force, written independently of the oracles -------------------------------------


def brute_stump_columns(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Every stump column, thresholds at -inf and at each distinct value (same partitions)."""
    cols = []
    for j in range(X.shape[1]):
        for theta in [-np.inf, *sorted(set(X[:, j].tolist()))]:
            h = np.array([1.0 if v > theta else -1.0 for v in X[:, j]])
            cols.append(y * h)
            cols.append(-y * h)
    return np.array(cols).T


def brute_raw_columns(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    cols = []
    for j in range(X.shape[1]):
        lo, hi = X[:, j].min(), X[:, j].max()
        z = np.zeros(len(X)) if hi == lo else 2.0 * (X[:, j] - lo) / (hi - lo) - 1.0
        cols.append(y * z)
        cols.append(-y * z)
    return np.array(cols).T


def column_set(U: np.ndarray) -> set[tuple[float, ...]]:
    return {tuple(row) for row in (U.T + 0.0).tolist()}  # + 0.0 maps -0.0 to 0.0


def assert_same_columns(A: np.ndarray, B: np.ndarray, atol: float) -> None:
    """Every column of A is within atol of some column of B, and vice versa."""
    for P, Q in ((A, B), (B, A)):
        gaps = np.abs(P[:, :, None] - Q[:, None, :]).max(axis=0)
        assert np.all(gaps.min(axis=1) <= atol)


# --- strategies --------------------------------------------------------------------------------


@st.composite
def problems(draw, max_n: int = 9, max_f: int = 4, values=None):
    """(X, y, d): small integer-valued features (many ties), labels, a distribution."""
    n = draw(st.integers(1, max_n))
    f = draw(st.integers(1, max_f))
    values = st.integers(-3, 3) if values is None else values
    X = np.array(draw(st.lists(st.lists(values, min_size=f, max_size=f),
                               min_size=n, max_size=n)), dtype=float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    # Small integer weights make exact ties between edges common.
    w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
    d = w / w.sum() if w.sum() > 0 else np.full(n, 1.0 / n)
    return X, y, d


def check_best(oracle, X, y, d, brute_U):
    h, u = oracle.best(d)
    best_edge = float(np.max(brute_U.T @ d))
    assert u.shape == (len(y),) and u.dtype == float
    np.testing.assert_array_equal(u, y * h.predict(X))
    assert abs(float(u @ d) - best_edge) <= 1e-12
    return h, u


# --- stumps ----------------------------------------------------------------------------------


@SETTINGS
@given(problems())
def test_stump_best_matches_brute_force(prob):
    X, y, d = prob
    oracle = StumpOracle().fit(X, y)
    h, _ = check_best(oracle, X, y, d, brute_stump_columns(X, y))
    assert isinstance(h, Stump)


@SETTINGS
@given(problems(values=st.floats(-1e3, 1e3, allow_nan=False, width=32)))
def test_stump_best_matches_brute_force_float_features(prob):
    X, y, d = prob
    check_best(StumpOracle().fit(X, y), X, y, d, brute_stump_columns(X, y))


@SETTINGS
@given(problems())
def test_stump_all_columns_distinct_and_complete(prob):
    X, y, _ = prob
    U, hyps = StumpOracle().fit(X, y).all_columns()
    assert U.shape == (len(y), len(hyps))
    assert len(column_set(U)) == U.shape[1]
    assert column_set(U) == column_set(brute_stump_columns(X, y))
    for k, h in enumerate(hyps):
        np.testing.assert_array_equal(U[:, k], y * h.predict(X))


def test_stump_adjacent_floats_and_huge_values_split_correctly():
    a = 1.0
    b = np.nextafter(a, 2.0)
    X = np.array([[a, -1e308], [b, 1e308], [b, 1e308]])
    y = np.array([-1.0, 1.0, 1.0])
    oracle = StumpOracle().fit(X, y)
    U, hyps = oracle.all_columns()
    assert column_set(U) == column_set(brute_stump_columns(X, y))
    h, u = oracle.best(np.full(3, 1 / 3))
    np.testing.assert_array_equal(u, np.ones(3))  # perfect split: edge 1
    assert not h.is_constant


def test_stump_ties_break_to_first_in_order():
    X = np.array([[0.0, 5.0], [1.0, 6.0]])
    y = np.array([1.0, 1.0])
    h, _ = StumpOracle().fit(X, y).best(np.array([0.5, 0.5]))
    # Only the constant +1, enumerated first, reaches edge 1.
    assert h == Stump(0, -np.inf, 1)
    assert h.describe() == {"type": "stump", "feature": 0, "threshold": None, "sign": 1}
    y = np.array([-1.0, 1.0])
    h, _ = StumpOracle().fit(X, y).best(np.array([0.5, 0.5]))
    assert h == Stump(0, 0.5, 1)  # feature 1 splits equally well but comes later
    X = np.array([[0.0, 6.0], [1.0, 5.0]])
    y = np.array([1.0, -1.0])
    oracle = StumpOracle().fit(X, y)
    # Sign -1 on feature 0 ties with sign +1 on feature 1: the earlier feature wins.
    assert oracle.best(np.array([0.5, 0.5]))[0] == Stump(0, 0.5, -1)
    assert oracle.best(np.zeros(2))[0] == Stump(0, -np.inf, 1)


@SETTINGS
@given(problems(), st.data())
def test_stump_ties_follow_all_columns_order(prob, data):
    X, y, _ = prob
    # Integer weights keep every edge exact, so ties are real ties.
    d = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(y), max_size=len(y))),
                 dtype=float)
    oracle = StumpOracle().fit(X, y)
    U, hyps = oracle.all_columns()
    edges = U.T @ d
    assert oracle.best(d)[0] == hyps[int(np.argmax(edges))]


# --- raw features -------------------------------------------------------------------------------


@SETTINGS
@given(problems(values=st.floats(-100, 100, allow_nan=False)))
def test_raw_best_matches_brute_force(prob):
    X, y, d = prob
    oracle = RawFeatureOracle().fit(X, y)
    h, _ = check_best(oracle, X, y, d, brute_raw_columns(X, y))
    assert isinstance(h, RawFeature)
    U, hyps = oracle.all_columns()
    assert len(column_set(U)) == U.shape[1] == len(hyps)
    assert_same_columns(U, brute_raw_columns(X, y), 1e-12)


def test_raw_predict_is_clipped_on_new_data():
    X = np.array([[0.0, 3.0], [2.0, 3.0], [4.0, 3.0]])
    y = np.array([1.0, -1.0, 1.0])
    oracle = RawFeatureOracle().fit(X, y)
    U, hyps = oracle.all_columns()
    # Feature 1 is constant: +z and -z are both the zero column, kept once.
    assert U.shape[1] == 3
    h = RawFeature(0, 1, 0.0, 4.0)
    np.testing.assert_array_equal(h.predict(X), [-1.0, 0.0, 1.0])
    X_new = np.array([[-1e308, 0.0], [-5.0, 0.0], [1.0, 0.0], [9.0, 0.0], [1e308, 0.0]])
    p = h.predict(X_new)
    np.testing.assert_array_equal(p, [-1.0, -1.0, -0.5, 1.0, 1.0])
    p_neg = RawFeature(0, -1, 0.0, 4.0).predict(X_new)
    np.testing.assert_array_equal(p_neg, -p)
    np.testing.assert_array_equal(RawFeature(1, 1, 3.0, 3.0).predict(X_new), np.zeros(5))


# --- finite matrix -------------------------------------------------------------------------------


@st.composite
def finite_problems(draw):
    n = draw(st.integers(1, 8))
    j = draw(st.integers(1, 6))
    # A coarse grid of values makes duplicated columns and tied edges likely.
    H = np.array(draw(st.lists(st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.5, 1.0]),
                                        min_size=j, max_size=j), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
    d = w / w.sum() if w.sum() > 0 else np.full(n, 1.0 / n)
    return H, y, d


@SETTINGS
@given(finite_problems())
def test_finite_best_matches_brute_force(prob):
    H, y, d = prob
    oracle = FiniteColumnOracle(H).fit(None, y)
    h, u = check_best(oracle, H, y, d, y[:, None] * H)
    np.testing.assert_array_equal(u, y * H[:, h.index])
    # Ties between identical columns go to the first of them.
    assert not any(np.array_equal(H[:, k], H[:, h.index]) for k in range(h.index))
    U, hyps = oracle.all_columns()
    assert len(column_set(U)) == U.shape[1] == len(hyps)
    assert column_set(U) == column_set(y[:, None] * H)
    # Keeps the first of duplicated columns.
    first = {}
    for k in range(H.shape[1]):
        first.setdefault(tuple((y * H[:, k] + 0.0).tolist()), k)
    assert [h.index for h in hyps] == sorted(first.values())


def test_finite_column_predict_reads_and_clips():
    H = np.array([[1.0, -0.5], [0.25, 0.0]])
    oracle = make_oracle("finite", H).fit(np.zeros((2, 7)), np.array([1.0, -1.0]))
    h, u = oracle.best(np.array([0.0, 1.0]))  # edges -0.25 and 0
    assert h == Column(1, n_columns=2)
    np.testing.assert_array_equal(u, [-0.5, -0.0])
    np.testing.assert_array_equal(h.predict(np.array([[0.0, 3.0], [0.0, -2.0], [9.0, 0.3]])),
                                  [1.0, -1.0, 0.3])
    with pytest.raises(DualBoostInputError, match="exactly 2 column"):
        h.predict(np.zeros((3, 5)))


# --- common contract -----------------------------------------------------------------------------


def _fitted_oracles():
    X = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    y = np.array([1.0, -1.0, 1.0])
    H = np.array([[1.0, 0.0], [-1.0, 0.5], [0.2, -1.0]])
    return X, y, [StumpOracle().fit(X, y), RawFeatureOracle().fit(X, y),
                  FiniteColumnOracle(H).fit(X, y)]


def test_hypotheses_pickle_repr_and_json():
    X, y, oracles = _fitted_oracles()
    d = np.array([0.2, 0.5, 0.3])
    for oracle in oracles:
        _, hyps = oracle.all_columns()
        for h in hyps:
            again = pickle.loads(pickle.dumps(h))
            assert again == h and repr(again) == repr(h)
            assert type(h).__name__ in repr(h)
            json.dumps(h.describe(), allow_nan=False)
        h, u = oracle.best(d)
        assert pickle.loads(pickle.dumps(oracle)).best(d)[0] == h


def test_make_oracle_names():
    assert isinstance(make_oracle("stumps"), StumpOracle)
    assert isinstance(make_oracle("raw"), RawFeatureOracle)
    assert make_oracle("stumps").name == "stumps"
    with pytest.raises(DualBoostInputError, match="stumps, raw, finite"):
        make_oracle("trees")
    with pytest.raises(DualBoostInputError, match="hypothesis matrix"):
        make_oracle("finite")
    with pytest.raises(DualBoostInputError):
        make_oracle("raw", hypotheses=np.zeros((2, 2)))


X_OK = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 0.0]])
Y_OK = np.array([1.0, -1.0, 1.0])


@pytest.mark.parametrize("make", [StumpOracle, RawFeatureOracle])
@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        (np.array([[0.0, np.nan], [1.0, 2.0], [2.0, 0.0]]), Y_OK, "finite"),
        (np.array([[0.0, np.inf], [1.0, 2.0], [2.0, 0.0]]), Y_OK, "finite"),
        (X_OK, np.array([1.0, 0.0, 1.0]), "only -1 and \\+1"),
        (X_OK, np.array([1.0, 2.0, -1.0]), "only -1 and \\+1"),
        (X_OK, np.array([1.0, -1.0]), "shape"),
        (X_OK, Y_OK[:, None], "shape"),
        (X_OK[:, 0], Y_OK, "2-D"),
        (np.zeros((3, 0)), Y_OK, "at least one"),
        (np.zeros((0, 2)), np.zeros(0), "at least one"),
        ([["a", 1.0]] * 3, Y_OK, "numeric"),
        (None, Y_OK, "required"),
    ],
)
def test_bad_inputs_raise(make, X, y, match):
    with pytest.raises(DualBoostInputError, match=match) as info:
        make().fit(X, y)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("H", "match"),
    [
        (np.array([[0.0, 1.5], [0.0, 0.0]]), r"\[-1, 1\], got range \[0, 1.5\]"),
        (np.array([[0.0, np.nan], [0.0, 0.0]]), "finite"),
        (np.zeros(3), "2-D"),
        (np.zeros((3, 0)), "2-D"),
    ],
)
def test_bad_hypothesis_matrix_raises(H, match):
    with pytest.raises(DualBoostInputError, match=match):
        FiniteColumnOracle(H)


def test_finite_fit_checks_shapes():
    oracle = FiniteColumnOracle(np.zeros((3, 2)))
    with pytest.raises(DualBoostInputError, match="y must have shape"):
        oracle.fit(None, np.ones(4))
    with pytest.raises(DualBoostInputError, match="3 rows"):
        oracle.fit(np.zeros((4, 2)), Y_OK)


def test_bad_d_and_unfitted():
    _, _, oracles = _fitted_oracles()
    for oracle in oracles:
        for d in (np.ones(2) / 2, np.array([0.5, np.nan, 0.5]), np.ones((3, 1))):
            with pytest.raises(DualBoostInputError, match="d must"):
                oracle.best(d)
    for oracle in (StumpOracle(), RawFeatureOracle(), FiniteColumnOracle(np.zeros((3, 1)))):
        with pytest.raises(DualBoostInputError, match="not fitted"):
            oracle.best(np.ones(3) / 3)
        with pytest.raises(DualBoostInputError, match="not fitted"):
            oracle.all_columns()


def test_predict_checks_input():
    with pytest.raises(DualBoostInputError, match="at least 3 column"):
        Stump(2, 0.5, 1).predict(np.zeros((4, 2)))
    with pytest.raises(DualBoostInputError, match="finite"):
        RawFeature(0, 1, 0.0, 1.0).predict(np.array([[np.nan]]))
    with pytest.raises(DualBoostInputError, match="2-D"):
        Stump(0, 0.5, 1).predict(np.zeros(4))


# --- candidates (LPBoost's multiple pricing) ----------------------------------------------------


def brute_feature_best(X: np.ndarray, y: np.ndarray, d: np.ndarray, j: int):
    """Feature j's non-constant stump columns of largest edge, and that edge (None: no split)."""
    values = sorted(set(X[:, j].tolist()))[:-1]  # a threshold at the largest value is constant
    cols = [s * y * np.where(X[:, j] > theta, 1.0, -1.0) for theta in values for s in (1, -1)]
    if not cols:
        return [], None
    edges = np.array([c @ d for c in cols])
    top = edges.max()
    return [c for c, e in zip(cols, edges) if e == top], top


@SETTINGS
@given(problems(max_f=5), st.data())
def test_stump_candidates_are_the_best_of_each_feature(prob, data):
    import scipy.sparse as sp

    X, y, _ = prob
    # integer weights: every edge exact, so ties are real and dense == sparse bit for bit
    d = np.array(data.draw(st.lists(st.integers(0, 4), min_size=len(y), max_size=len(y))),
                 dtype=float)
    oracle = StumpOracle().fit(X, y)
    found = oracle.candidates(d)
    h0, u0 = oracle.best(d)
    assert found[0][0] == h0 and np.array_equal(found[0][1], u0)
    edges = [float(u @ d) for _, u in found]
    assert all(a >= b for a, b in zip(edges[1:], edges[2:]))  # by decreasing edge
    assert all(e <= edges[0] for e in edges)
    assert len(column_set(np.array([u for _, u in found]).T)) == len(found)  # no repeats
    for h, u in found:
        np.testing.assert_array_equal(u, y * h.predict(X))
    for h, u in found[1:]:
        if h.is_constant:
            assert float(u @ d) == abs(float(y @ d))
        else:
            assert float(u @ d) == brute_feature_best(X, y, d, h.feature)[1]
    # every feature with a split is represented: by its own best, or by an equal column
    columns = column_set(np.array([u for _, u in found]).T)
    for j in range(X.shape[1]):
        best_cols, _ = brute_feature_best(X, y, d, j)
        if best_cols and j not in {h.feature for h, _ in found if not h.is_constant}:
            assert any(tuple(c + 0.0) in columns for c in best_cols) or \
                j == (-1 if h0.is_constant else h0.feature)
    sparse = StumpOracle().fit(sp.csc_matrix(X), y).candidates(d)
    assert [h for h, _ in sparse] == [h for h, _ in found]
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(sparse, found))


def test_oracles_without_parts_offer_best_alone():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(20, 3)), np.where(rng.random(20) < 0.5, -1.0, 1.0)
    d = np.full(20, 1 / 20)
    for oracle in (RawFeatureOracle().fit(X, y),
                   FiniteColumnOracle(np.sign(rng.normal(size=(20, 6)))).fit(X, y)):
        (h, u), = oracle.candidates(d)
        h0, u0 = oracle.best(d)
        assert h == h0 and np.array_equal(u, u0)


def test_dense_stumps_reuse_their_buffers_without_carrying_state():
    # best() and candidates() reuse (F, N) work buffers between calls: every call must equal a
    # freshly fitted oracle's, and a pickled oracle carries no buffer
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 6))
    X[:, 2] = np.round(X[:, 2])  # repeated values: invalid split positions
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=300) > 0, 1.0, -1.0)
    used = StumpOracle().fit(X, y)
    for _ in range(4):
        d = rng.dirichlet(np.ones(300))
        fresh = StumpOracle().fit(X, y)
        assert used.best(d)[0] == fresh.best(d)[0]
        assert np.array_equal(used.best(d)[1], fresh.best(d)[1])
        assert [h for h, _ in used.candidates(d)] == [h for h, _ in fresh.candidates(d)]
    assert used.__getstate__()["_buffers"] is None
    assert pickle.loads(pickle.dumps(used)).best(d)[0] == fresh.best(d)[0]
