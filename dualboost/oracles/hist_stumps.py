"""Histogram stumps: the exact best decision stump over quantile-binned features.

**Binning** is the tree oracles' (:func:`dualboost.oracles.trees.bin_features`), done once per
fit: feature j gets increasing thresholds ``theta_{j,0} < ... < theta_{j,B_j-2}`` (at most
``max_bins - 1 <= 254``, midpoints between consecutive distinct training values at the quantiles
of the feature) and every example a uint8 code ``c_{nj} = #{b : theta_{j,b} < x_{nj}}``, so that
``c_{nj} > b  <=>  x_{nj} > theta_{j,b}``.

**The class** ``H_bin``: the stumps ``h(x) = s * sign(x_j - theta_{j,b})`` (``sign(t) = +1`` if
``t > 0`` else -1) with a threshold at a bin edge, and the constants ``+-1``. It is a subclass of
the stump class of :class:`~dualboost.oracles.stumps.StumpOracle` (the same class when every
feature has at most ``max_bins`` distinct values). The oracle is **exact over H_bin**: ``best(d)``
is the maximum edge over every bin-edge threshold, so the certificates (gamma_hat = min_t edge^t
>= g, the early stops; docs/theory.md L5) hold for the soft-margin optimum g over ``H_bin``, not
over stumps at arbitrary thresholds.

**One call** with ``w = d * y``: per feature one ``np.bincount`` of ``w`` over its codes gives
the histogram ``H_j[b] = sum {w_n : c_{nj} = b}``; with ``L_j[b] = sum_{b' <= b} H_j[b']`` (a
cumulative sum over at most 255 bins) and ``T_j = L_j[B_j - 1] = sum_n w_n``, the edge of
``(j, theta_{j,b}, s)`` is

    s * (sum_{c_{nj} > b} w_n - sum_{c_{nj} <= b} w_n) = s * (T_j - 2 L_j[b]).

O(N F) per call without sorting (the fit sorts each feature once, inside the binning); memory
N F bytes of codes. The hypotheses are ordinary :class:`~dualboost.oracles.stumps.Stump` objects
with the threshold on the original scale, so saved models and ``predict`` need nothing new.

Enumeration order (ties, :meth:`all_columns`): the constant +1, the constant -1, then feature by
feature the bin edges by increasing threshold, sign +1 before -1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DualBoostInputError
from .base import Hypothesis, distinct_columns, first_distinct_rows, first_equal_column
from .stumps import Stump
from .trees import MAX_BINS, _BinnedOracle


class HistStumpOracle(_BinnedOracle):
    """Exact best stump over the binned class ``H_bin`` (thresholds at the quantile bin edges of
    each feature, at most ``max_bins`` bins, uint8 codes); see the module docstring for the class,
    the edge formula and why the certificates hold over ``H_bin``.

    Args:
        max_bins: the most bins per feature, in [2, 255] (default 255).
    """

    name = "hist_stumps"
    exact = True
    #: what "the whole class" of the certificates is for this oracle
    certificate_class = "binned stumps (thresholds at the quantile bin edges)"

    def __init__(self, max_bins: int = MAX_BINS) -> None:
        if isinstance(max_bins, bool) or int(max_bins) != max_bins \
                or not 2 <= max_bins <= MAX_BINS:
            raise DualBoostInputError(f"hist_stumps oracle: max_bins must be an integer in "
                                      f"[2, {MAX_BINS}], got {max_bins!r}")
        self.max_bins = int(max_bins)

    def fit(self, X: Any, y: Any) -> HistStumpOracle:
        super().fit(X, y)
        # (F, N): each feature's codes contiguous for its bincount; the (N, F) copy is dropped
        self._codes_t = np.ascontiguousarray(self._codes.T)
        del self._codes
        f = self._codes_t.shape[0]
        self._width = max(self._B - 1, 1)  # split slots per feature
        slots = np.arange(self._width)
        self._valid = slots[None, :] < (self._n_bins - 1)[:, None]  # (F, width)
        self._thr = np.full((f, self._width), np.inf)
        for j, t in enumerate(self._thresholds):  # a loop over features
            self._thr[j, :t.size] = t
        return self

    def _edges(self, d: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(w, plus, minus)``: the edges of every candidate in enumeration order (index 0
        the constant, ``1 + j * width + b`` the split after bin b of feature j; -inf where no
        split), sign +1 and -1."""
        d = self._check_d(d)
        w = d * self._y
        f = self._codes_t.shape[0]
        hist = np.empty((f, self._B))
        for j in range(f):  # one bincount per feature, vectorized over the examples
            hist[j] = np.bincount(self._codes_t[j], weights=w, minlength=self._B)
        left = np.cumsum(hist, axis=1)
        total = left[:, -1:]
        split = total - 2.0 * left[:, :self._width]
        split = np.where(self._valid, split, -np.inf)
        t = float(w.sum())
        plus = np.concatenate(([t], split.ravel()))
        minus = np.concatenate(([-t], np.where(self._valid, -split, -np.inf).ravel()))
        return w, plus, minus

    def _stump(self, i: int, sign: int) -> Stump:
        if i == 0:
            return Stump(0, -np.inf, sign)
        j, b = divmod(i - 1, self._width)
        return Stump(j, self._thr[j, b], sign)

    def _column(self, i: int, sign: int) -> np.ndarray:
        """The column ``y * h(X)`` of candidate i from the codes (``c > b <=> x > theta_b``)."""
        if i == 0:
            return self._y * float(sign)
        j, b = divmod(i - 1, self._width)
        pred = np.where(self._codes_t[j] > b, float(sign), -float(sign))
        return self._y * pred

    def _winner(self, w: np.ndarray, plus: np.ndarray, minus: np.ndarray
                ) -> tuple[Stump, np.ndarray]:
        a, b = int(np.argmax(plus)), int(np.argmax(minus))
        if plus[a] > minus[b] or (plus[a] == minus[b] and a <= b):
            k, sign = a, 1
        else:
            k, sign = b, -1
        k, sign, u = first_equal_column(plus, minus, k, sign, self._column,
                                        float(np.abs(w).sum()))
        return self._stump(k, sign), u

    def best(self, d: Any) -> tuple[Stump, np.ndarray]:
        """The stump of maximum edge over ``H_bin`` (first in the enumeration order on ties,
        equal columns resolved to the first) and its column; O(N F)."""
        w, plus, minus = self._edges(d)
        return self._winner(w, plus, minus)

    def candidates(self, d: Any) -> list[tuple[Stump, np.ndarray]]:
        """``best(d)``, then the best split of every other feature and the best constant, by
        decreasing edge, without repeated columns (one histogram pass, as for :meth:`best`)."""
        w, plus, minus = self._edges(d)
        first = self._winner(w, plus, minus)
        f = self._codes_t.shape[0]
        score = np.maximum(plus[1:], minus[1:]).reshape(f, self._width)
        at = score.argmax(axis=1)
        keys = [0] + [1 + j * self._width + int(at[j]) for j in range(f)
                      if np.isfinite(score[j, at[j]])]
        out = [first]
        picks = sorted(((max(plus[i], minus[i]), i) for i in keys), key=lambda p: -p[0])
        for _, i in picks:
            sign = 1 if plus[i] >= minus[i] else -1
            out.append((self._stump(i, sign), self._column(i, sign)))
        keep = first_distinct_rows([u for _, u in out])
        return [out[k] for k in keep]

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        """Every distinct column of ``H_bin`` on the training set (N x K, K <= 2 + 2 F (B-1))."""
        self._check_fitted()
        blocks = [np.stack([self._y, -self._y], axis=1)]
        hyps: list[Hypothesis] = [Stump(0, -np.inf, 1), Stump(0, -np.inf, -1)]
        for j, t in enumerate(self._thresholds):  # a loop over features
            if t.size == 0:
                continue
            pred = np.where(self._codes_t[j][:, None] > np.arange(t.size)[None, :], 1.0, -1.0)
            blocks.append(np.stack([pred, -pred], axis=-1).reshape(pred.shape[0], -1)
                          * self._y[:, None])
            hyps.extend(Stump(j, theta, s) for theta in t for s in (1, -1))
        return distinct_columns(np.concatenate(blocks, axis=1), hyps)
