"""The capped entropic projection (dualboost/projection.py) against an independent solve.

min_d sum_n d_n ln(d_n / a_n) over {sum d = 1, 0 <= d <= 1/nu} (thesis §3.2.5, (3.11)), by cvxpy,
for both of its routes: the O(N) fixed point and the sort it falls back to.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dualboost.projection import capped_entropic_projection


def _reference(log_a: np.ndarray, nu: float) -> np.ndarray:
    a = np.exp(log_a - log_a.max())
    d = cp.Variable(log_a.size, nonneg=True)
    problem = cp.Problem(cp.Minimize(cp.sum(cp.rel_entr(d, a / a.sum()))),
                         [cp.sum(d) == 1, d <= 1.0 / nu])
    problem.solve(solver="CLARABEL")
    return np.asarray(d.value, dtype=float)


def _kl(d: np.ndarray, log_a: np.ndarray) -> float:
    """KL(d, a / sum a) in the log domain."""
    log_p = log_a - np.logaddexp.reduce(log_a)
    d = d / d.sum()
    return float(np.sum(d * (np.log(d) - log_p)))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 25), nu_fraction=st.floats(0.0, 1.0),
       scale=st.sampled_from([0.1, 1.0, 5.0]),
       seed=st.integers(0, 10_000), rounds=st.sampled_from([0, 8]))
def test_matches_a_convex_solve(n, nu_fraction, scale, seed, rounds):
    rng = np.random.default_rng(seed)
    log_a = scale * rng.normal(size=n)
    nu = 1.0 + nu_fraction * (n - 1)
    result = capped_entropic_projection(log_a, nu, rounds=rounds)  # rounds=0: the sort route
    assert abs(result.d.sum() - 1.0) <= 1e-12
    assert result.d.min() >= 0.0 and result.d.max() <= 1.0 / nu * (1 + 1e-12)
    # optimal: no worse than the solver's point (an interior-point solve at its default
    # tolerances, whose d can be off by 1e-3 when a spans e^30 and is slightly infeasible; the
    # exact KKT conditions below are the sharp check)
    reference = _reference(log_a, nu)
    assert _kl(result.d, log_a) <= _kl(np.clip(reference, 1e-300, None), log_a) + 1e-7
    # the uncapped entries are c a_n with c = exp(log_scale); the capped ones sit at 1/nu
    free = ~result.capped
    assert np.allclose(result.d[free], np.exp(result.log_scale + log_a[free]), rtol=1e-12)
    assert np.allclose(result.d[result.capped], 1.0 / nu)
    # the KKT conditions exactly: at the scale c the capped entries would reach the cap, the
    # others stay under it (thesis (3.11) with psi >= 0 only where d_n = 1/nu)
    scaled = np.exp(result.log_scale + log_a)
    assert np.all(scaled[result.capped] >= (1.0 / nu) * (1 - 1e-12))
    assert np.all(scaled[free] <= (1.0 / nu) * (1 + 1e-12))


@pytest.mark.parametrize("nu", [1.0, 7.5, 300.0, 2999.0])
def test_both_routes_agree_on_large_inputs(nu):
    log_a = 30.0 * np.random.default_rng(3).normal(size=3000)  # many entries at the cap
    fixed_point = capped_entropic_projection(log_a, nu)
    sorted_route = capped_entropic_projection(log_a, nu, rounds=0)
    # the sorted route takes the mass left from a running sum of the caps: at nu = 2999 (2998
    # capped of 3000) it is off by 2.6e-14 from a long double evaluation on the same capped
    # set, the fixed point by 4e-17; each route also sums to 1 within 3e-14
    assert np.abs(fixed_point.d - sorted_route.d).max() <= 5e-14
    assert abs(fixed_point.d.sum() - 1.0) <= 3e-14 and abs(sorted_route.d.sum() - 1.0) <= 3e-14
    assert (fixed_point.capped == sorted_route.capped).all()


def test_euclidean_projection_active_sets_agree_with_bisection():
    from dualboost.projection import (
        _active_set_projection,
        _bisection_projection,
        euclidean_capped_projection,
    )

    rng = np.random.default_rng(5)
    fast = 0
    for k in range(600):
        n = int(rng.integers(2, 60))
        nu = float(rng.uniform(1, n))
        x = [rng.dirichlet(np.ones(n)) + rng.normal(0, 1e-10, n),  # a solver's nearly feasible d
             rng.normal(size=n), np.round(rng.normal(size=n), 1)][k % 3]  # far off; ties
        cap = np.full(n, 1.0 / nu) if k % 2 else rng.uniform(1.0 / n, 1.0, n)
        cap = cap if cap.sum() >= 1 else cap / cap.sum() * 1.2
        d = euclidean_capped_projection(x, nu, cap=cap)
        np.testing.assert_allclose(d, _bisection_projection(x, cap, 200), atol=1e-13)
        assert abs(d.sum() - 1.0) <= 1e-12 and d.min() >= 0.0 and np.all(d <= cap)
        fast += _active_set_projection(x, cap) is not None
    assert fast >= 300  # the exact path serves the nearly feasible inputs (and more)
