"""Issue 21 acceptance details found from a fresh clone: AdaBoost-l1 run by ERLPBoost's algorithm
promises no soft margin (T fixes eta = 1/T, so the empty-guarantee warning's remedy, a larger
eta, is not the user's to apply), the fit summary does not call two things T, and the CG
algorithms' refusal of another formulation reads as one sentence."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.api import run
from dualboost.cli import main
from dualboost.errors import DualBoostInputError


@pytest.fixture(scope="module")
def columns():
    rng = np.random.default_rng(3)
    return np.sign(rng.standard_normal((30, 12)))


@pytest.mark.parametrize("name", ["adaboost_l1", "adaboost_l1_ineq"])
def test_adaboost_l1_with_erlpboost_promises_no_soft_margin(name, columns):
    result = run(None, np.ones(columns.shape[0]), hypotheses=columns, formulation=name,
                 algorithm="erlpboost", params={"T": 0.2})
    assert result.status == "converged", result.message
    assert not [w for w in result.warnings if w["code"] == "vacuous_guarantee"]


def test_fit_summary_says_hypotheses_where_t_is_a_parameter(capsys):
    assert main(["fit", "--data", "worst_case:8", "--algorithm", "adaboost_cg",
                 "--param", "T=0.2"]) == 0
    out = capsys.readouterr().out
    assert "T (hypotheses)" not in out and "hypotheses" in out


def test_cg_refusal_names_the_algorithm_once(columns):
    with pytest.raises(DualBoostInputError) as info:
        run(None, np.ones(columns.shape[0]), hypotheses=columns, formulation="erlpboost",
            algorithm="adaboost_cg")
    message = str(info.value)
    assert "seed 002's seed 002" not in message
    assert "seed 002 Algorithm 2 (AdaBoost-CG) runs the adaboost problem" in message


def test_api_run_defaults_to_the_algorithms_own_problem():
    # as `dualboost fit --algorithm adaboost_cg` does: the CG algorithm's problem, not erlpboost
    from sklearn.datasets import load_breast_cancer

    from dualboost.api import run

    X, y = load_breast_cancer(return_X_y=True)
    result = run(X[:120], 2.0 * y[:120] - 1, algorithm="adaboost_cg", params={"T": 0.2},
                 kkt=False)
    assert result.formulation == "adaboost_l1" and result.success
    assert run(X[:120], 2.0 * y[:120] - 1, kkt=False).formulation == "erlpboost"
