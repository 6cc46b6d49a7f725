"""LPBoost and ERLPBoost stop early when the eventual guarantee is certified empty or weak
(_TotallyCorrective._check_guarantee; docs/theory.md, "Stopping early")."""

from __future__ import annotations

import json

import numpy as np

from dualboost.algorithms import totally_corrective as tc
from dualboost.api import run


def _noisy(N: int = 150, seed: int = 3):
    """Labels independent of the features: the hard-margin optimum g is negative."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(N, 3)), np.where(rng.random(N) < 0.5, 1.0, -1.0)


def _separable(N: int = 150, seed: int = 4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(N, 3))
    return X, np.where(X[:, 0] > 0, 1.0, -1.0)


def _eps_eff(result) -> float:
    p = result.parameters
    N = result.columns.shape[0]
    return p["eps"] / 2 + np.log(N / p["nu"]) / p["eta"]  # eps/2 + B/eta, uniform d0


def test_empty_guarantee_stops_early_with_the_remedy(check_at_once):
    X, y = _noisy()
    result = run(X, y, nu=1, eps=0.05, kkt=False)
    assert result.status in ("vacuous_guarantee", "weak_guarantee")
    assert not result.success
    assert "Stopping early" in result.message and "larger nu" in result.message
    # the certified reason: the smallest best edge seen is below 2 eps_eff
    gamma_hat = min(r.edge for r in result.history)
    assert gamma_hat < 2 * _eps_eff(result)
    # h^t of the stopping step is discarded, the last certified master solve is kept
    assert result.iterations == sum(r.solved for r in result.history)
    assert result.duality_gap is not None and result.duality_gap >= 0
    on = run(X, y, nu=1, eps=0.05, kkt=False, guarantee_check=False, max_iter=3 * len(
        result.history) + 10)
    assert on.status not in ("vacuous_guarantee", "weak_guarantee")
    assert on.iterations > result.iterations


def test_meaningful_guarantee_runs_to_convergence(check_at_once):
    X, y = _separable()
    result = run(X, y, nu=1, eps=0.05, kkt=False)
    assert result.status == "converged"
    assert min(r.edge for r in result.history) >= 2 * _eps_eff(result)


def test_short_runs_are_not_checked():
    # the check starts after GUARANTEE_CHECK_WORK of fitting and GUARANTEE_CHECK_SOLVES
    # master solves: a short run ends by its rule
    X, y = _noisy()
    result = run(X, y, nu=1, eps=0.05, kkt=False)
    assert result.status not in ("vacuous_guarantee", "weak_guarantee")


# ---- LPBoost (Alg. 2.1, eps_eff = eps) shares the check: _TotallyCorrective._check_guarantee


def test_lpboost_empty_guarantee_stops_early_with_the_remedy(check_at_once):
    # hard margin (nu = 1) on labels independent of the features: g < 0, and the restricted
    # LP's value stays far below gamma_hat, so Alg. 2.1's own rule does not hold yet
    X, y = _noisy()
    result = run(X, y, formulation="lpboost", nu=1, eps=0.3, kkt=False)
    assert result.status == "vacuous_guarantee" and not result.success
    assert "Stopping early" in result.message and "larger nu" in result.message
    gamma_hat = min(r.edge for r in result.history)
    assert gamma_hat <= result.parameters["eps"]  # eps_eff = eps for LPBoost
    # the last certified master solve is kept, the stopping step's columns are not
    solved = [r for r in result.history if r.solved]
    assert solved and not result.history[-1].solved
    assert result.duality_gap is not None and result.duality_gap >= 0
    on = run(X, y, formulation="lpboost", nu=1, eps=0.3, kkt=False, guarantee_check=False)
    assert on.status.startswith("converged") and on.success
    assert sum(r.solved for r in on.history) > len(solved)


def test_lpboost_meaningful_guarantee_runs_to_convergence(check_at_once):
    X, y = _separable()
    result = run(X, y, formulation="lpboost", nu=1, eps=0.05, kkt=False)
    assert result.status == "converged"
    assert min(r.edge for r in result.history) >= 2 * result.parameters["eps"]


def test_lpboost_short_runs_are_not_checked():
    X, y = _noisy()
    result = run(X, y, formulation="lpboost", nu=1, eps=0.05, kkt=False)
    assert result.status.startswith("converged")


def test_lpboost_on_a_degenerate_lp_stops_early_with_the_bracket(check_at_once):
    # labels independent of the features, a soft margin at nu = 0.1 N: the restricted LP's
    # value is <= 0 after the first solve while the best edges stay far above eps
    X, y = _noisy()
    result = run(X, y, formulation="lpboost", nu=15, eps=0.01, kkt=False)
    solved = [r for r in result.history if r.solved]
    gamma_hat = min(r.edge for r in result.history)
    assert result.status == "degenerate_lp" and not result.success
    assert solved[-1].dual <= tc.DEGENERATE_LP_VALUE
    assert gamma_hat - solved[-1].dual > result.parameters["eps"]
    assert "ERLPBoost" in result.message and "Theorem 2.5" in result.message
    assert f"{gamma_hat:.3g}" in result.message  # the certified bracket's upper end
    on = run(X, y, formulation="lpboost", nu=15, eps=0.01, kkt=False, guarantee_check=False)
    assert on.status != "degenerate_lp"


def test_the_degenerate_lp_remedy_names_the_members_own_knob(check_at_once):
    # seed 002's hinge LPBoost is LPBoost at nu = 1/D: same stop, but its user sets D
    X, y = _noisy()
    N = X.shape[0]
    result = run(X, y, formulation="lpboost_hinge", params={"D": 1.0 / 15}, eps=0.01,
                 kkt=False)
    assert result.status == "degenerate_lp"
    assert "a smaller D" in result.message and "a larger nu" not in result.message
    assert result.parameters["nu"] == 15 and N > 15


def test_when_the_check_is_due():
    # never before GUARANTEE_CHECK_WORK (short runs end by their own rule, whatever the
    # machine's load); then after GUARANTEE_CHECK_SOLVES solves, or, with slow solves, once
    # GUARANTEE_CHECK_SLOW_WORK have passed
    first, slow, many = (tc.GUARANTEE_CHECK_WORK, tc.GUARANTEE_CHECK_SLOW_WORK,
                         tc.GUARANTEE_CHECK_SOLVES)
    assert first < slow
    assert not tc.guarantee_check_due(0.99 * first, 10 * many)
    assert tc.guarantee_check_due(first, many)
    assert not tc.guarantee_check_due(first, many - 1)
    assert not tc.guarantee_check_due(0.99 * slow, 1)
    assert tc.guarantee_check_due(slow, 1)
    # a slow solve: checked before the next one when that one would end past the slow clock
    assert tc.guarantee_check_due(first, 1, last_work=slow - first)
    assert not tc.guarantee_check_due(first, 1, last_work=0.5 * (slow - first))
    assert not tc.guarantee_check_due(0.99 * first, 1, last_work=10 * slow)


def test_the_verdicts():
    assert tc.guarantee_verdict(0.01, 0.01) == "vacuous_guarantee"
    assert tc.guarantee_verdict(-0.3, 0.01) == "vacuous_guarantee"
    assert tc.guarantee_verdict(0.015, 0.01) == "weak_guarantee"
    assert tc.guarantee_verdict(0.02, 0.01) is None


def test_cli_early_stop_is_exit_3_with_the_json_and_the_message(check_at_once, tmp_path,
                                                                 capsys):
    from dualboost.cli import main

    X, y = _noisy()
    data = tmp_path / "noisy.csv"
    np.savetxt(data, np.column_stack([X, y]), delimiter=",")
    out = tmp_path / "fit.json"
    code = main(["fit", "--data", str(data), "--formulation", "lpboost", "--nu", "1",
                 "--eps", "0.3", "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 3, captured.err
    doc = json.loads(out.read_text())
    assert doc["status"] == "vacuous_guarantee" and doc["success"] is False
    assert "Stopping early" in doc["message"]
    assert "vacuous_guarantee: NOT converged" in captured.out
    assert "dualboost: not converged (vacuous_guarantee):" in captured.err


def test_the_check_also_falls_due_inside_a_long_master_solve(monkeypatch):
    # the check always due, but never run between solves: the stop can only come from
    # inside a solve (the solver's callback asks _verdict_in_solve)
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 0.0)
    monkeypatch.setattr(tc, "guarantee_check_due", lambda work, solves, last_work=0.0: True)
    monkeypatch.setattr(tc._TotallyCorrective, "_guarantee_stopped",
                        lambda self, t, may_solve, record=None: False)
    X, y = _noisy()
    result = run(X, y, formulation="lpboost", nu=15, eps=0.01, kkt=False)
    assert result.status == "degenerate_lp" and not result.success
    assert "inside master solve" in result.message and "abandoned" in result.message
    # the abandoned solve left no record: the last certified one is kept
    solved = [r for r in result.history if r.solved]
    assert solved and result.history[-1].solved
    assert result.duality_gap is not None and result.duality_gap >= 0


def test_a_large_lp_is_watched_from_its_second_solve(monkeypatch):
    """Any solve over a large LP (N t >= GUARD_NONZEROS entries) is watched from inside, not
    only those starting near the check's clock: at N = 1e5 the whole LP's first solve, after
    two quick sifted ones, took 41 s unwatched. The solve under way counts as the last one."""
    asked = []

    def verdict(self, t, elapsed, in_solve=0.0):
        asked.append((t, elapsed, in_solve))
        return None

    monkeypatch.setattr(tc._TotallyCorrective, "_verdict_in_solve", verdict)
    rng = np.random.default_rng(1)
    N = 20_000
    X = rng.normal(size=(N, 12))
    y = np.where(X[:, 0] + rng.normal(size=N) > 0, 1.0, -1.0)
    run(X, y, formulation="lpboost", nu_frac=0.3, eps=0.01, kkt=False, max_iter=3,
        guarantee_check=True)
    assert asked and min(t for t, _, _ in asked) == 2  # from the second solve on
    assert all(in_solve >= 0.0 for _, _, in_solve in asked)  # work units, not seconds


def test_the_solve_under_way_counts_as_the_last_one(monkeypatch):
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_WORK", 10.0)  # bounds of the same ratio
    monkeypatch.setattr(tc, "GUARANTEE_CHECK_SLOW_WORK", 20.0)
    # between solves: due when the next solve, as long as the last, would pass the slow clock;
    # inside one: the same with the solve under way's own length so far
    assert not tc.guarantee_check_due(12.0, 2, 1.0)
    assert tc.guarantee_check_due(12.0, 2, 8.0)
    assert not tc.guarantee_check_due(9.0, 2, 30.0)  # never before GUARANTEE_CHECK_WORK
