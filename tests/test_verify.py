"""The verifier (``python -m dualboost.verify``): shipped formulations pass the quick preset, and
hand-made wrong variants fail with the catalogue check id that names the error (docs/theory.md),
not a solver row; a check that raises becomes a FAIL row; the JSON is always written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import formulations
from dualboost.algorithms import available_algorithms
from dualboost.registry import available_formulations, load_formulation
from dualboost.verify import main

FORMULATIONS = Path(formulations.__file__).parent


def run(tmp_path, *argv) -> tuple[int, dict]:
    out = tmp_path / "verify.json"
    code = main([*argv, "--json", str(out)])
    return code, json.loads(out.read_text())


def failing_ids(report: dict) -> set[str]:
    return {row["id"] for row in report["checks"] if row["status"] == "FAIL"}


def variant(tmp_path, source: str, old: str, new: str, name: str) -> Path:
    text = (FORMULATIONS / source).read_text()
    assert text.count(old) == 1, f"{old!r} must occur once in formulations/{source}"
    path = tmp_path / f"{name}.py"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize("name", available_formulations())
def test_every_shipped_formulation_passes_quick(tmp_path, name):
    code, report = run(tmp_path, "--formulation", name, "--instances", "quick")
    bad = [(r["id"], r["case"], r["detail"]) for r in report["checks"] if r["status"] == "FAIL"]
    assert code == 0 and not bad, bad
    ids = {r["id"] for r in report["checks"] if r["status"] == "pass"}
    # G1 (the soft margin against the whole class) only where the formulation promises one;
    # seed 002's CG algorithms certify their own problem over the whole class instead (CG2)
    promised = getattr(load_formulation(name), "promises_soft_margin", True)
    default = load_formulation(name).default_algorithm
    if default in available_algorithms():
        assert {"D1", "D2", "K1", "K2", "A1"} <= ids
        assert not promised or "G1" in ids or "CG2" in ids
    else:  # seed 001's non-LP relaxations default to Figure 1 ('sss'), a separate module
        assert {"D1", "D2", "K1", "K2"} <= ids
        assert any(r["id"] == "setup" and f"unknown algorithm {default!r}" in r["detail"]
                   for r in report["checks"])
    # n/a rows carry their reason
    assert all(r["detail"] for r in report["checks"] if r["status"] == "n/a")


def test_json_metadata_and_row_schema(tmp_path):
    code, report = run(tmp_path, "--formulation", "erlpboost", "--instances", "quick")
    assert code == 0
    assert report["dualboost_version"]
    assert set(report["counts"]) == {"pass", "FAIL", "n/a", "undecided"}
    assert report["counts"]["pass"] == sum(r["status"] == "pass" for r in report["checks"])
    duality = [c for c in report["cases"] if c["kind"] == "duality"]
    assert duality and all(c["d0_uniform"] is False for c in duality)
    for case in report["cases"]:
        assert {"instance", "case", "formulation", "N", "t", "nu", "eps", "eta", "d0_uniform",
                "seed"} <= set(case)
        if case["kind"] != "identity":  # the identities erlpboost states run beside it
            assert case["eta"] > 0
    # the quick preset is built so that the caps bind at nu = 3.5
    assert any(c["caps_bind"] for c in duality)
    for row in report["checks"]:
        assert {"id", "label", "reference", "value", "tolerance", "status", "detail"} <= set(row)
        if row["id"] not in ("solver", "setup", "claims"):
            assert row["reference"].startswith("docs/theory.md " + row["id"]), row
        assert "spec" not in row["reference"]
    ids = {r["id"] for r in report["checks"]}
    assert {"D1", "D2", "D3", "D4", "K1", "K2", "C1", "C2", "C3", "C4", "C5", "F1", "R1", "R2",
            "R3", "A1", "A2", "T2", "T4", "E11", "G1"} <= ids


def test_sign_slip_in_the_lp_dual_fails_duality(tmp_path):
    """psi enters the dual constraint with the wrong sign: the dual is no longer (2.2)."""
    path = variant(tmp_path, "lpboost.py", "[U @ w + slack + beta >= 0,",
                   "[U @ w - slack + beta >= 0,", "lp_psi_sign")
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    assert failing_ids(report) & {"D1", "D2", "D3", "K2"}, failing_ids(report)


def test_wrong_conjugate_fails_f1_and_duality(tmp_path):
    """R*(y) = sum d0 exp(y) (missing the -1 of thesis (3.14)) in the cvxpy expression."""
    path = variant(tmp_path, "erlpboost.py", "return self.d0 @ cp.exp(y - 1)",
                   "return self.d0 @ cp.exp(y)", "er_conjugate")
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    ids = failing_ids(report)
    assert "F1" in ids and ids & {"D2", "D3"}, ids
    assert "solver" not in ids


def test_wrong_range_bound_fails_r1(tmp_path):
    """B = ln(N/nu)/2 is below the regularizer's value at a vertex."""
    path = variant(tmp_path, "erlpboost.py",
                   "return math.log(1.0 / (self.nu * float(np.min(self.d0))))",
                   "return 0.5 * math.log(1.0 / (self.nu * float(np.min(self.d0))))",
                   "er_range")
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    assert "R1" in failing_ids(report), failing_ids(report)


