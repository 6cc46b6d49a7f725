"""Trust every output (issue 19, front end): no output overwrites an input, every output path is
checked before any work, one tie rule for every error, the LIBSVM index base of the training data,
CSV columns matched by name, bounded on binary garbage, one line on Ctrl-C at start-up, --quiet,
one nu default, and the test extra installs what the tests import.

Expected values come from the data themselves (the class counts, the labels that define the
files), never from the output of the code under test.
"""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from dualboost.cli import main

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def _env() -> dict[str, str]:
    """The environment of a child process that imports this checkout's dualboost."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": str(REPO) + (os.pathsep + path if path else "")}


def one_line_error(code: int, err: str, expected: int = 2) -> str:
    assert code == expected, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dualboost: error: "), err
    return lines[0]


@pytest.fixture
def no_work(monkeypatch):
    """Any fit, data loading or verifier check fails the test: the refusal must come first."""
    import dualboost.api
    import dualboost.data

    def refuse(*args, **kwargs):
        raise AssertionError("work started although an output was refused")

    monkeypatch.setattr(dualboost.api, "run", refuse)
    monkeypatch.setattr(dualboost.data, "load_dataset", refuse)


def write_csv(path: Path, header: str, rows: np.ndarray) -> Path:
    lines = [header] + [",".join(f"{v:g}" for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def toy(tmp_path) -> dict[str, Path]:
    """A small CSV data set (a, b, label), a test file and a formulation file."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = (X[:, 1] > 0).astype(float)
    files = {"data": write_csv(tmp_path / "data.csv", "a,b,label", np.c_[X, y]),
             "test": write_csv(tmp_path / "test.csv", "a,b,label", np.c_[X[:10], y[:10]])}
    formulation = tmp_path / "mine.py"
    formulation.write_text((REPO / "formulations" / "lpboost.py").read_text(encoding="utf-8"),
                           encoding="utf-8")
    files["formulation"] = formulation
    return files


# ---------------------------------------------------------------------------------------------
# 1. no output may be an input; every output checked before any work
# ---------------------------------------------------------------------------------------------


def _contents(files: dict[str, Path]) -> dict[str, bytes]:
    return {name: path.read_bytes() for name, path in files.items()}


@pytest.mark.parametrize("option,victim", [
    ("--json", "data"), ("--json", "test"), ("--json", "formulation"), ("--plot", "data"),
])
def test_fit_refuses_an_output_that_is_an_input(toy, capsys, no_work, option, victim):
    before = _contents(toy)
    target = str(toy[victim])
    if option == "--plot":  # a plot needs an image extension: the data file has one here
        png = toy["data"].with_suffix(".png")
        toy["data"].rename(png)
        toy["data"], target = png, str(png)
        before = _contents(toy)
    argv = ["fit", "--data", str(toy["data"]), "--test", str(toy["test"]), "--formulation",
            str(toy["formulation"]), option, target]
    line = one_line_error(main(argv), capsys.readouterr().err)
    assert option in line and "overwrite" in line
    assert _contents(toy) == before


def test_symlinks_relative_paths_and_hard_links_are_inputs_too(toy, tmp_path, capsys, no_work,
                                                                monkeypatch):
    before = _contents(toy)
    link = tmp_path / "link.json"
    link.symlink_to(toy["data"])
    hard = tmp_path / "hard.json"
    os.link(toy["data"], hard)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    for output in (str(link), str(hard), "../sub/../data.csv", str(tmp_path / "sub/../data.csv")):
        line = one_line_error(main(["fit", "--data", "../data.csv", "--json", output]),
                              capsys.readouterr().err)
        assert "--data" in line, line
    assert _contents(toy) == before


