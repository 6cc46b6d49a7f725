"""Vectorized numerics of a separable function declared as a cvxpy expression.

A member of the regularized family declares R(d) and R*(y) as cvxpy expressions
(:mod:`dualboost.regularized`). Both are separable for every member the family's derived best
response serves: ``F(x) = c + sum_n phi_n(x_n)``. :func:`compile_separable` reads the expression
tree once and returns a :class:`SeparableFunction` that evaluates, for a whole vector x in a few
numpy operations per node of the tree (no cvxpy call per evaluation),

* the terms ``phi_n(x_n)`` (+inf outside the domain, cvxpy's extended-value convention for a convex
  expression), their sum F(x),
* the gradient ``phi_n'(x_n)`` and the diagonal curvature ``phi_n''(x_n)`` by forward-mode
  differentiation: each atom of the tree contributes its first and second derivative (the chain
  rule ``(f o u)'' = f''(u) u'^2 + f'(u) u''``),
* which coordinates lie in the domain (each atom's own domain, e.g. ``log``'s ``u > 0``, checked on
  its argument).

Atoms without a rule here are evaluated by cvxpy's own numeric value and gradient (``numeric``,
``_grad``) with the curvature by central differences of that gradient. An expression that is not
a sum of per-coordinate terms (an index, a matrix product, ``log_sum_exp``) raises
:class:`NotSeparable` with the node that breaks separability; so does a compiled function that
disagrees with cvxpy's own value or gradient at the self-check points (:meth:`SeparableFunction
.self_check`), so a bug in a rule can never reach a certificate silently.
"""

from __future__ import annotations

import functools
import math
import types
from collections.abc import Callable

import cvxpy as cp
import numpy as np
from scipy.special import entr as _entr_fn
from scipy.special import expit, kl_div, rel_entr

__all__ = ["NotSeparable", "SeparableFunction", "compile_separable", "cvxpy_gradient"]


@functools.cache
def _nodes() -> types.SimpleNamespace:
    """cvxpy's expression-node classes, imported on the first compile: a shipped member whose
    numpy lines are all written never compiles, and the ``dualboost`` command then never imports
    cvxpy (about 1 s; :mod:`dualboost._lazy`)."""
    from cvxpy.atoms.affine.add_expr import AddExpression
    from cvxpy.atoms.affine.binary_operators import DivExpression, MulExpression, multiply
    from cvxpy.atoms.affine.promote import Promote
    from cvxpy.atoms.affine.sum import Sum
    from cvxpy.atoms.affine.unary_operators import NegExpression
    from cvxpy.atoms.elementwise.elementwise import Elementwise
    return types.SimpleNamespace(AddExpression=AddExpression, DivExpression=DivExpression,
                                 MulExpression=MulExpression, multiply=multiply, Promote=Promote,
                                 Sum=Sum, NegExpression=NegExpression, Elementwise=Elementwise)

# a compiled node maps x to (value, first derivative, second derivative, in-domain mask); the
# derivatives are d/dx_n of the node's n-th entry (its Jacobian is diagonal); scalars broadcast,
# and an in-domain mask of None means "everywhere"
Triple = tuple
Node = Callable[[np.ndarray], Triple]


class NotSeparable(ValueError):
    """The expression is not c + sum_n phi_n(x_n) in a form this module reads (the message
    names the node), or its compiled numerics disagree with cvxpy's own."""


