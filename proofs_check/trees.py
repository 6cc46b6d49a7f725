"""The exact depth-2 tree oracle against an enumeration of every depth-2 tree.

dualboost/oracles/trees.py computes the maximum edge over depth-2 trees on binned features as

    max_{a,t} [ max_{b,s} (|P_ab[t,s]| + |P_ab[t,B-1] - P_ab[t,s]|)
              + max_{b,s} (|Q_ab[t,s]| + |Q_ab[t,B-1] - Q_ab[t,s]|) ]

(the two children of a fixed root split are independent, and a child's leaves choose their
signs, so its best is the larger of |left| + |right| over its own splits; docs/theory.md,
"Heuristic oracles"). The check lists every tree -- root split, each child unsplit or split,
every choice of the leaf signs -- on small random instances and compares the maxima.
"""

from __future__ import annotations

import itertools

import numpy as np

from .result import CheckResult


def brute_force_depth2(codes: np.ndarray, n_bins: np.ndarray, w: np.ndarray) -> float:
    """The largest edge sum_n w_n h(x_n) over every depth-<=2 tree on the bin codes, by listing
    every tree: a root split (a, t), per child no split or a split (b, s), and every choice of
    the (up to four) leaf signs."""
    f = codes.shape[1]
    child_splits = [None] + [(b, s) for b in range(f) for s in range(n_bins[b] - 1)]
    best = -np.inf
    for a in range(f):
        for t in range(n_bins[a] - 1):
            left = codes[:, a] <= t
            for cl, cr in itertools.product(child_splits, repeat=2):
                leaves = []
                for side, split in ((left, cl), (~left, cr)):
                    if split is None:
                        leaves.append(side)
                    else:
                        b, s = split
                        leaves += [side & (codes[:, b] <= s), side & (codes[:, b] > s)]
                sums = np.array([w[m].sum() for m in leaves])
                for signs in itertools.product((1.0, -1.0), repeat=len(leaves)):
                    best = max(best, float(np.dot(signs, sums)))
    return best


def check_exact_depth2_tree(mistake: str | None = None, n_trials: int = 6,
                            tol: float = 1e-12) -> CheckResult:
    """``ExactDepth2TreeOracle.best`` has the edge of the best depth-2 tree, by enumeration.

    ``mistake="right_leaf"`` computes the maximum with the right child never split (a wrong
    formula that must fail)."""
    from dualboost.oracles.trees import ExactDepth2TreeOracle

    name = "exact depth-2 tree oracle"
    ref = "thesis Def. 2.1 (edge); docs/theory.md, Heuristic oracles"
    rng = np.random.default_rng(0)
    worst = 0.0
    for _ in range(n_trials):
        n, f = 30, 3
        X = rng.normal(size=(n, f))
        X[:, -1] = rng.integers(0, 3, n)
        y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        d = rng.random(n)
        d /= d.sum()
        oracle = ExactDepth2TreeOracle(max_bins=4).fit(X, y)
        w = d * y
        if mistake == "right_leaf":
            value = -np.inf
            for a in range(f):
                if oracle._n_bins[a] < 2:
                    continue
                lv, _, _, _ = oracle.child_tables(w, a)
                right_total = np.array([w[oracle._codes[:, a] > t].sum()
                                        for t in range(oracle._B)])
                value = max(value, float(np.max((lv + np.abs(right_total))[
                    : oracle._n_bins[a] - 1])))
        else:
            tree, u = oracle.best(d)
            if not np.array_equal(u, y * tree.predict(X)):
                return CheckResult(name, ref, False, "the returned column is not the tree's")
            value = float(u @ d)
        exact = brute_force_depth2(oracle._codes, oracle._n_bins, w)
        worst = max(worst, abs(value - exact))
    ok = worst <= tol
    return CheckResult(name, ref, ok, f"{n_trials} random instances (N = 30, F = 3, <= 4 bins), "
                                      f"every depth-2 tree listed; worst |difference| "
                                      f"{worst:.2e}")
