"""Seed 002 (Shen & Li): the duals of (2)+budget, (41), (27)/(28) and the cost-sensitive (5),
each derived from its Lagrangian (stationarity -> dual), and the identities with the thesis family.

Naming as in the toolkit: the *primal* is the d-domain problem (seed 002's "dual"), the *dual*
the w-domain one. Each check takes ``mistake=True`` for a deliberately wrong variant that must
fail (tests/test_proofs_check.py runs both).

* :func:`check_exp_loss_dual` -- (2) with 1^T w = 1/T: inf_d of ``gamma + T Delta_U(d, 1/N) +
  w.(U^T d - gamma)`` gives d = exp(-(U w)/T)/N and Theta = T - (T/N) sum exp(-(U w)/T); with
  u = N d, r = -N gamma the d-domain objective is (14)'s: Opt(14) = N (1 - P/T) (erratum 5: (14)
  is the dual of the non-log loss (2)). Mistake: the normalized relative entropy (drops -d + d0).
* :func:`check_qp_dual` -- (41): stationarity of ``gamma + (NT/2)||d - 1/N||^2 + w.(U^T d - gamma)
  + beta (1.d - 1)`` gives d = 1/N - (U w + beta)/(NT), beta = -mean(U w), Theta = mean(rho) -
  var(rho)/(2T) and -T Theta = (1/2) w^T A w - T b^T w, (41) with A = C^T C/N (symbolic U, N = 3,
  t = 2); u~ = (1 - (rho - mean rho)/T)/N and var(rho) = N^2 T^2 var(u~) (§3.4's (26) for (41)).
  Mistake: the sample variance (1/(N-1)) in A.
* :func:`check_lp_hinge_dual` -- (27)/(28): sup_{xi >= 0} (u xi - D xi^p) = (1/q)(pD)^{1-q} u^q =
  D^{1-q}(p^{1-q} - p^{-q}) u^q (the printed coefficient, p = 3/2, 2, 5/2, 3); the member's
  R(d)/eta + c_p N^{1-q} = c_p sum d^q on the simplex with eta = (pDN)^{q-1}/(q-1), R* its
  conjugate (stationarity), and at p = 2 R = (N/2)||d - 1/N||^2 on the simplex, eta = 2DN (the
  l2 member). Mistake: the coefficient p^{1-q} + p^{-q}.
* :func:`check_cost_sensitive_dual` -- the weighted (5): sup_z [u.z - ln sum c e^z] over the
  simplex is sum u ln(u/c) at u = c e^z / sum c e^z (N = 3), and T sum u ln(u/c) = T Delta(u,
  c/sum c) - T ln(sum c): ERLPBoost with d0 = c/sum c, eta = 1/T, nu = 1, shifted by -T ln(sum c).
  Mistake: the prior c itself (no normalization).
"""

from __future__ import annotations

import sympy as sp

from .result import CheckResult

__all__ = ["check_cost_sensitive_dual", "check_exp_loss_dual", "check_lp_hinge_dual",
           "check_qp_dual"]


def _zero(expr) -> bool:
    return sp.simplify(sp.expand(expr)) == 0


def check_exp_loss_dual(mistake: bool = False) -> CheckResult:
    d, m, T, N, gamma = sp.symbols("d m T N gamma", positive=True)
    # one example's term of the Lagrangian: T Delta_U(d, 1/N) + m d, m = (U w)_n
    delta = d * sp.log(d * N) - d + 1 / N
    if mistake:
        delta = d * sp.log(d * N)
    term = T * delta + m * d
    stationary = sp.solve(sp.diff(term, d), d)
    ok = len(stationary) == 1 and _zero(stationary[0] - sp.exp(-m / T) / N)
    value = sp.simplify(term.subs(d, stationary[0])) if stationary else sp.nan
    ok = ok and _zero(value - (T / N - T / N * sp.exp(-m / T)))
    # (14) at u = N d, r = -N gamma (edges U^T u <= -r <=> U^T d <= gamma): for any d, gamma
    n = 3
    ds = sp.symbols("d1:4", positive=True)
    P = gamma + T * sum(x * sp.log(x * n) - x + sp.Rational(1, n) for x in ds)
    u = [n * x for x in ds]
    seed14 = (-n * gamma) / T - sum(x * sp.log(x) for x in u) + sum(u)
    ok = ok and _zero(sp.expand_log(seed14 - n * (1 - P / T), force=True))
    return CheckResult("seed 002: (2)+budget -> (14)", "seed 002 (2), (5), (14); thesis (3.18)",
                       bool(ok), "d = exp(-(Uw)/T)/N, Theta = T - (T/N) sum exp(-(Uw)/T), "
                       "Opt(14) = N (1 - P/T)" + (" [mistake]" if mistake else ""))


