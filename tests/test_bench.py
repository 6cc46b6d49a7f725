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
