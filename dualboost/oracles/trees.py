"""Decision trees as hypotheses: a greedy depth-k tree oracle and an exact depth-2 tree oracle.

**Binning.** Each feature is binned once per fit (as LightGBM and XGBoost do): its thresholds
``theta_{j,0} < ... < theta_{j,B_j-2}`` (at most ``max_bins - 1``, so at most 255 bins and
uint8 codes) lie at midpoints between consecutive distinct training values, at the quantiles of
the feature's empirical distribution (all midpoints when the feature has at most ``max_bins``
distinct values). An example's code is ``c_{nj} = #{b : theta_{j,b} < x_{nj}}``, so that
``c_{nj} <= b  <=>  x_{nj} <= theta_{j,b}``: a split on codes is a split on the original scale,
and a saved tree holds the threshold ``theta_{j,b}`` itself (no binning at prediction time).

**The class** (thesis Def. 2.1 for the edge): binary trees of depth <= k whose internal nodes
test ``x_j <= theta_{j,b}`` and whose leaves output +1 or -1. With ``w = d * y`` the edge of a
tree is ``sum_leaves v_l S_l`` with ``S_l = sum_{n in l} w_n``; for a fixed partition the best
leaf values are ``v_l = sign(S_l)``, giving edge ``sum_l |S_l|``. Flipping every leaf negates a
tree, so the class is closed under negation, as the formulations assume (docs/theory.md).

**Greedy oracle** (``TreeOracle``, heuristic: ``exact = False`` for depth >= 2). Level by level,
every node takes the split of largest ``|S_left| + |S_right|`` (criterion "edge") or of largest
weighted Gini decrease (criterion "gini", CART's rule on the weights d); a node without a split
that increases ``|S_left| + |S_right|`` over ``|S|`` stays a leaf. One level costs one
``np.bincount`` over the N x F codes (per node, feature and bin the sums of ``w``) and a cumulative
sum over the bins: O(N F + nodes F B), never a Python loop over examples. Depth 1 is the exact
best binned stump.

**Exact depth-2 oracle** (``ExactDepth2TreeOracle``, ``exact = True``): the maximum edge over all
trees with a root split on feature a at bin threshold t and, in each child, its own split on any
feature b at any threshold s (or none) and its own leaf signs. For a fixed root split the two
children are independent, and a child's best is ``max_{b,s} |L_{b,s}| + |R_{b,s}|`` (its leaves
choose their signs freely), so

    max edge = max_{a,t} [ max_{b,s} (|P_ab[t,s]| + |P_ab[t,B-1] - P_ab[t,s]|)
                         + max_{b,s} (|Q_ab[t,s]| + |Q_ab[t,B-1] - Q_ab[t,s]|) ]

with ``P_ab`` the 2-D prefix sums of the histogram ``H_ab[i,j] = sum {w_n : c_na = i, c_nb = j}``
(left child: ``c_a <= t``) and ``Q_ab[t,.] = P_ab[B-1,.] - P_ab[t,.]`` (right child). For each
root feature a, one ``np.bincount`` over ``a * B^2``-offset codes gives all F histograms ``H_ab``
at once. Cost per call: about F^2 (N + B^2) operations (F feature pairs, each N examples and a
B x B prefix table); at N = 1e4, F = 50, B = 32 about 0.1 s. It pays where trees of depth 2 are
the class of interest and one wants totally corrective boosting certified to the class's
optimum like stumps are: LPBoost's / ERLPBoost's gamma_hat = min_t edge^t is then an upper bound
on the best soft margin over all depth-2 trees (docs/theory.md, L5).
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
    as_labels,
    check_predict_input,
    feature_column,
)

#: the most bins a feature gets (uint8 codes 0..254)
MAX_BINS = 255


def _midpoints(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Thresholds t with ``lo <= t < hi`` near the midpoint (``lo/2 + hi/2`` cannot overflow;
    for adjacent floats it may round up to ``hi``, then ``lo`` is taken)."""
    mid = lo / 2 + hi / 2
    return np.where((mid < lo) | (mid >= hi), lo, mid)


