"""dualboost fit --nu-frac auto: nu chosen by stratified k-fold cross-validation (issue 31)."""

from __future__ import annotations

import json

import numpy as np

from dualboost.cli import main
from dualboost.estimator_cv import DEFAULT_NU_FRACS


def test_auto_picks_the_best_mean_accuracy_and_fits_there(tmp_path, capsys):
    out = tmp_path / "auto.json"
    code = main(["fit", "--data", "breast_cancer", "--nu-frac", "auto", "--eps", "0.05",
                 "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 0
    doc = json.loads(out.read_text())
    selection = doc["nu_selection"]
    assert selection["nu_fracs"] == list(DEFAULT_NU_FRACS)
    assert len(selection["mean_accuracy"]) == len(DEFAULT_NU_FRACS)
    chosen = DEFAULT_NU_FRACS[int(np.argmax(selection["mean_accuracy"]))]
    assert selection["nu_frac"] == chosen
    assert doc["parameters"]["nu"] == max(1.0, chosen * doc["N"])  # the final fit at that nu
    assert "chosen by stratified 5-fold" in captured.out
    assert "--nu-frac auto chose" in captured.err


def test_auto_refuses_what_it_cannot_cross_validate(capsys):
    assert main(["fit", "--data", "worst_case:8", "--nu-frac", "auto"]) == 2
    assert "--nu-frac auto" in capsys.readouterr().err
    assert main(["fit", "--data", "breast_cancer", "--nu-frac", "sometimes"]) == 2
