"""The formulation contract: a boosting problem stated once, as a primal and a dual cvxpy model.

Vocabulary (thesis, Ch. 3 on): the *primal* is the problem over the distribution d on the N
examples (the d-domain); the *dual* is the problem over the weights w on the t hypotheses (the
w-domain). Seeds 002 and 004 use the opposite names; a formulation translated from them says so.

What a formulation declares (see docs/formulations.md for the catalogue):

* ``params``: its parameter schema (:mod:`dualboost.params`); ``F(N, **params)`` validates and
  fills defaults, and any parameter it does not declare is an error.
* ``primal(U)`` and ``dual(U)``: cvxpy models with **named** variables and constraints
  (:class:`Model`). Each primal constraint is named by the dual variable that prices it: the edge
  constraints ``U^T d <= gamma`` are ``"w"``, the caps ``d <= 1/nu`` are ``"psi"``, the
  normalization ``sum(d) = 1`` is ``"beta"``; a formulation with other blocks (a budget, an edge
  bound) names them the same way. The dual model's variables carry the same names.
* ``primal_objective(U, d)``: P(d) in numpy (families derive it from the same expressions).
* ``capabilities``: what the engine and the verifier may assume (strict convexity, cones, closed
  forms), instead of switches on the formulation's name.

What is derived, generically, from those declarations (a formulation may override any of them
with a faster closed form, which the verifier then compares with the derived one):

* ``dual_objective(U, point)``: Theta at a dual point, evaluated on the dual model's own
  expression; dual variables missing from ``point`` are maximized out with the others fixed;
  ``-inf`` off the dual feasible set.
* ``dual_feasible(U, point)``: the nearest exactly feasible dual point (a formulation owns its
  dual feasible set; the default clips the dual model's nonnegative variables).
* ``best_response(U, w)``: the other dual variables maximized for fixed w (the inner
  minimization over d of the Lagrangian, by duality), giving an exact lower bound.
* ``certify(U, point, d)``: an exact bracket Theta(point) <= optimum <= P(d).
* ``recover_dual(U, d)``: the KKT / active-set linear system (thesis §3.2.4, App. A) assembled from
  the primal model's objective gradient and its named linear constraint blocks.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import cvxpy as cp
import numpy as np

from .errors import DualBoostInputError
from .kkt import (  # Multipliers lives in kkt (the lower layer); re-exported here
    KKTRecovery,
    KKTSystem,
    Multipliers,
    PointView,
    solve_kkt_system,
    system_from_model,
)
from .params import Param, resolve_params

__all__ = ["Capabilities", "Certificate", "Formulation", "Model", "Multipliers"]

#: relative tolerance for "this dual point is feasible" when evaluating Theta
FEASIBILITY_TOL = 1e-9


@dataclass
class Model:
    """A cvxpy problem with its variables and constraints named.

    ``constraints`` maps the name of a dual variable to the constraint it prices (primal models)
    or is empty (dual models, whose constraints are read from ``problem``). ``absent`` holds the
    value of a block that this instance does not model (the caps at nu = 1: psi = 0).
    """

    problem: cp.Problem
    variables: dict[str, cp.Variable]
    constraints: dict[str, cp.Constraint] = field(default_factory=dict)
    absent: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:  # model.d, model.w, ...
        variables = self.__dict__.get("variables", {})
        if name in variables:
            return variables[name]
        raise AttributeError(name)

    def values(self) -> Multipliers:
        """The solved variables."""
        out = Multipliers({k: _as_value(v.value) for k, v in self.variables.items()})
        for k, v in self.absent.items():
            out.setdefault(k, v)
        return out

    def multipliers(self) -> Multipliers:
        """The solver's multipliers of the named constraints, in the Lagrangian sign convention
        ``f(x) + sum_c lambda_c . expr_c(x)`` with ``expr_c <= 0`` / ``== 0`` (cvxpy's convention,
        and the thesis's ``+beta (1.d - 1)``, ``+psi (d - 1/nu)``, ``+w (U^T d - gamma)``)."""
        out = Multipliers({k: _as_value(c.dual_value) for k, c in self.constraints.items()})
        for k, v in self.absent.items():
            out.setdefault(k, v)
        return out


def _as_value(value: Any) -> Any:
    if value is None:
        return None
    array = np.asarray(value, dtype=float)
    return float(array.reshape(-1)[0]) if array.size == 1 and array.ndim == 0 else \
        array.reshape(-1) if array.ndim > 1 else array


@dataclass(frozen=True)
class Capabilities:
    """What a formulation declares about itself.

    ``strictly_convex``: the primal objective is strictly convex in d, so d is unique and a
    function of the dual point (then a closed form d(w) can exist and the thesis's delta stopping
    rules apply). ``cones``: the cone types the models need (``"lp"``, ``"soc"``, ``"exp"``,
    ``"pow"``): the solver policy picks solvers from them. ``closed_forms``: names of the
    hand-written fast paths the class provides (``"primal_objective"``, ``"dual_objective"``,
    ``"d_from_dual"``, ``"optimal_beta"``, ``"best_response"``); the verifier compares each
    with the derived version. ``primal_form`` says what the primal's value is, which is what an
    algorithm's stopping rule relies on: ``"lp"`` (the soft-margin LP (2.3): Alg. 2.1),
    ``"regularized"`` (max_q u^q.d + (1/eta) R(d), R >= 0: Alg. 3.2), ``"projection"`` (a
    divergence minimized under an edge bound: Alg. 3.1) or ``"other"``. ``signed_weights``: w may
    be negative, ``||w||_1 <= 1`` (seed 001; a soft margin normalizes by ||w||_1, no clipping).

    ``d_domain`` says where the primal's d lives (seed 002's problems are not all on a simplex):
    ``"simplex"`` (d >= 0, sum(d) = 1: the thesis's problems), ``"orthant"`` (d >= 0, no
    normalization block: the exponential loss (14)) or ``"affine"`` (sum(d) = 1, d of any sign:
    AdaBoost-QP's derived dual). A fast master reads it (which examples carry curvature, whether
    the normalization's rank-one term is there); the KKT recovery needs nothing from it (it
    reads the bounds and blocks off the primal model).
    """

    strictly_convex: bool
    cones: tuple[str, ...] = ("lp",)
    closed_forms: tuple[str, ...] = ()
    primal_form: str = "other"
    #: the w-domain is the l1 ball with two-sided edges (seed 001's form): w is signed and the
    #: problem over U is the thesis's over the columns [U, -U] (what an "lp" claim re-solves)
    signed_weights: bool = False
    d_domain: str = "simplex"

    @property
    def solver_kind(self) -> str:
        """The solver policy's model kind: 'lp' for pure linear programs, 'pow' when power
        cones are needed (ECOS has none), 'exp' for exponential and second-order cones."""
        if set(self.cones) <= {"lp"}:
            return "lp"
        return "pow" if "pow" in self.cones else "exp"


@dataclass
class Certificate(PointView):
    """An exact bracket of a master problem's optimum.

    ``point`` is an exactly feasible dual point and ``dual_value = Theta(point)``; ``d`` is an
    exactly feasible primal point and ``primal_value = P(d)``; by weak duality
    ``dual_value <= optimum <= primal_value``. A ``gap`` below zero means the formulation's
    primal and dual do not form a pair: the verifier and ``fit`` report it as such.
    """

    point: Multipliers
    d: np.ndarray
    primal_value: float
    dual_value: float
    #: U^T d where the producer had it at hand (a best response); spares a fast master the
    #: product (None: not computed)
    edges: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def gap(self) -> float:
        return self.primal_value - self.dual_value


def soft_margin_blocks(U: np.ndarray, d: cp.Variable, edge_bound: Any, nu: float,
                       caps: bool, cap: np.ndarray | None = None) -> dict[str, cp.Constraint]:
    """The named constraints of the thesis's d-domain problems: ``U^T d <= edge_bound`` (priced
    by w; edge_bound is gamma, or SoftBoost's gamma_hat - eps), ``d <= 1/nu`` (psi; only when
    ``caps``; ``d <= cap`` with per-example caps, sample weights) and ``sum(d) = 1`` (beta)."""
    constraints = {"w": U.T @ d <= edge_bound}
    if caps:
        constraints["psi"] = d <= (1.0 / nu if cap is None else cap)
    constraints["beta"] = cp.sum(d) == 1
    return constraints


def cap_multipliers(N: int, nu: float, caps: bool,
                    cap: np.ndarray | None = None) -> tuple[dict, Any, Any]:
    """The dual's psi block: ({"psi": variable} or {}, the slack psi (or 0) added to the
    margins, the penalty sum(psi)/nu (or 0); ``cap . psi`` with per-example caps)."""
    if not caps:
        return {}, 0, 0
    psi = cp.Variable(N, nonneg=True, name="psi")
    return {"psi": psi}, psi, (cp.sum(psi) / nu if cap is None else cap @ psi)


class Formulation(ABC):
    """Base class of every primal/dual pair. See the module docstring for the contract."""

    #: short name used by the registry, the CLI and the JSON output
    name: ClassVar[str]
    #: one line for ``dualboost list``
    summary: ClassVar[str] = ""
    #: the seed's equation numbers this file implements, e.g. "thesis (3.6), (3.10), (3.11)"
    equations: ClassVar[str] = ""
    #: the declared parameters (see :mod:`dualboost.params`)
    params: ClassVar[tuple[Param, ...]] = ()
    capabilities: ClassVar[Capabilities]
    #: the algorithm ``dualboost fit`` runs by default (see :mod:`dualboost.algorithms`)
    default_algorithm: ClassVar[str]

    #: per-example weights s (a formulation supports them by declaring the ``sample_weight``
    #: parameter: caps ``s_n N / (nu sum s)``, docs/theory.md "Sample weights"); None: unit
    sample_weight: ClassVar[np.ndarray | None] = None
    #: parameters the formulation fixes (TotalBoost's nu = 1): each a Param whose range is its
    #: default alone (:func:`dualboost.params.pinned`); not an argument (passing it is the
    #: undeclared-parameter error), set on the instance and reported by ``parameters()``. The
    #: verifier checks the instance at that value and that other values are refused (P1)
    pinned: ClassVar[tuple[Param, ...]] = ()
    #: whether the stop of its algorithm promises a soft margin softmargin(w) >= g - eps_eff
    #: (:mod:`dualboost.guarantee`): True for the thesis's problems, whose value approximates
    #: the soft-margin LP (2.3); False for a problem solved for its own sake at a fixed
    #: parameter (seed 002's losses at a given T or D), whose run then promises nothing about
    #: the soft margin (the verifier's E11 and G1 are not applicable, no empty-guarantee
    #: warning or early stop)
    promises_soft_margin: ClassVar[bool] = True

    def __init__(self, N: int, **params: Any):
        if isinstance(N, bool) or not isinstance(N, (int, np.integer)) or N < 1:
            raise DualBoostInputError(f"N must be a positive integer, got {N!r}")
        self.N = int(N)
        self.values = resolve_params(self.params, self.N, params,
                                     owner=f"formulation {self.name!r}")
        for key, value in self.values.items():
            setattr(self, key, value)
        for p in self.pinned:
            setattr(self, p.name, p.validate(p.default, self.N, self.values))
        self._check()

    def _check(self) -> None:  # noqa: B027 (optional hook, not abstract)
        """Cross-parameter conditions; raise DualBoostInputError."""

    @classmethod
    def standalone_params(cls, U: np.ndarray, **params: Any) -> dict[str, Any]:
        """Parameters a standalone solve on the columns U needs that an algorithm normally sets
        (SoftBoost's edge bound gamma_hat - eps); used by the verifier. ``params`` are the other
        parameters the instance will be built with (nu, d0, ...), which such a value may depend
        on. Default: none."""
        return {}

    def updated(self, **params: Any) -> Formulation:
        """A copy with some parameters changed (algorithms use it for state such as gamma_hat)."""
        given = {k: v for k, v in self.values.items()}
        given.update(params)
        return type(self)(self.N, **given)

    def parameters(self) -> dict:
        """The resolved parameters as plain values (for JSON and reports)."""
        out: dict[str, Any] = {"formulation": self.name, "N": self.N}
        for key, value in self.values.items():
            if isinstance(value, np.ndarray):
                uniform = np.allclose(value, 1.0 / self.N, rtol=0, atol=1e-15)
                out[key] = "uniform" if uniform else value.tolist()
            else:
                out[key] = value
        for p in self.pinned:
            out[p.name] = getattr(self, p.name)
        return out

    # -- helpers ----------------------------------------------------------------------------
    @property
    def cap_vector(self) -> np.ndarray | None:
        """The per-example caps ``s_n N / (nu sum s)`` with sample weights, else None."""
        if self.sample_weight is None:
            return None
        nu = float(getattr(self, "nu", 1.0))
        cached = self.__dict__.get("_cap_vector")
        if cached is None or cached[0] != nu or cached[1] is not self.sample_weight:
            from .params import example_caps

            cached = (nu, self.sample_weight, example_caps(self.N, nu, self.sample_weight))
            self.__dict__["_cap_vector"] = cached
        return cached[2]

    @property
    def cap(self) -> float | np.ndarray:
        """The bound of d: ``1/nu``, or the per-example caps with sample weights."""
        caps = self.cap_vector
        return 1.0 / float(getattr(self, "nu", 1.0)) if caps is None else caps

    @property
    def kind(self) -> str:
        """Solver family for the policy ('lp' or 'exp'), from the declared cones."""
        return self.capabilities.solver_kind

    def check_columns(self, U: np.ndarray, extends: np.ndarray | None = None) -> np.ndarray:
        """Validate a column matrix: N rows, finite entries in [-1, 1].

        Returns a read-only view; passing that view back (a fast master evaluates the same U
        thousands of times per solve) skips the O(N t) scan. ``extends``: the view this call
        returned last, when U is that matrix with columns appended in the same memory (an
        algorithm's column buffer, whose earlier columns are never written again): only the
        new columns are scanned. Anything else is scanned whole."""
        checked = getattr(self, "_checked_columns", None)
        if U is checked and not U.flags.writeable:
            return U
        U = np.asarray(U, dtype=float)
        if U.ndim == 1:
            U = U[:, None]
        if U.ndim != 2 or U.shape[0] != self.N:
            raise DualBoostInputError(f"U must have N = {self.N} rows, got shape {U.shape}")
        known = 0
        if (extends is not None and extends is checked and not extends.flags.writeable
                and extends.shape[1] <= U.shape[1] and extends.strides == U.strides
                and extends.__array_interface__["data"][0] == U.__array_interface__["data"][0]):
            known = extends.shape[1]
        new = U[:, known:]
        if new.size:
            # one pass for each bound; NaN fails both comparisons, +-inf the range
            low, high = float(new.min()), float(new.max())
            if not (low >= -1 - 1e-12 and high <= 1 + 1e-12):
                if not np.all(np.isfinite(new)):
                    raise DualBoostInputError("U has NaN or infinite entries")
                raise DualBoostInputError(
                    f"U entries must lie in [-1, 1], got range [{U.min():g}, {U.max():g}]")
        U = U.view()
        U.flags.writeable = False
        self._checked_columns = U
        #: the view U extends (its first columns are that view's), or None
        self._checked_parent = extends if known else None
        return U

    # -- the declared math ------------------------------------------------------------------
    @abstractmethod
    def primal(self, U: np.ndarray) -> Model:
        """The d-domain problem over the columns U (variables include ``"d"``)."""

    @abstractmethod
    def dual(self, U: np.ndarray) -> Model:
        """The w-domain problem over the columns U (variables include ``"w"``)."""

    @abstractmethod
    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        """P(d) at a primal-feasible d (``inf`` where d is infeasible)."""

    def primal_feasible(self, d: np.ndarray) -> np.ndarray:
        """The nearest exactly feasible primal point (default: d itself)."""
        return np.asarray(d, dtype=float)

    def d_from_dual(self, U: np.ndarray, point: Mapping[str, Any]) -> np.ndarray | None:
        """The primal point determined by a dual point, where one is (strictly convex primal)."""
        return None

    def optimality_relations(self, U: np.ndarray, d: np.ndarray,
                             point: Mapping[str, Any]) -> dict[str, float] | None:
        """The relations the formulation states between an optimal d and an optimal dual point
        (complementary slackness in closed form, a d*-w* map), as named residuals that are 0
        when they hold; None: it states none. The verifier evaluates them at the independently
        solved primal d and dual point (check C6, docs/theory.md)."""
        return None

    # -- derived: the dual objective --------------------------------------------------------
    def dual_objective(self, U: np.ndarray, point: Mapping[str, Any]) -> float:
        """Theta at ``point`` on the dual model's own expression (see the module docstring)."""
        return self.dual_objective_reference(U, point)

    def dual_objective_reference(self, U: np.ndarray, point: Mapping[str, Any]) -> float:
        """The derived Theta: the dual model evaluated at ``point``; missing dual variables are
        maximized with the given ones fixed (one cvxpy solve)."""
        U = self.check_columns(U)
        model = self.dual(U)
        if any(point.get(k) is None for k in model.variables):
            problem = self._solve_dual_fixing(U, point).problem
            return float(problem.value) if problem.value is not None else -math.inf
        for key, variable in model.variables.items():
            variable.value = np.asarray(point[key], dtype=float).reshape(variable.shape)
        for variable in model.problem.variables():
            if variable.value is None:
                raise DualBoostInputError(
                    f"{self.name}: dual model variable {variable.name()!r} is not named in "
                    "Model.variables, so a dual point cannot set it")
        scale = 1.0 + max((np.abs(np.asarray(v.value)).max() for v in model.variables.values()),
                          default=0.0)
        for constraint in model.problem.constraints:
            if constraint.violation() is not None and \
                    np.max(constraint.violation()) > FEASIBILITY_TOL * scale:
                return -math.inf
        for variable in model.variables.values():
            if variable.attributes.get("nonneg") and np.min(variable.value) < \
                    -FEASIBILITY_TOL * scale:
                return -math.inf
        value = model.problem.objective.value
        if value is None or not np.isfinite(value):
            return -math.inf
        return float(value)

    def dual_feasible(self, U: np.ndarray, point: Mapping[str, Any]) -> Multipliers:
        """An exactly feasible dual point near ``point`` (default: clip nonnegative variables)."""
        model = self.dual(U)
        out = Multipliers()
        for key, variable in model.variables.items():
            value = point.get(key)
            if value is None:
                continue
            value = np.array(value, dtype=float)
            if variable.attributes.get("nonneg"):
                value = np.clip(value, 0.0, None)
            out[key] = value
        return out

    # -- derived: best response, certificate, KKT recovery ----------------------------------
    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """For a feasible w: the other dual variables maximized, and the induced bracket."""
        return self.best_response_reference(U, w)

    def _solve_dual_fixing(self, U: np.ndarray, given: Mapping[str, Any]) -> Model:
        """The dual model solved over its variables that ``given`` leaves out (or None), the
        others fixed to their given values; the returned model holds the solution."""
        from .solvers import solve

        model = self.dual(U)
        fixed = [variable == np.asarray(given[key], dtype=float).reshape(variable.shape)
                 for key, variable in model.variables.items() if given.get(key) is not None]
        model.problem = cp.Problem(model.problem.objective, model.problem.constraints + fixed)

        def exact_enough() -> bool:
            # a reduced-accuracy answer is taken when its exact bracket is tight: the dual
            # point made feasible gives Theta, the d it induces (made feasible) the Lagrangian
            # at the fixed w, an upper bound on the inner minimum (weak duality)
            values = model.values()
            if given.get("w") is None or any(values.get(k) is None for k in model.variables):
                return False
            try:
                point = self.dual_feasible(U, values | {"w": given["w"]})
                low = self.dual_objective(U, point)
                d = self.d_from_dual(U, point)
                high = math.inf if d is None else self.lagrangian(U, self.primal_feasible(d),
                                                                  given["w"])
            except Exception:  # noqa: BLE001 - no bracket: not accepted
                return False
            return math.isfinite(low) and math.isfinite(high) and \
                -1e-9 * (1 + abs(low)) <= high - low <= 1e-9 * (1 + abs(low))

        solve(model.problem, self.kind, accept_inaccurate=exact_enough)
        return model

    def lagrangian(self, U: np.ndarray, d: np.ndarray, w: np.ndarray) -> float:
        """L(d, w) = f(d, aux) + w . expr_w(d, aux) on the primal model, its other constraints
        kept: the primal objective plus w times the edge constraint's expression (named "w");
        the edge epigraph variable cancels for sum(w) = 1 and is set to 0. At a feasible d it
        bounds the best response at w from above (weak duality)."""
        model = self.primal(U)
        model.variables["d"].value = np.asarray(d, dtype=float)
        for key, variable in model.variables.items():
            if key != "d":
                variable.value = np.zeros(variable.shape)
        value = model.problem.objective.value
        edge = np.asarray(model.constraints["w"].expr.value, dtype=float).reshape(-1)
        if value is None or not np.all(np.isfinite(edge)):
            return math.inf
        return float(value) + float(np.asarray(w, dtype=float) @ edge)

    def best_response_reference(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """The derived best response: the dual model solved with w fixed (one cvxpy solve).

        By duality this is the inner minimization over d of the Lagrangian at w.
        """
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float).reshape(-1)
        model = self._solve_dual_fixing(U, {"w": w})
        point = self.dual_feasible(U, model.values() | {"w": w})
        d = self.d_from_dual(U, point)
        d = None if d is None else self.primal_feasible(d)
        dual_value = self.dual_objective(U, point)
        primal_value = math.inf if d is None else self.primal_objective(U, d)
        return Certificate(point, d, primal_value, dual_value)

    def certify(self, U: np.ndarray, point: Mapping[str, Any] | np.ndarray,
                d: np.ndarray | None = None) -> Certificate:
        """The exact bracket certified by a solver's dual point and primal d.

        The dual point is made exactly feasible by the formulation (:meth:`dual_feasible`) and,
        where it is better, replaced by the best response to its w; the solver's d is made
        exactly feasible by :meth:`primal_feasible` and replaces the best response's d when its
        value is lower. (A bare array is read as w.)
        """
        if not isinstance(point, Mapping):
            point = {"w": np.asarray(point, dtype=float)}
        # only a point that brings more than w can beat the best response to its w (the filled-in
        # psi = 0 of a bare w cannot): then its own value is evaluated too
        more_than_w = any(v is not None for k, v in point.items() if k != "w")
        point = self.dual_feasible(U, point)
        cert = self.best_response(U, point["w"])
        if more_than_w:
            value = self.dual_objective(U, point)
            if value > cert.dual_value:
                cert = Certificate(point, cert.d, cert.primal_value, value)
        if d is not None:
            d_feasible = self.primal_feasible(np.asarray(d, dtype=float))
            value = self.primal_objective(U, d_feasible)
            if value < cert.primal_value:
                cert.d, cert.primal_value = d_feasible, value
        return cert

    def solve_primal(self, U: np.ndarray, gap_tol: float, *, solver: str | None = None,
                     order: list[str] | None = None) -> tuple[Model, Certificate, object]:
        """Solve the primal through the solver policy and certify it.

        A solve is accepted when its certificate brackets the optimum within ``gap_tol``; a
        certificate with a *negative* gap (Theta > P beyond round-off) is not a solver failure but
        a broken pair: :class:`~dualboost.errors.DualityViolation` names the formulation.
        """
        from .errors import DualityViolation
        from .solvers import solve

        model = self.primal(U)
        accepted: dict[str, Certificate] = {}

        def certify() -> bool:
            values = model.values()
            if values.get("d") is None:
                return False
            cert = self.certify(U, model.multipliers(), values["d"])
            accepted["last"] = cert
            scale = 1.0 + abs(cert.primal_value) + abs(cert.dual_value)
            if cert.gap < -gap_tol * scale:
                raise DualityViolation(
                    f"formulation {self.name!r}: weak duality fails, Theta = "
                    f"{cert.dual_value:.10g} > P = {cert.primal_value:.10g} at a feasible pair "
                    "(its primal and dual models are not a Lagrangian pair; docs/theory.md, "
                    "check D1)", certificate=cert)
            return 0 <= cert.gap + 1e-12 * scale and cert.gap <= gap_tol

        record = solve(model.problem, self.kind, solver=solver, certify=certify, order=order)
        return model, accepted["last"], record

    def recover_dual(self, U: np.ndarray, d: np.ndarray, tol: float = 1e-6,
                     hint: Mapping[str, Any] | None = None) -> KKTRecovery:
        """The multipliers from an optimal d by the active-set linear system (thesis §3.2.4).

        The system is :meth:`kkt_system` at d. With ``hint`` (the master's own multipliers) the
        hint restricted to the active sets read off d is tried first and returned when it
        satisfies the system within ``tol`` (``source == "verified"``); otherwise, and always
        without a hint, the multipliers are solved for from d alone (``"recovered"``).
        """
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        return solve_kkt_system(self.kkt_system(U, d), tol=tol, hint=hint)

    def kkt_system(self, U: np.ndarray, d: np.ndarray) -> KKTSystem:
        """The data of the active-set system at d (:class:`dualboost.kkt.KKTSystem`), from the
        primal model: the objective's gradient and each named constraint's Jacobian (cvxpy
        ``.grad``) at (d, aux), where aux (gamma) is set to its optimal value given d.

        A class may assemble it faster by hand; the verifier compares that with this (K3).
        """
        U = self.check_columns(U)
        model = self.primal(U)
        d = np.asarray(d, dtype=float)
        # entropic gradients are undefined at d_n = 0 (ln 0); a solver's d may hold exact zeros
        # (a d of any sign, seed 002's AdaBoost-QP, is taken as it is)
        variable = model.variables["d"]
        variable.value = np.maximum(d, 1e-300) if variable.attributes.get("nonneg") else d
        self.set_auxiliary(U, model, d)
        return system_from_model(model, row_weights=self.kkt_row_weights(d))

    def set_auxiliary(self, U: np.ndarray, model: Model, d: np.ndarray) -> None:
        """Give the primal model's other variables their optimal values for this d."""
        if "gamma" in model.variables:
            model.variables["gamma"].value = np.asarray(
                (U.T @ d).max() if U.shape[1] else -1.0)

    def kkt_row_weights(self, d: np.ndarray) -> np.ndarray | None:
        """Weights of the stationarity rows of d (None: all 1).

        A strictly convex entropic objective has ln d_n in its gradient, whose error is about
        (error of d_n) / d_n: rows of tiny d_n are weighted by d_n / max d so that solver
        round-off does not dominate the recovered multipliers.
        """
        if self.capabilities.strictly_convex:
            d = np.clip(np.asarray(d, dtype=float), 0.0, None)
            return d / d.max()
        return None

    def fast_master(self):
        """A stateful fast master solver (:class:`dualboost.masters.Master`) for one run, or
        None: the algorithms then use the reference path (a cvxpy model per iteration)."""
        return None

    # -- theory (overrides are compared by the verifier, never trusted) ---------------------
    def theory(self):
        """The declared theory (:class:`dualboost.theory.Theory`) or None."""
        return None
