"""Stagewise AdaBoost (seed 002 (7)) and Arc-Gv ((8)): the steps against hand computations, the
reported bracket (soft margin of the normalized weights vs the LP (2.3) over the columns seen),
the certified hard-margin stop, and the front ends (fit, the estimator, list)."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn.exceptions import ConvergenceWarning

from dualboost.algorithms import algorithm_class, available_algorithms, run_loop
from dualboost.algorithms.stagewise import AdaBoost, ArcGv, fast_soft_margin, line_search
from dualboost.algorithms.totally_corrective import independent_lp_value
from dualboost.api import run
from dualboost.cli import main
from dualboost.margins import soft_margin
from dualboost.oracles import make_oracle
from formulations.lpboost import LPBoost


def finite(pool: np.ndarray, labels: np.ndarray | None = None):
    labels = np.ones(pool.shape[0]) if labels is None else labels
    return make_oracle("finite", hypotheses=pool).fit(None, labels)


def test_adaboost_first_steps_by_hand():
    """N = 5, labels +1. Round 1 (uniform d): h1 has edge 3/5 (weighted error 1/5), so
    alpha_1 = (1/2) ln((1 + 3/5)/(1 - 3/5)) = (1/2) ln 4 = ln 2, and d becomes proportional to
    (e^-ln2, e^-ln2, e^-ln2, e^-ln2, e^ln2) = (1/2, 1/2, 1/2, 1/2, 2), i.e. (1, 1, 1, 1, 4)/8.
    Round 2: under that d, h2 = (1, 1, -1, -1, 1) has edge (1 + 1 - 1 - 1 + 4)/8 = 1/2 (h1 has
    edge 0: AdaBoost's d makes the last hypothesis a coin flip), h3 = (-1, 1, 1, 1, 1) has
    (-1 + 1 + 1 + 1 + 4)/8 = 3/4: the best, alpha_2 = (1/2) ln(7)."""
    pool = np.array([[1, -1, -1],
                     [1, 1, 1],
                     [1, -1, 1],
                     [1, -1, 1],
                     [-1, 1, 1]], dtype=float)
    pool[:, 1] = [1, 1, -1, -1, 1]
    f = LPBoost(5, nu=1.0, eps=1e-3)
    algo = AdaBoost(f)
    run_loop(algo, finite(pool), max_iter=2)
    assert algo.alphas[0] == pytest.approx(math.log(2.0), abs=1e-14)
    assert algo.alphas[1] == pytest.approx(0.5 * math.log(7.0), abs=1e-14)
    np.testing.assert_array_equal(algo.U[:, 0], pool[:, 0])
    np.testing.assert_array_equal(algo.U[:, 1], pool[:, 2])
    # d after round 2: (1, 1, 1, 1, 4)/8 times exp(-alpha_2 u), u = h3
    d = np.array([1, 1, 1, 1, 4]) / 8 * np.exp(-0.5 * math.log(7.0) * pool[:, 2])
    np.testing.assert_allclose(algo.d, d / d.sum(), rtol=1e-13)


def textbook_adaboost(pool: np.ndarray, rounds: int) -> tuple[list[int], list[float]]:
    """AdaBoost in its textbook form (weighted error eps_t, alpha = (1/2) ln((1 - eps)/eps),
    multiplicative update), +-1 pool, labels +1: the reference for the weights."""
    N = pool.shape[0]
    d = np.full(N, 1.0 / N)
    chosen, alphas = [], []
    for _ in range(rounds):
        j = int(np.argmax(d @ pool))
        error = float(d[pool[:, j] < 0].sum())
        alpha = 0.5 * math.log((1 - error) / error)
        d = d * np.exp(-alpha * pool[:, j])
        d /= d.sum()
        chosen.append(j)
        alphas.append(alpha)
    return chosen, alphas


def test_adaboost_matches_the_textbook_algorithm_on_a_random_pool():
    rng = np.random.default_rng(4)
    pool = np.sign(rng.normal(size=(40, 25)))
    pool[pool == 0] = 1
    chosen, alphas = textbook_adaboost(pool, 30)
    f = LPBoost(40, nu=4.0, eps=1e-3)
    algo = AdaBoost(f)
    result = run_loop(algo, finite(pool), max_iter=30)
    np.testing.assert_allclose(algo.alphas, alphas, rtol=1e-10)
    np.testing.assert_array_equal(algo.U, pool[:, chosen])
    # the output: the normalized weights, one per round (repeats included)
    np.testing.assert_allclose(result.weights, np.array(alphas) / np.sum(alphas), rtol=1e-10)
    assert len(set(chosen)) < len(chosen)  # the pool makes AdaBoost pick a hypothesis again


def textbook_arc_gv(pool: np.ndarray, rounds: int) -> tuple[list[int], list[float]]:
    """Arc-Gv as seed 002 (8) prints it: alpha_t = (1/2) ln((1 + r)/(1 - r)) - (1/2) ln((1 +
    rho)/(1 - rho)), rho the minimum normalized margin so far (0 at t = 1, kept inside (-1, 1)),
    clipped into [0, 1]; AdaBoost's update of d."""
    N = pool.shape[0]
    d = np.full(N, 1.0 / N)
    F = np.zeros(N)
    chosen, alphas = [], []
    for _ in range(rounds):
        j = int(np.argmax(d @ pool))
        r = float(d @ pool[:, j])
        rho = 0.0 if not alphas else float(F.min() / sum(alphas))
        rho = min(max(rho, -1 + 1e-12), 1 - 1e-12)
        alpha = 0.5 * math.log((1 + r) / (1 - r)) - 0.5 * math.log((1 + rho) / (1 - rho))
        alpha = min(max(alpha, 0.0), 1.0)
        F += alpha * pool[:, j]
        d = d * np.exp(-alpha * pool[:, j])
        d /= d.sum()
        chosen.append(j)
        alphas.append(alpha)
    return chosen, alphas


def test_arc_gv_matches_its_printed_steps():
    pool = separable_pool(seed=5)
    chosen, alphas = textbook_arc_gv(pool, 40)
    # nu = 2: no certified stop (the steps do not depend on nu), 40 rounds unless a step is 0
    algo = ArcGv(LPBoost(pool.shape[0], nu=2.0, eps=1e-6))
    run_loop(algo, finite(pool), max_iter=40)
    k = len(algo.alphas)
    assert k >= 15, algo.message
    np.testing.assert_allclose(algo.alphas, alphas[:k], rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(algo.U, pool[:, chosen[:k]])
    assert max(alphas[:k]) == 1.0  # the clip binds (rho_2 = -1: the step is +inf)


@pytest.mark.parametrize("rho", [0.0, 0.3, -0.6])
def test_line_search_minimizes_the_shifted_exponential_loss(rho):
    """Real-valued columns (Brent's root) and +-1 columns (the closed forms (7), (8)) both give
    the minimizer of Z(alpha) = sum_n d_n exp(-alpha (u_n - rho))."""
    rng = np.random.default_rng(1)
    d = rng.dirichlet(np.full(30, 5.0))
    real = rng.uniform(0.2, 1, 30)
    real[:2] = -1.0  # some examples wrong at every shift
    signs = rng.choice([1.0, -1.0], size=30, p=[0.85, 0.15])
    for u in (real, signs):
        assert d @ u > rho + 0.05  # a positive shifted edge, some u_n - rho < 0
        assert np.any(u < rho)
        alpha = line_search(u, np.log(d), rho)
        best = minimize_scalar(lambda a, u=u: float(d @ np.exp(-a * (u - rho))), bounds=(0, 20),
                               method="bounded", options={"xatol": 1e-12})
        assert alpha == pytest.approx(best.x, abs=1e-6)
        # the first-order condition of the line search holds exactly
        assert abs(float(d @ ((u - rho) * np.exp(-alpha * (u - rho))))) < 1e-12


def test_line_search_edge_cases():
    d = np.full(4, 0.25)
    assert line_search(np.array([1.0, -1, -1, 1]), np.log(d)) == 0.0  # no edge: no step
    assert line_search(np.array([1.0, 0.5, 0.2, 0.0]), np.log(d)) == math.inf  # nobody wrong
    # +-1: the closed form (7)
    u = np.array([1.0, 1, 1, -1])
    assert line_search(u, np.log(d)) == pytest.approx(0.5 * math.log(1.5 / 0.5))


@pytest.mark.parametrize("nu", [1.0, 2.5, 7.0, 40.0])
def test_fast_soft_margin_is_the_soft_margin(nu):
    margins = np.random.default_rng(2).uniform(-1, 1, 40)
    margins[:5] = margins[5]  # ties
    assert fast_soft_margin(margins, nu) == pytest.approx(soft_margin(margins, nu), abs=1e-15)


@pytest.fixture(scope="module")
def cancer():
    from sklearn.datasets import load_breast_cancer

    bunch = load_breast_cancer()
    return bunch.data, np.where(bunch.target == 1, 1.0, -1.0)


@pytest.mark.parametrize("name", ["adaboost", "arc_gv"])
def test_reported_bracket_is_the_lp_over_the_columns_seen(cancer, name):
    """Every record: dual = soft margin (2.2) of the normalized weights, primal = P_LP^t of the
    distinct columns so far, gap = primal - dual >= 0; the output's values are recomputed
    independently (scipy's HiGHS on the columns, the sorted soft margin)."""
    X, y = cancer
    nu = 0.1 * y.size
    result = run(X, y, formulation="lpboost", algorithm=name, nu=nu, eps=0.01, max_iter=60,
                 params={"lp_every": 1})
    assert result.status == "rounds_completed" and len(result.history) == 60
    previous = -math.inf
    for record in result.history:
        assert record.solved and record.primal is not None  # lp_every = 1
        assert math.isnan(record.edge)  # nu > 1: an uncapped d's edge bounds nothing
        assert record.duality_gap == record.primal - record.dual
        assert record.duality_gap >= -1e-12
        assert record.lp_value == record.primal
        assert record.primal >= previous - 1e-9  # more columns: the LP value cannot fall
        previous = record.primal
    margins = result.columns @ result.weights
    assert result.weights.sum() == pytest.approx(1.0)
    assert result.dual_objective == pytest.approx(soft_margin(margins, nu), abs=1e-12)
    assert result.soft_margin == pytest.approx(result.dual_objective, abs=1e-12)
    assert result.history[-1].dual == pytest.approx(result.dual_objective, abs=1e-12)
    distinct = np.unique(result.columns, axis=1)
    assert result.lp_value == pytest.approx(independent_lp_value(distinct, nu), abs=1e-7)
    # AdaBoost re-picks hypotheses: the LP sees each once
    assert distinct.shape[1] < result.columns.shape[1]
    assert result.lp_value - result.dual_objective > 1e-3  # what totally corrective buys here


def test_lp_every_spaces_the_lp_solves(cancer):
    X, y = cancer
    result = run(X, y, formulation="lpboost", algorithm="adaboost", nu=0.1 * y.size,
                 max_iter=30, params={"lp_every": 5})
    solved = [r.t for r in result.history if r.primal is not None]
    assert all(b - a >= 5 for a, b in zip(solved, solved[1:]))
    assert any(r.primal is None for r in result.history)
    # the output still carries P_LP^T of all its columns
    distinct = np.unique(result.columns, axis=1)
    assert result.lp_value == pytest.approx(independent_lp_value(distinct, 0.1 * y.size),
                                            abs=1e-7)


def separable_pool(seed: int = 0, N: int = 30, J: int = 40):
    """Random +-1 hypotheses plus three that each get a different third of the examples wrong:
    their average has margin 1/3 everywhere, so the hard-margin optimum g >= 1/3."""
    rng = np.random.default_rng(seed)
    pool = np.sign(rng.normal(size=(N, J)))
    pool[pool == 0] = 1
    thirds = np.arange(N) * 3 // N
    for k in range(3):
        pool[:, k] = np.where(thirds == k, -1.0, 1.0)
    return pool


def test_arc_gv_minimum_margin_approaches_the_lp_optimum():
    """On data the pool separates, Arc-Gv's minimum margin climbs to the hard-margin LP optimum
    g over the whole pool; its certified stop (nu = 1) says so within eps."""
    pool = separable_pool()
    g = independent_lp_value(pool, 1.0)
    assert g >= 1 / 3 - 1e-9
    eps = 0.02
    result = run(None, np.ones(pool.shape[0]), formulation="lpboost", algorithm="arc_gv", nu=1,
                 eps=eps, hypotheses=pool, max_iter=5000)
    assert result.status == "converged", result.message
    minimum = float((result.columns @ result.weights).min())
    assert minimum >= g - eps - 1e-12
    assert minimum <= g + 1e-9  # no combination beats the LP
    margins = [r.dual for r in result.history]
    assert margins[-1] > margins[0]
    # the stop's quantity, recorded: min_q r_q - soft margin
    last = result.history[-1]
    edges = [r.edge for r in result.history]
    assert last.delta_simple == pytest.approx(min(edges) - last.dual, abs=1e-12)
    assert last.delta_simple <= eps


def test_certified_stop_only_at_the_hard_margin():
    """At nu > 1 the stagewise distributions are not capped: no certified stop; the run ends
    when it has run its rounds (rounds_completed: finished, success, exit 0)."""
    pool = separable_pool()
    result = run(None, np.ones(pool.shape[0]), formulation="lpboost", algorithm="arc_gv",
                 nu=3, eps=0.5, hypotheses=pool, max_iter=40)
    assert result.status == "rounds_completed" and result.success
    assert "ran the max_iter = 40 rounds" in result.message


def test_only_lp_formulations():
    assert algorithm_class("adaboost").unsupported(LPBoost) is None
    from dualboost.registry import load_formulation

    reason = AdaBoost.unsupported(load_formulation("erlpboost"))
    assert "soft-margin LP" in reason
    assert {"adaboost", "arc_gv"} <= set(available_algorithms())
    assert ArcGv.clip_high == 1.0


def test_fit_cli_adaboost(tmp_path, capsys):
    out = tmp_path / "fit.json"
    code = main(["fit", "--data", "breast_cancer", "--formulation", "lpboost", "--algorithm",
                 "adaboost", "--nu-frac", "0.1", "--max-iter", "25", "--quiet", "--json",
                 str(out)])
    assert code == 0  # stagewise at nu > 1: it ran the rounds it was given (finished)
    doc = json.loads(out.read_text())
    assert doc["algorithm"] == "adaboost" and doc["status"] == "rounds_completed"
    assert doc["success"] is True and doc["max_iter"] == 25
    assert doc["lp_value"] >= doc["soft_margin"]
    assert "P_LP^T" in doc["message"]
    capsys.readouterr()
    code = main(["fit", "--data", "breast_cancer", "--formulation", "erlpboost", "--algorithm",
                 "adaboost", "--quiet"])
    assert code == 2
    assert "cannot run formulation 'erlpboost'" in capsys.readouterr().err


def test_estimator_runs_adaboost(cancer):
    from dualboost.estimator import DualBoostClassifier

    X, y = cancer
    clf = DualBoostClassifier(formulation="lpboost", algorithm="arc_gv", max_iter=20)
    with warnings.catch_warnings():  # it ran its 20 rounds: finished, no ConvergenceWarning
        warnings.simplefilter("error", ConvergenceWarning)
        clf.fit(X, y)
    assert clf.result_.status == "rounds_completed"
    assert clf.score(X, y) > 0.9


def test_sample_weights_start_and_caps(cancer):
    """With sample weights s: d^0 = s / sum s, the soft margin and the LP use the weighted caps
    s_n N / (nu sum s); at nu = 1 the caps still bind, so no edge is recorded as a bound."""
    X, y = cancer
    s = 1.0 + np.arange(y.size) % 3
    nu = 0.2 * y.size
    result = run(X, y, formulation="lpboost", algorithm="adaboost", nu=nu, max_iter=25,
                 params={"sample_weight": s})
    margins = result.columns @ result.weights
    assert result.dual_objective == pytest.approx(soft_margin(margins, nu, s), abs=1e-12)
    distinct = np.unique(result.columns, axis=1)
    assert result.lp_value == pytest.approx(independent_lp_value(distinct, nu, s), abs=1e-7)
    # round 1 picks the best hypothesis under d^0 = s / sum s
    first = result.columns[:, 0]
    _, best = make_oracle("stumps").fit(X, y).best(s / s.sum())
    np.testing.assert_array_equal(first, best)
    assert result.history[0].dual == pytest.approx(soft_margin(first, nu, s), abs=1e-12)
    hard = run(X, y, formulation="lpboost", algorithm="adaboost", nu=1, max_iter=5,
               params={"sample_weight": s})
    assert all(math.isnan(r.edge) for r in hard.history) and hard.status == "rounds_completed"
