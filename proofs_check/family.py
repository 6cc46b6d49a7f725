"""The regularized-LPBoost family: conjugates, moduli, range bounds and the generalized bound T1-T4.

docs/theory.md ("The regularized-LPBoost family", "The iteration bound T1-T4", "The shipped
regularizers") states each formula checked here; the thesis numbers are cited per check.
The declared formulas are written out below *as stated in docs/theory.md* (not imported from
``formulations/``), so these checks test the documented math itself.

Checks
------
* :func:`check_regularizer_conjugates` -- per coordinate, sympy solves the stationarity of
  ``y d - R(d)`` and compares the stationary ``d`` and the value there with the declared
  ``grad R*`` and ``R*``, for the relative entropy (thesis (3.13)-(3.14)), the binary relative
  entropy ((3.26)-(3.27)), the unnormalized entropy ((3.19)-(3.20)), the squared Euclidean
  distance (both branches of its clip at d = 0) and the Tsallis divergence (q = 1/2 and general
  q); also R'' against the declared Hessian (all positive: the stationary point is the sup).
* :func:`check_progress_step_algebra` -- T2: ``alpha* = z sigma/(4 eta)`` maximizes
  ``alpha z - 2 eta alpha^2/sigma``, the maximum is ``z^2 sigma/(8 eta)`` and ``alpha* <= 1`` for
  all ``0 <= z <= 2`` iff ``eta >= sigma/2`` (Lemma 3.7 / 3.19 generalized).
* :func:`check_family_iteration_bound` -- T3/T4: Lemma 3.9 with ``c = sigma/(8 eta)`` gives
  ``t < 8 eta/(sigma delta^t)``, ``T < 16 eta/(sigma eps)`` (32 practical), and the default
  ``eta = max(2B/eps, sigma/2)`` gives ``max(32 B/(sigma eps^2), 8/eps)``; slowest admissible
  sequences are simulated.
* :func:`check_family_range_bounds` -- B: the binary second-sum bound
  ``(N/nu - 1) ln(N/(N - nu)) <= 1``, the uniform Tsallis and L2 values at an integer vertex, and
  (numerically) ``0 = R(d0) <= R <= B`` over *all* vertices of small capped simplices with random
  non-uniform d0 (R is convex, so its maximum is at a vertex).
* :func:`check_family_moduli` -- sigma: Tsallis ``min_{S_nu} 1/sum(d^(2-q)/q) = q nu^(1-q)``
  (symbolic at the integer vertex, the partial-entry inequality, vertex enumeration), the l1
  curvature of a diagonal Hessian ``min_v v'Hv/||v||_1^2 = 1/sum(1/h)``, and L2's
  ``N ||v||_2^2 >= ||v||_1^2`` (tight on the simplex).

Each check takes a ``mistake`` keyword that switches to a deliberately wrong variant which must
make it fail (``tests/test_proofs_check.py``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import sympy as sp

from .result import CheckResult, Comparisons, summarize_methods

__all__ = [
    "check_family_iteration_bound",
    "check_family_moduli",
    "check_family_range_bounds",
    "check_progress_step_algebra",
    "check_regularizer_conjugates",
    "capped_simplex_vertices",
    "REGULARIZERS",
]

# --------------------------------------------------------------------------------------------
# the declared per-coordinate formulas (docs/theory.md, "The shipped regularizers")
# --------------------------------------------------------------------------------------------

_d, _d0, _nu, _N = sp.symbols("d d0 nu N", positive=True)
_y = sp.Symbol("y", real=True)
_q = sp.Symbol("q", positive=True)
_t = sp.Symbol("t", positive=True)  # the unclipped maximizer's root, on the interior branch
_s = sp.Symbol("s", nonnegative=True)  # how far below the clip y is, on the clipped branch


def _tsallis(q):
    """R_n, R*_n, grad R*_n, R''_n of the Tsallis divergence (docs/theory.md) for exponent q."""
    R = (q * _d0 ** (q - 1) * _d - _d**q + (1 - q) * _d0**q) / (1 - q)
    b = q * _d0 ** (q - 1) / (1 - q) - _y
    K = ((1 - q) / q) * (q / (1 - q)) ** (1 / (1 - q))
    conj = K * b ** (-q / (1 - q)) - _d0**q
    grad = (q / ((1 - q) * b)) ** (1 / (1 - q))
    return R, conj, grad, q * _d ** (q - 2)


def _declared(mistake: str | None) -> dict[str, dict]:
    """name -> {R, conj, grad, hess, domains} with R's per-coordinate formulas (one coordinate:
    R(d) = sum_n R_n(d_n)); ``mistake`` perturbs one declaration (wrong variants)."""
    c = 1 / _nu
    a = _nu * _d0
    out = {
        "relative entropy": dict(
            R=_d * sp.log(_d / _d0), conj=_d0 * sp.exp(_y - 1), grad=_d0 * sp.exp(_y - 1),
            hess=1 / _d),
        "binary relative entropy": dict(
            R=_d * sp.log(_d / _d0) + (c - _d) * sp.log((c - _d) / (c - _d0)),
            conj=sp.log(1 - a + a * sp.exp(_y)) / _nu,
            grad=a * sp.exp(_y) / (_nu * (1 - a + a * sp.exp(_y))),
            hess=1 / _d + 1 / (c - _d)),
        "unnormalized entropy": dict(
            R=_d * sp.log(_d / _d0) - _d + _d0, conj=_d0 * (sp.exp(_y) - 1),
            grad=_d0 * sp.exp(_y), hess=1 / _d),
        "squared Euclidean": dict(
            R=_N / 2 * (_d - _d0) ** 2,
            conj=_N / 2 * (sp.Max(_d0 + _y / _N, 0) ** 2 - _d0**2),
            grad=sp.Max(_d0 + _y / _N, 0), hess=_N,
            clip=({_y: _N * (_t - _d0)}, {_y: -_N * (_d0 + _s)}, -_N * (_s + _d))),
        # docs/walkthrough_swap_regularizer.md: the Bregman divergence of (3/4) d^(4/3)
        "4/3-power (walkthrough)": dict(
            R=sp.Rational(3, 4) * _d ** sp.Rational(4, 3) - sp.cbrt(_d0) * _d
            + _d0 ** sp.Rational(4, 3) / 4,
            conj=(sp.Max(sp.cbrt(_d0) + _y, 0) ** 4 - _d0 ** sp.Rational(4, 3)) / 4,
            grad=sp.Max(sp.cbrt(_d0) + _y, 0) ** 3, hess=_d ** sp.Rational(-2, 3) / 3,
            clip=({_y: _t - sp.cbrt(_d0)}, {_y: -sp.cbrt(_d0) - _s},
                  -(_s + sp.cbrt(_d)))),
    }
    for label, q in (("Tsallis q=1/2", sp.Rational(1, 2)), ("Tsallis general q", _q)):
        R, conj, grad, hess = _tsallis(q)
        out[label] = dict(R=R, conj=conj, grad=grad, hess=hess)
    if mistake == "relative_entropy_without_minus_one":  # the unnormalized conjugate, (3.20)
        out["relative entropy"]["conj"] = _d0 * sp.exp(_y)
        out["relative entropy"]["grad"] = _d0 * sp.exp(_y)
    elif mistake == "l2_unclipped":  # conjugate over R^N instead of d >= 0
        out["squared Euclidean"]["conj"] = _d0 * _y + _y**2 / (2 * _N)
        out["squared Euclidean"]["grad"] = _d0 + _y / _N
    elif mistake == "tsallis_without_K":
        q = _q
        b = q * _d0 ** (q - 1) / (1 - q) - _y
        out["Tsallis general q"]["conj"] = b ** (-q / (1 - q)) - _d0**q
    elif mistake == "power_walkthrough_over_5":  # the walkthrough's one-character break
        out["4/3-power (walkthrough)"]["conj"] = (
            sp.Max(sp.cbrt(_d0) + _y, 0) ** 4 / 5 - _d0 ** sp.Rational(4, 3) / 4)
    elif mistake == "binary_without_1_over_nu":
        out["binary relative entropy"]["conj"] = sp.log(1 - a + a * sp.exp(_y))
    elif mistake is not None:
        raise ValueError(f"unknown mistake {mistake!r}")
    return out


# numeric domains for sym_equal's fallback: inside every declaration's domain
# (binary: nu d0 < 1; Tsallis: b > 0 needs y < q d0^(q-1)/(1-q), >= 0.28 here)
_DOMAINS = {_d0: (sp.Rational(1, 100), sp.Rational(45, 100)), _nu: (1, 2),
            _N: (2, 50), _y: (-3, sp.Rational(1, 5)), _q: (sp.Rational(1, 5), sp.Rational(4, 5)),
            _d: (sp.Rational(1, 100), sp.Rational(45, 100))}


_GENERAL_Q = (sp.Rational(1, 3), sp.Rational(1, 4), sp.Rational(2, 3), sp.Rational(3, 4),
              sp.Rational(2, 5))


def check_regularizer_conjugates(mistake: str | None = None) -> CheckResult:
    """Each shipped regularizer's conjugate from the stationarity of ``y d - R(d)``.

    Per coordinate, sympy solves ``y - R'(d) = 0`` for ``d`` (thesis (3.13) for the relative
    entropy, (3.27) binary, (3.20) unnormalized; derived for L2 and Tsallis), and the solution
    and the value ``y d - R(d)`` there must equal the declared ``grad R*`` and ``R*``
    (docs/theory.md). ``R''`` must equal the declared Hessian (positive on the domain, so the
    stationary point is the maximum). The squared Euclidean distance is conjugated over
    ``d >= 0``: on ``d0 + y/N > 0`` the stationary point is interior; on ``d0 + y/N <= 0`` the
    objective decreases on ``d >= 0`` and the sup ``-(N/2) d0^2`` is at ``d = 0``. For Tsallis,
    at ``b = 0`` the objective is unbounded (``R* = +inf`` off ``b > 0``).

    The 4/3-power divergence of docs/walkthrough_swap_regularizer.md is checked the same way
    (both branches of its clip).

    ``mistake``: "relative_entropy_without_minus_one", "l2_unclipped", "tsallis_without_K",
    "binary_without_1_over_nu", "power_walkthrough_over_5" (each must fail).
    """
    name = "Regularizer conjugates R*"
    ref = "thesis (3.13)-(3.14), (3.19)-(3.20), (3.26)-(3.27); docs/theory.md regularizers"
    cmp = Comparisons(_DOMAINS)
    fails = cmp.failures
    t, s = _t, _s
    cmp.domains = {**_DOMAINS, t: (sp.Rational(1, 100), 1), s: (0, 1)}
    decl = _declared(mistake)
    for label, f in decl.items():
        R = f["R"]
        objective = _y * _d - R
        sols = sp.solve(sp.Eq(sp.diff(objective, _d), 0), _d, check=False, simplify=False)
        if len(sols) != 1:
            fails.append(f"{label}: {len(sols)} stationary points")
            continue
        d_star = sols[0]
        value = objective.subs(_d, d_star)
        hess = sp.diff(R, _d, 2)
        if label == "binary relative entropy":  # d in (0, 1/nu): write d = t/nu, t in (0, 1)
            cmp.domains[t] = (sp.Rational(1, 100), sp.Rational(99, 100))
            cmp(f"{label}: R''", hess.subs(_d, t / _nu), f["hess"].subs(_d, t / _nu))
            cmp.domains[t] = (sp.Rational(1, 100), 1)
        else:
            cmp(f"{label}: R''", hess, f["hess"])
        if "clip" in f:  # R'(0) is finite: the sup is at d = 0 below the clip
            inner, clipped, slope = f["clip"]
            cmp(f"{label}: grad R* (interior)", d_star.subs(inner), f["grad"].subs(inner))
            cmp(f"{label}: R* (interior)", value.subs(inner), f["conj"].subs(inner))
            slope_at_d = sp.diff(objective, _d).subs(clipped)  # <= 0 on d >= 0
            cmp(f"{label}: slope on the clipped branch", slope_at_d, slope)
            cmp(f"{label}: grad R* (clipped)", sp.Integer(0), f["grad"].subs(clipped))
            cmp(f"{label}: R* (clipped)", -R.subs(_d, 0), f["conj"].subs(clipped))
            continue
        if label == "Tsallis general q":
            # sympy solved the stationarity for symbolic q; deciding the identity with symbolic
            # exponents is beyond sympy's simplifier (and 60-digit evaluation at random rational
            # q is slow), so the general-q solution is compared at several fixed q
            for qv in _GENERAL_Q:
                cmp(f"{label}: grad R* at q={qv}", d_star.subs(_q, qv), f["grad"].subs(_q, qv))
                cmp(f"{label}: R* at q={qv}", value.subs(_q, qv), f["conj"].subs(_q, qv))
        else:
            cmp(f"{label}: grad R*", d_star, f["grad"])
            cmp(f"{label}: R*", value, f["conj"])
        if label.startswith("Tsallis"):
            q = sp.Rational(1, 2) if "1/2" in label else _q
            at_b0 = objective.subs(_y, q * _d0 ** (q - 1) / (1 - q))
            lim = sp.limit(at_b0.subs(_q, sp.Rational(1, 3)) if q is _q else at_b0, _d, sp.oo)
            if lim != sp.oo:
                fails.append(f"{label}: y d - R(d) at b = 0 tends to {lim}, not +oo")
    passed = not fails
    detail = f"{len(decl)} regularizers; sympy: {summarize_methods(cmp.methods)}"
    if fails:
        detail += "; FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, passed, detail)


# --------------------------------------------------------------------------------------------
# T2, T3, T4
# --------------------------------------------------------------------------------------------

_z, _sigma, _eta, _alpha, _eps, _B = sp.symbols("z sigma eta alpha epsilon B", positive=True)


def check_progress_step_algebra(smoothness_factor: float = 0.5) -> CheckResult:
    """T2 (thesis Lemma 3.7 / 3.19 generalized; Shalev-Shwartz & Singer Lemma 18).

    The conjugate of ``(1/eta) R`` (``sigma/eta``-strongly convex in l1) satisfies
    ``f*(theta + D) <= f*(theta) + grad.D + smoothness_factor (eta/sigma) ||D||_inf^2`` with
    ``smoothness_factor`` = 1/2; with ``||x||_inf <= 2`` the dual increases by at least
    ``alpha z - 4 smoothness_factor (eta/sigma) alpha^2``. sympy: its maximizer is
    ``alpha* = z sigma/(4 eta)``, the maximum ``z^2 sigma/(8 eta)``, it is a maximum (second
    derivative < 0), ``alpha*(z=2) - 1 = (sigma - 2 eta)/(2 eta)`` (so ``alpha* <= 1`` on
    ``0 <= z <= 2`` iff ``eta >= sigma/2``) and at sigma = 1 it is Lemma 3.7's
    ``alpha* = x.d/(4 eta)`` and ``1/(8 eta)``. ``smoothness_factor=1`` must fail.
    """
    name = "T2 progress-step algebra"
    ref = "thesis Lemma 3.7 / 3.19 generalized (docs/theory.md T2)"
    dom = {_z: (sp.Rational(1, 100), 2), _sigma: (sp.Rational(1, 10), 3),
           _eta: (sp.Rational(1, 10), 50), _alpha: (0, 1)}
    cmp = Comparisons(dom)
    k = sp.nsimplify(smoothness_factor)
    bound = _alpha * _z - k * (_eta / _sigma) * _alpha**2 * 2**2
    cmp("increase bound = alpha z - 2 eta alpha^2/sigma", bound,
        _alpha * _z - 2 * _eta * _alpha**2 / _sigma)
    crit = sp.solve(sp.Eq(sp.diff(bound, _alpha), 0), _alpha)
    fails = cmp.failures
    if len(crit) != 1:
        fails.append(f"{len(crit)} critical points")
    else:
        a_star = crit[0]
        cmp("alpha* = z sigma/(4 eta)", a_star, _z * _sigma / (4 * _eta))
        cmp("max = z^2 sigma/(8 eta)", bound.subs(_alpha, a_star), _z**2 * _sigma / (8 * _eta))
        cmp("alpha*(z=2) - 1 = (sigma - 2 eta)/(2 eta)", a_star.subs(_z, 2) - 1,
            (_sigma - 2 * _eta) / (2 * _eta))
        cmp("sigma = 1: Lemma 3.7's alpha* = x.d/(4 eta)", a_star.subs(_sigma, 1), _z / (4 * _eta))
        if not sp.diff(bound, _alpha, 2).is_negative:
            fails.append("second derivative not negative")
    detail = f"sympy: {summarize_methods(cmp.methods)}"
    if fails:
        detail += "; FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, not fails, detail)


def check_family_iteration_bound(bound_factor: float = 16) -> CheckResult:
    """T3/T4 (thesis Lemmas 3.8-3.9, Thms 3.10/3.12/3.21/3.23 generalized, (3.17)).

    sympy, with ``c = sigma/(8 eta)``:

    * Lemma 3.9's bound ``1/(c (t - 1 + 1/(c delta1)))`` is
      ``8 eta/(sigma (t - 1) + 8 eta/delta1)``;
      solved for t at equality it is ``t = 1 + 1/(c delta_t) - 1/(c delta1)``, so
      ``t < 1/(c delta_t)`` iff ``delta1 < 1/c = 8 eta/sigma``, which holds for ``delta1 <= 2``
      when ``eta >= sigma/2`` (``8 eta/sigma - 2 >= 2``);
    * ``delta_T > eps/2`` gives ``T < 2/(c eps) = 16 eta/(sigma eps)`` (``bound_factor``) and
      ``delta_hat_T > eps/4`` gives ``32 eta/(sigma eps)``;
    * the default eta: ``(16/(sigma eps)) (2B/eps) = 32 B/(sigma eps^2)``,
      ``(16/(sigma eps)) (sigma/2) = 8/eps`` and both Max branches switch at ``eps = 4B/sigma``;
      with sigma = 1, B = ln(N/nu) these are Thms 3.10 / 3.12.

    Numeric: 4000 slowest admissible sequences ``delta_{t+1} = delta_t - c delta_t^2`` with random
    ``sigma``, ``eta >= sigma/2``, ``delta1 in (0, 2]``, ``eps``; the number of iterations with
    ``delta_t > eps/2`` must be ``< bound_factor eta/(sigma eps)``. ``bound_factor=8`` must fail.
    """
    name = "T3/T4 iteration-bound algebra"
    ref = "thesis Lemmas 3.8-3.9, Thms 3.10, 3.12, 3.21, 3.23 generalized (docs/theory.md T4)"
    t, d1, dt = sp.symbols("t delta1 delta_t", positive=True)
    dom = {_sigma: (sp.Rational(1, 10), 3), _eta: (sp.Rational(1, 10), 50), t: (1, 1000),
           d1: (sp.Rational(1, 100), 2), dt: (sp.Rational(1, 1000), 2),
           _eps: (sp.Rational(1, 100), 2), _B: (sp.Rational(1, 10), 10)}
    cmp = Comparisons(dom)
    fails = cmp.failures
    c = _sigma / (8 * _eta)
    lemma39 = 1 / (c * (t - 1 + 1 / (c * d1)))
    cmp("Lemma 3.9 with c = sigma/(8 eta)", lemma39,
        8 * _eta / (_sigma * (t - 1) + 8 * _eta / d1))
    t_sol = sp.solve(sp.Eq(dt, lemma39), t)
    if len(t_sol) != 1:
        fails.append(f"solving Lemma 3.9 for t gave {t_sol}")
    else:
        cmp("t at equality", t_sol[0], 1 + 1 / (c * dt) - 1 / (c * d1))
    cmp("1/c - 2 at eta = sigma/2 is 2", (1 / c - 2).subs(_eta, _sigma / 2), sp.Integer(2))
    k = sp.nsimplify(bound_factor)
    cmp("2/(c eps) (simple)", 2 / (c * _eps), k * _eta / (_sigma * _eps))
    cmp("4/(c eps) (practical)", 4 / (c * _eps), 2 * k * _eta / (_sigma * _eps))
    simple = k / (_sigma * _eps)
    cmp("eta = 2B/eps branch", simple * 2 * _B / _eps, 32 * _B / (_sigma * _eps**2))
    cmp("eta = sigma/2 branch", simple * _sigma / 2, 8 / _eps)
    cmp("both switch at eps = 4B/sigma (eta)", 2 * _B / _eps - _sigma / 2,
        (4 * _B - _sigma * _eps) / (2 * _eps))
    cmp("both switch at eps = 4B/sigma (bound)", 32 * _B / (_sigma * _eps**2) - 8 / _eps,
        8 * (4 * _B - _sigma * _eps) / (_sigma * _eps**2))
    # slowest admissible sequences
    rng = np.random.default_rng(11)
    n_bad = 0
    for _ in range(4000):
        sigma = float(rng.uniform(0.05, 3))
        eta = sigma / 2 * (1 + float(rng.exponential(3)))
        delta = float(rng.uniform(1e-3, 2))
        eps = float(rng.uniform(0.02, 2))
        cc = sigma / (8 * eta)
        T = 0
        while delta > eps / 2:
            T += 1
            delta -= cc * delta**2
        if not T < bound_factor * eta / (sigma * eps):
            n_bad += 1
    if n_bad:
        fails.append(f"{n_bad}/4000 slowest sequences reach T >= {bound_factor:g} eta/(sigma eps)")
    detail = (f"sympy: {summarize_methods(cmp.methods)}; 4000 slowest recurrence sequences, "
              f"{n_bad} violations")
    if fails:
        detail += "; FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, not fails, detail)


# --------------------------------------------------------------------------------------------
# numpy versions of the regularizers and their declared (sigma, B), for vertex enumeration
# --------------------------------------------------------------------------------------------


def capped_simplex_vertices(N: int, nu: float) -> np.ndarray:
    """All vertices of {d >= 0, sum d = 1, d <= 1/nu}: the distinct permutations of
    (1/nu, ..., 1/nu, 1 - floor(nu)/nu, 0, ..., 0). Exhaustive, so only for small N."""
    k = math.floor(nu)
    base = [1.0 / nu] * k + ([1.0 - k / nu] if k < N else [])
    base += [0.0] * (N - len(base))
    return np.array(sorted(set(itertools.permutations(base))))


def _xlogy_ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros_like(a)
    pos = a > 0
    out[pos] = a[pos] * np.log(a[pos] / b[pos])
    return out


def _rel(d, d0, nu, q):
    return float(_xlogy_ratio(d, d0).sum())


def _binary(d, d0, nu, q):
    c = 1.0 / nu
    return float(_xlogy_ratio(d, d0).sum() + _xlogy_ratio(np.clip(c - d, 0, None), c - d0).sum())


def _unnormalized(d, d0, nu, q):
    return float((_xlogy_ratio(d, d0) - d + d0).sum())


def _l2(d, d0, nu, q):
    return float(d.size / 2 * np.sum((d - d0) ** 2))


def _tsallis_np(d, d0, nu, q):
    return float(np.sum(q * d0 ** (q - 1) * d - d**q + (1 - q) * d0**q) / (1 - q))


def _B_rel(d0, nu, q):
    return math.log(1.0 / (nu * d0.min()))


def _B_binary(d0, nu, q):
    return math.log(1.0 / (nu * d0.min())) + max(
        1.0, (d0.size / nu - 1) * -math.log1p(-nu * d0.max()))


def _B_l2(d0, nu, q):
    return d0.size / 2 * (1 / nu + float(d0 @ d0) - 2 * d0.min())


def _B_tsallis(d0, nu, q):
    return (q * float(np.max(d0 ** (q - 1))) + (1 - q) * float(np.sum(d0**q))
            - nu ** (1 - q)) / (1 - q)


#: name -> (R(d, d0, nu, q), declared B(d0, nu, q), tight at integer-nu vertices for uniform d0)
REGULARIZERS: dict[str, tuple[Callable, Callable, bool]] = {
    "relative entropy": (_rel, _B_rel, True),
    "binary relative entropy": (_binary, _B_binary, False),
    "unnormalized entropy": (_unnormalized, _B_rel, True),
    "squared Euclidean": (_l2, _B_l2, True),
    "Tsallis": (_tsallis_np, _B_tsallis, True),
}

_RANGE_CASES = [(5, 1.0), (5, 2.0), (6, 2.5), (6, 3.0), (7, 1.5), (7, 4.0), (6, 5.0)]


def check_family_range_bounds(mistake: str | None = None) -> CheckResult:
    """B of each shipped regularizer (docs/theory.md; thesis §3.2.5, §3.3.1).

    sympy: the binary second sum ``(N/nu - 1) ln(N/(N - nu))`` is ``x ln(1 + 1/x)`` with
    ``x = (N - nu)/nu``, and ``u - ln(1 + u) >= 0`` (``u = 1/x``: value 0 at 0, derivative
    ``u/(1 + u) >= 0``), so it is <= 1 and B = ln(N/nu) + 1 for uniform d0; R at the vertex
    (nu entries 1/nu, integer nu, uniform d0) equals ``(N^(1-q) - nu^(1-q))/(1-q)`` (Tsallis),
    ``(N/nu - 1)/2`` (L2) and ``ln(N/nu)`` (relative entropy).

    Numeric: for every regularizer, several (N, nu) (fractional nu included), uniform and random
    non-uniform d0, q in {0.3, 0.5, 0.8}: ``R(d0) = 0``, ``R >= 0`` at random points, and the
    maximum over *all* vertices (exhaustive) is ``<= B``, with equality for uniform d0 and integer
    nu where B is tight. ``mistake``: "l2_without_d0_norm" (drops ``||d0||^2``),
    "tsallis_without_linear" (drops ``q max d0^(q-1)``), "binary_without_plus_one" (B =
    ln(1/(nu min d0))): each must fail.
    """
    name = "Range bounds B of the family"
    ref = "thesis §3.2.5, §3.3.1 (Lemmas 3.3, 3.15); docs/theory.md regularizers"
    Ns, nus, q, x, u = sp.symbols("N nu q x u", positive=True)
    dom = {Ns: (3, 100), nus: (1, 2), q: (sp.Rational(1, 5), sp.Rational(4, 5)),
           x: (sp.Rational(1, 10), 100), u: (sp.Rational(1, 100), 10)}
    cmp = Comparisons(dom)
    fails = cmp.failures
    second = (Ns / nus - 1) * sp.log(Ns / (Ns - nus))
    cmp("binary second sum = x ln(1 + 1/x)", second.subs(nus, Ns / (1 + x)),
        (x * sp.log(1 + 1 / x)).subs(x, x))
    g = u - sp.log(1 + u)
    cmp("g(0) = 0", g.subs(u, 0), sp.Integer(0))
    cmp("g'(u) = u/(1+u)", sp.diff(g, u), u / (1 + u))
    # vertex values, uniform d0, integer nu: nu entries 1/nu, N - nu zeros
    ts_vertex = (q * Ns ** (1 - q) * 1 - nus * nus ** (-q) + (1 - q) * Ns * Ns ** (-q)) / (1 - q)
    cmp("Tsallis R(vertex)", ts_vertex, (Ns ** (1 - q) - nus ** (1 - q)) / (1 - q))
    l2_vertex = Ns / 2 * (nus * (1 / nus - 1 / Ns) ** 2 + (Ns - nus) / Ns**2)
    cmp("L2 R(vertex)", l2_vertex, (Ns / nus - 1) / 2)
    cmp("relative entropy R(vertex)", nus * (1 / nus) * sp.log(Ns / nus), sp.log(Ns / nus))
    cmp("Tsallis B (uniform d0)",
        (q * (1 / Ns) ** (q - 1) + (1 - q) * Ns * (1 / Ns) ** q - nus ** (1 - q)) / (1 - q),
        (Ns ** (1 - q) - nus ** (1 - q)) / (1 - q))
    cmp("L2 B (uniform d0)", Ns / 2 * (1 / nus + Ns / Ns**2 - 2 / Ns), (Ns / nus - 1) / 2)

    declared = dict(REGULARIZERS)
    if mistake == "l2_without_d0_norm":
        declared["squared Euclidean"] = (_l2, lambda d0, nu, q: d0.size / 2 * (
            1 / nu - 2 * d0.min()), True)
    elif mistake == "tsallis_without_linear":
        declared["Tsallis"] = (_tsallis_np, lambda d0, nu, q: (
            (1 - q) * float(np.sum(d0**q)) - nu ** (1 - q)) / (1 - q), True)
    elif mistake == "binary_without_plus_one":
        declared["binary relative entropy"] = (_binary, _B_rel, False)
    elif mistake is not None:
        raise ValueError(f"unknown mistake {mistake!r}")

    rng = np.random.default_rng(5)
    n_cases = 0
    worst_ratio = 0.0
    for N, nu in _RANGE_CASES:
        V = capped_simplex_vertices(N, nu)
        interior = rng.dirichlet(np.ones(len(V)), size=50) @ V
        d0s = [np.full(N, 1.0 / N)] + [0.5 / N + 0.5 * rng.dirichlet(np.ones(N) * 2)
                                       for _ in range(2)]
        for k, d0 in enumerate(d0s):
            for qv in (0.3, 0.5, 0.8):
                for label, (R, B, tight) in declared.items():
                    if label != "Tsallis" and qv != 0.5:
                        continue
                    if label == "binary relative entropy" and nu * d0.max() >= 1:
                        continue
                    n_cases += 1
                    b = B(d0, nu, qv)
                    at_d0 = R(d0, d0, nu, qv)
                    vmax = max(R(v, d0, nu, qv) for v in V)
                    pmin = min(R(p, d0, nu, qv) for p in interior)
                    where = f"{label}, N={N}, nu={nu:g}, q={qv:g}, d0 #{k}"
                    if abs(at_d0) > 1e-12:
                        fails.append(f"{where}: R(d0) = {at_d0:.2e}")
                    if pmin < -1e-12:
                        fails.append(f"{where}: R < 0 at an interior point ({pmin:.2e})")
                    if vmax > b + 1e-10 * (1 + abs(b)):
                        fails.append(f"{where}: max over vertices {vmax:.6f} > B = {b:.6f}")
                    if tight and k == 0 and float(nu).is_integer() and abs(vmax - b) > 1e-10:
                        fails.append(f"{where}: B = {b:.6f} not attained ({vmax:.6f})")
                    if b > 0:
                        worst_ratio = max(worst_ratio, vmax / b)
    detail = (f"sympy: {summarize_methods(cmp.methods)}; {n_cases} (regularizer, N, nu, d0, q) "
              f"cases, all vertices: max R/B = {worst_ratio:.4f}")
    if fails:
        detail += "; FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, not fails, detail)


def check_family_moduli(mistake: str | None = None) -> CheckResult:
    """sigma (docs/theory.md; thesis Lemma 3.7's Pinsker step generalized).

    * The l1 curvature of a diagonal Hessian ``H = diag(h)``: ``min_v v'Hv/||v||_1^2 =
      1/sum(1/h)`` (Cauchy-Schwarz; attained at ``v ~ 1/h``), checked on random h and v.
    * Tsallis (Hessian ``q d^(q-2)``): sympy, at the integer vertex ``sum d^(2-q) = nu^(q-1)``, so
      ``1/sum(d^(2-q)/q) = q nu^(1-q)``; the partial entry ``r in [0, 1/nu]`` has
      ``r^(2-q) <= r nu^(q-1)`` (``r^(1-q) <= nu^(q-1)``); numerically, by exhaustive vertex
      enumeration (``sum d^(2-q)`` is convex, so its maximum over S_nu is at a vertex),
      ``min_{S_nu} 1/sum(d^(2-q)/q) = q nu^(1-q)`` exactly for integer nu and ``>=`` otherwise.
    * Relative entropy (h = 1/d): ``1/sum d = 1``; L2 (h = N): ``1/sum(1/N) = 1``, and
      ``N ||v||_2^2 = ||v||_1^2`` for ``v = (1, -1, 1, -1, ...)`` (a simplex direction), so
      sigma = 1 is tight.

    ``mistake``: "tsallis_sigma_q" (claims ``sigma = q``), "l2_sigma_N" (claims ``sigma = N``):
    each must fail.
    """
    name = "Moduli sigma of the family"
    ref = "thesis Lemma 3.7 (Pinsker), §3.2.5 generalized; docs/theory.md regularizers"
    nus, q, r = sp.symbols("nu q r", positive=True)
    dom = {nus: (1, 20), q: (sp.Rational(1, 5), sp.Rational(4, 5)), r: (0, 1)}
    cmp = Comparisons(dom)
    fails = cmp.failures
    claimed_tsallis = (lambda qv, nu: qv) if mistake == "tsallis_sigma_q" else (
        lambda qv, nu: qv * nu ** (1 - qv))
    claimed_l2 = (lambda N: float(N)) if mistake == "l2_sigma_N" else (lambda N: 1.0)
    if mistake not in (None, "tsallis_sigma_q", "l2_sigma_N"):
        raise ValueError(f"unknown mistake {mistake!r}")
    sum_at_vertex = nus * (1 / nus) ** (2 - q)
    cmp("Tsallis sum d^(2-q) at the vertex", sum_at_vertex, nus ** (q - 1))
    cmp("Tsallis modulus at the vertex", 1 / (sum_at_vertex / q), q * nus ** (1 - q))
    # partial entry r = rho/nu, rho in [0, 1]:
    # r nu^(q-1) - r^(2-q) = (rho/nu^(2-q)) (1 - rho^(1-q)) >= 0
    rho = r
    cmp("partial entry gap", (rho / nus) * nus ** (q - 1) - (rho / nus) ** (2 - q),
        rho / nus ** (2 - q) * (1 - rho ** (1 - q)))
    rng = np.random.default_rng(9)
    # l1 curvature of a diagonal Hessian
    worst = math.inf
    for _ in range(200):
        h = rng.uniform(0.1, 10, 6)
        lower = 1 / np.sum(1 / h)
        v = rng.normal(size=(200, 6))
        ratios = np.einsum("ij,j,ij->i", v, h, v) / np.abs(v).sum(1) ** 2
        worst = min(worst, ratios.min() / lower)
        v_star = 1 / h
        if abs(v_star @ (h * v_star) / np.abs(v_star).sum() ** 2 - lower) > 1e-12 * lower:
            fails.append("v ~ 1/h does not attain 1/sum(1/h)")
            break
    if worst < 1 - 1e-12:
        fails.append(f"v'Hv/||v||_1^2 below 1/sum(1/h) (ratio {worst:.4f})")
    # Tsallis by vertex enumeration
    n_cases = 0
    for N, nu in _RANGE_CASES:
        V = capped_simplex_vertices(N, nu)
        for qv in (0.3, 0.5, 0.8):
            n_cases += 1
            smallest = min(1 / np.sum(v ** (2 - qv) / qv) for v in V)
            claim = claimed_tsallis(qv, nu)
            if smallest < claim * (1 - 1e-12):
                fails.append(f"Tsallis N={N}, nu={nu:g}, q={qv}: min {smallest:.6f} < sigma "
                             f"{claim:.6f}")
            if float(nu).is_integer() and abs(smallest - claim) > 1e-12 * claim:
                fails.append(f"Tsallis N={N}, nu={nu:g}, q={qv}: min {smallest:.6f} != sigma "
                             f"{claim:.6f}")
        # relative entropy and L2 through the same formula (h = 1/d, h = N)
        if any(abs(1 / np.sum(v) - 1) > 1e-12 for v in V):
            fails.append(f"relative entropy N={N}: 1/sum d != 1")
        if abs(1 / np.sum(np.full(N, 1.0 / N)) - claimed_l2(N)) > 1e-12:
            fails.append(f"L2 N={N}: 1/sum(1/N) = 1 != sigma {claimed_l2(N):g}")
    for N in (4, 6, 10):
        v = np.resize([1.0, -1.0], N)
        if abs(N * (v @ v) - np.abs(v).sum() ** 2) > 1e-12:
            fails.append(f"L2 N={N}: not tight on v = (1, -1, ...)")
    detail = (f"sympy: {summarize_methods(cmp.methods)}; diagonal-Hessian l1 curvature on 200 "
              f"random h (min ratio {worst:.4f}); Tsallis on {n_cases} (N, nu, q) by vertex "
              "enumeration")
    if fails:
        detail += "; FAILED: " + "; ".join(fails[:3])
    return CheckResult(name, ref, not fails, detail)
