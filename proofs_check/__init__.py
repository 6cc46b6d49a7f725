"""Symbolic (sympy) and numeric checks of the derivations and lemmas dualboost relies on.

Every check is a function returning a :class:`CheckResult`; it computes the quantity in
question and compares it with the thesis's claim (Glocer 2009), so it can fail.  Most checks
take a keyword argument that switches to a deliberately wrong variant (e.g. the thesis's
misprinted -psi, erratum #16) which must make them fail; see ``tests/test_proofs_check.py``.

Run ``python -m proofs_check`` for a table; it exits with status 1 if any check fails.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable

from .bounds import (
    check_binary_entropy_bound,
    check_iteration_bound_algebra,
    check_regularizer_contribution,
    check_relative_entropy_bound,
)
from .duality import (
    check_erlpboost_dual_derivation,
    check_erlpboost_value_identity,
    check_unnormalized_dual,
)
from .family import (
    check_family_iteration_bound,
    check_family_moduli,
    check_family_range_bounds,
    check_progress_step_algebra,
    check_regularizer_conjugates,
)
from .hinge import check_hinge_duals
from .identities import (
    check_identity_erlpboost_softboost,
    check_identity_repeated_rows,
    check_identity_unnormalized,
)
from .lemmas import (
    check_alpha_maximizer,
    check_cosh_bound,
    check_dual_increase_identity,
    check_hoeffding_log_inequality,
    check_lemma_3_9,
    check_progress_chain,
)
from .lpboost import (
    check_lpboost_lower_bound_instance,
    check_lpboost_soft_margin,
    check_lpboost_sparse_edge_rows,
)
from .result import CheckResult
from .shen_li_core import (
    check_adaboost_l1_dual,
    check_adaboost_l1_inequality,
    check_logitboost_l1_dual,
)
from .shen_li_more import (
    check_cost_sensitive_dual,
    check_exp_loss_dual,
    check_lp_hinge_dual,
    check_qp_dual,
)
from .sss import (
    check_sss_avgmin_identity,
    check_sss_entropy_conjugate,
    check_sss_norm_maps,
    check_sss_squared_norm_pair,
    check_sss_theorem7_monotonicity,
)
from .trees import check_exact_depth2_tree

__all__ = ["ALL_CHECKS", "CheckResult", "run_all", "run_check"]

ALL_CHECKS: list[Callable[[], CheckResult]] = [
    check_erlpboost_dual_derivation,  # 1: Lemma 3.6, (3.10)-(3.16)
    check_erlpboost_value_identity,  # 2: P^t(d^t) = -1/eta - beta - sum psi/nu
    check_unnormalized_dual,  # 3: §3.2.6, (3.19) -> (3.10)
    check_lpboost_soft_margin,  # 4: (2.2) = (2.3), slack rule (erratum #2)
    check_hoeffding_log_inequality,  # 5a: Lemma 3.7 step 4
    check_cosh_bound,  # 5b: (3.24)
    check_dual_increase_identity,  # 5c: Lemma 3.7 exact identity
    check_alpha_maximizer,  # 5d: alpha* = x.d/(4 eta)
    check_progress_chain,  # 5e: Lemma 3.7 steps 3-5 numerically
    check_lemma_3_9,  # 6: Lemma 3.9
    check_iteration_bound_algebra,  # 7: Thms 3.10 / 3.12
    check_relative_entropy_bound,  # 8a: Delta <= ln(N/nu)
    check_binary_entropy_bound,  # 8b: Delta_{2,nu} <= ln(N/nu) + 1
    check_regularizer_contribution,  # 9: Lemma 3.3, (3.7)
    check_lpboost_lower_bound_instance,  # 10: Thm 2.5, Fig. 2.8
    check_lpboost_sparse_edge_rows,  # 10b: the LP master's rows are (2.3)'s, its w (2.2)'s
    # the regularized-LPBoost family (docs/theory.md: regularizers, T1-T4)
    check_regularizer_conjugates,  # 11a: R* of every shipped regularizer
    check_progress_step_algebra,  # 11b: T2, Lemma 3.7/3.19 generalized
    check_family_iteration_bound,  # 11c: T3/T4, Thms 3.10/3.12/3.21/3.23 generalized
    check_family_range_bounds,  # 11d: B
    check_family_moduli,  # 11e: sigma
    # seed 001's relaxation family (formulations/sss_*.py)
    check_sss_avgmin_identity,  # 12a: Cor. 5 / Example 1 (F2, F3)
    check_sss_entropy_conjugate,  # 12b: App. B, Lemma 16 (F7, F8)
    check_sss_squared_norm_pair,  # 12c: F10
    check_sss_norm_maps,  # 12d: F4, F5
    check_sss_theorem7_monotonicity,  # 12e: Theorem 7 (iii)
    # the map of identities (dualboost/verify/identities.py, docs/formulations.md)
    check_identity_unnormalized,  # 13a: row I2
    check_identity_erlpboost_softboost,  # 13b: row I6
    check_identity_repeated_rows,  # 13c: row I7
    # seed 002 (Shen & Li): duals derived from their Lagrangians, identities with the family
    check_exp_loss_dual,  # 14a: (2) + budget -> (14)
    check_qp_dual,  # 14b: (41) -> its dual, §3.4 moments
    check_lp_hinge_dual,  # 14c: (27)/(28) as a member, = l2 at p = 2
    check_cost_sensitive_dual,  # 14d: weighted (5) = ERLPBoost with d0 = c / sum c
    # seed 002: the duals of AdaBoost_l1 and LogitBoost_l1 from their Lagrangians
    check_adaboost_l1_dual,  # 15a: (11)/(12) -> (10) -> (15) -> thesis (3.6), E7, E9
    check_adaboost_l1_inequality,  # 15b: 1'w <= 1/T -> (15) with r >= 0 (F1b)
    check_logitboost_l1_dual,  # 15c: (32) -> (30) -> (31) -> R, R*
    check_hinge_duals,  # 16: (21) -> (22) = lpboost at nu = 1/D (I33); (27) as a member (I32)
    check_exact_depth2_tree,  # 17: the exact depth-2 tree oracle against every depth-2 tree
]


def run_check(check: Callable[[], CheckResult]) -> CheckResult:
    """Run one check; an exception becomes a failed :class:`CheckResult`."""
    try:
        return check()
    except Exception as exc:  # a crashing check is a failing check
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return CheckResult(check.__name__, "?", False, f"raised {tb}")


def run_all(timings: dict[str, float] | None = None) -> list[CheckResult]:
    """Run every check in :data:`ALL_CHECKS` (in order).  If ``timings`` is given, the wall
    time of each check (seconds) is stored in it under the check's ``name``."""
    results = []
    for check in ALL_CHECKS:
        t0 = time.perf_counter()
        res = run_check(check)
        if timings is not None:
            timings[res.name] = time.perf_counter() - t0
        results.append(res)
    return results
