"""SoftBoost / TotalBoost (thesis §3.1): the pair (3.1)/(3.3)-(3.4), Algorithm 3.1, Thm 3.2.

Independent references only: the primal and the dual models solved separately, a relative-entropy
projection written here with cvxpy's ``rel_entr`` (not the formulation's model), the LP (2.3)
solved here with scipy's HiGHS, and the thesis's constants (ln(N/nu), floor((2/eps^2) ln(N/nu))
+ 1) recomputed here.
"""

from __future__ import annotations

import json
import math
import warnings

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.special import rel_entr

from dualboost.algorithms import algorithm_class
from dualboost.data import load_dataset, lpboost_worst_case
from dualboost.engine import boost
from dualboost.errors import DualBoostInputError
from dualboost.oracles import make_oracle
from dualboost.registry import load_formulation
from dualboost.solvers import SOLVER_OPTIONS, solve
from formulations.erlpboost import ERLPBoost
from formulations.softboost import SoftBoost
from formulations.totalboost import TotalBoost

TOL = 1e-6


def lp_value(U: np.ndarray, nu: float) -> float:
    """P_LP of (2.3) over the columns U, by scipy's HiGHS (min gamma, U^T d <= gamma)."""
    N, t = U.shape
    sol = linprog(np.r_[np.zeros(N), 1.0], A_ub=np.hstack([U.T, -np.ones((t, 1))]),
                  b_ub=np.zeros(t), A_eq=np.r_[np.ones(N), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0.0, 1.0 / nu)] * N + [(None, None)], method="highs")
    assert sol.status == 0
    return float(sol.fun)


