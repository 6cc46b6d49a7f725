"""Seed 001 (Shalev-Shwartz & Singer): the relaxation family's pairs, derived with sympy.

Each check derives one pair or relation of formulations/sss_*.py from its definition and compares
it with what the files state (docs/formulations.md, "Seed 001's relaxation family"); each takes a
``mistake`` keyword that switches to a wrong variant which must make it fail
(``tests/test_proofs_check.py``). Equation numbers are seed 001's.

* :func:`check_sss_avgmin_identity` -- Corollary 5 and Example 1 (catalogue F2/F3): for ordered
  margins z_1 <= ... <= z_N and a cap c = 1/nu, ``max_gamma gamma - c sum_n [gamma - z_n]_+``
  is attained at the breakpoint gamma = z_q, q = ceil(nu), and equals the average of the nu
  smallest margins ``c sum_{n<q} z_n + (1 - c (q-1)) z_q``: symbolic in the gaps between the
  ordered margins (every other breakpoint is below by a nonnegative combination of the gaps).
* :func:`check_sss_entropy_conjugate` -- App. B / §5.1 (catalogue F7): stationarity of
  ``<theta, d> - beta (sum d ln d + ln N)`` on the simplex gives d = softmax(theta/beta) and
  the value ``beta ln((1/N) sum exp(theta_n/beta))``; for F8, the free block of Lemma 16
  (``d = xi d0`` on the uncapped entries).
* :func:`check_sss_squared_norm_pair` -- catalogue F10 (p = 2): the conjugate of
  ``(nu/2)||d||^2`` is ``||x||^2/(2 nu)``, and stationarity of the Lagrangian of
  ``max gamma - ||xi||^2/(2 nu)`` s.t. ``xi >= gamma - z`` gives ``d = xi/nu`` with
  ``sum d = 1`` <=> ``sum [gamma - z]_+ = nu``.
* :func:`check_sss_norm_maps` -- catalogue F4/F5 (p = 2, general p): the stationarity of the
  ball / penalty Lagrangians gives ``d = r xi^(q-1)/||xi||_q^(q-1)`` (F4) and
  ``d = xi^(q-1)/sum xi^(q-1)`` (F5), with 1/p + 1/q = 1.
* :func:`check_sss_theorem7_monotonicity` -- Theorem 7 (iii) for the l_q norms (the derivative
  of ||x||_q in |x_n| is >= 0) and the seed's flag that f* = max_n x_n violates it
  (theta = (-5, -3)).
"""

from __future__ import annotations

import itertools

import sympy as sp

from .result import CheckResult

__all__ = ["check_sss_avgmin_identity", "check_sss_entropy_conjugate",
           "check_sss_squared_norm_pair", "check_sss_norm_maps",
           "check_sss_theorem7_monotonicity"]


def check_sss_avgmin_identity(mistake: bool = False) -> CheckResult:
    """Corollary 5 / Example 1 (see the module docstring); mistake: gamma at z_(q+1)."""
    name, reference = "sss_avgmin_identity", "seed 001 Cor. 5, Example 1, Eq. 3, Eq. 6 (F2, F3)"
    N = 6
    a = sp.Symbol("a", real=True)
    gaps = sp.symbols(f"g1:{N}", nonnegative=True)
    z = [a + sum(gaps[:i]) for i in range(N)]  # z_1 <= ... <= z_N
    checked = 0
    for nu in (sp.Integer(1), sp.Rational(5, 2), sp.Integer(3), sp.Rational(7, 2), sp.Integer(N)):
        c = 1 / nu
        q = int(sp.ceiling(nu))
        avgmin = c * sum(z[:q - 1]) + (1 - c * (q - 1)) * z[q - 1]

        def value(k: int, c: sp.Expr = c) -> sp.Expr:  # the objective at gamma = z_k (0-based)
            return sp.expand(z[k] - c * sum(z[k] - z[n] for n in range(k)))

        at = min(q, N - 1) if mistake else q - 1
        if sp.simplify(value(at) - avgmin) != 0:
            return CheckResult(name, reference, False,
                               f"nu = {nu}: the value at gamma = z_({at + 1}) is not AvgMin_nu")
        for k in range(N):  # every breakpoint is below: a nonpositive combination of the gaps
            difference = sp.Poly(sp.expand(value(k) - avgmin), *gaps)
            if any(coefficient > 0 for coefficient in difference.coeffs()):
                return CheckResult(name, reference, False,
                                   f"nu = {nu}: the breakpoint z_({k + 1}) is above AvgMin")
            checked += 1
    return CheckResult(name, reference, True,
                       f"symbolic in the ordered margins' gaps, N = {N}, 5 values of nu, "
                       f"{checked} breakpoints")


