"""Iteration-bound algebra (Thms 3.10/3.12), regularizer bounds, and Lemma 3.3's eps/2.

Checks
------
* :func:`check_iteration_bound_algebra` -- 16 eta/eps and 32 eta/eps at the canonical eta
  (with the max with 1/2), and the step "t < 8 eta/delta^t" of the proof of Thm 3.10.
* :func:`check_relative_entropy_bound` -- Delta(d, d0) <= ln(N/nu) on the capped simplex.
* :func:`check_binary_entropy_bound` -- Delta_{2,nu}(d, d0) <= ln(N/nu) + 1.
* :func:`check_regularizer_contribution` -- (1/eta) ln(N/nu) = eps/2 and, numerically,
  P_LP^t <= P^t(d^t) <= P_LP^t + eps/2 (3.7).
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from scipy.optimize import linprog

from .duality import erlpboost_dual_slsqp, erlpboost_primal_slsqp, primal_value, theta_hat
from .lpboost import lp_d_domain
from .result import CheckResult, Comparisons, summarize_methods, sym_equal

__all__ = [
    "binary_relative_entropy",
    "check_binary_entropy_bound",
    "check_iteration_bound_algebra",
    "check_regularizer_contribution",
    "check_relative_entropy_bound",
    "relative_entropy",
]


def check_iteration_bound_algebra(eta_factor: float = 2) -> CheckResult:
    """Theorems 3.10 / 3.12 and (3.17): bound algebra with sympy (L := ln(N/nu) > 0, eps > 0).

    * eta = (2/eps) L gives 16 eta/eps = 32 L/eps^2 and 32 eta/eps = 64 L/eps^2;
    * eta >= 1/2 iff eps <= 4L (thesis remark after Thm 3.10), and 32L/eps^2 >= 8/eps iff
      eps <= 4L (the same threshold), hence 16 max(eta, 1/2)/eps = max(32 L/eps^2, 8/eps) and
      32 max(eta, 1/2)/eps = max(64 L/eps^2, 16/eps) (also checked on a grid);
    * the step of the proof: delta^t <= 8 eta/(t - 1 + 8 eta/delta^1), 0 < delta^1 <= 2,
      eta >= 1/2  =>  t < 8 eta/delta^t, and delta^T > eps/2  =>  T < 16 eta/eps (random
      sampling).
    ``eta_factor`` replaces the 2 of the canonical eta (a deliberately wrong variant if != 2).
    """
    name = "Thm 3.10/3.12 bound algebra"
    ref = "thesis (3.17), Theorems 3.10 and 3.12"
    L, eps = sp.symbols("L epsilon", positive=True)
    eta = sp.nsimplify(eta_factor) * L / eps
    dom = {L: (sp.Rational(1, 10), 5), eps: (sp.Rational(1, 100), 2)}
    cmp = Comparisons(dom)
    methods, fails = cmp.methods, cmp.failures

    cmp("16 eta/eps", 16 * eta / eps, 32 * L / eps**2)
    cmp("32 eta/eps", 32 * eta / eps, 64 * L / eps**2)
    # thresholds: with eps > 0 both differences have the sign of (4L - eps), so eta >= 1/2
    # iff eps <= 4L iff 32L/eps^2 >= 8/eps, which is what makes the two Max's agree
    cmp("eta - 1/2 = (4L - eps)/(2 eps)", eta - sp.Rational(1, 2), (4 * L - eps) / (2 * eps))
    cmp("32L/eps^2 - 8/eps = 8(4L - eps)/eps^2", 32 * L / eps**2 - 8 / eps,
        8 * (4 * L - eps) / eps**2)
    # max identities on a grid (Max does not simplify symbolically)
    simple = sp.lambdify((L, eps), 16 * sp.Max(eta, sp.Rational(1, 2)) / eps - sp.Max(
        32 * L / eps**2, 8 / eps))
    practical = sp.lambdify((L, eps), 32 * sp.Max(eta, sp.Rational(1, 2)) / eps - sp.Max(
        64 * L / eps**2, 16 / eps))
    grid = [(float(a), float(b))
            for a in np.linspace(0.05, 6, 40) for b in np.geomspace(1e-3, 20, 40)]
    worst = max(max(abs(simple(a, b)), abs(practical(a, b))) / (1 + 64 * a / b**2 + 16 / b)
                for a, b in grid)
    if worst > 1e-12:
        fails.append(f"max identity off by {worst:.2e}")
    # proof step t < 8 eta / delta^t  and  T < 16 eta / eps
    rng = np.random.default_rng(2)
    n_bad = 0
    for _ in range(20000):
        e = 0.5 + rng.exponential(20)
        d1 = rng.uniform(1e-6, 2)
        t = int(rng.integers(1, 10**6))
        dt = rng.uniform(0, 1) * 8 * e / (t - 1 + 8 * e / d1)
        if dt > 0 and not t < 8 * e / dt:
            n_bad += 1
        ep = rng.uniform(0, 2 * dt)  # any eps with dt > eps / 2
        if ep > 0 and dt > ep / 2 and not t < 16 * e / ep:
            n_bad += 1
    if n_bad:
        fails.append(f"{n_bad} samples violate t < 8 eta/delta^t or T < 16 eta/eps")
    detail = (f"sympy: {summarize_methods(methods)} (incl. eta >= 1/2 iff eps <= 4 ln(N/nu) "
              "iff 32 ln/eps^2 >= 8/eps); "
              f"max identities on {len(grid)} grid points (max err {worst:.1e}); "
              f"20000 samples of the (3.17) step")
    if fails:
        detail += "; FAILED: " + ", ".join(fails)
    return CheckResult(name, ref, not fails, detail)


# --------------------------------------------------------------------------------------------
# regularizer bounds
# --------------------------------------------------------------------------------------------


def relative_entropy(d: np.ndarray, d0: np.ndarray) -> float:
    """Delta(d, d0) = sum d_n ln(d_n/d0_n) with 0 ln 0 = 0."""
    pos = d > 0
    return float(np.sum(d[pos] * np.log(d[pos] / d0[pos])))


def binary_relative_entropy(d: np.ndarray, d0: np.ndarray, nu: float) -> float:
    """Delta_{2,nu}(d, d0) = Delta(d, d0) + sum (1/nu - d_n) ln((1/nu - d_n)/(1/nu - d0_n))."""
    c = 1.0 / nu - d
    c0 = 1.0 / nu - d0
    pos = c > 1e-300
    return relative_entropy(d, d0) + float(np.sum(c[pos] * np.log(c[pos] / c0[pos])))


def _capped_vertex(N: int, nu: float) -> np.ndarray:
    """floor(nu) entries 1/nu, one entry 1 - floor(nu)/nu, rest 0."""
    k = math.floor(nu)
    v = np.zeros(N)
    v[:k] = 1.0 / nu
    if k < N:
        v[k] = 1.0 - k / nu
    return v


def _lp_vertices(N: int, nu: float, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Vertices of the capped simplex found by minimizing random linear objectives (HiGHS)."""
    out = []
    for _ in range(n):
        res = linprog(rng.normal(size=N), A_eq=np.ones((1, N)), b_eq=[1.0],
                      bounds=[(0, 1.0 / nu)] * N, method="highs")
        out.append(np.clip(res.x, 0, 1.0 / nu))
    return out


