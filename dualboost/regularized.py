"""The regularized-LPBoost family: one regularizer R(d), everything else derived.

Primal (d-domain), thesis (3.6) with the relative entropy replaced by a convex R::

    P^t(d) = max_q u^q.d + (1/eta) R(d)
    min_{d, gamma} gamma + (1/eta) R(d)
    s.t. U^T d <= gamma 1 (w),  d <= 1/nu (psi; omitted at nu = 1 or when R's domain caps d),
         sum(d) = 1 (beta),  d >= 0

Dual (w-domain), by the Lagrangian (3.12) with R* the convex conjugate of R on its domain
(``R*(y) = sup_d y.d - R(d)``)::

    Theta(w, psi, beta) = -(1/eta) R*(-eta (U w + psi + beta 1)) - beta - sum(psi)/nu
    max over w >= 0, sum(w) = 1, psi >= 0, beta free

(for the relative entropy R*(y) = sum d0 exp(y - 1): thesis (3.14)). The primal point of a dual
point is ``d = grad R*(-eta s)`` with ``s = U w + psi + beta`` (thesis (3.13)); the optimal beta
makes it sum to 1 (thesis (3.16) in closed form for the relative entropy; a monotone 1-D root in
general); the theory's eta and iteration bound follow from the declared modulus sigma and range
bound B (docs/theory.md, T1-T4; :mod:`dualboost.theory`).

A regularizer file subclasses :class:`RegularizedLPBoost` and writes four things: ``regularizer``
(cvxpy R(d)), ``conjugate`` (cvxpy R*(y)), ``modulus`` and ``range_bound``. Numpy versions
(``regularizer_value``, ``conjugate_value``, ``conjugate_gradient``, ``optimal_beta``,
``best_response``) are optional fast paths: list them in ``fast_paths`` and the verifier compares
each with the version derived from the cvxpy expressions.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from dataclasses import replace
from typing import Any, ClassVar

import cvxpy as cp
import numpy as np

from .errors import DualBoostInputError
from .formulation import (
    Capabilities,
    Certificate,
    Formulation,
    Model,
    Multipliers,
    cap_multipliers,
    soft_margin_blocks,
)
from .kkt import KKTSystem, soft_margin_system
from .params import D0, EPS, ETA, NU, SAMPLE_WEIGHT_POSITIVE, Param
from .projection import euclidean_capped_projection
from .separable import NotSeparable, compile_separable, cvxpy_gradient, domain_upper
from .theory import Theory, default_eta

__all__ = ["DerivedNumerics", "FormulationMathError", "RegularizedLPBoost"]


def _eta_default(cls):
    def default(N: int, values: dict) -> float:
        probe = cls.__new__(cls)
        probe.N, probe.values = N, dict(values)
        for key, value in values.items():
            setattr(probe, key, value)
        return default_eta(values["eps"], probe.range_bound(), probe.modulus())
    return default


def _bracket_decreasing(excess, lo: float, hi: float, steps: int = 200) -> tuple[float, float]:
    """Widen [lo, hi] (doubling) until a decreasing ``excess`` is > 0 at lo and < 0 at hi, or
    ``steps`` doublings have passed (the caller checks the signs where that can happen)."""
    for _ in range(steps):
        if excess(lo) > 0:
            break
        lo -= (hi - lo)
    for _ in range(steps):
        if excess(hi) < 0:
            break
        hi += (hi - lo)
    return lo, hi


#: the numpy lines a member may write by hand (each has a derived default)
_NUMPY_LINES = ("regularizer_value", "regularizer_gradient", "conjugate_value",
                "conjugate_gradient")


class FormulationMathError(DualBoostInputError):
    """A member's declarations contradict each other (R* is not the conjugate of R, a declared
    domain contradicts R): the message names the declaration and the point."""


class DerivedNumerics:
    """Vectorized R, R*, their gradients and curvatures, compiled once from a member's cvxpy
    declarations (:mod:`dualboost.separable`), and the per-coordinate points the beta search
    brackets with (docs/theory.md, "The domain of R* and the optimal beta"):

    * ``y0 = grad R(d0)``: grad R*(y0) = d0 (Fenchel-Young), so at any beta with
      ``-eta (s_n + beta) >= y0_n`` for all n the mass is >= sum d0 = 1, and <= 1 when all are
      <= y0_n;
    * ``ycap = grad R(cap)`` (with a cap block): a coordinate with ``y_n >= ycap_n`` sits at its
      cap whatever R* does beyond, so the capped map never evaluates R* outside its domain;
    * ``upper``: per coordinate the largest y where R*'s term is finite (declared by
      ``conjugate_domain`` or found by bisection): grad R* grows without bound towards it (R
      strictly convex makes R* essentially smooth), so the mass exceeds 1 just below it.
    """

    def __init__(self, f: RegularizedLPBoost):
        N, name = f.N, f.name
        self.R = compile_separable(f.regularizer, N, f"{name}: regularizer(d)")
        self.conj = compile_separable(f.conjugate, N, f"{name}: conjugate(y)")
        d0 = np.asarray(f.d0, dtype=float)
        cap = np.broadcast_to(np.asarray(f.cap, dtype=float), (N,))
        self.R.self_check([d0, 0.5 * d0 + 0.5 * np.minimum(cap, 1.0 / N)])
        self.y0 = self.R.gradient(d0)
        if not np.all(np.isfinite(self.y0)):
            raise NotSeparable(f"{name}: regularizer(d) has no finite gradient at d0 (d0 must "
                               "lie inside dom R)")
        self.conj.self_check([self.y0, self.y0 - 1.0])
        back = self.conj.gradient(self.y0)
        #: None, or where grad R*(grad R(d0)) = d0 fails (R* is not R's conjugate)
        self.mismatch = None
        if not np.allclose(back, d0, rtol=1e-6, atol=1e-9 / N):
            n = int(np.nanargmax(np.abs(back - d0)))
            self.mismatch = (f"formulation {name!r}: conjugate(y) is not the conjugate of "
                             f"regularizer(d): at y = grad R(d0), coordinate {n} (y_n = "
                             f"{self.y0[n]:.6g}), grad R*(y)_n = {back[n]:.6g} but d0_n = "
                             f"{d0[n]:.6g} (Fenchel-Young: grad R*(grad R(d)) = d; "
                             "docs/theory.md, \"What a member declares\")")
        declared = getattr(f, "conjugate_domain", None)
        found = domain_upper(self.conj, self.y0)
        if callable(declared):
            upper = np.broadcast_to(np.asarray(declared(), dtype=float), (N,)).copy()
            inside = np.minimum(upper - 1e-12 * (1 + np.abs(upper)), found)
            # declared finite where R* is +inf, or a bound below grad R(d0), which R* must
            # contain (grad R*(grad R(d0)) = d0)
            beyond = upper > found + 1e-9 * (1 + np.abs(found))
            if np.any(upper <= self.y0) or np.any(beyond):
                n = int(np.argmax(beyond | (upper <= self.y0)))
                raise FormulationMathError(
                    f"formulation {name!r}: conjugate_domain() = {upper[n]:.6g} at coordinate "
                    f"{n}, but conjugate(y) is infinite beyond {found[n]:.6g} there, and "
                    f"grad R(d0)_n = {self.y0[n]:.6g} must lie inside: the declared domain "
                    "contradicts R* or R (docs/theory.md, \"The domain of R* and the optimal "
                    "beta\")")
            found = inside
        self.upper = found
        self.cap = cap
        #: the member itself when it writes numpy conjugate_value, conjugate_gradient and
        #: inverse_curvature that agree with the compiled ones (then the beta search and the best
        #: response use them: the optional speed-up); None otherwise
        self.numpy = None
        self.numpy_rejected = None
        lines = ("conjugate_value", "conjugate_gradient", "inverse_curvature")
        if all(getattr(type(f), k) is not getattr(RegularizedLPBoost, k) for k in lines):
            self.numpy_rejected = self._disagreement(f)
            self.numpy = None if self.numpy_rejected else f
        self.ycap = self.R.gradient(cap) if f.has_caps else None
        if self.ycap is not None and not np.all(np.isfinite(self.ycap)):
            raise NotSeparable(f"{name}: regularizer(d) has no finite gradient at the cap "
                               "1/nu")

    def _disagreement(self, f) -> str | None:
        """Where the member's numpy R*, grad R* or 1/R'' differs from the compiled ones (at
        grad R(d0) and half a unit below it), or its numpy R when written (at d0 and halfway
        to the cap), or None."""
        if type(f).regularizer_value is not RegularizedLPBoost.regularizer_value:
            d0 = np.asarray(f.d0, dtype=float)
            for d in (d0, 0.5 * d0 + 0.5 * np.minimum(self.cap, 1.0 / f.N)):
                with np.errstate(all="ignore"):
                    given = float(f.regularizer_value(d))
                # R(d0) = 0: both sides are round-off there, about 1e-16 N (1e-12 at N = 3e4)
                if not np.isclose(given, self.R.value(d), rtol=1e-6, atol=1e-9):
                    return ("the hand-written regularizer_value disagrees with the one derived "
                            "from the cvxpy declarations: the derived numerics run instead "
                            "(about 1-2x the time); `python -m dualboost.verify` row F1 shows "
                            "where")
        for y in (self.y0, self.y0 - 0.5):
            with np.errstate(all="ignore"):
                terms, g, h = self.conj.evaluate(y)
                given_g = np.asarray(f.conjugate_gradient(y), dtype=float)
                given_h = np.asarray(f.inverse_curvature(g), dtype=float)
                given_v = float(f.conjugate_value(y))
            for what, ours, theirs in (("conjugate_value", given_v, float(terms.sum())),
                                       ("conjugate_gradient", given_g, g),
                                       ("inverse_curvature", given_h[g > 0], h[g > 0])):
                if not np.allclose(ours, theirs, rtol=1e-6, atol=1e-12):
                    return (f"the hand-written {what} disagrees with the one derived from the "
                            "cvxpy declarations: the derived numerics run instead (about 1-2x "
                            "the time); `python -m dualboost.verify` row F1 shows where")
        return None

    def gradient_and_curvature(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(grad R*(y), R*''(y)): the member's numpy lines when accepted, else compiled."""
        if self.numpy is not None:
            g = np.asarray(self.numpy.conjugate_gradient(y), dtype=float)
            h = np.asarray(self.numpy.inverse_curvature(g), dtype=float)
            # the mask only where some d_n = 0 (not NaN-safe otherwise: min of a NaN is NaN)
            return g, (h if g.min(initial=np.inf) > 0 else np.where(g > 0, h, 0.0))
        _, g, h = self.conj.evaluate(y)
        return g, h

    def mass(self, s: np.ndarray, eta: float, beta: float, capped: bool) -> tuple:
        """(mass of d(beta), its derivative in beta, y, the evaluation at the clipped y)."""
        y = -eta * (s + beta)
        if capped:
            at_cap = y >= self.ycap
            g, h = self.gradient_and_curvature(np.minimum(y, self.ycap))
            d = np.where(at_cap, self.cap, np.minimum(g, self.cap))
            # the sum of h off the cap, as a dot product with the mask (sum(where=) costs 4x;
            # it stays for an h that is not finite at the cap, where 0 * inf would be NaN)
            slope = float(np.dot(h, ~at_cap))
            if not math.isfinite(slope):
                slope = float(h.sum(where=~at_cap))
            slope *= -eta
        else:
            # beta >= max(-s - upper/eta) puts y <= upper; min() removes the round-off of
            # -eta (s + beta) at the bracket's end
            g, h = self.gradient_and_curvature(np.minimum(y, self.upper))
            d = g
            slope = -eta * float(h.sum())
        return float(d.sum()), slope, y, d

    def _piece(self, s, eta, lo, hi, hint, log_mass) -> tuple[float, float]:
        """Two consecutive breakpoints around the root. Coordinate n sits at its cap exactly
        when beta <= b_n = -s_n - ycap_n / eta, so between consecutive b's the mass is a smooth
        function (where Newton converges fast) and across them it has kinks (where it does
        not). Galloping search from the hint's position, then bisection over the indices: about
        2 log2(distance) evaluations, a few when the hint (the previous call's beta) is near."""
        points = -s - self.ycap / eta
        points = np.sort(points[(points > lo) & (points < hi)])
        if points.size == 0:
            return lo, hi
        k = points.size
        start = int(np.searchsorted(points, hint)) if hint is not None else k // 2
        start = min(max(start, 0), k - 1)
        # invariant: f >= 0 at index a (or at lo when a = -1), f <= 0 at index b (hi at b = k)
        positive = log_mass(float(points[start]))[0] >= 0
        a, b = (start, k) if positive else (-1, start)
        step = 1
        while True:  # gallop towards the sign change
            probe = a + step if positive else b - step
            if probe >= k or probe < 0:
                break
            if (log_mass(float(points[probe]))[0] >= 0) == positive:
                if positive:
                    a = probe
                else:
                    b = probe
                step *= 2
            else:
                if positive:
                    b = probe
                else:
                    a = probe
                break
        while b - a > 1:
            middle = (a + b) // 2
            if log_mass(float(points[middle]))[0] >= 0:
                a = middle
            else:
                b = middle
        return (float(points[a]) if a >= 0 else lo), (float(points[b]) if b < k else hi)

    def beta(self, s: np.ndarray, eta: float, capped: bool, hint: float | None,
             label: str) -> float:
        """The beta with mass(beta) = 1: a safeguarded Newton iteration on ln(mass) inside the
        bracket of the class docstring (mass decreasing in beta)."""
        lo = float(np.min(-s - self.y0 / eta))
        hi = float(np.max(-s - self.y0 / eta))
        if not capped:
            edge = float(np.max(-s - self.upper / eta))  # y_n <= upper_n for every n
            lo = max(lo, edge)

        memo: dict[float, tuple[float, float]] = {}

        def log_mass(beta):
            if beta in memo:
                return memo[beta]
            mass, slope, _, _ = self.mass(s, eta, beta, capped)
            if not mass > 0:
                out = -math.inf, math.nan
            elif not math.isfinite(mass):
                out = math.inf, math.nan
            else:
                out = math.log(mass), slope / mass
            memo[beta] = out
            return out

        if hint is not None and lo < hint < hi:
            # warm start: Newton from the previous beta (the master's consecutive calls differ
            # little, so this usually ends in a few evaluations)
            local = self._local_newton(s, eta, hint, lo, hi, log_mass)
            if local is not None:
                return local
            # mass(lo) >= 1 >= mass(hi) holds for a consistent pair (class docstring), so the
            # ends are evaluated only if the answer does not check out
            beta = self._solve(s, eta, capped, hint, lo, hi, log_mass)
            if abs(log_mass(beta)[0]) <= 1e-9:
                return beta
        f_lo, _ = log_mass(lo)
        f_hi, _ = log_mass(hi)
        width = max(hi - lo, 1.0 / eta)
        for _ in range(60):  # a member whose R* and R disagree: widen before giving up
            if f_lo >= 0:
                break
            lo -= width
            if not capped:
                lo = max(lo, float(np.max(-s - self.upper / eta)))
            width *= 2
            f_lo, _ = log_mass(lo)
            if not capped and lo <= float(np.max(-s - self.upper / eta)):
                break
        width = max(hi - lo, 1.0 / eta)
        for _ in range(60):
            if f_hi <= 0:
                break
            hi += width
            width *= 2
            f_hi, _ = log_mass(hi)
        if not f_lo >= 0 >= f_hi:
            raise FormulationMathError(
                f"{label}: no beta makes d = grad R*(-eta (s + beta)) sum to 1 (sum d is "
                f"{math.exp(min(f_lo, 700)):.6g} at beta = {lo:.6g} and "
                f"{math.exp(min(f_hi, 700)):.6g} at beta = {hi:.6g}); conjugate(y) is not "
                "the conjugate of regularizer(d), or its gradient does not grow without bound "
                "at the edge of its domain (docs/theory.md, \"The domain of R* and the optimal "
                "beta\")")
        if f_lo == 0:
            return lo
        if f_hi == 0:
            return hi
        return self._solve(s, eta, capped, hint, lo, hi, log_mass)

    def _local_newton(self, s, eta, hint, lo, hi, log_mass) -> float | None:
        """Newton steps from ``hint`` (at most twelve, inside [lo, hi]); the converged beta, or
        None (the caller then searches the pieces)."""
        # semismooth Newton (the slope of the current piece), kept inside the bracket of
        # the points evaluated so far; kinks rarely stop it when the root moved little
        left, right = lo, hi
        beta, previous = hint, math.inf
        for _ in range(12):
            value, slope = log_mass(beta)
            if value == 0:
                return beta
            if not (math.isfinite(value) and slope < 0):
                return None
            if value > 0:
                left = beta
            else:
                right = beta
            step = value / slope
            if abs(step) <= 1e-15 * (1.0 + abs(beta)):
                return beta
            if abs(value) <= 1e-10 and abs(value) <= 1e-3 * abs(previous) and \
                    left < beta - step < right:
                # quadratic convergence under way (the last step shrank |ln mass| a
                # thousandfold): this step leaves about |value|^2, round-off, so the point
                # after it needs no evaluation of its own
                return beta - step
            previous = value
            beta = beta - step
            if not left < beta < right:
                return None
        return None

    def _solve(self, s, eta, capped, hint, lo, hi, log_mass) -> float:
        """The root in [lo, hi] (mass(lo) >= 1 >= mass(hi)): the smooth piece, then Newton."""
        if capped:  # narrow to the piece between two breakpoints, where the mass is smooth
            lo, hi = self._piece(s, eta, lo, hi, hint, log_mass)
        beta = hint if hint is not None and lo < hint < hi else 0.5 * (lo + hi)
        for _ in range(200):
            value, slope = log_mass(beta)
            if value == 0:
                return beta
            if value > 0:
                lo = beta
            else:
                hi = beta
            step = value / slope if math.isfinite(value) and slope < 0 else math.nan
            tiny = 1e-15 * (1.0 + abs(beta))
            if abs(step) <= tiny or hi - lo <= tiny:  # converged (round-off level)
                return beta
            new = beta - step if math.isfinite(step) else math.nan
            if not lo < new < hi:
                new = 0.5 * (lo + hi)
            beta = new
        return beta


