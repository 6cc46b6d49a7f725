"""The solver policy: MOSEK only when licensed, certificates decide acceptance, clear input errors.

Two kinds of stand-ins are used: a scripted problem (each solver "returns" a given status, or
raises) for the acceptance logic, and a real cvxpy model whose Clarabel answer is degraded to
``optimal_inaccurate`` (optionally with spoiled multipliers) to let the formulation's real
certificate decide.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from dualboost import solvers
from dualboost.api import run
from dualboost.engine import boost
from dualboost.errors import DualBoostInputError, SolverFailure
from dualboost.oracles import make_oracle
from dualboost.solvers import (
    EXP_ORDER,
    LP_ORDER,
    SOLVER_OPTIONS,
    available_solvers,
    mosek_usable,
    solve,
    solver_order,
)
from formulations.erlpboost import ERLPBoost
from formulations.lpboost import LPBoost

REAL_SOLVE = cp.Problem.solve


def clear_solver_caches():
    mosek_usable.cache_clear()
    lookup = getattr(solvers, "installed", None)  # cached cp.installed_solvers(), if any
    if lookup is not None and hasattr(lookup, "cache_clear"):
        lookup.cache_clear()


@pytest.fixture
def fresh_mosek_probe():
    """mosek_usable (and the solver lookup) are lru_cached: clear them around every test that
    changes what they see, so that the patched and the real answers never leak."""
    clear_solver_caches()
    yield
    clear_solver_caches()


@pytest.fixture
def small():
    rng = np.random.default_rng(3)
    return rng.uniform(-1.0, 1.0, (12, 4))


def installed_plus_mosek():
    real = [s for s in cp.installed_solvers() if s != "MOSEK"]
    return lambda: real + ["MOSEK"]


# --- the real, unlicensed MOSEK ----------------------------------------------------------------


def test_pip_installed_mosek_without_licence_is_skipped(fresh_mosek_probe, small):
    pytest.importorskip("mosek", reason="MOSEK is not installed in this environment")
    if "MOSEK" not in cp.installed_solvers():
        pytest.skip("mosek imports but cvxpy does not list it")
    # the probe must find no licence (the venv has none; a licensed machine would fail here)
    assert mosek_usable() is False
    assert "MOSEK" not in solver_order("exp") and "MOSEK" not in solver_order("lp")
    assert "MOSEK" not in available_solvers()
    for F in (ERLPBoost, LPBoost):
        f = F(12, nu=3.0)
        model = f.primal(small)
        record = solve(model.problem, f.kind)
        assert record.status == cp.OPTIMAL
        assert all(a.solver != "MOSEK" for a in record.attempts)
        assert record.solver == (EXP_ORDER if F is ERLPBoost else LP_ORDER)[0]
    model = ERLPBoost(12, nu=3.0).primal(small)
    with pytest.raises(DualBoostInputError, match=r"MOSEK.*licen[cs]e"):
        solve(model.problem, "exp", solver="MOSEK")
    with pytest.raises(DualBoostInputError, match=r"licen[cs]e"):
        solve(model.problem, "exp", solver="mosek")
    # end to end: the API reports bad input, it does not crash inside the solver
    with pytest.raises(DualBoostInputError, match=r"licen[cs]e"):
        run(None, np.ones(12), hypotheses=small, formulation="erlpboost", solver="MOSEK")


# --- simulated MOSEK: the probe decides --------------------------------------------------------


@pytest.mark.parametrize("error", [cp.error.SolverError("MOSEK: license file not found"),
                                   RuntimeError("rescode.err_missing_license_file(1008)")],
                         ids=["solver_error", "other_exception"])
def test_mosek_listed_but_probe_raising_is_not_usable(monkeypatch, fresh_mosek_probe, error):
    probes = []

    def fake_solve(self, *args, solver=None, **kwargs):
        if solver == "MOSEK":
            probes.append(solver)
            raise error
        return REAL_SOLVE(self, *args, solver=solver, **kwargs)

    monkeypatch.setattr(cp, "installed_solvers", installed_plus_mosek())
    monkeypatch.setattr(cp.Problem, "solve", fake_solve)
    assert mosek_usable() is False
    assert probes == ["MOSEK"]
    assert "MOSEK" not in solver_order("exp") and "MOSEK" not in solver_order("lp")
    assert "MOSEK" not in available_solvers()
    with pytest.raises(DualBoostInputError, match="licen"):
        solver_order("lp", "MOSEK")
    mosek_usable()
    assert probes == ["MOSEK"]  # cached: probed once


def test_mosek_listed_and_probe_succeeding_goes_first(monkeypatch, fresh_mosek_probe, small):
    calls = []

    def fake_solve(self, *args, solver=None, **kwargs):
        calls.append(solver)
        if solver == "MOSEK":  # a "licensed MOSEK" that is really Clarabel
            kwargs = {k: v for k, v in kwargs.items() if k in SOLVER_OPTIONS["CLARABEL"]}
            return REAL_SOLVE(self, *args, solver="CLARABEL", **kwargs)
        return REAL_SOLVE(self, *args, solver=solver, **kwargs)

    monkeypatch.setattr(cp, "installed_solvers", installed_plus_mosek())
    monkeypatch.setattr(cp.Problem, "solve", fake_solve)
    assert mosek_usable() is True
    real = cp.installed_solvers()
    assert solver_order("exp") == ["MOSEK"] + [s for s in EXP_ORDER if s in real]
    assert solver_order("lp") == ["MOSEK"] + [s for s in LP_ORDER if s in real]
    assert available_solvers()[0] == "MOSEK"
    assert solver_order("exp", "mosek") == ["MOSEK"]
    calls.clear()
    model = ERLPBoost(12, nu=3.0).primal(small)
    record = solve(model.problem, "exp")
    assert calls == ["MOSEK"] and record.solver == "MOSEK"
    assert [a.solver for a in record.attempts] == ["MOSEK"]


def test_mosek_not_installed_is_not_probed(monkeypatch, fresh_mosek_probe):
    probes = []

    def fake_solve(self, *args, solver=None, **kwargs):
        probes.append(solver)
        return REAL_SOLVE(self, *args, solver=solver, **kwargs)

    monkeypatch.setattr(cp, "installed_solvers",
                        lambda: [s for s in ("HIGHS", "CLARABEL", "ECOS", "SCS")])
    monkeypatch.setattr(cp.Problem, "solve", fake_solve)
    assert mosek_usable() is False and probes == []
    with pytest.raises(DualBoostInputError, match="MOSEK"):
        solver_order("exp", "MOSEK")


# --- acceptance: statuses and certificates -----------------------------------------------------


class ScriptedProblem:
    """Stands in for a cvxpy problem: each solver returns a scripted status or raises."""

    def __init__(self, script: dict):
        self.script = script
        self.calls: list[tuple[str, dict]] = []
        self.status = None

    def solve(self, solver=None, **options):
        self.calls.append((solver, options))
        outcome = self.script[solver]
        if isinstance(outcome, BaseException):
            raise outcome
        self.status = outcome

    @property
    def solvers_called(self):
        return [name for name, _ in self.calls]


def test_optimal_inaccurate_accepted_when_certificate_passes():
    problem = ScriptedProblem({"CLARABEL": cp.OPTIMAL_INACCURATE, "ECOS": cp.OPTIMAL})
    record = solve(problem, "exp", order=["CLARABEL", "ECOS"], certify=lambda: True)
    assert record.solver == "CLARABEL" and record.status == cp.OPTIMAL_INACCURATE
    assert problem.solvers_called == ["CLARABEL"]
    assert problem.calls[0][1] == SOLVER_OPTIONS["CLARABEL"]  # the policy's tolerances are used
    assert [(a.solver, a.status, a.message) for a in record.attempts] == [
        ("CLARABEL", cp.OPTIMAL_INACCURATE, "")]


def test_failing_certificate_moves_on_to_the_next_solver():
    problem = ScriptedProblem({"CLARABEL": cp.OPTIMAL_INACCURATE, "ECOS": cp.OPTIMAL_INACCURATE,
                               "SCS": cp.OPTIMAL})
    certified = []

    def certify():  # passes only for what SCS returned
        certified.append(problem.solvers_called[-1])
        return problem.solvers_called[-1] == "SCS"

    record = solve(problem, "exp", order=["CLARABEL", "ECOS", "SCS"], certify=certify)
    assert certified == ["CLARABEL", "ECOS", "SCS"]
    assert record.solver == "SCS" and record.status == cp.OPTIMAL
    assert [a.solver for a in record.attempts] == ["CLARABEL", "ECOS", "SCS"]
    assert [a.status for a in record.attempts] == [cp.OPTIMAL_INACCURATE] * 2 + [cp.OPTIMAL]
    assert all("certificate failed" in a.message for a in record.attempts[:2])
    assert record.attempts[2].message == ""
    assert all(a.seconds >= 0 for a in record.attempts)


def test_without_certificate_only_optimal_is_accepted():
    problem = ScriptedProblem({"CLARABEL": cp.OPTIMAL_INACCURATE, "ECOS": cp.OPTIMAL})
    record = solve(problem, "exp", order=["CLARABEL", "ECOS"])
    assert record.solver == "ECOS"
    assert [(a.solver, a.status) for a in record.attempts] == [
        ("CLARABEL", cp.OPTIMAL_INACCURATE), ("ECOS", cp.OPTIMAL)]


def test_optimal_with_failing_certificate_is_rejected_too():
    problem = ScriptedProblem({"HIGHS": cp.OPTIMAL, "CLARABEL": cp.OPTIMAL})
    record = solve(problem, "lp", order=["HIGHS", "CLARABEL"],
                   certify=lambda: problem.solvers_called[-1] == "CLARABEL")
    assert record.solver == "CLARABEL"
    assert "certificate failed" in record.attempts[0].message


def test_errors_and_bad_statuses_move_on_without_certifying():
    problem = ScriptedProblem({
        "MOSEK": RuntimeError("rescode.err_missing_license_file(1008): License cannot be located"),
        "HIGHS": cp.error.SolverError("Solver 'HIGHS' failed.\nsecond line"),
        "CLARABEL": cp.INFEASIBLE,
        "ECOS": cp.USER_LIMIT,
        "SCS": cp.OPTIMAL,
    })
    certified = []
    record = solve(problem, "lp", order=["MOSEK", "HIGHS", "CLARABEL", "ECOS", "SCS"],
                   certify=lambda: certified.append(problem.solvers_called[-1]) or True)
    assert certified == ["SCS"]  # the certificate is consulted for optimal statuses only
    assert record.solver == "SCS"
    attempts = {a.solver: a for a in record.attempts}
    assert attempts["MOSEK"].status == "solver_error"
    assert attempts["MOSEK"].message.startswith("RuntimeError: rescode.err_missing_license_file")
    assert attempts["HIGHS"].status == "solver_error"
    assert attempts["HIGHS"].message == "Solver 'HIGHS' failed."  # first line only
    assert attempts["CLARABEL"].status == cp.INFEASIBLE
    assert attempts["ECOS"].status == cp.USER_LIMIT


def test_all_solvers_failing_raises_solver_failure_listing_attempts():
    problem = ScriptedProblem({"CLARABEL": cp.OPTIMAL_INACCURATE,
                               "ECOS": cp.error.SolverError("Solver 'ECOS' failed."),
                               "SCS": cp.INFEASIBLE_INACCURATE})
    with pytest.raises(SolverFailure) as info:
        solve(problem, "exp", order=["CLARABEL", "ECOS", "SCS"], certify=lambda: False)
    failure = info.value
    assert [(a.solver, a.status) for a in failure.attempts] == [
        ("CLARABEL", cp.OPTIMAL_INACCURATE), ("ECOS", "solver_error"),
        ("SCS", cp.INFEASIBLE_INACCURATE)]
    message = str(failure)
    for text in ("CLARABEL: optimal_inaccurate certificate failed", "ECOS: solver_error",
                 "SCS: infeasible_inaccurate"):
        assert text in message
    assert not isinstance(failure, DualBoostInputError)  # a solver problem, not bad input


def test_default_order_is_the_policy_order():
    everything = {name: cp.INFEASIBLE for name in set(LP_ORDER + EXP_ORDER) | {"MOSEK"}}
    for kind in ("lp", "exp"):
        problem = ScriptedProblem(everything)
        with pytest.raises(SolverFailure):
            solve(problem, kind)
        assert problem.solvers_called == solver_order(kind)
        assert problem.solvers_called[0] == ("HIGHS" if kind == "lp" else "CLARABEL")


class DegradedClarabel:
    """A real cvxpy problem whose Clarabel answers are reported ``optimal_inaccurate``.

    With ``spoil`` the multipliers w of the edge constraints are replaced by uniform weights,
    as a sloppy solver might return them; the real certificate must then reject the answer.
    """

    def __init__(self, model, spoil: bool):
        self.model, self.spoil, self.status = model, spoil, None

    def solve(self, solver=None, **options):
        self.model.problem.solve(solver=solver, **options)
        self.status = self.model.problem.status
        if solver == "CLARABEL" and self.status == cp.OPTIMAL:
            self.status = cp.OPTIMAL_INACCURATE
            if self.spoil:
                edge = self.model.constraints["w"]
                t = edge.shape[0]
                edge.save_dual_value(np.full(t, 1.0 / t))


@pytest.mark.parametrize("spoil", [False, True], ids=["accurate", "spoiled"])
def test_real_certificate_decides_on_optimal_inaccurate(small, spoil):
    f = ERLPBoost(12, nu=3.0, eps=0.1)
    model = f.primal(small)
    problem = DegradedClarabel(model, spoil)
    gaps = []

    def certify():
        gaps.append(f.certify(small, model.multipliers().w, model.d.value).gap)
        return gaps[-1] <= 1e-7

    record = solve(problem, "exp", certify=certify)
    if spoil:
        assert gaps[0] > 1e-3  # uniform w is far from optimal on this instance
        assert record.solver == "ECOS" and record.status == cp.OPTIMAL
        assert [a.solver for a in record.attempts] == ["CLARABEL", "ECOS"]
        assert "certificate failed" in record.attempts[0].message
    else:
        assert record.solver == "CLARABEL" and record.status == cp.OPTIMAL_INACCURATE
        assert len(record.attempts) == 1
    assert gaps[-1] <= 1e-7


# --- forcing solvers ---------------------------------------------------------------------------


def test_forcing_highs_on_an_exponential_cone_model(small):
    model = ERLPBoost(12, nu=3.0).primal(small)
    for name in ("HIGHS", "highs"):
        with pytest.raises(DualBoostInputError, match="HIGHS cannot solve exponential-cone models"):
            solve(model.problem, "exp", solver=name)
    oracle = make_oracle("finite", hypotheses=small).fit(None, np.ones(12))
    with pytest.raises(DualBoostInputError, match="HIGHS"):
        boost(ERLPBoost(12, nu=3.0), oracle, solver="HIGHS", kkt=False)
    # HIGHS on the LP is fine, and a forced solver is the only one tried
    lp = LPBoost(12, nu=3.0).primal(small)
    record = solve(lp.problem, "lp", solver="highs")
    assert record.solver == "HIGHS" and [a.solver for a in record.attempts] == ["HIGHS"]


def test_forcing_a_solver_that_is_not_installed(small):
    missing = next(name for name in ("GUROBI", "CPLEX", "XPRESS", "NO_SUCH_SOLVER")
                   if name not in cp.installed_solvers())
    model = ERLPBoost(12, nu=3.0).primal(small)
    with pytest.raises(DualBoostInputError, match=f"{missing}.*not installed; available: ") as info:
        solve(model.problem, "exp", solver=missing)
    assert "CLARABEL" in str(info.value)
    with pytest.raises(DualBoostInputError, match="not installed"):
        run(None, np.ones(12), hypotheses=small, formulation="lpboost", solver="no_such_solver")


def test_forcing_an_installed_solver_uses_it_alone(small):
    model = ERLPBoost(12, nu=3.0).primal(small)
    record = solve(model.problem, "exp", solver="ecos")
    assert record.solver == "ECOS" and [a.solver for a in record.attempts] == ["ECOS"]


@pytest.mark.parametrize("name", ["OSQP", "SCIPY"])
def test_forcing_an_lp_only_solver_on_an_exponential_cone_model(small, name):
    if name not in cp.installed_solvers():
        pytest.skip(f"{name} is not installed")
    model = ERLPBoost(12, nu=3.0).primal(small)
    with pytest.raises(DualBoostInputError):
        solve(model.problem, "exp", solver=name)


def test_unknown_model_kind():
    with pytest.raises(ValueError, match="unknown model kind"):
        solver_order("qp")
