"""Tests for dualboost.data: loaders, validation, label encoding and the LPBoost worst case."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

from dualboost.data import (
    Dataset,
    encode_labels,
    load_dataset,
    lpboost_worst_case,
    parse_libsvm,
    shared_data_dir,
    validate_features,
)
from dualboost.errors import DualBoostInputError


def _reference_instance(N: int, delta: float) -> np.ndarray:
    """Loop-based reference generator from the spec (0-based rows)."""
    m = N // 2
    U = np.empty((N, m + 1))
    for n in range(N):
        s = 0 if n < m else n - m + 1
        for t in range(1, m + 1):
            if t == s:
                U[n, t - 1] = -1 + 2 * t * delta
            elif t == s + 1:
                U[n, t - 1] = 1.0
            else:
                U[n, t - 1] = -1 + (2 * t + 1) * delta
        U[n, m] = (-1 + delta) if s == 0 else (1 - delta)
    return U


# ------------------------------------------------------------------ worst-case instance


def test_worst_case_n8_table() -> None:
    d = 1e-3
    expected = np.array(
        [
            [1, -1 + 5 * d, -1 + 7 * d, -1 + 9 * d, -1 + d],
            [1, -1 + 5 * d, -1 + 7 * d, -1 + 9 * d, -1 + d],
            [1, -1 + 5 * d, -1 + 7 * d, -1 + 9 * d, -1 + d],
            [1, -1 + 5 * d, -1 + 7 * d, -1 + 9 * d, -1 + d],
            [-1 + 2 * d, 1, -1 + 7 * d, -1 + 9 * d, 1 - d],
            [-1 + 3 * d, -1 + 4 * d, 1, -1 + 9 * d, 1 - d],
            [-1 + 3 * d, -1 + 5 * d, -1 + 6 * d, 1, 1 - d],
            [-1 + 3 * d, -1 + 5 * d, -1 + 7 * d, -1 + 8 * d, 1 - d],
        ]
    )
    U = lpboost_worst_case(8, d)
    assert U.shape == (8, 5)
    np.testing.assert_allclose(U, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("N", [2, 4, 8, 20, 100])
def test_worst_case_matches_reference(N: int) -> None:
    for delta in (None, 1e-4, 2.0 / (N + 1)):
        d = 0.01 / (N - 0.5) if delta is None else delta
        np.testing.assert_array_equal(lpboost_worst_case(N, delta), _reference_instance(N, d))


@pytest.mark.parametrize("N", [8, 20, 100])
def test_worst_case_properties(N: int) -> None:
    m = N // 2
    U = lpboost_worst_case(N)
    assert U.shape == (N, m + 1)
    assert U.dtype == np.float64
    assert np.all(U >= -1) and np.all(U <= 1)
    # Extreme delta keeps entries in [-1, 1] too.
    Umax = lpboost_worst_case(N, 2.0 / (N + 1))
    assert np.all(Umax >= -1 - 1e-12) and np.all(Umax <= 1 + 1e-12)

    # Uniform distribution: column 1 has the (unique) maximum edge (all labels are +1).
    edges = np.full(N, 1.0 / N) @ U
    assert np.argmax(edges) == 0
    assert edges[0] > np.max(edges[1:])

    # d = e_{m+t} (1-based row m+t): column t+1 has the maximum edge, +1 (t = 1..m-1);
    # the last second-half row is served best by the final column (1 - delta).
    for t in range(1, m):
        row = U[m + t - 1]
        assert np.argmax(row) == t
        assert row[t] == 1.0
    assert np.argmax(U[N - 1]) == m
    assert U[N - 1, m] == pytest.approx(1 - 0.01 / (N - 0.5))
    # First-half rows: column 1 is +1.
    assert np.all(U[:m, 0] == 1.0)


@pytest.mark.parametrize(
    "N, delta",
    [(7, None), (0, None), (-2, None), (1, None), (8, 0.0), (8, -1e-3), (8, 0.3), (8, np.nan)],
)
def test_worst_case_bad_args(N: int, delta: float | None) -> None:
    with pytest.raises(DualBoostInputError):
        lpboost_worst_case(N, delta)


def test_worst_case_non_integer_N() -> None:
    with pytest.raises(DualBoostInputError):
        lpboost_worst_case(8.0)  # type: ignore[arg-type]


def test_load_worst_case_spec() -> None:
    ds = load_dataset("worst_case:20")
    assert isinstance(ds, Dataset)
    assert ds.name == "worst_case:20"
    assert ds.N == 20
    assert ds.X.shape == (20, 1)
    np.testing.assert_array_equal(ds.X[:, 0], np.arange(20.0))
    np.testing.assert_array_equal(ds.y, np.ones(20))
    np.testing.assert_array_equal(ds.classes, [-1, 1])
    assert ds.hypotheses is not None
    np.testing.assert_array_equal(ds.hypotheses, lpboost_worst_case(20))


@pytest.mark.parametrize("spec", ["worst_case:7", "worst_case:0", "worst_case:abc", "worst_case"])
def test_load_worst_case_bad_spec(spec: str) -> None:
    with pytest.raises(DualBoostInputError, match="worst_case"):
        load_dataset(spec)


# ------------------------------------------------------------------ validation / labels


def test_validate_features_ok() -> None:
    X = validate_features([[1, 2], [3, 4]])
    assert X.dtype == np.float64 and X.shape == (2, 2)


def test_validate_features_nan_reports_position() -> None:
    X = np.ones((4, 3))
    X[2, 1] = np.nan
    X[3, 0] = np.nan
    with pytest.raises(DualBoostInputError, match=r"2 non-finite.*row 2, column 1"):
        validate_features(X)


def test_validate_features_inf() -> None:
    X = np.ones((3, 2))
    X[0, 1] = np.inf
    with pytest.raises(DualBoostInputError, match=r"1 non-finite.*1 inf"):
        validate_features(X)


@pytest.mark.parametrize("X", [np.ones(3), np.ones((0, 3)), np.ones((3, 0)), [["a", "b"]]])
def test_validate_features_bad_shape_or_type(X: object) -> None:
    with pytest.raises(DualBoostInputError):
        validate_features(X)


def test_encode_labels_pm1_and_01() -> None:
    y, c = encode_labels(np.array([1, -1, -1, 1]))
    np.testing.assert_array_equal(y, [1, -1, -1, 1])
    np.testing.assert_array_equal(c, [-1, 1])
    y, c = encode_labels([0, 1, 1, 0])
    np.testing.assert_array_equal(y, [-1, 1, 1, -1])
    np.testing.assert_array_equal(c, [0, 1])
    assert y.dtype == np.float64


def test_encode_labels_strings() -> None:
    y, c = encode_labels(["good", "bad", "good"])
    np.testing.assert_array_equal(c, ["bad", "good"])
    np.testing.assert_array_equal(y, [1, -1, 1])


def test_encode_labels_three_classes() -> None:
    with pytest.raises(DualBoostInputError, match=r"found 3: \[0, 1, 2\]"):
        encode_labels([0, 1, 2, 1])


def test_encode_labels_many_classes_truncated() -> None:
    with pytest.raises(DualBoostInputError, match=r"found 7: \[0, 1, 2, 3, 4, \.\.\.\]"):
        encode_labels(list(range(7)))


@pytest.mark.parametrize("y", [[1, 1, 1], [], [1.0, np.nan], np.ones((2, 2))])
def test_encode_labels_bad(y: object) -> None:
    with pytest.raises(DualBoostInputError):
        encode_labels(y)


# ------------------------------------------------------------------ built-ins and files


def test_breast_cancer() -> None:
    ds = load_dataset("breast_cancer")
    assert ds.X.shape == (569, 30)
    assert ds.N == 569
    assert set(np.unique(ds.y)) == {-1.0, 1.0}
    assert len(ds.feature_names) == 30
    np.testing.assert_array_equal(ds.classes, [0, 1])
    assert ds.hypotheses is None


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_csv_header_string_labels(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.CSV", "a,b,outcome\n1,2,good\n3,4,bad\n5,6.5,good\n")
    ds = load_dataset(str(p))
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [5, 6.5]])
    assert ds.feature_names == ["a", "b"]
    np.testing.assert_array_equal(ds.classes, ["bad", "good"])
    np.testing.assert_array_equal(ds.y, [1, -1, 1])


def test_csv_no_header(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.csv", "1,2,0\n3,4,1\n\n5,6,1\n")
    ds = load_dataset(str(p))
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 4], [5, 6]])
    np.testing.assert_array_equal(ds.y, [-1, 1, 1])
    assert ds.feature_names == ["column_1", "column_2"]


def test_csv_no_header_string_labels(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.csv", "1,2,yes\n3,4,no\n")
    ds = load_dataset(str(p))
    assert ds.N == 2
    np.testing.assert_array_equal(ds.y, [1, -1])


def test_csv_label_by_name(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.csv", "cls,x1,x2\n-1,0.5,1\n1,1.5,2\n1,2.5,3\n")
    ds = load_dataset(str(p), label="cls")
    np.testing.assert_array_equal(ds.X, [[0.5, 1], [1.5, 2], [2.5, 3]])
    assert ds.feature_names == ["x1", "x2"]
    np.testing.assert_array_equal(ds.y, [-1, 1, 1])


def test_libsvm_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 4))
    X[X < 0] = 0.0
    y = np.where(rng.random(12) < 0.5, -1, 1)
    y[:2] = [-1, 1]
    p = tmp_path / "d.svm"
    dump_svmlight_file(X, y, str(p), zero_based=False)
    ds = load_dataset(str(p))
    assert sp.issparse(ds.X)  # LIBSVM data stays sparse
    np.testing.assert_allclose(ds.X[:, : X.shape[1]].toarray(), X)
    np.testing.assert_array_equal(ds.y, y)
    np.testing.assert_array_equal(ds.classes, [-1, 1])


def test_german_shared() -> None:
    d = shared_data_dir()
    if d is None:
        pytest.skip("shared data directory ../shared/data not available")
    p = d / "german.csv"
    if not p.exists():
        pytest.skip(f"{p} not present")
    ds = load_dataset(str(p))
    assert ds.X.shape == (1000, 20)
    assert int((ds.y == -1).sum()) == 700
    assert int((ds.y == 1).sum()) == 300
    assert ds.feature_names[0] == "column_1"


def test_shared_data_dir_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUALBOOST_SHARED_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path
    monkeypatch.setenv("DUALBOOST_SHARED_DATA", str(tmp_path / "missing"))
    assert shared_data_dir() is None


# ------------------------------------------------------------------ error cases


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("a,b,y\n1,nan,0\n2,3,1\n", "non-finite"),
        ("a,b,y\n1,inf,0\n2,3,1\n", "non-finite"),
        ("a,b,y\n1,2,0\n2,3,1\n4,5,2\n", "found 3"),
        ("a,b,y\n1,2,1\n2,3,1\n", "found 1"),
        ("", "empty"),
        ("a,b,y\n", "no data rows"),
        ("a,b,y\n1,x,0\n2,y,1\n", "feature column 'b' is not numeric"),
        ("a,b,y\n1,2,0\n2,3\n", "fields"),
    ],
)
def test_csv_errors(tmp_path: Path, text: str, pattern: str) -> None:
    p = _write(tmp_path / "bad.csv", text)
    with pytest.raises(DualBoostInputError, match=pattern):
        load_dataset(str(p))


def test_csv_unknown_label(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.csv", "a,b,y\n1,2,0\n2,3,1\n")
    with pytest.raises(DualBoostInputError, match="available columns: a, b, y"):
        load_dataset(str(p), label="target")


def test_missing_file() -> None:
    with pytest.raises(DualBoostInputError, match="no such data file or built-in.*breast_cancer"):
        load_dataset("/nonexistent/path/data.csv")


def test_libsvm_errors(tmp_path: Path) -> None:
    with pytest.raises(DualBoostInputError, match="LIBSVM"):
        load_dataset(str(_write(tmp_path / "bad.svm", "hello world\n")))
    with pytest.raises(DualBoostInputError, match="empty"):
        load_dataset(str(_write(tmp_path / "empty.svm", "")))
    with pytest.raises(DualBoostInputError, match="found 3"):
        load_dataset(str(_write(tmp_path / "three.svm", "1 1:1\n2 1:2\n3 2:1\n")))


def test_label_only_for_csv(tmp_path: Path) -> None:
    with pytest.raises(DualBoostInputError, match="only to CSV"):
        load_dataset("breast_cancer", label="y")


def test_error_messages_are_one_line(tmp_path: Path) -> None:
    cases = [
        lambda: load_dataset("nope"),
        lambda: load_dataset(str(_write(tmp_path / "x.svm", "1 a:b\n"))),
        lambda: encode_labels([1, 2, 3]),
        lambda: lpboost_worst_case(9),
    ]
    for f in cases:
        with pytest.raises(DualBoostInputError) as ei:
            f()
        assert "\n" not in str(ei.value)


def test_csv_error_reports_file_line(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.csv", "a,b,y\n1,2,0\n\n3,oops,1\n")
    with pytest.raises(
        DualBoostInputError, match=r"column 'b' is not numeric \(line 4 has 'oops'\)"
    ):
        load_dataset(str(p))


@pytest.mark.parametrize("seed", range(20))
def test_libsvm_fast_number_path_equals_the_token_path(seed, monkeypatch):
    """parse_libsvm reads plain decimal files with numpy's C parser (_plain_numbers); the
    token-by-token path gives the same matrix and labels, bit for bit."""
    import dualboost.data as data

    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(int(rng.integers(1, 40))):
        label = rng.choice(["+1", "-1", "1", "-1.0"])
        columns = np.sort(rng.choice(50, size=int(rng.integers(0, 8)), replace=False))
        values = [rng.choice([f"{rng.normal():.17g}", f"{rng.normal():e}", "1", "-0", ".5",
                              "3.", f"{rng.integers(-9, 9)}E{rng.integers(-3, 3)}"])
                  for _ in columns]
        lines.append(" ".join([label] + [f"{c + 1}:{v}" for c, v in zip(columns, values)]))
    text = ("\n".join(lines) + rng.choice(["", "\n", " \r\n"])).encode()
    fast_X, fast_y = data.parse_libsvm(text)
    monkeypatch.setattr(data, "_plain_numbers", lambda *args: None)
    slow_X, slow_y = data.parse_libsvm(text)
    assert np.array_equal(fast_y, slow_y)
    assert (fast_X != slow_X).nnz == 0 and fast_X.shape == slow_X.shape
    assert np.array_equal(fast_X.indices, slow_X.indices)
    assert np.array_equal(fast_X.data.view(np.uint64), slow_X.data.view(np.uint64))


@pytest.mark.parametrize("text", [b"1 1:2 3:4\n-1 2:0x1A\n", b"1 1:2 3:4.5.6\n",
                                  b"1 1:2 3:e\n", b"1 1:--2\n"])
def test_libsvm_malformed_numbers_are_named(text):
    with pytest.raises(ValueError, match="is not a number"):
        parse_libsvm(text)