def test_wrong_optimal_beta_fails_c3(tmp_path):
    """(3.16) without its -1/eta."""
    path = variant(tmp_path, "erlpboost.py",
                   "return float((-1.0 + logsumexp(-self.eta * s, b=self.d0)) / self.eta)",
                   "return float(logsumexp(-self.eta * s, b=self.d0) / self.eta)", "er_beta")
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    ids = failing_ids(report)
    assert "C3" in ids and "solver" not in ids, ids


def test_stated_iteration_bound_is_compared_r3(tmp_path):
    """A class stating its own bound gets it compared with the theory's (T4)."""
    path = variant(tmp_path, "erlpboost.py", "    def modulus(self):\n",
                   "    def iteration_bound(self, eps, eta, stopping):\n"
                   "        return 8 * eta / eps\n\n    def modulus(self):\n", "er_bound")
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    assert "R3" in failing_ids(report), failing_ids(report)


def test_a_check_that_raises_is_a_fail_row_and_json_is_written(tmp_path):
    path = variant(tmp_path, "erlpboost.py", "    def conjugate_gradient(self, y):\n",
                   "    def conjugate_gradient(self, y):\n"
                   "        raise ZeroDivisionError('planted')\n", "er_raises")
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    rows = [r for r in report["checks"] if r["status"] == "FAIL"]
    assert any("ZeroDivisionError: planted" in r["detail"] for r in rows)
    assert report["counts"]["FAIL"] == len(rows)


