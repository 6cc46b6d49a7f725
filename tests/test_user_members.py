"""Members written from docs/ alone pass the verifier; the verifier's verdicts blame the
formulation only for the formulation (issue: a correct member passes, a wrong one fails).

tests/members/ holds members written the way docs/theory.md ("What a member declares") says:
four declarations (R, R*, sigma, B) and nothing else. Their cones are read off the models; a
solver that cannot reach the accuracy asked makes a row ``undecided``, never a FAIL.
"""

from __future__ import annotations

import json
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest

from dualboost.errors import SolverFailure
from dualboost.registry import load_formulation
from dualboost.regularized import declared_cones
from dualboost.solvers import Attempt, needed_cones, undecided
from dualboost.verify import main
from dualboost.verify.checks import FAIL, UNDECIDED, guarded

MEMBERS = Path(__file__).parent / "members"
CORRECT = ("hellinger_no_cones", "power32", "tsallis32")


def verify_json(path: Path, tmp_path: Path, *extra: str) -> tuple[int, dict]:
    out = tmp_path / "report.json"
    code = main(["--formulation", str(path), "--json", str(out), *extra])
    return code, json.loads(out.read_text())


@pytest.mark.parametrize("name", CORRECT)
def test_correct_member_from_the_docs_passes_the_default_verify(name, tmp_path):
    code, report = verify_json(MEMBERS / f"{name}.py", tmp_path)
    failing = [(r["id"], r["case"], r["detail"][:200]) for r in report["checks"]
               if r["status"] == FAIL]
    assert code == 0 and not failing, failing
    assert report["counts"]["pass"] >= 100, report["counts"]


@pytest.mark.parametrize("name, cone", [("hellinger_no_cones", "soc"), ("power32", "soc"),
                                        ("tsallis32", "pow")])
def test_cones_are_read_off_the_models(name, cone):
    cls = load_formulation(str(MEMBERS / f"{name}.py"))
    assert declared_cones(cls) is None  # the member declares none ...
    f = cls(20, nu=4)
    assert cone in f.capabilities.cones  # ... and gets the ones its models need
    assert "exp" not in f.capabilities.cones  # not the family base's placeholder


def test_a_quadratic_member_is_not_sent_to_an_lp_solver():
    """chi^2 canonicalizes to a QP for Clarabel; HiGHS would get it as a QP if the derivation
    read only the cones (a hang seen on the verifier's D3)."""
    f = load_formulation("docs/examples/chi2.py")(12, nu=3)
    assert f.kind == "exp" and "soc" in f.capabilities.cones


def test_a_subclass_writing_its_own_r_inherits_no_cones(tmp_path):
    path = tmp_path / "l2_on_erlpboost.py"
    path.write_text(
        "import cvxpy as cp\n"
        "from formulations.erlpboost import ERLPBoost\n\n\n"
        "class L2(ERLPBoost):\n"
        "    name = 'l2_on_erlpboost'\n"
        "    fast_paths = ()\n\n"
        "    def regularizer(self, d):\n"
        "        return cp.sum_squares(d - self.d0) / 2\n\n"
        "    def conjugate(self, y):\n"
        "        return cp.sum(cp.square(cp.pos(y + self.d0))) / 2 - (self.d0 @ self.d0) / 2\n\n"
        "FORMULATION = L2\n")
    cls = load_formulation(str(path))
    assert declared_cones(cls) is None  # ERLPBoost's ("exp",) was declared for another R
    assert "exp" not in cls(10, nu=2).capabilities.cones


def test_a_wrong_cone_declaration_still_fails_p2(tmp_path):
    source = (MEMBERS / "hellinger_no_cones.py").read_text().replace(
        '    name = "hell_user"\n', '    name = "hell_user"\n    cones = ("exp",)\n')
    path = tmp_path / "hellinger_wrong_cones.py"
    path.write_text(source)
    code, report = verify_json(path, tmp_path, "--instances", "quick")
    p2 = [r for r in report["checks"] if r["id"] == "P2" and r["status"] == FAIL]
    assert code == 1 and p2 and "soc missing" in p2[0]["detail"]


def test_needed_cones_of_small_models():
    x = cp.Variable(3, nonneg=True)
    assert needed_cones(cp.Problem(cp.Minimize(cp.sum(x)), [cp.sum(x) == 1])) == set()
    assert needed_cones(cp.Problem(cp.Minimize(-cp.sum(cp.entr(x))), [cp.sum(x) == 1])) == {"exp"}
    assert needed_cones(cp.Problem(cp.Minimize(cp.sum_squares(x)), [cp.sum(x) == 1])) == {"soc"}
    assert "pow" in needed_cones(cp.Problem(cp.Minimize(cp.sum(cp.power(x, 1.5, approx=False))),
                                            [cp.sum(x) == 1]))


# -- undecided: a solver's shortfall is not the formulation's failure ------------------------

def _failure(*attempts: Attempt) -> SolverFailure:
    return SolverFailure("no solver produced an accepted solution", list(attempts))


