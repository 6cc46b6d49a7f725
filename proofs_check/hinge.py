"""Seed 002's hinge (21)/(22) and squared hinge (27) with their own D: the duals derived from the
Lagrangians (stationarity -> dual) and the maps of identities I33 and I32.

Naming as in the toolkit: the *primal* is the d-domain problem (seed 002's "dual", u = d), the
*dual* the w-domain one.

* (21) -> (22), identity I33: L = rho - D 1.xi + sum_i u_i (m_i - rho + xi_i) + w.(r - ...) is
  linear in xi, rho and w (N = 3, t = 2, symbolic margins); bounded above over xi >= 0 iff the
  xi-coefficients u_i - D <= 0 (the caps u <= D = 1/nu of LPBoost (2.3)), over rho iff
  1 - sum u = 0, and over w in the simplex the edges' max is r: (22) is (2.3) at nu = 1/D.
  Mistake ``hinge_penalty_inverted``: the penalty sum(xi)/D (caps 1/D, i.e. nu = D).
* (27) as the member ``lpboost_sqhinge``, identity I32: sup_{xi >= 0} (u xi - D xi^2) =
  u^2/(4D) by stationarity; the declared R = (N/2) sum d^2 - sum d + 1/2 and R*(y) = (N/2) sum
  pos(1/N + y/N)^2 - 1/2 are conjugate (stationarity of y x - R_n(x)); on the simplex (N = 3)
  r + sum u^2/(4D) = gamma + R(d)/eta + 1/(4DN) with eta = 2DN, the l_p hinge's
  (pDN)^{q-1}/(q-1) at p = q = 2. Mistake ``sqhinge_eta_DN``: eta = DN.
"""

from __future__ import annotations

import sympy as sp

from .result import CheckResult

__all__ = ["check_hinge_duals"]

MISTAKES = ("hinge_penalty_inverted", "sqhinge_eta_DN")


def check_hinge_duals(mistake: str | None = None) -> CheckResult:
    if mistake is not None and mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r}; known: {', '.join(MISTAKES)}")
    N = 3
    D = sp.symbols("D", positive=True)
    u = sp.symbols("u1:4", nonnegative=True)
    xi = sp.symbols("xi1:4", nonnegative=True)
    rho, r = sp.symbols("rho r")
    w = sp.symbols("w1:3", nonnegative=True)
    U = sp.Matrix(N, 2, sp.symbols("U1:7"))
    margins = U * sp.Matrix(w)
    # (21)'s Lagrangian with the multipliers u >= 0 of its margin rows and r of 1.w = 1
    penalty = sum(xi) / D if mistake == "hinge_penalty_inverted" else D * sum(xi)
    L = rho - penalty + sum(u[i] * (margins[i] - rho + xi[i]) for i in range(N)) \
        - r * (sum(w) - 1)
    cap_rows = [sp.diff(L, x) for x in xi]  # <= 0 for a finite sup over xi >= 0
    caps = [sp.solve(sp.Eq(c, 0), u[i])[0] for i, c in enumerate(cap_rows)]
    normalization = sp.diff(L, rho)  # = 0 for a finite sup over a free rho
    edges = [sp.expand(sp.diff(L, wj) + r) for wj in w]  # e_j(u) - r <= 0 over w >= 0
    nu = 1 / D  # I33: lpboost's cap 1/nu is D
    ok_hinge = all(sp.simplify(c - 1 / nu) == 0 for c in caps) \
        and sp.simplify(normalization - (1 - sum(u))) == 0 \
        and all(sp.simplify(e - sum(u[i] * U[i, j] for i in range(N))) == 0
                for j, e in enumerate(edges)) \
        and sp.simplify(L.subs({x: 0 for x in xi}).subs(rho, 0).subs(
            {wj: 0 for wj in w}) - r) == 0  # the dual objective is r
    # (27): the squared hinge's penalty, the member's R and R*, and the value map
    x, y, uu = sp.symbols("x y uu", positive=True)
    stat = sp.solve(sp.diff(uu * x - D * x ** 2, x), x)[0]
    ok_sq = sp.simplify((uu * x - D * x ** 2).subs(x, stat) - uu ** 2 / (4 * D)) == 0
    Rn = sp.Rational(N, 2) * x ** 2 - x  # R's constant 1/2 is R*'s -1/2: both left out
    star = sp.solve(sp.diff(y * x - Rn, x), x)[0]  # = (1 + y)/N > 0 for y > -1
    declared = sp.Rational(N, 2) * (sp.Rational(1, N) + y / N) ** 2
    ok_sq = ok_sq and sp.simplify((y * x - Rn).subs(x, star) - declared) == 0
    d1, d2 = sp.symbols("d1 d2", positive=True)
    ds = [d1, d2, 1 - d1 - d2]
    R = sp.Rational(N, 2) * sum(v ** 2 for v in ds) - sum(ds) + sp.Rational(1, 2)
    eta = D * N if mistake == "sqhinge_eta_DN" else 2 * D * N
    p = q = 2
    ok_sq = ok_sq and sp.simplify(R - sp.Rational(N, 2) * sum(
        (v - sp.Rational(1, N)) ** 2 for v in ds)) == 0 \
        and sp.simplify(eta - (p * D * N) ** (q - 1) / (q - 1)) == 0 \
        and sp.simplify(R / eta + 1 / (4 * D * N) - sum(v ** 2 for v in ds) / (4 * D)) == 0
    return CheckResult(
        "seed 002: hinge (21)/(22) and squared hinge (27)",
        "seed 002 (21), (22), (27); thesis (2.2), (2.3), (3.6); docs/formulations.md I32, I33",
        bool(ok_hinge and ok_sq),
        f"(21)'s Lagrangian: caps u <= D = 1/nu, sum u = 1, edges <= r ({ok_hinge}); "
        f"sup (u xi - D xi^2) = u^2/(4D), R/R* conjugate, Opt(27) = P + 1/(4DN) at eta = 2DN "
        f"({ok_sq})" + (f" [mistake {mistake}]" if mistake else ""))