def bin_thresholds(x: np.ndarray, max_bins: int) -> np.ndarray:
    """The increasing thresholds of one feature (at most ``max_bins - 1``): midpoints between
    consecutive distinct values, at the quantiles k / max_bins of the values (every midpoint
    when there are at most ``max_bins`` distinct values)."""
    values, counts = np.unique(x, return_counts=True)
    if values.size <= 1:
        return np.zeros(0)
    if values.size <= max_bins:
        return _midpoints(values[:-1], values[1:])
    cum = np.cumsum(counts)
    targets = cum[-1] * np.arange(1, max_bins) / max_bins
    # the cut after distinct value i, where the cumulative count first reaches each target
    cuts = np.unique(np.searchsorted(cum, targets))
    cuts = cuts[cuts < values.size - 1]
    return _midpoints(values[cuts], values[cuts + 1])


def bin_features(X: Any, max_bins: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Codes (N x F, uint8) and per-feature thresholds: ``code = #{thresholds < x}``, so
    ``code <= b`` exactly when ``x <= thresholds[b]``. Sparse X is read a column at a time."""
    n, f = X.shape
    codes = np.empty((n, f), dtype=np.uint8)
    thresholds: list[np.ndarray] = []
    for j in range(f):  # a loop over features; each is vectorized over the examples
        x = feature_column(X, j) if sp.issparse(X) else X[:, j]
        thr = bin_thresholds(x, max_bins)
        codes[:, j] = np.searchsorted(thr, x, side="left")
        thresholds.append(thr)
    return codes, thresholds


@dataclass(frozen=True)
class Tree(Hypothesis):
    """A binary decision tree with leaves in {-1, +1}, in flat arrays (scikit-learn's layout).

    Node 0 is the root. An internal node i sends x to ``left[i]`` when
    ``x[feature[i]] <= threshold[i]``, else to ``right[i]``; a leaf has ``feature[i] = -1`` and
    outputs ``value[i]``. Thresholds are on the original feature scale.
    """

    feature: tuple
    threshold: tuple
    left: tuple
    right: tuple
    value: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "feature", tuple(int(j) for j in self.feature))
        object.__setattr__(self, "threshold", tuple(float(t) for t in self.threshold))
        object.__setattr__(self, "left", tuple(int(i) for i in self.left))
        object.__setattr__(self, "right", tuple(int(i) for i in self.right))
        object.__setattr__(self, "value", tuple(float(v) for v in self.value))

    @property
    def depth(self) -> int:
        """The number of splits on the longest root-to-leaf path."""
        depth = [0] * len(self.feature)
        for i, j in enumerate(self.feature):  # parents come before children
            if j >= 0:
                depth[self.left[i]] = depth[self.right[i]] = depth[i] + 1
        return max(depth)

    @property
    def features_used(self) -> list[int]:
        return sorted({j for j in self.feature if j >= 0})

    def predict(self, X: Any) -> np.ndarray:
        used = self.features_used
        m = X.shape[0] if hasattr(X, "shape") else len(X)
        if not used:  # a single leaf: still validate X's shape
            check_predict_input(X, 0, "Tree")
            return np.full(m, self.value[0])
        # only the columns the tree reads are made dense and checked
        cols = np.column_stack([check_predict_input(X, j, "Tree") for j in used])
        local = np.full(len(self.feature), 0, dtype=np.intp)
        local[[i for i, j in enumerate(self.feature) if j >= 0]] = [
            used.index(j) for j in self.feature if j >= 0]
        feature = np.asarray(self.feature)
        threshold = np.asarray(self.threshold)
        left, right = np.asarray(self.left), np.asarray(self.right)
        node = np.zeros(m, dtype=np.intp)
        rows = np.arange(m)
        for _ in range(self.depth):  # one step down per level, all examples at once
            internal = feature[node] >= 0
            go_left = cols[rows, local[node]] <= threshold[node]
            node = np.where(internal, np.where(go_left, left[node], right[node]), node)
        return np.asarray(self.value)[node]

    def describe(self) -> dict:
        return {"type": "tree", "feature": list(self.feature),
                # leaves have no threshold (JSON null)
                "threshold": [t if j >= 0 else None for j, t in zip(self.feature,
                                                                    self.threshold)],
                "left": list(self.left), "right": list(self.right), "value": list(self.value)}

    def negated(self) -> Tree:
        return Tree(self.feature, self.threshold, self.left, self.right,
                    tuple(-v for v in self.value))


def _leaf_sign(total: np.ndarray) -> np.ndarray:
    """sign(S) with sign(0) = +1: the best leaf value for a leaf of weight S."""
    return np.where(total >= 0, 1.0, -1.0)


class _BinnedOracle(Oracle):
    """Shared fit: validated X, labels, binned codes and thresholds."""

    max_bins: int = MAX_BINS

    def fit(self, X: Any, y: Any) -> _BinnedOracle:
        X = as_feature_matrix(X)
        y = as_labels(y, X.shape[0])
        self._y = y
        self._codes, self._thresholds = bin_features(X, self.max_bins)
        self._n_bins = np.array([t.size + 1 for t in self._thresholds], dtype=np.intp)
        self._B = int(self._n_bins.max())
        self._n_examples = X.shape[0]
        return self

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        raise DualBoostInputError(
            f"oracle {self.name!r}: the class of trees is too large to list its columns; "
            "certificates hold over the hypotheses found")


class TreeOracle(_BinnedOracle):
    """Greedy tree of depth <= ``max_depth`` on binned features (see the module docstring).

    Heuristic for ``max_depth >= 2``: the returned tree need not have the maximum edge over
    the class, so whole-class statements (gamma_hat >= g, the early stops) are not made.
    """

    name = "tree"

    def __init__(self, max_depth: int = 3, max_bins: int = MAX_BINS,
                 criterion: str = "edge") -> None:
        if isinstance(max_depth, bool) or int(max_depth) != max_depth or max_depth < 1:
            raise DualBoostInputError(f"tree oracle: max_depth must be an integer >= 1, got "
                                      f"{max_depth!r}")
        if isinstance(max_bins, bool) or int(max_bins) != max_bins \
                or not 2 <= max_bins <= MAX_BINS:
            raise DualBoostInputError(f"tree oracle: max_bins must be an integer in [2, "
                                      f"{MAX_BINS}], got {max_bins!r}")
        if criterion not in ("edge", "gini"):
            raise DualBoostInputError(f"tree oracle: criterion must be 'edge' or 'gini', got "
                                      f"{criterion!r}")
        self.max_depth = int(max_depth)
        self.max_bins = int(max_bins)
        self.criterion = criterion

    @property
    def exact(self) -> bool:  # type: ignore[override]
        # depth 1 is the exact best binned stump; deeper greedy trees are a heuristic
        return self.max_depth == 1

    def fit(self, X: Any, y: Any) -> TreeOracle:
        super().fit(X, y)
        f = self._codes.shape[1]
        # codes offset by feature: one bincount sorts every (feature, bin) at once
        self._keys = (self._codes.astype(np.int32)
                      + (np.arange(f, dtype=np.int32) * self._B)[None, :])
        b = np.arange(self._B)
        # split after bin b of feature j is real when b < n_bins_j - 1
        self._valid = b[None, :] < (self._n_bins - 1)[:, None]
        return self

    def _split_scores(self, node_sums: np.ndarray, node_pos: np.ndarray | None,
                      node_tot: np.ndarray) -> np.ndarray:
        """Scores of every (node, feature, bin) split, shape (a, F, B); -inf where invalid.

        ``node_sums`` are per-bin sums of w (a, F, B); with criterion "gini" ``node_pos`` are
        the per-bin sums of d over the positives and ``node_tot`` the sums of d."""
        left = np.cumsum(node_sums, axis=2)
        total = left[:, :, -1:]
        if self.criterion == "edge":
            score = np.abs(left) + np.abs(total - left)
        else:
            # weighted Gini of a part with positive weight p and total t: 2 p (t - p) / t;
            # the score is the impurity removed (its parent's impurity is a constant per node)
            pos_left = np.cumsum(node_pos, axis=2)
            tot_left = np.cumsum(node_tot, axis=2)
            pos_right = pos_left[:, :, -1:] - pos_left
            tot_right = tot_left[:, :, -1:] - tot_left
            with np.errstate(divide="ignore", invalid="ignore"):
                g_left = np.where(tot_left > 0, pos_left * (tot_left - pos_left) / tot_left, 0)
                g_right = np.where(tot_right > 0,
                                   pos_right * (tot_right - pos_right) / tot_right, 0)
            score = -(g_left + g_right)
        return np.where(self._valid[None], score, -np.inf)

    def best(self, d: Any) -> tuple[Tree, np.ndarray]:
        d = self._check_d(d)
        w = d * self._y
        n, f = self._codes.shape
        B = self._B
        # the tree in flat arrays, grown level by level
        feature, threshold, left, right = [-1], [0.0], [-1], [-1]
        node_of = np.zeros(n, dtype=np.intp)  # each example's current node
        active = [0]  # nodes to split at this level
        gini = self.criterion == "gini"
        dpos = np.where(self._y > 0, d, 0.0) if gini else None
        for _level in range(self.max_depth):
            if not active:
                break
            a = len(active)
            slot_of = np.full(len(feature), -1, dtype=np.intp)
            slot_of[active] = np.arange(a)
            slot = slot_of[node_of]
            inside = slot >= 0
            keys = (self._keys[inside] + (slot[inside] * (f * B))[:, None]).ravel()
            size = a * f * B
            sums = np.bincount(keys, weights=np.repeat(w[inside], f),
                               minlength=size).reshape(a, f, B)
            pos = tot = None
            if gini:
                pos = np.bincount(keys, weights=np.repeat(dpos[inside], f),
                                  minlength=size).reshape(a, f, B)
                tot = np.bincount(keys, weights=np.repeat(d[inside], f),
                                  minlength=size).reshape(a, f, B)
            score = self._split_scores(sums, pos, tot)
            flat = score.reshape(a, -1)
            choice = flat.argmax(axis=1)
            node_total = sums[:, 0, :].sum(axis=1)
            # the edge gain of the chosen split: a split that does not raise |S_l| + |S_r|
            # over |S| leaves the node a leaf (rounding: relative tolerance)
            cum = np.cumsum(sums, axis=2).reshape(a, -1)
            tot_f = np.repeat(sums.sum(axis=2), B, axis=1)
            lsum = cum[np.arange(a), choice]
            rsum = tot_f[np.arange(a), choice] - lsum
            gain = np.abs(lsum) + np.abs(rsum) - np.abs(node_total)
            scale = np.abs(w).sum()
            split = np.isfinite(flat[np.arange(a), choice]) & (gain > 1e-12 * scale)
            if gini:
                # CART's rule: Gini may split where the edge gains nothing yet (the next level
                # may); only nodes holding one class (no impurity) stay leaves
                node_pos = pos[:, 0, :].sum(axis=1)
                node_neg = tot[:, 0, :].sum(axis=1) - node_pos
                split = np.isfinite(flat[np.arange(a), choice]) & (node_pos > 0) & (
                    node_neg > 0)
            next_active = []
            go_split = np.zeros(a, dtype=bool)
            child_left = np.full(a, -1, dtype=np.intp)
            child_right = np.full(a, -1, dtype=np.intp)
            feat_a = np.full(a, -1, dtype=np.intp)
            bin_a = np.zeros(a, dtype=np.intp)
            for s, node in enumerate(active):  # a loop over nodes of one level
                if not split[s]:
                    continue
                j, b = divmod(int(choice[s]), B)
                feature[node], threshold[node] = j, float(self._thresholds[j][b])
                left[node], right[node] = len(feature), len(feature) + 1
                for _child in range(2):
                    feature.append(-1)
                    threshold.append(0.0)
                    left.append(-1)
                    right.append(-1)
                next_active += [left[node], right[node]]
                go_split[s] = True
                child_left[s], child_right[s] = left[node], right[node]
                feat_a[s], bin_a[s] = j, b
            # move the examples of split nodes to their children
            moving = inside & go_split[np.where(inside, slot, 0)]
            idx = np.flatnonzero(moving)
            sl = slot[idx]
            goes_left = self._codes[idx, feat_a[sl]] <= bin_a[sl]
            node_of[idx] = np.where(goes_left, child_left[sl], child_right[sl])
            active = next_active
        leaf_sums = np.bincount(node_of, weights=w, minlength=len(feature))
        value = _leaf_sign(leaf_sums)
        tree = Tree(tuple(feature), tuple(threshold), tuple(left), tuple(right), tuple(value))
        pred = value[node_of]
        return tree, self._y * pred


class ExactDepth2TreeOracle(_BinnedOracle):
    """The tree of maximum edge over all trees of depth <= 2 on binned features (exact over
    that class; see the module docstring for the formula and its cost, about F^2 (N + B^2))."""

    name = "tree2_exact"
    exact = True

    def __init__(self, max_bins: int = 32) -> None:
        if isinstance(max_bins, bool) or int(max_bins) != max_bins \
                or not 2 <= max_bins <= MAX_BINS:
            raise DualBoostInputError(f"tree2_exact oracle: max_bins must be an integer in "
                                      f"[2, {MAX_BINS}], got {max_bins!r}")
        self.max_bins = int(max_bins)

    def fit(self, X: Any, y: Any) -> ExactDepth2TreeOracle:
        super().fit(X, y)
        f = self._codes.shape[1]
        B = self._B
        # pair codes c_a * B + c_b offset by b * B^2: one bincount per root feature a gives the
        # F histograms H_ab; the inner code is stored once (int32)
        self._inner = (self._codes.astype(np.int32)
                       + (np.arange(f, dtype=np.int32) * (B * B))[None, :])
        return self

    def child_tables(self, w: np.ndarray, a: int) -> tuple[np.ndarray, np.ndarray,
                                                            np.ndarray, np.ndarray]:
        """For root feature a: the best left- and right-child scores per root threshold t
        (shape (B,)), and the (b, s) achieving them (flat indices b * B + s)."""
        n, f = self._codes.shape
        B = self._B
        keys = (self._inner + (self._codes[:, a].astype(np.int32) * B)[:, None]).ravel()
        H = np.bincount(keys, weights=np.repeat(w, f), minlength=f * B * B).reshape(f, B, B)
        P = H.cumsum(axis=1).cumsum(axis=2)  # P[b, t, s]: c_a <= t and c_b <= s
        left_tot = P[:, :, -1:]  # (f, B, 1): the left child's total for root threshold t
        left = np.abs(P) + np.abs(left_tot - P)
        Q = P[:, -1:, :] - P  # c_a > t and c_b <= s
        right_tot = Q[:, :, -1:]
        right = np.abs(Q) + np.abs(right_tot - Q)
        # max over (b, s) per t, as (B, f * B) tables
        left_t = left.transpose(1, 0, 2).reshape(B, f * B)
        right_t = right.transpose(1, 0, 2).reshape(B, f * B)
        at_l, at_r = left_t.argmax(axis=1), right_t.argmax(axis=1)
        rows = np.arange(B)
        return left_t[rows, at_l], right_t[rows, at_r], at_l, at_r

    def best(self, d: Any) -> tuple[Tree, np.ndarray]:
        d = self._check_d(d)
        w = d * self._y
        n, f = self._codes.shape
        best_val, best = -np.inf, None
        for a in range(f):  # a loop over root features; each is one bincount over N x F
            if self._n_bins[a] < 2:
                continue
            lv, rv, at_l, at_r = self.child_tables(w, a)
            total = (lv + rv)[: self._n_bins[a] - 1]  # valid root thresholds only
            t = int(total.argmax())
            if total[t] > best_val:
                best_val, best = total[t], (a, t, int(at_l[t]), int(at_r[t]))
        if best is None:  # every feature constant: the best constant
            value = float(_leaf_sign(np.array(w.sum())))
            tree = Tree((-1,), (0.0,), (-1,), (-1,), (value,))
            return tree, self._y * value
        return self._build(w, *best)

    def _build(self, w: np.ndarray, a: int, t: int, at_l: int, at_r: int
               ) -> tuple[Tree, np.ndarray]:
        """The tree of a root split (a, t) and child splits (b, s) (flat b * B + s), with the
        best leaf signs; a child split that separates nothing becomes a leaf."""
        B = self._B
        codes = self._codes
        go_left = codes[:, a] <= t
        feature, threshold, left, right = [a], [float(self._thresholds[a][t])], [1], [2]
        feature += [-1, -1]
        threshold += [0.0, 0.0]
        left += [-1, -1]
        right += [-1, -1]
        leaf_of = np.where(go_left, 1, 2)
        for child, at, side in ((1, at_l, go_left), (2, at_r, ~go_left)):
            b, s = divmod(at, B)
            if s >= self._n_bins[b] - 1:  # no real split: the child is a leaf
                continue
            k = len(feature)
            feature[child], threshold[child] = b, float(self._thresholds[b][s])
            left[child], right[child] = k, k + 1
            feature += [-1, -1]
            threshold += [0.0, 0.0]
            left += [-1, -1]
            right += [-1, -1]
            leaf_of = np.where(side, np.where(codes[:, b] <= s, k, k + 1), leaf_of)
        sums = np.bincount(leaf_of, weights=w, minlength=len(feature))
        value = _leaf_sign(sums)
        tree = Tree(tuple(feature), tuple(threshold), tuple(left), tuple(right), tuple(value))
        return tree, self._y * value[leaf_of]