def test_bad_arguments_exit_2_with_one_line(capsys):
    assert main(["--instances", "nope"]) == 2
    assert main(["--instances", "worst_case:7"]) == 2  # the instance needs an even N
    assert main(["--instances", "random:x"]) == 2
    assert main(["--tol", "-1"]) == 2
    assert main(["--formulation", "no_such_formulation"]) == 2
    assert main(["--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert all(line.startswith("python -m dualboost.verify: error:")
               for line in err.strip().splitlines())


def test_nu_equal_n_is_not_applicable_for_the_binary_entropy(tmp_path):
    """The binary relative entropy needs nu < N: a n/a row with the reason, not a crash."""
    import numpy as np

    from dualboost.registry import load_formulation
    from dualboost.verify import verify
    from dualboost.verify.instances import DualityCase, Instance

    U = np.random.default_rng(1).uniform(-1, 1, size=(6, 3))
    instance = Instance("tiny", [DualityCase("nu=N", U, 6.0)], [])
    rows, cases = verify([load_formulation("binary_erlpboost")], [instance])
    tiny = [r for r in rows if r.instance == "tiny"]
    assert [r.status for r in tiny] == ["n/a"] and "nu" in tiny[0].detail
    assert [c["status"] for c in cases if c["instance"] == "tiny"] == ["n/a"]


@pytest.mark.parametrize("nu", [1.0, 7.5, 30.0])
def test_full_class_lp_by_constraint_generation_equals_the_direct_lp(nu):
    """G1's whole-class LP (constraint generation, 20 columns a round) against scipy's HiGHS
    on the full LP (2.3) at once, on a pool large enough to need several rounds."""
    from scipy.optimize import linprog

    from dualboost.verify.checks import full_class_lp_value

    rng = np.random.default_rng(11)
    N, K = 60, 900
    columns = np.sign(rng.normal(size=(N, K))) * rng.uniform(0.2, 1.0, size=(N, K))
    lower, upper = full_class_lp_value(columns, nu)
    # variables (d, gamma): min gamma s.t. U^T d - gamma <= 0, sum d = 1, 0 <= d <= 1/nu
    cost = np.append(np.zeros(N), 1.0)
    A_ub = np.hstack([columns.T, -np.ones((K, 1))])
    A_eq = np.append(np.ones(N), 0.0)[None, :]
    direct = linprog(cost, A_ub=A_ub, b_ub=np.zeros(K), A_eq=A_eq, b_eq=[1.0],
                     bounds=[(0, 1.0 / nu)] * N + [(None, None)], method="highs")
    assert direct.status == 0
    assert lower <= direct.fun + 1e-9 <= upper + 2e-9
    assert abs(lower - direct.fun) <= 1e-8


# -- M1: the fast master against the reference path -------------------------------------------
def _m1(f, U):
    from dualboost.verify.checks import DualityChecks

    value, tolerance, ok, detail = DualityChecks(f, U, 1e-6).m1()
    return ok, detail


def test_m1_passes_the_shipped_fast_masters():
    from formulations.erlpboost import ERLPBoost
    from formulations.lpboost import LPBoost

    U = np.sign(np.random.default_rng(4).normal(size=(30, 6)))
    for f in (LPBoost(30, nu=6.0), ERLPBoost(30, nu=6.0, eps=0.1)):
        ok, detail = _m1(f, U)
        assert ok, detail


def test_m1_fails_a_master_that_solves_another_problem(monkeypatch):
    """A warm HiGHS master that drops the caps (solves nu = 1) still returns a certificate, but
    not of this problem's optimum: M1 must fail it."""
    from dualboost.masters.highs_lp import HighsLPMaster
    from formulations.lpboost import LPBoost

    U = np.sign(np.random.default_rng(5).normal(size=(30, 6)))
    f = LPBoost(30, nu=6.0)

    def no_caps(self):
        master = HighsLPMaster(self)
        master.caps, master.nu = False, 1.0
        return master

    monkeypatch.setattr(LPBoost, "fast_master", no_caps)
    ok, detail = _m1(f, U)
    assert ok is False, detail


def test_m1_not_applicable_without_a_fast_master():
    import cvxpy as cp

    from formulations.erlpboost_tsallis import TsallisERLPBoost

    class Opaque(TsallisERLPBoost):  # R through an index: not compiled, so no fast master
        name = "opaque_tsallis"

        def regularizer(self, d):
            return super().regularizer(cp.hstack([d[i] for i in range(self.N)]))

    U = np.sign(np.random.default_rng(6).normal(size=(12, 4)))
    ok, detail = _m1(Opaque(12, nu=3.0, eps=0.2), U)
    assert ok is None and "reference path" in detail


# -- the table, --verbose, progress and run() (issue 9, item 7) -------------------------------
import contextlib  # noqa: E402
import io  # noqa: E402
import re  # noqa: E402

from dualboost.verify.names import short_name  # noqa: E402

#: the JSON schema of the module docstring: these keys, no more and no fewer
REPORT_KEYS = {"dualboost_version", "tol", "seconds", "instances_spec", "cases", "checks",
               "counts"}
ROW_KEYS = {"id", "label", "reference", "value", "tolerance", "status", "detail", "instance",
            "case", "formulation"}
CASE_KEYS = {"instance", "case", "kind", "formulation", "N", "t", "nu", "eps", "eta",
             "d0_uniform", "seed", "caps_bind", "algorithm", "status", "reason"}


def table(tmp_path, *argv) -> tuple[int, list[str], str, dict]:
    """(exit status, stdout lines, stderr, JSON report) of one verifier run."""
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / f"report{len(list(tmp_path.iterdir()))}.json"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*argv, "--json", str(path)])
    return code, out.getvalue().splitlines(), err.getvalue(), json.loads(path.read_text())


