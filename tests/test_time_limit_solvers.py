"""A run's time limit inside a cvxpy master solve (the reference path): the solver gets the time
left as its own limit (Clarabel's ``time_limit``, dualboost.solvers.TIME_LIMIT_OPTION) and
stops on it, and the solve raises TimeLimitReached instead of finishing (issue 20: "a limit
holds ... inside a master solve too (HiGHS and Clarabel take a time limit)"; the HiGHS side is
tests/test_run_control.py). Functional, not timed: the LP takes Clarabel tens of iterations and
seconds (2000 x 200: 21 iterations, 4 s), the limit a twentieth of a second; the check is the
solver's own status, not a clock."""

from __future__ import annotations

import numpy as np
import pytest

cp = pytest.importorskip("cvxpy")

from dualboost.run_control import RunControl, TimeLimitReached, running  # noqa: E402
from dualboost.solvers import installed, solve  # noqa: E402


def soft_margin_lp(N: int = 2000, t: int = 200) -> cp.Problem:
    """The soft-margin LP (2.3) in the d-domain over random +-1 columns, nu = 0.1 N."""
    rng = np.random.default_rng(0)
    U = np.where(rng.random((N, t)) < 0.5, 1.0, -1.0)
    d, gamma = cp.Variable(N), cp.Variable()
    return cp.Problem(cp.Minimize(gamma), [U.T @ d <= gamma, cp.sum(d) == 1, d >= 0,
                                           d <= 1.0 / (0.1 * N)])


@pytest.mark.skipif("CLARABEL" not in installed(), reason="Clarabel not installed")
def test_a_time_limit_stops_a_clarabel_master_solve_on_the_solvers_own_limit():
    problem = soft_margin_lp()
    with running(RunControl(time_limit=0.05)), pytest.raises(TimeLimitReached,
                                                                match="CLARABEL"):
        solve(problem, "lp", order=["CLARABEL"])
    # stopped by Clarabel's time limit (cvxpy's "user_limit"), after a few of its iterations
    assert problem.status == "user_limit"
    assert problem.solver_stats.num_iters < 10


@pytest.mark.skipif("CLARABEL" not in installed(), reason="Clarabel not installed")
def test_without_a_limit_the_same_lp_solves_to_optimal():
    """The LP above is not one Clarabel gives up on by itself: without a run's limit it ends
    optimal, after more iterations than the limited solve was allowed."""
    problem = soft_margin_lp(600, 60)  # the same construction, smaller (2000 x 200: 21 iterations)
    record = solve(problem, "lp", order=["CLARABEL"])
    assert record.status == "optimal" and problem.solver_stats.num_iters >= 10
