"""Every registered formulation, end to end: its default algorithm with the exact stump oracle
returns weights whose soft margin (thesis (2.2)) is >= the exact LP optimum over ALL stumps - eps.

The data are synthetic and drawn here (scikit-learn's make_classification with label noise), so
no formulation was tuned on them. The optimum is the soft-margin LP (2.3) over every distinct
stump column, solved directly with HiGHS and certified by its dual. Each algorithm's theory
gives this guarantee: Alg. 2.1 (LPBoost) stops with gamma_hat - P_LP^T <= eps; Alg. 3.2/3.3
(the regularized family) with soft margin(w^T) >= min_q u^q.d^(q-1) - eps (docs/theory.md E11)
once eta >= 2B/eps (T1); Alg. 3.1 (SoftBoost, TotalBoost) outputs the LP over its hypotheses,
P_LP^T >= gamma_hat_T - eps (Thm 3.2). With the exact oracle, gamma_hat >= the full optimum.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification

from dualboost.algorithms import ALGORITHMS, algorithm_class
from dualboost.api import run
from dualboost.oracles import make_oracle
from dualboost.registry import available_formulations, load_formulation
from formulations.lpboost import LPBoost

EPS = 0.05


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=160, n_features=6, n_informative=3, n_redundant=1,
                               flip_y=0.08, class_sep=0.8, random_state=20261123)
    return X, np.where(y == 1, 1.0, -1.0)


@pytest.fixture(scope="module")
def full_lp(data):
    X, y = data
    columns, _ = make_oracle("stumps").fit(X, y).all_columns()
    cache: dict[float, float] = {}

    def optimum(nu: float) -> float:
        if nu not in cache:
            _, cert, _ = LPBoost(len(y), nu=nu).solve_primal(columns, 1e-9)
            assert cert.gap <= 1e-9
            cache[nu] = cert.dual_value
        return cache[nu]

    return optimum


def test_the_catalogue_is_registered():
    names = set(available_formulations())
    assert {"lpboost", "erlpboost"} <= names
    for name in names:
        cls = load_formulation(name)
        assert cls.name == name, f"formulations/{name}.py registers {cls.name!r}"


@pytest.mark.slow
@pytest.mark.parametrize("name", available_formulations())
def test_soft_margin_within_eps_of_the_full_lp(name, data, full_lp):
    X, y = data
    cls = load_formulation(name)
    # seed 002's CG certifies its own problem (the branch below), whatever the formulation
    # promises about the soft margin
    own_stop = (cls.default_algorithm in ALGORITHMS and not getattr(
        ALGORITHMS[cls.default_algorithm], "soft_margin_guarantee", True))
    if not getattr(cls, "promises_soft_margin", True) and not own_stop:
        pytest.skip(f"{name} solves its own problem at a fixed parameter and promises no soft "
                    "margin (seed 002's T or D, checked by the verifier's D5 and "
                    "tests/test_shen_li_more.py; seed 001's norm relaxations, checked by C6 and "
                    "tests/test_sss_formulations.py)")
    declared = {p.name for p in cls.params}
    nu_frac = 0.2 if "nu" in declared else None
    result = run(X, y, formulation=name, nu_frac=nu_frac, eps=EPS, kkt=False)
    assert result.success, result.message
    if not getattr(algorithm_class(result.algorithm), "soft_margin_guarantee", True):
        # seed 002's CG states its stop on its own problem's value over the whole class (the
        # bracket of its last record, claim CG2), not on the soft margin (2.2)
        last = result.history[-1]
        assert last.pool_upper - last.pool_lower <= EPS + 1e-9
        return
    nu = result.parameters.get("nu", 1.0)
    optimum = full_lp(nu)
    assert result.soft_margin >= optimum - EPS - 1e-9, (
        f"{name}: soft margin {result.soft_margin:.6g} < full LP optimum {optimum:.6g} - eps")
    # the certified bracket of the last master solve is a bracket
    assert result.dual_objective <= result.primal_objective + 1e-9
