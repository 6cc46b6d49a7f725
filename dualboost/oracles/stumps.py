"""Exact maximum-edge decision stumps.

The class: ``h(x) = s * sign(x_j - theta)`` with ``sign(t) = +1 if t > 0 else -1``, a feature j,
a sign ``s in {-1, +1}``, and ``theta`` either between two consecutive distinct values of
feature j on the training set or below its minimum (then h is the constant s). Other thresholds
give no new columns, so this finite class is the whole stump class as far as the training set
(and hence the LP) can tell.

With ``w = d * y`` and ``T = sum_n w_n``, the edge of ``(j, theta, s)`` is
``s * (sum_{x_nj > theta} w_n - sum_{x_nj <= theta} w_n) = s * (T - 2 * sum_{x_nj <= theta} w_n)``.
After sorting every feature once, the inner sums are prefix sums of ``w`` in sorted order, so one
``best(d)`` costs O(N F): one gather, one cumsum, two argmaxes, all vectorized.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .base import (
    Hypothesis,
    Oracle,
    as_feature_matrix,
    as_labels,
    check_predict_input,
    distinct_columns,
)


@dataclass(frozen=True)
class Stump(Hypothesis):
    """``x -> sign * (+1 if x[feature] > threshold else -1)``; threshold -inf is the constant."""

    feature: int
    threshold: float
    sign: int

    def __post_init__(self) -> None:
        # Plain Python scalars keep describe() JSON-ready and the repr free of np.float64(...).
        object.__setattr__(self, "feature", int(self.feature))
        object.__setattr__(self, "threshold", float(self.threshold))
        object.__setattr__(self, "sign", 1 if self.sign > 0 else -1)

    @property
    def is_constant(self) -> bool:
        return self.threshold == -np.inf

    def predict(self, X: Any) -> np.ndarray:
        x = check_predict_input(X, self.feature, "Stump")
        return self.sign * np.where(x > self.threshold, 1.0, -1.0)

    def describe(self) -> dict:
        # JSON has no -Infinity, so the constant stump says threshold None.
        return {
            "type": "stump",
            "feature": self.feature,
            "threshold": None if self.is_constant else self.threshold,
            "sign": self.sign,
        }


def _midpoints(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Thresholds t with ``lo <= t < hi`` (elementwise, where ``lo < hi``), near the midpoint.

    ``lo/2 + hi/2`` cannot overflow; for adjacent floats it can round up to ``hi``, which would
    put the value ``hi`` on the wrong side, so those fall back to ``lo`` (still a valid split).
    """
    mid = lo / 2 + hi / 2
    return np.where((mid < lo) | (mid >= hi), lo, mid)


class StumpOracle(Oracle):
    """Exact best decision stump; see the module docstring for the class and the edge formula.

    Enumeration order (used for ties and by :meth:`all_columns`): the constant +1, the
    constant -1, then for each feature in turn its splits by increasing threshold, each with
    sign +1 before sign -1.
    """

    name = "stumps"

    def fit(self, X: Any, y: Any) -> StumpOracle:
        X = as_feature_matrix(X)
        y = as_labels(y, X.shape[0])
        n, f = X.shape
        order = np.argsort(X, axis=0, kind="stable")
        xs = np.take_along_axis(X, order, axis=0)
        # Row r of the (N, F) tables is "split before sorted position r": the examples at sorted
        # positions >= r predict +1 (for s = +1). Row 0 is the constant, kept for feature 0 only
        # so that the constant appears once in the enumeration.
        valid = np.zeros((n, f), dtype=bool)
        valid[0, 0] = True
        valid[1:] = xs[1:] > xs[:-1]
        thresholds = np.full((n, f), -np.inf)
        thresholds[1:] = _midpoints(xs[:-1], xs[1:])
        self._X = X
        self._y = y
        # Stored transposed (F, N): each feature's sorted run is contiguous, which makes the
        # gather and cumsum in best() faster, and the C order of an (F, N) table is the
        # enumeration order, so a flat argmax breaks ties correctly.
        self._order_t = np.ascontiguousarray(order.T)
        self._valid_t = np.ascontiguousarray(valid.T)
        self._thresholds_t = np.ascontiguousarray(thresholds.T)
        self._n_examples = n
        return self

    def best(self, d: Any) -> tuple[Stump, np.ndarray]:
        d = self._check_d(d)
        ws = (d * self._y)[self._order_t]
        below = np.cumsum(ws, axis=1)
        total = below[:, -1:]
        # Weight at or below the threshold of position r is the prefix sum up to r - 1.
        edge_plus = np.empty_like(below)
        edge_plus[:, :1] = total
        edge_plus[:, 1:] = total - 2.0 * below[:, :-1]
        plus = np.where(self._valid_t, edge_plus, -np.inf)
        minus = np.where(self._valid_t, -edge_plus, -np.inf)
        a = int(np.argmax(plus))
        b = int(np.argmax(minus))
        # On equal edges the earlier (feature, position) wins; at the same one, sign +1 does.
        if plus.flat[a] > minus.flat[b] or (plus.flat[a] == minus.flat[b] and a <= b):
            flat, sign = a, 1
        else:
            flat, sign = b, -1
        j, r = np.unravel_index(flat, plus.shape)
        stump = Stump(feature=int(j), threshold=self._thresholds_t[j, r], sign=sign)
        return stump, stump.column(self._X, self._y)

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        self._check_fitted()
        blocks: list[np.ndarray] = []
        hyps: list[Hypothesis] = []
        for j in range(self._X.shape[1]):
            thetas = self._thresholds_t[j, self._valid_t[j]]
            pred = np.where(self._X[:, j, None] > thetas[None, :], 1.0, -1.0)
            # Interleave +pred and -pred to follow the enumeration order.
            blocks.append(np.stack([pred, -pred], axis=-1).reshape(pred.shape[0], -1))
            hyps.extend(Stump(j, t, s) for t in thetas for s in (1, -1))
        U = self._y[:, None] * np.concatenate(blocks, axis=1)
        return distinct_columns(U, hyps)
