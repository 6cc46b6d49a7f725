"""The verifier passes on the shipped formulations and fails, with exit 1, on a broken one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import formulations
from dualboost.verify import main

FORMULATIONS = Path(formulations.__file__).parent


def test_verify_worst_case_passes_and_writes_json(tmp_path, capsys):
    out = tmp_path / "verify.json"
    code = main(["--instances", "worst_case:12,random", "--json", str(out)])
    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    statuses = {c["status"] for c in report["checks"]}
    assert code == 0, printed
    assert statuses <= {"pass", "n/a"}
    names = {c["check"] for c in report["checks"]}
    assert any(name.startswith("strong duality") for name in names)
    assert any("Lemma 3.7" in name for name in names)
    assert any("Lemma 3.8" in name for name in names)
    assert any("N/2" in name for name in names)  # LPBoost's lower bound on the worst case
    # n/a rows carry a reason and are never reported as passed
    assert all(c["detail"] for c in report["checks"] if c["status"] == "n/a")
    assert re.search(r"\d+ passed, 0 failed, \d+ not applicable", printed)


def test_verify_catches_a_wrong_dual(tmp_path, capsys):
    """The thesis prints -psi in the exponent of (3.11) (erratum #16): the verifier must notice."""
    source = (FORMULATIONS / "erlpboost.py").read_text()
    wrong = source.replace("return np.log(self.d0) - self.eta * (U @ w + psi)",
                           "return np.log(self.d0) - self.eta * (U @ w - psi)")
    assert wrong != source
    path = tmp_path / "erlpboost_erratum.py"
    path.write_text(wrong)
    code = main(["--instances", "random", "--formulation", str(path)])
    printed = capsys.readouterr().out
    assert code == 1
    assert "FAIL" in printed


def test_verify_bad_arguments_exit_2(capsys):
    assert main(["--instances", "nope"]) == 2
    assert main(["--instances", "worst_case:7"]) == 2  # the instance needs an even N
    assert main(["--instances", "random:x"]) == 2
    assert main(["--tol", "-1"]) == 2
    assert main(["--formulation", "no_such_formulation"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
