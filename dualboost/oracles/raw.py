"""Raw features as hypotheses.

Feature j is mapped affinely onto ``[-1, 1]`` with its training minimum ``a_j`` and maximum
``b_j``: ``z_j(x) = (x_j - (a_j + b_j)/2) / ((b_j - a_j)/2)``, and to 0 when ``a_j = b_j``. The
class is ``{+z_j, -z_j : j = 1..F}`` (closed under negation, 2F hypotheses). With ``w = d * y``
the edges are ``+-(Z^T w)_j``, so ``best(d)`` is one matrix-vector product.
On new data ``z_j`` is clipped to ``[-1, 1]``, since values beyond the training range would
otherwise leave the hypothesis range.

Sparse X stays sparse: the scaling maps an implicit zero of feature j to ``c_j = z_j(0)``, in
general not 0, so the oracle stores only ``z_j(x_nj) - c_j`` on the stored entries (a sparse
matrix ``D`` with X's pattern) and uses ``sum_n w_n z_j(x_nj) = (D^T w)_j + c_j sum_n w_n``: one
sparse matrix-vector product per ``best(d)``, O(nnz + F). (``c_j`` is taken as 0 for a feature
without implicit zeros, where it multiplies nothing.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from .base import (
    Hypothesis,
    Oracle,
    as_feature_matrix,
    as_labels,
    check_predict_input,
    distinct_columns,
    feature_column,
    first_equal_column,
)


def _scale(x: np.ndarray, lo: np.ndarray | float, hi: np.ndarray | float) -> np.ndarray:
    """Affine map of ``[lo, hi]`` onto ``[-1, 1]`` (0 where lo == hi), clipped to ``[-1, 1]``."""
    # Halves first: (hi - lo) and (hi + lo) overflow for features near +-1e308.
    half = np.asarray(hi / 2 - lo / 2, dtype=float)
    mid = lo / 2 + hi / 2
    safe = np.where(half > 0, half, 1.0)
    # New data far outside the training range may overflow to +-inf; the clip fixes that.
    with np.errstate(over="ignore"):
        z = np.where(half > 0, (x - mid) / safe, 0.0)
    return np.clip(z, -1.0, 1.0)


@dataclass(frozen=True)
class RawFeature(Hypothesis):
    """``x -> sign * clip(scaled x[feature], -1, 1)``, scaled with the training ``[lo, hi]``."""

    feature: int
    sign: int
    lo: float
    hi: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "feature", int(self.feature))
        object.__setattr__(self, "sign", 1 if self.sign > 0 else -1)
        object.__setattr__(self, "lo", float(self.lo))
        object.__setattr__(self, "hi", float(self.hi))

    def predict(self, X: Any) -> np.ndarray:
        x = check_predict_input(X, self.feature, "RawFeature")
        return self.sign * _scale(x, self.lo, self.hi)

    def describe(self) -> dict:
        return {"type": "raw", "feature": self.feature, "sign": self.sign,
                "min": self.lo, "max": self.hi}


class RawFeatureOracle(Oracle):
    """Exact best signed, rescaled raw feature.

    Enumeration order (ties, :meth:`all_columns`): feature 0 with sign +1, feature 0 with
    sign -1, feature 1 with sign +1, ...
    """

    name = "raw"

    def fit(self, X: Any, y: Any) -> RawFeatureOracle:
        X = as_feature_matrix(X)
        y = as_labels(y, X.shape[0])
        self._X = X
        self._y = y
        self._n_examples = X.shape[0]
        if sp.issparse(X):
            # min/max of a sparse matrix count the implicit zeros, like X.toarray() would.
            self._lo = X.min(axis=0).toarray().ravel()
            self._hi = X.max(axis=0).toarray().ravel()
            has_zero = np.diff(X.indptr) < X.shape[0]
            self._zero_value = np.where(has_zero, _scale(np.zeros(X.shape[1]), self._lo,
                                                         self._hi), 0.0)
            col = np.repeat(np.arange(X.shape[1]), np.diff(X.indptr))
            z = _scale(X.data, self._lo[col], self._hi[col])
            shifted = sp.csc_matrix((z - self._zero_value[col], X.indices, X.indptr),
                                    shape=X.shape)
            self._Dt = shifted.T.tocsr()  # rows = features: D^T w is a CSR mat-vec
            self._Z = None
        else:
            self._lo = X.min(axis=0)
            self._hi = X.max(axis=0)
            self._Z = _scale(X, self._lo, self._hi)
        return self

    def _hypothesis(self, j: int, sign: int) -> RawFeature:
        return RawFeature(j, sign, self._lo[j], self._hi[j])

    def _edges(self, w: np.ndarray) -> np.ndarray:
        """``(Z^T w)_j`` for every feature j, with ``w = d * y``."""
        if self._Z is not None:
            return w @ self._Z
        return self._Dt @ w + self._zero_value * np.sum(w)

    def best(self, d: Any) -> tuple[RawFeature, np.ndarray]:
        d = self._check_d(d)
        w = d * self._y
        e = self._edges(w)
        edges = np.stack([e, -e], axis=-1)  # (F, 2) in C order = enumeration order
        j, s = np.unravel_index(int(np.argmax(edges)), edges.shape)
        j, sign, u = first_equal_column(
            e, -e, int(j), 1 if s == 0 else -1,
            lambda i, sg: self._hypothesis(i, sg).column(self._X, self._y),
            float(np.abs(w).sum()))
        return self._hypothesis(j, sign), u

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        self._check_fitted()
        if self._Z is not None:
            Z = self._Z
        else:  # one column at a time; the result is N x 2F anyway
            Z = np.column_stack([_scale(feature_column(self._X, j), self._lo[j], self._hi[j])
                                 for j in range(self._X.shape[1])])
        yz = self._y[:, None] * Z
        U = np.stack([yz, -yz], axis=-1).reshape(yz.shape[0], -1)
        hyps: list[Hypothesis] = [
            self._hypothesis(j, s) for j in range(Z.shape[1]) for s in (1, -1)
        ]
        return distinct_columns(U, hyps)
