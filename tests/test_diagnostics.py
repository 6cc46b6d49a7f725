"""Run diagnostics (dualboost/diagnostics.py): vacuous guarantees and degenerate combinations."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.datasets import load_breast_cancer, make_classification

from dualboost.api import run
from dualboost.diagnostics import run_warnings
from dualboost.estimator import DualBoostClassifier, DualBoostWarning
from dualboost.margins import soft_margin
from dualboost.oracles import StumpOracle


def noisy_problem(N: int = 2000, F: int = 20, noise: float = 1.0, seed: int = 0):
    """Issue 9's problem: labels = sign of a linear score plus Gaussian noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, F))
    w = rng.normal(size=F)
    score = X @ w / np.linalg.norm(w)
    return X, np.where(score + noise * rng.normal(size=N) > 0, 1, 0)


def fake_result(columns, weights, edges, *, eps=0.05, nu=2.0, algorithm="lpboost",
                status="converged"):
    columns = np.asarray(columns, dtype=float)
    weights = np.asarray(weights, dtype=float)
    return SimpleNamespace(
        parameters={"eps": eps, "nu": nu, "N": columns.shape[0]}, algorithm=algorithm,
        history=[SimpleNamespace(edge=e) for e in edges], status=status, message="stopped",
        weights=weights, columns=columns, warnings=[],
        soft_margin=soft_margin(columns @ weights, nu))


def codes(entries):
    return [e["code"] for e in entries]


# -- unit tests on hand-made results -------------------------------------------------------------


def test_cancelling_pair_is_degenerate_and_says_the_fraction():
    h = np.array([1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])
    U = np.column_stack([h, -h])  # h and its negation: 0.5 h - 0.5 h has every margin 0
    entries = run_warnings(fake_result(U, [0.5, 0.5], [0.3, 0.2]), y=np.ones(8))
    assert codes(entries) == ["degenerate_combination"]
    message = entries[0]["message"]
    assert "0 within round-off" in message and "on 100.0% of the training examples" in message
    # an LPBoost run: a larger nu and ERLPBoost; eps cannot undo a cancelling LP vertex
    assert "larger nu" in message and "ERLPBoost" in message and "cross-validation" in message


def test_degenerate_is_relative_to_the_scale_of_the_hypotheses():
    """|f_n| <= 1e-9 sum_q |w_q| max|h_q|: unnormalized weights 1e6 h - 1e6 h leave 1e-4-sized
    rounding, still degenerate; real scores of 1e-4 with unit weights are not."""
    rng = np.random.default_rng(1)
    h = rng.choice([-1.0, 1.0], size=10)
    noise = 1e-16 * rng.normal(size=10)
    U = np.column_stack([h, -h + noise])
    assert codes(run_warnings(fake_result(U, [1e6, 1e6], [0.5], nu=10.0))) == \
        ["degenerate_combination"]
    m = 1e-4 * rng.choice([-1.0, 1.0], size=10)
    assert "degenerate_combination" not in codes(run_warnings(fake_result(m[:, None], [1.0],
                                                                          [0.5], nu=10.0)))


def test_most_margins_zero_even_with_a_positive_soft_margin():
    # 6 of 10 margins are 0, the other 4 are +1: the fraction alone decides (nu = 10: soft
    # margin 0.4 > 0)
    m = np.array([0.0] * 6 + [1.0] * 4)
    entries = run_warnings(fake_result(m[:, None], [1.0], [0.9], nu=10.0))
    assert codes(entries) == ["degenerate_combination"]
    assert "on 60.0% of the training examples" in entries[0]["message"]


def test_spread_margins_with_a_nonpositive_soft_margin():
    # margins spread (none at 0) but the 2 smallest average to < 0; eps < gamma_hat: the
    # guarantee is not empty, and a smaller eps may still find a positive soft margin
    m = np.array([-0.4, 0.2, 0.5, 0.9, 0.3, 0.6])
    entries = run_warnings(fake_result(m[:, None], [1.0], [0.9], eps=0.01, nu=2.0))
    assert codes(entries) == ["nonpositive_soft_margin"]
    message = entries[0]["message"]
    assert "is -0.1 <=" in message and "larger nu" in message and "smaller eps" in message
    # ERLPBoost cannot beat the LP optimum g: never the remedy for a nonpositive soft margin
    assert "ERLPBoost" not in message


def test_vacuous_guarantee_prints_both_numbers():
    U = np.array([[1.0], [1.0], [1.0], [-1.0]])
    entries = run_warnings(fake_result(U, [1.0], [0.4, 0.03, 0.2], eps=0.05, nu=4.0))
    assert codes(entries) == ["vacuous_guarantee"]
    message = entries[0]["message"]
    assert "eps_eff = eps = 0.05 >= 0.03" in message
    assert "smaller eps" in message
    # an LPBoost run has no eta: the remedy does not mention it
    assert "eta" not in message
    # eps below the smallest edge: nothing to say
    assert run_warnings(fake_result(U, [1.0], [0.4, 0.03, 0.2], eps=0.01, nu=4.0)) == []


def test_vacuous_guarantee_with_no_positive_margin_asks_for_a_larger_nu_only():
    U = np.array([[1.0], [1.0], [1.0], [-1.0]])
    entries = run_warnings(fake_result(U, [1.0], [0.4, 0.0], eps=0.05, nu=2.0))
    message = entries[0]["message"]
    assert entries[0]["code"] == "vacuous_guarantee"
    assert "larger nu" in message and "smaller eps" not in message and "ERLPBoost" not in message