@pytest.mark.parametrize("attempts, expected", [
    ((Attempt("CLARABEL", "optimal_inaccurate", 0.1), Attempt("ECOS", "optimal_inaccurate", 0.1),
      Attempt("SCS", "user_limit", 0.1)), True),
    ((Attempt("CLARABEL", "optimal_inaccurate", 0.1), Attempt("SCS", "infeasible", 0.1)), False),
    ((Attempt("CLARABEL", "solver_error", 0.1, "DCPError: not DCP", raised="DCPError"),), False),
    ((Attempt("CLARABEL", "optimal", 0.1, "certificate failed (primal-dual gap above "
                                          "tolerance)"),), False),
    ((), False),
])
def test_undecided_only_when_no_solver_reached_the_accuracy(attempts, expected):
    assert undecided(_failure(*attempts)) is expected


def test_a_check_whose_reference_solve_is_undecided_is_not_a_fail():
    def shortfall():
        raise _failure(Attempt("CLARABEL", "optimal_inaccurate", 0.1),
                       Attempt("SCS", "optimal_inaccurate", 0.1))

    def infeasible():
        raise _failure(Attempt("CLARABEL", "infeasible", 0.1))

    row = guarded("C4", "best response", "docs/theory.md C4", shortfall)
    assert row.status == UNDECIDED and "not a formulation failure" in row.detail
    assert "CLARABEL: optimal_inaccurate" in row.detail
    assert guarded("C4", "best response", "docs/theory.md C4", infeasible).status == FAIL


def test_undecided_rows_do_not_make_the_verifier_exit_1(tmp_path, monkeypatch):
    """Every reference solve of the fixed-w dual falls short (a solver we script): the rows that
    need it are undecided, the exit status is 0, and no row FAILs."""
    import dualboost.formulation as formulation_module
    from dualboost import solvers

    real = solvers.solve

    def short(problem, kind, **kw):
        if kw.get("accept_inaccurate") is not None:  # the fixed-w reference solves
            raise _failure(Attempt("CLARABEL", "optimal_inaccurate", 0.0),
                           Attempt("SCS", "optimal_inaccurate", 0.0))
        return real(problem, kind, **kw)

    monkeypatch.setattr(solvers, "solve", short)
    assert formulation_module  # _solve_dual_fixing imports solve from dualboost.solvers
    code, report = verify_json(MEMBERS / "power32.py", tmp_path, "--instances", "quick")
    statuses = {r["status"] for r in report["checks"]}
    assert UNDECIDED in statuses and report["counts"][UNDECIDED] > 0
    assert report["counts"][FAIL] == 0 and code == 0


def test_reduced_accuracy_answer_is_taken_on_its_exact_bracket(monkeypatch):
    """An optimal_inaccurate fixed-w solve whose answer is in fact exact is accepted (the
    Lagrangian bracket closes); one whose answer is off is not."""
    from dualboost import solvers

    cls = load_formulation(str(MEMBERS / "power32.py"))
    rng = np.random.default_rng(0)
    U = rng.choice([-1.0, 1.0], size=(12, 4))
    f = cls(12, nu=3)
    w = np.full(4, 0.25)
    exact = f.best_response_reference(U, w).dual_value
    real = solvers.solve
    verdicts = []

    def inaccurate(problem, kind, **kw):
        record = real(problem, kind)
        check = kw.get("accept_inaccurate")
        if check is not None:
            verdicts.append(bool(check()))
            saved = [(v, v.value) for v in problem.variables()]
            for v, value in saved:  # an answer off by 5 % is refused
                v.value = np.asarray(value) * 1.05 + 0.01
            verdicts.append(bool(check()))
            for v, value in saved:
                v.value = value
        return record

    monkeypatch.setattr(solvers, "solve", inaccurate)
    value = f.best_response_reference(U, w).dual_value
    assert verdicts == [True, False] and abs(value - exact) < 1e-7


def test_a_conjugate_domain_that_contradicts_r_star_fails_its_own_row(tmp_path):
    """A declared domain bound beyond where R* is finite is named by a P2 row (not only by rows
    that raise); the right bound passes it."""
    good = tmp_path / "hellinger_domain.py"  # the Hellinger member with its optional bound
    good.write_text((MEMBERS / "hellinger_no_cones.py").read_text().replace(
        "    def modulus(self):", "    def conjugate_domain(self):\n        return 1.0\n\n"
        "    def modulus(self):"))
    code, report = verify_json(good, tmp_path, "--instances", "quick")
    rows = [r for r in report["checks"] if "conjugate_domain" in r["label"]]
    assert code == 0 and rows and rows[0]["status"] == "pass"
    wrong = tmp_path / "hellinger_domain_wrong.py"
    wrong.write_text(good.read_text().replace("return 1.0\n", "return 2.0\n"))
    code, report = verify_json(wrong, tmp_path, "--instances", "quick")
    rows = [r for r in report["checks"] if "conjugate_domain" in r["label"]]
    assert code == 1 and rows[0]["status"] == FAIL
    assert "conjugate_domain() = 2" in rows[0]["detail"]
