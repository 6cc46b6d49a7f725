"""Data sets for dualboost: loading, validation, label encoding and built-in instances.

A data set is a :class:`Dataset`: an ``N x F`` float feature matrix ``X`` (dense, or
``scipy.sparse`` CSR for LIBSVM files), labels ``y`` in
``{-1, +1}`` and, for built-in instances that are defined by their hypotheses rather than by
features, an ``N x J`` matrix ``hypotheses`` whose column ``j`` holds the predictions
``h_j(x_n)`` of hypothesis ``j``.

:func:`load_dataset` understands these specifications:

``breast_cancer``
    scikit-learn's Wisconsin breast cancer data (569 x 30; shipped with scikit-learn, no network).
``worst_case:N``
    the LPBoost lower-bound instance of thesis Theorem 2.5, Fig. 2.8 with ``N`` examples (``N``
    even), see :func:`lpboost_worst_case`.
``<path>.csv``
    comma-separated values; an optional header row (detected when the first row is not numeric);
    one label column (by name with ``label=``, default the last column) whose values may be
    strings or numbers; all other columns are numeric features.
any other existing path
    LIBSVM / svmlight format (``<label> <index>:<value> ...`` per line), read with
    :func:`parse_libsvm`, vectorized (:func:`read_libsvm`). ``X`` stays a
    ``scipy.sparse`` CSR float64 matrix (never made dense; the oracles work on it directly). The
    feature numbering (index base) is decided once: ``index_base=0`` or ``1`` if given, else 0
    when the file has an index 0 and 1 otherwise; ``Dataset.index_base`` records it, and a model
    reads every later file with it. Its width is the largest feature index in the file unless
    ``n_features=K`` is given: then it is exactly K (a test file whose largest index is smaller
    than the training file's is padded with zero columns, so a model fitted on the training file
    predicts on it), and a file with an index beyond K is an error.

A data file must be UTF-8 text: a binary file (NUL or other control bytes) is refused from its
first megabyte, before any parser sees it, and the rest is scanned in chunks; CSV rows are
converted to floats in blocks, so memory stays a small multiple of the file's size. No message
quotes more than a short excerpt of a file (:func:`shown`).

Every problem with the input raises :class:`~dualboost.errors.DualBoostInputError` with a one-line
message. Nothing here ever touches the network.
"""

from __future__ import annotations

import codecs
import csv
import math
import os
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from dualboost.errors import ECHO_CHARS, DualBoostInputError, shown

__all__ = [
    "BUILTINS",
    "CsvData",
    "Dataset",
    "encode_labels",
    "load_dataset",
    "lpboost_worst_case",
    "read_csv",
    "read_libsvm",
    "shared_data_dir",
    "shown",
    "validate_features",
]

#: Human-readable list of built-in data set specifications (used in error messages).
BUILTINS = "breast_cancer, worst_case:N"

_WORST_CASE_PREFIX = "worst_case"


@dataclass
class Dataset:
    """A binary classification data set with labels in ``{-1, +1}``.

    Attributes:
        X: ``N x F`` float feature matrix: a numpy array, or a ``scipy.sparse`` CSR matrix for
            LIBSVM files.
        y: length-``N`` float labels, each ``-1.0`` or ``+1.0``.
        name: short name of the data set (built-in spec or file name).
        feature_names: ``F`` column names.
        classes: the two original label values; ``classes[0]`` is encoded as ``-1`` and
            ``classes[1]`` as ``+1``.
        hypotheses: optional ``N x J`` matrix of hypothesis predictions (column ``j`` is
            ``h_j(x_n)`` for ``n = 1..N``), for instances given as columns rather than features.
        index_base: for a LIBSVM file, the feature numbering it was read with (0: ``0:`` is
            column 0; 1: ``1:`` is column 0); None for other data.
        named_columns: whether ``feature_names`` are the columns of a CSV header (new CSV
            files are then matched by name).
        label_name: the label column of a CSV file (None for other data).
    """

    X: np.ndarray | sp.csr_matrix
    y: np.ndarray
    name: str
    feature_names: list[str]
    classes: np.ndarray
    hypotheses: np.ndarray | None = None
    index_base: int | None = None
    named_columns: bool = False
    label_name: str | None = None

    def __post_init__(self) -> None:
        n = self.X.shape[0]
        if self.y.shape != (n,):
            raise DualBoostInputError(
                f"data set {self.name!r}: y has shape {self.y.shape}, expected ({n},) "
                f"to match X with {n} rows"
            )
        if self.hypotheses is not None and (
            self.hypotheses.ndim != 2 or self.hypotheses.shape[0] != n
        ):
            raise DualBoostInputError(
                f"data set {self.name!r}: hypotheses has shape {self.hypotheses.shape}, "
                f"expected ({n}, J) to match X with {n} rows"
            )

    @property
    def N(self) -> int:
        """Number of examples."""
        return int(self.X.shape[0])

    @property
    def F(self) -> int:
        """Number of features."""
        return int(self.X.shape[1])


# --------------------------------------------------------------------------------------------
# Validation and label encoding
# --------------------------------------------------------------------------------------------