def check_sss_entropy_conjugate(mistake: bool = False) -> CheckResult:
    """App. B (F7) and Lemma 16 (F8); mistake: h without its + ln N."""
    name, reference = "sss_entropy_conjugate", "seed 001 App. B, §5.1, Lemma 16 (F7, F8)"
    N = 3
    beta = sp.Symbol("beta", positive=True)
    theta = sp.symbols(f"t1:{N + 1}", real=True)
    lam = sp.Symbol("lam", real=True)
    d = sp.symbols(f"d1:{N + 1}", positive=True)
    shift = 0 if mistake else sp.log(N)
    objective = sum(t * x for t, x in zip(theta, d)) - beta * (sum(x * sp.log(x) for x in d)
                                                               + shift)
    lagrangian = objective - lam * (sum(d) - 1)
    stationary = [sp.solve(sp.diff(lagrangian, x), x)[0] for x in d]  # d_n = e^(t_n/b - 1 - l/b)
    total = sp.simplify(sum(stationary))
    scale = sp.solve(sp.Eq(total, 1), lam)[0]
    d_star = [sp.simplify(s.subs(lam, scale)) for s in stationary]
    softmax = [sp.exp(t / beta) / sum(sp.exp(u / beta) for u in theta) for t in theta]
    if any(sp.simplify(x - y) != 0 for x, y in zip(d_star, softmax)):
        return CheckResult(name, reference, False, "the stationary d is not softmax(theta/beta)")
    value = sp.simplify(objective.subs(dict(zip(d, d_star))))
    claim = beta * sp.log(sum(sp.exp(t / beta) for t in theta) / N)
    if sp.simplify(sp.expand_log(value - claim, force=True)) != 0:
        return CheckResult(name, reference, False,
                           f"value {value} is not beta ln((1/N) sum exp(theta/beta))")
    # Lemma 16: KL(d || d0) + lam (sum d - 1) stationary on the free block => d = xi d0
    d0 = sp.Symbol("d0", positive=True)
    x = sp.Symbol("x", positive=True)
    free = sp.solve(sp.diff(x * sp.log(x / d0) + lam * x, x), x)[0]
    if sp.simplify(free / d0).has(d0):
        return CheckResult(name, reference, False, "the free block is not proportional to d0")
    return CheckResult(name, reference, True,
                       "softmax and the value beta ln((1/N) sum e^(theta/beta)) by sympy (N = 3); "
                       "Lemma 16's free block d = xi d0")


def check_sss_squared_norm_pair(mistake: bool = False) -> CheckResult:
    """Catalogue F10 at p = 2; mistake: f = nu ||d||^2 (no 1/2)."""
    name, reference = "sss_squared_norm_pair", "seed 001 App. B pairs; catalogue F10 (R6)"
    nu = sp.Symbol("nu", positive=True)
    x, y = sp.symbols("x y", real=True)
    f = (nu if mistake else nu / 2) * y ** 2
    y_star = sp.solve(sp.diff(x * y - f, y), y)[0]
    conjugate = sp.simplify((x * y - f).subs(y, y_star))
    if sp.simplify(conjugate - x ** 2 / (2 * nu)) != 0:
        return CheckResult(name, reference, False,
                           f"the conjugate of f is {conjugate}, not x^2/(2 nu)")
    # the w-domain Lagrangian in xi_n with multiplier d_n of xi_n >= gamma - z_n (xi_n > 0)
    xi, d_n = sp.symbols("xi d_n", real=True)
    stationary = sp.solve(sp.diff(-xi ** 2 / (2 * nu) + d_n * xi, xi), xi)[0]
    if sp.simplify(stationary - nu * d_n) != 0:
        return CheckResult(name, reference, False, "stationarity in xi is not d = xi/nu")
    # stationarity in gamma: 1 - sum d = 0, so sum xi = nu (N = 4 symbolic hinges)
    hinges = sp.symbols("h1:5", nonnegative=True)
    gamma = sp.Symbol("gamma", real=True)
    lagrangian = gamma - sum(h ** 2 for h in hinges) / (2 * nu) + sum(
        (h / nu) * (h - gamma) for h in hinges)
    condition = sp.simplify(sp.diff(lagrangian, gamma))
    if sp.simplify(condition - (1 - sum(hinges) / nu)) != 0:
        return CheckResult(name, reference, False, f"stationarity in gamma is {condition}")
    return CheckResult(name, reference, True,
                       "f* = x^2/(2 nu); d* = xi*/nu = [gamma* - Uw*]_+/nu; sum xi* = nu")


