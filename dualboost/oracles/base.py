"""Weak learners ("oracles") and the hypotheses they return.

Notation (thesis Tables 2.1 and 3.1): the examples are ``(x_n, y_n)``, n = 1..N, with
``y_n in {-1, +1}``. A hypothesis ``h`` maps an example to ``[-1, 1]``; its *column* is
``u = y * h(X)`` (elementwise), a vector in ``[-1, 1]^N``, and its *edge* under a distribution
``d`` is ``u . d`` (Def. 2.1). An oracle knows a class H of hypotheses and, given ``d``, returns
a hypothesis of maximum edge over H -- exactly, because column generation certifies optimality
only when the oracle's answer really is the maximum.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..errors import DualBoostInputError


class Hypothesis(ABC):
    """A map from examples to ``[-1, 1]``.

    Subclasses are small picklable value objects (frozen dataclasses), so their ``repr`` shows
    every parameter and two equal hypotheses compare equal.
    """

    @abstractmethod
    def predict(self, X: Any) -> np.ndarray:
        """Predictions on the M rows of ``X``: float array, shape (M,), values in [-1, 1]."""

    @abstractmethod
    def describe(self) -> dict:
        """A JSON-serializable description (plain ints, floats, strings and None only)."""

    def column(self, X: Any, y: np.ndarray) -> np.ndarray:
        """The column ``u = y * h(X)`` of this hypothesis on labelled examples."""
        return np.asarray(y, dtype=float) * self.predict(X)


class Oracle(ABC):
    """Exact maximum-edge weak learner over a fixed hypothesis class.

    Use: ``oracle.fit(X, y)`` once, then ``oracle.best(d)`` for each distribution ``d``.
    """

    #: Short name used by :func:`dualboost.oracles.make_oracle` and in reports.
    name: str = ""

    #: Whether ``best(d)`` is a hypothesis of maximum edge over the whole class. Only then is
    #: each best edge an upper bound on the soft-margin optimum g over the class (weak duality
    #: of (2.2)/(2.3)), so that gamma_hat = min_t edge^t >= g, "soft margin >= g - eps" and the
    #: early stops that read them hold (docs/theory.md L5, "Heuristic oracles"); a heuristic
    #: oracle (False) keeps every certificate over the hypotheses it found.
    exact: bool = True

    _n_examples: int | None = None

    @property
    def n_examples(self) -> int:
        """N, the number of training examples given to :meth:`fit`."""
        self._check_fitted()
        assert self._n_examples is not None
        return self._n_examples

    @abstractmethod
    def fit(self, X: Any, y: Any) -> Oracle:
        """One-time set-up on the training examples; ``y`` holds -1.0 / +1.0. Returns self."""

    @abstractmethod
    def best(self, d: Any) -> tuple[Hypothesis, np.ndarray]:
        """A hypothesis of maximum edge ``u . d`` over the class, and its column ``u`` (shape (N,)).

        ``d`` is normally a distribution, but any finite weight vector of shape (N,) is accepted
        (solvers return entries like -1e-16); the answer is the exact maximizer for the given
        weights, ties broken by the first hypothesis in the class's fixed enumeration order.
        """

    def candidates(self, d: Any) -> list[tuple[Hypothesis, np.ndarray]]:
        """Hypotheses worth adding together in one column-generation step, ``best(d)`` first.

        The class may split into parts (the stump class: one part per feature); an oracle that
        knows such parts offers the best hypothesis of each, by decreasing edge, without
        repeated columns. The base class offers ``best(d)`` alone. An algorithm that adds
        several columns per master solve (LPBoost's ``pricing="multiple"``) asks this; the
        others ask :meth:`best`.
        """
        return [self.best(d)]

    @abstractmethod
    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        """Every distinct column of the class on the training set, as an N x K matrix.

        Duplicated columns are removed, keeping the first in the class's enumeration order
        (the order ``best`` uses for ties); the list gives the matching hypotheses. Solving the
        LP over all K columns certifies the optimum that column generation reaches.
        """

    # --- shared helpers ----------------------------------------------------------------------

    def _check_fitted(self) -> None:
        if self._n_examples is None:
            raise DualBoostInputError(
                f"{type(self).__name__} is not fitted; call fit(X, y) first"
            )

    def _check_d(self, d: Any) -> np.ndarray:
        self._check_fitted()
        return as_weights(d, self.n_examples)


def as_float_array(a: Any, what: str) -> np.ndarray:
    """``np.asarray(a, float)`` that turns every conversion failure into one clear input error."""
    if a is None:
        raise DualBoostInputError(f"{what} is required, got None")
    if np.iscomplexobj(a):
        # A silent cast would drop the imaginary part.
        raise DualBoostInputError(f"{what} must be real, got complex values")
    try:
        return np.asarray(a, dtype=float)
    except (TypeError, ValueError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DualBoostInputError(f"{what} must be numeric: {msg}") from None


def as_feature_matrix(X: Any, what: str = "X") -> np.ndarray | sp.csc_matrix:
    """Validate a feature matrix: 2-D float, at least one row and column, all finite.

    A scipy.sparse matrix (any format, matrix or array API) stays sparse: it is returned as a
    canonical float64 ``scipy.sparse.csc_matrix`` (summed duplicates, no stored zeros, sorted
    indices), checked for finiteness on its stored values only, in O(nnz + F) time and memory.
    Anything else is returned as a dense float array.
    """
    if sp.issparse(X):
        return _as_sparse_features(X, what)
    X = as_float_array(X, what)
    _check_matrix_shape(X, what, "array")
    if not np.all(np.isfinite(X)):
        bad = int(np.count_nonzero(~np.isfinite(X)))
        raise DualBoostInputError(f"{what} must be finite, found {bad} NaN or infinite value(s)")
    return X


def _check_matrix_shape(X: Any, what: str, kind: str) -> None:
    """2-D with at least one row and one column (``kind`` names it: array or matrix)."""
    if X.ndim != 2:
        raise DualBoostInputError(f"{what} must be a 2-D {kind} (examples x features), "
                                  f"got shape {X.shape}")
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise DualBoostInputError(f"{what} must have at least one row and one column, "
                                  f"got shape {X.shape}")


def _as_sparse_features(X: Any, what: str) -> sp.csc_matrix:
    _check_matrix_shape(X, what, "matrix")
    if np.iscomplexobj(X.data if hasattr(X, "data") else X.tocoo().data):
        raise DualBoostInputError(f"{what} must be real, got complex values")
    try:
        # csc_matrix(...) copies, so the canonicalization below never touches the caller's X.
        Xc = sp.csc_matrix(X, dtype=np.float64, copy=True)
    except (TypeError, ValueError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DualBoostInputError(f"{what} must be numeric: {msg}") from None
    Xc.sum_duplicates()  # also sorts the indices
    if not np.all(np.isfinite(Xc.data)):
        bad = int(np.count_nonzero(~np.isfinite(Xc.data)))
        raise DualBoostInputError(f"{what} must be finite, found {bad} NaN or infinite value(s)")
    Xc.eliminate_zeros()
    return Xc


def feature_column(X: Any, j: int) -> np.ndarray:
    """Column ``j`` of a dense or scipy.sparse ``X`` as a dense float array of shape (M,).

    For CSC this reads one column (O(nnz_j + M)); other sparse formats pay one pass over their
    stored entries (O(nnz + M)), never a dense copy of X.
    """
    if not sp.issparse(X):
        return np.asarray(X[:, j], dtype=float)
    m = X.shape[0]
    out = np.zeros(m)
    if X.format == "csc":
        lo, hi = X.indptr[j], X.indptr[j + 1]
        if X.has_canonical_format:
            out[X.indices[lo:hi]] = X.data[lo:hi]
        else:
            np.add.at(out, X.indices[lo:hi], X.data[lo:hi])  # duplicates are summed
        return out
    if X.format == "csr":
        hit = X.indices == j
        rows = np.repeat(np.arange(m), np.diff(X.indptr))[hit]
        np.add.at(out, rows, X.data[hit])
        return out
    coo = X.tocoo()
    hit = coo.col == j
    np.add.at(out, coo.row[hit], coo.data[hit])
    return out
def as_labels(y: Any, n_examples: int) -> np.ndarray:
    """Validate labels: shape (N,), every entry exactly -1 or +1; returned as floats."""
    y = as_float_array(y, "y")
    if y.ndim != 1 or y.shape[0] != n_examples:
        raise DualBoostInputError(f"y must have shape ({n_examples},) to match the examples, "
                                  f"got shape {y.shape}")
    bad = ~((y == 1.0) | (y == -1.0))
    if np.any(bad):
        values = np.unique(y[bad])[:5]
        raise DualBoostInputError(f"y must contain only -1 and +1, found {values.tolist()}")
    return y


def as_weights(d: Any, n_examples: int) -> np.ndarray:
    """Validate a weight vector ``d``: shape (N,), finite."""
    d = as_float_array(d, "d")
    if d.ndim != 1 or d.shape[0] != n_examples:
        raise DualBoostInputError(f"d must have shape ({n_examples},), got shape {d.shape}")
    if not np.all(np.isfinite(d)):
        raise DualBoostInputError("d must be finite, found NaN or infinite values")
    return d


def distinct_columns(
    U: np.ndarray, hypotheses: list[Hypothesis]
) -> tuple[np.ndarray, list[Hypothesis]]:
    """Drop repeated columns of ``U`` (and their hypotheses), keeping first occurrences in order
    (compared by value, :func:`first_distinct_rows` on the columns)."""
    keep = np.zeros(U.shape[1], dtype=bool)
    keep[first_distinct_rows([U[:, k] for k in range(U.shape[1])])] = True
    # a boolean selection: an index array over the columns of a row-major U gathers element by
    # element (0.2 s at 1e5 x 51, against 0.01 s)
    return U.compress(keep, axis=1), [h for h, kept in zip(hypotheses, keep.tolist()) if kept]


def first_distinct_rows(V: np.ndarray | list[np.ndarray]) -> list[int]:
    """The index of the first occurrence of each distinct row of ``V`` (a 2-D array or a list of
    1-D arrays of one length), in order; rows are compared by value (-0.0 equals 0.0).

    Each row gets an exact fingerprint: its bit patterns ``b`` (after ``+ 0.0``, which maps -0.0
    to 0.0), folded as ``b ^ (b >> 32)`` (so that the sign and exponent bits, where +-1 differ,
    reach the low bits) and multiplied by fixed random weights, summed modulo 2**64: integer
    arithmetic, so equal rows have equal fingerprints whatever the order of the sum; rows with
    the same fingerprint are compared by value. A few numpy passes over V (hashing every row's
    ``tobytes()`` cost half of a stump ``candidates`` call at N = 1e5)."""
    rows = [np.asarray(v, dtype=float) for v in V]
    if not rows:
        return []
    n = rows[0].shape[0]
    weights = np.random.default_rng(0).integers(0, 2**64 - 1, size=n, dtype=np.uint64,
                                                endpoint=True)
    row, product = np.empty(n), np.empty(n, dtype=np.uint64)
    seen: dict[int, list[int]] = {}
    keep: list[int] = []
    for i, v in enumerate(rows):
        np.add(v, 0.0, out=row)
        np.right_shift(row.view(np.uint64), np.uint64(32), out=product)
        np.bitwise_xor(product, row.view(np.uint64), out=product)
        np.multiply(product, weights, out=product)
        same = seen.setdefault(int(product.sum(dtype=np.uint64)), [])
        if not any(np.array_equal(rows[j], v) for j in same):
            same.append(i)
            keep.append(i)
    return keep


#: At most this many earlier near-ties are examined by :func:`first_equal_column`.
EQUAL_COLUMN_CANDIDATES = 16


def first_equal_column(
    plus: np.ndarray, minus: np.ndarray, k: int, sign: int,
    column_of: Callable[[int, int], np.ndarray], scale: float,
) -> tuple[int, int, np.ndarray]:
    """Make the tie-break independent of rounding for hypotheses with *equal columns*.

    ``plus[i]`` / ``minus[i]`` are the edges of candidate i with sign +1 / -1 (``-inf`` where
    invalid), enumerated as ``(+0, -0, +1, -1, ...)``, and ``(k, sign)`` is the first maximum of
    that sequence. Two hypotheses with the same column (say two complementary 0/1 features) have
    the same edge, but their computed edges are sums in different orders and may differ in the
    last bits, so the first maximum would depend on rounding (and differ between the dense and
    the sparse oracle). This returns the first candidate in the enumeration order whose column
    equals the winner's column -- the hypothesis :meth:`Oracle.all_columns` keeps for it -- by
    checking the earlier candidates whose edge is within rounding (``1e-9 * scale``, scale =
    ``sum |w|``) of the maximum, at most :data:`EQUAL_COLUMN_CANDIDATES` of them. Returns
    ``(k, sign, column)``.
    """
    top = plus[k] if sign > 0 else minus[k]
    tol = 1e-9 * scale
    win = 2 * k + (sign < 0)
    keys = np.union1d(2 * np.flatnonzero(plus[:k + 1] >= top - tol),
                      2 * np.flatnonzero(minus[:k + 1] >= top - tol) + 1)
    keys = keys[keys < win][:EQUAL_COLUMN_CANDIDATES]
    return earliest_equal_column(keys, k, sign, column_of)


def earliest_equal_column(
    keys: np.ndarray, k: int, sign: int, column_of: Callable[[int, int], np.ndarray],
) -> tuple[int, int, np.ndarray]:
    """The column check of :func:`first_equal_column` on its near-ties given as increasing
    *keys* ``2 i`` (candidate i, sign +1) / ``2 i + 1`` (sign -1), all before the winner
    ``(k, sign)``: the first whose column equals the winner's, else the winner; returns
    ``(i, s, column)``. For an oracle that finds the near-ties without holding every edge."""
    u = column_of(k, sign)
    for key in keys.tolist():
        i, s = key // 2, (1 if key % 2 == 0 else -1)
        v = column_of(i, s)
        if np.array_equal(v, u):
            return i, s, v
    return k, sign, u


def check_predict_input(
    X: Any, column: int, owner: str, n_columns: int | None = None
) -> np.ndarray:
    """Validate ``X`` given to ``predict`` and return its finite column ``column`` (shape (M,)).

    Only the column a hypothesis reads is checked for finiteness: an ensemble predicts with many
    hypotheses, and re-scanning all of X for each would cost O(M F) instead of O(M). A
    scipy.sparse ``X`` is accepted; only that one column is made dense.
    """
    if not sp.issparse(X):
        X = as_float_array(X, "X")
    if X.ndim != 2:
        raise DualBoostInputError(f"{owner}.predict needs a 2-D X, got shape {X.shape}")
    if n_columns is not None and X.shape[1] != n_columns:
        raise DualBoostInputError(f"{owner}.predict needs exactly {n_columns} column(s) in X, "
                                  f"got shape {X.shape}")
    if X.shape[1] <= column:
        raise DualBoostInputError(f"{owner}.predict needs at least {column + 1} column(s) in X, "
                                  f"got shape {X.shape}")
    if sp.issparse(X):
        if np.iscomplexobj(X.data if hasattr(X, "data") else X.tocoo().data):
            raise DualBoostInputError("X must be real, got complex values")
        x = feature_column(X, column)
    else:
        x = X[:, column]
    if not np.all(np.isfinite(x)):
        raise DualBoostInputError(f"{owner}.predict: column {column} of X must be finite, "
                                  "found NaN or infinite values")
    return x


def combined_scores(weights: Any, hypotheses: list, X: Any) -> np.ndarray:
    """f(x) = sum_q w_q h^q(x) on the rows of X, summed in the order of the hypotheses so that a
    run, a fitted estimator and a saved model give the same scores bit for bit."""
    out = np.zeros(X.shape[0] if hasattr(X, "shape") else len(X))
    first = True
    for weight, h in zip(weights, hypotheses):
        term = weight * np.asarray(h.predict(X), dtype=float)
        out = term if first else out + term
        first = False
    return np.asarray(out, dtype=float).reshape(-1)
