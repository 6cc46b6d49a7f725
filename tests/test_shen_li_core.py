"""Seed 002 (Shen & Li): adaboost_l1 (+ _ineq), logitboost_l1, AdaBoost-CG, LogitBoost-CG.

Each problem is compared with seed 002's own w-domain problem solved directly by cvxpy as printed
((5), (32), with the errata of docs/errata.md), and the CG algorithms with the optimum of their
problem over the whole stump pool solved directly by cvxpy (a small breast-cancer subset the tests
have, and a synthetic set they don't), certified at every iteration.
"""

from __future__ import annotations

import json
import math

import cvxpy as cp
import numpy as np
import pytest

from dualboost.api import run
from dualboost.errors import DualBoostInputError
from dualboost.margin_identities import adaboost_l1_identities, adaboost_qp_identities
from dualboost.oracles import make_oracle
from formulations.adaboost_l1 import AdaBoostL1
from formulations.adaboost_l1_ineq import AdaBoostL1Inequality
from formulations.logitboost_l1 import LogitBoostL1


def _columns(seed: int, N: int = 40, t: int = 10, bias: float = 0.3) -> np.ndarray:
    """Random +-1 columns, not closed under negation (bias moves the edges)."""
    rng = np.random.default_rng(seed)
    return np.sign(rng.normal(size=(N, t)) + bias)


def _seed5(U: np.ndarray, T: float, budget: str) -> tuple[float, np.ndarray]:
    """Seed 002 (5) as printed: min lse(-YH w), w >= 0, 1'w = 1/T (<= for F1b)."""
    w = cp.Variable(U.shape[1], nonneg=True)
    cons = [cp.sum(w) == 1 / T] if budget == "equality" else [cp.sum(w) <= 1 / T]
    problem = cp.Problem(cp.Minimize(cp.log_sum_exp(-U @ w)), cons)
    problem.solve(solver="CLARABEL")
    return float(problem.value), np.asarray(w.value)


@pytest.mark.parametrize("budget", ["equality", "inequality"])
@pytest.mark.parametrize("T,bias", [(0.2, 0.3), (0.05, -0.2)])
def test_adaboost_l1_is_seed_002_problem_5(budget, T, bias):
    """Opt(5) = ln N - P/T and w = T w_(5) (E1, E9), both budgets; on the biased-down pool the
    inequality budget leaves budget unused and its value differs from the equality one."""
    U = _columns(1, bias=bias)
    N = U.shape[0]
    f = AdaBoostL1(N, T=T, budget=budget)
    assert isinstance(f, AdaBoostL1Inequality) == (budget == "inequality")
    _, cert, _ = f.solve_primal(U, 1e-9)
    value, w5 = _seed5(U, T, budget)
    assert math.log(N) - cert.primal_value / T == pytest.approx(value, abs=1e-6)
    assert np.allclose(cert.w, T * w5, atol=1e-4)
    fast = f.fast_master().solve(U, 1e-9).certificate
    assert fast.dual_value <= cert.primal_value + 1e-9 and cert.dual_value <= fast.primal_value
    if budget == "inequality" and bias < 0:
        assert cert.w.sum() < 0.99  # the unused budget: this pool is not closed under negation
        assert value < _seed5(U, T, "equality")[0] - 1e-3


@pytest.mark.parametrize("T", [0.2, 0.05])
def test_logitboost_l1_is_seed_002_problem_32(T):
    """Opt(32) = -P/T, w = T w_(32), d = sigmoid(-U w / T) (33)."""
    U = _columns(2)
    N, t = U.shape
    f = LogitBoostL1(N, T=T)
    _, cert, _ = f.solve_primal(U, 1e-9)
    w = cp.Variable(t, nonneg=True)
    problem = cp.Problem(cp.Minimize(cp.sum(cp.logistic(-U @ w))), [cp.sum(w) == 1 / T])
    problem.solve(solver="CLARABEL")
    assert -cert.primal_value / T == pytest.approx(problem.value, abs=1e-6)
    assert np.allclose(cert.w, T * w.value, atol=1e-4)
    # (33) at the certified point, and at the seed's own w_(32) up to its solver accuracy
    assert np.allclose(cert.d, 1 / (1 + np.exp(U @ cert.w / T)), atol=1e-6)
    assert np.allclose(cert.d, 1 / (1 + np.exp(U @ w.value)), atol=1e-3)


