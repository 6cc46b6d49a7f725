"""Columnar input (issue 32, item 2): ``--data`` and ``predict --data`` read ``.npy``, ``.npz``
(dense X/y or scipy.sparse) and Parquet (file, directory, glob) with the CSV rules.

The reference for every format is the same data written as CSV: the fit on the columnar file
must give the CSV fit's scores exactly (same features, same labels, same run)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from dualboost.cli import main
from dualboost.data import load_dataset
from dualboost.errors import DualBoostInputError

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

FIT = ["--eps", "0.1", "--max-iter", "8", "--quiet"]


@pytest.fixture
def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(120, 4)), 3)
    y = (X[:, 0] + 0.5 * X[:, 2] + 0.3 * rng.normal(size=120) > 0).astype(float)
    return X, y


def write_csv(path, X, y, header: bool = True) -> None:
    lines = ["f0,f1,f2,f3,target"] if header else []
    lines += [",".join(f"{v:.3f}" for v in row) + f",{int(t)}" for row, t in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")


def write_parquet(path, X, y, order=None) -> None:
    cols = {f"f{j}": X[:, j] for j in range(X.shape[1])}
    cols["target"] = y.astype(int)
    names = order or list(cols)
    pq.write_table(pa.table({nm: cols[nm] for nm in names}), path)


def fit_predict(tmp_path, capsys, train: str, test: str, extra=()) -> tuple[int, np.ndarray, str]:
    model = tmp_path / "m.json"
    code = main(["fit", "--data", train, *extra, *FIT, "--json", str(model)])
    err = capsys.readouterr().err
    assert code in (0, 3), err  # 3: stopped at --max-iter, the model is still written
    pred = tmp_path / "p.csv"
    code = main(["predict", "--model", str(model), "--data", test, "--out", str(pred)])
    captured = capsys.readouterr()
    scores = np.array([float(line.split(",")[1])
                       for line in pred.read_text().splitlines()[1:]]) if code == 0 else None
    return code, scores, captured.out + captured.err


def reference(tmp_path, capsys, X, y, header: bool = True) -> np.ndarray:
    csv = tmp_path / "ref.csv"
    write_csv(csv, X, y, header)
    code, scores, out = fit_predict(tmp_path, capsys, str(csv), str(csv))
    assert code == 0, out
    return scores


def test_npy_label_last_and_index(tmp_path, capsys, data):
    X, y = data
    ref = reference(tmp_path, capsys, X, y, header=False)
    path = tmp_path / "d.npy"
    np.save(path, np.column_stack([X, y]))
    for extra in ((), ("--label", "last"), ("--label", "-1"), ("--label", "4")):
        code, scores, out = fit_predict(tmp_path, capsys, str(path), str(path), extra)
        assert code == 0, out
        assert np.array_equal(scores, ref)
    # the label first: the features are the other columns, in order
    first = tmp_path / "first.npy"
    np.save(first, np.column_stack([y, X]))
    code, scores, out = fit_predict(tmp_path, capsys, str(first), str(path), ("--label", "0"))
    assert code == 0, out
    assert np.array_equal(scores, ref)
    # predict on features only (no label column): scores, no accuracy
    feats = tmp_path / "x.npy"
    np.save(feats, X)
    model = tmp_path / "m.json"
    pred = tmp_path / "q.csv"
    assert main(["predict", "--model", str(model), "--data", str(feats), "--out",
                 str(pred)]) == 0
    assert "accuracy" not in capsys.readouterr().out


def test_npz_dense_and_sparse(tmp_path, capsys, data):
    X, y = data
    ref = reference(tmp_path, capsys, X, y, header=False)
    dense = tmp_path / "d.npz"
    np.savez(dense, X=X, y=y)
    code, scores, out = fit_predict(tmp_path, capsys, str(dense), str(dense))
    assert code == 0, out
    assert np.array_equal(scores, ref)
    ds = load_dataset(str(dense))
    assert ds.F == 4 and not ds.named_columns
    # string labels in y
    named = tmp_path / "s.npz"
    np.savez(named, X=X, y=np.where(y > 0, "yes", "no"))
    assert list(load_dataset(str(named)).classes) == ["no", "yes"]
    # scipy.sparse.save_npz: stays sparse, label the last column
    # (the data are compared, not a dense fit: the sparse and the dense stump paths may
    # break ties differently within 8 iterations)
    Xs = np.where(X > 0.5, X, 0.0)
    sparse = tmp_path / "sparse.npz"
    sp.save_npz(sparse, sp.csr_matrix(np.column_stack([Xs, y])))
    ds = load_dataset(str(sparse))
    assert sp.issparse(ds.X) and ds.F == 4
    assert np.array_equal(ds.X.toarray(), Xs) and np.array_equal(ds.y, 2 * y - 1)
    code, scores, out = fit_predict(tmp_path, capsys, str(sparse), str(sparse))
    assert code == 0, out
    dense_x = tmp_path / "xs.npz"
    np.savez(dense_x, X=Xs, y=y)  # the same model on the dense copy: the same scores
    pred = tmp_path / "q.csv"
    assert main(["predict", "--model", str(tmp_path / "m.json"), "--data", str(dense_x),
                 "--out", str(pred)]) == 0
    got = np.array([float(r.split(",")[1]) for r in pred.read_text().splitlines()[1:]])
    assert np.array_equal(got, scores)


def test_parquet_file_directory_glob_and_names(tmp_path, capsys, data):
    X, y = data
    ref = reference(tmp_path, capsys, X, y)
    path = tmp_path / "d.parquet"
    write_parquet(path, X, y)
    code, scores, out = fit_predict(tmp_path, capsys, str(path), str(path),
                                    ("--label", "target"))
    assert code == 0, out
    assert np.array_equal(scores, ref)
    # predict matches the columns by name: another order, an extra id column
    shuffled = tmp_path / "other.parquet"
    table = pa.table({"id": np.arange(120), "target": y.astype(int),
                      **{f"f{j}": X[:, j] for j in (3, 1, 0, 2)}})
    pq.write_table(table, shuffled)
    model = tmp_path / "m.json"
    pred = tmp_path / "q.csv"
    assert main(["predict", "--model", str(model), "--data", str(shuffled),
                 "--out", str(pred)]) == 0
    captured = capsys.readouterr()
    assert "ignored 1 column" in captured.err
    got = np.array([float(r.split(",")[1]) for r in pred.read_text().splitlines()[1:]])
    assert np.array_equal(got, ref)
    # a directory of parts and a glob of parts: the rows in sorted part order
    parts = tmp_path / "parts"
    parts.mkdir()
    write_parquet(parts / "a.parquet", X[:50], y[:50])
    write_parquet(parts / "b.parquet", X[50:], y[50:])
    for spec in (str(parts), str(parts / "*.parquet")):
        code, scores, out = fit_predict(tmp_path, capsys, spec, str(path))
        assert code == 0, out
        assert np.array_equal(scores, ref)
    # a positional file for a model with named features: by position, said so
    npy = tmp_path / "x.npy"
    np.save(npy, X)
    assert main(["predict", "--model", str(model), "--data", str(npy), "--out",
                 str(pred)]) == 0
    assert "by position" in capsys.readouterr().err


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_errors_are_one_line_exit_2(tmp_path, capsys, data):
    X, y = data
    path = tmp_path / "d.parquet"
    write_parquet(path, X, y)
    assert "label column 'nope' not found" in _error(
        capsys, ["fit", "--data", str(path), "--label", "nope", *FIT])
    npy = tmp_path / "d.npy"
    np.save(npy, np.column_stack([X, y]))
    assert "out of range" in _error(capsys, ["fit", "--data", str(npy), "--label", "7", *FIT])
    empty = tmp_path / "empty.npy"
    np.save(empty, np.zeros((0, 5)))
    assert "empty" in _error(capsys, ["fit", "--data", str(empty), *FIT])
    flat = tmp_path / "flat.npy"
    np.save(flat, np.zeros(5))
    assert "2-D" in _error(capsys, ["fit", "--data", str(flat), *FIT])
    ragged = tmp_path / "ragged.npy"
    np.save(ragged, np.array([[1.0, 2.0], [3.0]], dtype=object), allow_pickle=True)
    assert "cannot read .npy file" in _error(capsys, ["fit", "--data", str(ragged), *FIT])
    text = tmp_path / "text.npy"
    text.write_text("1,2,3\n")
    assert "not a .npy file" in _error(capsys, ["fit", "--data", str(text), *FIT])
    zero = tmp_path / "zero.npz"
    zero.write_bytes(b"")
    assert "empty" in _error(capsys, ["fit", "--data", str(zero), *FIT])
    garbage = tmp_path / "bad.parquet"
    garbage.write_bytes(b"not parquet at all")
    assert "cannot read Parquet" in _error(capsys, ["fit", "--data", str(garbage), *FIT])
    pq.write_table(pa.table({"a": pa.array([], pa.float64()), "t": pa.array([], pa.int64())}),
                   tmp_path / "none.parquet")
    assert "empty" in _error(capsys, ["fit", "--data", str(tmp_path / "none.parquet"), *FIT])
    strings = tmp_path / "str.parquet"
    pq.write_table(pa.table({"a": ["x"] * 4, "t": [0, 1, 0, 1]}), strings)
    assert "not numeric" in _error(capsys, ["fit", "--data", str(strings), *FIT])
    assert "no Parquet files match" in _error(
        capsys, ["fit", "--data", str(tmp_path / "nothing" / "*.parquet"), *FIT])
    nan = tmp_path / "nan.npy"
    np.save(nan, np.array([[1.0, np.nan, 1.0], [2.0, 3.0, 0.0]]))
    assert "non-finite" in _error(capsys, ["fit", "--data", str(nan), *FIT])
    # predict: a wrong number of columns, a missing feature column
    model = tmp_path / "m.json"
    assert main(["fit", "--data", str(path), *FIT, "--json", str(model)]) in (0, 3)
    capsys.readouterr()
    narrow = tmp_path / "narrow.npy"
    np.save(narrow, X[:, :2])
    assert "the model needs 4 feature columns" in _error(
        capsys, ["predict", "--model", str(model), "--data", str(narrow)])
    lacking = tmp_path / "lacking.parquet"
    pq.write_table(pa.table({"f0": X[:, 0], "f1": X[:, 1], "target": y}), lacking)
    assert "lacks the model's feature columns 'f2', 'f3'" in _error(
        capsys, ["predict", "--model", str(model), "--data", str(lacking)])
    with pytest.raises(DualBoostInputError, match="LIBSVM"):
        load_dataset(str(npy), n_features=3)
