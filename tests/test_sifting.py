"""The soft-margin LP (2.3) by sifting (dualboost/masters/sifting.py) against scipy's HiGHS on the
whole LP, and the output's P_LP^T (restricted_lp_value) on both routes."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.algorithms.totally_corrective import independent_lp_value, restricted_lp_value
from dualboost.masters.sifting import sifted_soft_margin_lp
from formulations.lpboost import LPBoost


def _instance(seed: int):
    rng = np.random.default_rng(seed)
    N, t = int(rng.integers(5, 400)), int(rng.integers(1, 25))
    # +-1 columns (stumps: many ties among the margins; written on their error or accuracy
    # sets), continuous ones, or both in one U
    U = rng.choice([-1.0, 1.0], size=(N, t)) if seed % 2 else rng.uniform(-1, 1, (N, t))
    if seed % 4 == 3:
        U[:, ::3] = rng.uniform(-1, 1, (N, U[:, ::3].shape[1]))
    nu = float(rng.uniform(1.0, N)) if seed % 5 else 1.0
    w_start = rng.uniform(0.0, 1.0, t) if seed % 3 else None
    return U, nu, w_start


@pytest.mark.parametrize("seed", range(60))
def test_sifting_solves_the_whole_lp(seed):
    U, nu, w_start = _instance(seed)
    # the first working set: the default, the output's t + 101, and a tiny one (many rounds)
    first_size = (None, U.shape[1] + 101, 3)[seed % 3]
    # and from a guessed basis (what the output's P_LP^T does) on every other instance of
    # each kind
    sifted = sifted_soft_margin_lp(U, nu, w_start, first_size=first_size, crash=seed // 2 % 2 == 0)
    assert sifted is not None
    cert = LPBoost(U.shape[0], nu=nu).certify(U, {"w": sifted.w, "psi": sifted.psi}, sifted.d)
    reference = independent_lp_value(U, nu)
    assert cert.gap <= 1e-8
    assert cert.dual_value == pytest.approx(reference, abs=1e-8)
    # d is a feasible point of (2.3): sums to 1 within round-off, inside the caps
    assert sifted.d.sum() == pytest.approx(1.0, abs=1e-9)
    assert sifted.d.min() >= 0.0 and sifted.d.max() <= min(1.0, 1.0 / nu) + 1e-12


def test_a_small_working_set_is_enough_from_a_good_start():
    """From the optimal w the first working set already holds the optimum's fractional d_n."""
    rng = np.random.default_rng(7)
    U = rng.uniform(-1, 1, (5000, 12))
    nu = 0.3 * 5000
    first = sifted_soft_margin_lp(U, nu, None)
    again = sifted_soft_margin_lp(U, nu, first.w)
    assert again.rounds == 1 and again.working_set < 5000 // 10


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_restricted_lp_value_same_on_both_routes(seed):
    U, nu, w_start = _instance(seed)
    w_start = np.full(U.shape[1], 1.0 / U.shape[1]) if w_start is None else w_start
    assert restricted_lp_value(U, nu, w_start=w_start) == pytest.approx(
        restricted_lp_value(U, nu), abs=1e-9)
