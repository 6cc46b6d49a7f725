"""LPBoost: the soft-margin LP (2.2)/(2.3) and the Omega(N) lower-bound instance (Thm 2.5).

Checks
------
* :func:`check_lpboost_soft_margin` -- for fixed margins, the w-domain soft margin (2.2) equals
  the capped-simplex minimum of (2.3) = the "average of the nu smallest margins", and the slack
  psi_n = max(0, rho - m_n) with rho the ceil(nu)-th smallest margin is optimal (erratum #2).
* :func:`check_lpboost_lower_bound_instance` -- Fig. 2.8: P_LP^t = -1 + 2 t delta for t <= N/2
  and >= delta/2 with all N/2 + 1 columns; pivots, selection order and the soft (nu = 3) version.
* :func:`check_lpboost_sparse_edge_rows` -- the rows the LP master gives HiGHS (a +-1 column on
  its error or accuracy set, gamma = 1 - 2 delta) are (2.3)'s, and the multipliers read back
  from them are (2.2)'s.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linprog

from .result import CheckResult

__all__ = [
    "check_lpboost_lower_bound_instance",
    "check_lpboost_soft_margin",
    "check_lpboost_sparse_edge_rows",
    "lp_d_domain",
    "lp_w_domain",
    "lower_bound_instance",
    "soft_margin_closed_form",
    "slack_rule",
]

_HIGHS = "highs"


def lp_w_domain_margins(m: np.ndarray, nu: float) -> tuple[float, np.ndarray]:
    """max_{psi >= 0} min_n (m_n + psi_n) - (1/nu) sum psi  as an LP; returns (value, psi)."""
    N = len(m)
    # variables x = (rho, psi_1..psi_N); minimize -rho + sum psi / nu
    c = np.hstack([-1.0, np.full(N, 1.0 / nu)])
    A_ub = np.hstack([np.ones((N, 1)), -np.eye(N)])  # rho - psi_n <= m_n
    res = linprog(c, A_ub=A_ub, b_ub=m, bounds=[(None, None)] + [(0, None)] * N, method=_HIGHS)
    if res.status != 0:
        raise RuntimeError(res.message)
    return float(-res.fun), res.x[1:]


def lp_d_domain(U: np.ndarray, nu: float) -> tuple[float, np.ndarray]:
    """(2.3): min_{d in S^N, d <= 1/nu} max_q u^q.d as an LP (HiGHS); returns (P_LP^t, d)."""
    N, t = U.shape
    c = np.hstack([np.zeros(N), 1.0])  # x = (d, gamma)
    A_ub = np.hstack([U.T, -np.ones((t, 1))])  # u^q.d - gamma <= 0
    A_eq = np.hstack([np.ones((1, N)), np.zeros((1, 1))])
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(t), A_eq=A_eq, b_eq=[1.0],
                  bounds=[(0, 1.0 / nu)] * N + [(None, None)], method=_HIGHS)
    if res.status != 0:
        raise RuntimeError(res.message)
    return float(res.fun), res.x[:N]


def lp_w_domain(U: np.ndarray, nu: float) -> tuple[float, np.ndarray, np.ndarray]:
    """(2.2): max_{w in S^t, psi >= 0} min_n ((Uw)_n + psi_n) - sum psi / nu; (value, w, psi)."""
    N, t = U.shape
    # x = (w, psi, rho); minimize -rho + sum psi / nu
    c = np.hstack([np.zeros(t), np.full(N, 1.0 / nu), -1.0])
    A_ub = np.hstack([-U, -np.eye(N), np.ones((N, 1))])  # rho - (Uw)_n - psi_n <= 0
    A_eq = np.hstack([np.ones((1, t)), np.zeros((1, N + 1))])
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(N), A_eq=A_eq, b_eq=[1.0],
                  bounds=[(0, None)] * (t + N) + [(None, None)], method=_HIGHS)
    if res.status != 0:
        raise RuntimeError(res.message)
    return float(-res.fun), res.x[:t], res.x[t:t + N]


def min_capped_simplex(m: np.ndarray, nu: float) -> float:
    """min_{d in S^N, d <= 1/nu} d.m as an LP (the d-domain side for fixed margins)."""
    N = len(m)
    res = linprog(m, A_eq=np.ones((1, N)), b_eq=[1.0], bounds=[(0, 1.0 / nu)] * N, method=_HIGHS)
    if res.status != 0:
        raise RuntimeError(res.message)
    return float(res.fun)


def soft_margin_closed_form(m: np.ndarray, nu: float) -> float:
    """Average of the nu smallest margins with the fractional part: weight 1/nu on the
    floor(nu) smallest, 1 - floor(nu)/nu on the next one."""
    ms = np.sort(m)
    k = math.floor(nu)
    val = ms[:k].sum() / nu
    if k < len(ms):
        val += (1.0 - k / nu) * ms[k]
    return float(val)


def slack_rule(m: np.ndarray, nu: float, kind: str = "max") -> tuple[float, np.ndarray]:
    """rho = ceil(nu)-th smallest margin and psi_n = max(0, rho - m_n) (thesis §2: erratum #2
    says the thesis prints ``min``; ``kind="min"`` gives that erroneous variant)."""
    rho = float(np.sort(m)[math.ceil(nu) - 1])
    psi = np.maximum(0.0, rho - m) if kind == "max" else np.minimum(0.0, rho - m)
    return rho, psi


def _soft_margin_objective(m: np.ndarray, psi: np.ndarray, nu: float) -> float:
    return float(np.min(m + psi) - psi.sum() / nu)


def _verdict(name: str, ref: str, failures: list[str], count: int, detail: str
             ) -> CheckResult:
    """Failed with the count and the first failure when there is one, else passed with
    ``detail``."""
    if failures:
        return CheckResult(name, ref, False,
                           f"{len(failures)}/{count} cases failed; first: {failures[0]}")
    return CheckResult(name, ref, True, detail)


def check_lpboost_soft_margin(slack: str = "max", n_trials: int = 40, tol: float = 1e-9
                              ) -> CheckResult:
    """Soft margin (2.2) vs capping (2.3), and the slack rule psi_n = max(0, rho - m_n).

    For random margins m (N in {5, 9, 16}) and nu in {1, 2, 2.5, 3.7, N - 0.5, N}:
    LP value of max_{psi>=0} min_n(m_n + psi_n) - sum psi/nu  ==  LP value of
    min_{d capped simplex} d.m  ==  closed-form average of the nu smallest margins; and the slack
    rule (``slack="max"``; ``"min"`` is the thesis's erroneous text, erratum #2) is feasible and
    attains that value.  Also (2.2) == (2.3) for random U with t = 4 (LP duality).
    """
    name = "LPBoost soft margin = capped average"
    ref = "thesis (2.2), (2.3), §2 slack psi_n (erratum #2)"
    rng = np.random.default_rng(11)
    worst = 0.0
    failures: list[str] = []
    count = 0
    for trial in range(n_trials):
        N = (5, 9, 16)[trial % 3]
        m = rng.uniform(-1, 1, N)
        if trial % 4 == 0:  # ties
            m[1] = m[0]
        for nu in (1.0, 2.0, 2.5, 3.7, N - 0.5, float(N)):
            v_lp, _ = lp_w_domain_margins(m, nu)
            v_d = min_capped_simplex(m, nu)
            v_cf = soft_margin_closed_form(m, nu)
            _, psi = slack_rule(m, nu, slack)
            v_rule = _soft_margin_objective(m, psi, nu)
            errs = (abs(v_lp - v_d), abs(v_lp - v_cf), abs(v_lp - v_rule))
            worst = max(worst, *errs)
            count += 1
            if max(errs) > tol or np.any(psi < -tol):
                failures.append(f"N={N}, nu={nu:g}: LP={v_lp:.6f}, cf={v_cf:.6f}, "
                                f"rule={v_rule:.6f}, min psi={psi.min():.3g}")
    # full (2.2) == (2.3) on random U
    for _ in range(10):
        U = rng.choice([-1.0, 1.0], size=(12, 4)) * rng.uniform(0.2, 1, (12, 4))
        for nu in (1.0, 3.0, 4.5):
            p23, _ = lp_d_domain(U, nu)
            p22, w, psi = lp_w_domain(U, nu)
            # and for the optimal w the soft-margin closed form reproduces the value
            cf = soft_margin_closed_form(U @ w, nu)
            e = max(abs(p22 - p23), abs(cf - p22))
            worst = max(worst, e)
            count += 1
            if e > 1e-7:
                failures.append(f"(2.2)={p22:.6f} vs (2.3)={p23:.6f}, cf={cf:.6f} (nu={nu:g})")
    return _verdict(name, ref, failures, count,
                    f"{count} cases (HiGHS LPs; integer & fractional nu; slack={slack}); "
                    f"max |difference| = {worst:.1e}")


# --------------------------------------------------------------------------------------------
# Theorem 2.5 / Fig. 2.8 lower-bound instance
# --------------------------------------------------------------------------------------------

_FIG_2_8 = [  # (coefficient of 1, coefficient of delta) per entry, rows n = 1..8, columns 1..5
    [(1, 0), (-1, 5), (-1, 7), (-1, 9), (-1, 1)],
    [(1, 0), (-1, 5), (-1, 7), (-1, 9), (-1, 1)],
    [(1, 0), (-1, 5), (-1, 7), (-1, 9), (-1, 1)],
    [(1, 0), (-1, 5), (-1, 7), (-1, 9), (-1, 1)],
    [(-1, 2), (1, 0), (-1, 7), (-1, 9), (1, -1)],
    [(-1, 3), (-1, 4), (1, 0), (-1, 9), (1, -1)],
    [(-1, 3), (-1, 5), (-1, 6), (1, 0), (1, -1)],
    [(-1, 3), (-1, 5), (-1, 7), (-1, 8), (1, -1)],
]


def lower_bound_instance(N: int, delta: float) -> np.ndarray:
    """U (N x (N/2 + 1)) of Theorem 2.5, thesis Fig. 2.8's rule for any even N (columns in
    oracle order).  Row n (1-based) has s = 0 for n <= m = N/2 and s = n - m otherwise; for column
    t <= m the entry is -1 + 2 t delta if t == s, +1 if t == s + 1, else -1 + (2t + 1) delta;
    the last column is -1 + delta on the first half and 1 - delta on the second."""
    if N % 2:
        raise ValueError("N must be even")
    m = N // 2
    s = np.concatenate([np.zeros(m, dtype=int), np.arange(1, m + 1)])[:, None]  # (N, 1)
    t = np.arange(1, m + 1)[None, :]  # (1, m)
    U = np.where(t == s, -1 + 2 * t * delta,
                 np.where(t == s + 1, 1.0, -1 + (2 * t + 1) * delta))
    last = np.where(s[:, 0] == 0, -1 + delta, 1 - delta)[:, None]
    return np.hstack([U, last])


def check_lpboost_lower_bound_instance(N: int = 8, delta: float = 1e-3, nu_soft: int = 3,
                                       claimed_slope: float = 2.0) -> CheckResult:
    """Theorem 2.5 / Fig. 2.8: LPBoost needs N/2 iterations on the pivot instance.

    Builds U by thesis Fig. 2.8's rule (any even N), checks it equals the printed N = 8 table,
    then solves
    (2.3) (HiGHS) restricted to the first t columns: P_LP^t = -1 + claimed_slope * t * delta
    with d^t = e_{m+t} (a pivot, Lemma 2.4) for t = 1..N/2, and P_LP >= delta/2 for all
    N/2 + 1 columns.  Also simulates the max-edge oracle from d^0 = uniform (order 1..N/2+1)
    and the soft version (rows repeated ``nu_soft`` times, capping nu_soft) giving the same
    values.  ``claimed_slope`` != 2 is a deliberately wrong variant.
    """
    name = "LPBoost Omega(N) instance (Fig. 2.8)"
    ref = "thesis Thm 2.5, Fig. 2.8, (2.3), Lemma 2.4"
    m = N // 2
    U = lower_bound_instance(N, delta)
    failures: list[str] = []
    if N == 8:
        table = np.array([[a + b * delta for a, b in row] for row in _FIG_2_8])
        if not np.allclose(U, table, atol=1e-15, rtol=0):
            failures.append("rule does not reproduce the printed Fig. 2.8 table")
    values = []
    d_prev = np.full(N, 1.0 / N)
    order = []
    remaining = list(range(m + 1))
    for t in range(1, m + 2):
        # oracle: remaining column with maximum edge w.r.t. d^{t-1}
        edges = U[:, remaining].T @ d_prev
        order.append(remaining.pop(int(np.argmax(edges))))
        P, d = lp_d_domain(U[:, :t], 1.0)
        values.append(P)
        if t <= m:
            want = -1 + claimed_slope * t * delta
            if abs(P - want) > 1e-9:
                failures.append(f"P_LP^{t}={P:.6g} != {want:.6g}")
            if not np.allclose(d, np.eye(N)[m + t - 1], atol=1e-9):
                failures.append(f"d^{t} != e_{m + t}")
        elif P < delta / 2 - 1e-12:
            failures.append(f"P_LP^{t}={P:.6g} < delta/2")
        d_prev = d
    if order != list(range(m + 1)):
        failures.append(f"oracle order {order}")
    # soft version: duplicate rows nu_soft times and cap at nu_soft
    U_soft = np.repeat(U, nu_soft, axis=0)
    soft_vals = [lp_d_domain(U_soft[:, :t], float(nu_soft))[0] for t in range(1, m + 1)]
    if not np.allclose(soft_vals, values[:m], atol=1e-9):
        failures.append(f"soft (nu={nu_soft}) values {np.round(soft_vals, 6)}")
    vals_txt = ", ".join(f"{v:.4g}" for v in values)
    if failures:
        return CheckResult(name, ref, False, "FAILED: " + "; ".join(failures[:3]))
    return CheckResult(name, ref, True,
                       f"N={N}, delta={delta:g}: P_LP^t = {vals_txt}; pivots e_(m+t), "
                       f"oracle order 1..{m + 1}, soft nu={nu_soft} identical")


# --------------------------------------------------------------------------------------------
# The LP master's sparse edge rows (dualboost/masters/highs_lp.py; docs/theory.md, LPBoost)
# --------------------------------------------------------------------------------------------

def _library_mapping(rows, y: np.ndarray) -> tuple[np.ndarray, float]:
    return rows.multipliers(y)


def check_lpboost_sparse_edge_rows(mapping=None, n_trials: int = 20,
                                   tol: float = 1e-12) -> CheckResult:
    """The edge rows the LP master gives HiGHS are (2.3)'s rows, and its multipliers are (2.2)'s.

    Symbolically (sympy, N = 4, every sign pattern u in {-1, 1}^4, and a general column): with
    gamma = 1 - 2 delta and S = sum(d), the row that ``EdgeRows`` writes for u, minus its bound,
    is ``-(u.d - gamma)/2 + (S - 1)/2`` (error set, ``>= 0``), ``(u.d - gamma)/2 + (S - 1)/2``
    (accuracy set, ``<= 0``) or ``u.d - gamma`` (general, ``<= 0``): on sum(d) = 1 each is the
    row of (2.3) scaled by a positive factor for its sense, so the LP is the same.
    Numerically: for random row duals y of such a model (mixed forms), HiGHS's reduced costs
    ``z = c - A^T y`` of d equal ``(U w)_n + beta`` and delta's equals ``2 (sum(w) - 1)``, with
    (w, beta) read back by ``EdgeRows.multipliers`` (``mapping`` replaces it: a wrong variant).
    """
    import sympy as sp

    from dualboost.masters.highs_lp import EdgeRows

    name = "LPBoost sparse edge rows"
    ref = "thesis (2.2), (2.3); docs/theory.md, sparse edge rows"
    mapping = _library_mapping if mapping is None else mapping
    N = 4
    d = sp.symbols(f"d0:{N}")
    delta = sp.Symbol("delta")
    gamma = 1 - 2 * delta
    S = sum(d)
    failures: list[str] = []
    count = 0
    patterns = [np.array(p, dtype=float) for p in np.ndindex(*(2,) * N)]
    for bits in patterns:
        u = 2.0 * bits - 1.0
        rows = EdgeRows.of(u[:, None])
        A = rows.coefficients(u[:, None])[:, 0]
        row = sum(sp.Integer(int(a)) * dn for a, dn in zip(A, d)) + \
            sp.Integer(int(rows.delta_coef[0])) * delta
        edge = sum(sp.Integer(int(un)) * dn for un, dn in zip(u, d)) - gamma
        if rows.errors[0]:  # row >= 0
            expected, form = -edge / 2 + (S - 1) / 2, "error"
            residual = row - 0
        elif rows.accuracy[0]:  # row <= 1
            expected, form = edge / 2 + (S - 1) / 2, "accuracy"
            residual = row - 1
        else:
            failures.append(f"u = {u}: a +-1 column not written on a set")
            continue
        count += 1
        if sp.expand(residual - expected) != 0:
            failures.append(f"u = {u} ({form} row): {sp.expand(residual - expected)} != 0")
    u_sym = sp.symbols(f"u0:{N}")
    general = EdgeRows.of(np.array([[0.3], [-0.7], [1.0], [-1.0]]))
    if general.errors[0] or general.accuracy[0]:
        failures.append("a column with entries other than +-1 was written on a set")
    else:
        row = sum(un * dn for un, dn in zip(u_sym, d)) + \
            sp.Float(float(general.delta_coef[0])) * delta
        count += 1
        if sp.expand(row - 1 - (sum(un * dn for un, dn in zip(u_sym, d)) - gamma)) != 0:
            failures.append("general row != u.d - gamma")
    # the multipliers: reduced costs of a mixed model against (2.2)'s Lagrangian
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(n_trials):
        n, t = 9, 7
        U = np.where(rng.random((n, t)) < rng.uniform(0.1, 0.9, t), -1.0, 1.0)
        U[:, ::3] = rng.uniform(-1, 1, (n, U[:, ::3].shape[1]))
        rows = EdgeRows.of(U)
        y = rng.normal(size=t + 1)
        A = rows.coefficients(U)
        z_d = -(A @ y[1:]) - y[0]  # c_n = 0; row 0 (sum d = 1) has coefficient 1
        z_delta = -2.0 - float(rows.delta_coef @ y[1:])  # c = -2
        w, beta = mapping(rows, y)
        err = max(float(np.abs(z_d - (U @ w + beta)).max()),
                  abs(z_delta - 2.0 * (float(w.sum()) - 1.0)))
        worst = max(worst, err)
        count += 1
        if err > tol:
            failures.append(f"reduced costs differ from (U w)_n + beta by {err:.3g}")
    return _verdict(name, ref, failures, count,
                    f"{count} cases: {len(patterns)} sign patterns and a general column "
                    f"(sympy), {n_trials} random duals of mixed models (max |difference| "
                    f"{worst:.1e})")