def test_predict_refuses_out_onto_its_data_or_model(toy, tmp_path, capsys):
    model = tmp_path / "run.json"
    assert main(["fit", "--data", str(toy["data"]), "--formulation", "lpboost", "--nu", "2",
                 "--json", str(model), "--quiet"]) == 0
    capsys.readouterr()
    before = {"data": toy["data"].read_bytes(), "model": model.read_bytes()}
    for out in (str(toy["data"]), str(model), str(tmp_path / "." / "data.csv")):
        line = one_line_error(main(["predict", "--model", str(model), "--data",
                                    str(toy["data"]), "--out", out]), capsys.readouterr().err)
        assert "--out" in line
    assert {"data": toy["data"].read_bytes(), "model": model.read_bytes()} == before


def test_two_outputs_may_not_be_one_file(toy, tmp_path, capsys, no_work):
    target = str(tmp_path / "same.png")
    line = one_line_error(main(["fit", "--data", str(toy["data"]), "--json", target, "--plot",
                                target]), capsys.readouterr().err)
    assert "same file" in line


def test_verify_json_is_checked_before_any_check(tmp_path, capsys, monkeypatch):
    import dualboost.verify as verify

    def refuse(*args, **kwargs):
        raise AssertionError("the checks ran although --json cannot be written")

    monkeypatch.setattr(verify, "verify", refuse)
    code = main(["verify", "--instances", "quick", "--formulation", "lpboost", "--json",
                 str(tmp_path / "missing" / "x.json")])
    line = one_line_error(code, capsys.readouterr().err)
    assert "--json" in line and "does not exist" in line
    # its --json may not be the --formulation file either
    mine = tmp_path / "mine.py"
    mine.write_text((REPO / "formulations" / "lpboost.py").read_text(encoding="utf-8"))
    before = mine.read_bytes()
    code = main(["verify", "--formulation", str(mine), "--json", str(mine)])
    assert "--formulation" in one_line_error(code, capsys.readouterr().err)
    assert mine.read_bytes() == before


@pytest.mark.parametrize("command", ["fit", "predict"])
def test_output_in_a_file_not_a_directory_is_exit_2(toy, tmp_path, capsys, command):
    target = str(toy["data"] / "x.json")  # the "directory" is a file
    if command == "fit":
        argv = ["fit", "--data", str(toy["data"]), "--json", target]
    else:
        argv = ["predict", "--model", str(toy["data"]), "--data", str(toy["data"]), "--out",
                target]
    assert "is not a directory" in one_line_error(main(argv), capsys.readouterr().err)


def test_the_source_of_a_registered_formulation_is_an_input(capsys, no_work):
    source = REPO / "formulations" / "lpboost.py"
    before = source.read_bytes()
    line = one_line_error(main(["fit", "--data", "worst_case:8", "--formulation", "lpboost",
                                "--json", str(source)]), capsys.readouterr().err)
    assert "--formulation" in line
    assert source.read_bytes() == before


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="POSIX device files")
def test_a_device_is_not_an_output(capsys, no_work):
    # the output is replaced as a whole (written next to it, then renamed): never a device
    line = one_line_error(main(["fit", "--data", "worst_case:8", "--json", "/dev/null"]),
                          capsys.readouterr().err)
    assert "not a regular file" in line


# ---------------------------------------------------------------------------------------------
# 2. one tie rule: summary, JSON, the estimator's score and predict agree
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def tied(tmp_path) -> tuple[Path, np.ndarray, np.ndarray]:
    """Every x carries both labels (3 of class 1, 2 of class 0): the hard margin's optimum is 0,
    reached only by f = 0 on every x, so every training score is a tie."""
    x = np.repeat(np.arange(5.0), 5)
    y = np.tile([1.0, 1.0, 1.0, 0.0, 0.0], 5)
    return write_csv(tmp_path / "tied.csv", "x,y", np.c_[x, y]), x[:, None], y