def check_qp_dual(mistake: bool = False) -> CheckResult:
    N, t = 3, 2
    T, beta = sp.symbols("T beta", positive=True)
    beta = sp.Symbol("beta")
    Us = sp.Matrix(N, t, lambda i, j: sp.Symbol(f"u{i}{j}"))
    w = sp.Matrix(t, 1, lambda j, _: sp.Symbol(f"w{j}"))
    d = sp.Matrix(N, 1, lambda i, _: sp.Symbol(f"d{i}"))
    d0 = sp.Rational(1, N)
    lagrangian = (N * T / 2 * sum((d[i] - d0) ** 2 for i in range(N))
                  + (w.T * Us.T * d)[0] + beta * (sum(d) - 1))  # gamma (1 - sum w) dropped
    solution = sp.solve([sp.diff(lagrangian, d[i]) for i in range(N)], list(d))
    rho = Us * w
    ok = all(_zero(solution[d[i]] - (d0 - (rho[i] + beta) / (N * T))) for i in range(N))
    inner = sp.simplify(lagrangian.subs(solution))
    beta_star = sp.solve(sp.diff(inner, beta), beta)[0]
    mean = sum(rho) / N
    ok = ok and _zero(beta_star + mean)
    theta = sp.simplify(inner.subs(beta, beta_star))
    variance = sum((rho[i] - mean) ** 2 for i in range(N)) / N
    ok = ok and _zero(theta - (mean - variance / (2 * T)))
    b = Us.T * sp.ones(N, 1) / N
    C = Us - sp.ones(N, 1) * b.T
    A = C.T * C / (N - 1 if mistake else N)
    seed41 = (w.T * A * w)[0] / 2 - T * (b.T * w)[0]
    ok = ok and _zero(-T * theta - seed41)
    # u~ = (1 - (rho - mean)/T)/N and var(rho) = N^2 T^2 var(u~) at the optimal beta
    u = [solution[d[i]].subs(beta, beta_star) for i in range(N)]
    ok = ok and all(_zero(u[i] - (1 - (rho[i] - mean) / T) / N) for i in range(N))
    u_mean = sum(u) / N
    ok = ok and _zero(variance - N ** 2 * T ** 2 * sum((x - u_mean) ** 2 for x in u) / N)
    return CheckResult("seed 002: (41) -> its dual", "seed 002 (39), (41), §3.4 (24), (26)",
                       bool(ok), "d = 1/N - (Uw + beta)/(NT), beta = -mean(rho), Theta = "
                       "mean - var/(2T) = -Opt(41)/T (symbolic U, N = 3, t = 2)"
                       + (" [mistake]" if mistake else ""))


