"""A model that needs a cone no installed solver has fails with one clear line (issue 21
acceptance), and a forced solver's refusal names the cones the model may need."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import pytest

from dualboost import solvers
from dualboost.errors import DualBoostInputError, SolverFailure


@pytest.fixture
def only_highs_and_ecos(monkeypatch):
    """Pretend that only HiGHS and ECOS are installed (no power-cone solver)."""
    monkeypatch.setattr(solvers, "installed", lambda: frozenset({"HIGHS", "ECOS"}))
    monkeypatch.setattr(solvers, "mosek_usable", lambda: False)


def _power_cone_model() -> cp.Problem:
    x = cp.Variable(3, nonneg=True)
    return cp.Problem(cp.Minimize(cp.sum(cp.power(x, 1.5))), [cp.sum(x) == 1])


def test_no_installed_solver_for_the_cone_is_one_clear_line(only_highs_and_ecos):
    with pytest.raises(SolverFailure) as info:
        solvers.solve(_power_cone_model(), "pow")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("no installed solver can solve power-cone models")
    assert "installed: ECOS, HIGHS" in message and "CLARABEL" in message


def test_a_run_on_the_reference_path_reports_the_missing_cone(only_highs_and_ecos):
    from dualboost.api import run

    rng = np.random.default_rng(0)
    U = np.sign(rng.standard_normal((12, 5)))
    with pytest.raises(SolverFailure, match="no installed solver can solve power-cone models"):
        run(None, np.ones(12), hypotheses=U, formulation="lpboost_phinge", params={"p": 3.0},
            master="reference", kkt=False)


def test_forced_solver_names_exponential_and_second_order_cones():
    x = cp.Variable(3)
    qp = cp.Problem(cp.Minimize(cp.sum_squares(x)), [cp.sum(x) == 1])
    with pytest.raises(DualBoostInputError,
                       match="HIGHS cannot solve exponential-cone models or second-order-cone"):
        solvers.solve(qp, "exp", solver="HIGHS")