def _normalized(text: str) -> str:
    return " ".join(text.split())


def test_default_table_fits_100_columns_one_line_per_row(tmp_path):
    """Every line <= 100 characters, passing and failing runs; each JSON row is one table row
    that starts with its status and id; FAIL details are printed, pass details are not."""
    broken = variant(tmp_path, "erlpboost.py", "return self.d0 @ cp.exp(y - 1)",
                     "return self.d0 @ cp.exp(y)", "er_conjugate")
    for argv in (["--formulation", "erlpboost", "--formulation", "lpboost"],
                 ["--formulation", str(broken)]):
        code, lines, _, report = table(tmp_path, *argv, "--instances", "quick")
        assert lines[-1] == (f"{report['counts']['pass']} passed, {report['counts']['FAIL']} "
                             f"failed, {report['counts']['n/a']} not applicable")
        too_wide = [line for line in lines if len(line) > 100]
        assert not too_wide, too_wide
        row_lines = [line for line in lines if re.match(r"(pass|FAIL|n/a) ", line)]
        assert len(row_lines) == len(report["checks"])
        for line, row in zip(row_lines, report["checks"]):
            assert line.split()[:2] == [row["status"], row["id"]], (line, row)
            name = short_name(row["id"], row["label"])
            assert not name or name.split()[0] in line, (line, name)
        # one block header per (instance, case, formulation), naming all three
        headers = [line for line in lines if line.startswith("== ")]
        expected = [f"== {c['instance']} | {c['case']} | {c['formulation']}"
                    for c in report["cases"]]
        # (a header wider than the table, an identity's title, is cut at a word)
        assert len(headers) == len(expected)
        assert all(e == h or (len(e) > 100 and e.startswith(h)) for h, e in
                   zip(headers, expected)), [(h, e) for h, e in zip(headers, expected) if h != e]
        text = _normalized("\n".join(lines))
        for row in report["checks"]:
            if row["status"] == "FAIL" and row["detail"]:
                # (the JSON appends "[value = inf]" to a detail; the table prints inf as value)
                detail = re.sub(r" \[(value|tolerance) = [^]]*\]$", "", row["detail"])
                assert _normalized(detail) in text, detail
        if code == 0:
            passing = [r["detail"] for r in report["checks"]
                       if r["status"] == "pass" and len(r["detail"]) > 30]
            assert passing and not any(_normalized(d) in text for d in passing)
    assert code == 1 and report["counts"]["FAIL"] > 0


def test_verbose_prints_long_labels_and_json_is_unchanged(tmp_path):
    code, lines, _, report = table(tmp_path, "--formulation", "lpboost", "--instances", "quick")
    code_v, lines_v, _, report_v = table(tmp_path, "--formulation", "lpboost", "--instances",
                                         "quick", "--verbose")
    assert code == code_v == 0
    text, text_v = _normalized("\n".join(lines)), _normalized("\n".join(lines_v))
    for row in report_v["checks"]:
        assert _normalized(row["label"]) in text_v, row["label"]
        assert _normalized(row["detail"]) in text_v, row["detail"]
        assert _normalized(row["reference"]) in text_v
    # the default form does not carry the long labels (they are what --verbose adds)
    assert "at exactly feasible points" not in text
    assert lines_v[-1] == lines[-1]
    # JSON: the documented schema, and the same rows with or without --verbose
    for rep in (report, report_v):
        assert set(rep) == REPORT_KEYS
        assert all(set(row) == ROW_KEYS for row in rep["checks"])
        # the identities a member states (I rows) carry their sides' names and parameters too
        assert all(set(case) == CASE_KEYS or (case["kind"] == "identity"
                                              and CASE_KEYS < set(case)) for case in rep["cases"])
    strip = [(r["id"], r["label"], r["status"], r["instance"], r["case"]) for r in
             report["checks"]]
    assert strip == [(r["id"], r["label"], r["status"], r["instance"], r["case"])
                     for r in report_v["checks"]]


