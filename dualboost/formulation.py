"""The formulation contract: a primal (d-domain) and a dual (w-domain) model of a boosting problem.

Vocabulary (thesis, Ch. 3 on): the *primal* is the problem over the distribution d on the N
examples; the *dual* is the problem over the weights w on the t hypotheses, with psi (multipliers
of the caps ``d_n <= 1/nu``, equal to the soft-margin slacks) and beta (multiplier of
``sum(d) = 1``). Seeds 002 and 004 use the opposite names; formulations translated from them must
say so in their docstring.

A formulation is bound to one problem size: ``F(N, nu=..., eps=..., eta=...)``. nu is a count in
[1, N] (thesis convention; nu = 1 is the hard margin). The column matrix ``U`` (N x t) has entries
``u_n^q = y_n h^q(x_n)`` in [-1, 1].

To write a new formulation, subclass :class:`Formulation` and implement the abstract methods;
:func:`dualboost.registry.load_formulation` accepts the file path of such a module.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import cvxpy as cp
import numpy as np

from .errors import DualBoostInputError
from .kkt import KKTRecovery
from .projection import euclidean_capped_projection


@dataclass
class DualPoint:
    """A point (w, psi, beta) of the w-domain; beta may be None where it is optimized out."""

    w: np.ndarray
    psi: np.ndarray
    beta: float | None = None


@dataclass
class PrimalModel:
    """The d-domain cvxpy problem with its constraints named by their multipliers.

    ``edge`` is ``U.T @ d <= gamma`` (multipliers w), ``cap`` is ``d <= 1/nu`` (multipliers psi;
    None when nu = 1, where the caps are implied by the simplex), ``normalization`` is
    ``sum(d) == 1`` (multiplier beta).
    """

    problem: cp.Problem
    d: cp.Variable
    gamma: cp.Variable
    edge: cp.Constraint
    cap: cp.Constraint | None
    normalization: cp.Constraint

    def multipliers(self) -> DualPoint:
        """The solver's multipliers, in the thesis's sign convention ``+beta (1.d - 1)``."""
        N = self.d.shape[0]
        w = np.asarray(self.edge.dual_value, dtype=float).reshape(-1)
        psi = (np.zeros(N) if self.cap is None
               else np.asarray(self.cap.dual_value, dtype=float).reshape(-1))
        # cvxpy's Lagrangian for an equality ``lhs == rhs`` is ``+ y (lhs - rhs)``, as the thesis's.
        beta = float(np.asarray(self.normalization.dual_value).reshape(-1)[0])
        return DualPoint(w, psi, beta)


@dataclass
class DualModel:
    """The w-domain cvxpy problem; ``beta`` is None where the formulation optimizes it out."""

    problem: cp.Problem
    w: cp.Variable
    psi: cp.Variable | None
    beta: cp.Variable | None
    N: int
    #: the constraint whose multipliers are d (the LP's ``U w + psi + beta >= 0``), if any
    d_constraint: cp.Constraint | None = None

    def d(self) -> np.ndarray | None:
        """The primal d carried by the dual model's multipliers, where the model has them."""
        if self.d_constraint is None:
            return None
        return np.asarray(self.d_constraint.dual_value, dtype=float).reshape(-1)

    def point(self) -> DualPoint:
        """The solved (w, psi, beta); psi is 0 when the model has no caps (nu = 1)."""
        psi = np.zeros(self.N) if self.psi is None else np.asarray(self.psi.value, dtype=float)
        beta = None if self.beta is None else float(self.beta.value)
        return DualPoint(np.asarray(self.w.value, dtype=float), psi, beta)


@dataclass
class Certificate:
    """An exact bracket of the master problem's optimum built from a dual candidate w.

    ``psi`` and ``beta`` are optimal *for this w*, ``d`` is the feasible distribution they induce,
    ``dual_value = Theta(w, psi) <= optimum <= primal_value = P(d)``; ``gap`` is the difference.
    """

    w: np.ndarray
    psi: np.ndarray
    beta: float
    d: np.ndarray
    primal_value: float
    dual_value: float

    @property
    def gap(self) -> float:
        return self.primal_value - self.dual_value