def test_budget_values_and_errors():
    with pytest.raises(DualBoostInputError, match="budget"):
        AdaBoostL1(10, T=0.2, budget="le")
    with pytest.raises(DualBoostInputError, match="T must lie"):
        AdaBoostL1(10, T=0.0)
    with pytest.raises(DualBoostInputError, match="nu"):
        AdaBoostL1(10, T=0.2, nu=2.0)  # fixed at 1
    f = AdaBoostL1(10, T=0.25)
    assert f.eta == 4.0 and f.parameters()["nu"] == 1.0


def test_margin_identities_hold_and_fail_on_wrong_variants():
    """SL1-SL9 pass at an optimum; a wrong T, a w not normalized and a d that is not the
    softmax each fail some of them."""
    U = _columns(3)
    f = AdaBoostL1(U.shape[0], T=0.2)
    _, cert, _ = f.solve_primal(U, 1e-10)
    rows = adaboost_l1_identities(U, cert.d, cert.w, 0.2, tol=1e-6)
    assert [r.status for r in rows] == ["pass"] * 9
    wrong_T = {r.id for r in adaboost_l1_identities(U, cert.d, cert.w, 0.4, tol=1e-6)
               if r.status == "FAIL"}
    assert {"SL1", "SL2", "SL4"} <= wrong_T
    half = {r.id for r in adaboost_l1_identities(U, cert.d, 0.5 * cert.w, 0.2, tol=1e-6)
            if r.status == "FAIL"}
    assert "SL9" in half and "SL2" in half
    flat = np.full(U.shape[0], 1.0 / U.shape[0])
    assert any(r.status == "FAIL" for r in adaboost_l1_identities(U, flat, cert.w, 0.2))


def test_adaboost_qp_identities_on_a_direct_solve_and_a_wrong_T():
    """The reusable AdaBoost-QP rows (SL31-SL36) on seed 002's derived dual solved directly by
    cvxpy: they pass, and fail for a wrong T."""
    U = _columns(4, N=30, t=8)
    M, t = U.shape
    T = 0.3
    u, r = cp.Variable(M), cp.Variable()
    edges = U.T @ u <= r
    problem = cp.Problem(cp.Minimize(r + M * T / 2 * cp.sum_squares(u - 1 / M)),
                         [edges, cp.sum(u) == 1])
    problem.solve(solver="CLARABEL")
    w = np.asarray(edges.dual_value)
    rows = adaboost_qp_identities(U, u.value, w, T, primal_value=problem.value, tol=1e-6)
    assert [r.status for r in rows] == ["pass"] * 6, [(r.id, r.value, r.tolerance) for r in rows]
    wrong = {r.id for r in adaboost_qp_identities(U, u.value, w, 2 * T,
                                                  primal_value=problem.value, tol=1e-6)
             if r.status == "FAIL"}
    assert {"SL31", "SL32", "SL33"} <= wrong


# -- CG against the whole pool ------------------------------------------------------------------

def _breast_cancer_subset():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    rng = np.random.default_rng(0)
    rows = rng.choice(X.shape[0], 90, replace=False)
    return X[rows][:, :6], np.where(y[rows] == 1, 1.0, -1.0)


def _synthetic():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(70, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.4 + 0.4 * rng.normal(size=70) > 0, 1.0, -1.0)
    return X, y


def _pool_optimum(name: str, U: np.ndarray, T: float, budget: str) -> float:
    """The d-domain optimum over the whole pool, by cvxpy directly (no formulation code)."""
    N = U.shape[0]
    d, r = cp.Variable(N, nonneg=True), cp.Variable()
    cons = [U.T @ d <= r]
    if name == "logitboost_l1":
        objective = r - T * cp.sum(cp.entr(d)) - T * cp.sum(cp.entr(1 - d))
    else:
        objective = r - T * cp.sum(cp.entr(d)) + T * math.log(N)  # (15) + T ln N
        cons.append(cp.sum(d) == 1)
        if budget == "inequality":
            cons.append(r >= 0)
    problem = cp.Problem(cp.Minimize(objective), cons)
    problem.solve(solver="CLARABEL")
    return float(problem.value)


@pytest.mark.parametrize("data", ["breast_cancer", "synthetic"])
@pytest.mark.parametrize("name,params", [
    ("adaboost_l1", {"T": 0.2}), ("adaboost_l1", {"T": 0.05}),
    ("adaboost_l1", {"T": 0.05, "budget": "inequality"}), ("logitboost_l1", {"T": 0.2})])
