"""Seed 002's exponential loss (14), AdaBoost-QP (41), the l_p hinge (27)/(28) and cost-sensitive
AdaBoost-l1: each pair against the seed's problem as printed (solved here with cvxpy in the seed's
own variables, independently of the formulation files), the maps between u and w, the
identities with the thesis family, the margin-moment rows, and the front ends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest

from dualboost.data import shared_data_dir
from formulations.adaboost_exp import AdaBoostExp
from formulations.adaboost_l1_cost import CostSensitiveAdaBoostL1
from formulations.adaboost_qp import AdaBoostQP
from formulations.erlpboost import ERLPBoost
from formulations.erlpboost_l2 import L2ERLPBoost
from formulations.lpboost_phinge import LpHingeLPBoost

ROOT = Path(__file__).resolve().parents[1]
SHARED = shared_data_dir()
GERMAN = SHARED / "german.csv" if SHARED is not None else Path("/nonexistent/german.csv")
NAMES = ("adaboost_exp", "adaboost_qp", "lpboost_phinge", "adaboost_l1_cost")


def columns(N=18, t=7, seed=3):
    """Random +-1 columns, closed under negation (seed 002's rule for the l1 budget)."""
    rng = np.random.default_rng(seed)
    U = np.sign(rng.normal(size=(N, t)))
    U[U == 0] = 1.0
    return np.hstack([U, -U])


def solve(problem, precise=True):
    tight = dict(tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10, tol_ktratio=1e-9,
                 max_iter=500) if precise else {}
    problem.solve(solver=cp.CLARABEL, **tight)
    assert problem.status == "optimal", problem.status
    return problem.value


def fast(f, U):
    """The formulation's fast master, certified to 1e-10."""
    solved = f.fast_master().solve(U, 1e-10)
    assert solved.path is None, solved.status  # not a fallback to the reference path
    return solved.certificate


# -- the exponential loss: (2) + budget <-> (14) -------------------------------------------------

@pytest.mark.parametrize("T", [0.3, 1.0])
def test_exp_matches_seed_dual_14_and_its_maps(T):
    U = columns()
    N = U.shape[0]
    f = AdaBoostExp(N, T=T)
    cert = fast(f, U)
    # (14) as printed: max r/T - sum u log u + 1^T u, sum_i u_i y_i H_ij <= -r, u >= 0
    u, r = cp.Variable(N, nonneg=True), cp.Variable()
    edges = U.T @ u <= -r
    opt14 = solve(cp.Problem(cp.Maximize(r / T + cp.sum(cp.entr(u)) + cp.sum(u)), [edges]))
    assert f.seed_objective(cert.primal_value) == pytest.approx(opt14, rel=1e-6)
    np.testing.assert_allclose(N * cert.d, u.value, rtol=1e-4, atol=1e-6)  # u_(14) = N d
    # the multipliers of (14)'s edge rows are a w_(2) = w / T (sum 1/T): the same margins (the
    # weights themselves are not unique on a pool closed under negation)
    assert edges.dual_value.sum() == pytest.approx(1 / T, rel=1e-6)
    np.testing.assert_allclose(U @ edges.dual_value, U @ cert.w / T, atol=1e-5)


def test_exp_w_is_adaboost_l1_w():
    """Theta of (14) is increasing in ERLPBoost's Theta at nu = 1, eta = 1/T: same w, d scaled."""
    U = columns(seed=5)
    N, T = U.shape[0], 0.4
    exp_cert = fast(AdaBoostExp(N, T=T), U)
    l1_cert = fast(ERLPBoost(N, nu=1.0, eta=1.0 / T), U)
    rho = U @ exp_cert.w
    assert np.max(np.abs(U @ l1_cert.w - rho)) < 1e-5  # margins unique (w may not be)
    np.testing.assert_allclose(exp_cert.d, exp_cert.d.sum() * l1_cert.d, atol=1e-6)


# -- AdaBoost-QP (41) ---------------------------------------------------------------------------

def test_qp_matches_41_with_a_signed_d_and_the_kkt_recovery():
    U = columns(seed=7)
    N, T = U.shape[0], 0.05
    f = AdaBoostQP(N, T=T)
    model, cert, _ = f.solve_primal(U, 1e-9)
    d = model.values()["d"]
    assert d.min() < -1e-3  # the d-domain is not a simplex: u~ takes negative values
    # (41) as printed, in seed 002's variables
    b = U.mean(axis=0)
    A = (U - b).T @ (U - b) / N
    w = cp.Variable(U.shape[1], nonneg=True)
    opt41 = solve(cp.Problem(cp.Minimize(0.5 * cp.quad_form(w, cp.psd_wrap(A)) - T * b @ w),
                             [cp.sum(w) == 1]))
    assert -T * cert.primal_value == pytest.approx(opt41, abs=1e-7)
    # the KKT recovery takes the free d as it is (no bound, no clipping): w from d alone
    recovered = f.recover_dual(U, d)
    assert recovered.residual < 1e-6
    np.testing.assert_allclose(U @ recovered.w, U @ w.value, atol=1e-5)
    # the fast master reaches the same optimum
    assert fast(f, U).dual_value == pytest.approx(cert.dual_value, abs=1e-8)


def test_qp_margin_rows_fail_for_a_wrong_variant():
    """Seed 002 §3.4's identities as rows K4-K7 pass on (41) and fail when the primal's T is
    inverted (the pair stays a pair, so only the seed's relations can tell)."""
    from dualboost.verify.checks import DualityChecks

    class WrongScale(AdaBoostQP):
        def primal(self, U):
            model = super().primal(U)
            gamma, d = model.variables["gamma"], model.variables["d"]
            objective = gamma + self.N / (2.0 * self.T) * cp.sum_squares(d - self.d0)
            model.problem = cp.Problem(cp.Minimize(objective), model.problem.constraints)
            return model

    U = columns(seed=11)
    N = U.shape[0]
    good = {r.id: r.status for r in DualityChecks(AdaBoostQP(N, T=0.3), U, 1e-6)
            .stated_identities()}
    assert good == {"K4": "pass", "K5": "pass", "K6": "pass", "K7": "pass"}
    bad = {r.id: r.status for r in DualityChecks(WrongScale(N, T=0.3), U, 1e-6)
           .stated_identities()}
    assert bad["K4"] == "FAIL" and bad["K5"] == "FAIL"


# -- the l_p hinge: (27), (28) -----------------------------------------------------------------

def test_squared_hinge_is_the_l2_member_at_eta_2DN():
    U = columns(seed=13)
    N, D = U.shape[0], 0.3
    hinge = fast(LpHingeLPBoost(N, p=2.0, D=D), U)
    l2 = fast(L2ERLPBoost(N, nu=1.0, eta=2 * D * N), U)
    assert hinge.primal_value == pytest.approx(l2.primal_value, abs=1e-8)
    np.testing.assert_allclose(hinge.d, l2.d, atol=1e-6)
    # (27) as printed: min r + sum u^2 / (4D) on the simplex: shifted by 1/(4 D N)
    u, r = cp.Variable(N, nonneg=True), cp.Variable()
    opt27 = solve(cp.Problem(cp.Minimize(r + cp.sum_squares(u) / (4 * D)),
                             [U.T @ u <= r, cp.sum(u) == 1]))
    assert hinge.primal_value + 1 / (4 * D * N) == pytest.approx(opt27, abs=1e-7)


@pytest.mark.parametrize("p", [1.5, 3.0])
def test_lp_hinge_matches_28_as_printed(p):
    U = columns(seed=17)
    N, D = U.shape[0], 0.2
    f = LpHingeLPBoost(N, p=p, D=D)
    cert = fast(f, U)
    q = p / (p - 1)
    coefficient = D ** (1 - q) * (p ** (1 - q) - p ** (-q))  # (28), printed
    u, r = cp.Variable(N, nonneg=True), cp.Variable()
    opt28 = solve(cp.Problem(cp.Minimize(r + coefficient * cp.sum(cp.power(u, q))),
                             [U.T @ u <= r, cp.sum(u) == 1]), precise=False)
    assert -f.seed_objective(cert.primal_value) == pytest.approx(opt28, abs=1e-6)
    np.testing.assert_allclose(cert.d, u.value, atol=1e-4)
    # seed 002's u <-> w map: u_i = p D max(0, rho - margin_i)^(p-1), rho from sum u = 1
    margins = U @ cert.w
    from scipy.optimize import brentq

    rho = brentq(lambda t: np.sum(p * D * np.maximum(t - margins, 0) ** (p - 1)) - 1,
                 margins.min(), margins.max() + 10)
    np.testing.assert_allclose(cert.d, p * D * np.maximum(rho - margins, 0) ** (p - 1),
                               atol=1e-4)


# -- cost-sensitive AdaBoost-l1 --------------------------------------------------------------

def test_cost_sensitive_is_erlpboost_with_prior_and_matches_its_seed_dual():
    U = columns(seed=19)
    N, T = U.shape[0], 0.25
    c = np.random.default_rng(0).uniform(0.5, 3.0, size=N)
    f = CostSensitiveAdaBoostL1(N, T=T, c=c)
    cert = fast(f, U)
    er = fast(ERLPBoost(N, nu=1.0, eta=1.0 / T, d0=c / c.sum()), U)
    assert cert.primal_value == pytest.approx(er.primal_value, abs=1e-9)
    np.testing.assert_allclose(cert.d, er.d, atol=1e-7)
    # the derived dual: max r/T - sum u ln(u/c), U^T u <= -r, u in the simplex
    u, r = cp.Variable(N, nonneg=True), cp.Variable()
    opt = solve(cp.Problem(cp.Maximize(r / T - cp.sum(cp.rel_entr(u, c))),
                           [U.T @ u <= -r, cp.sum(u) == 1]))
    assert f.seed_objective(cert.primal_value) == pytest.approx(opt, abs=1e-6)
    np.testing.assert_allclose(cert.d, u.value, atol=1e-5)  # u ~ c exp(-margins / T)


def test_costs_must_be_positive():
    from dualboost.errors import DualBoostInputError

    with pytest.raises(DualBoostInputError, match="strictly positive"):
        CostSensitiveAdaBoostL1(4, c=np.array([1.0, 0.0, 1.0, 1.0]))
    with pytest.raises(DualBoostInputError, match="does not take"):
        CostSensitiveAdaBoostL1(4, eta=3.0)  # eta is 1/T here, not a parameter


# -- front ends -------------------------------------------------------------------------------

def run_cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "dualboost", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name,params", [
    ("adaboost_exp", ["T=0.2"]), ("adaboost_qp", ["T=0.2"]),
    ("lpboost_phinge", ["p=3", "D=0.01"]), ("adaboost_l1_cost", ["T=0.2", "c=COSTS"])])
