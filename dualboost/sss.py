"""Seed 001's relaxation family (Shalev-Shwartz & Singer): the base of ``formulations/sss_*.py``.

Seed 001 writes every relaxation as one Fenchel pair (its Theorem 3 with ``g = ||.||_inf``):

    d-domain (this project's *primal*):  min_{d in S^N}  ||U^T d||_inf + F(d)
    w-domain (this project's *dual*):    max_{||w||_1 <= 1}  -F~*(-U w),   F~ = F + I_S

with ``F = f`` (Theorem 7: f convex, (i) min f = 0, (ii) 0 in core dom f, (iii) shrinking a
coordinate of theta never raises f*) or ``F = f + beta h`` (the entropy-smoothed relaxations of
its §5, h(d) = sum d ln d + ln N). Under (i)-(iii) the w-domain objective is the *relaxed margin*
``max_gamma gamma - f*([gamma 1 - U w]_+)`` (Theorem 7), e.g. the average of the nu smallest
margins for the capped simplex (Corollary 5). Seed 001 calls the d-domain problem primal too
(its Theorem 3's right side); its A is this project's U, its m is N, its n is t.

Mapping to the thesis's form (docs/formulations.md, "Seed 001's relaxation family"): the seed's
w is signed with ``||w||_1 <= 1`` and the edges are two-sided (``-t <= U^T d <= t``). Over the
columns [U, -U] (a *reflexive* class, closed under negation, as stumps and signed raw features
are) this is the thesis's problem with w on the simplex: w = w+ - w-. Over U alone the seed's value
is at least the thesis's (the w-domain is larger).

The models name their parts as the contract does (:mod:`dualboost.formulation`): the primal's
epigraph variable of the edges is ``gamma`` (the seed's t); the edge blocks are ``"w"``
(``U^T d <= gamma``, priced by w+ >= 0) and ``"w_neg"`` (``-U^T d <= gamma``, priced by
w- >= 0), so the solver's multipliers arrive split; the normalization is ``"beta"``; a cap
``d <= 1/nu`` is ``"psi"``. The dual models are written in the seed's form with the signed w,
``beta = -gamma`` (the seed's margin gamma) and ``psi`` its hinge vector xi >= gamma 1 - U w. A
dual point holding ``w_neg`` is in the split form and means ``w - w_neg``
(:meth:`SSSRelaxation.signed_w`).

What Figure 1 (seed 001 §3) needs from any relaxation, in terms of the margins ``z = U w`` (so a
corrective algorithm can keep them incrementally; every method below is numpy where the
catalogue gives a closed form, cvxpy otherwise):

* :meth:`SSSRelaxation.penalty` -- F(d) at a distribution d (``+inf`` off its domain), so
  ``P(d) = ||U^T d||_inf + F(d)`` and the smoothed ``P_beta(d) = P(d) + beta h(d)``;
* :meth:`SSSRelaxation.relaxed_margin` -- the w-domain value at w: ``min_{d in S} <z, d> + F(d)``
  (the relaxation's soft margin of w, e.g. AvgMin_nu(z)); a certified lower bound of the optimum;
* :meth:`SSSRelaxation.smoothed_distribution` -- Figure 1's ``d_t``:
  ``argmin_{d in S} <z, d> + F(d) + beta h(d)`` (softmax, the capped entropic projection of
  :mod:`dualboost.projection`, or a cvxpy Bregman-proximal step);
* :meth:`SSSRelaxation.smoothed_value` -- ``D_beta(w)`` and that ``d_t``;
* :func:`entropy` -- h(d).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

import cvxpy as cp
import numpy as np

from .errors import DualBoostInputError
from .formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from .params import Param
from .projection import euclidean_capped_projection, log_sum_exp

__all__ = ["SSSRelaxation", "GeneralRelaxation", "GeneralSmoothedRelaxation", "entropy",
           "softmax", "BETA", "P_NORM", "P_NORM_STRICT", "PENALTY", "golden_max",
           "norm_exponents", "relations_residual"]


#: the smoothing at which C6 compares a closed-form Figure 1 map with the cvxpy prox
SMOOTHED_MAP_CHECK_BETA = 0.05


def entropy(d: np.ndarray) -> float:
    """h(d) = sum_n d_n ln d_n + ln N: the relative entropy to the uniform distribution
    (seed 001 Table 1), 0 <= h <= ln N on the simplex."""
    d = np.clip(np.asarray(d, dtype=float), 0.0, None)
    positive = d > 0
    return float(np.sum(d[positive] * np.log(d[positive])) + math.log(d.shape[0]))


def softmax(x: np.ndarray) -> np.ndarray:
    """exp(x) / sum exp(x), shifted by the max (beta is small: x = -z/beta is large)."""
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max())
    return e / e.sum()


def _beta_default(N: int, values: Mapping[str, Any]) -> float:
    """beta = eps / (2 ln(N/nu)): the smoothing of seed 001 §3.2 (eps/(2 ln N) at nu = 1), which
    makes the smoothing error beta max h = eps/2 over the capped simplex (the thesis's
    eta = 2 ln(N/nu)/eps)."""
    nu = float(values.get("nu") or 1.0)
    eps = float(values.get("eps") or 0.01)
    spread = math.log(N / nu) if N > nu else 0.0
    return eps / (2.0 * spread) if spread > 0 else 1.0


BETA = Param("beta", "entropy smoothing weight: F(d) adds beta h(d), h = KL(d || uniform) "
             "(seed 001 §3.2)", default=_beta_default, low=0, low_open=True,
             default_text="eps / (2 ln(N/nu)) (seed 001 §3.2: smoothing error eps/2)")


def _p_check(value: str, N: int, values: Mapping[str, Any]) -> str | None:
    try:
        p = float(value)
    except ValueError:
        return f"must be a number >= 1 or 'inf', got {value!r}"
    if not p >= 1:
        return f"must be >= 1 (an l_p norm), got {value!r}"
    return None


#: the l_p norm of a ball or a penalty on d; text so that 'inf' is allowed (p = inf)
P_NORM = Param("p", "the l_p norm on d (a number >= 1, or inf); its dual exponent q has "
               "1/p + 1/q = 1", kind="str", default="2", check=_p_check)
PENALTY = Param("weight", "weight of the norm penalty on d (seed 001's nu in Examples 1-2; not "
                "a count)", default=0.5, low=0, low_open=True)


def _strict_p_check(value: str, N: int, values: Mapping[str, Any]) -> str | None:
    message = _p_check(value, N, values)
    if message:
        return message
    p = float(value)
    if not (1.0 < p < math.inf):
        return f"must lie in (1, inf) (||d||_p^2 is then strictly convex), got {value!r}"
    return None


#: p of a squared norm: 1 < p < inf
P_NORM_STRICT = Param("p", "the l_p norm on d, 1 < p < inf (strictly convex square); its dual "
                      "exponent q has 1/p + 1/q = 1", kind="str", default="2",
                      check=_strict_p_check)


def golden_max(function, low: float, high: float, iterations: int = 200) -> float:
    """The maximizer of a concave function of one variable on [low, high] (golden section)."""
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = float(low), float(high)
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = function(c), function(d)
    for _ in range(iterations):
        if b - a <= 1e-15 * (1.0 + abs(a) + abs(b)):
            break
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = function(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = function(d)
    best = max((a, b, c, d), key=function)
    return float(best)


def norm_exponents(p_text: str) -> tuple[float, float]:
    """(p, q) with 1/p + 1/q = 1, inf where infinite."""
    p = float(p_text)
    if math.isinf(p):
        return math.inf, 1.0
    if p == 1.0:
        return 1.0, math.inf
    return p, p / (p - 1.0)


def cones_for(p: float) -> tuple[str, ...]:
    """The cones an l_p norm needs: LP for p in {1, inf}, second-order for 2, power else."""
    if p == 1.0 or math.isinf(p):
        return ("lp",)
    return ("soc",) if p == 2.0 else ("soc", "pow")


def with_norm(f: Formulation, p_text: str) -> None:
    """Set f.p_value, f.q_value and the instance's cones for its norm (the class declares the
    widest: a p = 2 instance is solved as a second-order-cone model, p = 1 or inf as an LP)."""
    from dataclasses import replace

    f.p_value, f.q_value = norm_exponents(p_text)
    f.capabilities = replace(type(f).capabilities, cones=cones_for(f.p_value))


def cvxpy_norm(x, p: float):
    """cp.norm with p = inf or p = 1 spelled as cvxpy wants them."""
    if math.isinf(p):
        return cp.norm(x, "inf")
    return cp.norm(x, 1) if p == 1.0 else cp.norm(x, p)


def numpy_norm(x: np.ndarray, p: float) -> float:
    return float(np.linalg.norm(np.asarray(x, dtype=float), ord=np.inf if math.isinf(p) else p))


def relations_residual(parts: Mapping[str, float]) -> dict[str, float]:
    """The relations as plain floats (a nan is reported as inf: never a silent pass)."""
    return {k: (float(v) if np.isfinite(v) else math.inf) for k, v in parts.items()}


class SSSRelaxation(Formulation):
    """A relaxation of seed 001 as a primal/dual pair (see the module docstring).

    A file declares, beside the contract's ``dual(U)``:

    * ``penalty_model(d)`` -> (cvxpy expression of F(d), {name: constraint}): F's part of the
      primal model (the caps ``"psi"``, a ball ``"lam"``); the base adds the edge blocks and the
      normalization;
    * ``penalty(d)`` (numpy F(d) on the simplex, +inf off its domain) and ``in_domain(d)``;
    * ``relaxed_point(z)`` -> (value, {dual variables but w}, d or None) where the catalogue gives
      the inner minimum in closed form (None: the cvxpy best response);
    * ``relations(U, d, point)``: the catalogue's d*-w* relations as residuals (check C6).
    """

    capabilities = Capabilities(strictly_convex=False, cones=("lp",), primal_form="other",
                                signed_weights=True)
    default_algorithm = "sss"
    #: seed 001's catalogue id (docs/formulations.md): "F2", ...
    catalogue: ClassVar[str] = ""
    #: the dual model's variables (seed form): w signed, psi = xi (the hinges), beta = -gamma
    dual_variables: ClassVar[tuple[str, ...]] = ("w", "beta")
    #: the entropy weight inside F (F7, F8, F9); 0 for the unsmoothed relaxations
    smoothing_weight: ClassVar[str | None] = None

    # -- the relaxation's parts, per file ----------------------------------------------------
    def penalty_model(self, d: cp.Variable) -> tuple:
        """F(d) as a cvxpy expression and its named constraints (default: F = 0); a third
        item may give auxiliary variables {name: (variable, d -> its optimal value)}."""
        return 0, {}

    def penalty(self, d: np.ndarray) -> float:
        """F(d) for d on the simplex; +inf off dom F (default: F = 0)."""
        return 0.0 if self.in_domain(d) else math.inf

    def in_domain(self, d: np.ndarray) -> bool:
        """d (a distribution) lies in dom F, up to round-off (default: everywhere)."""
        return True

    def relaxed_point(self, z: np.ndarray) -> tuple[float, dict, np.ndarray | None] | None:
        """(min_{d in S} <z, d> + F(d), the other dual variables at w, the minimizer d) in
        closed form, or None (the best response is then cvxpy's)."""
        return None

    def relations(self, U: np.ndarray, d: np.ndarray, point: Mapping[str, Any]) -> dict:
        """The catalogue's d*-w* relations at an optimal pair, as residuals (0 when they hold);
        the base gives seed 001 §6's (a)-(c), a file adds its own."""
        return {}

    @property
    def smoothing(self) -> float:
        """beta inside F (0 for the unsmoothed relaxations)."""
        return float(getattr(self, self.smoothing_weight)) if self.smoothing_weight else 0.0

    # -- the Figure 1 API (module docstring) ---------------------------------------------------
    def relaxed_margin(self, z: np.ndarray) -> float:
        """The w-domain objective at margins z = U w: ``min_{d in S} <z, d> + F(d)`` (Theorem 7's
        relaxed margin; AvgMin_nu(z) for the capped simplex). A lower bound of the optimum for
        any w with ||w||_1 <= 1."""
        z = np.asarray(z, dtype=float)
        found = self.relaxed_point(z)
        if found is not None:
            return float(found[0])
        return float(self._inner_by_cvxpy(z, 0.0)[0])

    def smoothed_distribution(self, z: np.ndarray, beta: float) -> np.ndarray:
        """Figure 1's d_t: ``argmin_{d in S} <z, d> + F(d) + beta h(d)`` for beta > 0 (seed 001
        §3.3). Default: the Bregman-proximal step solved by cvxpy (exponential cone)."""
        if not beta > 0:
            raise DualBoostInputError(f"beta must be positive, got {beta!r}")
        return self._inner_by_cvxpy(np.asarray(z, dtype=float), float(beta))[1]

    def smoothed_value(self, z: np.ndarray, beta: float) -> tuple[float, np.ndarray]:
        """(D_beta(w), d_t) at margins z: ``D_beta(w) = <d_t, z> + F(d_t) + beta h(d_t)`` (seed
        001 §3.2, Fenchel-Young with equality at the maximizer)."""
        z = np.asarray(z, dtype=float)
        d = self.smoothed_distribution(z, beta)
        return float(d @ z + self.penalty(d) + beta * entropy(d)), d

    def _inner_by_cvxpy(self, z: np.ndarray, beta: float) -> tuple[float, np.ndarray]:
        from .solvers import solve

        d = cp.Variable(self.N, nonneg=True, name="d")
        expression, blocks, _ = self._penalty_parts(d)
        objective = z @ d + expression
        kind = self.kind
        if beta > 0:
            objective = objective - beta * cp.sum(cp.entr(d)) + beta * math.log(self.N)
            kind = "pow" if kind == "pow" else "exp"
        problem = cp.Problem(cp.Minimize(objective), list(blocks.values()) + [cp.sum(d) == 1])
        solve(problem, kind)
        value = np.clip(np.asarray(d.value, dtype=float), 0.0, None)
        value = value / value.sum()
        return float(problem.value), value

    # -- the models --------------------------------------------------------------------------
    def edge_blocks(self, U: np.ndarray, d, gamma) -> dict[str, cp.Constraint]:
        """The two-sided edge constraints -gamma <= U^T d <= gamma (seed 001 F1), named by the
        split multipliers w+ ("w") and w- ("w_neg")."""
        edges = U.T @ d
        return {"w": edges <= gamma, "w_neg": -edges <= gamma}

    def primal(self, U):
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")
        gamma = cp.Variable(name="gamma")
        constraints: dict[str, cp.Constraint] = {}
        others = []
        if U.shape[1]:
            constraints.update(self.edge_blocks(U, d, gamma))
        else:
            others.append(gamma == 0)  # the sup norm of no edges
        expression, blocks, auxiliary = self._penalty_parts(d)
        constraints.update(blocks)
        constraints["beta"] = cp.sum(d) == 1
        problem = cp.Problem(cp.Minimize(gamma + expression), list(constraints.values()) + others)
        variables = {"d": d, "gamma": gamma}
        variables.update({name: variable for name, (variable, _) in auxiliary.items()})
        return Model(problem, variables, constraints)

    def _penalty_parts(self, d) -> tuple[Any, dict, dict]:
        """penalty_model's (expression, blocks) and its auxiliary variables: a third item
        {name: (variable, function of d giving its optimal value)} (an epigraph, e.g. max d)."""
        found = self.penalty_model(d)
        auxiliary = found[2] if len(found) > 2 else {}
        self._auxiliary_values = {name: value for name, (_, value) in auxiliary.items()}
        return found[0], found[1], auxiliary

    def set_auxiliary(self, U, model, d):
        if "gamma" in model.variables:
            edges = U.T @ np.asarray(d, dtype=float)
            model.variables["gamma"].value = np.asarray(
                float(np.abs(edges).max()) if U.shape[1] else 0.0)
        for name, value in getattr(self, "_auxiliary_values", {}).items():
            if name in model.variables:
                model.variables[name].value = np.asarray(value(np.asarray(d, dtype=float)))

    def primal_objective(self, U, d):
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        if abs(d.sum() - 1) > 1e-7 or d.min() < -1e-7 or not self.in_domain(d):
            return math.inf
        edge = float(np.abs(U.T @ d).max()) if U.shape[1] else 0.0
        return edge + self.penalty(d)

    def penalty_gradient(self, d: np.ndarray) -> np.ndarray | None:
        """grad F(d) in numpy where F is smooth inside the simplex (None: the KKT system is
        derived from the cvxpy model)."""
        return None

    def kkt_system(self, U, d):
        """The active-set system in numpy where F has a numpy gradient and its only block is the
        caps ``psi``: the thesis's soft-margin system (:func:`dualboost.kkt.soft_margin_system`)
        with the edge block split into ``w`` (U^T d - gamma) and ``w_neg`` (-U^T d - gamma),
        gamma = max |U^T d|. Check K3 compares it with the system of the cvxpy model."""
        from .kkt import _LazyBlock, soft_margin_system

        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        gradient = self.penalty_gradient(d)
        _, blocks, auxiliary = self._penalty_parts(cp.Variable(self.N))
        if gradient is None or not U.shape[1] or auxiliary or set(blocks) - {"psi"}:
            return super().kkt_system(U, d)
        system = soft_margin_system(U, d, gradient, float(getattr(self, "nu", 1.0)),
                                    "psi" in blocks, row_weights=self.kkt_row_weights(d))
        t = U.shape[1]
        edges = U.T @ d
        gamma = float(np.abs(edges).max())
        system.blocks = {
            "w": _LazyBlock(lambda: np.vstack([-np.ones((1, t)), U]), edges - gamma,
                            equality=False),
            "w_neg": _LazyBlock(lambda: np.vstack([-np.ones((1, t)), -U]), -edges - gamma,
                                equality=False),
            **{k: v for k, v in system.blocks.items() if k != "w"}}
        system.edge_columns = None  # not the one-sided structure its fast hint check assumes
        return system

    def primal_feasible(self, d):
        """The Euclidean projection onto the simplex (a file with a smaller domain refines it)."""
        return euclidean_capped_projection(np.asarray(d, dtype=float), 1.0)

    # -- dual points ---------------------------------------------------------------------------
    @staticmethod
    def signed_w(point: Mapping[str, Any]) -> np.ndarray:
        """The seed's signed w of a dual point: ``w - w_neg`` for the solver's split
        multipliers of the two edge blocks, else ``w`` itself."""
        w = np.asarray(point["w"], dtype=float).reshape(-1)
        negative = point.get("w_neg")
        if negative is not None:
            w = w - np.asarray(negative, dtype=float).reshape(-1)
        return w

    def dual_feasible(self, U, point):
        """Signed w scaled into the l1 ball; psi >= 0 raised to the hinges [-beta - U w]_+ where
        beta is given (so U w + psi + beta >= 0 holds exactly)."""
        U = self.check_columns(U)
        w = self.signed_w(point)
        size = float(np.abs(w).sum())
        if size > 1.0:
            w = w / size
        out = Multipliers(w=w)
        beta = point.get("beta")
        if "beta" in self.dual_variables and beta is not None:
            out["beta"] = float(np.asarray(beta, dtype=float).reshape(-1)[0])
        if "psi" in self.dual_variables:
            psi = point.get("psi")
            if not self.hinge_psi:  # a free variable (F9's x): kept as given
                if psi is not None:
                    out["psi"] = np.asarray(psi, dtype=float)
                return out
            psi = np.zeros(self.N) if psi is None else np.clip(np.asarray(psi, float), 0.0, None)
            if out.get("beta") is not None:
                psi = np.maximum(psi, -out["beta"] - U @ w)
            out["psi"] = psi
        return out

    #: whether the dual model's psi is the hinge xi >= -beta - U w (False: F9's free x)
    hinge_psi: ClassVar[bool] = True

    def best_response(self, U, w):
        """The closed form of :meth:`relaxed_point` where the file has one (compared with the
        derived cvxpy best response by check C4), else the derived one."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float).reshape(-1)
        found = self.relaxed_point(U @ w)
        if found is None:
            return self.best_response_reference(U, w)
        value, extra, d = found
        point = Multipliers(w=w, **extra)
        if float(np.abs(w).sum()) > 1.0 + 1e-9:
            value = -math.inf  # off the l1 ball: dual_objective's convention
        primal = math.inf if d is None else self.primal_objective(U, d)
        return Certificate(point, d, primal, float(value),
                           edges=None if d is None else U.T @ d)

    def optimality_relations(self, U: np.ndarray, d: np.ndarray,
                             point: Mapping[str, Any]) -> dict[str, float]:
        """Seed 001 §6's relations at an optimal pair (d*, w*) as residuals (check C6):

        (a) d* minimizes <U w*, d> + F(d) over S: ``<U w*, d*> + F(d*) - relaxed_margin(U w*)``;
        (b) w* is aligned with the edges: ``||w*||_1 ||U^T d*||_inf - <U^T d*, w*>``;
        (c) ``<d*, U w*> = ||U^T d*||_inf`` when the optimum is positive (then ||w*||_1 = 1);
        plus the file's own (:meth:`relations`)."""
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        w = self.signed_w(point)
        z = U @ w
        edges = U.T @ d
        top = float(np.abs(edges).max()) if U.shape[1] else 0.0
        inner = self.relaxed_margin(z)
        out = {"(a) d* minimizes <Uw*, d> + F(d)": abs(float(d @ z) + self.penalty(d) - inner),
               "(b) w* aligned with the edges": abs(float(np.abs(w).sum()) * top
                                                     - float(edges @ w))}
        if inner > 1e-6:
            out["(c) <d*, Uw*> = ||U^T d*||_inf"] = abs(float(d @ z) - top)
        if type(self).smoothed_distribution is not SSSRelaxation.smoothed_distribution:
            # Figure 1's map in closed form against its definition (the cvxpy prox) at w* and
            # at a fixed signed w of the l1 ball (w* may be 0 where the data are not separable)
            beta = SMOOTHED_MAP_CHECK_BETA
            other = np.random.default_rng(0).normal(size=U.shape[1])
            worst = 0.0
            for margins in (z, U @ (other / np.abs(other).sum())):
                closed = self.smoothed_distribution(margins, beta)
                worst = max(worst, float(np.max(np.abs(
                    closed - self._inner_by_cvxpy(margins, beta)[1]))))
            out[f"Figure 1 map at beta = {beta:g}: closed form vs cvxpy"] = worst
        out.update(self.relations(U, d, point))
        return relations_residual(out)

    # -- shared by the smoothed files -----------------------------------------------------------
    def entropic_penalty_model(self, d: cp.Variable, beta: float):
        """beta h(d) in cvxpy: beta (sum d ln d + ln N), written with entr for the solvers."""
        return -beta * cp.sum(cp.entr(d)) + beta * math.log(self.N)

    def entropic_penalty(self, d: np.ndarray, beta: float) -> float:
        return beta * entropy(d)

    def log_partition(self, x: np.ndarray) -> float:
        """ln((1/N) sum exp(x)) (the conjugate of h on the simplex, seed 001 App. B)."""
        return log_sum_exp(np.asarray(x, dtype=float)) - math.log(self.N)


# --------------------------------------------------------------------------------------------
# F6 / F9: a user's f with its conjugate, Theorem 7's conditions checked before use
# --------------------------------------------------------------------------------------------

def _split(declared) -> tuple[Any, list]:
    """(expression, constraints) from what f(d) / f_conjugate(x) returned."""
    if isinstance(declared, tuple):
        expression, constraints = declared
        if isinstance(constraints, Mapping):
            constraints = list(constraints.values())
        return expression, list(constraints)
    return declared, []


#: Theorem 7 checks are run once per (class, N, parameters) and remembered
_THEOREM7_ACCEPTED: dict[tuple, bool] = {}


class GeneralRelaxation(SSSRelaxation):
    """Seed 001 F6 (Definition 6 = Theorem 7): ``min_{d in S} ||U^T d||_inf + f(d)`` for a user's
    convex f, paired with ``max_{||w||_1 <= 1, gamma} gamma - f*([gamma 1 - U w]_+)``.

    Subclass it and define, in cvxpy (each may return ``(expression, constraints)`` for a
    domain, e.g. an indicator):

    * ``f(d)``: f on R^N (not only on the simplex);
    * ``f_conjugate(x)``: f*(x) = sup_d <x, d> - f(d) on R^N;

    and ``name``, ``params`` (add :data:`dualboost.params.EPS` for the algorithms) and, for
    cones beyond the power cone, ``capabilities``. Before an instance is accepted, Theorem 7's
    conditions are checked numerically (:meth:`check_theorem7`): (i) min f = 0, (ii) 0 in
    core(dom f) (f finite on small steps along the axes and random directions), (iii)
    f*(theta) >= f*(theta - alpha theta_n e_n) on random samples, and that f_conjugate is f's
    conjugate (a cvxpy sup at random theta, and Fenchel-Young). A failure is a one-line
    DualBoostInputError naming the condition.

    Primal model: ``min gamma + f(d)`` with the edge blocks, f's constraints (named ``f0``, ...)
    and ``sum(d) = 1`` (beta). Dual model (the epigraph form of Theorem 7, exact by (iii)):
    ``max -beta - f*(psi)`` s.t. ``U w + psi + beta >= 0``, ``psi >= 0``, ``||w||_1 <= 1``.
    """

    capabilities = Capabilities(strictly_convex=False, cones=("pow",), signed_weights=True)
    catalogue = "F6"
    dual_variables = ("w", "psi", "beta")

    def f(self, d) -> Any:
        raise NotImplementedError("a GeneralRelaxation subclass defines f(d) in cvxpy")

    def f_conjugate(self, x) -> Any:
        raise NotImplementedError("a GeneralRelaxation subclass defines f_conjugate(x) in cvxpy")

    def _check(self) -> None:
        self.check_theorem7()

    # -- the models ----------------------------------------------------------------------------
    def penalty_model(self, d):
        expression, constraints = _split(self.f(d))
        return expression, {f"f{i}": c for i, c in enumerate(constraints)}

    def penalty(self, d):
        return self._evaluate(self.f, d)

    def in_domain(self, d):
        return math.isfinite(self.penalty(d))

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi")
        beta = cp.Variable(name="beta")
        conjugate, constraints = _split(self.f_conjugate(psi))
        problem = cp.Problem(cp.Maximize(-beta - conjugate),
                             [U @ w + psi + beta >= 0, cp.norm1(w) <= 1] + constraints)
        return Model(problem, {"w": w, "psi": psi, "beta": beta})

    def relations(self, U, d, point):
        z = U @ self.signed_w(point)
        gamma = -float(point["beta"]) if point.get("beta") is not None else None
        if gamma is None:
            return {}
        return {"F6 (Uw*)_n > gamma* => d*_n = 0": float(np.max(
            d * np.maximum(z - gamma, 0.0)))}

    # -- numeric evaluation of the user's declarations -----------------------------------------
    def _evaluate(self, function, point: np.ndarray) -> float:
        """function(x) at a point, +inf where its constraints are violated (beyond 1e-9)."""
        x = cp.Variable(self.N)
        expression, constraints = _split(function(x))
        x.value = np.asarray(point, dtype=float)
        for constraint in constraints:
            violation = constraint.violation()
            if violation is not None and np.max(violation) > 1e-9:
                return math.inf
        value = expression.value if isinstance(expression, cp.Expression) else expression
        value = float(np.asarray(value, dtype=float).reshape(-1)[0])
        return value if not math.isnan(value) else math.inf

    def _extremum(self, function, linear: np.ndarray | None, sense: str) -> float:
        """min f(x) (linear None) or sup_x <linear, x> - f(x), by the solver policy."""
        from .solvers import solve

        x = cp.Variable(self.N)
        expression, constraints = _split(function(x))
        if linear is None:
            problem = cp.Problem(cp.Minimize(expression), constraints)
        else:
            problem = cp.Problem(cp.Maximize(linear @ x - expression), constraints)
        solve(problem, self.kind)
        return float(problem.value)

    def check_theorem7(self, samples: int = 60, seed: int = 0) -> None:
        """Theorem 7's (i)-(iii) and the conjugate pair, numerically (see the class docstring);
        DualBoostInputError naming the first condition that fails."""
        key = (type(self), self.N, repr(sorted(self.values.items())))
        if _THEOREM7_ACCEPTED.get(key):
            return
        owner = f"formulation {self.name!r}"
        rng = np.random.default_rng(seed)
        N = self.N
        # (i) min f = 0
        try:
            smallest = self._extremum(self.f, None, "min")
        except Exception as exc:  # noqa: BLE001 - a solver failure is the condition failing
            raise DualBoostInputError(f"{owner}: Theorem 7 (i) min f = 0 could not be checked: "
                                      f"minimizing f failed ({exc})") from None
        if not abs(smallest) <= 1e-6:
            raise DualBoostInputError(f"{owner}: Theorem 7 (i) fails: min_d f(d) = "
                                      f"{smallest:.6g}, not 0 (seed 001 Theorem 7)")
        # (ii) 0 in core(dom f): a small step along every sampled direction stays in dom f
        axes = rng.choice(N, size=min(N, samples // 2), replace=False)
        directions = [np.eye(1, N, int(i)).ravel() * s for i in axes for s in (1.0, -1.0)]
        directions += [rng.normal(size=N) for _ in range(samples // 4)]
        for v in directions:
            step = 1e-4 * v / max(float(np.abs(v).max()), 1e-300)
            if not math.isfinite(self._evaluate(self.f, step)):
                where = np.flatnonzero(v)[:3].tolist()
                raise DualBoostInputError(f"{owner}: Theorem 7 (ii) fails: 0 is not in "
                                          f"core(dom f) (f(1e-4 v) = inf for v supported on "
                                          f"{where})")
        # (iii) shrinking a coordinate towards 0 never increases f*
        for _ in range(samples):
            theta = rng.normal(scale=rng.choice([0.1, 1.0, 5.0]), size=N)
            if rng.random() < 0.5:
                theta = np.abs(theta)
            n, alpha = int(rng.integers(N)), float(rng.random())
            shrunk = theta.copy()
            shrunk[n] -= alpha * theta[n]
            before = self._evaluate(self.f_conjugate, theta)
            after = self._evaluate(self.f_conjugate, shrunk)
            if math.isfinite(after) and not before >= after - 1e-9 * (1 + abs(after)):
                raise DualBoostInputError(
                    f"{owner}: Theorem 7 (iii) fails: f*(theta) = {before:.6g} < f*(theta - "
                    f"alpha theta_n e_n) = {after:.6g} (n = {n}, alpha = {alpha:.3g})")
        # the pair: f_conjugate is f's conjugate (sup at random theta; Fenchel-Young)
        for scale in (0.01, 0.3, 1.0):
            theta = rng.normal(scale=scale, size=N)
            try:
                sup = self._extremum(self.f, theta, "sup")
            except Exception:  # noqa: BLE001 - unbounded: the conjugate must be inf there
                sup = math.inf
            given = self._evaluate(self.f_conjugate, theta)
            same = (not math.isfinite(sup) and not math.isfinite(given)) or \
                abs(sup - given) <= 1e-5 * (1 + abs(sup))
            if not same:
                raise DualBoostInputError(
                    f"{owner}: f_conjugate is not the conjugate of f: sup_d <theta, d> - f(d) "
                    f"= {sup:.6g} but f_conjugate(theta) = {given:.6g}")
        _THEOREM7_ACCEPTED[key] = True


class GeneralSmoothedRelaxation(GeneralRelaxation):
    """Seed 001 F9 (Eq. 8 for any f): ``min_{d in S} ||U^T d||_inf + f(d) + beta h(d)`` paired
    with ``max_{||w||_1 <= 1, x} -f*(x) - beta (ln sum_n exp(-((U w)_n + x_n)/beta) - ln N)``
    (the inf-convolution of f* with the soft-min, seed 001 §2.4). Declare ``f`` and
    ``f_conjugate`` as for :class:`GeneralRelaxation` (Theorem 7 is checked the same way) and
    add :data:`BETA` to ``params``. The map: d* = softmax(-(U w* + x*)/beta) (checked by C6);
    the dual's free x is named ``psi``.
    """

    capabilities = Capabilities(strictly_convex=True, cones=("exp", "pow"), signed_weights=True)
    catalogue = "F9"
    dual_variables = ("w", "psi")
    smoothing_weight = "beta"
    hinge_psi = False

    def penalty_model(self, d):
        expression, blocks = super().penalty_model(d)[:2]
        return expression + self.entropic_penalty_model(d, self.beta), blocks

    def penalty(self, d):
        value = self._evaluate(self.f, d)
        return value + self.beta * entropy(d) if math.isfinite(value) else math.inf

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], name="w")
        x = cp.Variable(self.N, name="psi")
        conjugate, constraints = _split(self.f_conjugate(x))
        value = -conjugate - self.beta * (cp.log_sum_exp(-(U @ w + x) / self.beta)
                                          - math.log(self.N))
        return Model(cp.Problem(cp.Maximize(value), [cp.norm1(w) <= 1] + constraints),
                     {"w": w, "psi": x})

    def d_from_dual(self, U, point):
        psi = point.get("psi")
        if psi is None:
            return None
        z = self.check_columns(U) @ self.signed_w(point)
        return softmax(-(z + np.asarray(psi, dtype=float)) / self.beta)

    def relations(self, U, d, point):
        psi = point.get("psi")
        if psi is None:
            return {}
        return {"F9 d* = softmax(-(Uw* + x*)/beta)":
                float(np.max(np.abs(d - self.d_from_dual(U, point))))}


# --------------------------------------------------------------------------------------------
# fast masters: the thesis's formulation's over the columns and their negations
# --------------------------------------------------------------------------------------------

def interleaved_negations(U: np.ndarray) -> np.ndarray:
    """[u1, -u1, u2, -u2, ...]: the columns with their negations, in an order whose prefix is
    the previous iteration's (a warm-started master extends its w by the new pair)."""
    U = np.asarray(U, dtype=float)
    out = np.empty((U.shape[0], 2 * U.shape[1]))
    out[:, 0::2], out[:, 1::2] = U, -U
    return out


class ReflexiveMaster:
    """The master of a seed-001 relaxation that is a thesis formulation over the columns and
    their negations, by that formulation's fast master over the interleaved columns
    ``[u1, -u1, u2, -u2, ...]``: F1-F3 are LPBoost (2.3) (HiGHS, identity I8), F7/F8 with beta
    are ERLPBoost with eta = 1/beta and the uniform prior (projected Newton, identities I10,
    I11; h(d) = Delta(d, 1/N)). The signed w is ``w+ - w-``, the split multipliers are the
    inner formulation's, and the bracket is certified by the seed-001 formulation itself
    (``certify``); a solve whose certificate does not close falls back to the reference path.
    The verifier's M1 compares it with the reference path."""

    def __init__(self, formulation: SSSRelaxation, inner: Formulation):
        self.formulation = formulation
        self.inner = inner.fast_master()
        self.path = f"{getattr(self.inner, 'path', inner.name)} over [U, -U]"

    def solve(self, U: np.ndarray, gap_tol: float):
        from .masters import Master, MasterSolve

        f = self.formulation
        U = f.check_columns(U)
        if self.inner is None:
            return Master.reference(self, U, gap_tol, "no fast master of the inner formulation")
        solved = self.inner.solve(interleaved_negations(U), gap_tol)
        pair = np.asarray(solved.certificate.w, dtype=float)
        w = pair[0::2] - pair[1::2]
        cert = f.certify(U, {"w": w}, solved.certificate.d)
        scale = 1.0 + abs(cert.primal_value) + abs(cert.dual_value)
        if not (-1e-12 * scale <= cert.gap <= gap_tol * scale):
            return Master.reference(self, U, gap_tol,
                                    f"the mapped certificate's gap is {cert.gap:.3g}")
        inner = solved.multipliers or {}
        multipliers = {}
        if inner.get("w") is not None:
            split = np.asarray(inner["w"], dtype=float)
            multipliers = {"w": split[0::2], "w_neg": split[1::2]}
            multipliers.update({k: inner[k] for k in ("psi", "beta") if inner.get(k) is not None})
        return MasterSolve(certificate=cert, multipliers=multipliers, solver=solved.solver,
                           status=solved.status, seconds=solved.seconds, path=solved.path)
