"""A finite hypothesis class given by its predictions.

``H`` is an N x J matrix with ``H[n, j] = h^j(x_n) in [-1, 1]``; the columns are
``U = y[:, None] * H`` and ``best(d)`` returns ``argmax_j (U^T d)_j`` (the first on ties). The
examples themselves are never seen: a hypothesis ``Column(j)`` predicts on new examples from the
(M x J) matrix of the same J hypotheses' predictions on them, and simply reads its column j.
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
    as_float_array,
    as_labels,
    check_predict_input,
    distinct_columns,
)


@dataclass(frozen=True)
class Column(Hypothesis):
    """Hypothesis j of a finite class.

    ``predict(X)`` takes X as the M x J matrix whose column k holds hypothesis k's predictions
    on M examples (NOT feature values) and returns ``clip(X[:, index], -1, 1)``. When
    ``n_columns`` is set, X must have exactly that many columns, which catches a feature matrix
    passed by mistake.
    """

    index: int
    n_columns: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", int(self.index))
        if self.n_columns is not None:
            object.__setattr__(self, "n_columns", int(self.n_columns))

    def predict(self, X: Any) -> np.ndarray:
        x = check_predict_input(X, self.index, "Column", n_columns=self.n_columns)
        return np.clip(x, -1.0, 1.0)

    def describe(self) -> dict:
        return {"type": "column", "index": self.index, "n_columns": self.n_columns}


def as_hypothesis_matrix(H: Any) -> np.ndarray:
    """Validate a hypothesis matrix: 2-D, non-empty, finite, entries in ``[-1, 1]``."""
    H = as_float_array(H, "hypotheses")
    if H.ndim != 2 or H.shape[0] < 1 or H.shape[1] < 1:
        raise DualBoostInputError("hypotheses must be a non-empty 2-D array "
                                  f"(examples x hypotheses), got shape {H.shape}")
    if not np.all(np.isfinite(H)):
        raise DualBoostInputError("hypotheses must be finite, found NaN or infinite values")
    lo, hi = float(H.min()), float(H.max())
    if lo < -1.0 or hi > 1.0:
        raise DualBoostInputError(f"hypotheses must lie in [-1, 1], got range [{lo:g}, {hi:g}]")
    return H


class FiniteColumnOracle(Oracle):
    """Exact best column of a given hypothesis matrix ``H`` (N x J); order = column order."""

    name = "finite"

    def __init__(self, H: Any) -> None:
        self.H = as_hypothesis_matrix(H)

    def fit(self, X: Any, y: Any) -> FiniteColumnOracle:
        """``X`` is unused and may be None; if given, it must have N rows, like ``H``."""
        n = self.H.shape[0]
        if X is not None:
            try:
                if sp.issparse(X):
                    rows = X.shape[0]
                else:
                    rows = np.shape(X)[0] if np.ndim(X) >= 1 else None
            except ValueError:  # ragged nested lists
                rows = None
            if rows != n:
                raise DualBoostInputError(f"X must have {n} rows to match the hypothesis "
                                          f"matrix, got shape {np.shape(X)}")
        self._y = as_labels(y, n)
        self._U = self._y[:, None] * self.H
        self._n_examples = n
        return self

    def _hypothesis(self, j: int) -> Column:
        return Column(j, n_columns=self.H.shape[1])

    def best(self, d: Any) -> tuple[Column, np.ndarray]:
        d = self._check_d(d)
        j = int(np.argmax(d @ self._U))
        return self._hypothesis(j), self._U[:, j].copy()

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        self._check_fitted()
        hyps: list[Hypothesis] = [self._hypothesis(j) for j in range(self.H.shape[1])]
        return distinct_columns(self._U.copy(), hyps)