def test_a_member_softened_by_its_penalty_d_is_told_to_lower_d():
    """Seed 002's hinge members (lpboost_hinge: nu = 1/D) take D, not nu: the remedy names D."""
    U = np.array([[1.0], [1.0], [1.0], [-1.0]])
    result = fake_result(U, [1.0], [0.4, 0.0], eps=0.05, nu=2.0)
    result.parameters["D"] = 0.5
    message = run_warnings(result)[0]["message"]
    assert "a smaller D" in message and "now D = 0.5" in message and "larger nu" not in message
    # at D = 1/N (nu = N) no softer margin exists, whatever the knob is called
    result.parameters.update(D=0.25, nu=4.0)
    message = run_warnings(result)[0]["message"]
    assert "already the softest margin" in message and "smaller D" not in message


def test_no_eps_no_vacuous_check():
    r = fake_result(np.ones((3, 1)), [1.0], [0.0], eps=None, nu=1.0)
    assert run_warnings(r) == []


def test_smallest_edge_bounds_the_best_soft_margin():
    """The bound the vacuous check uses: min_t edge^t >= g, the LP optimum (2.3) over ALL
    stumps, solved independently here by scipy's linprog on the distribution side."""
    X, y = make_classification(n_samples=60, n_features=4, flip_y=0.3, random_state=3)
    y_pm = np.where(y == 1, 1.0, -1.0)
    nu = 12.0
    result = run(X, y_pm, formulation="lpboost", nu=nu, eps=0.01)
    U_all, _ = StumpOracle().fit(X, y_pm).all_columns()
    N, J = U_all.shape
    # min gamma s.t. U^T d <= gamma, sum d = 1, 0 <= d <= 1/nu; variables (d, gamma)
    lp = linprog(np.r_[np.zeros(N), 1.0],
                 A_ub=np.column_stack([U_all.T, -np.ones(J)]), b_ub=np.zeros(J),
                 A_eq=np.r_[np.ones(N), 0.0][None, :], b_eq=[1.0],
                 bounds=[(0, 1 / nu)] * N + [(None, None)], method="highs")
    g = lp.fun
    assert min(r.edge for r in result.history) >= g - 1e-9
    # and the stopping guarantee holds: soft margin of the output >= g - eps
    assert result.soft_margin >= g - 0.01 - 1e-9


# -- the noisy problem ---------------------------------------------------------------


@pytest.fixture(scope="module")
def noisy_fit():
    X, y = noisy_problem()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = DualBoostClassifier(formulation="lpboost", nu_frac=0.3, eps=0.05).fit(X, y)
    return X, y, est, caught


def test_noisy_problem_warns_both(noisy_fit):
    X, y, est, caught = noisy_fit
    result = est.result_
    got = codes(result.warnings)
    assert got == ["vacuous_guarantee", "degenerate_combination"]
    assert est.warnings_ == result.warnings
    # independent recomputation of what the messages state
    gamma_hat = min(r.edge for r in result.history)
    assert 0.05 >= gamma_hat
    assert f"{gamma_hat:.4g}" in result.warnings[0]["message"]
    margins = result.columns @ result.weights
    scale = np.abs(result.weights) @ np.abs(result.columns).max(axis=0)
    frac = np.mean(np.abs(margins) <= 1e-9 * scale)
    assert frac > 0.5
    assert f"on {frac:.1%} of the training examples" in result.warnings[1]["message"]
    # the status says it too, not only a warning (issue 20); the stopping rule did hold
    assert result.status == "converged_degenerate" and result.success
    assert "degenerate" in result.message
    # the estimator emitted each as a DualBoostWarning with the entry's code
    emitted = [w.message for w in caught if issubclass(w.category, DualBoostWarning)]
    assert [w.code for w in emitted] == got


def test_noisy_problem_predicts_no_worse_than_the_majority(noisy_fit):
    X, y, est, _ = noisy_fit
    majority = max(np.mean(y == 0), np.mean(y == 1))
    majority_label = 1 if np.mean(y == 1) > 0.5 else 0
    assert est.tie_class_ == majority_label
    scores = est.decision_function(X)
    pred = est.predict(X)
    # ties (a score of 0 up to the rounding of the LP's weights) go to the majority class
    ties = np.abs(scores) <= 1e-9
    assert np.any(ties) and np.all(pred[ties] == majority_label)
    assert np.mean(pred == y) >= majority


def test_noisy_problem_entries_come_from_run(noisy_fit):
    """api.run (what the CLI calls too) filled result.warnings with run_warnings' entries."""
    X, y, est, _ = noisy_fit
    assert run_warnings(est.result_, np.where(y == 1, 1.0, -1.0)) == est.result_.warnings
    for entry in est.result_.warnings:
        assert set(entry) == {"code", "message"} and "\n" not in entry["message"]


def test_eps_well_below_the_soft_margin_says_nothing():
    bunch = load_breast_cancer()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DualBoostWarning)
        est = DualBoostClassifier(formulation="lpboost", nu_frac=0.2, eps=0.01).fit(
            bunch.data, bunch.target)
    assert est.result_.warnings == [] and est.warnings_ == []
    assert est.result_.status == "converged"
    assert est.soft_margin_ > 0.1  # well above eps: the guarantee means something