def validate_features(X: object) -> np.ndarray | sp.csr_matrix | sp.csc_matrix:
    """Return ``X`` as a 2-D float64 matrix with at least one row and one column and only finite
    entries; otherwise raise :class:`DualBoostInputError`.

    A scipy sparse matrix stays sparse (never made dense): CSR or CSC keep their format, other
    formats become CSR; the result is float64 with duplicates summed, and only the stored values
    are checked for finiteness. Anything else becomes a C-contiguous numpy array.
    """
    if sp.issparse(X):
        return _validate_sparse_features(X)
    try:
        arr = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DualBoostInputError(f"features must be numeric: {exc}") from None
    _check_shape(arr.shape)
    bad = ~np.isfinite(arr)
    n_bad = int(bad.sum())
    if n_bad:
        r, c = (int(i) for i in np.argwhere(bad)[0])
        n_nan = int(np.isnan(arr).sum())
        raise DualBoostInputError(
            f"features contain {n_bad} non-finite entr{'y' if n_bad == 1 else 'ies'} "
            f"({n_nan} NaN, {n_bad - n_nan} inf); first at row {r}, column {c} "
            f"(0-based): {arr[r, c]}"
        )
    return np.ascontiguousarray(arr, dtype=np.float64)


def _check_shape(shape: tuple[int, ...]) -> None:
    if len(shape) != 2:
        raise DualBoostInputError(
            f"features must be a 2-D array (examples x features), got {len(shape)}-D "
            f"with shape {shape}"
        )
    n, f = shape
    if n < 1:
        raise DualBoostInputError("the data set is empty: features have no rows")
    if f < 1:
        raise DualBoostInputError(f"features have no columns ({n} rows, 0 features)")


def _validate_sparse_features(X: object) -> sp.csr_matrix | sp.csc_matrix:
    _check_shape(X.shape)  # type: ignore[attr-defined]
    fmt = "csc" if X.format == "csc" else "csr"  # type: ignore[attr-defined]
    make = sp.csc_matrix if fmt == "csc" else sp.csr_matrix
    try:
        M = make(X, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        raise DualBoostInputError(f"features must be numeric: {exc}") from None
    M.sum_duplicates()
    bad = ~np.isfinite(M.data)
    n_bad = int(bad.sum())
    if n_bad:
        k = int(np.flatnonzero(bad)[0])
        outer = int(np.searchsorted(M.indptr, k, side="right") - 1)
        inner = int(M.indices[k])
        r, c = (outer, inner) if fmt == "csr" else (inner, outer)
        n_nan = int(np.isnan(M.data).sum())
        raise DualBoostInputError(
            f"features contain {n_bad} non-finite entr{'y' if n_bad == 1 else 'ies'} "
            f"({n_nan} NaN, {n_bad - n_nan} inf); first at row {r}, column {c} "
            f"(0-based): {M.data[k]}"
        )
    return M


def encode_labels(y: object) -> tuple[np.ndarray, np.ndarray]:
    """Map labels with exactly two distinct values to ``-1.0 / +1.0``.

    Returns ``(y_pm, classes)`` where ``classes`` are the two distinct original values in sorted
    order, ``classes[0]`` becomes ``-1`` and ``classes[1]`` becomes ``+1``. Hence labels already
    in ``{-1, +1}`` are kept and ``{0, 1}`` maps ``0 -> -1``, ``1 -> +1``. Labels may be numbers
    or strings.
    """
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise DualBoostInputError(f"labels must be a 1-D array, got shape {arr.shape}")
    if arr.size == 0:
        raise DualBoostInputError("the data set is empty: no labels")
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        n_bad = int((~np.isfinite(arr)).sum())
        first = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise DualBoostInputError(
            f"labels contain {n_bad} NaN/inf value(s); first at row {first} (0-based)"
        )
    if arr.dtype == object:
        # Mixed Python objects: compare by string so that sorting is well defined.
        try:
            classes, inverse = np.unique(arr, return_inverse=True)
        except TypeError:
            arr = arr.astype(str)
            classes, inverse = np.unique(arr, return_inverse=True)
    else:
        classes, inverse = np.unique(arr, return_inverse=True)
    if classes.size != 2:
        shown = ", ".join(repr(_py(c)) for c in classes[:5])
        more = ", ..." if classes.size > 5 else ""
        raise DualBoostInputError(
            f"labels must have exactly 2 distinct classes, found {classes.size}: [{shown}{more}]"
        )
    y_pm = np.where(inverse.reshape(-1) == 1, 1.0, -1.0)
    return y_pm, classes


def _py(v: object) -> object:
    """numpy scalar -> Python scalar, for readable reprs in messages."""
    return v.item() if isinstance(v, np.generic) else v


# --------------------------------------------------------------------------------------------
# The LPBoost worst-case instance
# --------------------------------------------------------------------------------------------


def lpboost_worst_case(N: int, delta: float | None = None) -> np.ndarray:
    """The LPBoost lower-bound instance of thesis Theorem 2.5, Fig. 2.8, for any even ``N``.

    Returns ``U`` of shape ``(N, N/2 + 1)``; ``U[n, t]`` is the prediction ``y_n h_t(x_n)`` of
    hypothesis ``t`` on example ``n`` (all labels are ``+1``). With ``m = N/2`` and 1-based
    indices, rows are grouped by ``s(n) = 0`` for ``n = 1..m`` and ``s(n) = n - m`` for
    ``n = m+1..N``. For the hypothesis columns ``t = 1..m``::

        U[n, t] = -1 + 2 t δ        if t == s(n)
                  +1                if t == s(n) + 1
                  -1 + (2t + 1) δ   otherwise

    and the final column ``t = m + 1`` is ``-1 + δ`` on the first half (``s = 0``) and ``+1 - δ``
    on the second half. For ``N = 8``::

        n\\t   1        2        3        4        5
        1    +1      −1+5δ    −1+7δ    −1+9δ    −1+δ
        2    +1      −1+5δ    −1+7δ    −1+9δ    −1+δ
        3    +1      −1+5δ    −1+7δ    −1+9δ    −1+δ
        4    +1      −1+5δ    −1+7δ    −1+9δ    −1+δ
        5   −1+2δ     +1      −1+7δ    −1+9δ    +1−δ
        6   −1+3δ   −1+4δ      +1      −1+9δ    +1−δ
        7   −1+3δ   −1+5δ    −1+6δ      +1      +1−δ
        8   −1+3δ   −1+5δ    −1+7δ    −1+8δ     +1−δ

    On this instance LPBoost's optimality gap is still ``>= 0.99`` after ``N/2`` iterations for
    the default δ (thesis Theorem 2.5).

    Args:
        N: number of examples, even and ``>= 2``.
        delta: the small constant δ, ``0 < δ <= 2/(N+1)`` (so all entries stay in ``[-1, 1]``).
            Default ``0.01 / (N - 0.5)``, the largest δ for which the gap after ``N/2``
            iterations is still ``>= 0.99``.
    """
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)):
        raise DualBoostInputError(f"worst_case N must be an integer, got {N!r}")
    N = int(N)
    if N < 2 or N % 2:
        raise DualBoostInputError(f"worst_case N must be even and >= 2, got {N}")
    if delta is None:
        delta = 0.01 / (N - 0.5)
    delta = float(delta)
    if not (math.isfinite(delta) and 0.0 < delta <= 2.0 / (N + 1)):
        raise DualBoostInputError(
            f"worst_case delta must satisfy 0 < delta <= 2/(N+1) = {2.0 / (N + 1):.6g} "
            f"for N={N}, got {delta}"
        )
    m = N // 2
    n = np.arange(1, N + 1)  # 1-based rows
    s = np.where(n <= m, 0, n - m)[:, None]  # (N, 1)
    t = np.arange(1, m + 1)[None, :]  # (1, m)
    cols = np.where(
        t == s,
        -1.0 + 2.0 * t * delta,
        np.where(t == s + 1, 1.0, -1.0 + (2.0 * t + 1.0) * delta),
    )
    last = np.where(s[:, 0] == 0, -1.0 + delta, 1.0 - delta)
    return np.column_stack([cols, last]).astype(np.float64)


