"""Exact maximum-edge decision stumps.

The class: ``h(x) = s * sign(x_j - theta)`` with ``sign(t) = +1 if t > 0 else -1``, a feature j,
a sign ``s in {-1, +1}``, and ``theta`` either between two consecutive distinct values of
feature j on the training set or below its minimum (then h is the constant s). Other thresholds
give no new columns, so this finite class is the whole stump class as far as the training set
(and hence the LP) can tell.

With ``w = d * y`` and ``T = sum_n w_n``, the edge of ``(j, theta, s)`` is
``s * (sum_{x_nj > theta} w_n - sum_{x_nj <= theta} w_n) = s * (T - 2 * sum_{x_nj <= theta} w_n)``.
After sorting every feature once, the inner sums are prefix sums of ``w`` in sorted order, so one
``best(d)`` costs O(N F): one gather, one cumsum, two argmaxes, all vectorized, a block of
features at a time so that the work stays in the cache (``StumpOracle.block_bytes``); the edges,
the winner and its tie-break do not depend on the block size, bit for bit.

Sparse X (scipy.sparse, e.g. a LIBSVM file) is never made dense. The class, its enumeration
order, the tie-breaking and the edges are those of ``X.toarray()`` (implicit zeros are values
like any other; features may be negative), computed on *groups*: the distinct values of each
feature, one group per distinct stored value plus one group for all the zeros of the feature
(its weight is ``T`` minus the weight of the stored entries, so the zero rows are never visited).
Fitting sorts the stored entries once within their columns; one ``best(d)`` is then one gather of
``w`` over the stored entries, one segment sum (``np.add.reduceat``) into groups and a prefix sum
over the groups of each feature: O(nnz + F) time and memory, not O(N F). A 0/1 feature has two
groups and hence one split.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from .base import (
    EQUAL_COLUMN_CANDIDATES,
    Hypothesis,
    Oracle,
    as_feature_matrix,
    as_labels,
    check_predict_input,
    distinct_columns,
    earliest_equal_column,
    feature_column,
    first_distinct_rows,
    first_equal_column,
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
        if sp.issparse(X):
            self._sparse: _SparseStumps | None = _SparseStumps(X)
            self._X, self._y = X, y
            self._n_examples = X.shape[0]
            return self
        self._sparse = None
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
        # enumeration order, so row by row and left to right is the order of ties.
        self._order_t = np.ascontiguousarray(order.T)
        self._invalid_t = np.ascontiguousarray(~valid.T)
        self._thresholds_t = np.ascontiguousarray(thresholds.T)
        self._n_examples = n
        # (k, N) work buffers for a block of k features, reused by every call: a fresh array
        # per call costs more in page faults than the arithmetic, and (F, N) tables fall out
        # of the caches (see _dense_scan)
        self._buffers: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        return self

    #: Bytes of one (k, N) work buffer: best() scores k features at a time (at least one), so
    #: that a block's gathered weights, prefix sums and edges stay in the per-core L2 cache
    #: (2 MB here) instead of streaming three (F, N) tables through memory (N = 1e5, F = 50:
    #: 40 MB each, 75 ms per call growing N^1.27; benchmarks/README.md, "stump oracle")
    block_bytes: int = 1 << 20

    def _block_rows(self) -> int:
        f, n = self._order_t.shape
        return max(1, min(f, self.block_bytes // (8 * n)))

    def _dense_edges(self, w: np.ndarray, j0: int, j1: int):
        """The edges of features ``j0..j1-1`` with sign +1 and -1, ``(plus, minus)`` of shape
        ``(j1 - j0, N)`` (views of the work buffers, valid until the next call; -inf where the
        position is no split): row j, column r is the split before sorted position r of
        feature j (column 0 the constant, a split of feature 0 only).

        Each feature's row is computed on its own by the same operations in the same order
        whatever the block, so the edges are the same bits for every block size."""
        k, n = self._block_rows(), self._order_t.shape[1]
        if self._buffers is None or self._buffers[0].shape != (k, n):
            self._buffers = (np.empty((k, n)), np.empty((k, n)), np.empty((k, n)))
        below, plus, minus = (b[:j1 - j0] for b in self._buffers)
        # mode="clip": the indices are in range, and the default mode buffers ``out``
        np.take(w, self._order_t[j0:j1], out=below, mode="clip")
        np.cumsum(below, axis=1, out=below)
        total = below[:, -1:]
        # Weight at or below the threshold of position r is the prefix sum up to r - 1;
        # the same operations as total - 2.0 * below (bit for bit: ties break alike)
        plus[:, :1] = total
        np.multiply(below[:, :-1], -2.0, out=plus[:, 1:])
        plus[:, 1:] += total
        np.negative(plus, out=minus)
        invalid = self._invalid_t[j0:j1]
        np.copyto(plus, -np.inf, where=invalid)
        np.copyto(minus, -np.inf, where=invalid)
        return plus, minus

    def _dense_scan(self, w: np.ndarray, per_feature: bool = False) -> dict:
        """One pass over the features, a block at a time: per feature the first maximum of
        its edges with sign +1 and with sign -1 (value and position), and with
        ``per_feature`` its first split of largest ``max(plus, minus)`` (the constant left
        out) with both edges there. Positions are flat indices of the (F, N) table, i.e. of
        the enumeration order. O(N F) time, O(k N) memory."""
        f, n = self._order_t.shape
        k = self._block_rows()
        scan = {name: np.empty(f) for name in ("plus", "minus")}
        scan.update({name: np.empty(f, dtype=np.intp) for name in ("at_plus", "at_minus")})
        if per_feature:
            scan.update({name: np.empty(f) for name in ("head_plus", "head_minus")})
            scan["head"] = np.empty(f, dtype=np.intp)
        for j0 in range(0, f, k):
            j1 = min(j0 + k, f)
            plus, minus = self._dense_edges(w, j0, j1)
            rows = np.arange(j1 - j0)
            a, b = plus.argmax(axis=1), minus.argmax(axis=1)
            top_p, top_m = plus[rows, a], minus[rows, b]
            scan["plus"][j0:j1], scan["minus"][j0:j1] = top_p, top_m
            base = (j0 + rows) * n
            scan["at_plus"][j0:j1], scan["at_minus"][j0:j1] = base + a, base + b
            if not per_feature:
                continue
            if j0 == 0:
                # the constant is no split of feature 0: its best split from position 1 on
                score0 = np.maximum(plus[0, 1:], minus[0, 1:])
                if score0.size:
                    a[0] = b[0] = 1 + int(score0.argmax())
                    top_p[0], top_m[0] = plus[0, a[0]], minus[0, b[0]]
                else:
                    top_p[0] = top_m[0] = -np.inf  # N = 1: no split at all
                scan["constant"] = (plus[0, 0], minus[0, 0])
            # the first position of largest max(plus, minus) is the first maximum of whichever
            # of the two reaches it (both: the earlier)
            top = np.maximum(top_p, top_m)
            at = np.minimum(np.where(top_p == top, a, n), np.where(top_m == top, b, n))
            scan["head"][j0:j1] = base + at
            scan["head_plus"][j0:j1], scan["head_minus"][j0:j1] = plus[rows, at], minus[rows, at]
            if j0 == 0 and n == 1:
                scan["head_plus"][0] = scan["head_minus"][0] = -np.inf
        return scan

    def _dense_winner(self, w: np.ndarray, scan: dict) -> tuple[Stump, np.ndarray]:
        """:meth:`_winner` on the per-feature maxima of :meth:`_dense_scan`: the same first
        maximum and the same near-ties for :func:`first_equal_column`, found by recomputing
        only the features whose best edge lies within the tolerance (usually one)."""
        f, n = self._order_t.shape
        ja, jb = int(np.argmax(scan["plus"])), int(np.argmax(scan["minus"]))
        a, b = int(scan["at_plus"][ja]), int(scan["at_minus"][jb])
        top_a, top_b = scan["plus"][ja], scan["minus"][jb]
        if top_a > top_b or (top_a == top_b and a <= b):
            k, sign, top = a, 1, top_a
        else:
            k, sign, top = b, -1, top_b
        # first_equal_column's near-ties: candidates i <= k with an edge >= top - tol, as keys
        # 2 i (sign +1) / 2 i + 1 (sign -1) before the winner's key, the first few of them
        tol = 1e-9 * float(np.abs(w).sum())
        threshold = top - tol
        win = 2 * k + (sign < 0)
        near = (scan["plus"] >= threshold) | (scan["minus"] >= threshold)
        found: list[np.ndarray] = []
        count = 0
        for j in np.flatnonzero(near[:k // n + 1]).tolist():
            if count >= EQUAL_COLUMN_CANDIDATES:
                break
            plus, minus = self._dense_edges(w, j, j + 1)
            stop = min(n, k + 1 - j * n)
            keys = np.union1d(2 * (j * n + np.flatnonzero(plus[0, :stop] >= threshold)),
                              2 * (j * n + np.flatnonzero(minus[0, :stop] >= threshold)) + 1)
            keys = keys[keys < win]
            found.append(keys)
            count += keys.size
        keys = np.concatenate(found)[:EQUAL_COLUMN_CANDIDATES] if found else np.zeros(0, int)
        k, sign, u = earliest_equal_column(keys, k, sign, self._dense_column)
        return self._dense_stump(k, sign), u

    def _dense_stump(self, i: int, sign: int) -> Stump:
        j, r = divmod(i, self._order_t.shape[1])
        return Stump(j, self._thresholds_t[j, r], sign)

    def _dense_column(self, i: int, sign: int) -> np.ndarray:
        """``self._dense_stump(i, sign).column(X, y)`` without reading X: the examples with
        ``x_j > threshold`` are those at sorted positions >= r (the threshold lies in
        ``[xs[r-1], xs[r])``), and the entries are products of +-1, so the bits are the
        same. A column of a C-ordered X is a strided read: about 10x slower at N = 1e5."""
        j, r = divmod(i, self._order_t.shape[1])
        pred = np.full(self._order_t.shape[1], -float(sign))
        pred[self._order_t[j, r:]] = float(sign)
        return np.multiply(self._y, pred, out=pred)

    def _scored(self, d: Any):
        """For sparse X: the signed edges of every candidate split under ``d``: ``(w, plus,
        minus, feature, stump_at)`` with ``plus[i]`` / ``minus[i]`` the edges of candidate i
        with sign +1 / -1, ``feature[i]`` its feature (-1 for the constant), in enumeration
        order."""
        d = self._check_d(d)
        w = d * self._y
        sparse = self._sparse
        assert sparse is not None  # dense X: _dense_scan, a block of features at a time
        edges = sparse.edges(w)  # every position is a split (the constant first)
        feature = np.concatenate([[-1], sparse.split_feature])

        def stump_at(i: int, sign: int) -> Stump:
            if i == 0:
                return Stump(0, -np.inf, sign)
            return Stump(int(sparse.split_feature[i - 1]),
                         float(sparse.split_threshold[i - 1]), sign)

        return w, edges, -edges, feature, stump_at

    def __getstate__(self) -> dict:
        # the work buffers are scratch: never pickled
        state = dict(self.__dict__)
        if "_buffers" in state:
            state["_buffers"] = None
        return state

    def _winner(self, w, plus, minus, stump_at) -> tuple[Stump, np.ndarray]:
        """The first maximum of the enumeration (+0, -0, +1, -1, ...), with the tie-break of
        :func:`first_equal_column` (equal columns: the first one)."""
        a = int(np.argmax(plus))
        b = int(np.argmax(minus))
        if plus[a] > minus[b] or (plus[a] == minus[b] and a <= b):
            k, sign = a, 1
        else:
            k, sign = b, -1
        k, sign, u = first_equal_column(
            plus, minus, k, sign, lambda i, s: stump_at(i, s).column(self._X, self._y),
            float(np.abs(w).sum()))
        return stump_at(k, sign), u

    def best(self, d: Any) -> tuple[Stump, np.ndarray]:
        self._check_fitted()
        if self._sparse is None:
            d = self._check_d(d)
            w = d * self._y
            return self._dense_winner(w, self._dense_scan(w))
        w, plus, minus, _, stump_at = self._scored(d)
        # C order of the candidates is the enumeration order; at one candidate sign +1 first.
        return self._winner(w, plus, minus, stump_at)

    def candidates(self, d: Any) -> list[tuple[Stump, np.ndarray]]:
        """``best(d)``, then the best stump of every other feature (and the best constant),
        by decreasing edge.

        A feature's best is its first maximum in the enumeration order (the same tie-break as
        :meth:`best`); a stump whose column repeats an earlier candidate's is left out. One
        O(N F) scoring, as for :meth:`best`, plus one column per feature."""
        self._check_fitted()
        if self._sparse is None:
            return self._dense_candidates(d)
        w, plus_all, minus_all, feature_all, stump_at = self._scored(d)
        first = self._winner(w, plus_all, minus_all, stump_at)
        score_all = np.maximum(plus_all, minus_all)
        # per feature, the first position of largest score: the constant is position 0
        # and every feature's splits are one contiguous run after it (the enumeration
        # order), so two reductions over the runs do it (a sort of all scores did not
        # scale)
        rest = score_all[1:]
        runs = np.flatnonzero(np.r_[True, feature_all[2:] != feature_all[1:-1]])
        if rest.size:
            top = np.repeat(np.maximum.reduceat(rest, runs),
                            np.diff(np.r_[runs, rest.size]))
            at_top = np.where(rest == top, np.arange(rest.size), rest.size)
            heads = np.r_[0, 1 + np.minimum.reduceat(at_top, runs)]
        else:
            heads = np.zeros(1, dtype=int)
        plus, minus = plus_all[heads], minus_all[heads]
        keep = self._ranked(first[0], plus, minus, feature_all[heads])
        hyps = [first[0]] + [stump_at(int(heads[i]), 1 if plus[i] >= minus[i] else -1)
                             for i in keep.tolist()]
        U = np.column_stack([first[1]] + [h.column(self._X, self._y) for h in hyps[1:]])
        U, hyps = distinct_columns(U, hyps)
        return [(h, np.ascontiguousarray(U[:, k])) for k, h in enumerate(hyps)]

    def _dense_candidates(self, d: Any) -> list[tuple[Stump, np.ndarray]]:
        """:meth:`candidates` for dense X: one blocked scan (:meth:`_dense_scan`) gives the
        winner and every feature's best split."""
        d = self._check_d(d)
        w = d * self._y
        scan = self._dense_scan(w, per_feature=True)
        first = self._dense_winner(w, scan)
        # the constant (position 0), then each feature's best split, in enumeration order
        f = self._order_t.shape[0]
        heads = np.r_[0, scan["head"]]
        plus = np.r_[scan["constant"][0], scan["head_plus"]]
        minus = np.r_[scan["constant"][1], scan["head_minus"]]
        keep = self._ranked(first[0], plus, minus, np.arange(-1, f))
        signs = [1 if plus[i] >= minus[i] else -1 for i in keep.tolist()]
        hyps = [first[0]] + [self._dense_stump(int(heads[i]), s)
                             for i, s in zip(keep.tolist(), signs)]
        columns = [first[1]] + [self._dense_column(int(heads[i]), s)
                                for i, s in zip(keep.tolist(), signs)]
        return [(hyps[k], columns[k]) for k in first_distinct_rows(columns)]

    @staticmethod
    def _ranked(first: Stump, plus: np.ndarray, minus: np.ndarray,
                feature: np.ndarray) -> np.ndarray:
        """Which per-feature bests (the constant first, feature -1) :meth:`candidates` offers
        after ``first``, by decreasing edge (stable): those with a split, of another feature.

        Two splits of one feature never share a column, so no tie-break across candidates is
        needed; equal columns of two features are dropped afterwards, the first one kept."""
        score = np.maximum(plus, minus)
        taken = -1 if first.is_constant else first.feature
        keep = np.flatnonzero(np.isfinite(score) & (feature != taken))
        return keep[np.argsort(-score[keep], kind="stable")]

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        self._check_fitted()
        blocks: list[np.ndarray] = []
        hyps: list[Hypothesis] = []
        for j in range(self._X.shape[1]):
            if self._sparse is not None:
                thetas = self._sparse.thresholds(j)
                if thetas.size == 0:
                    continue
                x = feature_column(self._X, j)  # one column at a time, never all of X
            else:
                thetas = self._thresholds_t[j, ~self._invalid_t[j]]
                x = self._X[:, j]
            pred = np.where(x[:, None] > thetas[None, :], 1.0, -1.0)
            # Interleave +pred and -pred to follow the enumeration order.
            blocks.append(np.stack([pred, -pred], axis=-1).reshape(pred.shape[0], -1))
            hyps.extend(Stump(j, t, s) for t in thetas for s in (1, -1))
        U = self._y[:, None] * np.concatenate(blocks, axis=1)
        return distinct_columns(U, hyps)


