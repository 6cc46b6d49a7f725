"""The projected-Newton w-domain master (dualboost/masters/newton.py) against the reference path.

The reference is the cvxpy primal solved by a conic solver and certified by the formulation
(``ERLPBoost.solve_primal``); the fast master must bracket the same optimum (thesis (3.6) and
its dual (3.10)) within the gap tolerance and find the same w.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from dualboost.api import run
from dualboost.margins import soft_margin
from dualboost.masters.newton import ProjectedNewtonMaster, simplex_projection
from formulations.binary_erlpboost import BinaryERLPBoost
from formulations.erlpboost import ERLPBoost
from formulations.erlpboost_l2 import L2ERLPBoost
from formulations.erlpboost_tsallis import TsallisERLPBoost
from formulations.erlpboost_unnormalized import UnnormalizedERLPBoost

GAP_TOL = 1e-8


def test_simplex_projection_matches_a_qp_solve():
    rng = np.random.default_rng(3)
    for _ in range(5):
        v = rng.normal(size=7) * 2
        x = cp.Variable(7)
        problem = cp.Problem(cp.Minimize(cp.sum_squares(x - v)), [x >= 0, cp.sum(x) == 1])
        problem.solve(solver="CLARABEL")
        assert np.abs(simplex_projection(v) - x.value).max() < 1e-6


FAMILY = [ERLPBoost, BinaryERLPBoost, UnnormalizedERLPBoost, L2ERLPBoost]


@pytest.mark.parametrize("cls", FAMILY, ids=lambda c: c.name)
@pytest.mark.parametrize("nu,eta", [(1.0, None), (6.5, None), (10.0, None), (3.3, 40.0),
                                    (1.0, 300.0)])
def test_growing_columns_match_reference(cls, nu, eta):
    N, T = 40, 8
    if cls is BinaryERLPBoost and nu == 1.0:
        nu = 1.5  # its regularizer needs nu > 1 (the cap is inside R's domain)
    rng = np.random.default_rng(int(nu * 10) + (0 if eta is None else int(eta)))
    U = rng.uniform(-1, 1, size=(N, T))
    params = {} if eta is None else {"eta": eta}
    f = cls(N, nu=nu, eps=0.05, **params)
    master = f.fast_master()
    assert isinstance(master, ProjectedNewtonMaster) and master.path == "projected-newton"
    fallbacks = 0
    for t in range(1, T + 1):
        solved = master.solve(U[:, :t], GAP_TOL)
        cert = solved.certificate
        _, ref, _ = f.solve_primal(U[:, :t], GAP_TOL)
        assert 0 <= cert.gap + 1e-12 and cert.gap <= GAP_TOL
        # both brackets contain the optimum
        tol = GAP_TOL + max(ref.gap, 0.0) + 1e-12
        assert abs(cert.primal_value - ref.primal_value) <= tol
        assert abs(cert.dual_value - ref.dual_value) <= tol
        assert cert.dual_value <= ref.primal_value + 1e-12
        assert ref.dual_value <= cert.primal_value + 1e-12
        # w is unique for a strictly convex R on columns in general position; the l2 primal
        # can leave examples at d_n = 0, where the reference's w is only ~1e-5 accurate
        assert np.abs(solved.multipliers["w"] - ref.w).max() <= (1e-5 if cls is not
                                                                  L2ERLPBoost else 1e-3)
        # the certificate is the formulation's own bracket at the returned w
        again = f.certify(U[:, :t], {"w": solved.multipliers["w"]}, cert.d)
        assert abs(again.gap - cert.gap) <= 1e-12
        fallbacks += solved.solver != "newton"
    assert fallbacks <= 1  # the Newton iteration itself certifies (nearly) every solve


def test_fallback_to_reference_is_certified_and_reported():
    N = 30
    U = np.random.default_rng(7).uniform(-1, 1, size=(N, 4))
    f = ERLPBoost(N, nu=5.0, eps=0.05)
    master = ProjectedNewtonMaster(f, max_iterations=0)
    solved = master.solve(U, GAP_TOL)
    assert "fallback" in solved.status and solved.solver != "newton"
    assert solved.certificate.gap <= GAP_TOL
    _, ref, _ = f.solve_primal(U, GAP_TOL)
    assert abs(solved.certificate.primal_value - ref.primal_value) <= 2 * GAP_TOL


def test_every_member_has_the_fast_master():
    # hand-written numpy or not: the best response and the curvature derived from the
    # declarations (dualboost/separable.py) serve every separable member, Tsallis included
    for cls in FAMILY:
        assert isinstance(cls(20, nu=4.0, eps=0.1).fast_master(), ProjectedNewtonMaster)
    assert isinstance(TsallisERLPBoost(20, nu=4.0, eps=0.1).fast_master(), ProjectedNewtonMaster)

    class UserEntropy(ERLPBoost):  # a user's file: same math, fewer hand-written lines
        name = "user_entropy"
        fast_paths = ("regularizer_value", "conjugate_value")

    assert UserEntropy(20, nu=4.0, eps=0.1).fast_master() is not None
    assert ERLPBoost(20, nu=4.0, eps=0.1).fast_master() is not None


def _margin(result, nu):
    w = np.asarray(result.weights, dtype=float)
    return soft_margin(result.columns @ (w / w.sum()), nu)


@pytest.mark.slow
@pytest.mark.parametrize("stopping", ["practical", "simple"])
def test_breast_cancer_run_matches_reference_path(breast_cancer, stopping):
    """Same soft margin as the reference path; every fast master solve brackets the optimum
    the reference path finds on the same columns.

    (T is compared on german below: on breast cancer the stump class has exact ties, three
    stumps with edges equal to 1e-13 under the 11th d, so which one the oracle takes is decided
    by round-off in d and the two paths may keep different, equally good columns.)"""
    X, y = breast_cancer.X, breast_cancer.y
    N = len(y)
    nu, eps = 0.2 * N, 0.01
    kw = dict(formulation="erlpboost", nu_frac=0.2, eps=eps, stopping=stopping, kkt=False)
    fast = run(X, y, **kw)
    reference = run(X, y, solver="CLARABEL", **kw)  # a forced solver: the reference path
    solved = [r for r in fast.history if r.solved]
    assert solved and all(r.path == "projected-newton" for r in solved)
    assert all(r.path == "reference" for r in reference.history if r.solved)
    assert fast.success and reference.success
    assert abs(_margin(fast, nu) - _margin(reference, nu)) <= eps / 100
    assert abs(fast.iterations - reference.iterations) <= 0.1 * reference.iterations
    if stopping == "practical":
        f = ERLPBoost(N, nu=nu, eps=eps)
        gap_tol = eps / 100
        for r in solved[:: max(1, len(solved) // 8)]:
            _, ref, _ = f.solve_primal(fast.columns[:, :r.t], gap_tol)
            assert abs(r.primal - ref.primal_value) <= gap_tol + max(ref.gap, 0.0)
            assert r.dual <= ref.primal_value + 1e-12 and ref.dual_value <= r.primal + 1e-12


@pytest.mark.slow
def test_german_run_same_T_and_margin_as_reference_path(german):
    X, y = german.X, german.y
    nu, eps = 0.5 * len(y), 0.01
    for stopping in ("practical", "simple"):
        kw = dict(formulation="erlpboost", nu_frac=0.5, eps=eps, stopping=stopping, kkt=False,
                  guarantee_check=False)  # wall-clock stop: not under a loaded CI
        fast = run(X, y, **kw)
        reference = run(X, y, solver="CLARABEL", **kw)
        assert all(r.path == "projected-newton" for r in fast.history if r.solved)
        assert fast.iterations == reference.iterations
        assert abs(_margin(fast, nu) - _margin(reference, nu)) <= eps / 100


# -- the curvature model and the face step ---------------------------------------------------

def _instance(cls, N=60, t=9, nu=8.0, seed=11):
    rng = np.random.default_rng(seed)
    U = rng.choice([-1.0, 1.0], size=(N, t)) * rng.uniform(0.2, 1.0, size=(N, t))
    w = rng.dirichlet(np.ones(t))
    return cls(N, nu=nu, eps=0.05), U, w


@pytest.mark.parametrize("cls", [ERLPBoost, BinaryERLPBoost], ids=lambda c: c.name)
def test_curvature_is_the_hessian_of_theta_bar(cls):
    """-eta (M - a a^T / sum h) against central differences of the gradient U^T d(w) (Danskin)
    along directions with sum zero, at a w where some examples are capped."""
    f, U, w = _instance(cls)
    master = ProjectedNewtonMaster(f, hessian_tolerance=0.0)
    _, d, _ = master._evaluate(U, w)
    assert np.any(d >= (1 / f.nu) * (1 - 1e-9))  # the caps are in play
    curvature = master._curvature(U, d)
    M = np.triu(curvature.moment) + np.triu(curvature.moment, 1).T
    H = -curvature.eta * (M - np.outer(curvature.a, curvature.a) / curvature.total)
    rng = np.random.default_rng(0)
    for _ in range(4):
        direction = rng.normal(size=w.size)
        direction -= direction.mean()
        step = 1e-6
        _, _, g_up = master._evaluate(U, w + step * direction)
        _, _, g_down = master._evaluate(U, w - step * direction)
        numeric = (g_up - g_down) / (2 * step)
        scale = np.abs(H @ direction).max()
        assert np.abs(numeric - H @ direction).max() <= 1e-4 * scale


def test_kept_second_moment_is_exact_for_its_weights():
    """The kept matrix is U^T diag(h~) U for the weights h~ it reports, with h~ within the
    tolerance of each requested h, through new columns, small and large moves and caps."""
    rng = np.random.default_rng(5)
    N, T, tol = 80, 12, 1e-2
    U = rng.choice([-1.0, 1.0], size=(N, T))
    master = ProjectedNewtonMaster(ERLPBoost(N, nu=4.0, eps=0.1), hessian_tolerance=tol)
    h = rng.uniform(0.1, 1.0, N)
    fresh_before = 0
    for step in range(40):
        t = min(T, 2 + step // 4)
        h = h * np.exp(rng.normal(scale=(0.002 if step % 3 else 0.05), size=N))
        h[rng.integers(N, size=2)] = 0.0  # examples reaching a bound
        moment, a, kept = master._second_moment(U[:, :t], h)
        exact = U[:, :t].T @ (kept[:, None] * U[:, :t])
        assert np.abs(np.triu(moment) - np.triu(exact)).max() <= 1e-12 * N
        assert np.abs(a - U[:, :t].T @ kept).max() <= 1e-12 * N  # U^T h~ kept alongside
        assert np.all(np.abs(kept - h) <= tol * np.maximum(h, kept) + 1e-300)
        fresh_before += master._moment_updates == 0
    assert fresh_before < 40  # the incremental path was taken


def test_face_step_solves_the_bordered_newton_system():
    """The rank-3 reduced solve against the textbook bordered system on the free face:
    [B 1; 1^T 0] [p; lam] = [g; -released], B = -Hessian + delta I."""
    f, U, w = _instance(ERLPBoost, t=10)
    w[[2, 7]] = 0.0
    w /= w.sum()
    master = ProjectedNewtonMaster(f, hessian_tolerance=0.0)
    _, d, g = master._evaluate(U, w)
    curvature = master._curvature(U, d)
    mu = 1e-6
    for free in (np.ones(w.size, bool), w > 0, np.arange(w.size) % 3 != 0):
        p = master._face_step(w, g, mu, free.copy(), curvature)
        idx = np.flatnonzero(free)
        M = np.triu(curvature.moment) + np.triu(curvature.moment, 1).T
        B = curvature.eta * (M - np.outer(curvature.a, curvature.a) / curvature.total)
        B = B[np.ix_(idx, idx)]
        B += (mu * np.trace(B) / idx.size + 1e-14) * np.eye(idx.size)
        n = idx.size
        K = np.block([[B, np.ones((n, 1))], [np.ones((1, n)), np.zeros((1, 1))]])
        released = w[~free].sum()
        # the ascent step solves B p = g - lam 1 with sum(p_free) = released
        solution = np.linalg.solve(K, np.concatenate([g[idx], [released]]))
        assert np.allclose(p[idx], solution[:n], atol=1e-9 * (1 + np.abs(solution).max()))
        assert np.allclose(p[~free], -w[~free])
        assert abs(p.sum()) <= 1e-13 * (1 + np.abs(p).max())


def _dependent_columns(N: int = 400, seed: int = 6) -> np.ndarray:
    """+-1 columns with exact null directions of U restricted to sum(w) = 0, as one-hot features
    give on a9a: complementary pairs (u, -u) and a column repeated."""
    rng = np.random.default_rng(seed)
    base = np.where(rng.random((N, 6)) < 0.5, 1.0, -1.0)
    return np.column_stack([base[:, 0], -base[:, 0], base[:, 1], base[:, 2], -base[:, 2],
                            base[:, 1], base[:, 3], base[:, 4], -base[:, 4], base[:, 5]])


def test_newton_step_stays_in_the_trust_region_on_dependent_columns(monkeypatch):
    # every step the line search sees is at most the simplex's l1-diameter (newton._STEP_RADIUS)
    U = _dependent_columns()
    f = ERLPBoost(U.shape[0], nu=40.0, eps=0.01)
    master = f.fast_master()
    lengths = []
    line_search = ProjectedNewtonMaster._line_search

    def recording(self, U_, w, g, p, value0):
        lengths.append(float(np.abs(p).sum()))
        return line_search(self, U_, w, g, p, value0)

    monkeypatch.setattr(ProjectedNewtonMaster, "_line_search", recording)
    for t in range(1, U.shape[1] + 1):
        solved = master.solve(U[:, :t], 1e-8)
        assert solved.solver == "newton"  # certified by Newton itself, no fallback
        assert 0 <= solved.certificate.gap + 1e-12 and solved.certificate.gap <= 1e-8
    assert lengths and max(lengths) <= 2.0 + 1e-9


def test_warm_start_reuses_the_previous_best_response():
    # a solve after the last one extended by a column starts at the previous w with the new
    # column at 0 and evaluates no best response there: U w, d and Theta_bar are the previous ones
    rng = np.random.default_rng(6)
    U = np.where(rng.random((300, 8)) < 0.5, 1.0, -1.0)
    f = ERLPBoost(300, nu=30.0, eps=0.01)
    master = f.fast_master()
    master.solve(U[:, :7], 1e-8)
    start = np.append(master.w, 0.0)
    calls = []
    evaluate = master._evaluate
    master._evaluate = lambda U_, w: calls.append(np.array(w)) or evaluate(U_, w)
    solved = master.solve(U, 1e-8)
    assert solved.solver == "newton" and solved.certificate.gap <= 1e-8
    assert not any(np.allclose(w, start, rtol=0, atol=1e-15) for w in calls)
