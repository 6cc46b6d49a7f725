"""The dense stump oracle scores a block of features at a time (StumpOracle.block_bytes); its
answers must be those of the former whole-table algorithm bit for bit: the same stump, the same
column, the same candidates, for every block size.

The reference below is that algorithm (the (F, N) tables of the dense ``_scored``, ``_winner``
and ``candidates`` before the blocking), kept here verbatim in its arithmetic. The data are
made for ties: integer features, duplicated and complementary 0/1 features, constant features,
uniform weights (many exactly equal edges), N smaller than a block and N = 1, F = 1."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.oracles import StumpOracle
from dualboost.oracles.base import distinct_columns, first_distinct_rows, first_equal_column
from dualboost.oracles.stumps import Stump, _midpoints


class _Reference:
    """The former dense StumpOracle: every edge in (F, N) tables, flat argmaxes over them."""

    def __init__(self, X: np.ndarray, y: np.ndarray) -> None:
        n, f = X.shape
        order = np.argsort(X, axis=0, kind="stable")
        xs = np.take_along_axis(X, order, axis=0)
        valid = np.zeros((n, f), dtype=bool)
        valid[0, 0] = True
        valid[1:] = xs[1:] > xs[:-1]
        thresholds = np.full((n, f), -np.inf)
        thresholds[1:] = _midpoints(xs[:-1], xs[1:])
        self.X, self.y = X, y
        self.order_t = np.ascontiguousarray(order.T)
        self.invalid_flat = np.flatnonzero(~np.ascontiguousarray(valid.T).ravel())
        self.thresholds_t = np.ascontiguousarray(thresholds.T)
        self.feature = np.repeat(np.arange(f), n)
        self.feature[0] = -1

    def stump_at(self, i: int, sign: int) -> Stump:
        j, r = divmod(i, self.order_t.shape[1])
        return Stump(j, self.thresholds_t[j, r], sign)

    def scored(self, d: np.ndarray):
        w = d * self.y
        f, n = self.order_t.shape
        below, edge_plus, edge_minus = np.empty((f, n)), np.empty((f, n)), np.empty((f, n))
        np.take(w, self.order_t, out=below)
        np.cumsum(below, axis=1, out=below)
        total = below[:, -1:]
        edge_plus[:, :1] = total
        np.multiply(below[:, :-1], -2.0, out=edge_plus[:, 1:])
        edge_plus[:, 1:] += total
        np.negative(edge_plus, out=edge_minus)
        plus, minus = edge_plus.ravel(), edge_minus.ravel()
        plus[self.invalid_flat] = -np.inf
        minus[self.invalid_flat] = -np.inf
        return w, plus, minus

    def winner(self, w, plus, minus):
        a = int(np.argmax(plus))
        b = int(np.argmax(minus))
        if plus[a] > minus[b] or (plus[a] == minus[b] and a <= b):
            k, sign = a, 1
        else:
            k, sign = b, -1
        first = (k, sign)
        k, sign, u = first_equal_column(
            plus, minus, k, sign, lambda i, s: self.stump_at(i, s).column(self.X, self.y),
            float(np.abs(w).sum()))
        # the third item: whether the equal-column tie-break moved the answer
        return self.stump_at(k, sign), u, (k, sign) != first

    def best(self, d):
        return self.winner(*self.scored(d))

    def candidates(self, d):
        w, plus, minus = self.scored(d)
        feature = self.feature
        first = self.winner(w, plus, minus)[:2]
        score = np.maximum(plus, minus)
        rest, runs = score[1:], np.flatnonzero(np.r_[True, feature[2:] != feature[1:-1]])
        if rest.size:
            top = np.repeat(np.maximum.reduceat(rest, runs), np.diff(np.r_[runs, rest.size]))
            at_top = np.where(rest == top, np.arange(rest.size), rest.size)
            heads = np.r_[0, 1 + np.minimum.reduceat(at_top, runs)]
        else:
            heads = np.zeros(1, dtype=int)
        taken = -1 if first[0].is_constant else first[0].feature
        heads = heads[np.isfinite(score[heads]) & (feature[heads] != taken)]
        heads = heads[np.argsort(-score[heads], kind="stable")]
        hyps = [first[0]] + [self.stump_at(k, 1 if plus[k] >= minus[k] else -1)
                             for k in heads.tolist()]
        U = np.column_stack([first[1]] + [h.column(self.X, self.y) for h in hyps[1:]])
        U, hyps = distinct_columns(U, hyps)
        return [(h, np.ascontiguousarray(U[:, k])) for k, h in enumerate(hyps)]


def _tied_data(rng: np.random.Generator, n: int, f: int) -> np.ndarray:
    """Features drawn from kinds that tie: continuous, small integers, 0/1 (some with -0.0 and
    -1), a constant, the complement of an earlier feature, a copy of an earlier feature."""
    cols: list[np.ndarray] = []
    for _ in range(f):
        kind = rng.integers(6) if cols else rng.integers(4)
        if kind == 0:
            col = rng.normal(size=n)
        elif kind == 1:
            col = rng.integers(-2, 3, size=n).astype(float)
        elif kind == 2:
            col = rng.integers(0, 2, size=n).astype(float)
            if rng.random() < 0.3:
                col[rng.random(n) < 0.5] *= -1.0  # -0.0 beside 0.0 (one value), and -1
        elif kind == 3:
            col = np.full(n, float(rng.integers(-1, 2)))
        elif kind == 4:
            col = 1.0 - cols[rng.integers(len(cols))]  # complement (of a 0/1 one: 0/1 again)
        else:
            col = cols[rng.integers(len(cols))].copy()
        cols.append(col)
    return np.column_stack(cols)


def _weights(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    if kind == 0:
        return rng.dirichlet(np.ones(n))
    if kind == 1:
        return np.full(n, 1.0 / n)  # exact ties everywhere
    if kind == 2:
        d = rng.integers(0, 3, size=n) / 7.0  # zeros and repeated weights
        return d
    if kind == 3:
        return rng.dirichlet(np.ones(n)) + rng.normal(scale=1e-16, size=n)  # solver noise
    return np.zeros(n)


def _same_answer(got, want) -> None:
    assert got[0] == want[0]
    assert np.array_equal(got[1], want[1])


def _same_candidates(got, want) -> None:
    assert [h for h, _ in got] == [h for h, _ in want]
    for (_, u), (_, v) in zip(got, want):
        assert np.array_equal(u, v)


@pytest.mark.parametrize("n,f", [(1, 1), (1, 4), (2, 1), (3, 3), (7, 1), (9, 5), (40, 7),
                                 (101, 13), (257, 6)])
def test_blocked_oracle_equals_the_whole_table(n, f):
    rng = np.random.default_rng(1000 * n + f)
    for _ in range(12):
        X = _tied_data(rng, n, f)
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        reference = _Reference(X, y)
        # one feature per block, several (f not a multiple of 2 or 3), all in one block
        oracles = []
        for rows in (1, 2, 3, f + 5):
            oracle = StumpOracle()
            oracle.block_bytes = 8 * n * rows
            oracles.append(oracle.fit(X, y))
        oracles.append(StumpOracle().fit(X, y))  # the default block size
        for kind in range(5):
            d = _weights(rng, n, kind)
            want = reference.best(d)[:2]
            want_candidates = reference.candidates(d)
            for oracle in oracles:
                _same_answer(oracle.best(d), want)
                _same_candidates(oracle.candidates(d), want_candidates)


def test_near_ties_found_in_earlier_features_only():
    # the winner's column repeats in earlier features (copies, complements with the opposite
    # sign) whose edges are sums in other orders, equal up to rounding; blocks of one and of
    # two features make the near-ties separate recomputations
    rng = np.random.default_rng(5)
    n = 301
    base = rng.integers(0, 2, size=n).astype(float)
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    X = np.column_stack([rng.normal(size=n), 1.0 - base, rng.normal(size=n), base, base,
                         1.0 - base, rng.normal(size=n)])
    reference = _Reference(X, y)
    oracles = []
    for rows in (1, 2):
        oracle = StumpOracle()
        oracle.block_bytes = 8 * n * rows
        oracles.append(oracle.fit(X, y))
    moved = 0
    for _ in range(60):
        # base's split (feature 1 with sign -1 first) has the largest edge
        d = rng.dirichlet(np.ones(n)) * np.where(base == (y > 0), 3.0, 1.0)
        *want, was_moved = reference.best(d)
        moved += was_moved
        assert want[0].feature == 1
        want_candidates = reference.candidates(d)
        for oracle in oracles:
            _same_answer(oracle.best(d), want)
            _same_candidates(oracle.candidates(d), want_candidates)
    assert moved > 0


def test_block_size_changes_between_calls():
    rng = np.random.default_rng(2)
    X, y = _tied_data(rng, 30, 8), np.where(rng.random(30) < 0.5, -1.0, 1.0)
    reference, oracle = _Reference(X, y), StumpOracle().fit(X, y)
    for rows in (8, 1, 3, 100):
        oracle.block_bytes = 8 * 30 * rows
        d = rng.dirichlet(np.ones(30))
        _same_answer(oracle.best(d), reference.best(d)[:2])
        assert oracle._buffers is not None and oracle._buffers[0].shape == (min(rows, 8), 30)


def test_at_most_the_first_near_ties_are_checked():
    # 16 earlier features whose best edge is within the tolerance of the top but whose columns
    # differ (the winner's split with one tiny-weight example moved across), then the
    # winner's complement, then the winner: the complement is the 17th near-tie, beyond
    # EQUAL_COLUMN_CANDIDATES, so the answer stays the winner whenever rounding puts the
    # winner's edge above its complement's
    rng = np.random.default_rng(8)
    n = 80
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    base = rng.integers(0, 2, size=n).astype(float)
    tiny = np.arange(16)
    base[tiny] = y[tiny] > 0  # the winner is right on them: moving one costs 2 * its weight
    decoys = np.repeat(base[:, None], tiny.size, axis=1)
    decoys[tiny, np.arange(tiny.size)] = 1.0 - base[tiny]
    X = np.column_stack([decoys, 1.0 - base, base])
    reference = _Reference(X, y)
    oracles = [StumpOracle().fit(X, y)]
    for rows in (1, 2, 5):
        oracle = StumpOracle()
        oracle.block_bytes = 8 * n * rows
        oracles.append(oracle.fit(X, y))
    beyond = moved = 0
    for _ in range(40):
        d = rng.dirichlet(np.ones(n)) * np.where(base == (y > 0), 3.0, 1.0)
        d[tiny] = 1e-13
        *want, was_moved = reference.best(d)
        beyond += want[0].feature == X.shape[1] - 1
        moved += was_moved
        for oracle in oracles:
            _same_answer(oracle.best(d), want)
    assert beyond > 0 and moved == 0


def test_first_distinct_rows_is_the_byte_hash_rule():
    # the fingerprint rule keeps what hashing each row's bytes (after + 0.0) kept: the first of
    # every distinct row, -0.0 equal to 0.0, rows differing in one entry distinct
    rng = np.random.default_rng(4)
    for n in (1, 2, 9, 300):
        rows = rng.choice([-1.0, 0.0, -0.0, 0.5, 1.0], size=(6, n))
        V = rows[rng.integers(6, size=25)]
        V[rng.integers(25, size=5), rng.integers(n, size=5)] *= -1.0  # some near-copies
        want, seen = [], set()
        for k, row in enumerate(V + 0.0):
            if row.tobytes() not in seen:
                seen.add(row.tobytes())
                want.append(k)
        assert first_distinct_rows(V) == want
        assert first_distinct_rows(np.asfortranarray(V)) == want
        assert first_distinct_rows([row.copy() for row in V]) == want