def test_cg_reaches_the_whole_pool_optimum(data, name, params):
    X, y = _breast_cancer_subset() if data == "breast_cancer" else _synthetic()
    eps = 1e-6
    result = run(X, y, formulation=name, params={**params, "eps": eps})
    assert result.status == "converged", result.message
    assert result.algorithm == ("adaboost_cg" if name == "adaboost_l1" else "logitboost_cg")
    pool, _ = make_oracle("stumps").fit(X, y).all_columns()
    optimum = _pool_optimum(name, pool, params["T"], params.get("budget", "equality"))
    scale = 1.0 + abs(optimum)
    assert result.dual_objective <= optimum + 1e-6 * scale
    assert result.primal_objective >= optimum - 1e-6 * scale - eps  # restricted: P >= Theta
    assert optimum - result.dual_objective <= eps + 1e-6 * scale
    # certified at every iteration: the master's bracket, and the whole pool's bracket
    solved = [r for r in result.history if r.solved]
    for record in solved:
        assert -1e-9 * scale <= record.duality_gap <= 1e-6 * scale
        assert record.as_printed is not None
    for record in result.history[1:]:
        assert record.pool_lower <= optimum + 1e-6 * scale
        assert record.pool_upper >= optimum - 1e-6 * scale
    last = result.history[-1]
    assert not last.solved and last.pool_upper - last.pool_lower <= eps + 1e-6 * scale


def test_cli_fit_adaboost_cg_reports_the_objective_as_printed(tmp_path):
    """``dualboost fit --algorithm adaboost_cg --param T=0.2`` fits adaboost_l1, and the JSON
    gives seed 002's (15) and (5) beside the d-domain bracket, with the stated shift and sign."""
    from dualboost.cli import main

    out = tmp_path / "fit.json"
    code = main(["fit", "--data", "breast_cancer", "--algorithm", "adaboost_cg", "--param",
                 "T=0.2", "--json", str(out), "--quiet"])
    assert code == 0
    doc = json.loads(out.read_text())
    assert doc["formulation"] == "adaboost_l1" and doc["status"] == "converged"
    N, T = doc["N"], 0.2
    printed = doc["objective_as_printed"]
    low15, high15 = printed["(15) min r + T sum u log u"]
    assert low15 == pytest.approx(doc["dual_objective"] - T * math.log(N), abs=1e-12)
    assert high15 == pytest.approx(doc["primal_objective"] - T * math.log(N), abs=1e-12)
    low5, high5 = printed["(5) min log sum exp(-y H w), 1'w = 1/T"]
    assert low5 == pytest.approx(-high15 / T, abs=1e-9)
    assert high5 == pytest.approx(-low15 / T, abs=1e-9)


def test_estimator_and_pairings():
    from dualboost.estimator import DualBoostClassifier

    X, y = _synthetic()
    model = DualBoostClassifier(formulation="adaboost_l1", params={"T": 0.2}).fit(X, y)
    assert model.predict(X).shape == y.shape
    assert model.result_.algorithm == "adaboost_cg"
    with pytest.raises(DualBoostInputError, match="adaboost_cg"):
        run(X, y, formulation="erlpboost", algorithm="adaboost_cg")
    with pytest.raises(DualBoostInputError, match="logitboost_cg"):
        run(X, y, formulation="adaboost_l1", algorithm="logitboost_cg")


@pytest.mark.parametrize("check,wrong", [
    ("check_adaboost_l1_dual", "eta_T"), ("check_adaboost_l1_dual", "entropy_sign"),
    ("check_adaboost_l1_inequality", "no_floor"), ("check_logitboost_l1_dual", "no_complement")])
def test_proofs_check_derivations_and_their_wrong_variants(check, wrong):
    from proofs_check import shen_li_core

    function = getattr(shen_li_core, check)
    assert function().passed
    assert not function(wrong=wrong).passed


def test_declarations_agree_across_layers():
    """The guarantee layer's list of own-problem stops is the algorithms' declaration, and the
    identity rows use the verifier's statuses."""
    from dualboost import margin_identities
    from dualboost.algorithms import ALGORITHMS
    from dualboost.guarantee import OWN_PROBLEM_STOPS
    from dualboost.verify import checks

    declared = {name for name, cls in ALGORITHMS.items()
                if not getattr(cls, "soft_margin_guarantee", True)}
    assert declared == set(OWN_PROBLEM_STOPS)
    assert (margin_identities.PASS, margin_identities.FAIL) == (checks.PASS, checks.FAIL)