def _worst_case_dataset(spec: str) -> Dataset:
    arg = spec[len(_WORST_CASE_PREFIX) :]
    if not arg.startswith(":") or not arg[1:].strip():
        raise DualBoostInputError(
            f"built-in {spec!r} needs a size: use worst_case:N with N even, e.g. worst_case:20"
        )
    text = arg[1:].strip()
    try:
        N = int(text)
    except ValueError:
        raise DualBoostInputError(
            f"worst_case N must be an even integer >= 2, got {text!r} in {spec!r}"
        ) from None
    U = lpboost_worst_case(N)
    return Dataset(
        X=np.arange(N, dtype=float)[:, None],
        y=np.ones(N),
        name=f"worst_case:{N}",
        feature_names=["index"],
        classes=np.array([-1, 1]),
        hypotheses=U,
    )


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def shared_data_dir() -> Path | None:
    """Directory of shared benchmark data (german.csv, a9a.*), or ``None`` when unavailable.

    If the environment variable ``DUALBOOST_SHARED_DATA`` is set (non-empty) it names the
    directory and is returned when it exists (``None`` otherwise). Else the default is
    ``<project root>/../shared/data`` where the project root is the parent of the ``dualboost``
    package directory. Tests and benchmarks skip when this returns ``None``.
    """
    env = os.environ.get("DUALBOOST_SHARED_DATA", "").strip()
    if env:
        p = Path(env).expanduser()
        return p if p.is_dir() else None
    root = Path(__file__).resolve().parent.parent
    p = root.parent / "shared" / "data"
    return p if p.is_dir() else None


