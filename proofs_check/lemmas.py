"""Ingredients of the ERLPBoost progress lemma (Lemma 3.7 / 3.14) and the recurrence (Lemma 3.9).

Checks
------
* :func:`check_hoeffding_log_inequality` -- -ln(1 - c(1 - e^r)) >= -c r - r^2/8 (step 4).
* :func:`check_cosh_bound` -- f(z) = 1 - cosh(z/2) + (z/2) sinh(z/2) - z^2/8 >= 0, f' formula,
  and the (3.23) -> (3.24) rewriting.
* :func:`check_dual_increase_identity` -- the exact identity of step 2 of Lemma 3.7, for
  arbitrary (w^{t-1}, psi^{t-1}).
* :func:`check_progress_chain` -- steps 3-5 of Lemma 3.7 numerically on random instances.
* :func:`check_alpha_maximizer` -- alpha* = x.d/(4 eta) maximizes (x.d) alpha - 2 eta alpha^2.
* :func:`check_lemma_3_9` -- delta^t <= 1/(c(t - 1 + 1/(c delta^1))) under the quadratic
  recurrence (worst-case and random sequences; sympy induction step).
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.special import logsumexp

from .result import CheckResult, summarize_methods, sym_equal

__all__ = [
    "check_alpha_maximizer",
    "check_cosh_bound",
    "check_dual_increase_identity",
    "check_hoeffding_log_inequality",
    "check_lemma_3_9",
    "check_progress_chain",
    "dual_increase",
]


# --------------------------------------------------------------------------------------------
# (a) -ln(1 - c(1 - e^r)) >= -c r - r^2/8
# --------------------------------------------------------------------------------------------


def _log_mix(c: np.ndarray, r: np.ndarray) -> np.ndarray:
    """ln(1 - c(1 - e^r)) = ln((1 - c) + c e^r), stable for large |r| and c in {0, 1}."""
    with np.errstate(divide="ignore"):
        return np.logaddexp(np.log1p(-c), np.log(c) + r)


def check_hoeffding_log_inequality(quad_coeff: float = 1 / 8) -> CheckResult:
    """Lemma 3.7 step 4 (inequality from [37]): -ln(1 - c(1 - e^r)) >= -c r - quad_coeff r^2.

    Numeric: dense grid c in [0, 1] (401 points) x r in [-60, 60] (4001 points, refined near 0).
    Symbolic (sympy): with phi(r) = ln(1 - c + c e^r) - c r, phi(0) = 0, phi'(0) = 0 and
    phi''(r) = p(1 - p) with p = c e^r/(1 - c + c e^r) in [0, 1]; 1/4 - p(1 - p) = (p - 1/2)^2,
    so phi'' <= 1/4 and Taylor gives phi(r) <= r^2/8, i.e. the claim.  ``quad_coeff`` = 1/16 is a
    deliberately wrong (too strong) variant that must fail.
    """
    name = "Hoeffding-type log inequality"
    ref = "thesis Lemma 3.7 step 4 (ref [37]), (3.23)"
    c = np.linspace(0.0, 1.0, 401)[:, None]
    r = np.unique(np.concatenate([np.linspace(-60, 60, 4001), np.linspace(-1, 1, 2001)]))[None, :]
    gap = -_log_mix(c, r) - (-c * r - quad_coeff * r**2)
    scale = 1.0 + np.abs(c * r) + quad_coeff * r**2
    num_ok = bool(np.all(gap >= -1e-12 * scale))
    i, j = np.unravel_index(np.argmin(gap / scale), gap.shape)
    # symbolic argument
    cs, rs = sp.symbols("c r", real=True)
    phi = sp.log(1 - cs + cs * sp.exp(rs)) - cs * rs
    p = cs * sp.exp(rs) / (1 - cs + cs * sp.exp(rs))
    dom = {cs: (0, 1), rs: (-5, 5)}
    methods: list[str] = []
    fails: list[str] = []
    for label, got, want in (
        ("phi(0)", phi.subs(rs, 0), sp.Integer(0)),
        ("phi'(0)", sp.diff(phi, rs).subs(rs, 0), sp.Integer(0)),
        ("phi''=p(1-p)", sp.diff(phi, rs, 2), p * (1 - p)),
        ("1/4-p(1-p)=(p-1/2)^2", sp.Rational(1, 4) - p * (1 - p), (p - sp.Rational(1, 2)) ** 2),
    ):
        ok, how = sym_equal(got, want, dom)
        methods.append(how)
        if not ok:
            fails.append(label)
    # the Taylor step needs sup phi'' <= 2 * quad_coeff
    taylor_ok = sp.Rational(1, 4) <= 2 * sp.nsimplify(quad_coeff)
    passed = num_ok and not fails and bool(taylor_ok)
    detail = (
        f"grid 401x{r.size}: min gap {gap.min():.2e} at c={c[i, 0]:.3f}, r={r[0, j]:.3f}; "
        f"sympy: {summarize_methods(methods)}; sup phi''=1/4 "
        f"{'<=' if taylor_ok else '>'} 2*{quad_coeff:g}"
    )
    if fails:
        detail += "; FAILED: " + ", ".join(fails)
    return CheckResult(name, ref, passed, detail)


# --------------------------------------------------------------------------------------------
# (b) f(z) = 1 - cosh(z/2) + (z/2) sinh(z/2) - z^2/8 >= 0
# --------------------------------------------------------------------------------------------


def check_cosh_bound(quad_coeff: float = 1 / 8) -> CheckResult:
    """Lemma 3.14, (3.23)-(3.24): 1 - cosh(z/2) + (z/2) sinh(z/2) >= z^2/8.

    sympy: f(z) = 1 - cosh(z/2) + (z/2) sinh(z/2) - q z^2 (q = ``quad_coeff``, thesis 1/8) has
    f'(z) = (z/4)(cosh(z/2) - 1) and f(0) = 0 (so f' <= 0 on z < 0, >= 0 on z > 0 since
    cosh >= 1, and f >= 0); the (3.23) value at alpha = z/(4 eta),
    1 - ((2+z)/4) e^{-z/2} - ((2-z)/4) e^{z/2}, equals 1 - cosh(z/2) + (z/2) sinh(z/2) (3.24).
    Numeric: f >= 0 on z in [-30, 30] and f' sign.  ``quad_coeff=1/4`` must fail.
    """
    name = "cosh bound (3.24) >= z^2/8"
    ref = "thesis (3.23), (3.24), Lemma 3.14"
    z = sp.Symbol("z", real=True)
    q = sp.nsimplify(quad_coeff)
    g = 1 - sp.cosh(z / 2) + (z / 2) * sp.sinh(z / 2)
    f = g - q * z**2
    dom = {z: (-6, 6)}
    methods: list[str] = []
    fails: list[str] = []
    for label, got, want in (
        ("f'(z)=(z/4)(cosh(z/2)-1)", sp.diff(f, z), (z / 4) * (sp.cosh(z / 2) - 1)),
        ("f(0)=0", f.subs(z, 0), sp.Integer(0)),
        ("(3.23)@alpha*=(3.24)",
         1 - (2 + z) / 4 * sp.exp(-z / 2) - (2 - z) / 4 * sp.exp(z / 2), g),
    ):
        ok, how = sym_equal(got.rewrite(sp.exp), want.rewrite(sp.exp), dom)
        methods.append(how)
        if not ok:
            fails.append(label)
    zz = np.linspace(-30, 30, 60001)
    fz = sp.lambdify(z, f, "numpy")(zz)
    dfz = sp.lambdify(z, sp.diff(f, z), "numpy")(zz)
    scale = 1 + np.abs(zz) ** 2 * np.cosh(zz / 2)
    num_ok = bool(np.all(fz >= -1e-13 * scale))
    sign_ok = bool(np.all(dfz[zz < 0] <= 1e-13 * scale[zz < 0])
                   and np.all(dfz[zz > 0] >= -1e-13 * scale[zz > 0]))
    if not num_ok:
        fails.append(f"f < 0 (min {fz.min():.2e} at z={zz[np.argmin(fz)]:.3f})")
    if not sign_ok:
        fails.append("f' has the wrong sign somewhere")
    detail = (f"sympy: {summarize_methods(methods)}; grid z in [-30,30]: min f = {fz.min():.2e}, "
              f"f' sign {'ok' if sign_ok else 'WRONG'}")
    if fails:
        detail += "; FAILED: " + ", ".join(fails)
    return CheckResult(name, ref, not fails, detail)


# --------------------------------------------------------------------------------------------
# (c) exact dual-increase identity, (d) maximizer, chain
# --------------------------------------------------------------------------------------------


def _theta_hat(U: np.ndarray, w: np.ndarray, psi: np.ndarray, eta: float, nu: float) -> float:
    N = U.shape[0]
    return float(-logsumexp(-np.log(N) - eta * (U @ w + psi)) / eta - psi.sum() / nu)


def dual_increase(U_prev: np.ndarray, u_new: np.ndarray, w_prev: np.ndarray,
                  psi_prev: np.ndarray, eta: float, nu: float, alpha: float) -> float:
    """Theta_hat^t(w^t(alpha), psi^{t-1}) - Theta_hat^{t-1}(w^{t-1}, psi^{t-1}) by direct
    evaluation of (3.10), with w^t(alpha) = (1 - alpha)[w^{t-1}; 0] + alpha [0; 1]."""
    U = np.hstack([U_prev, u_new[:, None]])
    w_alpha = np.hstack([(1 - alpha) * w_prev, alpha])
    return (_theta_hat(U, w_alpha, psi_prev, eta, nu)
            - _theta_hat(U_prev, w_prev, psi_prev, eta, nu))


def _d311(U: np.ndarray, w: np.ndarray, psi: np.ndarray, eta: float,
          psi_sign: float = 1.0) -> np.ndarray:
    z = -eta * (U @ w + psi_sign * psi)
    return np.exp(z - logsumexp(z))


def _random_state(rng: np.random.Generator, N: int, t_prev: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    U_prev = rng.uniform(-1, 1, (N, t_prev))
    u_new = rng.uniform(-1, 1, N)
    w_prev = rng.dirichlet(np.ones(t_prev))
    psi_prev = rng.exponential(0.3, N) * (rng.random(N) < 0.5)
    return U_prev, u_new, w_prev, psi_prev


def check_dual_increase_identity(psi_sign: float = 1.0, n_instances: int = 60) -> CheckResult:
    """Lemma 3.7 step 2 (and (3.22) of Lemma 3.14 in log form): for ANY w^{t-1} in S^{t-1},
    psi^{t-1} >= 0 and alpha in [0, 1],

        Theta_hat^t(w^t(alpha), psi^{t-1}) - Theta_hat^{t-1}(w^{t-1}, psi^{t-1})
            = -(1/eta) ln sum_n d^{t-1}_n exp(-eta alpha x_n),

    with d^{t-1} from (3.11) at (w^{t-1}, psi^{t-1}) and x = u^t - sum_{q<t} w^{t-1}_q u^q.
    Both sides are evaluated independently on random instances (N in [3, 40], t-1 in [1, 6],
    eta in [0.5, 60]).  ``psi_sign=-1`` builds d^{t-1} with the thesis's -psi (erratum #16) and
    must fail.
    """
    name = "Lemma 3.7 dual-increase identity"
    ref = "thesis Lemma 3.7 (proof), (3.11), (3.22); erratum #16"
    rng = np.random.default_rng(7)
    worst = 0.0
    n_cmp = 0
    for k in range(n_instances):
        N = int(rng.integers(3, 41))
        t_prev = int(rng.integers(1, 7))
        eta = float((0.5, 2.0, 10.0, 60.0)[k % 4] * rng.uniform(1, 1.5))
        nu = float(rng.uniform(1, N))
        U_prev, u_new, w_prev, psi_prev = _random_state(rng, N, t_prev)
        d_prev = _d311(U_prev, w_prev, psi_prev, eta, psi_sign)
        x = u_new - U_prev @ w_prev
        for alpha in (0.0, 0.1, 0.5, 0.93, 1.0):
            lhs = dual_increase(U_prev, u_new, w_prev, psi_prev, eta, nu, alpha)
            rhs = -logsumexp(-eta * alpha * x, b=d_prev) / eta
            worst = max(worst, abs(lhs - rhs) / (1 + abs(lhs)))
            n_cmp += 1
    ok = worst <= 1e-10
    return CheckResult(name, ref, ok,
                       f"{n_cmp} comparisons on {n_instances} random (arbitrary, non-optimal) "
                       f"(w, psi); max rel. error {worst:.1e} (tol 1e-10)")


def check_progress_chain(n_instances: int = 60) -> CheckResult:
    """Lemma 3.7 steps 3-5 on random instances (u in [-1,1]^N so x in [-2,2]^N, eta >= 1/2):

    for alpha in [0, 1] (grid):  -(1/eta) ln sum d_n e^{-eta alpha x_n}
        >= -(1/eta) ln(((2+z)/4) e^{-2 eta alpha} + ((2-z)/4) e^{2 eta alpha})      (convexity)
         = 2 alpha - (1/eta) ln(1 - ((2-z)/4)(1 - e^{4 eta alpha}))                 (algebra)
        >= z alpha - 2 eta alpha^2                                                  ([37])
    with z = x.d; and for z in [0, 2]: alpha* = z/(4 eta) in [0, 1] and the dual increase at
    alpha* is >= z^2/(8 eta).
    """
    name = "Lemma 3.7 inequality chain"
    ref = "thesis Lemma 3.7 steps 3-5, (3.23)"
    rng = np.random.default_rng(5)
    alphas = np.linspace(0, 1, 101)
    worst_gap = np.inf
    worst_eq = 0.0
    n_final = 0
    fails: list[str] = []
    for k in range(n_instances):
        N = int(rng.integers(3, 30))
        t_prev = int(rng.integers(1, 6))
        eta = float(0.5 + rng.exponential(5.0)) if k % 3 else 0.5
        U_prev, u_new, w_prev, psi_prev = _random_state(rng, N, t_prev)
        d = _d311(U_prev, w_prev, psi_prev, eta)
        x = u_new - U_prev @ w_prev
        z = float(x @ d)
        inc = np.array([-logsumexp(-eta * a * x, b=d) / eta for a in alphas])
        conv = -np.logaddexp(np.log((2 + z) / 4) - 2 * eta * alphas,
                             np.log((2 - z) / 4) + 2 * eta * alphas) / eta
        c = (2 - z) / 4
        alg = 2 * alphas - np.logaddexp(np.log1p(-c), np.log(c) + 4 * eta * alphas) / eta
        quad = z * alphas - 2 * eta * alphas**2
        worst_eq = max(worst_eq, float(np.max(np.abs(conv - alg) / (1 + np.abs(alg)))))
        gaps = np.concatenate([inc - conv, alg - quad])
        worst_gap = min(worst_gap, float(gaps.min()))
        if z >= 0:
            a_star = z / (4 * eta)
            inc_star = -logsumexp(-eta * a_star * x, b=d) / eta
            n_final += 1
            if not (0 <= a_star <= 1) or inc_star < z**2 / (8 * eta) - 1e-12:
                fails.append(f"alpha*={a_star:.3g}, inc={inc_star:.3g}, z^2/8eta="
                             f"{z**2 / (8 * eta):.3g}")
    ok = worst_gap >= -1e-11 and worst_eq <= 1e-11 and not fails
    detail = (f"{n_instances} instances x 101 alphas: min slack {worst_gap:.1e}, algebra step "
              f"max rel. err {worst_eq:.1e}; final bound checked on {n_final} with z >= 0")
    if fails:
        detail += "; FAILED: " + fails[0]
    return CheckResult(name, ref, ok, detail)


def check_alpha_maximizer(alpha_denominator: int = 4) -> CheckResult:
    """Lemma 3.7 step 5: alpha* = z/(4 eta) maximizes h(alpha) = z alpha - 2 eta alpha^2 with
    h(alpha*) = z^2/(8 eta), h'' = -4 eta < 0, and alpha* in [0, 1] for z in [0, 2], eta >= 1/2
    (sympy).  ``alpha_denominator`` != 4 is a deliberately wrong variant."""
    name = "Lemma 3.7 optimal alpha"
    ref = "thesis Lemma 3.7 step 5, (3.24) with alpha = z/(4 eta)"
    z = sp.Symbol("z", real=True)
    eta = sp.Symbol("eta", positive=True)
    a = sp.Symbol("alpha", real=True)
    h = z * a - 2 * eta * a**2
    crit = sp.solve(sp.diff(h, a), a)
    claimed = z / (alpha_denominator * eta)
    dom = {z: (0, 2), eta: (sp.Rational(1, 2), 20)}
    fails: list[str] = []
    methods: list[str] = []
    if len(crit) != 1:
        fails.append(f"critical points {crit}")
    else:
        for label, got, want in (
            ("argmax", crit[0], claimed),
            ("h(alpha*)", h.subs(a, claimed), z**2 / (8 * eta)),
            ("h''", sp.diff(h, a, 2), -4 * eta),
        ):
            ok, how = sym_equal(got, want, dom)
            methods.append(how)
            if not ok:
                fails.append(label)
    # alpha* in [0,1] on z in [0,2], eta >= 1/2: it is increasing in z, decreasing in eta
    zp = sp.Symbol("z", nonnegative=True)
    claimed_p = claimed.subs(z, zp)
    worst = claimed_p.subs({zp: 2, eta: sp.Rational(1, 2)})
    if not (sp.diff(claimed_p, zp).is_nonnegative and sp.diff(claimed_p, eta).is_nonpositive
            and 0 <= worst <= 1):
        fails.append(f"alpha* not in [0,1] (max {worst})")
    detail = f"sympy: {summarize_methods(methods)}; max alpha* over z<=2, eta>=1/2 is {worst}"
    if fails:
        detail += "; FAILED: " + ", ".join(fails)
    return CheckResult(name, ref, not fails, detail)


# --------------------------------------------------------------------------------------------
# Lemma 3.9
# --------------------------------------------------------------------------------------------


def lemma_3_9_bound(t: np.ndarray, c: float, delta1: float, t_offset: int = -1) -> np.ndarray:
    """1 / (c (t + t_offset + 1/(c delta^1)))  (Lemma 3.9 with the thesis's t_offset = -1)."""
    return 1.0 / (c * (t + t_offset + 1.0 / (c * delta1)))


def check_lemma_3_9(t_offset: int = -1, T: int = 3000) -> CheckResult:
    """Lemma 3.9: delta^t >= 0, delta^t - delta^{t+1} >= c (delta^t)^2  =>
    delta^t <= 1/(c (t - 1 + 1/(c delta^1))).

    Numeric: the worst-case sequences delta^{t+1} = delta^t - c (delta^t)^2 for c in
    [1e-3, 10] (13 values) and c delta^1 in (0, 1] (7 values), T steps, plus random sequences
    with extra decrease; all must satisfy the bound.  sympy: the induction step, i.e.
    delta/(1 + c delta) - (delta - c delta^2) = c^2 delta^3/(1 + c delta) >= 0, delta/(1 + c delta)
    is increasing, and 1/(1/B_t + c) = B_{t+1} for B_t = 1/(c(t - 1) + 1/delta^1), B_1 = delta^1.
    ``t_offset=0`` is a deliberately wrong variant (fails already at t = 1).
    """
    name = "Lemma 3.9 recurrence bound"
    ref = "thesis Lemma 3.9 (Sublemma 5.4 of [1]), Lemma 3.8"
    ts = np.arange(1, T + 1, dtype=float)
    worst = -np.inf
    n_seq = 0
    rng = np.random.default_rng(9)
    for c in np.logspace(-3, 1, 13):
        for frac in (1e-3, 0.05, 0.2, 0.5, 0.8, 0.99, 1.0):
            delta1 = frac / c
            for randomized in (False, True):
                seq = np.empty(T)
                seq[0] = delta1
                for k in range(1, T):
                    nxt = seq[k - 1] - c * seq[k - 1] ** 2
                    if randomized:
                        nxt *= rng.uniform(0.7, 1.0)
                    seq[k] = max(nxt, 0.0)
                B = lemma_3_9_bound(ts, c, delta1, t_offset)
                worst = max(worst, float(np.max((seq - B) / B)))
                n_seq += 1
    num_ok = worst <= 1e-12
    # symbolic induction step
    d, c, d1, t = sp.symbols("delta c delta1 t", positive=True)
    B = 1 / (c * (t + t_offset) + 1 / d1)
    dom = {d: (sp.Rational(1, 100), 1), c: (sp.Rational(1, 10), 1), d1: (sp.Rational(1, 10), 1),
           t: (1, 50)}
    methods: list[str] = []
    fails: list[str] = []
    for label, got, want in (
        ("upper step", d / (1 + c * d) - (d - c * d**2), c**2 * d**3 / (1 + c * d)),
        ("monotone", sp.diff(d / (1 + c * d), d), 1 / (1 + c * d) ** 2),
        ("B_t -> B_{t+1}", 1 / (1 / B + c), B.subs(t, t + 1)),
        ("B_1 = delta^1", B.subs(t, 1), d1),
    ):
        ok, how = sym_equal(got, want, dom)
        methods.append(how)
        if not ok:
            fails.append(label)
    if not num_ok:
        fails.append(f"bound violated (max rel. excess {worst:.2e})")
    detail = (f"{n_seq} sequences x {T} steps: max (delta^t - bound)/bound = {worst:.1e}; "
              f"induction step: {summarize_methods(methods)}")
    if fails:
        detail += "; FAILED: " + ", ".join(fails)
    return CheckResult(name, ref, not fails, detail)
