"""Seed 002 (Shen & Li) §3.3-§3.5: the margin mean/variance identities as verifier rows.

At an optimum of AdaBoost_l1 (seed 002 (5)/(6) <-> (10)/(15); ``adaboost_l1``), with rho = U w
(w the edge constraints' multipliers, lambda = w_(6) = T w_(5); the normalized margins when
1^T w = 1), u = d the d-domain distribution and r = r_(15) the largest edge at u, these hold
exactly (seed 002 §3.3, §3.5, E1-E9; ``SL1``-``SL9`` here):

==== ============================================================== =========================
row  identity                                                        seed 002
==== ============================================================== =========================
SL1  Opt(6) evaluated at w: lse(-rho/T) = ln N - P/T (P the d-domain   E1; (5), (6), (10), (15)
     value, Opt(15) = P - T ln N)
SL2  u = softmax(-rho/T)                                              E2; (24)
SL3  rho_i = -T ln u_i - T Opt(6)                                     E3; (25)
SL4  var(rho) = T^2 var(ln u) (unweighted, over the examples)         E4; (26)
SL5  r = max_j e_j(u) = e_j(u) for every j with w_j > 0               E5; complementary slackness
SL6  r = sum_i u_i rho_i (the u-weighted mean margin)                 E6
SL7  r = -T sum u ln u - T lse(-rho/T) (the corrected §3.5 formula)   E7; docs/errata.md S6
SL8  H(u) = r/T + Opt(6)                                              E8
SL9  sum_j w_j = 1 (equality budget; <= 1 for the inequality budget)  E9; §4.3
==== ============================================================== =========================

Each row measures ``|lhs - rhs|`` against ``tol * (1 + |lhs| + |rhs|)`` and can fail: a
formulation whose eta is not 1/T, whose w is not the multipliers, or a sign error in (15) breaks
SL1-SL3 (tests/mutations.py). The building blocks (:func:`identity_row`,
:func:`margin_moments`, :func:`gaussian_approximation`) are public for other problems of
the seed (AdaBoost-QP's (38)/(41), A1-A4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp, softmax, xlogy

#: the verifier's row statuses (dualboost.verify.checks; not imported from there: this module
#: lies below the verifier, shared by the algorithms, the members and the verifier)
PASS, FAIL = "pass", "FAIL"


@dataclass
class Row:
    """One identity row, with the fields of the verifier's rows
    (:class:`dualboost.verify.checks.Row` takes them as they are)."""

    id: str
    label: str
    reference: str
    value: float | None
    tolerance: float | None
    status: str
    detail: str = ""

__all__ = ["adaboost_l1_identities", "adaboost_qp_identities", "gaussian_approximation",
           "identity_row", "logitboost_l1_identities", "margin_moments", "printed_objective_row"]

REFERENCE = "seed 002 §3.3, §3.5"


def identity_row(check_id: str, label: str, reference: str, lhs, rhs, tol: float,
                 detail: str = "") -> Row:
    """A row checking lhs == rhs (numbers or arrays): value max |lhs - rhs|, tolerance
    tol (1 + max |lhs| + max |rhs|)."""
    lhs, rhs = np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float)
    value = float(np.max(np.abs(lhs - rhs))) if lhs.size else 0.0
    tolerance = tol * (1.0 + float(np.max(np.abs(lhs), initial=0.0))
                       + float(np.max(np.abs(rhs), initial=0.0)))
    ok = math.isfinite(value) and value <= tolerance
    reference = f"docs/theory.md {check_id}; {reference}"  # the verifier's convention
    if not detail and lhs.size == 1 and rhs.size == 1:
        detail = f"lhs {float(lhs):.10g}, rhs {float(rhs):.10g}"
    return Row(check_id, label, reference, value, tolerance, PASS if ok else FAIL, detail)


def margin_moments(rho: np.ndarray) -> tuple[float, float]:
    """(mean, population variance) of the margins over the examples (seed 002 (39))."""
    rho = np.asarray(rho, dtype=float)
    return float(rho.mean()), float(rho.var())


def gaussian_approximation(rho: np.ndarray, T: float) -> tuple[float, float]:
    """(log (1/N) sum exp(-rho/T), its Gaussian approximation -mean/T + var/(2 T^2)) (seed 002
    (38), A1; diagnostic only: A3, the Jensen bound, is the first value >= -mean/T)."""
    rho = np.asarray(rho, dtype=float)
    mean, var = margin_moments(rho)
    exact = float(logsumexp(-rho / T) - math.log(rho.size))
    return exact, -mean / T + var / (2.0 * T * T)


def adaboost_l1_identities(U: np.ndarray, d: np.ndarray, w: np.ndarray, T: float, *,
                           primal_value: float | None = None, tol: float = 1e-6,
                           inequality: bool = False) -> list[Row]:
    """SL1-SL9 (module docstring) at (d, w) on the columns U; ``primal_value`` is the d-domain
    value P (default: computed from d, r and the entropy, P = r + T sum d ln(N d))."""
    U = np.asarray(U, dtype=float)
    d = np.clip(np.asarray(d, dtype=float), 0.0, None)
    w = np.asarray(w, dtype=float)
    N = U.shape[0]
    rho = U @ w
    edges = U.T @ d
    r = float(edges.max()) if edges.size else -math.inf
    if inequality:
        r = max(r, 0.0)
    neg_entropy = float(np.sum(xlogy(d, d)))  # sum u ln u
    if primal_value is None:
        primal_value = r + T * (neg_entropy + math.log(N))
    opt6 = float(logsumexp(-rho / T))
    log_d = np.log(np.maximum(d, 1e-300))
    resolved = d >= 1e-3 * float(d.max(initial=0.0))
    ref = REFERENCE
    rows = [
        identity_row("SL1", "E1: Opt(6) at w, lse(-rho/T), vs ln N - P/T (= -Opt(15)/T)",
                     f"{ref} E1; seed 002 (5), (6), (10), (15)", opt6,
                     math.log(N) - primal_value / T, tol),
        # a d computed from w moves 1/T times faster than w (the verifier's C1 rule, eta = 1/T)
        identity_row("SL2", "E2: u vs softmax(-rho/T): max |diff| (tolerance tol (1 + 1/T))",
                     f"{ref} E2; seed 002 (24)", d, softmax(-rho / T), tol * (1 + 1 / T)),
        identity_row("SL3", "E3: rho_i vs -T ln u_i - T Opt(6): max |diff| (weighted by u/max u)",
                     f"{ref} E3; seed 002 (25)", rho * d / d.max(),
                     (-T * log_d - T * opt6) * d / d.max(), tol * (1 + 1 / T)),
        # var(ln u) weighs every example alike and a solver's error on u_i is amplified by
        # 1/u_i in ln u_i: the variances are taken over the resolved examples (E3 holds per
        # example, so (26) holds on any subset) and allowed sqrt(tol) (a wrong T is off by a
        # factor, not by round-off)
        identity_row("SL4", "E4: var(rho) vs T^2 var(ln u) over u_i >= 1e-3 max u (tolerance "
                     "sqrt(tol))", f"{ref} E4; seed 002 (26)", float(np.var(rho[resolved])),
                     T * T * float(np.var(log_d[resolved])), math.sqrt(tol),
                     f"{int(resolved.sum())} of {N} examples"),
    ]
    active = w > 1e-6 * max(float(w.max(initial=0.0)), 1e-300)
    rows.append(identity_row(
        "SL5", "E5: edges of the active columns (w_j > 0) vs r = max edge", f"{ref} E5",
        edges[active], np.full(int(active.sum()), r), tol,
        f"{int(active.sum())} active of {w.size} columns, r = {r:.10g}"))
    rows += [
        identity_row("SL6", "E6: r vs the u-weighted mean margin sum u rho", f"{ref} E6", r,
                     float(d @ rho), tol),
        identity_row("SL7", "E7: r vs -T sum u ln u - T lse(-rho/T) (corrected §3.5 formula)",
                     f"{ref} E7; docs/errata.md S6 (seed 002)", r,
                     -T * neg_entropy - T * opt6, tol),
        identity_row("SL8", "E8: entropy H(u) vs r/T + Opt(6)", f"{ref} E8", -neg_entropy,
                     r / T + opt6, tol),
    ]
    total = float(w.sum())
    if inequality:
        ok = total <= 1.0 + tol
        rows.append(Row("SL9", "E9: sum of the edge multipliers w (<= 1, inequality budget)",
                        f"docs/theory.md SL9; {ref} E9; seed 002 §3.7, (24)", total, 1.0 + tol,
                        PASS if ok else FAIL,
                        f"unused budget 1 - sum w = {1 - total:.6g}"))
    else:
        rows.append(identity_row("SL9", "E9: sum of the edge multipliers w vs 1",
                                 f"{ref} E9; seed 002 §3.7, (24)", total, 1.0, tol))
    return rows


def printed_objective_row(printed: tuple[float, float], value: float, what: str, tol: float,
                          reference: str) -> Row:
    """SL10: the seed's w-domain objective evaluated directly at the solution (``value``) lies
    in the bracket the formulation reports for it (``printed``: its ``objective_as_printed``
    from the d-domain bracket, i.e. its stated shift, scale and sign)."""
    low, high = (float(x) for x in printed)
    slack = tol * (1.0 + abs(value) + abs(low) + abs(high))
    distance = max(low - value, value - high, 0.0)
    ok = math.isfinite(distance) and distance <= slack
    return Row("SL10", f"{what} at w vs the reported objective_as_printed bracket: distance",
               f"docs/theory.md SL10; {reference}", distance, slack, PASS if ok else FAIL,
               f"{what} = {value:.10g}, reported [{low:.10g}, {high:.10g}]")


def logitboost_l1_identities(U: np.ndarray, d: np.ndarray, w: np.ndarray, T: float, *,
                             primal_value: float, tol: float = 1e-6) -> list[Row]:
    """LogitBoost_l1's relations at an optimum (seed 002 §3.4, (32), (33), §4.3), rows
    SL21-SL25: Opt(32) at w_(32) = w/T equals -P/T; u = sigmoid(-rho/T) (33); r = max edge =
    sum u rho; the active columns' edges equal r; sum(w) = 1 (the multipliers are T w_(32))."""
    U = np.asarray(U, dtype=float)
    d = np.asarray(d, dtype=float)
    w = np.asarray(w, dtype=float)
    rho = U @ w
    edges = U.T @ d
    r = float(edges.max()) if edges.size else -math.inf
    ref = "seed 002 §3.4"
    opt32 = float(np.sum(np.logaddexp(0.0, -rho / T)))
    active = w > 1e-6 * max(float(w.max(initial=0.0)), 1e-300)
    return [
        identity_row("SL21", "Opt(32) at w/T, sum logit(rho/T), vs -P/T (= -Opt(31)/T)",
                     f"{ref}; seed 002 (30)-(32)", opt32, -primal_value / T, tol),
        identity_row("SL22", "(33): u vs sigmoid(-rho/T): max |diff| (tolerance tol (1 + 1/T))",
                     f"{ref}; seed 002 (33)", d, 1.0 / (1.0 + np.exp(rho / T)),
                     tol * (1 + 1 / T)),
        identity_row("SL23", "r = max edge vs the u-weighted margin sum u rho", ref, r,
                     float(d @ rho), tol),
        identity_row("SL24", "edges of the active columns (w_j > 0) vs r", ref, edges[active],
                     np.full(int(active.sum()), r), tol,
                     f"{int(active.sum())} active of {w.size} columns, r = {r:.10g}"),
        identity_row("SL25", "sum of the edge multipliers w (= T 1'w_(32)) vs 1",
                     f"{ref}; seed 002 §3.7, (24)", float(w.sum()), 1.0, tol),
    ]