def test_progress_names_the_whole_class_lp_and_the_run(monkeypatch):
    """When the whole-class LP (G1) and the boosting run start, the last progress line names
    that step, with the nu the formulation uses (TotalBoost fixes nu = 1, the case says 2)."""
    import dualboost.engine
    import dualboost.verify as verify_module
    from dualboost.registry import load_formulation
    from dualboost.verify import verify
    from dualboost.verify.instances import instance_by_name

    messages: list[str] = []
    seen: list[tuple[str, str]] = []
    real_lp, real_boost = verify_module.full_class_lp_value, dualboost.engine.boost

    def lp(columns, nu, **kwargs):
        seen.append(("lp", messages[-1]))
        assert f"nu = {nu:g}" in messages[-1]
        return real_lp(columns, nu, **kwargs)

    def boost(*args, **kwargs):
        seen.append(("boost", messages[-1]))
        return real_boost(*args, **kwargs)

    monkeypatch.setattr(verify_module, "full_class_lp_value", lp)
    monkeypatch.setattr(dualboost.engine, "boost", boost)
    instance = instance_by_name("quick")
    instance.cases = []  # the runs only
    verify([load_formulation("lpboost"), load_formulation("totalboost")], [instance],
           log=messages.append)
    steps = [(kind, message.split(": ", 1)[-1]) for kind, message in seen]
    assert [kind for kind, _ in seen] == ["lp", "boost", "lp", "boost"], steps
    for kind, message in seen:
        expected = "LP (2.3) over the whole class" if kind == "lp" else "boosting run"
        assert expected in message, (kind, message)
    assert "nu = 2" in seen[0][1] and "| lpboost:" in seen[0][1]
    assert "nu = 1" in seen[2][1] and "| totalboost:" in seen[2][1]
    assert any("claims of algorithm" in m for m in messages)


def test_run_returns_records_with_the_json_row_keys(tmp_path):
    """verify.run(): one dict per row, the JSON rows' keys, columns buildable without pandas,
    the same rows as the command line's JSON."""
    from dualboost.errors import DualBoostInputError
    from dualboost.verify import run as run_records

    records = run_records("lpboost", instances="quick")
    assert isinstance(records, list) and records and all(isinstance(r, dict) for r in records)
    assert all(set(r) == ROW_KEYS for r in records)
    columns = {key: [r[key] for r in records] for key in records[0]}
    assert set(columns) == ROW_KEYS and {len(v) for v in columns.values()} == {len(records)}
    assert json.loads(json.dumps(records)) == records  # plain values only
    _, report = run(tmp_path, "--formulation", "lpboost", "--instances", "quick")
    assert [(r["id"], r["status"], r["case"]) for r in records] == \
        [(r["id"], r["status"], r["case"]) for r in report["checks"]]
    with pytest.raises(DualBoostInputError):
        run_records("no_such_formulation")
    with pytest.raises(DualBoostInputError):
        run_records("lpboost", instances="nope")