def _and(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _scale(t: Triple, c) -> Triple:
    v, d1, d2, ok = t
    return v * c, d1 * c, (d2 if type(d2) is float and d2 == 0.0 else d2 * c), ok


def _chain(u: Triple, rule, ok) -> Triple:
    """f(u) for ``rule(v) = (f(v), f'(v), f''(v))`` and the domain mask ``ok(v)`` (or None).
    Affine arguments (u'' = 0, the common case) skip the second-order terms."""
    v, d1, d2, okay = u
    value, g1, g2 = rule(v)
    if type(d2) is float and d2 == 0.0:
        if type(d1) is float and d1 == 1.0:
            first, second = g1, g2
        else:
            first, second = g1 * d1, g2 * (d1 * d1)
    else:
        first = g1 * d1
        second = g2 * (d1 * d1) + g1 * d2
    return value, first, second, _and(okay, None if ok is None else ok(v))


def _power_rule(p: float):
    """x^p with cvxpy's domain: x >= 0 unless p is 1 or a power of two >= 2 (then all x)."""
    whole = p >= 2 and float(p).is_integer() and (int(p) & (int(p) - 1)) == 0
    if p == 1:
        return (lambda v: (v, np.ones_like(v), np.zeros_like(v))), None
    if whole:
        k = int(p)

        def integer(v):
            low = v ** (k - 2)
            return low * v * v, k * low * v, k * (k - 1) * low
        return integer, None

    if p == -1:
        def inverse(v):
            inv = 1.0 / v
            square = inv * inv
            return inv, -square, 2.0 * square * inv
        return inverse, (lambda v: v > 0)

    def fractional(v):
        v = np.maximum(v, 0.0)
        value = np.power(v, p)
        first = p * value / v
        second = (p - 1) * first / v
        zero = v == 0  # 0/0 above: the limits 0^(p-1), 0^(p-2) instead
        if zero.any():
            first[zero] = p * 0.0 ** (p - 1) if p > 1 else np.inf
            second[zero] = p * (p - 1) * 0.0 ** (p - 2) if p > 2 else \
                (0.0 if p == 2 else np.inf * np.sign(p * (p - 1)))
        return value, first, second
    if p < 0:
        def ok(v):
            return v > 0
    else:
        def ok(v):
            return v >= 0
    return fractional, ok


def _exp(v):
    e = np.exp(v)
    return e, e, e


def _log(v):
    inverse = 1.0 / v
    return np.log(np.maximum(v, 0.0)), inverse, -inverse * inverse


def _entr(v):
    return _entr_fn(v), -np.log(np.maximum(v, 0.0)) - 1.0, -1.0 / v


def _log1p(v):
    inverse = 1.0 / (1.0 + v)
    return np.log1p(np.maximum(v, -1.0)), inverse, -inverse * inverse


def _logistic(v):
    s = expit(v)
    return np.logaddexp(0.0, v), s, s * expit(-v)


def _abs(v):
    return np.abs(v), np.sign(v), np.zeros_like(v)


def _xexp(v):
    e = np.exp(v)
    return v * e, (1.0 + v) * e, (2.0 + v) * e


#: atom class name -> (rule, domain) for the elementwise atoms of one argument
_UNARY = {
    "exp": (_exp, None),
    "log": (_log, lambda v: v > 0),
    "entr": (_entr, lambda v: v >= 0),
    "log1p": (_log1p, lambda v: v > -1),
    "logistic": (_logistic, None),
    "abs": (_abs, None),
    "xexp": (_xexp, None),
}


class _Compiler:
    def __init__(self, variable: cp.Variable, N: int):
        self.variable, self.N = variable, N

    # every compiled node returns (kind, fn): kind "elem" (entry n depends on x_n only, or a
    # constant) or "sum" (a scalar: the sum over n of the returned per-coordinate terms)
    def compile(self, expr) -> tuple[str, Node]:
        if isinstance(expr, cp.Variable):
            if expr is not self.variable:
                raise NotSeparable(f"a second variable {expr.name()}")
            return "elem", lambda x: (x, 1.0, 0.0, None)
        if expr.is_constant():
            value = np.asarray(expr.value, dtype=float)
            if value.size not in (1, self.N) or value.ndim > 1:
                raise NotSeparable(f"a constant of shape {value.shape} in {expr}")
            value = float(value) if value.size == 1 and value.ndim == 0 else value
            return "const", lambda x, v=value: (v, 0.0, 0.0, None)
        affine = self._affine(expr)
        if affine is not None:  # a x + b: two numpy operations, whatever the tree's depth
            a, b = affine
            if isinstance(a, float) and a == 1.0:
                if isinstance(b, float) and b == 0.0:
                    return "elem", lambda x: (x, 1.0, 0.0, None)
                return "elem", lambda x: (x + b, 1.0, 0.0, None)
            return "elem", lambda x: (a * x + b, a, 0.0, None)
        name = type(expr).__name__
        nodes = _nodes()
        if isinstance(expr, nodes.Promote):
            kind, fn = self.compile(expr.args[0])
            if kind == "sum":
                raise NotSeparable(f"a sum broadcast to a vector in {expr}")
            return kind, fn
        if isinstance(expr, nodes.NegExpression):
            kind, fn = self.compile(expr.args[0])
            return kind, lambda x: _scale(fn(x), -1.0)
        if isinstance(expr, nodes.AddExpression):
            return self._add(expr)
        if isinstance(expr, nodes.Sum):
            if expr.axis is not None:
                raise NotSeparable(f"a sum along an axis in {expr}")
            kind, fn = self.compile(expr.args[0])
            if kind == "sum":
                return kind, fn
            if kind == "const":
                value = fn(None)[0]
                total = float(np.sum(np.broadcast_to(value, expr.args[0].shape)))
                return "const", lambda x: (total, 0.0, 0.0, None)
            return "sum", fn
        if isinstance(expr, (nodes.MulExpression, nodes.multiply)):
            return self._product(expr, inner=not isinstance(expr, nodes.multiply))
        if isinstance(expr, nodes.DivExpression):
            kind, fn = self.compile(expr.args[0])
            if not expr.args[1].is_constant():
                raise NotSeparable(f"a division by a variable expression in {expr}")
            divisor = np.asarray(expr.args[1].value, dtype=float)
            if divisor.size != 1 and kind == "sum":
                raise NotSeparable(f"a vector divisor of a sum in {expr}")
            inverse = 1.0 / (float(divisor) if divisor.size == 1 and divisor.ndim == 0
                             else divisor.reshape(-1) if divisor.size > 1 else float(divisor))
            return kind, lambda x: _scale(fn(x), inverse)
        if name == "quad_over_lin":
            kind, fn = self._elem(expr.args[0], expr)
            if not expr.args[1].is_constant():
                raise NotSeparable(f"quad_over_lin with a variable denominator in {expr}")
            c = float(expr.args[1].value)

            def quad(x):
                v, d1, d2, ok = fn(x)
                return v * v / c, 2.0 * v * d1 / c, 2.0 * (d1 * d1 + v * d2) / c, ok
            return "sum", quad
        if name == "norm1":
            _, fn = self._elem(expr.args[0], expr)
            return "sum", lambda x: _chain(fn(x), _abs, None)
        if isinstance(expr, nodes.Elementwise):
            return "elem", self._elementwise(expr)
        raise NotSeparable(f"{name} ({expr}) is not a sum of per-coordinate terms")

    def _constant(self, expr):
        value = np.asarray(expr.value, dtype=float)
        if value.size not in (1, self.N) or value.ndim > 1:
            return None
        return float(value.reshape(-1)[0]) if value.size == 1 else value.reshape(-1)

    def _affine(self, expr):
        """(a, b) with expr = a * x + b entrywise (a, b scalars or length-N constants), or None
        when expr is not such an affine map of x (constants alone are not: None)."""
        if isinstance(expr, cp.Variable):
            return (1.0, 0.0) if expr is self.variable else None
        if expr.is_constant():
            return None
        nodes = _nodes()
        parts = []
        if isinstance(expr, nodes.Promote):
            return self._affine(expr.args[0]) if expr.args[0].size == 1 else None
        if isinstance(expr, nodes.NegExpression):
            inner = self._affine(expr.args[0])
            return None if inner is None else (-inner[0], -inner[1])
        if isinstance(expr, nodes.AddExpression):
            a, b = 0.0, 0.0
            for arg in expr.args:
                if arg.is_constant():
                    c = self._constant(arg)
                    if c is None:
                        return None
                    b = b + c
                    continue
                part = self._affine(arg)
                if part is None:
                    return None
                a, b = a + part[0], b + part[1]
            return a, b
        if isinstance(expr, (nodes.MulExpression, nodes.multiply)):
            left, right = expr.args
            if isinstance(expr, nodes.multiply) or left.size == 1 or right.size == 1:
                for const, other in ((left, right), (right, left)):
                    if const.is_constant() and not other.is_constant():
                        c = self._constant(const)
                        inner = self._affine(other)
                        if c is None or inner is None:
                            return None
                        return c * inner[0], c * inner[1]
            return None
        if isinstance(expr, nodes.DivExpression) and expr.args[1].is_constant():
            c = self._constant(expr.args[1])
            inner = self._affine(expr.args[0])
            if c is None or inner is None:
                return None
            return inner[0] / c, inner[1] / c
        del parts
        return None

    def _elem(self, arg, parent) -> tuple[str, Node]:
        kind, fn = self.compile(arg)
        if kind == "sum":
            raise NotSeparable(f"a sum inside {type(parent).__name__} ({parent})")
        return kind, fn

    def _add(self, expr) -> tuple[str, Node]:
        parts = [self.compile(arg) for arg in expr.args]
        kinds = {kind for kind, _ in parts}
        if "sum" in kinds and "elem" in kinds:
            raise NotSeparable(f"a vector added to a scalar in {expr}")
        kind = "sum" if "sum" in kinds else "elem" if "elem" in kinds else "const"
        N = self.N
        fns = [(k, fn) for k, fn in parts]

        # the constants summed once (a scalar one spread over the N terms of a sum)
        constant = 0.0
        for k, fn in fns:
            if k == "const":
                v = fn(None)[0]
                constant = constant + (v / N if kind == "sum" else v)
        varying = [fn for k, fn in fns if k != "const"]
        if kind == "const":
            return kind, lambda x: (constant, 0.0, 0.0, None)
        if len(varying) == 1:
            only = varying[0]

            def shifted(x):
                v, d1, d2, ok = only(x)
                return v + constant, d1, d2, ok
            return kind, shifted

        def add(x):
            value, first, second, ok = varying[0](x)
            for fn in varying[1:]:
                v, d1, d2, o = fn(x)
                value, first, second, ok = value + v, first + d1, second + d2, _and(ok, o)
            return value + constant, first, second, ok
        return kind, add

    def _product(self, expr, inner: bool) -> tuple[str, Node]:
        a, b = expr.args
        (ka, fa), (kb, fb) = self.compile(a), self.compile(b)
        if "sum" in (ka, kb):  # a scalar constant times a sum
            (ks, fs), (kc, fc), c = ((ka, fa), (kb, fb), b) if ka == "sum" else \
                ((kb, fb), (ka, fa), a)
            if kc != "const" or c.size != 1:
                raise NotSeparable(f"a product of a sum with a non-constant in {expr}")
            factor = float(np.asarray(fc(None)[0]).reshape(-1)[0])
            return "sum", lambda x: _scale(fs(x), factor)
        vector = a.size > 1 and b.size > 1
        if inner and (a.ndim > 1 or b.ndim > 1):
            raise NotSeparable(f"a matrix product in {expr}")
        kind = "sum" if inner and vector else ("const" if ka == kb == "const" else "elem")

        if "const" in (ka, kb) and ka != kb:  # a constant factor: three products
            c = (fa if ka == "const" else fb)(None)[0]
            other = fb if ka == "const" else fa
            return kind, lambda x: _scale(other(x), c)

        def product(x):
            va, a1, a2, oa = fa(x)
            vb, b1, b2, ob = fb(x)
            return (va * vb, a1 * vb + va * b1, a2 * vb + 2.0 * a1 * b1 + va * b2,
                    _and(oa, ob))
        return kind, product

    def _elementwise(self, expr) -> Node:
        name = type(expr).__name__
        args = [self._elem(arg, expr) for arg in expr.args]
        if name in _UNARY and len(args) == 1:
            fn, (rule, ok) = args[0][1], _UNARY[name]
            return lambda x: _chain(fn(x), rule, ok)
        if name in ("Power", "PowerApprox"):
            p = float(expr.p.value)
            fn, (rule, ok) = args[0][1], _power_rule(p)
            return lambda x: _chain(fn(x), rule, ok)
        if name in ("maximum", "minimum"):
            fns = [fn for _, fn in args]
            larger = name == "maximum"

            def extreme(x):
                best = fns[0](x)
                for fn in fns[1:]:
                    other = fn(x)
                    take = other[0] > best[0] if larger else other[0] < best[0]
                    best = tuple(np.where(take, o, b) for o, b in zip(other[:3], best[:3])) \
                        + (_and(best[3], other[3]),)
                return best
            return extreme
        if name == "huber":
            M = float(np.asarray(expr.M.value))

            def huber(v):
                inside = np.abs(v) <= M
                return (np.where(inside, v * v, 2 * M * np.abs(v) - M * M),
                        np.where(inside, 2 * v, 2 * M * np.sign(v)), np.where(inside, 2.0, 0.0))
            fn = args[0][1]
            return lambda x: _chain(fn(x), huber, None)
        if name in ("rel_entr", "kl_div") and len(args) == 2:
            (ka, fa), (kb, fb) = args
            shift = name == "kl_div"
            value = kl_div if shift else rel_entr
            if kb == "const" and ka != "const":
                b = fb(None)[0]

                def first(v):
                    return value(v, b), np.log(v / b) + (0.0 if shift else 1.0), 1.0 / v
                return lambda x: _chain(fa(x), first, lambda v: v >= 0)
            if ka == "const" and kb != "const":
                a = fa(None)[0]

                def second(v):
                    return value(a, v), -a / v + (1.0 if shift else 0.0), a / (v * v)
                return lambda x: _chain(fb(x), second, lambda v: v > 0)
        if len(args) == 1:
            return self._generic(expr, args[0][1])
        raise NotSeparable(f"{name} of several non-constant arguments ({expr})")

    def _generic(self, expr, fn) -> Node:
        """An atom without a rule here: cvxpy's numeric and gradient, curvature by central
        differences of the gradient."""
        atom = expr

        def gradient(v):
            grad = atom._grad([v])[0]
            if grad is None:
                return np.full(v.shape, np.nan)
            return np.asarray(grad.diagonal() if hasattr(grad, "diagonal") else grad,
                              dtype=float).reshape(v.shape)

        def rule(v):
            v = np.asarray(v, dtype=float)
            step = 1e-6 * (1.0 + np.abs(v))
            value = np.asarray(atom.numeric([v]), dtype=float)
            return (value, gradient(v),
                    (gradient(v + step) - gradient(v - step)) / (2.0 * step))
        return lambda x: _chain(fn(x), rule, None)


class SeparableFunction:
    """F(x) = c + sum_n phi_n(x_n) on x of length N, compiled from a cvxpy expression."""

    def __init__(self, node: Node, kind: str, N: int, expression: Callable, label: str):
        self._node, self.N, self.label = node, N, label
        self._expression = expression
        self._is_sum = kind == "sum"

    def evaluate(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(terms phi_n(x_n), phi_n'(x_n), phi_n''(x_n)); +inf terms and nan derivatives
        outside the domain."""
        x = np.asarray(x, dtype=float)
        N = self.N
        with np.errstate(all="ignore"):
            v, d1, d2, ok = self._node(x)
            v, d1, d2 = (np.array(np.broadcast_to(a, (N,)), dtype=float)
                         if np.ndim(a) == 0 or np.shape(a) != (N,) else a for a in (v, d1, d2))
            outside = ~np.isfinite(x) if ok is None else ~(ok & np.isfinite(x))
            if outside.any():
                v, d1, d2 = v.copy(), d1.copy(), d2.copy()
                v[outside], d1[outside], d2[outside] = np.inf, np.nan, np.nan
        return v, d1, d2

    def value(self, x: np.ndarray) -> float:
        terms = self.evaluate(x)[0]
        if not self._is_sum:  # a scalar expression of a length-1 vector
            return float(terms[0]) if terms.size == 1 else math.nan
        return float(terms.sum()) if np.all(terms < np.inf) else math.inf

    def gradient(self, x: np.ndarray) -> np.ndarray:
        return self.evaluate(x)[1]

    def curvature(self, x: np.ndarray) -> np.ndarray:
        return self.evaluate(x)[2]

    def self_check(self, points: list[np.ndarray], tol: float = 1e-7) -> None:
        """Compare value and gradient with cvxpy's own numeric value and gradient of the
        declared expression at ``points`` (those inside the domain); raise NotSeparable on a
        disagreement, naming the point."""
        for x in points:
            x = np.asarray(x, dtype=float)
            terms, grad, _ = self.evaluate(x)
            if not np.all(np.isfinite(terms)):
                continue
            ours = float(terms.sum())
            theirs = self._expression(cp.Constant(x)).value
            if theirs is None or not abs(ours - float(theirs)) <= tol * (1 + abs(ours)):
                raise NotSeparable(f"{self.label}: compiled value {ours!r} differs from cvxpy's "
                                   f"{theirs!r} at x = {_show(x)}")
            reference = cvxpy_gradient(self._expression, x)
            if reference is None:
                continue
            if reference.shape == grad.shape and np.all(np.isfinite(reference)) and \
                    np.all(np.isfinite(grad)):
                scale = 1.0 + np.abs(reference).max()
                if np.abs(grad - reference).max() > tol * scale:
                    raise NotSeparable(f"{self.label}: compiled gradient differs from cvxpy's at "
                                       f"x = {_show(x)}")


def cvxpy_gradient(expression: Callable[[cp.Expression], cp.Expression], x: np.ndarray,
                   nonneg: bool = False) -> np.ndarray | None:
    """cvxpy's own numeric gradient of ``expression`` at x as a flat vector, or None where cvxpy
    has none (a kink of a clipped power, the edge of a domain)."""
    variable = cp.Variable(np.size(x), nonneg=nonneg)
    variable.value = np.asarray(x, dtype=float)
    try:
        grad = expression(variable).grad.get(variable)
    except (TypeError, ValueError, ArithmeticError):
        return None
    if grad is None:
        return None
    return np.asarray(grad.toarray() if hasattr(grad, "toarray") else grad,
                      dtype=float).reshape(-1)


def _show(x: np.ndarray) -> str:
    return np.array2string(np.asarray(x)[:4], precision=4) + (" ..." if x.size > 4 else "")


def compile_separable(expression: Callable[[cp.Expression], cp.Expression], N: int,
                      label: str) -> SeparableFunction:
    """Compile ``expression(x)`` (a function building the cvxpy expression on a length-N
    vector) into vectorized numerics; raise :class:`NotSeparable` where it cannot."""
    variable = cp.Variable(N)
    expr = expression(variable)
    if not isinstance(expr, cp.Expression) or expr.size != 1:
        raise NotSeparable(f"{label} is not a scalar cvxpy expression")
    kind, node = _Compiler(variable, N).compile(expr)
    if kind == "elem" and N > 1:
        raise NotSeparable(f"{label} is a vector, not a scalar")
    if kind == "const":
        value = float(node(None)[0])
        return SeparableFunction(lambda x: (value / N, 0.0, 0.0, None), "sum", N, expression,
                                 label)
    if kind == "elem":  # N = 1: a scalar function of a scalar
        kind = "sum"
    return SeparableFunction(node, kind, N, expression, label)


def domain_upper(function: SeparableFunction, start: np.ndarray) -> np.ndarray:
    """Per coordinate, the largest x_n (to about 1e-15 relative) at which ``function``'s term
    is finite, going up from ``start`` (inside the domain): +inf where it stays finite up to
    1e300. For a conjugate R* of an R on d >= 0 the domain is an interval unbounded below, so
    this is its only bound (docs/theory.md, "The domain of R*")."""
    def inside(x):
        return np.isfinite(function.evaluate(x)[0])

    lo = np.asarray(start, dtype=float).copy()
    if not inside(lo).all():
        raise ValueError(f"{function.label}: the start point is outside the domain")
    step = np.ones_like(lo)
    hi = np.full_like(lo, np.inf)
    open_ = np.ones(lo.shape, dtype=bool)  # no point outside found yet
    for _ in range(1100):  # growing steps up to 1e300
        probe = np.where(open_, lo + step, lo)
        ok = inside(probe)
        moved = open_ & ok
        lo[moved] = probe[moved]
        stopped = open_ & ~ok
        hi[stopped] = probe[stopped]
        open_ &= ok
        # doubling near the start, where a bound usually lies; then by 1024 per probe (a domain
        # unbounded above, the binary entropy's, is settled in ~110 probes, not ~1000; the
        # bisection below still narrows a bracket to 1e-15 relative within its 200 halvings)
        step *= 2.0 if step.max() < 1024.0 else 1024.0
        if not open_.any() or step.max() > 1e300:
            break
    bounded = np.isfinite(hi)
    for _ in range(200):  # bisection on the bounded coordinates
        if not bounded.any():
            break
        mid = np.where(bounded, 0.5 * (lo + hi), lo)
        ok = inside(mid)
        lo = np.where(bounded & ok, mid, lo)
        hi = np.where(bounded & ~ok, mid, hi)
        if np.all(~bounded | (hi - lo <= 1e-15 * (1.0 + np.abs(lo)))):
            break
    return np.where(bounded, lo, np.inf)