def load_dataset(spec: str, label: str | None = None, n_features: int | None = None,
                 index_base: int | None = None) -> Dataset:
    """Load a data set from a built-in name or a file; see the module docstring for formats.

    Args:
        spec: ``"breast_cancer"``, ``"worst_case:N"``, a ``.csv`` path or a LIBSVM path.
        label: name of the label column of a CSV file (default: the last column). Only valid
            for CSV files.
        n_features: the number of features of a LIBSVM file: narrower files are padded with
            zero columns, a file with a larger feature index is an error. Only valid for LIBSVM
            files; default: the largest index in the file.
        index_base: the feature numbering of a LIBSVM file, 0 or 1 (default: 0 when the file
            has an index 0, else 1); recorded as ``Dataset.index_base``.

    Raises:
        DualBoostInputError: unknown spec, missing file, unreadable/invalid data (a binary
            file is refused from its first megabyte; no message quotes more than a short
            excerpt of the file).
    """
    if not isinstance(spec, (str, os.PathLike)):
        raise DualBoostInputError(f"data set spec must be a string or path, got {spec!r}")
    text = os.fspath(spec)
    stripped = text.strip()
    is_worst_case = stripped == _WORST_CASE_PREFIX or stripped.startswith(_WORST_CASE_PREFIX + ":")
    if n_features is not None:
        if isinstance(n_features, bool) or not isinstance(n_features, (int, np.integer)) \
                or n_features < 1:
            raise DualBoostInputError(
                f"n_features must be a positive integer, got {n_features!r}")
        n_features = int(n_features)
    if index_base not in (None, 0, 1):
        raise DualBoostInputError(f"index_base must be 0 or 1, got {index_base!r}")
    if stripped == "breast_cancer" or is_worst_case:
        for name, value, kind in (("n_features", n_features, "LIBSVM"),
                                  ("index_base", index_base, "LIBSVM"),
                                  ("label", label, "CSV")):
            if value is not None:
                raise DualBoostInputError(f"{name}={value!r} applies only to {kind} files, not "
                                          f"to built-in {stripped!r}")
        if stripped == "breast_cancer":
            return _load_breast_cancer()
        return _worst_case_dataset(stripped)

    from .columnar import is_columnar

    if is_columnar(text):
        for name, value in (("n_features", n_features), ("index_base", index_base)):
            if value is not None:
                raise DualBoostInputError(
                    f"{name}={value} applies only to LIBSVM files; {shown(text)} is read as "
                    "columnar data (its columns fix the number of features)")
        return _load_columnar(text, label)
    path = Path(text).expanduser()
    if not path.exists():
        raise DualBoostInputError(
            f"no such data file or built-in data set: {shown(text)}; built-ins: {BUILTINS}"
        )
    if not path.is_file():
        raise DualBoostInputError(f"data path is not a regular file: {shown(text)}")
    if path.suffix.lower() == ".csv":
        for name, value in (("n_features", n_features), ("index_base", index_base)):
            if value is not None:
                raise DualBoostInputError(
                    f"{name}={value} applies only to LIBSVM files; {shown(text)} is read as CSV "
                    f"(its columns fix the number of features)")
        return _load_csv(path, label)
    if label is not None:
        raise DualBoostInputError(
            f"label={label!r} applies only to CSV files; {shown(text)} is read as LIBSVM "
            f"(its label is the first field of each line)"
        )
    X, y_raw, base = read_libsvm(path, n_features=n_features, index_base=index_base)
    y, classes = encode_labels(y_raw)
    return Dataset(X=X, y=y, name=path.name,
                   feature_names=[f"feature_{j}" for j in range(X.shape[1])],
                   classes=classes, index_base=base)


def _load_columnar(text: str, label: str | None) -> Dataset:
    """A ``.npy``, ``.npz`` or Parquet data set (:mod:`dualboost.columnar`): the label column
    chosen as for CSV (by name, default the last column; ``.npy``/``.npz`` also by 0-based
    index or ``last``), or the ``y`` array of a ``.npz`` archive."""
    from .columnar import kind_of, read_columnar

    kind = kind_of(text)
    what = "Parquet data" if kind == "parquet" else f".{kind} file"
    table = read_columnar(text, lambda names, has_names, lab: fit_columns(
        names, has_names, lab, shown(text), what), label)
    X = validate_features(table.X)
    y, classes = encode_labels(table.labels)
    label_name = table.names[table.label] if table.label is not None and \
        table.label < len(table.names) else None
    return Dataset(
        X=X,
        y=y,
        name=Path(text.rstrip("/")).name,
        feature_names=[table.names[j] for j in table.features],
        classes=classes,
        named_columns=table.has_header,
        label_name=label_name if table.has_header else None,
    )


def _load_breast_cancer() -> Dataset:
    from sklearn.datasets import load_breast_cancer

    bunch = load_breast_cancer()
    X = validate_features(bunch.data)
    y, classes = encode_labels(bunch.target)
    return Dataset(
        X=X,
        y=y,
        name="breast_cancer",
        feature_names=[str(f) for f in bunch.feature_names],
        classes=classes,
    )


# --------------------------------------------------------------------------------------------
# Text files: refused early when binary, read with bounded memory, quoted briefly
# --------------------------------------------------------------------------------------------

#: the first bytes of a data file checked before any parsing (binary, not UTF-8)
SNIFF_BYTES = 1 << 20
#: the rest is scanned in chunks of this size (memory stays bounded by it)
CHUNK_BYTES = 8 << 20
#: CSV rows converted to floats at once
BLOCK_ROWS = 8192
#: the longest line a data file may have: the parsers hold a line as one Python object per
#: field (~30 bytes of memory per byte of line); 16 MB is a dense row of ~1M features
MAX_LINE_BYTES = 16 << 20
#: a LIBSVM file without n_features may number its features up to this many per byte of the
#: file (plus MIN_WIDTH_ALLOWANCE): a 15-byte line "1 2000000000:1" would otherwise make the
#: oracles allocate per-feature arrays of 16 GB
WIDTH_PER_BYTE, MIN_WIDTH_ALLOWANCE = 16, 1 << 20
#: an explicit n_features beyond that allowance is refused when it is also more than this many
#: times the file's own width (a model's width on a test file of fewer features still passes):
#: --n-features 1e12 was killed for memory at 23 GB, 1e7 took 1.6 GB for 200 rows
WIDTH_FACTOR = 1000