def check_sss_norm_maps(mistake: bool = False) -> CheckResult:
    """Catalogue F4 and F5; mistake: the exponent p - 1 in place of q - 1."""
    name, reference = "sss_norm_maps", "seed 001 Examples 1-2; catalogue F4, F5 (R2, R3)"
    checked = 0
    for p in (sp.Integer(2), sp.Integer(3), sp.Rational(3, 2)):
        q = p / (p - 1)
        exponent = (p - 1) if mistake else (q - 1)
        xi = sp.symbols("x1:4", positive=True)
        d = [x ** exponent for x in xi]  # the claimed direction of d* on the hinge support
        # stationarity of <z + b, d> + lam ||d||_p in d_n: (gamma - z_n) = xi_n is proportional
        # to d_n^(p-1) / ||d||_p^(p-1), i.e. the gradient of ||.||_p at d
        norm = sum(x ** p for x in d) ** (1 / p)
        gradient = [x ** (p - 1) / norm ** (p - 1) for x in d]
        ratios = {sp.simplify(g / x) for g, x in zip(gradient, xi)}
        if len(ratios) != 1:
            return CheckResult(name, reference, False,
                               f"p = {p}: grad ||d||_p at d = xi^{exponent} is not parallel to xi")
        # F4: ||d*||_p = r with d* = r xi^(q-1)/||xi||_q^(q-1)
        normq = sum(x ** q for x in xi) ** (1 / q)
        ball = [x ** exponent / normq ** (q - 1) for x in xi]
        if sp.simplify(sum(x ** p for x in ball) ** (1 / p) - 1) != 0:
            return CheckResult(name, reference, False,
                               f"p = {p}: xi^(q-1)/||xi||_q^(q-1) has not l_p norm 1")
        checked += 1
    return CheckResult(name, reference, True,
                       f"d* parallel to grad ||.||_p and of norm r at {checked} values of p")


def check_sss_theorem7_monotonicity(mistake: bool = False) -> CheckResult:
    """Theorem 7 (iii) for the l_q norms; the seed's flag on f* = max; mistake: the flag's
    theta taken positive (where max does satisfy (iii))."""
    name, reference = "sss_theorem7_iii", "seed 001 Theorem 7 (iii), Lemma 8; flag §2.2"
    a = sp.Symbol("a", nonnegative=True)
    rest = sp.Symbol("r", nonnegative=True)
    for q in (sp.Integer(1), sp.Integer(2), sp.Integer(3), sp.Rational(3, 2)):
        norm = (a ** q + rest) ** (1 / q)  # ||x||_q as a function of |x_n| = a
        derivative = sp.diff(norm, a)
        # = |x_n|^(q-1) ||x||_q^(1-q): a product of nonnegative factors
        product = a ** (q - 1) * (a ** q + rest) ** ((1 - q) / q)
        if sp.simplify(sp.powsimp(derivative - product, force=True)) != 0:
            return CheckResult(name, reference, False,
                               f"d||x||_q/d|x_n| is not |x_n|^(q-1) ||x||_q^(1-q) at q = {q}")
    conjugate = max
    theta = (5, 3) if mistake else (-5, -3)  # on R^N_+ max is monotone: no violation there
    violated = False
    for n, alpha in itertools.product(range(2), (sp.Rational(1, 2), sp.Integer(1))):
        shrunk = list(theta)
        shrunk[n] = theta[n] - alpha * theta[n]
        violated |= conjugate(theta) < conjugate(shrunk)
    if not violated:
        return CheckResult(name, reference, False,
                           "f* = max x_n does not violate (iii) at theta = (-5, -3)")
    return CheckResult(name, reference, True,
                       "||x||_q is monotone in each |x_n| (q = 1, 3/2, 2, 3); f* = max violates "
                       "(iii) at theta = (-5, -3) (the seed's hard-margin f; use f = 0)")