class Formulation(ABC):
    """Base class of every primal/dual pair. See the module docstring for the conventions."""

    #: short name used by the registry, the CLI and the JSON output
    name: ClassVar[str]
    #: 'lp' (HiGHS first) or 'exp' (exponential cones: Clarabel first)
    kind: ClassVar[str]
    #: True when the primal has a strictly convex regularizer (1/eta) R(d): then d is unique and
    #: the engine uses the thesis's delta stopping rules; False for the plain LP (Alg. 2.1).
    regularized: ClassVar[bool]
    #: the equations of the seed that this file implements, e.g. "thesis (3.6), (3.10), (3.11)"
    equations: ClassVar[str] = ""
    #: which theorems the verifier checks on boosting runs: "lp" (Alg. 2.1 invariants),
    #: "entropy" (thesis Lemmas 3.7-3.9, Thm 3.10: they need the relative-entropy regularizer)
    #: or None. A copied file inherits the tag; if a swapped regularizer breaks a lemma, the
    #: verifier says so.
    theory: ClassVar[str | None] = None

    def __init__(self, N: int, nu: float = 1.0, eps: float = 0.01, eta: float | None = None,
                 d0: np.ndarray | None = None):
        if not isinstance(N, (int, np.integer)) or N < 1:
            raise DualBoostInputError(f"N must be a positive integer, got {N!r}")
        nu = float(nu)
        if not math.isfinite(nu) or nu < 1 or nu > N:
            raise DualBoostInputError(
                f"nu must be a count in [1, N] = [1, {N}], got {nu:g} "
                "(use nu_frac for a fraction of N)")
        eps = float(eps)
        if not math.isfinite(eps) or eps <= 0:
            raise DualBoostInputError(f"eps must be a positive number, got {eps:g}")
        if d0 is None:
            d0 = np.full(N, 1.0 / N)
        d0 = np.asarray(d0, dtype=float)
        if d0.shape != (N,) or np.any(d0 <= 0) or abs(d0.sum() - 1) > 1e-9 or np.any(d0 > 1 / nu):
            raise DualBoostInputError(
                "d0 must be a strictly positive distribution on the N examples with d0 <= 1/nu")
        self.N, self.nu, self.eps, self.d0 = int(N), nu, eps, d0
        if eta is None:
            eta = self.default_eta(self.N, nu, eps)
        elif not (math.isfinite(float(eta)) and float(eta) > 0):
            raise DualBoostInputError(f"eta must be a positive number, got {eta!r}")
        self.eta = None if eta is None else float(eta)

    # -- helpers shared by subclasses -------------------------------------------------------
    @property
    def has_caps(self) -> bool:
        """nu = 1 is the hard margin: ``d <= 1`` is implied by the simplex and not modelled."""
        return self.nu > 1

    def check_columns(self, U: np.ndarray) -> np.ndarray:
        """Validate a column matrix: N rows, finite entries in [-1, 1]."""
        U = np.asarray(U, dtype=float)
        if U.ndim == 1:
            U = U[:, None]
        if U.ndim != 2 or U.shape[0] != self.N:
            raise DualBoostInputError(f"U must have N = {self.N} rows, got shape {U.shape}")
        if not np.all(np.isfinite(U)):
            raise DualBoostInputError("U has NaN or infinite entries")
        if U.size and (U.min() < -1 - 1e-12 or U.max() > 1 + 1e-12):
            raise DualBoostInputError(
                f"U entries must lie in [-1, 1], got range [{U.min():g}, {U.max():g}]")
        return U

    def parameters(self) -> dict:
        return {"formulation": self.name, "N": self.N, "nu": self.nu, "eps": self.eps,
                "eta": self.eta}

    # -- the contract ---------------------------------------------------------------------
    @abstractmethod
    def primal(self, U: np.ndarray) -> PrimalModel:
        """The d-domain problem over the columns U."""

    @abstractmethod
    def dual(self, U: np.ndarray) -> DualModel:
        """The w-domain problem over the columns U."""

    @abstractmethod
    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        """P^t(d) at any d of the capped simplex; with t = 0 columns the max edge is -1."""

    @abstractmethod
    def dual_objective(self, U: np.ndarray, w: np.ndarray, psi: np.ndarray,
                       beta: float | None = None) -> float:
        """Theta^t(w, psi, beta); with beta None, the value with beta optimized out."""

    def d_from_dual(self, U: np.ndarray, w: np.ndarray, psi: np.ndarray,
                    beta: float | None = None) -> np.ndarray | None:
        """Closed-form primal point from dual variables (thesis (3.11)); None when none exists."""
        return None

    @abstractmethod
    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """For fixed w in the simplex: the optimal psi (and beta), the induced feasible d and both
        objective values, an exact bracket of the optimum (see :class:`Certificate`)."""

    @abstractmethod
    def recover_dual(self, U: np.ndarray, d: np.ndarray, tol: float = 1e-6) -> KKTRecovery:
        """(w, psi, beta) from an optimal d by the active-set linear system (thesis §3.2.4)."""

    @classmethod
    def default_eta(cls, N: int, nu: float, eps: float) -> float | None:
        """The theory's eta for (N, nu, eps); None for formulations without a regularizer."""
        return None

    @classmethod
    def iteration_bound(cls, N: int, nu: float, eps: float, stopping: str = "simple"
                        ) -> float | None:
        """The theory's bound T(N, nu, eps) on the iterations; None when the theory has none."""
        return None

    # -- generic, built on the contract -----------------------------------------------------
    def solve_primal(self, U: np.ndarray, gap_tol: float, *, solver: str | None = None,
                     order: list[str] | None = None) -> tuple[PrimalModel, Certificate, object]:
        """Solve the primal through the solver policy and certify it.

        A solve is accepted when :meth:`certify` of the solver's (w, d) brackets the optimum
        within ``gap_tol``; otherwise the next solver is tried. Returns the solved model, the
        accepted certificate and the :class:`~dualboost.solvers.SolveRecord`.
        """
        from .solvers import solve

        model = self.primal(U)
        accepted: dict[str, Certificate] = {}

        def certify() -> bool:
            accepted["last"] = self.certify(U, model.multipliers().w, model.d.value)
            return accepted["last"].gap <= gap_tol

        record = solve(model.problem, self.kind, solver=solver, certify=certify, order=order)
        return model, accepted["last"], record

    def certify(self, U: np.ndarray, w: np.ndarray, d: np.ndarray | None = None) -> Certificate:
        """The exact bracket certified by a solver's (w, d).

        w is projected onto the simplex and completed by :meth:`best_response`; a solver's d, made
        exactly feasible by Euclidean projection onto the capped simplex, replaces the
        best-response d when its primal value is lower (for the LP, whose d is not a function
        of w, this is what gives a tight upper bound).
        """
        w = np.clip(np.asarray(w, dtype=float).reshape(-1), 0.0, None)
        total = w.sum()
        w = w / total if total > 0 else np.full(w.shape, 1.0 / w.size)
        cert = self.best_response(U, w)
        if d is not None:
            d_feasible = euclidean_capped_projection(np.asarray(d, dtype=float), self.nu)
            value = self.primal_objective(U, d_feasible)
            if value < cert.primal_value:
                cert.d, cert.primal_value = d_feasible, value
        return cert
