"""The projected-Newton master at a large eta (the hard margin nu = 1 at eps = 0.001).

ERLPBoost's eta = (2/eps) ln(N/nu) is ~1.4e4 here (2e4 on a9a): the -Hessian of Theta_bar
(thesis (3.10)-(3.12)) is eta-sized, so a weight of 1e-6 moves the gradient by ~1e-2, a thousand
times the gap tolerance eps/100. The master's old bound set released every weight below an
absolute 1e-6 whose gradient was below the average: the released mass dominated the direction's
curvature, the line search crept, and the solve fell back to the reference cvxpy path (minutes at
a9a's N = 29,305). dualboost/masters/newton.py (``_release_costs``) releases a weight only
where the quadratic model puts its own maximum at the bound.
"""

from __future__ import annotations

import numpy as np

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


def test_hard_margin_at_large_eta_certifies_every_solve_on_newton(monkeypatch):
    # N = 1000, nu = 1, eps = 0.001: eta = 2000 ln(1000) = 1.38e4; the old bound set fell back
    # at t = 109 (a stall: violation ~1e-5 after 100 iterations, steps down to 1e-16)
    X, y = _one_hot(1000, seed=0)
    fallbacks = []

    def reference(self, U, gap_tol, reason, **kwargs):
        fallbacks.append((U.shape[1], reason))
        return original(self, U, gap_tol, reason, **kwargs)

    original = ProjectedNewtonMaster.reference
    monkeypatch.setattr(ProjectedNewtonMaster, "reference", reference)
    result = run(X, y, nu=1, eps=0.001, guarantee_check=False, kkt=False, max_iter=150)
    assert result.parameters["eta"] > 1e4
    assert fallbacks == []
    solved = [r for r in result.history if r.solved]
    assert len(solved) > 100  # past the old fallback
    assert all(r.solver == "newton" for r in solved)
    assert all(r.duality_gap <= 0.001 / 100 for r in solved)