def test_train_error_counts_ties_by_the_prediction_rule(tied, tmp_path, capsys):
    path, X, y = tied
    majority_error = float(np.mean(y != 1.0))  # the tie class is the majority class, 1
    out = tmp_path / "run.json"
    code = main(["fit", "--data", str(path), "--formulation", "lpboost", "--nu", "1", "--json",
                 str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(out.read_text())
    assert doc["tie_class"] == 1
    assert doc["train_error"] == pytest.approx(majority_error, abs=1e-12)
    row = next(line for line in captured.out.splitlines() if "train error" in line)
    assert f"{majority_error:.4f}" in row
    # predict on the training file says the same
    assert main(["predict", "--model", str(out), "--data", str(path)]) == 0
    assert f"error {majority_error:.4f}" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore::UserWarning")  # the run's diagnostics: degenerate, said so
def test_estimator_score_and_json_share_the_rule(tied, tmp_path):
    from dualboost import DualBoostClassifier

    _, X, y = tied
    est = DualBoostClassifier(formulation="lpboost", nu_frac=1 / len(y)).fit(X, y)
    majority_error = float(np.mean(y != 1.0))
    assert 1 - est.score(X, y) == pytest.approx(majority_error)
    est.to_json(tmp_path / "est.json")
    doc = json.loads((tmp_path / "est.json").read_text())
    assert doc["train_error"] == pytest.approx(majority_error, abs=1e-12)


def test_boost_result_predict_sends_ties_to_the_majority(tied):
    """The Python result's predict follows the same rule (it sent every tie to +1)."""
    from dualboost.api import run

    _, X, y = tied
    for majority in (1.0, -1.0):
        y_pm = np.where(y == 1.0, majority, -majority)  # 3 of 5 labels are the majority
        result = run(X, y_pm, formulation="lpboost", nu=1)
        assert np.all(np.abs(result.decision_function(X)) <= 1e-9)
        assert result.tie_label == majority
        assert np.all(result.predict(X) == majority)


def test_python_m_verify_checks_json_first(tmp_path):
    """``python -m dualboost.verify`` applies the output rules before any check, too."""
    proc = subprocess.run([sys.executable, "-m", "dualboost.verify", "--formulation", "lpboost",
                           "--json", str(tmp_path / "missing" / "x.json")],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 2
    assert "does not exist" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert proc.stdout == ""


# ---------------------------------------------------------------------------------------------
# 3. the LIBSVM index base of the training data
# ---------------------------------------------------------------------------------------------


def _libsvm(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def zero_based(tmp_path) -> tuple[Path, Path, np.ndarray]:
    """Zero-based files whose label is the sign of feature 1; the test file never has feature
    0 (a sparse zero in every row), so guessing its base from itself reads it one-based."""
    rng = np.random.default_rng(3)
    b = rng.choice([-2.0, -1.0, 1.0, 2.0], size=40)
    a = rng.normal(size=40)
    labels = np.where(b > 0, 1, -1)
    train = _libsvm(tmp_path / "train.svm",
                    [f"{lab} 0:{u:.6g} 1:{v:g}" for lab, u, v in zip(labels, a, b)])
    test = _libsvm(tmp_path / "test.svm", [f"{lab} 1:{v:g}" for lab, v in zip(labels, b)])
    return train, test, labels


def test_test_file_is_read_with_the_training_base(zero_based, tmp_path, capsys):
    train, test, labels = zero_based
    out = tmp_path / "run.json"
    code = main(["fit", "--data", str(train), "--test", str(test), "--formulation", "lpboost",
                 "--nu", "1", "--json", str(out), "--quiet"])
    assert code == 0, capsys.readouterr().err
    doc = json.loads(out.read_text())
    assert doc["libsvm_index_base"] == 0 and doc["n_features"] == 2
    assert doc["test_error"] == 0.0  # the label is the sign of feature 1, which the fit found
    assert main(["predict", "--model", str(out), "--data", str(test)]) == 0
    assert "accuracy 1.0000" in capsys.readouterr().err


def test_a_file_contradicting_the_model_base_is_one_line(zero_based, tmp_path, capsys):
    _, test, labels = zero_based
    one_based = _libsvm(tmp_path / "one.svm", [f"{lab} 2:{v:g}" for lab, v in
                                               zip(labels, np.where(labels > 0, 1.0, -1.0))])
    out = tmp_path / "one.json"
    assert main(["fit", "--data", str(one_based), "--formulation", "lpboost", "--nu", "1",
                 "--json", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text())["libsvm_index_base"] == 1
    capsys.readouterr()
    with_zero = _libsvm(tmp_path / "zero.svm", ["1 0:1 2:1", "-1 2:-1"])
    line = one_line_error(main(["predict", "--model", str(out), "--data", str(with_zero)]),
                          capsys.readouterr().err)
    assert "index 0" in line and "numbered from 1" in line
    wide = _libsvm(tmp_path / "wide.svm", ["1 2:1 7:1", "-1 2:-1"])
    line = one_line_error(main(["predict", "--model", str(out), "--data", str(wide)]),
                          capsys.readouterr().err)
    assert "index 7" in line and "n_features=2" in line


def test_explicit_index_base(tmp_path, capsys):
    svm = _libsvm(tmp_path / "d.svm", ["1 1:1 2:3", "-1 1:-1 2:3", "1 1:2 2:3", "-1 1:-2 2:3"])
    out = tmp_path / "run.json"
    assert main(["fit", "--data", str(svm), "--index-base", "0", "--formulation", "lpboost",
                 "--nu", "1", "--json", str(out), "--quiet"]) == 0
    doc = json.loads(out.read_text())
    assert doc["libsvm_index_base"] == 0 and doc["n_features"] == 3  # column 0 stays empty
    capsys.readouterr()
    line = one_line_error(main(["predict", "--model", str(out), "--data", str(svm),
                                "--index-base", "1"]), capsys.readouterr().err)
    assert "--index-base" in line


# ---------------------------------------------------------------------------------------------
# 4. CSV columns matched by name
# ---------------------------------------------------------------------------------------------


def _predictions(text: str) -> list[str]:
    return [line.split(",")[0] for line in text.strip().splitlines()[1:]]


def test_csv_columns_are_matched_by_name(toy, tmp_path, capsys):
    model = tmp_path / "run.json"
    assert main(["fit", "--data", str(toy["data"]), "--formulation", "lpboost", "--nu", "2",
                 "--json", str(model), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["predict", "--model", str(model), "--data", str(toy["data"])]) == 0
    reference = _predictions(capsys.readouterr().out)
    # the same rows with an id column in front and the features swapped
    rows = np.loadtxt(toy["data"], delimiter=",", skiprows=1)
    shuffled = write_csv(tmp_path / "new.csv", "id,label,b,a",
                         np.c_[np.arange(len(rows)), rows[:, 2], rows[:, 1], rows[:, 0]])
    assert main(["predict", "--model", str(model), "--data", str(shuffled)]) == 0
    captured = capsys.readouterr()
    assert _predictions(captured.out) == reference
    notes = [line for line in captured.err.splitlines() if "ignored" in line]
    assert len(notes) == 1 and "id" in notes[0] and "'b'" not in notes[0]
    assert "accuracy" in captured.err  # the training label column was found by its name


def test_csv_missing_feature_column_is_named(toy, tmp_path, capsys):
    model = tmp_path / "run.json"
    assert main(["fit", "--data", str(toy["data"]), "--formulation", "lpboost", "--nu", "2",
                 "--json", str(model), "--quiet"]) == 0
    capsys.readouterr()
    rows = np.loadtxt(toy["data"], delimiter=",", skiprows=1)
    lacking = write_csv(tmp_path / "lacking.csv", "a,label", rows[:, [0, 2]])
    line = one_line_error(main(["predict", "--model", str(model), "--data", str(lacking)]),
                          capsys.readouterr().err)
    assert "lacks" in line and "'b'" in line and "'a'" not in line


# ---------------------------------------------------------------------------------------------
# 5. bounded on binary garbage
# ---------------------------------------------------------------------------------------------

_PROBE = """
import resource, sys
from dualboost.cli import main
code = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
print(f"PEAK {peak}", file=sys.stderr)
sys.exit(code)
"""

SIZE = 50 << 20

#: Linux keeps a process's peak RSS across exec, and a child forked from pytest (GBs late in a
#: run) starts with the parent's: the probe runs as a grandchild, forked from this small relay
_RELAY = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)"


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes is Linux's")
@pytest.mark.parametrize("name", ["blob.bin", "blob.csv"])
def test_a_file_of_nul_bytes_fails_fast_in_bounded_memory(tmp_path, name):
    blob = tmp_path / name
    with open(blob, "wb") as fh:
        fh.truncate(SIZE)  # 50 MB of NUL bytes
    start = time.monotonic()
    proc = subprocess.run([PYTHON, "-c", _RELAY, PYTHON, "-c", _PROBE, "fit", "--data",
                           str(blob), "--quiet"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300, env=_env())
    elapsed = time.monotonic() - start
    lines = proc.stderr.strip().splitlines()
    peak_mb = int(lines[-1].split()[1]) / 1024
    # the libraries' own footprint is ~200-300 MB; reading the file as data costs GBs
    assert peak_mb < 600, peak_mb
    assert len(proc.stderr) < 1000  # one short line, not the file's content
    error = one_line_error(proc.returncode, "\n".join(lines[:-1]))
    assert "not a text file" in error
    assert elapsed < 120  # a sanity bound only (the old reader took ~5 s and 1 GB here)


def test_binary_bytes_after_the_first_megabyte_are_found(tmp_path, capsys):
    blob = tmp_path / "late.svm"
    line = b"1 1:0.5 2:0.25\n-1 1:-0.5 2:0.75\n"
    blob.write_bytes(line * ((2 << 20) // len(line)) + b"\x00" * 4096 + line)
    err = one_line_error(main(["fit", "--data", str(blob)]), capsys.readouterr().err)
    assert "not a text file" in err and "offset" in err


def test_echoed_content_is_short(tmp_path, capsys):
    blob = tmp_path / "long.svm"
    blob.write_text("x" * 200_000 + " 1:1\n")  # one garbage token of 200 kB
    err = one_line_error(main(["fit", "--data", str(blob)]), capsys.readouterr().err)
    assert len(err) < 300


def test_an_overlong_line_is_refused_before_parsing(tmp_path, capsys, monkeypatch):
    import dualboost.data

    monkeypatch.setattr(dualboost.data, "MAX_LINE_BYTES", 1 << 16)  # 64 kB, to keep it small
    blob = tmp_path / "wide.csv"
    blob.write_text("a,b,y\n1,2,0\n" + "1," * 40_000 + "1\n")  # line 3: 80 kB
    err = one_line_error(main(["fit", "--data", str(blob)]), capsys.readouterr().err)
    assert "line 3 is longer than" in err


def test_an_implausible_libsvm_index_is_refused(tmp_path, capsys):
    blob = _libsvm(tmp_path / "huge.svm", ["1 2000000000:1", "-1 1:1"])
    err = one_line_error(main(["fit", "--data", str(blob)]), capsys.readouterr().err)
    assert "index 2000000000" in err and "--n-features" in err


# ---------------------------------------------------------------------------------------------
# 6. Ctrl-C at start-up: one line, exit 130
# ---------------------------------------------------------------------------------------------


# what pip writes as the ``dualboost`` console script for ``dualboost.cli:main``
_CONSOLE_SCRIPT = """import sys
from dualboost.cli import main
if __name__ == "__main__":
    sys.exit(main())
"""


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32",
                    reason="POSIX signals")
@pytest.mark.parametrize("entry,after", [
    ("-m", "dualboost.cli"), ("-m", "numpy"), ("-m", "scipy"),
    ("script", "dualboost.cli"), ("script", "numpy"),
])
def test_ctrl_c_during_start_up_imports(tmp_path, entry, after):
    """SIGINT as soon as the import of ``after`` finished (-X importtime reports each import
    as it completes): the heavy imports are still under way. ``python -m dualboost`` and the
    console script alike."""
    if entry == "-m":
        command = ["-m", "dualboost"]
    else:
        script = tmp_path / "dualboost"
        script.write_text(_CONSOLE_SCRIPT, encoding="utf-8")
        command = [str(script)]
    proc = subprocess.Popen([PYTHON, "-X", "importtime", *command, "fit", "--data",
                             "breast_cancer", "--quiet"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if line.startswith("import time:") and line.rsplit("|", 1)[-1].strip() == after:
                proc.send_signal(signal.SIGINT)
                break
        else:
            pytest.fail(f"{after} was never imported: {''.join(seen[-5:])}")
        rest = proc.stderr.read()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    messages = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert proc.returncode == 130, rest[-2000:]
    assert "Traceback" not in rest
    assert messages == ["dualboost: interrupted (Ctrl-C)"], messages


# ---------------------------------------------------------------------------------------------
# 7. --quiet prints only warnings and errors
# ---------------------------------------------------------------------------------------------


def test_quiet_prints_no_summary(tmp_path, capsys):
    code = main(["fit", "--data", "worst_case:8", "--formulation", "lpboost", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out == ""
    assert all(line.startswith(("dualboost: warning: ", "dualboost: error: ",
                                "dualboost: note: "))
               for line in captured.err.splitlines()), captured.err
    code = main(["fit", "--data", "worst_case:8", "--formulation", "lpboost"])
    assert "train error" in capsys.readouterr().out  # without --quiet: the summary


# ---------------------------------------------------------------------------------------------
# 9. one nu default: schema, list, help, fit and the estimator
# ---------------------------------------------------------------------------------------------


def test_list_help_fit_and_estimator_show_one_nu_default(tmp_path, capsys):
    from dualboost import DualBoostClassifier

    frac = DualBoostClassifier().nu_frac
    assert main(["list", "lpboost", "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)["formulations"][0]
    default = next(p["default"] for p in entry["params"] if p["name"] == "nu")
    assert default == f"max(1, {frac:g} N)"
    assert main(["fit", "--help"]) == 0
    assert f"max(1, {frac:g} N)" in " ".join(capsys.readouterr().out.split())
    out = tmp_path / "run.json"
    main(["fit", "--data", "breast_cancer", "--formulation", "lpboost", "--max-iter", "1",
          "--json", str(out), "--quiet"])
    assert json.loads(out.read_text())["nu"] == pytest.approx(max(1.0, frac * 569))


# ---------------------------------------------------------------------------------------------
# 10. the test extra installs what the tests import
# ---------------------------------------------------------------------------------------------

# import name -> distribution name, where they differ
_DISTRIBUTION = {"sklearn": "scikit-learn"}


def test_test_extra_covers_the_tests_imports():
    import re

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = project["dependencies"] + project["optional-dependencies"]["test"]
    names = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in required}
    local = {p.stem for p in (REPO / "tests").glob("*.py")} | {
        p.name for p in REPO.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    imported = set()
    for path in (REPO / "tests").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = {m for m in imported
                   if m not in sys.stdlib_module_names and m not in local and m != "__future__"}
    # scikit-learn's check_estimator (test_estimator) runs its pandas checks only when pandas
    # is installed: the extra installs it, so that they run
    third_party.add("pandas")
    missing = sorted(m for m in third_party if _DISTRIBUTION.get(m, m).lower() not in names)
    assert not missing, f"pyproject's test extra lacks {missing}"