def test_cli_fits_each(name, params, tmp_path):
    costs = tmp_path / "costs.npy"
    from dualboost.data import load_dataset

    y = load_dataset("breast_cancer").y
    np.save(costs, np.where(y > 0, 1.0, 2.0))
    out = tmp_path / "run.json"
    args = ["fit", "--data", "breast_cancer", "--formulation", name, "--json", str(out)]
    for p in params:
        args += ["--param", p.replace("COSTS", str(costs))]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert report["status"] == "converged" and report["success"]
    assert report["formulation"] == name


def test_list_shows_the_schemas():
    done = run_cli("list")
    assert done.returncode == 0
    for name in NAMES:
        assert name in done.stdout
    for param in ("T ", "p ", "D ", "c "):
        assert param in done.stdout


def test_estimator_fits_each():
    from sklearn.datasets import load_breast_cancer

    from dualboost import DualBoostClassifier

    X, y = load_breast_cancer(return_X_y=True)
    for name, params in [("adaboost_qp", {"T": 0.2}), ("adaboost_exp", {"T": 0.2}),
                         ("lpboost_phinge", {"p": 2.0}),
                         ("adaboost_l1_cost", {"T": 0.2, "c": np.where(y == 1, 1.0, 3.0)})]:
        model = DualBoostClassifier(formulation=name, params=params).fit(X, y)
        assert model.score(X, y) > 0.9, name


