"""Statuses a user can trust (issues 19 and 20): a converged run whose guarantee is empty, or whose
combined hypothesis vanishes within round-off, says so in its status; each warning's remedy fits
the run it is printed for (docs/json_schema.md, "Statuses of a converged run")."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

from dualboost.api import run


@pytest.fixture(scope="module")
def cancer():
    bunch = load_breast_cancer()
    return bunch.data, np.where(bunch.target == 1, 1.0, -1.0)


def mirrored(n: int = 60, seed: int = 0):
    """Every point twice, once per label: for every w the margins come in pairs (m, -m), so the
    soft margin (2.2) is <= 0 at every nu and the LP optimum 0 is attained only by U w = 0, a
    cancelling combination (LPBoost's answer is degenerate by construction)."""
    X0 = np.random.default_rng(seed).normal(size=(n, 3))
    return np.vstack([X0, X0]), np.r_[np.ones(n), -np.ones(n)]


def entry(result, code):
    found = [w for w in result.warnings if w["code"] == code]
    assert found, f"no {code} among {[w['code'] for w in result.warnings]}"
    return found[0]["message"]


def all_messages(result) -> str:
    return " ".join(w["message"] for w in result.warnings)


# -- issue 19: the guarantee is empty -------------------------------------------------------------


def test_tiny_eta_is_vacuous_and_the_remedy_is_eta(cancer):
    X, y = cancer
    nu = 0.1 * y.size
    result = run(X, y, formulation="erlpboost", nu=nu, eps=0.01, eta=1e-8)
    assert result.status == "converged_vacuous" and result.success
    assert "guarantee is empty" in result.message
    message = entry(result, "vacuous_guarantee")
    # the theory's eta for the relative entropy, computed here: max((2/eps) ln(N/nu), 1/2)
    eta_theory = max(2 / 0.01 * math.log(y.size / nu), 0.5)
    assert f"{eta_theory:.4g}" in message and "eta" in message
    # an ERLPBoost run is never told to use ERLPBoost, nor that nu is the problem
    assert "ERLPBoost" not in all_messages(result)
    assert "larger nu" not in all_messages(result)


def test_eta_below_theory_weakens_but_keeps_the_guarantee(cancer):
    X, y = cancer
    nu = 0.1 * y.size
    eta = 50.0  # B/eta = ln(10)/50 = 0.046 < the smallest edge (about 0.85)
    result = run(X, y, formulation="erlpboost", nu=nu, eps=0.01, eta=eta)
    assert result.status == "converged"
    message = entry(result, "eta_below_theory")
    eps_eff = 0.005 + math.log(y.size / nu) / eta
    assert f"{eps_eff:.4g}" in message


def test_default_eta_no_eta_warning(cancer):
    X, y = cancer
    result = run(X, y, formulation="erlpboost", nu_frac=0.1, eps=0.01)
    assert result.status == "converged"
    assert "eta" not in " ".join(w["code"] for w in result.warnings)


@pytest.mark.parametrize("formulation", ["lpboost", "erlpboost"])
def test_eps_above_the_smallest_edge_is_vacuous(cancer, formulation):
    X, y = cancer
    result = run(X, y, formulation=formulation, nu_frac=0.1, eps=0.95)
    gamma_hat = min(r.edge for r in result.history)
    assert gamma_hat <= 0.95  # what makes it empty, recomputed from the history
    assert result.status in ("converged_vacuous", "converged_degenerate") and result.success
    message = entry(result, "vacuous_guarantee")
    assert "smaller eps" in message and f"{gamma_hat:.4g}" in message
    if formulation == "lpboost":
        assert "eta" not in message  # LPBoost has no eta
    assert "ERLPBoost" not in message  # a regularizer does not shrink eps


def test_a_healthy_run_stays_converged(cancer):
    X, y = cancer
    result = run(X, y, formulation="lpboost", nu_frac=0.2, eps=0.01)
    assert result.status == "converged" and result.warnings == []


# -- issue 20: a degenerate LPBoost answer gets its status ----------------------------------------


def test_degenerate_lpboost_gets_its_status():
    X, y = mirrored()
    result = run(X, y, formulation="lpboost", nu_frac=0.5, eps=0.01)
    scores = result.columns @ result.weights
    scale = np.abs(result.weights) @ np.abs(result.columns).max(axis=0)
    assert np.mean(np.abs(scores) <= 1e-9 * scale) > 0.5  # the data do what they should
    assert result.status == "converged_degenerate" and result.success
    from dualboost.result import CONVERGED_STATUSES

    assert result.status in CONVERGED_STATUSES
    assert "degenerate" in result.message
    message = entry(result, "degenerate_combination")
    assert "larger nu" in message and "ERLPBoost" in message


def test_degenerate_erlpboost_is_not_told_to_use_erlpboost():
    X, y = mirrored()
    result = run(X, y, formulation="erlpboost", nu_frac=0.5, eps=0.01)
    assert result.status in ("converged_degenerate", "converged_vacuous")
    assert "ERLPBoost" not in all_messages(result)


def test_a_run_that_did_not_converge_keeps_its_status():
    X, y = mirrored()
    result = run(X, y, formulation="lpboost", nu_frac=0.5, eps=1e-12, max_iter=1,
                 params={"pricing": "single"})
    assert result.status == "max_iter" and not result.success
    assert result.warnings  # diagnosed, but "did not converge" is what the status says


def test_the_cli_json_carries_the_status(tmp_path):
    """The CLI writes result.status: the degenerate status reaches the JSON unchanged."""
    from dualboost.cli import main

    X, y = mirrored(40)
    data = tmp_path / "mirror.csv"
    rows = ["a,b,c,target"] + [",".join(f"{v:.17g}" for v in r) + f",{int(t)}"
                               for r, t in zip(X, y)]
    data.write_text("\n".join(rows) + "\n")
    out = tmp_path / "run.json"
    main(["fit", "--data", str(data), "--label", "target", "--formulation", "lpboost",
          "--nu-frac", "0.5", "--json", str(out), "--quiet"])
    doc = json.loads(out.read_text())
    assert doc["status"] == "converged_degenerate" and doc["success"] is True
    assert any(w["code"] == "degenerate_combination" for w in doc["warnings"])