# bytes that do not occur in text: C0 controls other than tab, newlines, vertical tab, form
# feed and carriage return (UTF-8 never produces them inside a multi-byte character)
_NOT_TEXT = bytes(range(0x00, 0x09)) + bytes(range(0x0E, 0x20))
_TEXT = bytes(b for b in range(256) if b not in _NOT_TEXT)


def _first_binary(chunk: bytes) -> int:
    """Offset of the first non-text byte of ``chunk``, or -1."""
    if not chunk.translate(None, _TEXT):  # deletes every text byte, in C
        return -1
    return min(i for i in (chunk.find(bytes([b])) for b in _NOT_TEXT) if i >= 0)


def check_text_file(path: Path, kind: str) -> int:
    """Refuse a file that is not UTF-8 text (a binary file given as data) or has a line over
    :data:`MAX_LINE_BYTES`, reading it in chunks: the first megabyte decides for the usual
    cases (a file of NUL bytes fails at once), the rest is scanned with bounded memory before
    any parser sees it. Returns the number of lines (an upper bound on the rows)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    lines = 0  # line ends before this chunk (an upper bound on the rows)
    newlines = 0  # "\n" before this chunk (the line numbers of messages)
    run = 0  # bytes of the current, unfinished line before this chunk
    try:
        with open(path, "rb") as fh:
            chunk = fh.read(SNIFF_BYTES)
            while chunk:
                at = _first_binary(chunk)
                if at >= 0:
                    raise DualBoostInputError(
                        f"{kind} file {shown(str(path))} is not a text file: byte "
                        f"0x{chunk[at]:02x} at offset {offset + at} (a binary file? {kind} "
                        "data is UTF-8 text)")
                try:
                    decoder.decode(chunk, final=False)
                except UnicodeDecodeError as exc:
                    raise DualBoostInputError(
                        f"{kind} file {shown(str(path))} is not UTF-8 text: invalid byte at "
                        f"offset {offset + exc.start}") from None
                # line lengths, vectorized: the line ends of the chunk ("\n", and "\r" for
                # old Mac files; "\r\n" counts twice, harmless for a bound)
                codes = np.frombuffer(chunk, dtype=np.uint8)
                newline = codes == 0x0A
                ends = np.flatnonzero(newline | (codes == 0x0D))
                lengths = np.diff(ends, prepend=-1) - 1 if ends.size else ends
                if ends.size:
                    lengths[0] += run
                    run = len(chunk) - int(ends[-1]) - 1
                else:
                    run += len(chunk)
                longest = int(lengths.max()) if lengths.size else 0
                if max(longest, run) > MAX_LINE_BYTES:
                    at = int(ends[np.argmax(lengths)]) if longest > MAX_LINE_BYTES else len(chunk)
                    line = newlines + int(np.count_nonzero(newline[:at])) + 1
                    raise DualBoostInputError(
                        f"{kind} file {shown(str(path))}: line {line} is longer than "
                        f"{MAX_LINE_BYTES >> 20} MB (a malformed file? one example per line)")
                lines += int(ends.size)
                newlines += int(np.count_nonzero(newline))
                offset += len(chunk)
                chunk = fh.read(CHUNK_BYTES)
    except OSError as exc:
        raise DualBoostInputError(f"cannot read {kind} file {shown(str(path))}: "
                                  f"{exc.strerror or exc}") from None
    return lines + (1 if run else 0)


# -- CSV ---------------------------------------------------------------------------------------


def _parse_float(cell: str) -> float | None:
    """``float(cell)`` or ``None`` if the cell is not a number (empty cells are not numbers)."""
    try:
        return float(cell)
    except ValueError:
        return None


def _is_number(cell: str) -> bool:
    return _parse_float(cell) is not None


@dataclass
class CsvData:
    """A CSV file read by :func:`read_csv`: the chosen feature columns as floats, the label
    column's original values (numbers as floats, else strings) and the column names."""

    names: list[str]
    has_header: bool
    features: list[int]
    label: int | None
    X: np.ndarray
    labels: np.ndarray | None


def _rows(reader: Iterator[list[str]], get_line: Callable[[], int]
          ) -> Iterator[tuple[int, list[str]]]:
    for row in reader:
        cells = [c.strip() for c in row]
        if any(cells):
            yield get_line(), cells