def test_no_passing_formulation_row_exits_1_and_says_why(tmp_path):
    """Nothing checked is not passed: a default outside the schema makes every case n/a; the
    verifier must exit 1 with P1 and the coverage row failing (it printed '0 passed', exit 0)."""
    source = (FORMULATIONS / "erlpboost_tsallis.py").read_text()
    assert source.count("default=0.5, low=0, high=1,") == 1
    path = tmp_path / "bad_default.py"
    path.write_text(source.replace("default=0.5, low=0, high=1,", "default=1.5, low=0, high=1,"))
    code, report = run(tmp_path, "--formulation", str(path), "--instances", "quick")
    assert code == 1
    failing = {r["id"] for r in report["checks"] if r["status"] == "FAIL"}
    assert {"P1", "coverage"} <= failing
    coverage = [r for r in report["checks"] if r["id"] == "coverage"][0]
    assert "q must lie in" in coverage["detail"]


def test_declarations_and_weighted_rows_are_reported(tmp_path):
    """P1, P2 once per formulation; W1 on the weighted case of a formulation declaring
    sample_weight; none of them for one that does not."""
    code, report = run(tmp_path, "--formulation", "lpboost", "--formulation", "erlpboost_l2",
                       "--instances", "quick")
    assert code == 0
    by = {}
    for row in report["checks"]:
        by.setdefault(row["formulation"], set()).add(row["id"])
    assert {"P1", "P2", "W1"} <= by["lpboost"]
    assert {"P1", "P2"} <= by["erlpboost_l2"] and "W1" not in by["erlpboost_l2"]
    weighted = [c for c in report["cases"] if "sample weights" in c["case"]]
    assert [c["formulation"] for c in weighted] == ["lpboost"]


@pytest.mark.parametrize("member", ["l2", "entropy", "power43"])
def test_curvature_search_finds_the_tight_modulus(member):
    """R2's search reaches the true smallest l1 curvature (to 0.5%) and never goes below it:
    (N/2)||d - d0||^2 and the relative entropy have 1; the walkthrough's 4/3-power divergence
    has 1/(3 N^(1/3)), at the uniform distribution (docs/walkthrough_swap_regularizer.md)."""
    from dualboost.verify.modulus import curvature_search

    N, nu = 12, 3.5
    rng = np.random.default_rng(3)
    d0 = rng.uniform(0.5, 1.5, N)
    d0 /= d0.sum()
    if member == "l2":
        def R(d): return N / 2 * float(np.sum((d - d0) ** 2))
        def grad(d): return N * (d - d0)
        sigma = 1.0
    elif member == "entropy":
        def R(d): return float(np.sum(d * np.log(d / d0)))
        def grad(d): return 1.0 + np.log(d / d0)
        sigma = 1.0
    else:
        c0 = np.cbrt(d0)

        def R(d): return float(np.sum(0.75 * d ** (4 / 3) - c0 * d + c0 ** 4 / 4))
        def grad(d): return np.cbrt(d) - c0
        sigma = 1 / (3 * np.cbrt(N))
    starts = [d0, np.full(N, 1.0 / N)] + [rng.dirichlet(np.ones(N)) for _ in range(4)]
    found, where, pairs = curvature_search(R, grad, N, nu, np.full(N, 1 / nu), d0, starts, rng,
                                           budget=2.0)
    assert pairs > 0
    assert sigma * (1 - 1e-6) <= found <= 1.005 * sigma, (found, where)


def test_jobs_share_the_formulations_and_give_the_serial_report(tmp_path):
    """--jobs 2 forks two workers; the rows and cases come back in the serial order, with the
    same verdicts (the default run uses one worker per core)."""
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        code = main(["--formulation", "lpboost", "--formulation", "erlpboost", "--instances",
                     "quick", "--jobs", jobs, "--json", str(out)])
        assert code == 0
        reports.append(json.loads(out.read_text()))
    serial, parallel = reports
    strip = [(r["id"], r["status"], r["instance"], r["case"], r["formulation"])
             for r in serial["checks"]]
    assert strip == [(r["id"], r["status"], r["instance"], r["case"], r["formulation"])
                     for r in parallel["checks"]]
    assert [(c["instance"], c["case"], c["formulation"]) for c in serial["cases"]] == \
        [(c["instance"], c["case"], c["formulation"]) for c in parallel["cases"]]
    assert serial["counts"] == parallel["counts"]
