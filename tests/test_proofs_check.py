"""Tests for the ``proofs_check`` package: every check passes, and wrong variants fail."""

from __future__ import annotations

import functools
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest
import sympy as sp

import proofs_check
from proofs_check import ALL_CHECKS, CheckResult, run_all
from proofs_check.bounds import (
    check_binary_entropy_bound,
    check_iteration_bound_algebra,
    check_regularizer_contribution,
)
from proofs_check.duality import (
    check_erlpboost_dual_derivation,
    check_erlpboost_value_identity,
    check_unnormalized_dual,
)
from proofs_check.family import (
    capped_simplex_vertices,
    check_family_iteration_bound,
    check_family_moduli,
    check_family_range_bounds,
    check_progress_step_algebra,
    check_regularizer_conjugates,
)
from proofs_check.lemmas import (
    check_alpha_maximizer,
    check_cosh_bound,
    check_dual_increase_identity,
    check_hoeffding_log_inequality,
    check_lemma_3_9,
)
from proofs_check.lpboost import (
    check_lpboost_lower_bound_instance,
    check_lpboost_soft_margin,
    check_lpboost_sparse_edge_rows,
    lower_bound_instance,
    slack_rule,
    soft_margin_closed_form,
)
from proofs_check.result import sym_equal
from proofs_check.trees import check_exact_depth2_tree


def _accuracy_sign_slip(rows, y):
    """EdgeRows.multipliers with the accuracy rows' w read as +y/2 (the error rows' sign)."""
    w, beta = rows.multipliers(y)
    return np.where(rows.accuracy, -w, w), beta


def _beta_slip(rows, y):
    """EdgeRows.multipliers with beta = -y_0 only (the sparse rows' share left out)."""
    w, _ = rows.multipliers(y)
    return w, -float(y[0])


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda f: f.__name__)
def test_check_passes(check: Callable[[], CheckResult]) -> None:
    res = check()
    assert isinstance(res, CheckResult)
    assert res.name and res.reference.startswith(("thesis", "seed")) and res.detail
    assert res.passed, f"{res.name}: {res.detail}"


# Deliberately wrong variants: each must make its check FAIL, so the checks can fail.
WRONG_VARIANTS = [
    # erratum #16: the thesis prints -psi in the exponent after plugging in beta (3.16)
    functools.partial(check_erlpboost_dual_derivation, psi_sign=-1),
    functools.partial(check_erlpboost_value_identity, beta_shift=1e-3),
    # plugging the normalized beta (3.16) into the unnormalized dual (3.19)
    functools.partial(check_unnormalized_dual, use_normalized_beta=True),
    # erratum #2: the thesis text says psi_n = min(0, rho - w.u_n)
    functools.partial(check_lpboost_soft_margin, slack="min"),
    functools.partial(check_hoeffding_log_inequality, quad_coeff=1 / 16),
    functools.partial(check_cosh_bound, quad_coeff=1 / 4),
    functools.partial(check_dual_increase_identity, psi_sign=-1),
    functools.partial(check_alpha_maximizer, alpha_denominator=2),
    functools.partial(check_lemma_3_9, t_offset=0),
    functools.partial(check_iteration_bound_algebra, eta_factor=1),
    functools.partial(check_binary_entropy_bound, slack=0.0),
    functools.partial(check_regularizer_contribution, eta_factor=1),
    functools.partial(check_lpboost_lower_bound_instance, claimed_slope=1.0),
    # the accuracy rows' w read with the error rows' sign
    functools.partial(check_lpboost_sparse_edge_rows, mapping=_accuracy_sign_slip),
    # beta without the error and accuracy rows' share
    functools.partial(check_lpboost_sparse_edge_rows, mapping=_beta_slip),
    # the regularized family (docs/theory.md): one wrong declaration each
    functools.partial(check_regularizer_conjugates,
                      mistake="relative_entropy_without_minus_one"),
    functools.partial(check_regularizer_conjugates, mistake="l2_unclipped"),
    functools.partial(check_regularizer_conjugates, mistake="tsallis_without_K"),
    functools.partial(check_regularizer_conjugates, mistake="binary_without_1_over_nu"),
    functools.partial(check_regularizer_conjugates, mistake="power_walkthrough_over_5"),
    functools.partial(check_progress_step_algebra, smoothness_factor=1),
    functools.partial(check_family_iteration_bound, bound_factor=8),
    functools.partial(check_family_range_bounds, mistake="l2_without_d0_norm"),
    functools.partial(check_family_range_bounds, mistake="tsallis_without_linear"),
    functools.partial(check_family_range_bounds, mistake="binary_without_plus_one"),
    functools.partial(check_family_moduli, mistake="tsallis_sigma_q"),
    functools.partial(check_family_moduli, mistake="l2_sigma_N"),
    # the exact depth-2 tree with its right child never split
    functools.partial(check_exact_depth2_tree, mistake="right_leaf"),
]


