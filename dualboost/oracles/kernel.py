"""SVM hypotheses (linear-kernel columns), the thesis's third hypothesis class (§5).

Hypothesis i is a training example used as a linear classifier,
``h_i(x) = <x_i, x> / s``, with its negation (the class is reflexive: 2N hypotheses).
The scale ``s = max_n ||x_n||^2`` over the training rows makes every training value lie in
``[-1, 1]`` (Cauchy-Schwarz: ``|<x_i, x_n>| <= ||x_i|| ||x_n|| <= s``); on new data the value is
clipped to ``[-1, 1]``. The thesis does not say how it scaled these hypotheses; on a9a (binary
rows with 14 ones) ``s = 14``.

With ``r = d * y`` the edge of ``h_i`` is ``sum_n r_n <x_n, x_i> / s = (X (X^T r))_i / s``, so
``best(d)`` costs two sparse matrix-vector products, O(nnz(X)), never the N x N kernel matrix.

A chosen hypothesis keeps its training row sparsely (nonzero feature indices and values) and
``s``: its ``describe()`` is a complete model of it, which ``dualboost fit --json`` writes and
``dualboost predict`` rebuilds (:mod:`dualboost.model_io`). On new data it reads only the row's
support columns of X (:func:`support_products`), sparse X staying sparse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..errors import DualBoostInputError
from .base import (
    Hypothesis,
    Oracle,
    as_feature_matrix,
    as_float_array,
    as_labels,
    distinct_columns,
)

#: all_columns() builds the dense N x 2N matrix only up to this N
ALL_COLUMNS_MAX_N = 5000


def support_products(X: Any, features: np.ndarray, values: np.ndarray, n_features: int,
                     owner: str = "KernelHypothesis") -> np.ndarray:
    """``<x, v>`` for every row x of ``X``, where ``v`` is zero outside ``features``.

    Only the support columns are read (and checked for finiteness), so a NaN in a column the
    hypothesis ignores does not spoil it. Each row's sum is taken over the support in increasing
    feature order, starting from 0, for dense, CSR and CSC input alike, so the three give the
    same bits (a model's scores do not depend on the format of X). Sparse X stays sparse:
    O(nnz(X)) for CSR, O(nnz of the support columns + M) for CSC.
    """
    if sp.issparse(X):
        if np.iscomplexobj(X.data if hasattr(X, "data") else X.tocoo().data):
            raise DualBoostInputError("X must be real, got complex values")
        if X.ndim != 2:
            raise DualBoostInputError(f"{owner}.predict needs a 2-D X, got shape {X.shape}")
    else:
        X = as_float_array(X, "X")
        if X.ndim != 2:
            raise DualBoostInputError(f"{owner}.predict needs a 2-D X, got shape {X.shape}")
    if X.shape[1] != n_features:
        raise DualBoostInputError(f"{owner}.predict needs {n_features} column(s) in X, "
                                  f"got shape {X.shape}")
    M = X.shape[0]
    if not sp.issparse(X):
        out = np.zeros(M)
        for j, v in zip(features.tolist(), values.tolist()):  # over the support, not examples
            col = X[:, j]
            if not np.all(np.isfinite(col)):
                raise DualBoostInputError(f"{owner}.predict: column {j} of X must be finite, "
                                          "found NaN or infinite values")
            out += col * v
        return out
    X = X if X.format in ("csr", "csc") else X.tocsr()
    if not X.has_canonical_format:  # duplicates summed first, indices sorted: a fixed order
        X = X.copy()
        X.sum_duplicates()
    data = np.asarray(X.data, dtype=float)
    dense_v = np.zeros(n_features)
    dense_v[features] = values
    if X.format == "csr":
        in_support = np.zeros(n_features, dtype=bool)
        in_support[features] = True
        hit = in_support[X.indices]
        rows = np.repeat(np.arange(M), np.diff(X.indptr))[hit]
        cols = X.indices[hit]
    else:  # csc: the support columns' entries, column after column
        lo, hi = X.indptr[features], X.indptr[features + 1]
        counts = hi - lo
        sel = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        rows = X.indices[sel]
        cols = np.repeat(features, counts)
        hit = sel
    entries = data[hit]
    if not np.all(np.isfinite(entries)):
        raise DualBoostInputError(f"{owner}.predict: the columns of X it reads must be finite, "
                                  "found NaN or infinite values")
    return np.bincount(rows, weights=entries * dense_v[cols], minlength=M)


@dataclass(frozen=True)
class KernelHypothesis(Hypothesis):
    """``x -> sign * clip(<support, x> / scale, -1, 1)``: training row ``index`` as a linear
    classifier. The row is stored sparsely, as its nonzero feature indices (increasing) and
    values, so the hypothesis is a small value object and its JSON description is a complete
    model of it (``dualboost.model_io``)."""

    index: int
    sign: int
    scale: float
    features: tuple
    values: tuple
    n_features: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", int(self.index))
        object.__setattr__(self, "sign", 1 if self.sign > 0 else -1)
        object.__setattr__(self, "scale", float(self.scale))
        object.__setattr__(self, "features", tuple(int(j) for j in self.features))
        object.__setattr__(self, "values", tuple(float(v) for v in self.values))
        object.__setattr__(self, "n_features", int(self.n_features))

    def raw(self, X: Any) -> np.ndarray:
        """``<x_index, x>`` on the rows of X, unscaled and unclipped."""
        return support_products(X, np.asarray(self.features, dtype=np.intp),
                                np.asarray(self.values, dtype=float), self.n_features)

    def predict(self, X: Any) -> np.ndarray:
        # New data may lie beyond the training rows' norms: clip to the hypothesis range.
        with np.errstate(over="ignore"):
            return self.sign * np.clip(self.raw(X) / self.scale, -1.0, 1.0)

    def describe(self) -> dict:
        return {"type": "kernel", "index": self.index, "sign": self.sign, "scale": self.scale,
                "features": list(self.features), "values": list(self.values),
                "n_features": self.n_features}


class KernelOracle(Oracle):
    """Exact best signed linear-kernel column ``+-<x_i, .>/s`` (see the module docstring).

    Enumeration order (ties): example 0 with sign +1, example 0 with sign -1, example 1, ...
    """

    name = "kernel"

    def fit(self, X: Any, y: Any) -> KernelOracle:
        X = as_feature_matrix(X)
        y = as_labels(y, X.shape[0])
        self._X = X.tocsr() if sp.issparse(X) else X
        self._Xt = self._X.T.tocsr() if sp.issparse(X) else None
        self._y = y
        self._n_examples = X.shape[0]
        sq = (np.asarray(self._X.multiply(self._X).sum(axis=1)).ravel() if sp.issparse(X)
              else np.einsum("ij,ij->i", X, X))
        scale = float(sq.max())
        self.scale = scale if scale > 0 else 1.0  # all-zero rows: every hypothesis is 0
        return self

    def _scores(self, r: np.ndarray) -> np.ndarray:
        """``X (X^T r) / s``: the edges of the +1 hypotheses."""
        if self._Xt is not None:
            return (self._X @ (self._Xt @ r)) / self.scale
        return (self._X @ (r @ self._X)) / self.scale

    def _hypothesis(self, i: int, sign: int) -> KernelHypothesis:
        if sp.issparse(self._X):
            row = self._X.getrow(i)
            features, values = row.indices.tolist(), row.data.tolist()
        else:
            nz = np.flatnonzero(self._X[i])
            features, values = nz.tolist(), self._X[i, nz].tolist()
        return KernelHypothesis(int(i), int(sign), self.scale, tuple(features), tuple(values),
                                int(self._X.shape[1]))

    def _column(self, i: int, sign: int) -> np.ndarray:
        if sp.issparse(self._X):
            k = np.asarray(self._X @ self._X.getrow(i).T.toarray().ravel()).ravel()
        else:
            k = self._X @ self._X[i]
        return sign * self._y * np.clip(k / self.scale, -1.0, 1.0)

    def best(self, d: Any) -> tuple[KernelHypothesis, np.ndarray]:
        d = self._check_d(d)
        e = self._scores(d * self._y)
        edges = np.stack([e, -e], axis=-1)  # (N, 2) in enumeration order
        i, s = np.unravel_index(int(np.argmax(edges)), edges.shape)
        sign = 1 if s == 0 else -1
        return self._hypothesis(int(i), sign), self._column(int(i), sign)

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        self._check_fitted()
        N = self.n_examples
        if N > ALL_COLUMNS_MAX_N:
            raise DualBoostInputError(
                f"the kernel class has 2N = {2 * N} columns; all_columns() builds the dense "
                f"matrix only for N <= {ALL_COLUMNS_MAX_N}")
        K = self._X @ self._X.T
        K = K.toarray() if sp.issparse(K) else np.asarray(K)
        yk = self._y[:, None] * np.clip(K / self.scale, -1.0, 1.0)
        U = np.stack([yk, -yk], axis=-1).reshape(N, -1)
        hyps: list[Hypothesis] = [self._hypothesis(i, s) for i in range(N) for s in (1, -1)]
        return distinct_columns(U, hyps)
