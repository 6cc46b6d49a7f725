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
from typing import Any, ClassVar

import cvxpy as cp
import numpy as np
from scipy.optimize import brentq

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
from .theory import Theory, default_eta

__all__ = ["RegularizedLPBoost"]


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


class RegularizedLPBoost(Formulation):
    """Base class of the family; see the module docstring."""

    #: True when R's own domain is 0 <= d <= 1/nu (binary relative entropy): no psi block
    caps_in_domain: ClassVar[bool] = False
    #: cones of R and R* (e.g. ("exp",) for entropies, ("soc",) for squares)
    cones: ClassVar[tuple[str, ...]] = ("exp",)
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
        cls.capabilities = Capabilities(strictly_convex=True, cones=("lp",) + tuple(cls.cones),
                                        closed_forms=tuple(cls.fast_paths),
                                        primal_form="regularized")

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

    # -- numpy values, derived from the cvxpy expressions unless a fast path overrides ------
    def regularizer_value(self, d: np.ndarray) -> float:
        value = self.regularizer(cp.Constant(np.asarray(d, dtype=float))).value
        return math.inf if value is None else float(value)

    def conjugate_value(self, y: np.ndarray) -> float:
        value = self.conjugate(cp.Constant(np.asarray(y, dtype=float))).value
        return math.inf if value is None else float(value)

    def conjugate_gradient(self, y: np.ndarray) -> np.ndarray:
        """grad R*(y): the d that attains the sup (thesis (3.13) for the relative entropy).

        Derived from cvxpy's gradient of the declared conjugate; where cvxpy has none (at a kink
        of a clipped power, at the edge of R*'s domain) it is the maximizer itself, solved for:
        argmax_d y.d - R(d) over R's domain is grad R*(y) (Danskin; unique as R is strictly
        convex)."""
        y = np.asarray(y, dtype=float)
        variable = cp.Variable(self.N)
        variable.value = y
        try:
            grad = self.conjugate(variable).grad.get(variable)
        except (TypeError, ValueError, ArithmeticError):
            grad = None
        if grad is not None:
            grad = np.asarray(grad.toarray() if hasattr(grad, "toarray") else grad).reshape(-1)
            if grad.shape == (self.N,) and np.all(np.isfinite(grad)):
                return grad
        return self._conjugate_maximizer(y)

    def _conjugate_maximizer(self, y: np.ndarray) -> np.ndarray:
        from .solvers import solve

        d = cp.Variable(self.N, nonneg=True)
        problem = cp.Problem(cp.Maximize(y @ d - self.regularizer(d)))
        solve(problem, self.kind)
        return np.clip(np.asarray(d.value, dtype=float), 0.0, None)

    def regularizer_gradient(self, d: np.ndarray) -> np.ndarray:
        """grad R(d), from cvxpy's gradient of the declared R (a fast path may override it)."""
        variable = cp.Variable(self.N, nonneg=True)
        variable.value = np.asarray(d, dtype=float)
        grad = self.regularizer(variable).grad[variable]
        return np.asarray(grad.toarray() if hasattr(grad, "toarray") else grad).reshape(-1)

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
                                  cap=self.cap_vector)

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
        return bool(abs(d.sum() - 1) <= tol and d.min() >= -tol
                    and bool(np.all(d <= self.cap + tol)))

    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if not self.in_domain(d):
            return math.inf
        max_edge = float((U.T @ d).max()) if U.shape[1] else -1.0
        return max_edge + self.regularizer_value(np.clip(d, 0.0, self.cap)) / self.eta

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
        entropy). The mass is decreasing in beta, so a bracketed root finder finds it."""
        s = self._slack_margins(self.check_columns(U), point)

        def excess(beta: float) -> float:
            return float(self.conjugate_gradient(-self.eta * (s + beta)).sum()) - 1.0

        lo, hi = _bracket_decreasing(excess, -s.max() - 1.0, -s.min() + 1.0)
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

    def fast_master(self):
        """The w-domain projected-Newton master (:mod:`dualboost.masters.newton`) when the
        best response is numpy: written by hand (``best_response`` in ``fast_paths``; for the
        relative entropy the capped entropic projection, thesis (3.11), §3.2.5) or derived from
        hand-written ``conjugate_gradient`` and ``regularizer_gradient`` (a 1-D root for beta,
        thesis (3.16) in general; the Newton curvature from grad R).
        Otherwise None, and the run stays on the reference path (a cvxpy model per
        iteration)."""
        paths = set(type(self).fast_paths)
        if "best_response" not in paths and not {"conjugate_gradient",
                                                 "regularizer_gradient"} <= paths:
            return None
        from .masters.newton import ProjectedNewtonMaster

        return ProjectedNewtonMaster(self)

    def _check(self) -> None:
        if self.caps_in_domain and self.nu >= self.N:
            raise DualBoostInputError(
                f"{self.name} needs nu < N (its regularizer divides by 1/nu - d0_n), got "
                f"nu = {self.nu:g}, N = {self.N}")
