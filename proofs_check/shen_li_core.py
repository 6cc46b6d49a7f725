"""Seed 002 (Shen & Li): the duals of AdaBoost_l1 and LogitBoost_l1 derived from their Lagrangians.

Seed 002 calls the w-domain problems (5), (32) the primal and (10)/(15), (30)/(31) the dual;
dualboost calls the d-domain problems the primal. Each check derives the dual by stationarity
(sympy, on a small symbolic instance) and compares it with the printed equation and with the
form dualboost declares (``formulations/adaboost_l1.py``, ``adaboost_l1_ineq.py``,
``logitboost_l1.py``); each takes a ``wrong`` variant that must make it fail
(``tests/test_shen_li_core.py``).

* :func:`check_adaboost_l1_dual` -- Lagrangian (12) of the split primal (11): stationarity in z
  gives u = softmax(z) (23)-(24) and inf_z lse(z) - u.z = -sum u ln u; in w the edge constraints
  e_j(u) <= -r; so the dual function is (10), (15) is -T (10) with r -> -r, and (15) + T ln N is
  the family's primal (thesis (3.6)) at nu = 1, eta = 1/T with R = Delta(d, 1/N). Stationarity
  of (15)'s own Lagrangian: sum(lambda) = 1 and u ~ exp(-U lambda / T), i.e. (24) with
  lambda = T w_(5) (§4.3, E9).
* :func:`check_adaboost_l1_inequality` -- with 1^T w <= 1/T the budget's multiplier is signed
  (r <= 0 in (10)): (15) with r >= 0, in the d-domain the max edge floored at 0, and
  stationarity in gamma gives sum(w) + slack = 1; numerically (cvxpy) on a pool not closed under
  negation, both sides agree and differ from the equality budget (seed 002 (5)–(15); docs/errata.md,
  seed 002 S11).
* :func:`check_logitboost_l1_dual` -- Lagrangian of (32): stationarity in z gives u = -sigma(-z)
  in [-1, 0] (33) and logit*(u) = (-u) ln(-u) + (1 + u) ln(1 + u); in w, e_j(u) >= r: (30);
  (31) is -T (30) with u -> -u, r -> -r; and the declared pair R(d) = sum d ln d + (1 - d)
  ln(1 - d), R*(y) = sum ln(1 + e^y) gives Theta(w) = -T sum logit((U w)_i / T) = -T Opt(32)
  at w_(32) = w / T.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from .result import CheckResult, Comparisons, summarize_methods

__all__ = ["check_adaboost_l1_dual", "check_adaboost_l1_inequality", "check_logitboost_l1_dual"]

_N, _T_COLS = 3, 2


def _instance():
    U = sp.Matrix(_N, _T_COLS, lambda n, q: sp.Symbol(f"u{n}{q}", real=True))
    w = sp.symbols(f"w0:{_T_COLS}", positive=True)
    T = sp.Symbol("T", positive=True)
    r = sp.Symbol("r", real=True)
    domains = {s: (-1, 1) for s in U}
    domains.update({s: (sp.Rational(1, 20), 1) for s in w})
    domains[T] = (sp.Rational(1, 20), 2)
    domains[r] = (-1, 1)
    return U, w, T, r, domains


def check_adaboost_l1_dual(wrong: str | None = None) -> CheckResult:
    """(11)/(12) -> (10) -> (15) -> the family at nu = 1, eta = 1/T (module docstring).

    ``wrong``: ``"eta_T"`` maps eta = T (not 1/T); ``"entropy_sign"`` uses the printed
    §3.5 sign of the entropy term in r* (docs/errata.md, seed 002 S6); both must fail."""
    U, w, T, r, domains = _instance()
    z = sp.symbols(f"z0:{_N}", real=True)
    u = sp.symbols(f"p0:{_N}", positive=True)
    lam = sp.symbols(f"l0:{_T_COLS}", positive=True)
    beta = sp.Symbol("beta", real=True)
    for s in z:
        domains[s] = (-2, 2)
    for s in u:
        domains[s] = (sp.Rational(1, 20), 1)
    for s in lam:
        domains[s] = (sp.Rational(1, 20), 1)
    domains[beta] = (-2, 2)
    cmp = Comparisons(domains)
    lse = sp.log(sum(sp.exp(zi) for zi in z))
    margins = [sum(U[n, q] * w[q] for q in range(_T_COLS)) for n in range(_N)]
    # (12): L = lse(z) - sum u_i (z_i + y_i H_i w) - q.w - r (1.w - 1/T); stationarity in z
    grad_z = [sp.diff(lse - sum(u[i] * z[i] for i in range(_N)), zi) for zi in z]
    softmax = [sp.exp(z[i]) / sum(sp.exp(zk) for zk in z) for i in range(_N)]
    for i in range(_N):
        cmp(f"(23): dL/dz_{i} = softmax(z)_{i} - u_{i}", grad_z[i], softmax[i] - u[i])
    # at z = ln u + c (u on the simplex) lse(z) - u.z = -sum u ln u: the conjugate (Prop. 3.1)
    c = sp.Symbol("c", real=True)
    domains[c] = (-2, 2)
    simplex = {u[-1]: 1 - sum(u[:-1])}
    at_opt = (sp.log(sum(sp.exp(sp.log(ui) + c) for ui in u))
              - sum(ui * (sp.log(ui) + c) for ui in u))
    cmp("inf_z lse(z) - u.z = -sum u ln u on the simplex", at_opt.subs(simplex),
        (-sum(ui * sp.log(ui) for ui in u)).subs(simplex))
    # stationarity in w: -(U^T u) - q - r 1 = 0, so q = -(e(u) + r) >= 0 <=> e_j(u) <= -r; the
    # w-terms vanish and the dual function is g = -sum u ln u + r/T: (10). (15) = -T (10), r -> -r
    g10 = -sum(ui * sp.log(ui) for ui in u) + r / T
    obj15 = r + T * sum(ui * sp.log(ui) for ui in u)
    cmp("(15) = -T (10) with r -> -r", -T * g10.subs(r, -r), obj15)
    # the family's primal at nu = 1: gamma + (1/eta) sum u ln(u / (1/N)), eta = 1/T
    eta = T if wrong == "eta_T" else 1 / T
    family = r + (1 / eta) * sum(ui * sp.log(ui * _N) for ui in u)
    cmp("(15) + T ln N = thesis (3.6) at nu = 1, eta = 1/T",
        (obj15 + T * sp.log(_N)).subs(simplex), family.subs(simplex))
    # (15)'s Lagrangian r + T sum u ln u + sum_j lambda_j (e_j(u) - r) + beta (1.u - 1)
    L15 = obj15 + sum(lam[j] * (sum(U[i, j] * u[i] for i in range(_N)) - r)
                      for j in range(_T_COLS)) + beta * (sum(u) - 1)
    cmp("dL15/dr = 1 - sum(lambda) (so sum lambda = 1, E9)", sp.diff(L15, r), 1 - sum(lam))
    solved = [sp.solve(sp.diff(L15, ui), ui)[0] for ui in u]
    U_lam = [sum(U[i, j] * lam[j] for j in range(_T_COLS)) for i in range(_N)]
    for i in range(1, _N):
        cmp(f"(24): u_{i}/u_0 = exp(-(U lambda)_{i}/T + (U lambda)_0/T), lambda = T w_(5)",
            solved[i] / solved[0], sp.exp(-(U_lam[i] - U_lam[0]) / T))
    # r* at the optimum (E7; docs/errata.md, seed 002 S6): with u = softmax(-rho/T),
    # sum u rho = -T sum u ln u - T lse(-rho/T); the printed formula has +T sum u ln u
    rho = [sp.Symbol(f"rho{i}", real=True) for i in range(_N)]
    for s in rho:
        domains[s] = (-1, 1)
    Z = sum(sp.exp(-ri / T) for ri in rho)
    u_opt = [sp.exp(-ri / T) / Z for ri in rho]
    sign = 1 if wrong == "entropy_sign" else -1
    r_formula = sign * T * sum(ui * sp.log(ui) for ui in u_opt) - T * sp.log(Z)
    cmp("E7: r* = sum u rho = -T sum u ln u - T lse(-rho/T) (docs/errata.md, seed 002 S6)",
        sum(u_opt[i] * rho[i] for i in range(_N)), r_formula)
    del margins
    ok = not cmp.failures
    return CheckResult("shen_li_adaboost_l1_dual",
                       "seed 002 (10)-(15), (23)-(25), E7, E9; thesis (3.6)", ok,
                       summarize_methods(cmp.methods) + (
                           "" if ok else "; FAILED: " + "; ".join(cmp.failures)))


def check_adaboost_l1_inequality(wrong: str | None = None) -> CheckResult:
    """F1b: the budget 1^T w <= 1/T (module docstring). ``wrong="no_floor"`` drops the floor
    r >= 0 (uses (15) as for the equality budget) and must fail."""
    import cvxpy as cp

    gamma, s = sp.symbols("gamma slack", real=True)
    w = sp.symbols("w0:2", real=True)
    edges = sp.symbols("e0:2", real=True)
    domains = {gamma: (-1, 1), s: (0, 1), **{x: (0, 1) for x in w + edges}}
    cmp = Comparisons(domains)
    # L = gamma + R/eta + sum_j w_j (e_j - gamma) + slack (-gamma) + beta (1.d - 1): dL/dgamma
    L = gamma + sum(w[j] * (edges[j] - gamma) for j in range(2)) + s * (-gamma)
    cmp("dL/dgamma = 1 - sum(w) - slack (so sum w <= 1)", sp.diff(L, gamma), 1 - sum(w) - s)
    # numerically: min_{w >= 0, 1.w <= 1/T} lse(-U w) = ln N - P/T with P the d-domain value
    rng = np.random.default_rng(3)
    N, t, T = 30, 8, 0.05
    U = np.sign(rng.normal(size=(N, t)) - 0.2)  # not closed under negation, mostly wrong
    values = {}
    for budget in ("equality", "inequality"):
        wv = cp.Variable(t, nonneg=True)
        cons = [cp.sum(wv) == 1 / T] if budget == "equality" else [cp.sum(wv) <= 1 / T]
        seed5 = cp.Problem(cp.Minimize(cp.log_sum_exp(-U @ wv)), cons)
        seed5.solve(solver="CLARABEL")
        d, g = cp.Variable(N, nonneg=True), cp.Variable()
        floor = [] if (budget == "equality" or wrong == "no_floor") else [g >= 0]
        ours = cp.Problem(cp.Minimize(g - T * cp.sum(cp.entr(d)) + T * math.log(N)),
                          [U.T @ d <= g, cp.sum(d) == 1] + floor)
        ours.solve(solver="CLARABEL")
        values[budget] = (seed5.value, math.log(N) - ours.value / T)
    eq, ineq = values["equality"], values["inequality"]
    same = [abs(a - b) <= 1e-5 * (1 + abs(a)) for a, b in (eq, ineq)]
    differ = abs(eq[0] - ineq[0]) > 1e-3
    ok = not cmp.failures and all(same) and differ
    detail = (summarize_methods(cmp.methods) + f"; Opt(5): equality {eq[0]:.6f} = {eq[1]:.6f}, "
              f"inequality {ineq[0]:.6f} vs ln N - P/T = {ineq[1]:.6f} (pool not closed under "
              "negation: the budgets differ" + ("" if differ else ", but they do NOT here") + ")")
    return CheckResult("shen_li_adaboost_l1_inequality",
                       "seed 002 (5) with 1'w <= 1/T, (10) r <= 0, (15) r >= 0; §2.1", ok,
                       detail + ("" if ok else "; FAILED: " + "; ".join(cmp.failures)))


def check_logitboost_l1_dual(wrong: str | None = None) -> CheckResult:
    """(32) -> (30) -> (31) -> the declared (R, R*) (module docstring). ``wrong="no_complement"``
    drops the (1 - u) ln(1 - u) term of (31) and must fail."""
    U, w, T, r, domains = _instance()
    z = sp.Symbol("z", real=True)
    v = sp.Symbol("v", negative=True)  # seed 002's u in (30), in [-1, 0]
    y = sp.Symbol("y", real=True)
    d = sp.Symbol("d", positive=True)
    domains.update({z: (-2, 2), v: (-sp.Rational(19, 20), -sp.Rational(1, 20)), y: (-2, 2),
                    d: (sp.Rational(1, 20), sp.Rational(19, 20))})
    cmp = Comparisons(domains)
    logit = sp.log(1 + sp.exp(-z))
    # stationarity in z of logit(z) - v z: logit'(z) = -sigma(-z) = v, (33)
    cmp("(33): logit'(z) = -sigma(-z)", sp.diff(logit, z), -1 / (1 + sp.exp(z)))
    z_star = sp.log((1 + v) / (-v))  # the z where logit'(z) = v
    cmp("(33): logit'(z*) = v at z* = ln((1 + v)/(-v))", sp.diff(logit, z).subs(z, z_star), v)
    conj = (v * z - logit).subs(z, z_star)
    cmp("logit*(v) = (-v) ln(-v) + (1 + v) ln(1 + v)", conj,
        (-v) * sp.log(-v) + (1 + v) * sp.log(1 + v))
    # (30): max r/T - sum logit*(v_i), e_j(v) >= r; (31) = -T (30) with v -> -u, r -> -r
    u = sp.symbols("q0:3", positive=True)
    for s in u:
        domains[s] = (sp.Rational(1, 20), sp.Rational(19, 20))
    logit_star = [(-vi) * sp.log(-vi) + (1 + vi) * sp.log(1 + vi) for vi in (-ui for ui in u)]
    g30 = r / T - sum(logit_star)
    complement = 0 if wrong == "no_complement" else 1
    obj31 = r + T * sum(ui * sp.log(ui) + complement * (1 - ui) * sp.log(1 - ui) for ui in u)
    cmp("(31) = -T (30) with u -> -u, r -> -r", -T * g30.subs(r, -r), obj31)
    # the declared pair: sup_d y d - [d ln d + (1 - d) ln(1 - d)] at d = sigma(y) is ln(1 + e^y)
    R = d * sp.log(d) + (1 - d) * sp.log(1 - d)
    cmp("dR/dd = y at d = sigma(y)", sp.diff(R, d).subs(d, 1 / (1 + sp.exp(-y))), y)
    cmp("R*(y) = ln(1 + e^y)", (y * d - R).subs(d, 1 / (1 + sp.exp(-y))), sp.log(1 + sp.exp(y)))
    # Theta(w) = -(1/eta) R*(-eta U w), eta = 1/T, = -T sum logit((U w)_i / T) = -T Opt(32)
    margins = [sum(U[n, q] * w[q] for q in range(_T_COLS)) for n in range(_N)]
    theta = -T * sum(sp.log(1 + sp.exp(-m / T)) for m in margins)
    cmp("Theta(w) = -T sum logit((U w)_i / T), w_(32) = w / T", theta,
        -T * sum(logit.subs(z, m / T) for m in margins))
    ok = not cmp.failures
    return CheckResult("shen_li_logitboost_l1_dual", "seed 002 (30)-(33), Theorem 3.2", ok,
                       summarize_methods(cmp.methods) + (
                           "" if ok else "; FAILED: " + "; ".join(cmp.failures)))
