"""The shortcuts of the ERLPBoost fast path (benchmarks/README.md, "ERLPBoost on a9a"): each
must give what the long way gives, and reject what the long way rejects."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.errors import DualBoostInputError
from dualboost.masters.newton import ProjectedNewtonMaster
from dualboost.projection import capped_entropic_projection
from formulations.erlpboost import ERLPBoost


@pytest.mark.parametrize("seed", range(5))
def test_guessed_projection_is_the_fixed_point_one(seed):
    """From any guessed scale (near, far, absurd) the projection is the unguessed one."""
    rng = np.random.default_rng(seed)
    N = 500
    nu = float(rng.uniform(2.0, 0.4 * N))
    log_a = rng.normal(scale=rng.uniform(0.1, 30.0), size=N)
    log_a[: N // 10] = log_a[0]  # a tie group (duplicate rows)
    plain = capped_entropic_projection(log_a, nu)
    for guess in (plain.log_scale, plain.log_scale + 1e-6, plain.log_scale - 0.3,
                  plain.log_scale + 5.0, -1e3, 1e3, float("nan")):
        guessed = capped_entropic_projection(log_a, nu, guess=guess)
        assert np.array_equal(guessed.capped, plain.capped)
        assert np.allclose(guessed.d, plain.d, rtol=1e-12, atol=0.0)
        assert abs(guessed.log_scale - plain.log_scale) <= 1e-12 * (1 + abs(plain.log_scale))


def test_check_columns_scans_the_appended_columns_of_an_extension():
    f = ERLPBoost(40, nu=4.0, eps=0.1)
    rng = np.random.default_rng(0)
    buffer = np.empty((40, 6), order="F")
    buffer[:, :3] = rng.choice([-1.0, 1.0], size=(40, 3))
    first = f.check_columns(buffer[:, :3])
    buffer[:, 3] = rng.choice([-1.0, 1.0], size=40)
    second = f.check_columns(buffer[:, :4], extends=first)
    assert second.shape == (40, 4) and not second.flags.writeable
    buffer[5, 4] = np.nan
    with pytest.raises(DualBoostInputError, match="NaN or infinite"):
        f.check_columns(buffer[:, :5], extends=second)
    buffer[5, 4] = 2.0
    with pytest.raises(DualBoostInputError, match=r"must lie in \[-1, 1\]"):
        f.check_columns(buffer[:, :5], extends=second)


def test_check_columns_scans_whole_what_is_not_an_extension():
    """A matrix in other memory, or a view the formulation did not return last, is scanned
    in full even when called as an extension."""
    f = ERLPBoost(40, nu=4.0, eps=0.1)
    U = np.ones((40, 3))
    checked = f.check_columns(U)
    other = np.ones((40, 4))
    other[0, 0] = np.inf
    with pytest.raises(DualBoostInputError, match="NaN or infinite"):
        f.check_columns(other, extends=checked)
    buffer = np.ones((40, 5), order="F")
    first = f.check_columns(buffer[:, :2])
    f.check_columns(np.ones((40, 2)))  # another matrix checked in between
    buffer[0, 0] = -3.0
    with pytest.raises(DualBoostInputError, match=r"must lie in \[-1, 1\]"):
        f.check_columns(buffer[:, :3], extends=first)


def test_newton_certificate_reused_is_the_formulations_own():
    """The solve's certificate (its best response reused where dual_feasible(w) is w) has the
    values of formulation.certify at the same w."""
    rng = np.random.default_rng(3)
    N, t = 300, 8
    f = ERLPBoost(N, nu=30.0, eps=0.05)
    U = np.asfortranarray(rng.choice([-1.0, 1.0], size=(N, t)))
    master = ProjectedNewtonMaster(f)
    for k in range(2, t + 1):
        solved = master.solve(U[:, :k], 1e-6)
        cert = solved.certificate
        again = f.certify(U[:, :k], {"w": solved.multipliers["w"]})
        assert cert.gap <= 1e-6
        assert abs(cert.dual_value - again.dual_value) <= 1e-12
        assert abs(cert.primal_value - again.primal_value) <= 1e-12
        assert np.allclose(cert.d, again.d, rtol=1e-10, atol=1e-15)