def adaboost_qp_identities(U: np.ndarray, u: np.ndarray, w: np.ndarray, T: float, *,
                           primal_value: float, tol: float = 1e-6) -> list[Row]:
    """AdaBoost-QP's margin mean/variance relations at an optimum (seed 002 (38)-(41), §3.3 and
    the derived dual ``min r + (M T/2) ||u - 1/M||^2`` s.t. ``U^T u <= r 1``, ``1^T u = 1``, u
    free; ``primal_value`` is that d-domain value, w the edge constraints' multipliers, rho =
    U w, mean and variance over the M examples), rows SL31-SL36:

    * SL31 ``u = (1/M)(1 - (rho - mean(rho))/T)`` (stationarity in u with sum(u) = 1);
    * SL32 ``-T P = (1/2) var(rho) - T mean(rho)``: Opt(41) at w, i.e. T^2 times the RHS of
      (38) (A4);
    * SL33 ``r = sum u rho = mean(rho) - var(rho)/T`` (the margin mean/variance identity);
    * SL34 the active columns' edges equal r; SL35 sum(w) = 1; SL36 sum(u) = 1.
    """
    U = np.asarray(U, dtype=float)
    u = np.asarray(u, dtype=float)
    w = np.asarray(w, dtype=float)
    M = U.shape[0]
    rho = U @ w
    mean, var = margin_moments(rho)
    edges = U.T @ u
    r = float(edges.max()) if edges.size else -math.inf
    active = w > 1e-6 * max(float(w.max(initial=0.0)), 1e-300)
    ref = "seed 002 (38)-(41)"
    return [
        identity_row("SL31", "u vs (1/M)(1 - (rho - mean rho)/T): max |diff| (tolerance "
                     "tol (1 + 1/T))", f"{ref}; the derived dual's stationarity", u,
                     (1.0 - (rho - mean) / T) / M, tol * (1 + 1 / T)),
        identity_row("SL32", "-T P vs Opt(41) at w = var(rho)/2 - T mean(rho) (A4)",
                     f"{ref}; (41), A4", -T * primal_value, 0.5 * var - T * mean, tol),
        identity_row("SL33", "r = sum u rho vs mean(rho) - var(rho)/T", f"{ref}; §3.3", r,
                     mean - var / T, tol),
        identity_row("SL34", "edges of the active columns (w_j > 0) vs r", ref, edges[active],
                     np.full(int(active.sum()), r), tol,
                     f"{int(active.sum())} active of {w.size} columns, r = {r:.10g}"),
        identity_row("SL35", "sum of the edge multipliers w vs 1", f"{ref}; (41)",
                     float(w.sum()), 1.0, tol),
        identity_row("SL36", "sum of u vs 1", f"{ref}; the derived dual", float(u.sum()), 1.0,
                     tol),
    ]