def _random_capped_points(N: int, nu: float, rng: np.random.Generator, n: int
                          ) -> list[np.ndarray]:
    """Random points of the capped simplex: random convex combinations of random vertices."""
    base = _capped_vertex(N, nu)
    pts = []
    for _ in range(n):
        k = int(rng.integers(1, 6))
        lam = rng.dirichlet(np.ones(k))
        pts.append(sum(li * rng.permutation(base) for li in lam))
    return pts


_CASES = [(10, 1.0), (10, 2.5), (10, 3.0), (50, 7.3), (100, 1.0), (100, 99.5), (7, 6.0), (6, 5.5)]


def check_relative_entropy_bound() -> CheckResult:
    """Delta(d, d0) <= ln(N/nu) for d in the capped simplex, uniform d0 (used in Lemma 3.3,
    (3.7), Thm 3.10).

    Delta is convex, so its max over the polytope is at a vertex.  For several (N, nu) the
    vertices are produced by LPs with random objectives (HiGHS), compared with the predicted
    shape (floor(nu) entries 1/nu, one entry 1 - floor(nu)/nu), and Delta there must be
    <= ln(N/nu) (with equality for integer nu); random interior points must be below it too.
    """
    name = "Delta(d,d0) <= ln(N/nu)"
    ref = "thesis Lemma 3.3, (3.7), Thm 3.10; docs/theory.md T1"
    rng = np.random.default_rng(4)
    fails: list[str] = []
    rows = []
    for N, nu in _CASES:
        d0 = np.full(N, 1.0 / N)
        bound = math.log(N / nu)
        pred = np.sort(_capped_vertex(N, nu))
        v_vals = []
        for v in _lp_vertices(N, nu, rng, 10):
            if not np.allclose(np.sort(v), pred, atol=1e-9):
                fails.append(f"N={N}, nu={nu}: LP vertex has unexpected shape")
            v_vals.append(relative_entropy(v, d0))
        p_vals = [relative_entropy(p, d0) for p in _random_capped_points(N, nu, rng, 200)]
        vmax, pmax = max(v_vals), max(p_vals)
        if vmax > bound + 1e-12 or pmax > bound + 1e-12:
            fails.append(f"N={N}, nu={nu}: max Delta {max(vmax, pmax):.6f} > {bound:.6f}")
        if float(nu).is_integer() and abs(vmax - bound) > 1e-9:
            fails.append(f"N={N}, nu={nu}: not tight at a vertex ({vmax:.6f} vs {bound:.6f})")
        if pmax > vmax + 1e-12:
            fails.append(f"N={N}, nu={nu}: interior point above the vertices")
        rows.append(f"({N},{nu:g}): {vmax:.3f}<={bound:.3f}")
    detail = "vertex max vs ln(N/nu): " + ", ".join(rows[:5]) + ", ..."
    if fails:
        detail = "FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, not fails, detail)