class _SparseStumps:
    """The stump class of a sparse ``X`` (canonical CSC) as groups of equal values per feature.

    Feature j's distinct values ``v_1 < ... < v_G`` (0 among them when some entry of column j is
    not stored) are its groups, stored feature by feature in increasing value; the splits of j
    lie between consecutive groups, and the weight at or below split g is the prefix sum of the
    group weights up to g. Enumeration: the constant (kept as feature 0's threshold -inf), then
    feature by feature the splits by increasing threshold -- the dense order restricted to its
    valid positions. Memory O(nnz + F).
    """

    def __init__(self, X: sp.csc_matrix) -> None:
        n, f = X.shape
        counts = np.diff(X.indptr)
        col = np.repeat(np.arange(f), counts)
        order = np.lexsort((X.data, col))  # by feature, then by value
        vals = X.data[order]
        col = col[order]
        self.rows = X.indices[order].astype(np.intp)
        nnz = vals.size
        new = np.ones(nnz, dtype=bool)
        new[1:] = (col[1:] != col[:-1]) | (vals[1:] != vals[:-1])
        self.starts = np.flatnonzero(new)  # first stored entry of each stored-value group
        gval, gcol = vals[self.starts], col[self.starts]
        real_per_col = np.bincount(gcol, minlength=f)
        has_zero = counts < n
        per_col = real_per_col + has_zero
        gptr = np.concatenate([[0], np.cumsum(per_col)])
        rptr = np.concatenate([[0], np.cumsum(real_per_col)])
        n_groups = int(gptr[-1])
        # Stored-value groups sit after the feature's zero group when positive.
        self.real_pos = (gptr[gcol] + (np.arange(gcol.size) - rptr[gcol])
                         + (has_zero[gcol] & (gval > 0)))
        self.real_col = gcol
        self.zero_cols = np.flatnonzero(has_zero)
        negatives = np.bincount(gcol[gval < 0], minlength=f)
        self.zero_pos = gptr[self.zero_cols] + negatives[self.zero_cols]
        group_val = np.zeros(n_groups)
        group_val[self.real_pos] = gval
        group_col = np.repeat(np.arange(f), per_col)
        last = np.zeros(n_groups, dtype=bool)
        last[gptr[1:][per_col > 0] - 1] = True
        self.split_group = np.flatnonzero(~last)
        self.split_feature = group_col[self.split_group]
        self.split_threshold = _midpoints(group_val[self.split_group],
                                          group_val[self.split_group + 1])
        self.split_ptr = np.searchsorted(self.split_feature, np.arange(f + 1))
        self.n_groups = n_groups
        # Prefix sums within each feature, computed for all features at once: features with
        # the same padded group count (a power of two) share one 2-D cumsum along rows. Each
        # feature's sums are then sequential from its own first group, so equal features get
        # bit-identical edges (ties resolved like the dense oracle) and no rounding drifts in
        # from earlier features. The padding points at a zero slot (index n_groups).
        width = np.where(per_col > 1, 1 << np.ceil(np.log2(np.maximum(per_col, 1))).astype(int),
                         per_col)
        self.buckets: list[np.ndarray] = []
        for wdt in np.unique(width[per_col > 1]):
            cols = np.flatnonzero(width == wdt)
            k = np.arange(int(wdt))[None, :]
            idx = gptr[cols][:, None] + k
            idx = np.where(k < per_col[cols][:, None], idx, n_groups)
            self.buckets.append(idx)

    def thresholds(self, j: int) -> np.ndarray:
        """Feature j's thresholds in enumeration order (feature 0 starts with -inf)."""
        t = self.split_threshold[self.split_ptr[j]:self.split_ptr[j + 1]]
        return np.concatenate([[-np.inf], t]) if j == 0 else t

    def edges(self, w: np.ndarray) -> np.ndarray:
        """Edges with sign +1 for ``w = d * y``: the constant first, then every split in
        enumeration order (sign -1 negates them)."""
        total = float(np.sum(w))
        group_w = np.zeros(self.n_groups + 1)
        if self.rows.size:
            sums = np.add.reduceat(w[self.rows], self.starts)
            group_w[self.real_pos] = sums
            stored = np.bincount(self.real_col, weights=sums,
                                 minlength=self.split_ptr.size - 1)
        else:
            stored = np.zeros(self.split_ptr.size - 1)
        # The zero group of a feature holds every row whose entry is not stored.
        group_w[self.zero_pos] = total - stored[self.zero_cols]
        below = np.zeros(self.n_groups + 1)
        for idx in self.buckets:
            below[idx] = np.cumsum(group_w[idx], axis=1)
        edges = np.empty(self.split_group.size + 1)
        edges[0] = total  # the constant +1
        edges[1:] = total - 2.0 * below[self.split_group]
        return edges