@pytest.mark.parametrize(
    "variant", WRONG_VARIANTS,
    ids=lambda p: f"{p.func.__name__}-{'-'.join(f'{k}={v}' for k, v in p.keywords.items())}",
)
def test_wrong_variant_fails(variant: functools.partial) -> None:
    res = variant()
    assert not res.passed, f"wrong variant passed: {res.detail}"


def test_sym_equal_detects_difference() -> None:
    x, y = sp.symbols("x y", positive=True)
    dom = {x: (1, 2), y: (1, 2)}
    assert sym_equal(sp.log(x * y), sp.log(x) + sp.log(y), dom)[0]
    ok, how = sym_equal(sp.log(x + y), sp.log(x) + sp.log(y), dom)
    assert not ok and "differ" in how


def test_slack_rule_erratum_helpers() -> None:
    m = np.array([0.3, -0.5, 0.1, 0.9, -0.2])
    nu = 2.5
    rho, psi = slack_rule(m, nu, "max")
    assert rho == pytest.approx(0.1)
    assert np.all(psi >= 0)
    value = np.min(m + psi) - psi.sum() / nu
    assert value == pytest.approx(soft_margin_closed_form(m, nu))
    _, psi_min = slack_rule(m, nu, "min")  # erratum #2: infeasible (negative slacks)
    assert np.any(psi_min < 0)


def test_lower_bound_instance_first_row_and_pivots() -> None:
    U = lower_bound_instance(8, 1e-3)
    assert U.shape == (8, 5)
    assert U[0, 0] == 1.0 and U[4, 0] == pytest.approx(-1 + 2e-3)
    assert U[7, 3] == pytest.approx(-1 + 8e-3)  # pivot of column 4 at row m + 4 = 8


def test_capped_simplex_vertices() -> None:
    V = capped_simplex_vertices(5, 2.5)
    # two entries 1/nu = 0.4, one entry 1 - 2/2.5 = 0.2, two zeros: 5!/(2! 1! 2!) = 30 vertices
    assert V.shape == (30, 5)
    assert np.allclose(V.sum(1), 1) and V.max() == pytest.approx(0.4) and V.min() == 0
    assert len(capped_simplex_vertices(4, 1.0)) == 4  # nu = 1: the simplex's unit vectors


def test_unknown_mistake_is_an_error() -> None:
    for check in (check_regularizer_conjugates, check_family_range_bounds, check_family_moduli):
        with pytest.raises(ValueError, match="unknown mistake"):
            check(mistake="no_such_mistake")


def test_run_all_and_exports() -> None:
    assert len(ALL_CHECKS) == len(set(ALL_CHECKS)) >= 10
    results = run_all()
    assert [isinstance(r, CheckResult) for r in results] == [True] * len(ALL_CHECKS)
    assert all(r.passed for r in results)
    assert set(proofs_check.__all__) >= {"CheckResult", "ALL_CHECKS", "run_all"}


def test_run_check_turns_exceptions_into_failures() -> None:
    def boom() -> CheckResult:
        raise ValueError("nope")

    res = proofs_check.run_check(boom)
    assert not res.passed and "ValueError" in res.detail


def test_main_exit_code(tmp_path) -> None:
    # run from elsewhere: the installed package, not this checkout, must work
    proc = subprocess.run([sys.executable, "-m", "proofs_check"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(ALL_CHECKS)}/{len(ALL_CHECKS)} checks passed" in proc.stdout