def check_binary_entropy_bound(slack: float = 1.0) -> CheckResult:
    """Delta_{2,nu}(d, d0) <= ln(N/nu) + ``slack`` (thesis: slack = 1) on the capped simplex,
    uniform d0, nu < N (stated without proof in §3.3.1; used by Lemmas 3.15, 3.17, Thm 3.21).

    Delta_{2,nu} is convex in d, so the max is at a vertex (found by LPs); random interior
    points are checked too.  Also the [DERIVED] ingredient ((N - nu)/nu) ln(1 + nu/(N - nu))
    <= 1 and the spec's example N = 100, nu = 1: 5.600 <= 5.605.  ``slack=0`` must fail.
    """
    name = "Delta_2,nu(d,d0) <= ln(N/nu)+1"
    ref = "thesis §3.3.1-3.3.2 (Lemmas 3.15, 3.17), Thm 3.21; docs/theory.md T1"
    rng = np.random.default_rng(6)
    fails: list[str] = []
    ex = None
    for N, nu in _CASES:
        if nu >= N:
            continue
        d0 = np.full(N, 1.0 / N)
        bound = math.log(N / nu) + slack
        v_vals = [binary_relative_entropy(v, d0, nu) for v in _lp_vertices(N, nu, rng, 10)]
        p_vals = [binary_relative_entropy(p, d0, nu)
                  for p in _random_capped_points(N, nu, rng, 200)]
        m = max(v_vals + p_vals)
        if m > bound + 1e-12:
            fails.append(f"N={N}, nu={nu:g}: {m:.4f} > {bound:.4f}")
        if max(p_vals) > max(v_vals) + 1e-12:
            fails.append(f"N={N}, nu={nu:g}: interior point above the vertices")
        second = (N - nu) / nu * math.log1p(nu / (N - nu))
        if second > 1 + 1e-15:
            fails.append(f"N={N}, nu={nu:g}: second-sum bound {second:.4f} > 1")
        if (N, nu) == (100, 1.0):
            ex = (max(v_vals), bound)
    if ex is None or round(ex[0], 3) != 5.600:
        fails.append(f"N=100, nu=1 vertex value {ex} (expected 5.600)")
    detail = (f"{len(_CASES) - 1} (N, nu) cases, LP vertices + random points; "
              f"N=100, nu=1: {ex[0]:.3f} <= {ex[1]:.3f}" if ex else "")
    if fails:
        detail = "FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, not fails, detail)


def check_regularizer_contribution(eta_factor: float = 2) -> CheckResult:
    """Lemma 3.3 / (3.7): at eta = (2/eps) ln(N/nu) the regularizer contributes at most eps/2.

    sympy: (1/eta) ln(N/nu) = eps/2.  Numeric (random instance N=8, t=4, nu=2, eps=0.2, so
    eta = 10 ln 4): P_LP^t <= P^t(d^t) <= P_LP^t + ln(N/nu)/eta = P_LP^t + eps/2, with P_LP^t
    from HiGHS on (2.3) and P^t(d^t) from SLSQP on (3.6) (bracketed by the dual value (3.10)).
    ``eta_factor`` replaces the 2 in eta (a deliberately wrong variant if != 2).
    """
    name = "Regularizer <= eps/2 (Lemma 3.3)"
    ref = "thesis Lemma 3.3, (3.7), Lemma 3.5 (3.9)"
    N_s, nu_s, eps_s = sp.symbols("N nu epsilon", positive=True)
    eta_s = sp.nsimplify(eta_factor) / eps_s * sp.log(N_s / nu_s)
    ok_sym, how = sym_equal(sp.log(N_s / nu_s) / eta_s, eps_s / 2,
                            {N_s: (2, 100), nu_s: (1, 2), eps_s: (sp.Rational(1, 100), 1)})
    N, t, nu, eps = 8, 4, 2.0, 0.2
    eta = eta_factor / eps * math.log(N / nu)
    U = np.random.default_rng(8).uniform(-1, 1, (N, t))
    P_lp, _ = lp_d_domain(U, nu)
    d = erlpboost_primal_slsqp(U, eta, nu)
    P = primal_value(U, d, eta)
    w, psi = erlpboost_dual_slsqp(U, eta, nu)
    lower = theta_hat(U, w, psi, eta, nu)  # <= min P^t <= P
    tol = 1e-7
    num_ok = (P_lp <= lower + tol) and (P <= P_lp + eps / 2 + tol) and (P - lower <= 1e-6)
    detail = (f"(1/eta) ln(N/nu) {'=' if ok_sym else '!='} eps/2 [{how}]; "
              f"P_LP={P_lp:.5f} <= Theta_hat={lower:.5f} <= P={P:.5f} <= P_LP+eps/2="
              f"{P_lp + eps / 2:.5f} (eta={eta:.3f})")
    return CheckResult(name, ref, bool(ok_sym and num_ok), detail)