#: classes whose cones are being derived (the probe instance must not derive again)
_DERIVING: set[type] = set()
_DERIVED_CONES: dict[tuple, tuple[str, ...]] = {}
#: the probe's size: the cones of R and R* do not depend on N
_PROBE_N = 4


def declared_cones(cls: type) -> tuple[str, ...] | None:
    """The cones ``cls`` declares for its own R and R*, or None when it declares none.

    A ``cones`` attribute counts only when the class that sets it is at least as derived as the
    classes that define ``regularizer`` and ``conjugate``: a member that writes its own R
    inherits no declaration made for another R (the family's base declares none)."""
    owner = {name: next((k for k in cls.__mro__ if name in k.__dict__), None)
             for name in ("cones", "regularizer", "conjugate")}
    declaring = owner["cones"]
    if declaring is None or declaring.__dict__["cones"] is None:
        return None
    if any(k is not None and not issubclass(declaring, k)
           for k in (owner["regularizer"], owner["conjugate"])):
        return None
    return tuple(declaring.__dict__["cones"])


def derived_cones(f: RegularizedLPBoost) -> tuple[str, ...] | None:
    """The cones the member's primal and dual models need, read off cvxpy's canonical form
    (:func:`dualboost.solvers.needed_cones`) on a probe instance of ``_PROBE_N`` examples with
    the same scalar parameters (cached per class and parameters); None when the probe cannot be
    built (then the models of ``f`` itself are read, on one zero column)."""
    from .solvers import needed_cones

    cls = type(f)
    scalars = {k: v for k, v in f.values.items()
               if k not in ("nu", "d0", "sample_weight") and np.ndim(v) == 0
               and isinstance(v, (int, float, np.number, str, bool))}
    key = (cls, tuple(sorted((k, str(v)) for k, v in scalars.items())))
    if key in _DERIVED_CONES:
        return _DERIVED_CONES[key]
    _DERIVING.add(cls)
    try:
        try:
            probe = cls(_PROBE_N, **scalars, nu=min(2.0, float(getattr(f, "nu", 2.0))))
        except Exception:  # noqa: BLE001 - a parameter the probe cannot take: read f itself
            probe = f
        U = np.zeros((probe.N, 1))
        needed = set()
        for model in (probe.primal(U), probe.dual(U)):
            needed |= needed_cones(model.problem)
    except Exception:  # noqa: BLE001 - the models do not build: the verifier's P1 says why
        return None
    finally:
        _DERIVING.discard(cls)
    cones = ("lp",) + tuple(sorted(needed - {"lp"}))
    _DERIVED_CONES[key] = cones
    return cones