def test_a_missing_cone_is_one_clear_line():
    done = run_cli("fit", "--data", "breast_cancer", "--formulation", "lpboost_phinge",
                   "--solver", "ECOS")
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "power-cone" in done.stderr


@pytest.mark.skipif(not GERMAN.is_file(), reason="german.csv not available")
@pytest.mark.parametrize("name", NAMES)
def test_german_fits_certified(name):
    from dualboost.api import run
    from dualboost.data import load_dataset

    data = load_dataset(str(GERMAN), label="class")
    result = run(data.X, data.y, formulation=name, eps=0.01, oracle="stumps")
    assert result.success
    assert result.duality_gap <= 1e-4  # the last master's certified bracket


# -- proofs_check: each dual derived from its Lagrangian; the wrong variant fails ---------------

@pytest.mark.parametrize("name", ["check_exp_loss_dual", "check_qp_dual", "check_lp_hinge_dual",
                                  "check_cost_sensitive_dual"])
def test_proofs_check_derivations(name):
    import proofs_check
    from proofs_check import shen_li_more

    check = getattr(shen_li_more, name)
    assert check in proofs_check.ALL_CHECKS
    assert check().passed
    assert not check(mistake=True).passed


def test_hinge_p1_is_lpboost_at_nu_1_over_D():
    """p = 1 (refused by lpboost_phinge) is seed 002's (21)/(22): lpboost with nu = 1/D."""
    from dualboost.errors import DualBoostInputError
    from formulations.lpboost import LPBoost

    U = columns(seed=23)
    N, D = U.shape[0], 0.2
    with pytest.raises(DualBoostInputError, match="lpboost with nu = 1/D"):
        LpHingeLPBoost(N, p=1.0, D=D)
    w, rho, xi = cp.Variable(U.shape[1], nonneg=True), cp.Variable(), cp.Variable(N, nonneg=True)
    opt21 = solve(cp.Problem(cp.Maximize(rho - D * cp.sum(xi)),
                             [U @ w >= rho - xi, cp.sum(w) == 1]))
    _, cert, _ = LPBoost(N, nu=1.0 / D).solve_primal(U, 1e-10)
    assert cert.primal_value == pytest.approx(opt21, abs=1e-7)
