"""Frank-Wolfe (``fw``) and MLPBoost (``mlpboost``) on the smoothed soft margin.

The certificate against the whole stump class (the full LP solved directly), the claims FW1-FW5
on real runs and on deliberately wrong variants of the algorithm module (tests/mutations.py),
the projection and the exact line search against brute force, and the front ends (CLI, list,
estimator, errors).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from mutations import FRANK_WOLFE_MUTATIONS, AlgorithmMutation

import dualboost.algorithms as algorithms
from dualboost.algorithms import run_loop
from dualboost.algorithms.frank_wolfe import (
    FrankWolfeAlgorithm,
    SmoothedSoftMargin,
    fast_soft_margin,
)
from dualboost.algorithms.totally_corrective import independent_lp_value
from dualboost.api import run
from dualboost.errors import DualBoostInputError
from dualboost.margins import soft_margin
from dualboost.oracles import StumpOracle
from dualboost.projection import capped_entropic_projection
from formulations.erlpboost import ERLPBoost
from formulations.lpboost import LPBoost

NU_FRAC = 0.2

#: (algorithm, step, formulation, eps): every step rule on erlpboost, lpboost's smoothing
CASES = [
    ("fw", "classic", "erlpboost", 0.02),
    ("fw", "short", "erlpboost", 0.05),
    ("fw", "line_search", "erlpboost", 0.01),
    ("fw", "pairwise", "erlpboost", 0.01),
    ("fw", "line_search", "lpboost", 0.01),
    ("mlpboost", "short", "erlpboost", 0.01),
    ("mlpboost", "pairwise", "lpboost", 0.01),
]


@pytest.fixture(scope="module")
def full_lp(breast_cancer_stumps):
    """The soft-margin LP (2.3) over every stump at nu = 0.2 N (HiGHS through scipy)."""
    U = breast_cancer_stumps
    return independent_lp_value(U, NU_FRAC * U.shape[0])


@pytest.fixture(scope="module")
def runs(breast_cancer):
    out = {}
    for algorithm, step, formulation, eps in CASES:
        out[(algorithm, step, formulation, eps)] = run(
            breast_cancer.X, breast_cancer.y, formulation=formulation, nu_frac=NU_FRAC, eps=eps,
            algorithm=algorithm, params={"step": step}, max_iter=20000)
    return out


def _formulation(name: str, N: int, eps: float):
    cls = ERLPBoost if name == "erlpboost" else LPBoost
    return cls(N, nu=NU_FRAC * N, eps=eps)


@pytest.mark.parametrize("case", CASES, ids=["-".join(map(str, c)) for c in CASES])
def test_soft_margin_certified_against_full_lp(case, runs, full_lp):
    result = runs[case]
    eps = case[3]
    assert result.status == "converged", result.message
    assert result.soft_margin >= full_lp - eps
    # the certified bracket holds the full LP's optimum and is at most eps wide at the stop
    assert result.certified_gap <= eps + 1e-12
    last = [r for r in result.history if r.solved][-1]
    assert last.margin_lower <= full_lp + 1e-9 <= last.margin_upper + 2e-9
    assert last.margin_lower == pytest.approx(result.soft_margin, abs=1e-12)
    # every record's bracket contains the optimum (weak duality on both sides)
    for r in result.history:
        if r.margin_lower is not None:
            assert r.margin_lower <= full_lp + 1e-9
            assert r.margin_upper >= full_lp - 1e-9


@pytest.mark.parametrize("case", CASES, ids=["-".join(map(str, c)) for c in CASES])
def test_claims_hold_on_real_runs(case, runs):
    result = runs[case]
    f = _formulation(case[2], len(result.d), case[3])
    claims = {c.check_id: c for c in algorithms.algorithm_class(case[0]).claims(result, f, 1e-6)}
    assert set(claims) == {"FW1", "FW2", "FW3", "FW4", "FW5"}
    failed = [c for c in claims.values() if c.ok is False]
    assert not failed, failed
    for key in ("FW1", "FW2", "FW4", "FW5"):
        assert claims[key].ok is True, claims[key]
    assert claims["FW3"].ok is (None if case[1] == "classic" and case[0] == "fw" else True)


@pytest.mark.parametrize("case", [CASES[3], CASES[6]], ids=["fw-pairwise", "mlpboost-lpboost"])
def test_verifier_rows_pass_on_real_runs(case, runs, full_lp):
    """The verifier's run rows (A1, A2, the algorithm's claims, G1 against the whole class)."""
    from dualboost.verify.checks import FAIL, PASS, run_rows

    result = runs[case]
    f = _formulation(case[2], len(result.d), case[3])
    rows = {r.id: r for r in run_rows(result, f, 1e-6, full_lp)}
    assert {"A1", "G1", "FW1", "FW2", "FW3", "FW4", "FW5"} <= set(rows)
    assert not [r for r in rows.values() if r.status == FAIL], rows
    assert rows["A1"].status == rows["G1"].status == rows["FW4"].status == PASS


def test_columns_are_distinct_and_history_carries_the_gap(runs):
    result = runs[("fw", "line_search", "erlpboost", 0.01)]
    U = result.columns
    assert U.shape[1] == result.iterations == len(result.weights)
    assert len({col.tobytes() for col in U.T}) == U.shape[1]
    reused = [r for r in result.history if r.solved and "reused" in r.diagnostics]
    assert reused, "a line-search run on breast cancer chooses some stump again"
    assert sum(r.solved for r in result.history) == result.iterations + len(reused)
    assert all(r.certified_gap is not None and r.diagnostics["gap"] is not None
               for r in result.history[1:])
    assert np.all(np.asarray(result.weights) >= 0)
    assert math.isclose(float(np.sum(result.weights)), 1.0, abs_tol=1e-12)


def test_mlpboost_takes_lp_steps_on_a_warm_highs_master(runs):
    result = runs[("mlpboost", "short", "erlpboost", 0.01)]
    kinds = [r.diagnostics["kind"] for r in result.history if r.solved and r.diagnostics]
    assert "lp" in kinds and "short" in kinds
    assert result.lp_value is not None and result.lp_value >= result.soft_margin - 1e-9


def test_smoothing_of_lpboost_is_two_ln_n_over_nu_over_eps(runs):
    result = runs[("fw", "line_search", "lpboost", 0.01)]
    N = len(result.d)
    eta = result.history[0].diagnostics["eta"]
    assert eta == pytest.approx(2 * math.log(N / (NU_FRAC * N)) / 0.01)


# -- mutants ------------------------------------------------------------------------------------

def _mutant_module(mutation: AlgorithmMutation, tmp_path: Path):
    source = (Path(algorithms.__file__).parent / mutation.source).read_text()
    count = source.count(mutation.old)
    assert count == 1, (f"{mutation.id}: the text to replace occurs {count} times in "
                        f"dualboost/algorithms/{mutation.source} (update tests/mutations.py)")
    path = tmp_path / f"_mutant_{mutation.id}.py"
    path.write_text(source.replace(mutation.old, mutation.new))
    name = f"dualboost.algorithms._mutant_{mutation.id}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.mark.parametrize("mutation", FRANK_WOLFE_MUTATIONS, ids=lambda m: m.id)
def test_algorithm_mutant_fails_a_claim(mutation, breast_cancer, tmp_path):
    spec = mutation.run
    module = _mutant_module(mutation, tmp_path)
    cls = {"fw": module.FrankWolfeAlgorithm, "mlpboost": module.MLPBoostAlgorithm}[
        spec["algorithm"]]
    N = len(breast_cancer.y)
    f = (ERLPBoost if spec["formulation"] == "erlpboost" else LPBoost)(
        N, nu=spec["nu_frac"] * N, eps=spec["eps"])
    oracle = StumpOracle().fit(breast_cancer.X, breast_cancer.y)
    result = run_loop(cls(f, step=spec["step"]), oracle, max_iter=spec["max_iter"])
    # the shipped claims judge the mutant's run (as the verifier would)
    shipped = algorithms.algorithm_class(spec["algorithm"])
    claims = {c.check_id: c for c in shipped.claims(result, f, 1e-6)}
    failed = sorted(k for k, c in claims.items() if c.ok is False)
    assert set(failed) & set(mutation.fails), (
        f"{mutation.id}: expected one of {mutation.fails} to fail; failed: {failed}; "
        f"{[(c.check_id, c.ok, c.value, c.detail) for c in claims.values()]}")


def test_the_unmutated_module_passes_the_mutants_runs(breast_cancer, tmp_path):
    """The mutants' runs with the shipped code: every claim holds (so a mutant's failure is
    its own)."""
    seen = set()
    for mutation in FRANK_WOLFE_MUTATIONS:
        spec = mutation.run
        key = tuple(sorted(spec.items()))
        if key in seen or mutation.id == "fw_never_stops":
            continue
        seen.add(key)
        N = len(breast_cancer.y)
        f = (ERLPBoost if spec["formulation"] == "erlpboost" else LPBoost)(
            N, nu=spec["nu_frac"] * N, eps=spec["eps"])
        cls = algorithms.algorithm_class(spec["algorithm"])
        oracle = StumpOracle().fit(breast_cancer.X, breast_cancer.y)
        result = run_loop(cls(f, step=spec["step"]), oracle, max_iter=spec["max_iter"])
        assert result.success, (mutation.id, result.message)
        bad = [c for c in cls.claims(result, f, 1e-6) if c.ok is False]
        assert not bad, (mutation.id, bad)


# -- the numerics against brute force -----------------------------------------------------------

@pytest.mark.parametrize("nu,weighted", [(1.0, False), (7.5, False), (40.0, False),
                                         (12.0, True)])
def test_projection_matches_the_sorting_projection(nu, weighted):
    rng = np.random.default_rng(3)
    N = 200
    weights = rng.uniform(0.5, 2.0, N) if weighted else None
    f = LPBoost(N, nu=nu, sample_weight=weights)
    d0 = np.full(N, 1.0 / N) if weights is None else weights / weights.sum()
    smoothed = SmoothedSoftMargin(50.0, nu, f.has_caps, f.cap_vector, d0)
    for scale in (0.1, 1.0, 30.0):
        z = scale * rng.normal(size=N)
        d, log_d, free = smoothed.project(np.log(d0) - 50.0 * z)
        ref = capped_entropic_projection(np.log(d0) - 50.0 * z, nu if f.has_caps else 1.0,
                                         cap=f.cap_vector)
        assert np.max(np.abs(d - ref.d)) <= 1e-12
        assert abs(d.sum() - 1.0) <= 1e-12
        assert np.all(d <= np.asarray(f.cap) + 1e-15)
        assert np.allclose(np.exp(log_d), d, rtol=1e-12, atol=0)


def test_line_search_finds_the_maximizer_on_the_segment():
    rng = np.random.default_rng(5)
    N = 150
    f = LPBoost(N, nu=30.0)
    d0 = np.full(N, 1.0 / N)
    smoothed = SmoothedSoftMargin(80.0, 30.0, True, None, d0)
    grid = np.linspace(0.0, 1.0, 2001)
    for _ in range(5):
        z = rng.uniform(-0.5, 0.5, N)
        u = rng.choice([-1.0, 1.0], N)
        a = u - z
        start = smoothed.at(z)
        lam, point = smoothed.line_search(z, a, 1.0, start)
        values = [smoothed.at(z + g * a).value for g in grid]
        assert point.value >= max(values) - 1e-12
        assert point.value == pytest.approx(smoothed.at(z + lam * a).value, abs=1e-14)
    assert f.N == N


@pytest.mark.parametrize("nu", [1.0, 2.5, 10.0, 99.0, 100.0])
def test_fast_soft_margin_is_the_sorted_one(nu):
    z = np.random.default_rng(1).normal(size=100)
    assert fast_soft_margin(z, nu, None) == pytest.approx(soft_margin(z, nu), abs=1e-14)


# -- front ends ---------------------------------------------------------------------------------

def test_cli_fit_fw_short_writes_the_certified_gap(tmp_path, capsys):
    from dualboost.cli import main

    out = tmp_path / "fw.json"
    code = main(["fit", "--data", "breast_cancer", "--formulation", "erlpboost", "--algorithm",
                 "fw", "--param", "step=short", "--nu-frac", "0.2", "--eps", "0.05",
                 "--max-iter", "20000", "--quiet", "--json", str(out)])
    assert code == 0, capsys.readouterr().err
    doc = json.loads(out.read_text())
    assert doc["algorithm"] == "fw" and doc["algorithm_parameters"]["step"] == "short"
    assert doc["status"] == "converged"
    assert 0 <= doc["certified_gap"] <= 0.05
    assert all("certified_gap" in r for r in doc["history"])
    assert doc["history"][-1]["certified_gap"] is not None


def test_list_shows_fw_and_mlpboost_with_their_parameters(capsys):
    from dualboost.cli import main

    assert main(["list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    entries = {a["name"]: a for a in doc["algorithms"]}
    for name in ("fw", "mlpboost"):
        assert {p["name"] for p in entries[name]["params"]} == {"step", "stopping", "eta"}


def test_estimator_fits_with_mlpboost(breast_cancer):
    from dualboost.estimator import DualBoostClassifier

    clf = DualBoostClassifier(formulation="lpboost", algorithm="mlpboost", nu_frac=0.2,
                              eps=0.05, params={"step": "pairwise"}, max_iter=5000)
    clf.fit(breast_cancer.X, breast_cancer.y)
    assert clf.result_.status == "converged"
    assert clf.result_.certified_gap <= 0.05
    assert clf.score(breast_cancer.X, breast_cancer.y) > 0.9


@pytest.mark.parametrize("formulation", ["erlpboost_l2", "softboost", "binary_erlpboost"])
def test_other_formulations_are_refused_in_one_line(formulation, breast_cancer):
    with pytest.raises(DualBoostInputError) as info:
        run(breast_cancer.X, breast_cancer.y, formulation=formulation, nu_frac=0.2,
            algorithm="fw")
    message = str(info.value)
    assert "\n" not in message and "'fw' cannot run formulation" in message


@pytest.mark.parametrize("params,match", [({"step": "away"}, "step must be one of"),
                                          ({"stopping": "practical"}, "stopping must be one"),
                                          ({"eta": -1.0}, "eta must lie in")])
def test_bad_parameters_are_refused(params, match, breast_cancer):
    with pytest.raises(DualBoostInputError, match=match):
        run(breast_cancer.X, breast_cancer.y, formulation="lpboost", nu_frac=0.2,
            algorithm="fw", params=params)


def test_eta_given_twice_differently_is_refused():
    f = ERLPBoost(50, nu=5.0, eps=0.1, eta=10.0)
    with pytest.raises(DualBoostInputError, match="differs from the formulation's eta"):
        FrankWolfeAlgorithm(f, eta=20.0)


def test_sample_weights_certified_against_the_weighted_full_lp(breast_cancer,
                                                               breast_cancer_stumps):
    """Integer sample weights s: the caps s_n N / (nu sum s) and the prior s / sum s (docs/
    theory.md "Sample weights"); the weighted soft margin is within eps of the weighted LP."""
    N = len(breast_cancer.y)
    weights = np.random.default_rng(7).integers(1, 4, N).astype(float)
    eps = 0.05
    result = run(breast_cancer.X, breast_cancer.y, formulation="lpboost", nu_frac=NU_FRAC,
                 eps=eps, algorithm="fw", params={"step": "pairwise", "sample_weight": weights},
                 max_iter=20000)
    assert result.status == "converged", result.message
    optimum = independent_lp_value(breast_cancer_stumps, NU_FRAC * N, weights)
    margin = soft_margin(result.columns @ result.weights, NU_FRAC * N, weights)
    assert margin >= optimum - eps
    f = LPBoost(N, nu=NU_FRAC * N, eps=eps, sample_weight=weights)
    claims = FrankWolfeAlgorithm.claims(result, f, 1e-6)
    assert all(c.ok is not False for c in claims), claims


def test_source_stopping_rule_certifies_eps_at_the_default_eta(breast_cancer, full_lp):
    """seed 003 §3.3.1's rule min edge - D(w) <= eps/2: at eta = 2 B/eps it certifies eps."""
    eps = 0.05
    result = run(breast_cancer.X, breast_cancer.y, formulation="erlpboost", nu_frac=NU_FRAC,
                 eps=eps, algorithm="fw", params={"stopping": "source"}, max_iter=20000)
    assert result.status == "converged" and result.stopping == "source"
    assert result.soft_margin >= full_lp - eps
    last = [r for r in result.history if r.solved][-1]
    assert min(r.edge for r in result.history) - last.dual <= eps / 2 + 1e-12 or \
        result.history[-1].delta_simple <= eps / 2
    f = _formulation("erlpboost", len(result.d), eps)
    claims = {c.check_id: c for c in FrankWolfeAlgorithm.claims(result, f, 1e-6)}
    assert all(c.ok is True for key, c in claims.items() if key != "FW3"), claims


def test_verifier_runs_fw_with_the_algorithm_option(tmp_path, capsys):
    """python -m dualboost.verify --algorithm fw: the run cases run fw, its claims are rows."""
    from dualboost.verify import main as verify_main

    out = tmp_path / "verify.json"
    code = verify_main(["--formulation", "lpboost", "--algorithm", "fw", "--instances",
                        "quick", "--json", str(out)])
    assert code == 0, capsys.readouterr().out[-3000:]
    report = json.loads(out.read_text())
    rows = report["checks"] if "checks" in report else report["rows"]
    ids = {row.get("id") or row.get("check_id") for row in rows}
    assert {"FW1", "FW2", "FW3", "FW4", "FW5", "G1"} <= ids
    assert all(case.get("algorithm") == "fw" for case in report["cases"]
               if case.get("kind") == "run")
    assert verify_main(["--algorithm", "no_such_algorithm"]) == 2