class RegularizedLPBoost(Formulation):
    """Base class of the family; see the module docstring."""

    #: True when R's own domain is 0 <= d <= 1/nu (binary relative entropy): no psi block
    caps_in_domain: ClassVar[bool] = False
    #: cones of R and R* (e.g. ("exp",) for entropies, ("soc",) for squares): optional. Left
    #: out, they are read off the models by cvxpy's canonicalization (:func:`derived_cones`);
    #: a declaration overrides that only where it is at least as derived as R and R* (a class
    #: that writes its own R inherits no cones declared for another R)
    cones: ClassVar[tuple[str, ...] | None] = None
    #: regularizer-specific parameters (e.g. Tsallis's q)
    extra_params: ClassVar[tuple[Param, ...]] = ()
    #: names of the numpy fast paths this class writes by hand
    fast_paths: ClassVar[tuple[str, ...]] = ()
    #: declares ``sample_weight`` (caps s_n N/(nu sum s), default prior d0 = s/sum s): only for a
    #: regularizer whose repeated-row problem is R with that prior (the relative entropy;
    #: docs/theory.md, "Sample weights")
    supports_sample_weight: ClassVar[bool] = False
    default_algorithm = "erlpboost"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        eta = Param(ETA.name, ETA.doc, low=0, low_open=True, default=_eta_default(cls),
                    default_text=ETA.default_text)
        weights = (SAMPLE_WEIGHT_POSITIVE,) if cls.supports_sample_weight else ()
        cls.params = (NU, EPS) + weights + (D0,) + tuple(cls.extra_params) + (eta,)
        declared = declared_cones(cls)
        cls.capabilities = Capabilities(strictly_convex=True,
                                        cones=("lp",) + (declared if declared is not None
                                                         else ("exp",)),
                                        closed_forms=tuple(cls.fast_paths),
                                        primal_form="regularized")

    def __init__(self, N: int, **params: Any):
        super().__init__(N, **params)
        if declared_cones(type(self)) is None and type(self) not in _DERIVING:
            derived = derived_cones(self)
            if derived is not None:
                self.capabilities = replace(type(self).capabilities, cones=derived)

    # -- what a regularizer file writes ------------------------------------------------------
    @abstractmethod
    def regularizer(self, d: cp.Expression) -> cp.Expression:
        """R(d) as a cvxpy expression (convex; R(d0) = 0 <= R on the capped simplex)."""

    @abstractmethod
    def conjugate(self, y: cp.Expression) -> cp.Expression:
        """R*(y) = sup over R's domain of y.d - R(d), as a cvxpy expression (convex in y)."""

    @abstractmethod
    def modulus(self) -> float:
        """sigma: R is sigma-strongly convex w.r.t. ||.||_1 on the capped simplex."""

    @abstractmethod
    def range_bound(self) -> float:
        """B: R(d) <= B on the capped simplex {d >= 0, sum d = 1, d <= 1/nu}."""

    # -- the derived numerics (compiled once from the two cvxpy expressions) -----------------
    def derived_numerics(self) -> DerivedNumerics | None:
        """R, R*, their gradients and curvatures as vectorized numpy, compiled from
        ``regularizer`` and ``conjugate`` (:class:`DerivedNumerics`); None when they are not
        separable in a form :mod:`dualboost.separable` reads (``numerics_reason`` says why),
        and then every derived quantity comes from cvxpy per call (the reference numerics)."""
        cached = self.__dict__.get("_derived_numerics", False)
        if cached is False:
            try:
                cached = DerivedNumerics(self)
                self.numerics_reason = None
            except NotSeparable as exc:
                cached, self.numerics_reason = None, str(exc)
            self.__dict__["_derived_numerics"] = cached
        return cached

    # -- numpy values, derived from the cvxpy expressions unless a fast path overrides ------
    def regularizer_value(self, d: np.ndarray) -> float:
        numerics = self.derived_numerics()
        if numerics is not None:
            return numerics.R.value(np.asarray(d, dtype=float))
        return self.regularizer_value_reference(d)

    def regularizer_value_reference(self, d: np.ndarray) -> float:
        """R(d) by cvxpy's own evaluation of the declared expression."""
        value = self.regularizer(cp.Constant(np.asarray(d, dtype=float))).value
        return math.inf if value is None else float(value)

    def conjugate_value(self, y: np.ndarray) -> float:
        numerics = self.derived_numerics()
        if numerics is not None:
            return numerics.conj.value(np.asarray(y, dtype=float))
        return self.conjugate_value_reference(y)

    def conjugate_value_reference(self, y: np.ndarray) -> float:
        """R*(y) by cvxpy's own evaluation of the declared expression (which does not know
        the domain of every atom: ``inv_pos`` of a negative number is negative, not +inf)."""
        value = self.conjugate(cp.Constant(np.asarray(y, dtype=float))).value
        return math.inf if value is None else float(value)

    def conjugate_gradient(self, y: np.ndarray) -> np.ndarray:
        """grad R*(y): the d that attains the sup (thesis (3.13) for the relative entropy);
        +inf on coordinates where y lies beyond R*'s domain (the sup is unbounded there).

        From the compiled conjugate (:meth:`derived_numerics`); otherwise cvxpy's gradient of
        the declared conjugate, and where cvxpy has none the maximizer itself, solved for:
        argmax_d y.d - R(d) over R's domain is grad R*(y) (Danskin; unique as R is strictly
        convex)."""
        numerics = self.derived_numerics()
        if numerics is not None:
            terms, grad, _ = numerics.conj.evaluate(np.asarray(y, dtype=float))
            return np.where(np.isfinite(terms), grad, np.inf)
        return self.conjugate_gradient_reference(y)

    def conjugate_gradient_reference(self, y: np.ndarray) -> np.ndarray:
        """grad R*(y) from cvxpy's gradient of the declared conjugate (see above)."""
        y = np.asarray(y, dtype=float)
        grad = cvxpy_gradient(self.conjugate, y)
        if grad is not None and grad.shape == (self.N,) and np.all(np.isfinite(grad)):
            return grad
        return self._conjugate_maximizer(y)

    def _conjugate_maximizer(self, y: np.ndarray) -> np.ndarray:
        from .solvers import solve

        d = cp.Variable(self.N, nonneg=True)
        problem = cp.Problem(cp.Maximize(y @ d - self.regularizer(d)))
        solve(problem, self.kind)
        return np.clip(np.asarray(d.value, dtype=float), 0.0, None)

    def regularizer_gradient(self, d: np.ndarray) -> np.ndarray:
        """grad R(d), from the compiled R (or cvxpy's gradient of the declared R); a fast path
        may override it."""
        numerics = self.derived_numerics()
        if numerics is not None:
            return numerics.R.gradient(np.asarray(d, dtype=float))
        return self.regularizer_gradient_reference(d)

    def regularizer_gradient_reference(self, d: np.ndarray) -> np.ndarray:
        """grad R(d) from cvxpy's gradient of the declared expression."""
        grad = cvxpy_gradient(self.regularizer, d, nonneg=True)
        if grad is None:
            raise FormulationMathError(f"{self.name}: cvxpy has no gradient of regularizer(d) "
                                       "at the given d (a kink or the edge of its domain)")
        return grad

    def inverse_curvature(self, d: np.ndarray) -> np.ndarray:
        """h_n = 1 / R_n''(d_n) = (R*_n)''(grad R(d)_n): how fast d_n moves with its slack
        margin (d = grad R*(-eta s)), the diagonal the projected-Newton master's Hessian needs
        (:mod:`dualboost.masters.newton`). Derived from the compiled R; a member may declare it
        in closed form (the relative entropy: h = d). Entries outside dom R are not finite."""
        d = np.asarray(d, dtype=float)
        numerics = self.derived_numerics()
        with np.errstate(divide="ignore", invalid="ignore"):
            if numerics is not None:
                return 1.0 / numerics.R.curvature(d)
            # central differences of grad R, one-sided where d + step leaves dom R
            step = 1e-6 * np.abs(d)
            middle = self.regularizer_gradient(d)
            upper = self.regularizer_gradient(d + step)
            lower = self.regularizer_gradient(d - step)
            beyond = ~np.isfinite(upper)
            upper[beyond], step_up = middle[beyond], np.where(beyond, 0.0, step)
            return (step_up + step) / (upper - lower)

    def kkt_system(self, U: np.ndarray, d: np.ndarray) -> KKTSystem:
        """The active-set system of the primal (3.6) at d, assembled in numpy: stationarity
        ``grad R(d)/eta + U w + psi + beta 1 - mu = 0`` and ``1 - sum(w) = 0`` (thesis §3.2.4).
        Check K3 compares it with the system from the cvxpy model's gradients."""
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        gradient = self.regularizer_gradient(np.maximum(d, 1e-300)) / self.eta
        return soft_margin_system(U, d, gradient, self.nu, self.has_caps,
                                  row_weights=self.kkt_row_weights(d),
                                  absent={} if self.has_caps else {"psi": np.zeros(self.N)},
                                  cap=self.cap_vector, edges=self._remembered_edges(U, d))

    # -- structure ---------------------------------------------------------------------------
    def theory(self) -> Theory:
        return Theory(modulus=float(self.modulus()), range_bound=float(self.range_bound()))

    @property
    def has_caps(self) -> bool:
        """Whether the primal has the cap block d <= 1/nu (and the dual its psi)."""
        return (self.nu > 1 or self.sample_weight is not None) and not self.caps_in_domain

    def primal(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints = soft_margin_blocks(U, d, gamma, self.nu, self.has_caps, cap=self.cap_vector)
        problem = cp.Problem(cp.Minimize(gamma + self.regularizer(d) / self.eta),
                             list(constraints.values()))
        absent = {} if self.has_caps else {"psi": np.zeros(self.N)}
        return Model(problem, {"d": d, "gamma": gamma}, constraints, absent)

    def dual(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        beta = cp.Variable(name="beta")
        psi_block, psi, penalty = cap_multipliers(self.N, self.nu, self.has_caps,
                                                  cap=self.cap_vector)
        variables = {"w": w, **psi_block, "beta": beta}
        s = U @ w + psi + beta
        objective = -self.conjugate(-self.eta * s) / self.eta - beta - penalty
        problem = cp.Problem(cp.Maximize(objective), [cp.sum(w) == 1])
        absent = {} if self.has_caps else {"psi": np.zeros(self.N)}
        return Model(problem, variables, {}, absent)

    # -- numpy objectives ------------------------------------------------------------------
    def in_domain(self, d: np.ndarray, tol: float = 1e-7) -> bool:
        cap = self.cap
        if np.ndim(cap) == 0:  # one pass for the bound, no N-vector of booleans
            return bool(abs(d.sum() - 1) <= tol and d.min() >= -tol
                        and d.max() <= float(cap) + tol)
        return bool(abs(d.sum() - 1) <= tol and d.min() >= -tol
                    and bool(np.all(d <= cap + tol)))

    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if not self.in_domain(d):
            return math.inf
        edges = self._remembered_edges(U, d)
        if edges is None:
            edges = U.T @ d
        max_edge = float(edges.max()) if U.shape[1] else -1.0
        return max_edge + self.regularizer_value(np.clip(d, 0.0, self.cap)) / self.eta

    def remember_edges(self, U: np.ndarray, d: np.ndarray, edges: np.ndarray) -> None:
        """Keep U^T d of a certified master solution (a copy of d with it): the KKT recovery of
        the same solve and the next iteration's P^(t+1)(d^t) over U extended by one column then
        take it instead of a product with the N x t matrix (:meth:`_remembered_edges`)."""
        self._edges_memo = (U, np.array(d, dtype=float), np.asarray(edges, dtype=float).copy())

    def _remembered_edges(self, U: np.ndarray, d: np.ndarray) -> np.ndarray | None:
        """U^T d from :meth:`remember_edges` when d is the remembered d (compared entry by entry)
        and U is the remembered checked view, or the view check_columns made from it by
        appending columns (its ``extends`` path): then only the new columns are multiplied.
        None otherwise."""
        memo = getattr(self, "_edges_memo", None)
        if memo is None:
            return None
        U0, d0, edges = memo
        if U is not U0 and not (U is getattr(self, "_checked_columns", None)
                                and getattr(self, "_checked_parent", None) is U0):
            return None
        if d.shape != d0.shape or not np.array_equal(d, d0):
            return None
        known = U0.shape[1]
        return edges if U.shape[1] == known else np.concatenate([edges, U[:, known:].T @ d])

    def primal_feasible(self, d: np.ndarray) -> np.ndarray:
        return euclidean_capped_projection(np.asarray(d, dtype=float), self.nu,
                                           cap=self.cap_vector)

    def _slack_margins(self, U: np.ndarray, point) -> np.ndarray:
        s = U @ np.asarray(point["w"], dtype=float)
        psi = point.get("psi")
        if psi is not None and self.has_caps:
            s = s + psi
        return s

    def dual_feasible(self, U: np.ndarray, point) -> Multipliers:
        w = np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None)
        total = w.sum()
        w = w / total if total > 0 else np.full(w.shape, 1.0 / w.size)
        out = Multipliers(w=w)
        if self.has_caps and point.get("psi") is not None:
            out["psi"] = np.clip(np.asarray(point["psi"], dtype=float), 0.0, None)
        elif self.has_caps:
            out["psi"] = np.zeros(self.N)
        if point.get("beta") is not None:
            out["beta"] = float(point["beta"])
        return out

    def optimal_beta(self, U: np.ndarray, point) -> float:
        """The beta that makes grad R*(-eta (s + beta)) sum to 1 (thesis (3.16) for the relative
        entropy). The mass is decreasing in beta: a safeguarded Newton root inside a bracket
        that keeps every -eta (s_n + beta) in dom R* (docs/theory.md, "The domain of R* and the
        optimal beta")."""
        s = self._slack_margins(self.check_columns(U), point)
        numerics = self.derived_numerics()
        if numerics is not None:
            return numerics.beta(s, float(self.eta), False, None,
                                 f"formulation {self.name!r}, optimal_beta")

        def excess(beta: float) -> float:
            return float(self.conjugate_gradient(-self.eta * (s + beta)).sum()) - 1.0

        lo, hi = _bracket_decreasing(excess, -s.max() - 1.0, -s.min() + 1.0)
        from scipy.optimize import brentq  # scipy.optimize: 0.2 s to import, rarely used

        return float(brentq(excess, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=500))

    def dual_value(self, U: np.ndarray, point, beta: float) -> float:
        """Theta(w, psi, beta) (the dual model's objective, in numpy)."""
        s = self._slack_margins(U, point)
        psi = point.get("psi")
        penalty = float(np.sum(self.cap * psi)) if (psi is not None and self.has_caps) else 0.0
        return -self.conjugate_value(-self.eta * (s + beta)) / self.eta - beta - penalty

    def dual_objective(self, U: np.ndarray, point) -> float:
        """Theta at a dual point; without beta, beta is maximized out (thesis (3.10))."""
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float)
        psi = point.get("psi")
        # a solver's point is feasible to about 1e-8; certify() makes points exactly feasible
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7 or \
                (psi is not None and np.min(psi, initial=0.0) < -1e-7):
            return -math.inf
        beta = point.get("beta")
        if beta is None:
            beta = self.optimal_beta(U, point)
        return float(self.dual_value(U, point, float(beta)))

    def d_from_dual(self, U: np.ndarray, point) -> np.ndarray:
        """d = grad R*(-eta (U w + psi + beta)) (thesis (3.13); (3.11) with the optimal beta)."""
        U = self.check_columns(U)
        beta = point.get("beta")
        if beta is None:
            beta = self.optimal_beta(U, point)
        return self.conjugate_gradient(-self.eta * (self._slack_margins(U, point) + beta))

    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """For fixed w: psi and beta maximized (the inner minimization over the capped simplex).

        Without a cap block only beta is free: its optimum is the 1-D root above. With caps, R is
        separable here, so the inner minimizer is ``d_n = min(1/nu, grad R*_n(-eta (m_n + beta)))``
        with beta by the same root, and ``psi_n = (-grad R(1/nu)_n / eta) - m_n - beta`` on the
        capped examples (stationarity there).
        """
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float)
        numerics = self.derived_numerics()
        if numerics is not None:
            return self._best_response_derived(numerics, U, w)
        if not self.has_caps:
            point = Multipliers(w=w)
            beta = self.optimal_beta(U, point)
            point["beta"] = beta
            d = self.primal_feasible(self.d_from_dual(U, point))
            return Certificate(point, d, self.primal_objective(U, d),
                               self.dual_value(U, point, beta))
        m = U @ w
        cap = self.cap  # 1/nu, or per-example caps (sample weights)

        def capped(beta: float) -> np.ndarray:
            return np.minimum(self.conjugate_gradient(-self.eta * (m + beta)), cap)

        def excess(beta: float) -> float:
            return float(capped(beta).sum()) - 1.0

        # bounded bracketing: at nu = N the capped mass never exceeds 1 (the capped simplex is
        # the single point 1/N), so an unbounded search would never end
        lo, hi = _bracket_decreasing(excess, -m.max() - 1.0, -m.min() + 1.0)
        if excess(lo) > 0 > excess(hi):
            from scipy.optimize import brentq

            beta = float(brentq(excess, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=500))
        else:  # every d_n at its cap (nu = N): the largest beta that keeps them there
            grad_at_cap = self.regularizer_gradient(np.full(self.N, cap))
            beta = float(np.min(-grad_at_cap / self.eta - m))
        d = capped(beta)
        at_cap = d >= cap * (1 - 1e-12)
        psi = np.zeros(self.N)
        if at_cap.any():
            grad_at_cap = self.regularizer_gradient(np.full(self.N, cap))
            psi[at_cap] = np.clip(-grad_at_cap[at_cap] / self.eta - m[at_cap] - beta, 0, None)
        point = Multipliers(w=w, psi=psi, beta=beta)
        d = self.primal_feasible(d)
        return Certificate(point, d, self.primal_objective(U, d),
                           self.dual_objective(U, Multipliers(w=w, psi=psi)))

    def _best_response_derived(self, numerics: DerivedNumerics, U: np.ndarray,
                               w: np.ndarray) -> Certificate:
        """The best response from the compiled numerics: d_n = min(cap_n, grad R*_n(-eta (m_n +
        beta))) with beta the root of sum(d) = 1 (warm-started at the previous call's beta),
        psi_n = max(0, -grad R(cap)_n / eta - m_n - beta), and the bracket evaluated at exactly
        that point (R* is evaluated only inside its domain: a capped coordinate's argument is
        grad R(cap)_n)."""
        m = U @ w
        eta, capped = float(self.eta), self.has_caps
        beta = numerics.beta(m, eta, capped, self.__dict__.get("_beta_hint"),
                             f"formulation {self.name!r}, best_response")
        self.__dict__["_beta_hint"] = beta
        psi = np.zeros(self.N)
        if capped:
            psi = np.maximum(-numerics.ycap / eta - m - beta, 0.0)
        y = -eta * (m + psi + beta)
        if numerics.numpy is not None:
            g = np.asarray(self.conjugate_gradient(y), dtype=float)
            conjugate = float(self.conjugate_value(y))
        else:
            terms, g, _ = numerics.conj.evaluate(y)
            conjugate = float(terms.sum())
        # a capped coordinate is exactly at its cap (as in the mass the root solved for):
        # grad R*(grad R(cap)) may come back an ulp below it, and hundreds of such near-ties
        # made the projection below fall back to its bisection
        d = np.where(psi > 0, numerics.cap, np.minimum(g, numerics.cap)) if capped else g
        point = Multipliers(w=w, beta=beta)
        if capped:
            point["psi"] = psi
        if w.min(initial=0.0) < -1e-7 or abs(w.sum() - 1) > 1e-7:
            dual = -math.inf
        else:
            penalty = float(np.sum(self.cap * psi)) if capped else 0.0
            dual = -conjugate / eta - beta - penalty
        d = self.primal_feasible(d)
        edges = U.T @ d
        # R at d clipped into [0, cap]: the projection may leave -1e-17 where d_n = 0, outside
        # the domain of a power (in_domain allows 1e-7); the member's numpy R when its numpy
        # lines were accepted (regularizer_value among them when written: DerivedNumerics)
        value = numerics.R.value if numerics.numpy is None else self.regularizer_value
        primal = (float(edges.max()) + value(np.clip(d, 0.0, self.cap)) / eta
                  if self.in_domain(d) else math.inf)
        return Certificate(point, d, primal, dual, edges=edges)

    def fast_master(self):
        """The w-domain projected-Newton master (:mod:`dualboost.masters.newton`) for every
        member whose best response is numpy: written by hand (``best_response`` in
        ``fast_paths``; for the relative entropy the capped entropic projection, thesis (3.11),
        §3.2.5) or derived from the compiled declarations (:meth:`derived_numerics`: a 1-D
        root for beta, thesis (3.16) in general; the Newton curvature from R'').
        Otherwise (R or R* not separable in a form the compiler reads) None, and the run stays
        on the reference path (a cvxpy model per iteration); ``fast_master_reason`` says why
        and :func:`dualboost.engine.boost` warns on large N."""
        from .masters.newton import ProjectedNewtonMaster

        # a shipped member's numpy lines are checked in full by the verifier's F1 row (CI runs
        # it); compiling its declarations again on every fit cost about 1 s of cvxpy
        self.fast_path_notes = [] if self._shipped_with_own_numerics() else self._check_fast_paths()
        own_best_response = type(self).best_response is not RegularizedLPBoost.best_response
        if not own_best_response and self.derived_numerics() is None:
            self.fast_master_reason = (
                f"the regularizer or its conjugate is not a sum of per-coordinate terms the "
                f"derived numerics read ({self.numerics_reason})")
            return None
        self.fast_master_reason = None
        return ProjectedNewtonMaster(self)

    def _shipped_with_own_numerics(self) -> bool:
        """True for a member of the ``formulations`` package that writes every numpy line and its
        best response (erlpboost, erlpboost_unnormalized): nothing at run time needs the
        compiled declarations. A file loaded from a path, even a copy, is always compared."""
        cls = type(self)
        if not cls.__module__.startswith("formulations."):
            return False
        written = [name for name in (*_NUMPY_LINES, "best_response")
                   if getattr(cls, name) is not getattr(RegularizedLPBoost, name)]
        return len(written) == len(_NUMPY_LINES) + 1 and set(written) <= set(cls.fast_paths)

    def _check_fast_paths(self) -> list[str]:
        """One line per declared fast path that is not written or that disagrees with the
        derived numerics at two points (d0 and grad R(d0) - 1/2); the verifier's F1 row
        checks them in full."""
        notes = []
        cls = type(self)
        for name in cls.fast_paths:
            if not callable(getattr(cls, name, None)):
                notes.append(f"fast_paths lists {name!r}, which {cls.__name__} does not "
                             "define: ignored")
            elif name in _NUMPY_LINES and getattr(cls, name) is getattr(RegularizedLPBoost, name):
                notes.append(f"fast_paths lists {name!r} but {cls.__name__} does not write it "
                             "(the derived version runs)")
        numerics = self.derived_numerics()
        if numerics is None:
            return notes
        if numerics.mismatch:
            notes.append(numerics.mismatch)
        if numerics.numpy_rejected:
            notes.append(numerics.numpy_rejected)
            return notes
        d0 = np.asarray(self.d0, dtype=float)
        y = numerics.y0 - 0.5
        derived = {"regularizer_value": lambda: numerics.R.value(d0),
                   "regularizer_gradient": lambda: numerics.R.gradient(d0),
                   "conjugate_value": lambda: numerics.conj.value(y),
                   "conjugate_gradient": lambda: numerics.conj.gradient(y)}
        given = {"regularizer_value": lambda: self.regularizer_value(d0),
                 "regularizer_gradient": lambda: self.regularizer_gradient(d0),
                 "conjugate_value": lambda: self.conjugate_value(y),
                 "conjugate_gradient": lambda: self.conjugate_gradient(y)}
        for name in _NUMPY_LINES:
            if getattr(cls, name) is getattr(RegularizedLPBoost, name):
                continue
            try:
                with np.errstate(all="ignore"):
                    ours, theirs = np.asarray(given[name](), float), np.asarray(derived[name](),
                                                                                float)
                same = np.allclose(ours, theirs, rtol=1e-6, atol=1e-9)
            except (ArithmeticError, ValueError, TypeError) as exc:
                same, theirs = False, exc
            if not same:
                where = "d0" if "regularizer" in name else "y = grad R(d0) - 1/2"
                notes.append(f"the hand-written {name} disagrees with the one derived from the "
                             f"cvxpy declarations (at {where}); `python -m dualboost.verify` "
                             "row F1 shows where")
        return notes

    def _check(self) -> None:
        if self.caps_in_domain and self.nu >= self.N:
            raise DualBoostInputError(
                f"{self.name} needs nu < N (its regularizer divides by 1/nu - d0_n), got "
                f"nu = {self.nu:g}, N = {self.N}")