def read_csv(path: Path, choose: Callable[[list[str], bool], tuple[list[int], int | None]]
             ) -> CsvData:
    """Read a CSV file with its header detected (the rule below); ``choose(names,
    has_header)`` returns the feature column indices and the label column (or None).

    Memory stays a small multiple of the file: rows are converted to floats in blocks of
    :data:`BLOCK_ROWS` into one array sized by the file's line count (8 bytes per feature cell
    of at least 2 bytes, one code per label), never kept as Python strings. Binary or
    non-UTF-8 content is refused first (:func:`check_text_file`).
    """
    name = shown(str(path))
    capacity = check_text_file(path, "CSV")
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh)
            rows = _rows(reader, lambda: reader.line_num)
            first = next(rows, None)
            if first is None:
                raise DualBoostInputError(f"CSV file {name} is empty: no rows")
            second = next(rows, None)
            has_header = _is_header(first[1], None if second is None else second[1])
            if has_header:
                names = [c if c else f"column_{j + 1}" for j, c in enumerate(first[1])]
                _refuse_duplicates(names, name)
                pending = [] if second is None else [second]
            else:
                names = [f"column_{j + 1}" for j in range(len(first[1]))]
                pending = [first] + ([] if second is None else [second])
            if not pending:
                raise DualBoostInputError(f"CSV file {name} has a header but no data rows")
            features, label = choose(names, has_header)
            X = np.empty((capacity, len(features)))
            codes = np.empty(capacity, dtype=np.intp)
            values: dict[str, int] = {}
            count = 0
            block = pending
            for item in rows:
                block.append(item)
                if len(block) >= BLOCK_ROWS:
                    count = _block(block, names, features, label, X, codes, count, values, name)
                    block = []
            if block:
                count = _block(block, names, features, label, X, codes, count, values, name)
    except (UnicodeDecodeError, csv.Error) as exc:
        raise DualBoostInputError(f"cannot read CSV file {name}: "
                                  f"{shown(str(exc), 120)[1:-1]}") from None
    except OSError as exc:
        raise DualBoostInputError(f"cannot read CSV file {name}: {exc.strerror or exc}") \
            from None
    X = X[:count]  # a view: the rows' upper bound was the line count
    labels = None
    if label is not None:
        uniques = list(values)
        numbers = [_parse_float(v) for v in uniques]
        table = (np.array(numbers, dtype=float) if all(v is not None for v in numbers)
                 else np.array(uniques, dtype=str))
        labels = table[codes[:count]]
    return CsvData(names, has_header, list(features), label, X, labels)


def _refuse_duplicates(names: list[str], name: str) -> None:
    """A header naming two columns alike is an error: the model records its features by name,
    and a file with two columns of one name cannot be read back unambiguously (a model fitted
    on it was refused by ``predict`` on its own training file)."""
    seen: dict[str, int] = {}
    for j, column in enumerate(names):
        if column in seen:
            raise DualBoostInputError(
                f"CSV file {name} has two columns named {column[:ECHO_CHARS]!r} (columns "
                f"{seen[column] + 1} and {j + 1}); rename one")
        seen[column] = j


def _is_header(first: list[str], second: list[str] | None) -> bool:
    """The first row is a header if it has a non-numeric cell and either it is the only row,
    all its cells are non-numeric, or some column is non-numeric in the first row but numeric
    in the second (a string label column alone does not make a header)."""
    first_num = [_is_number(c) for c in first]
    if all(first_num):
        return False
    if second is None or not any(first_num):
        return True
    return any(not first_num[j] and j < len(second) and _is_number(second[j])
               for j in range(len(first)))


def _block(block: list[tuple[int, list[str]]], names: list[str], features: list[int],
           label: int | None, X: np.ndarray, codes: np.ndarray, count: int,
           values: dict[str, int], name: str) -> int:
    """The feature cells of ``block`` as floats into ``X[count:]``, the label cells' codes
    (indices into ``values``) into ``codes[count:]``; returns the new row count."""
    n_cols = len(names)
    for line, cells in block:
        if len(cells) != n_cols:
            raise DualBoostInputError(
                f"CSV file {name}: line {line} has {len(cells)} fields, expected {n_cols}")
    cells = [[r[j] for j in features] for _, r in block]
    end = count + len(block)
    try:
        X[count:end] = np.array(cells, dtype=float).reshape(len(block), len(features))
    except ValueError:
        for k, j in enumerate(features):  # only on failure: find the first bad cell
            for i, (line, r) in enumerate(block):
                if _parse_float(cells[i][k]) is None:
                    raise DualBoostInputError(
                        f"CSV file {name}: feature column {shown(names[j])} is not numeric "
                        f"(line {line} has {shown(r[j])})") from None
        raise
    if label is not None:
        for i, (line, r) in enumerate(block):
            cell = r[label]
            if cell == "":
                raise DualBoostInputError(f"CSV file {name}: label column {shown(names[label])} "
                                          f"is empty on line {line}")
            codes[count + i] = values.setdefault(cell, len(values))
    return end


def fit_columns(names: list[str], has_header: bool, label: str | None, name: str,
                kind: str = "CSV file") -> tuple[list[int], int]:
    """The feature columns and the label column of training data with columns ``names``: the
    column named ``label``, by default the last one; every other column is a feature."""
    n_cols = len(names)
    if n_cols < 2:
        raise DualBoostInputError(
            f"{kind} {name} has {n_cols} column; need at least one feature column "
            f"and a label column")
    if label is None:
        j_label = n_cols - 1
    else:
        matches = [j for j, nm in enumerate(names) if nm == label]
        if not matches:
            raise DualBoostInputError(
                f"label column {shown(label)} not found in {name}; available columns: "
                + shown(", ".join(names), 400)[1:-1])
        if len(matches) > 1:
            raise DualBoostInputError(
                f"label column {shown(label)} occurs {len(matches)} times in {name}")
        j_label = matches[0]
    return [j for j in range(n_cols) if j != j_label], j_label