def projection(U: np.ndarray, bound: float, nu: float, d0: np.ndarray) -> np.ndarray:
    """(3.1) written here: min Delta(d, d0) over the capped simplex under the edge bound
    (Delta as -entr(d) - ln(d0).d: the conic solvers stall on rel_entr(d, d0) near the end of a
    run, where the feasible set is thin)."""
    d = cp.Variable(U.shape[0], nonneg=True)
    problem = cp.Problem(cp.Minimize(-cp.sum(cp.entr(d)) - np.log(d0) @ d),
                         [U.T @ d <= bound, d <= 1.0 / nu, cp.sum(d) == 1])
    for solver in ("CLARABEL", "ECOS"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "inaccurate": see below
                problem.solve(solver=solver, **SOLVER_OPTIONS[solver])
        except cp.error.SolverError:
            continue
        # near the end of a run the set is thin and Clarabel says "inaccurate" while its d is
        # good to ~1e-8; the callers compare d and Delta with tolerances that would catch worse
        if problem.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            return np.asarray(d.value)
    raise AssertionError(f"reference projection not solved ({problem.status})")


def random_columns(seed: int, N: int = 60, t: int = 8, kind: str = "pm1") -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "pm1":
        return rng.choice([-1.0, 1.0], (N, t))
    return rng.uniform(-1.0, 1.0, (N, t))


CASES = [(0, 1.0, "pm1"), (1, 6.0, "pm1"), (2, 2.5, "uniform"), (3, 13.0, "uniform")]


# --- the formulation standalone ----------------------------------------------------------------


@pytest.mark.parametrize("seed,nu,kind", CASES)
def test_standalone_edge_bound_is_strictly_feasible(seed, nu, kind):
    U = random_columns(seed, kind=kind)
    bound = SoftBoost.standalone_params(U, nu=nu)["edge_bound"]
    assert lp_value(U, nu) < bound < (U.T @ np.full(U.shape[0], 1 / U.shape[0])).max()


@pytest.mark.parametrize("seed,nu,kind", CASES)
def test_strong_duality_primal_and_dual_solved_independently(seed, nu, kind):
    U = random_columns(seed, kind=kind)
    N = U.shape[0]
    f = SoftBoost(N, nu=nu, eps=0.1, **SoftBoost.standalone_params(U, nu=nu))
    primal = f.primal(U)
    solve(primal.problem, "exp")
    dual = f.dual(U)
    solve(dual.problem, "exp")
    assert abs(primal.problem.value - dual.problem.value) <= TOL
    # the independent projection and the numpy objectives agree with both
    d_ref = projection(U, f.edge_bound, nu, f.d0)
    assert abs(float(rel_entr(d_ref, f.d0).sum()) - primal.problem.value) <= TOL
    values = dual.values()
    assert abs(f.dual_objective(U, values) - dual.problem.value) <= 1e-9
    assert abs(f.dual_objective(U, {k: v for k, v in values.items() if k != "beta"})
               - dual.problem.value) <= 1e-8
    # w is not normalized (erratum to Lemma 3.1); at least it need not sum to one
    assert values["w"].min() >= -1e-9


@pytest.mark.parametrize("seed,nu,kind", CASES)
def test_weak_duality_at_random_unnormalized_points(seed, nu, kind):
    U = random_columns(seed, kind=kind)
    N = U.shape[0]
    f = SoftBoost(N, nu=nu, eps=0.1, **SoftBoost.standalone_params(U, nu=nu))
    optimum = float(rel_entr(projection(U, f.edge_bound, nu, f.d0), f.d0).sum())
    rng = np.random.default_rng(seed)
    for scale in (0.1, 1.0, 10.0, 100.0):
        w = scale * rng.exponential(size=U.shape[1])
        psi = rng.exponential(size=N) * (nu > 1)
        point = {"w": w, "psi": psi}
        assert f.dual_objective(U, point) <= optimum + 1e-9
        assert f.best_response(U, w).dual_value <= optimum + 1e-9
        beta = f.optimal_beta(U, point)
        # numpy Theta vs the dual model's own expression, with and without beta
        assert f.dual_objective(U, point | {"beta": beta}) == pytest.approx(
            f.dual_objective_reference(U, point | {"beta": beta}), abs=1e-9, rel=1e-9)


@pytest.mark.parametrize("seed,nu,kind", CASES)
def test_d_from_dual_and_optimal_beta_match_the_primal(seed, nu, kind):
    U = random_columns(seed, kind=kind)
    N = U.shape[0]
    f = SoftBoost(N, nu=nu, eps=0.1, **SoftBoost.standalone_params(U, nu=nu))
    d_ref = projection(U, f.edge_bound, nu, f.d0)
    dual = f.dual(U)
    solve(dual.problem, "exp")
    values = dual.values()
    assert np.abs(f.d_from_dual(U, {"w": values["w"], "psi": values.get("psi")})
                  - d_ref).sum() <= 1e-4  # (3.2)
    assert np.abs(f.d_from_dual(U, values) - d_ref).sum() <= 1e-4  # (3.4)
    assert f.optimal_beta(U, values) == pytest.approx(values["beta"], abs=1e-5)
    # the master as the algorithm solves it: polished, certified, exactly feasible
    model, cert, _ = f.solve_primal(U, 1e-9)
    polished = f.polish(U, cert.w)
    br = f.best_response(U, polished)
    assert np.abs(br.d - d_ref).sum() <= 1e-5
    assert (U.T @ br.d).max() <= f.edge_bound + 1e-12
    assert 0 <= cert.gap <= 1e-9
    assert abs(f.d_from_dual(U, br.point) - br.d).max() <= 1e-12


@pytest.mark.parametrize("seed,nu,kind", CASES)
def test_best_response_matches_the_generic_solve(seed, nu, kind):
    U = random_columns(seed, kind=kind)
    N = U.shape[0]
    f = SoftBoost(N, nu=nu, eps=0.1, **SoftBoost.standalone_params(U, nu=nu))
    rng = np.random.default_rng(seed + 100)
    for scale in (0.3, 1.0):  # moderate w: the reference d is only as exact as its beta
        w = scale * rng.exponential(size=U.shape[1])
        fast, reference = f.best_response(U, w), f.best_response_reference(U, w)
        assert fast.dual_value == pytest.approx(reference.dual_value, abs=1e-7)
        assert np.abs(fast.d - reference.d).sum() <= 1e-5
        assert fast.d.max() <= 1 / nu + 1e-12 and abs(fast.d.sum() - 1) <= 1e-12


def test_edge_bound_is_required_and_totalboost_has_no_nu():
    U = random_columns(0)
    with pytest.raises(DualBoostInputError, match="edge bound"):
        SoftBoost(60, nu=2.0).primal(U)
    with pytest.raises(DualBoostInputError, match="edge bound"):
        SoftBoost(60).dual(U)
    with pytest.raises(DualBoostInputError):
        TotalBoost(60, nu=2.0)
    f = TotalBoost(60, eps=0.1, edge_bound=0.0)
    assert f.nu == 1.0 and f.parameters()["nu"] == 1.0 and "psi" not in f.dual(U).variables
    assert load_formulation("totalboost") is TotalBoost
    assert load_formulation("softboost").default_algorithm == "softboost"


def test_algorithm_refuses_formulations_without_an_edge_bound():
    with pytest.raises(DualBoostInputError, match="edge_bound"):
        algorithm_class("softboost")(ERLPBoost(10, nu=1.0, eps=0.1))


# --- Algorithm 3.1 runs ------------------------------------------------------------------------


def check_run(result, f, U_all):
    """Every claim holds, and the thesis's statements recomputed here independently."""
    claims = algorithm_class("softboost").claims(result, f, TOL)
    failed = [(c.check_id, c.label, c.value, c.detail) for c in claims if c.ok is False]
    assert not failed
    assert {c.check_id for c in claims if c.ok} >= {"S1", "S2", "S3", "S4", "S5", "S6", "S7"}
    assert result.status == "converged"
    N, nu, eps = f.N, f.nu, f.eps
    T = result.iterations
    assert T <= math.floor(2 / eps**2 * math.log(N / nu)) + 1  # Thm 3.2, erratum 12
    edges = np.array([r.edge for r in result.history])
    gamma_hat = np.minimum.accumulate(np.minimum(edges, 1.0))
    U = result.columns
    # each recorded d^t is the projection (3.1), checked at the first and the last solved t
    records = [r for r in result.history if r.d is not None]
    for r in (records[0], records[-1]):
        t = r.t
        d_ref = projection(U[:, :t], gamma_hat[t - 1] - eps, nu, f.d0)
        assert np.abs(r.d - d_ref).sum() <= 1e-5
        assert r.primal == pytest.approx(float(rel_entr(d_ref, f.d0).sum()), abs=1e-7)
    # S7 and the output: the LP over h^1..h^T reaches gamma_hat_T - eps, and the output's soft
    # margin is within eps of the LP optimum over the whole class (G1)
    p_lp = lp_value(U, nu)
    assert p_lp >= gamma_hat[-1] - eps - TOL
    margins = np.sort(U @ result.weights)
    k = int(np.floor(nu))
    soft = (margins[:k].sum() + (nu - k) * (margins[k] if k < N else 0.0)) / nu
    assert soft == pytest.approx(p_lp, abs=1e-7)
    assert soft >= lp_value(U_all, nu) - eps - TOL
    # the records serialize (the new optional fields included)
    json.dumps([r.to_dict() for r in result.history], default=lambda o: np.asarray(o).tolist())


def pool_run(cls, **params):
    rng = np.random.default_rng(7)
    H = rng.choice([-1.0, 1.0], (60, 400))
    y = rng.choice([-1.0, 1.0], 60)
    oracle = make_oracle("finite", hypotheses=H).fit(None, y)
    f = cls(60, eps=0.1, **params)
    return boost(f, oracle), f, y[:, None] * H


def test_softboost_random_pool():
    """The thesis's test setting (N = 60, nu = 6, eps = 0.1): stops by infeasibility."""
    result, f, U_all = pool_run(SoftBoost, nu=6.0)
    check_run(result, f, U_all)
    assert "infeasible" in result.message
    assert result.algorithm == "softboost" and result.stopping == "lp"


def test_totalboost_random_pool():
    result, f, U_all = pool_run(TotalBoost)
    check_run(result, f, U_all)
    assert result.parameters["nu"] == 1.0
    # a projection's tiniest entries may come back as exact zeros (round-off near the end of a
    # run): the Pythagoras claim must read them as tiny, not as Delta(d^t, d^(t-1)) = inf
    records = [r for r in result.history if r.d is not None]
    r = min(records[:-1], key=lambda r: r.d.min())
    r.d[np.argmin(r.d)] = 0.0
    claims = algorithm_class("softboost").claims(result, f, TOL)
    assert all(c.ok for c in claims if c.check_id == "S2")


@pytest.fixture(scope="module")
def stumps120():
    data = load_dataset("breast_cancer")
    X, y = data.X[:120], data.y[:120]
    U_all, _ = make_oracle("stumps").fit(X, y).all_columns()
    return X, y, U_all


@pytest.mark.parametrize("cls,params", [(SoftBoost, {"nu": 12.0}), (TotalBoost, {})])
def test_stumps_on_breast_cancer(stumps120, cls, params):
    X, y, U_all = stumps120
    f = cls(120, eps=0.1, **params)
    result = boost(f, make_oracle("stumps").fit(X, y))
    check_run(result, f, U_all)


# --- termination ---------------------------------------------------------------------------------


def test_infeasible_master_ends_the_run_as_converged():
    """LPBoost's worst case (thesis §3.4): SoftBoost stops at T = 2 by infeasibility."""
    U = lpboost_worst_case(20)
    N = U.shape[0]
    oracle = make_oracle("finite", hypotheses=U).fit(None, np.ones(N))
    f = SoftBoost(N, nu=1.0, eps=0.1)
    result = boost(f, oracle)
    assert result.status == "converged" and result.success
    assert result.iterations == 2 and "infeasible" in result.message
    last = result.history[-1]
    assert last.solved and last.d is None and last.primal is None
    assert last.lp_value > min(r.edge for r in result.history) - f.eps
    assert result.soft_margin >= lp_value(U, 1.0) - f.eps - TOL


def test_nu_equal_to_N_stops_at_once():
    """At nu = N the capped simplex is {d0}: (3.1) is infeasible at t = 1 (bound: T <= 1)."""
    U = random_columns(5, N=12, t=30)
    oracle = make_oracle("finite", hypotheses=U).fit(None, np.ones(12))
    f = SoftBoost(12, nu=12.0, eps=0.05)
    result = boost(f, oracle)
    assert result.status == "converged" and result.iterations == 1
    claims = algorithm_class("softboost").claims(result, f, TOL)
    assert all(c.ok is not False for c in claims)


def test_no_interior_point_ends_the_run_as_converged():
    """P_LP^1 = gamma_hat_1 - eps exactly: (3.1) is feasible only at d = (0, 1)."""
    H = np.array([[1.0], [-1.0]])
    oracle = make_oracle("finite", hypotheses=H).fit(None, np.ones(2))
    result = boost(SoftBoost(2, nu=1.0, eps=1.0), oracle)
    assert result.status == "converged" and result.iterations == 1
    assert "no interior point" in result.message


def test_max_iter_is_not_converged_and_keeps_the_solved_columns():
    rng = np.random.default_rng(7)
    H = rng.choice([-1.0, 1.0], (60, 400))
    y = rng.choice([-1.0, 1.0], 60)
    f = SoftBoost(60, nu=6.0, eps=0.1)
    result = boost(f, make_oracle("finite", hypotheses=H).fit(None, y), max_iter=3)
    assert result.status == "max_iter" and result.iterations == 3
    assert result.weights.shape == (3,) and abs(result.weights.sum() - 1) <= 1e-9
    claims = algorithm_class("softboost").claims(result, f, TOL)
    assert all(c.ok is not False for c in claims)
    assert {c.check_id for c in claims if c.ok is None} == {"S7", "E11"}


@pytest.mark.parametrize("cls, params", [(SoftBoost, {"nu": 6.0}), (TotalBoost, {})])
def test_fast_path_matches_the_reference_path(cls, params):
    """The projected-Newton master on Theta_S (and the warm HiGHS LP for P_LP^t) against the
    cvxpy models, run for run: same stop, same iterations, the same certified values."""
    rng = np.random.default_rng(7)
    H = rng.choice([-1.0, 1.0], (60, 400))
    y = rng.choice([-1.0, 1.0], 60)
    runs = {}
    for master in ("auto", "reference"):
        oracle = make_oracle("finite", hypotheses=H).fit(None, y)
        runs[master] = boost(cls(60, eps=0.1, **params), oracle, master=master)
    fast, reference = runs["auto"], runs["reference"]
    assert fast.master_paths.get("projected-newton", 0) >= fast.iterations - 1
    assert "reference" not in fast.master_paths
    assert set(reference.master_paths) == {"reference"}
    assert fast.iterations == reference.iterations and fast.status == reference.status
    for a, b in zip(fast.history, reference.history):
        assert a.edge == pytest.approx(b.edge, abs=1e-7)
        if a.primal is not None:
            assert a.primal == pytest.approx(b.primal, abs=1e-7)
            assert a.dual == pytest.approx(b.dual, abs=1e-7)
            assert a.duality_gap <= 1e-6 and a.kkt_residual <= 1e-6
    assert fast.soft_margin == pytest.approx(reference.soft_margin, abs=1e-7)
