"""benchmarks/bench.py: the quick suite runs, its JSON has every column, and "certified" is
computed from the run against an independently solved full stump LP (thesis (2.3))."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog

from dualboost.oracles import make_oracle

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"
COLUMNS = ("instance", "algorithm", "path", "T", "solves", "master_seconds", "oracle_seconds",
           "kkt_seconds", "fit_seconds", "wall_seconds", "soft_margin", "certified_gap",
           "certified", "full_lp_seconds", "full_lp_total_seconds", "ratio", "paths")


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("dualboost_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def lp_optimum(U: np.ndarray, nu: float) -> float:
    """The soft-margin LP (2.3) in the w-domain by scipy: max rho - sum(psi)/nu s.t.
    U w + psi >= rho, sum(w) = 1, w, psi >= 0 (the benchmark solves the d-domain form)."""
    N, K = U.shape
    c = np.concatenate([np.zeros(K), np.full(N, 1.0 / nu), [-1.0]])  # minimize the negative
    A_ub = np.hstack([-U, -np.eye(N), np.ones((N, 1))])
    A_eq = np.concatenate([np.ones(K), np.zeros(N + 1)])[None, :]
    bounds = [(0, None)] * (K + N) + [(None, None)]
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(N), A_eq=A_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    assert res.status == 0
    return -res.fun


def run_quick(bench, tmp_path, *extra) -> dict:
    out = tmp_path / "bench.json"
    code = bench.main(["--suite", "quick", "--paths", "fast", "--json", str(out), *extra])
    assert code == 0
    return json.loads(out.read_text())


def test_quick_suite_json_and_certificate(bench, tmp_path):
    report = run_quick(bench, tmp_path)
    rows = report["rows"]
    assert {r["algorithm"] for r in rows} == {"lpboost", "erlpboost"}
    for r in rows:
        assert all(key in r for key in COLUMNS)
        assert r["path"] == "fast" and "reference" not in r["paths"]
    assert set(report["machine"]["versions"]) >= {"cvxpy", "clarabel", "highspy", "numpy",
                                                  "scipy"}
    assert report["machine"]["cores"] and report["machine"]["date"]

    data = bench.twonorm(200)
    U, _ = make_oracle("stumps").fit(data.X, data.y).all_columns()
    optimum = lp_optimum(U, 40.0)
    for r in rows:
        assert r["optimum"] == pytest.approx(optimum, abs=1e-7)
        assert r["certified"] == (r["soft_margin"] >= optimum - r["eps"])
        assert r["certified"]  # converged runs end within eps of the optimum (Lemma 3.5)


def test_certified_is_computed_not_constant(bench, tmp_path):
    # one master solve: one stump's soft margin, far below the optimum -> not certified
    report = run_quick(bench, tmp_path, "--max-iter", "1", "--algorithms", "lpboost",
                       "--no-kkt")
    (row,) = report["rows"]
    assert row["status"] == "max_iter" and row["solves"] == 1 and row["T"] >= 1
    assert row["soft_margin"] < row["optimum"] - row["eps"]
    assert row["certified"] is False
    assert [t for t in report["targets"] if t["passed"] is False] == []  # quick has no targets


def test_uci_like_sets_have_the_public_sets_shapes(bench):
    """Each stand-in has the sizes and per-feature distinct values it claims; pima-like's stumps
    number 2 + 2 sum(levels - 1) = 2,494, real pima's count; its CSV reads back the same data."""
    from dualboost.data import load_dataset

    for name, N, levels in bench.UCI_LIKE:
        data = bench.uci_like(N, levels)
        assert data.X.shape == (N, len(levels))
        assert [np.unique(column).size for column in data.X.T] == list(levels), name
        assert set(np.unique(data.y)) == {-1.0, 1.0}
        again = load_dataset(data.cli)
        assert np.array_equal(again.X, data.X) and np.array_equal(again.y, data.y)
    name, N, levels = bench.UCI_LIKE[0]
    pima = bench.uci_like(N, levels)
    U, _ = make_oracle("stumps").fit(pima.X, pima.y).all_columns()
    assert name == "pima-like" and U.shape[1] == 2494


# -- issue 20: the growth suite (converged runs in fresh processes, exponents in N) ------------


def test_growth_exponents_use_certified_runs_only(bench):
    rows = [{"data": "d", "algorithm": "a", "N": 100, "seconds": 1.0, "cpu_seconds": 1.0,
             "solves": 10, "master_seconds": 0.5, "certified": True},
            {"data": "d", "algorithm": "a", "N": 400, "seconds": 2.0, "cpu_seconds": 4.0,
             "solves": 5, "master_seconds": 2.0, "certified": True},
            # not certified (stopped by a limit): left out, or time would read 0 growth
            {"data": "d", "algorithm": "a", "N": 1600, "seconds": 2.0, "cpu_seconds": 2.0,
             "solves": 5, "master_seconds": 2.0, "certified": False}]
    got = {e["measure"]: e for e in bench.growth_exponents(rows)}
    assert got["time"]["exponent"] == pytest.approx(0.5)  # 2 x in 4 x N
    assert got["cpu time"]["exponent"] == pytest.approx(1.0)
    assert got["time / master solve"]["exponent"] == pytest.approx(1.0)  # 0.1 -> 0.4 s
    assert got["master time / master solve"]["exponent"] == pytest.approx(1.5)  # 0.05 -> 0.4
    assert got["time"]["sizes"] == [100, 400] and len(got["time"]["steps"]) == 1
    alone = bench.growth_exponents(rows[:1])
    assert all(e["exponent"] is None for e in alone)


def test_growth_certified_reads_the_bracket(bench):
    row = {"status": "converged", "soft_margin": 0.10, "gamma_hat": 0.105, "eps_used": 0.01}
    assert bench.growth_certified(row)
    assert not bench.growth_certified({**row, "soft_margin": 0.09})  # below gamma_hat - eps
    assert not bench.growth_certified({**row, "status": "time_limit"})
    assert not bench.growth_certified({**row, "gamma_hat": None})


def test_growth_suite_runs_each_fit_in_a_fresh_process(bench, tmp_path):
    out = tmp_path / "growth.json"
    code = bench.main(["--suite", "growth", "--growth-sizes", "200,400", "--algorithms",
                       "lpboost", "--json", str(out)])
    assert code == 0
    growth = json.loads(out.read_text())["growth"]
    rows = growth["rows"]
    assert [(r["data"], r["N"]) for r in rows] == [("scale", 200), ("scale", 400),
                                                   ("twonorm", 200), ("twonorm", 400)]
    for r in rows:
        assert r["algorithm"] == "lpboost" and r["status"] == "converged"
        assert r["peak_mb"] > 0 and r["cpu_seconds"] > 0 and r["solves"] >= 1
        # the same settings at every N, per data set
        assert (r["nu_frac"], r["eps"]) == {d: (f, e) for d, f, e in bench.GROWTH_SETS}[r["data"]]
        assert r["certified"] == (r["soft_margin"] >= r["gamma_hat"] - r["eps_used"])
    assert all(r["certified"] for r in rows)  # converged runs satisfy their own bracket
    exponents = {(e["data"], e["measure"]): e for e in growth["exponents"]}
    scale = [r for r in rows if r["data"] == "scale"]
    expected = np.log(scale[1]["seconds"] / scale[0]["seconds"]) / np.log(2)
    assert exponents[("scale", "time")]["exponent"] == pytest.approx(expected)
    lines = [t for t in growth["targets"] if "linearly" in t["target"]]
    assert len(lines) == 2 and all(t["passed"] is not None for t in lines)