def check_lp_hinge_dual(mistake: bool = False) -> CheckResult:
    u, xi, D = sp.symbols("u xi D", positive=True)
    ok, shown = True, []
    for p in (sp.Rational(3, 2), sp.Integer(2), sp.Rational(5, 2), sp.Integer(3)):
        q = p / (p - 1)
        stationary = sp.solve(sp.diff(u * xi - D * xi ** p, xi), xi)
        sup = sp.simplify((u * xi - D * xi ** p).subs(xi, stationary[0]))
        printed = D ** (1 - q) * (p ** (1 - q) + (1 if mistake else -1) * p ** (-q)) * u ** q
        ok = ok and _zero(sp.powsimp(sp.expand_power_base(sup - printed, force=True),
                                     force=True)) \
            and _zero(sp.nsimplify(sup - (p * D) ** (1 - q) * u ** q / q))
        # the member on the simplex (N = 3, d3 = 1 - d1 - d2): R/eta + c_p N^{1-q} = c_p sum d^q
        N = 3
        d1, d2 = sp.symbols("d1 d2", positive=True)
        ds = [d1, d2, 1 - d1 - d2]
        kappa = sp.Integer(N) ** (q - 1) / (q * (q - 1))
        R = kappa * sum(x ** q for x in ds) - sum(ds) / (q - 1) + 1 / q
        eta = (p * D * N) ** (q - 1) / (q - 1)
        c_p = D ** (1 - q) * (p ** (1 - q) - p ** (-q))
        lhs = R / eta + c_p * sp.Integer(N) ** (1 - q)
        rhs = c_p * sum(x ** q for x in ds)
        point = {d1: sp.Rational(1, 5), d2: sp.Rational(1, 2), D: sp.Rational(3, 7)}
        ok = ok and abs(float((lhs - rhs).subs(point))) < 1e-12
        # R* by stationarity of y d - R_n(d) (one coordinate)
        y, x = sp.symbols("y x", positive=True)
        Rn = kappa * x ** q - x / (q - 1)  # R's constant 1/q is R*'s -1/q: both left out
        star = sp.solve(sp.diff(y * x - Rn, x), x)
        value = (y * x - Rn).subs(x, star[0])
        declared = (q - 1) * kappa * ((y + 1 / (q - 1)) / (kappa * q)) ** p  # (no -1/q)
        ok = ok and abs(float((value - declared).subs(y, sp.Rational(3, 10)))) < 1e-12
        if p == 2:  # the l2 member: R = (N/2)||d - 1/N||^2 on the simplex, eta = 2 D N
            l2 = sp.Rational(N, 2) * sum((x0 - sp.Rational(1, N)) ** 2 for x0 in ds)
            ok = ok and _zero(sp.expand(R - l2)) and _zero(eta - 2 * D * N)
        shown.append(str(p))
    return CheckResult("seed 002: (27)/(28) as a member", "seed 002 (27), (28), Def. 3.2",
                       bool(ok), f"sup_xi (u xi - D xi^p) = D^(1-q)(p^(1-q) - p^(-q)) u^q at p in "
                       f"{{{', '.join(shown)}}}; member's R, R*, eta = (pDN)^(q-1)/(q-1)"
                       + (" [mistake]" if mistake else ""))


def check_cost_sensitive_dual(mistake: bool = False) -> CheckResult:
    N = 3
    z = sp.symbols("z1:4", real=True)
    c = sp.symbols("c1:4", positive=True)
    partition = sum(ci * sp.exp(zi) for ci, zi in zip(c, z))
    u = [ci * sp.exp(zi) / partition for ci, zi in zip(c, z)]  # stationarity of u.z - lse
    value = sum(ui * zi for ui, zi in zip(u, z)) - sp.log(partition)
    conjugate = sum(ui * sp.log(ui / ci) for ui, ci in zip(u, c))
    ok = _zero(sp.expand_log(value - conjugate, force=True))
    # T sum u ln(u/c) = T KL(u || c/sum c) - T ln(sum c) on the simplex
    T = sp.Symbol("T", positive=True)
    v = sp.symbols("v1:4", positive=True)
    total = sum(c)
    prior = [ci if mistake else ci / total for ci in c]
    kl = sum(vi * sp.log(vi / pi) for vi, pi in zip(v, prior))
    lhs = T * sum(vi * sp.log(vi / ci) for vi, ci in zip(v, c))
    rhs = (T * kl - T * sp.log(total)).subs(v[2], 1 - v[0] - v[1])
    difference = sp.expand_log(lhs.subs(v[2], 1 - v[0] - v[1]) - rhs, force=True)
    point = {v[0]: sp.Rational(1, 4), v[1]: sp.Rational(1, 3), c[0]: 2, c[1]: 1,
             c[2]: sp.Rational(7, 2), T: sp.Rational(1, 5)}
    ok = ok and abs(float(difference.subs(point))) < 1e-12 and N == 3
    return CheckResult("seed 002: cost-sensitive (5) -> dual", "seed 002 (5), (10), (15) "
                       "weighted; thesis (3.6)", bool(ok),
                       "lse-with-costs conjugate = sum u ln(u/c); = ERLPBoost, d0 = c/sum c, "
                       "shift -T ln(sum c)" + (" [mistake]" if mistake else ""))