def _load_csv(path: Path, label: str | None) -> Dataset:
    name = shown(str(path))

    def choose(names: list[str], has_header: bool) -> tuple[list[int], int]:
        return fit_columns(names, has_header, label, name)

    table = read_csv(path, choose)
    X = validate_features(table.X)
    y, classes = encode_labels(table.labels)
    return Dataset(
        X=X,
        y=y,
        name=path.name,
        feature_names=[table.names[j] for j in table.features],
        classes=classes,
        named_columns=table.has_header,
        label_name=table.names[table.label],
    )


# -- LIBSVM ------------------------------------------------------------------------------------

# one data line: a label, then index:value pairs (qid:... allowed), then an optional comment
_LIBSVM_LINE = re.compile(r"^\s*[^\s:#]+(\s+[^\s:#]+:[^\s:#]+)*\s*(#.*)?$")


def _check_libsvm_start(path: Path, name: str) -> None:
    """The first data line must look like LIBSVM (a CSV file without .csv, a text file of
    other content), checked on at most the first megabyte."""
    with open(path, "rb") as fh:
        head = fh.read(SNIFF_BYTES)
    lines = head.split(b"\n")
    if len(head) == SNIFF_BYTES:
        lines = lines[:-1]  # the last one may be cut: judge only complete lines
    for number, raw in enumerate(lines, start=1):
        line = raw.decode("utf-8", errors="replace").strip()
        if not line or line.startswith("#"):
            continue
        if not _LIBSVM_LINE.match(line):
            raise DualBoostInputError(
                f"cannot parse {name} as LIBSVM ('<label> <index>:<value> ...' per line; use "
                f"a .csv extension for CSV): line {number} is {shown(line)}")
        return


_COMMENT = re.compile(rb"#[^\n]*")
_QID = re.compile(rb"(?<=\s)qid:\S*")
#: the bytes that separate fields: space, tab, carriage return, newline, vertical tab, form feed
_SPACE_BYTES = np.array([32, 9, 13, 10, 11, 12], dtype=np.uint8)


#: the bytes of a file of plain decimal numbers (digits, sign, point, exponent), separators
_PLAIN_BYTES = np.frombuffer(b"0123456789+-.eE: \t\r\n\x0b\x0c", dtype=np.uint8)


def _plain_numbers(text: bytes, raw: np.ndarray, n_fields: int) -> np.ndarray | None:
    """The fields of ``text`` as floats by numpy's C parser, when every byte is one of a plain
    decimal number or a separator and every field parses (exactly ``n_fields`` numbers); None
    otherwise (the caller's token-by-token path then names the bad field). Three times faster
    than making a token array and converting it (a9a.train: 0.10 s against 0.26 s)."""
    if raw.size == 0 or not np.isin(raw, _PLAIN_BYTES).all():
        return None  # e.g. "nan", "inf" or hexadecimal: the strict path decides
    with warnings.catch_warnings():
        # a field that does not parse ends numpy's reading early with a DeprecationWarning
        warnings.simplefilter("error")
        try:
            numbers = np.fromstring(text.replace(b":", b" "), sep=" ")
        except (ValueError, DeprecationWarning):
            return None
    return numbers if numbers.size == n_fields else None


def parse_libsvm(text: bytes) -> tuple[sp.csr_matrix, np.ndarray]:
    """LIBSVM/svmlight text as (X as CSR with the indices as written, labels as floats).

    Vectorized over the whole file (no Python loop over lines): comments (``# ...``) and
    ``qid:`` fields are dropped, every ``:`` becomes a field separator, and each field is
    assigned to its line by counting the newlines before it; the first field of a line is its
    label, the rest alternate index, value. A line whose ``:`` count is not its number of
    pairs, a ``:`` not joining two fields, a negative or fractional index, a repeated index in
    a row, or a field that is not a number raises ValueError naming the line. (scikit-learn's
    reader does the same in compiled code, but importing it costs a second per command.)
    """
    if b"#" in text:
        text = _COMMENT.sub(b"", text)
    if b"qid:" in text:
        text = _QID.sub(b"", text)
    raw = np.frombuffer(text, dtype=np.uint8)
    space = np.isin(raw, _SPACE_BYTES)
    colon = raw == ord(":")
    line_of = np.cumsum(raw == ord("\n"))  # line number (from 0) of every byte
    n_lines = int(line_of[-1]) + 1 if raw.size else 0
    separator = space | colon
    starts = np.flatnonzero(~separator & np.concatenate(([True], separator[:-1])))
    colons = np.flatnonzero(colon)
    loose = (colons == 0) | (colons == raw.size - 1)
    inner = colons[~loose]
    loose[~loose] = separator[inner - 1] | separator[inner + 1]
    if loose.any():
        raise ValueError(f"line {int(line_of[colons[loose][0]]) + 1}: a ':' that does not join "
                         "an index and a value")
    fields_per_line = np.bincount(line_of[starts], minlength=n_lines)
    pairs_per_line = np.bincount(line_of[colons], minlength=n_lines)
    used = fields_per_line > 0
    bad = used & (fields_per_line != 1 + 2 * pairs_per_line)
    if bad.any():
        raise ValueError(f"line {int(np.flatnonzero(bad)[0]) + 1}: expected '<label> "
                         "<index>:<value> ...'")
    numbers = _plain_numbers(text, raw, starts.size)
    if numbers is None:
        tokens = np.array(text.replace(b":", b" ").split())
        try:
            numbers = tokens.astype(np.float64)
        except ValueError:
            numbers = None
    if numbers is None:  # name the first field that is not a number
        for position, token in enumerate(tokens):
            try:
                float(token)
            except ValueError:
                line = int(line_of[starts[position]]) + 1
                raise ValueError(f"line {line}: {token.decode(errors='replace')[:40]!r} is not "
                                 "a number") from None
        raise ValueError("a field is not a plain decimal number")
    if numbers.size == 0:
        return sp.csr_matrix((0, 0)), numbers
    counts = fields_per_line[used]
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    is_label = np.zeros(numbers.size, dtype=bool)
    is_label[first] = True
    labels = numbers[is_label]
    pairs = numbers[~is_label].reshape(-1, 2)
    index, values = pairs[:, 0], pairs[:, 1]
    invalid = (index < 0) | (index != np.floor(index)) | ~np.isfinite(index)
    row_of_pair = np.repeat(np.arange(labels.size), pairs_per_line[used])
    if invalid.any():
        line = int(np.flatnonzero(used)[row_of_pair[np.flatnonzero(invalid)[0]]]) + 1
        raise ValueError(f"line {line}: feature index {index[invalid][0]:g} is not a "
                         "non-negative integer")
    columns = index.astype(np.int64)
    order = np.lexsort((columns, row_of_pair))
    repeated = (np.diff(row_of_pair[order]) == 0) & (np.diff(columns[order]) == 0)
    if repeated.any():
        pair = order[np.flatnonzero(repeated)[0]]
        line = int(np.flatnonzero(used)[row_of_pair[pair]]) + 1
        raise ValueError(f"line {line}: feature index {columns[pair]} appears twice")
    indptr = np.concatenate(([0], np.cumsum(pairs_per_line[used])))
    width = int(columns.max()) + 1 if columns.size else 0
    X = sp.csr_matrix((values[order], columns[order], indptr), shape=(labels.size, width))
    return X, labels


