"""The :class:`CheckResult` record and small shared helpers for the checks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

__all__ = ["CheckResult", "canonical_form", "summarize_methods", "sym_equal"]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one check.

    Attributes:
        name: short identifier of the check.
        reference: the thesis equation / lemma numbers it verifies.
        passed: whether the computed quantity matched the claim.
        detail: a one-line human-readable summary (method used, worst error, ...).
    """

    name: str
    reference: str
    passed: bool
    detail: str


SIMPLIFY_MAX_OPS = 60


def canonical_form(expr: sp.Expr) -> sp.Expr:
    """A cheap canonical form for sums of exponentials and logs of such sums.

    ``expand`` (which also splits exp(a + b) into exp(a) exp(b)), then rewrite every
    ``log(X)`` as ``expand_log(log(factor(X)), force=True)`` (pulling common exponential
    factors out of a log-sum-exp), expand again and put everything over a common denominator
    with ``cancel``.  Much faster than ``sympy.simplify`` on the log-sum-exp expressions of
    Lemma 3.6, and it decides all identities needed there.
    """

    def fix_log(arg: sp.Expr) -> sp.Expr:
        return sp.expand(sp.expand_log(sp.log(sp.factor(sp.expand(arg))), force=True))

    e = sp.expand(expr)
    e = e.replace(lambda x: isinstance(x, sp.log), lambda x: fix_log(x.args[0]))
    return sp.cancel(sp.together(sp.expand(e)))


def sym_equal(
    a: sp.Expr,
    b: sp.Expr,
    domains: Mapping[sp.Symbol, tuple[float, float]],
    *,
    n_points: int = 12,
    rel_tol: float = 1e-30,
    seed: int = 0,
) -> tuple[bool, str]:
    """Decide whether two sympy expressions are identical.

    First try to reduce ``a - b`` to 0 symbolically: ``expand``, then :func:`canonical_form`,
    then (for small expressions only) ``sympy.simplify``.  If that does not reduce to 0,
    evaluate ``a - b`` with 60 significant digits at ``n_points`` random *rational* points
    drawn from ``domains`` (symbol -> (lo, hi)).  Returns ``(equal, how)``
    where ``how`` says which method decided (``"sympy"`` or ``"numeric@k rational points"``)
    or, when unequal, where they differ.
    """
    diff = sp.sympify(a) - sp.sympify(b)
    for transform in (lambda e: e, sp.expand, canonical_form):
        try:
            if transform(diff) == 0:
                return True, "sympy"
        except Exception:  # pragma: no cover - sympy internals
            pass
    # full simplify only on small expressions: it can take minutes on large log-sum-exps
    if sp.count_ops(diff) <= SIMPLIFY_MAX_OPS and sp.simplify(diff) == 0:
        return True, "sympy"
    rng = random.Random(seed)
    free = sorted(diff.free_symbols | sp.sympify(a).free_symbols, key=str)
    missing = [s for s in free if s not in domains]
    if missing:
        return False, f"no numeric domain for symbols {missing}"
    for _ in range(n_points):
        point = {}
        for s in free:
            lo, hi = domains[s]
            # a random rational in [lo, hi] with denominator 997
            k = rng.randint(0, 997)
            point[s] = sp.Rational(lo) + (sp.Rational(hi) - sp.Rational(lo)) * sp.Rational(k, 997)
        val = sp.N(diff.xreplace(point), 60)
        scale = 1 + abs(sp.N(sp.sympify(a).xreplace(point), 60))
        if not val.is_number or abs(val) > rel_tol * scale:
            return False, f"differ by {sp.N(val, 6)} at a random rational point"
    return True, f"numeric@{n_points} rational points (60 digits; simplify inconclusive)"


def summarize_methods(methods: list[str]) -> str:
    """Summarize a list of :func:`sym_equal` ``how`` strings: how many identities sympy reduced
    to 0, how many were only confirmed numerically, and how many did NOT hold."""
    n_sym = sum(m == "sympy" for m in methods)
    n_num = sum(m.startswith("numeric@") for m in methods)
    txt = f"{n_sym}/{len(methods)} identities reduced to 0 by sympy"
    if n_num:
        txt += f", {n_num} confirmed numerically only (60 digits, random rationals)"
    if n_sym + n_num < len(methods):
        txt += f", {len(methods) - n_sym - n_num} NOT equal"
    return txt


class Comparisons:
    """Collects symbolic comparisons of one check: how each was decided, and which failed."""

    def __init__(self, domains: dict):
        self.domains = domains
        self.methods: list[str] = []
        self.failures: list[str] = []

    def __call__(self, label: str, got: sp.Expr, want: sp.Expr) -> None:
        ok, how = sym_equal(got, want, self.domains)
        self.methods.append(how)
        if not ok:
            self.failures.append(f"{label}: {how}")
