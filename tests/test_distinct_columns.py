"""distinct_columns keeps the first of every set of equal columns, in order, exactly as a
byte-by-byte comparison of the columns would (its fingerprints only choose what to compare)."""

import numpy as np
import pytest

from dualboost.oracles.base import distinct_columns


def _by_bytes(U, hypotheses):
    seen, keep = set(), []
    for k, column in enumerate(np.ascontiguousarray(U.T + 0.0)):
        if column.tobytes() not in seen:
            seen.add(column.tobytes())
            keep.append(k)
    return U[:, keep], [hypotheses[k] for k in keep]


@pytest.mark.parametrize("seed", range(40))
def test_same_columns_kept_as_byte_comparison(seed):
    rng = np.random.default_rng(seed)
    N, t = int(rng.integers(1, 80)), int(rng.integers(1, 40))
    pool = rng.choice([-1.0, 1.0, 0.0, -0.0, 0.5, 1e-300], size=(N, int(rng.integers(1, 8))))
    U = pool[:, rng.integers(0, pool.shape[1], t)] * rng.choice([1.0, -1.0], size=(1, t))
    hypotheses = [f"h{k}" for k in range(t)]
    expected_U, expected_h = _by_bytes(U, hypotheses)
    got_U, got_h = distinct_columns(U, hypotheses)
    assert got_h == expected_h
    assert np.array_equal(got_U, expected_U)


def test_near_equal_columns_are_both_kept():
    # equal fingerprints within rounding are compared exactly: a column differing in one entry
    # by the smallest step is a different column
    U = np.ones((1000, 3))
    U[500, 1] = np.nextafter(1.0, 0.0)
    U[:, 2] = U[:, 0]
    got_U, got_h = distinct_columns(U, ["a", "b", "c"])
    assert got_h == ["a", "b"]
    assert np.array_equal(got_U, U[:, :2])


def test_returns_a_copy():
    U = np.ones((5, 1))
    got, _ = distinct_columns(U, ["a"])
    got[0, 0] = 7.0
    assert U[0, 0] == 1.0