def read_libsvm(path: Path, *, n_features: int | None = None, index_base: int | None = None
                ) -> tuple[sp.csr_matrix, np.ndarray, int]:
    """A LIBSVM file as (X CSR float64, raw labels, index base).

    ``index_base`` is the feature numbering: with 1 the entry ``j:v`` is column ``j - 1``, with
    0 it is column ``j``; None decides from this file (0 when it has an index 0, else 1), as
    the training data of a model does; a model then reads every later file with its base. An
    index 0 under base 1, or a column at or beyond ``n_features``, is an error naming it.
    """
    name = shown(str(path))
    check_text_file(path, "LIBSVM")
    _check_libsvm_start(path, name)
    try:
        raw, y_raw = parse_libsvm(path.read_bytes())  # indices as written
    except ValueError as exc:
        raise DualBoostInputError(
            f"cannot parse {name} as LIBSVM ('<label> <index>:<value> ...' per line; use a "
            f".csv extension for CSV): {exc}") from None
    if raw.shape[0] == 0:
        raise DualBoostInputError(f"LIBSVM file {name} is empty: no rows")
    allowance = WIDTH_PER_BYTE * path.stat().st_size + MIN_WIDTH_ALLOWANCE
    if n_features is None and raw.shape[1] > allowance:
        raise DualBoostInputError(
            f"LIBSVM file {name} has feature index {raw.shape[1] - 1}, implausibly large for "
            f"a file of {path.stat().st_size} bytes (every feature up to it would cost memory); "
            "give the width with --n-features if it is meant")
    has_zero = raw.nnz > 0 and int(raw.indices.min()) == 0
    if index_base is None:
        index_base = 0 if has_zero else 1
    if index_base == 1 and has_zero:
        row = int(np.searchsorted(raw.indptr, int(np.flatnonzero(raw.indices == 0)[0]),
                                  side="right")) - 1
        raise DualBoostInputError(
            f"LIBSVM file {name} has feature index 0 (data row {row + 1}) but its features are "
            "numbered from 1 (the training data's numbering, recorded in the model as "
            "libsvm_index_base; --index-base)")
    width = max(0, raw.shape[1] - index_base)
    if index_base == 1:
        raw = sp.csr_matrix(raw[:, 1:])
    if n_features is not None:
        if n_features > allowance and n_features > WIDTH_FACTOR * (width + 1):
            raise DualBoostInputError(
                f"n_features = {n_features} is implausible for LIBSVM file {name} "
                f"({path.stat().st_size} bytes, largest feature index "
                f"{width - 1 + index_base}): every feature up to it costs memory (about "
                f"{n_features * 8 / 1e9:.3g} GB a per-feature array); give the training data's "
                "width")
        if width > n_features:
            top = width - 1 + index_base
            raise DualBoostInputError(
                f"LIBSVM file {name} has feature index {top} (features numbered from "
                f"{index_base}), above n_features={n_features}, the training data's width "
                f"(its last index is {n_features - 1 + index_base})")
        raw = sp.csr_matrix((raw.data, raw.indices, raw.indptr),
                            shape=(raw.shape[0], n_features))
    X = validate_features(raw)  # stays sparse (CSR float64)
    return X, y_raw, index_base
