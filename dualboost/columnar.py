"""Columnar and binary data files: ``.npy``, ``.npz`` and Parquet, for ``--data`` and ``predict``.

Every format ends in the same place as a CSV file: a :class:`ColumnarTable` (the fields of
:class:`dualboost.data.CsvData`) with the column names, whether they are real names, the chosen
feature columns as floats and the label column's original values, chosen by the same rule as
CSV (``choose(names, has_names, label)``: the label by name, default the last column; at predict
time the model's features by name or by position). So the validation and the one-line errors
are those of CSV; nothing here is specific to an algorithm (docs/scale.md lists the formats).

``<path>.npy``
    a dense 2-D numeric array (``np.save``), examples x columns, read without pickles. It has no
    column names: its columns are ``column_1 .. column_K`` (as a CSV file without a header) and
    are matched by position. The label is a column: ``--label last`` (the default, as for CSV),
    ``--label INDEX`` (0-based; negative counts from the end) or ``--label column_K``.
``<path>.npz``
    either arrays ``X`` (dense 2-D) and optionally ``y`` (the labels, numbers or strings), as
    written by ``np.savez(path, X=X, y=y)``; or a sparse matrix written by
    ``scipy.sparse.save_npz`` (kept sparse, CSR), whose labels are an array ``y`` added to the
    archive or else one of its columns chosen by ``--label`` as for ``.npy``. Matched by position.
    A ``.npz`` without ``y`` and without ``--label`` at fit time takes its last column as the
    label, like ``.npy``.
Parquet: ``<path>.parquet`` / ``.pq``, a directory of parts, or a glob (``'parts/*.parquet'``)
    read with pyarrow (parts in sorted path order); columns have names, so ``--label NAME``
    (default the last column) and predict matches features by name, as for a CSV file with a
    header. Feature columns must be numeric (integers, floats or booleans) without nulls; the
    label column may hold numbers or strings.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from dualboost.errors import DualBoostInputError, shown


@dataclass
class ColumnarTable:
    """A columnar file as read: its column names (real names or ``column_1 ..``), whether they
    are real names, the chosen feature columns as float64 (``X``, dense or CSR) and the label
    column's original values (numbers as floats, else strings; None without a label); the
    same fields as :class:`dualboost.data.CsvData`."""

    names: list[str]
    has_header: bool
    features: list[int]
    label: int | None
    X: Any
    labels: np.ndarray | None

__all__ = ["COLUMNAR_SUFFIXES", "ColumnarTable", "is_columnar", "read_columnar"]

#: file name endings read by this module (a directory or a glob is Parquet)
COLUMNAR_SUFFIXES = (".npy", ".npz", ".parquet", ".pq")

#: ``choose(names, has_names, label)``: the feature columns and the label column (or None)
Choose = Callable[[list[str], bool, "str | None"], tuple[list[int], "int | None"]]


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def is_columnar(text: str) -> bool:
    """Whether ``text`` names data for this module: a ``.npy``/``.npz``/Parquet file, a
    directory (of Parquet parts) or a glob pattern (of Parquet parts)."""
    path = Path(text).expanduser()
    if path.suffix.lower() in COLUMNAR_SUFFIXES:
        return True
    if path.is_dir():
        return True
    return _has_glob(text) and not path.exists()


def kind_of(text: str) -> str:
    """``"npy"``, ``"npz"`` or ``"parquet"`` for a spec :func:`is_columnar` accepts."""
    suffix = Path(text).suffix.lower()
    if suffix in (".npy", ".npz"):
        return suffix[1:]
    return "parquet"


def parquet_parts(text: str) -> list[str]:
    """The Parquet files of a file, a directory (its ``*.parquet``/``*.pq`` files, recursively,
    else every regular file not starting with ``.`` or ``_``) or a glob, in sorted order."""
    path = Path(text).expanduser()
    if path.is_file():
        return [str(path)]
    if path.is_dir():
        files = sorted(str(p) for p in path.rglob("*") if p.is_file()
                       and p.suffix.lower() in (".parquet", ".pq"))
        if not files:
            files = sorted(str(p) for p in path.rglob("*") if p.is_file()
                           and not p.name.startswith((".", "_")))
        if not files:
            raise DualBoostInputError(f"Parquet directory {shown(text)} has no files")
        return files
    if _has_glob(text):
        files = sorted(p for p in glob.glob(os.path.expanduser(text), recursive=True)
                       if os.path.isfile(p))
        if not files:
            raise DualBoostInputError(f"no Parquet files match {shown(text)}")
        return files
    raise DualBoostInputError(f"no such data file: {shown(text)}")


def position_label(label: str | None, n_cols: int, text: str) -> str | None:
    """The label of a positional file (``.npy``, ``.npz``) as its column name ``column_K``:
    ``last``, a 0-based integer index (negative from the end) or a name ``column_K``."""
    if label is None:
        return None
    value = label.strip()
    if value.lower() == "last":
        return f"column_{n_cols}"
    try:
        index = int(value)
    except ValueError:
        return value  # a name such as column_3: choose() checks it
    if not -n_cols <= index < n_cols:
        raise DualBoostInputError(f"--label {index} is out of range for {shown(text)} with "
                                  f"{n_cols} columns (0-based index, negative from the end)")
    return f"column_{index % n_cols + 1}"


def read_columnar(text: str, choose: Choose, label: str | None = None) -> ColumnarTable:
    """Read ``text`` (see the module docstring) into a :class:`ColumnarTable`.

    ``choose(names, has_names, label)`` picks the feature columns and the label column, exactly
    as for CSV; ``label`` is the raw ``--label`` value, which for a positional file may be
    ``last`` or an index (turned into the column's name ``column_K`` before ``choose`` sees
    it). An archive's own ``y`` array is the label when present (then no column is a label).
    """
    kind = kind_of(text)
    if kind == "parquet":
        return _read_parquet(text, choose, label)
    return _read_numpy(text, kind, choose, label)


def _fail(text: str, kind: str, exc: BaseException) -> DualBoostInputError:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return DualBoostInputError(f"cannot read {kind} file {shown(text)}: {shown(msg, 160)[1:-1]}")


def _read_numpy(text: str, kind: str, choose: Choose, label: str | None) -> ColumnarTable:
    path = Path(text).expanduser()
    if not path.is_file():
        raise DualBoostInputError(f"no such data file: {shown(text)}")
    y_own: np.ndarray | None = None
    magic = {"npy": b"\x93NUMPY", "npz": b"PK"}[kind]
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(magic))
    except OSError as exc:
        raise _fail(text, f".{kind}", exc) from None
    if head != magic:
        writer = "np.save" if kind == "npy" else "np.savez or scipy.sparse.save_npz"
        what = "empty" if not head else f"not a .{kind} file (it does not start as {writer} " \
            "writes)"
        raise DualBoostInputError(f"cannot read .{kind} file {shown(text)}: it is {what}")
    try:
        if kind == "npy":
            M: Any = np.load(path, allow_pickle=False, mmap_mode="r")
        else:
            with np.load(path, allow_pickle=False) as archive:
                keys = set(archive.files)
                if {"format", "shape", "data"} <= keys:  # scipy.sparse.save_npz
                    M = sp.load_npz(path).tocsr()
                elif "X" in keys:
                    M = archive["X"]
                else:
                    raise DualBoostInputError(
                        f".npz file {shown(text)} has arrays {sorted(keys)[:10]}; expected X "
                        "(and y), or a matrix written by scipy.sparse.save_npz")
                if "y" in keys:
                    y_own = np.asarray(archive["y"])
    except DualBoostInputError:
        raise
    except (ValueError, OSError, EOFError, KeyError) as exc:
        raise _fail(text, f".{kind}", exc) from None
    if M.dtype == object or M.dtype.kind not in "biuf":
        raise DualBoostInputError(f".{kind} file {shown(text)} holds {M.dtype} values; "
                                  "features must be numeric")
    if M.ndim != 2:
        raise DualBoostInputError(f".{kind} file {shown(text)} holds a {M.ndim}-D array of "
                                  f"shape {M.shape}; expected a 2-D array (examples x columns)")
    n, k = M.shape
    if n == 0:
        raise DualBoostInputError(f".{kind} file {shown(text)} is empty: no rows")
    names = [f"column_{j + 1}" for j in range(k)]
    if y_own is not None:
        if y_own.ndim != 1 or y_own.shape[0] != n:
            raise DualBoostInputError(f".npz file {shown(text)}: y has shape {y_own.shape}, "
                                      f"expected ({n},) to match X")
        if label is not None:
            raise DualBoostInputError(f"--label {shown(label)} does not apply to {shown(text)}: "
                                      "its labels are the archive's array y")
        if k < 1:
            raise DualBoostInputError(f".npz file {shown(text)}: X has no columns")
        # choose() sees one more column, the label, last
        features, j_label = choose(names + [f"column_{k + 1}"], False, None)
        if j_label is not None and j_label != k:
            raise DualBoostInputError(f".npz file {shown(text)}: its labels are the array y, "
                                      "no column of X")
        features = [j for j in features if j < k]
    else:
        features, j_label = choose(names, False, position_label(label, k, text))
    X = M[:, features] if features != list(range(k)) else M
    X = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    labels = None
    if y_own is not None:
        labels = y_own if y_own.dtype.kind in "US" else y_own.astype(float)
    elif j_label is not None:
        col = M[:, [j_label]]
        col = np.asarray(col.toarray() if sp.issparse(col) else col, dtype=float).reshape(-1)
        labels = col
    return ColumnarTable(names, False, list(features), j_label, X, labels)


def _read_parquet(text: str, choose: Choose, label: str | None) -> ColumnarTable:
    try:
        import pyarrow.parquet as pq
        import pyarrow.types as pt
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        raise DualBoostInputError("reading Parquet needs pyarrow (pip install pyarrow)") from None
    parts = parquet_parts(text)
    try:
        schema = pq.read_schema(parts[0])
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ...
        raise _fail(parts[0], "Parquet", exc) from None
    names = list(schema.names)
    if len(set(names)) != len(names):
        dup = next(nm for nm in names if names.count(nm) > 1)
        raise DualBoostInputError(f"Parquet data {shown(text)} has two columns named "
                                  f"{shown(dup)}; rename one")
    features, j_label = choose(names, True, label)
    wanted = [names[j] for j in features] + ([] if j_label is None else [names[j_label]])
    try:
        table = pq.ParquetDataset(parts).read(columns=wanted) if len(parts) > 1 else \
            pq.read_table(parts[0], columns=wanted)
    except Exception as exc:
        raise _fail(text, "Parquet", exc) from None
    n = table.num_rows
    if n == 0:
        raise DualBoostInputError(f"Parquet data {shown(text)} is empty: no rows")
    X = np.empty((n, len(features)))
    for k, j in enumerate(features):  # a loop over columns, each vectorized over the rows
        column = table.column(names[j])
        if column.null_count:
            raise DualBoostInputError(f"Parquet data {shown(text)}: feature column "
                                      f"{shown(names[j])} has {column.null_count} null value(s)")
        kind = column.type
        if not (pt.is_integer(kind) or pt.is_floating(kind) or pt.is_boolean(kind)):
            raise DualBoostInputError(f"Parquet data {shown(text)}: feature column "
                                      f"{shown(names[j])} is not numeric ({kind})")
        X[:, k] = column.to_numpy().astype(np.float64, copy=False)
    labels = None
    if j_label is not None:
        column = table.column(names[j_label])
        if column.null_count:
            raise DualBoostInputError(f"Parquet data {shown(text)}: label column "
                                      f"{shown(names[j_label])} has {column.null_count} null "
                                      "value(s)")
        values = column.to_numpy()
        labels = values.astype(float) if values.dtype.kind in "biuf" else values.astype(str)
    return ColumnarTable(names, True, list(features), j_label, X, labels)
