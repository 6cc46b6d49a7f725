"""The projected-Newton master at a large eta (the hard margin nu = 1 at eps = 0.001).

ERLPBoost's eta = (2/eps) ln(N/nu) is ~1.4e4 here (2e4 on a9a): the -Hessian of Theta_bar
(thesis (3.10)-(3.12)) is eta-sized, so a weight of 1e-6 moves the gradient by ~1e-2, a thousand
times the gap tolerance eps/100. The master's old bound set released every weight below an
absolute 1e-6 whose gradient was below the average: the released mass dominated the direction's
curvature, the line search crept, and the solve fell back to the reference cvxpy path (minutes at
a9a's N = 29,305). dualboost/masters/newton.py (``_release_costs``) releases a weight only
where the quadratic model puts its own maximum at the bound.

The fallback itself must respect the run's time limit: a solver that cannot be interrupted is not
started when it cannot finish (dualboost/solvers.py), and a long fallback shows progress lines.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from dualboost.api import run
from dualboost.masters.newton import ProjectedNewtonMaster


def _one_hot(N: int, seed: int, groups: int = 14, levels: int = 9):
    """a9a-like: one-hot categorical features (stumps on them repeat rows: exact null
    directions of U, tie groups of equal margins) and a linear label with 15% flipped (the hard
    margin is about 0: a cancelling pair's)."""
    rng = np.random.default_rng(seed)
    categories = rng.integers(0, levels, size=(N, groups))
    X = np.zeros((N, groups * levels))
    X[np.arange(N)[:, None], categories + levels * np.arange(groups)] = 1.0
    score = X @ rng.normal(size=groups * levels) + rng.normal(size=N)
    y = np.where(score > 0.5, 1.0, -1.0)
    y[rng.random(N) < 0.15] *= -1  # label noise
    return X, y


def test_hard_margin_at_large_eta_certifies_every_solve_on_newton(newton_fallbacks):
    # N = 1000, nu = 1, eps = 0.001: eta = 2000 ln(1000) = 1.38e4; the old bound set fell back
    # at t = 109 (a stall: violation ~1e-5 after 100 iterations, steps down to 1e-16)
    X, y = _one_hot(1000, seed=0)
    fallbacks = newton_fallbacks
    result = run(X, y, nu=1, eps=0.001, guarantee_check=False, kkt=False, max_iter=150)
    assert result.parameters["eta"] > 1e4
    assert fallbacks == []
    solved = [r for r in result.history if r.solved]
    assert len(solved) > 100  # past the old fallback
    assert all(r.solver == "newton" for r in solved)
    assert all(r.duality_gap <= 0.001 / 100 for r in solved)


def _forced_fallback(monkeypatch, from_t: int = 3):
    """The Newton master falls back to the reference path from column ``from_t`` on."""
    original = ProjectedNewtonMaster.solve

    def solve(self, U, gap_tol):
        if U.shape[1] >= from_t:
            return self.reference(U, gap_tol, "forced by the test")
        return original(self, U, gap_tol)

    monkeypatch.setattr(ProjectedNewtonMaster, "solve", solve)


def test_fallback_does_not_start_a_solver_that_cannot_finish(monkeypatch):
    # Clarabel fails after 1 s; ECOS has no time limit of its own and would take 6 s: with
    # ~2 s of the 3 s limit left it is not started, and the run stops at once with status
    # time_limit and a message naming the fallback and the remedies (the old policy started
    # it and the run ended past 7 s)
    import cvxpy as cp

    from dualboost import solvers

    if solvers.solver_order("exp")[:2] != ["CLARABEL", "ECOS"]:
        pytest.skip("the exponential-cone policy here does not start with Clarabel, ECOS")
    monkeypatch.setattr(solvers, "mosek_usable", lambda: False)  # probed by a solve
    _forced_fallback(monkeypatch)
    started = []

    def slow_solve(self, *args, solver=None, **options):
        started.append(solver)
        if solver == "CLARABEL":
            time.sleep(1.0)
            raise cp.error.SolverError("slow solver of the test")
        time.sleep(6.0)  # uninterruptible: ECOS takes no time limit
        raise cp.error.SolverError("slow solver of the test")

    monkeypatch.setattr(cp.Problem, "solve", slow_solve)
    X, y = _one_hot(200, seed=1)
    tick = time.perf_counter()
    result = run(X, y, nu=20, eps=0.05, time_limit=3.0, kkt=False, guarantee_check=False)
    elapsed = time.perf_counter() - tick
    assert started == ["CLARABEL"]
    assert result.status == "time_limit"
    assert elapsed < 3.0
    assert "ECOS was not started" in result.message
    assert "reference path fallback" in result.message and "a larger nu" in result.message


def test_long_fallback_shows_progress_lines(monkeypatch):
    # no time limit: the fallback is announced at once, and a solve without callbacks still
    # prints a line every ``every`` (2) seconds from the heartbeat thread
    import cvxpy as cp

    _forced_fallback(monkeypatch)
    real = cp.Problem.solve

    def slow_solve(self, *args, **kwargs):
        time.sleep(3.0)  # the GIL is free, as in Clarabel's own solve
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cp.Problem, "solve", slow_solve)

    class Progress:
        def __init__(self):
            self.lines = []

        def __call__(self, record):
            pass

        def pulse(self, info):
            self.lines.append(info.line())

    progress = Progress()
    X, y = _one_hot(200, seed=1)
    result = run(X, y, nu=20, eps=0.05, max_iter=3, kkt=False, guarantee_check=False,
                 progress=progress)
    assert result.history[-1].path == "reference"
    assert any("reference path fallback (forced by the test)" in line
               for line in progress.lines)
    assert any("through cvxpy" in line for line in progress.lines)


@pytest.mark.parametrize("seed", [7, 8])
def test_chi2_tie_groups_at_nu_1_certify_on_newton(monkeypatch, seed, tie_group_columns):
    # the piecewise-quadratic chi^2 member (docs/examples/chi2.py) at nu = 1, eps = 0.01
    # (eta ~ 1.2e5) on stumps over tie groups, grown a column at a time as the engine does: the
    # old release of small weights fell back 1 (seed 7) and 2 (seed 8) times in 25 solves
    from pathlib import Path

    from dualboost.registry import load_formulation

    chi2 = Path(__file__).resolve().parents[1] / "docs" / "examples" / "chi2.py"
    N, T = 400, 25
    U = tie_group_columns(seed, N, T)
    master = load_formulation(str(chi2))(N, nu=1.0, eps=0.01).fast_master()

    def refuse(*args, **kwargs):
        raise AssertionError(f"the Newton master fell back to the reference path: {args[2:]}")

    monkeypatch.setattr(master, "reference", refuse)
    for t in range(1, T + 1):
        assert master.solve(U[:, :t], 1e-4).certificate.gap <= 1e-4
