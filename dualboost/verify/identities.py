"""The map of identities: which registered formulation is which, checked numerically.

Each :class:`Identity` row states that two registered formulations (``left`` and ``right``) are
the same problem under a parameter mapping, and says how their optima correspond::

    P_right = scale * P_left + shift          (optimal values; scale and shift may depend on
                                               N, the parameters and the left optimum)
    d_right = d_map(d_left)                   (optimal d; default: the same d)
    w_right = w_map(w_left)                   (optimal w, e.g. normalized to the simplex)

``python -m dualboost.verify --identities`` solves both sides independently on every duality case
of the verifier's instances (:mod:`.instances`) and checks three rows per identity and case, all
with the identity's id:

* ``value``: the two certified optima agree under the value map. Each side's solve certifies a
  bracket [Theta, P] of its optimum; the row's value is ``|mid_right - (scale mid_left + shift)|``
  and it passes within ``scaled(tol, ...)`` plus the two (mapped) bracket half-widths.
* ``d``: the left optimum's d, mapped, is optimal for the right problem:
  ``P_right(d_map(d_left)) - Theta_right`` (Theta_right the right solve's certified lower bound),
  or the l1 distance the right's feasibility projection moves the mapped d, if larger.
  It passes within the right bracket's width, |scale| times the left bracket's width and
  ``scaled(tol, ...)``. This holds where the optimal d is not unique (LPs) and, where it is, says
  that the two d agree.
* ``w``: the left optimum's w, mapped (normalized, scaled or extended to the right columns), is
  optimal for the right dual: ``P_right - Theta_right(w_map(w_left))``, with the right dual's
  other variables (psi, beta) maximized for that w by the right formulation's best response;
  same tolerance. w is generally not unique (the instances hold a duplicate column), which is
  why w is compared through the right dual's value and not coordinate by coordinate.

A row naming a formulation that is not registered is reported once as ``n/a`` ("not available",
with the name) instead of being checked: it neither crashes the section nor passes; the tests
require every shipped row to be available. A case whose parameters the left formulation refuses
(e.g. nu = N for the binary entropy) is ``n/a`` with the reason; a right-hand formulation that
refuses the *mapped* parameters fails the row (the mapping is wrong). Cases with sample weights
are skipped unless the row asks for them, and a case that builds the same left problem as an
earlier case of the instance (a row that fixes nu = 1 on the nu = 3.5 case) is not repeated.

Adding a row is a few declarative lines in :data:`IDENTITIES` (see the shipped rows); the table
in docs/formulations.md, "The map of identities", is generated from this list
(``python -m dualboost.verify --identities --markdown``) and a test checks that they agree.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import DualBoostInputError
from ..formulation import Certificate, Formulation
from ..registry import available_formulations, load_formulation
from .checks import FAIL, NA, DualityChecks, Row, StepFailed, _err, guarded, scaled
from .instances import DualityCase, Instance

__all__ = ["Context", "Identity", "IDENTITIES", "ValueMap", "identity_by_id", "markdown_table",
           "identities_of", "run_identities", "same", "signed_to_pair",
           "signed_to_simplex_pair", "simplex",
           "times", "with_negations"]


# -- the context a mapping is a function of -----------------------------------------------------

@dataclass
class Context:
    """What a row's parameter and value maps may read: the case (U, N, nu, eps, d0; d0 is the
    case's prior, uniform when the case has none), and once built/solved, the left formulation,
    its certified optimum, and the right formulation."""

    instance: str
    case: DualityCase
    U: np.ndarray
    N: int
    nu: float
    eps: float
    d0: np.ndarray
    left: Formulation | None = None
    left_cert: Certificate | None = None
    right: Formulation | None = None

    @property
    def left_max_edge(self) -> float:
        """gamma* of the left optimum: the largest edge of its d (its certified d)."""
        d = np.asarray(self.left_cert.d, dtype=float)
        return float((self.U.T @ d).max())


Number = float | Callable[[Context], float]


def _evaluate(value: Number, ctx: Context) -> float:
    return float(value(ctx) if callable(value) else value)


@dataclass(frozen=True)
class ValueMap:
    """``P_right = scale * P_left + shift`` (each a number or a function of the Context)."""

    scale: Number = 1.0
    shift: Number = 0.0

    def __call__(self, ctx: Context) -> tuple[float, float]:
        return _evaluate(self.scale, ctx), _evaluate(self.shift, ctx)


# -- the d and w maps (each: (vector, Context) -> vector) ----------------------------------------

VectorMap = Callable[[np.ndarray, Context], np.ndarray]


def same(x: np.ndarray, ctx: Context) -> np.ndarray:
    """The same vector (d, or an unnormalized w such as SoftBoost's)."""
    return np.asarray(x, dtype=float)


def simplex(w: np.ndarray, ctx: Context) -> np.ndarray:
    """w normalized to sum 1 (the simplex-constrained duals: LPBoost (2.2), thesis (3.12))."""
    w = np.asarray(w, dtype=float)
    return w / w.sum()


def times(factor: Number) -> VectorMap:
    """w multiplied by ``factor`` (a number or a function of the Context), not renormalized."""
    def scaled_vector(x: np.ndarray, ctx: Context) -> np.ndarray:
        return _evaluate(factor, ctx) * np.asarray(x, dtype=float)
    return scaled_vector


def _keep_columns(U: np.ndarray, ctx: Context) -> np.ndarray:
    return U


def with_negations(U: np.ndarray, ctx: Context | None = None) -> np.ndarray:
    """The columns and their negations, ``[U, -U]``: a problem over signed weights with
    ``||w||_1 <= 1`` (max |edge|) is the simplex-weight problem (max edge) over these columns
    (a ``right_columns`` map)."""
    U = np.asarray(U, dtype=float)
    return np.hstack([U, -U])


def signed_to_pair(w: np.ndarray, ctx: Context) -> np.ndarray:
    """Signed weights on U as nonnegative weights on ``[U, -U]`` (a ``w_map`` that goes with
    :func:`with_negations`): ``[max(w, 0), max(-w, 0)]``, l1 norm kept."""
    w = np.asarray(w, dtype=float)
    return np.concatenate([np.maximum(w, 0.0), np.maximum(-w, 0.0)])


def _no_weights(case: DualityCase) -> bool:
    return case.sample_weight is None and not case.signed_only


def _signed_rows(case: DualityCase) -> bool:
    """The cases of seed 001's rows: no sample weights, the signed-weight case included."""
    return case.sample_weight is None


def signed_to_simplex_pair(w: np.ndarray, ctx: Context) -> np.ndarray:
    """Signed weights with ||w||_1 <= 1 on U as a distribution on ``[U, -U]``: the pair
    ``[max(w, 0), max(-w, 0)]`` plus the missing mass (1 - ||w||_1)/2 on column 0 and on its
    negation, which cancel in every margin (seed 001's w = 0 is the thesis's 0.5 h - 0.5 h)."""
    pair = signed_to_pair(w, ctx)
    rest = max(1.0 - float(pair.sum()), 0.0)
    pair[0] += rest / 2
    pair[pair.size // 2] += rest / 2
    return pair / pair.sum()


def _floor_nu(ctx: Context) -> int:
    return max(1, int(math.floor(ctx.nu + 1e-12)))


# -- a row ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Identity:
    """One row of the map: ``left`` with ``left_params`` is ``right`` with ``right_params``.

    Text fields are what docs/formulations.md shows (unicode allowed); ``title`` is the table's
    ASCII block name. ``right_params`` is called after the left problem is solved, so it may read
    ``ctx.left`` (its parameters, e.g. ``ctx.left.eta``) and ``ctx.left_cert`` (its optimum).
    """

    id: str
    title: str                   # ASCII, for the verifier's table: "totalboost = softboost, nu = 1"
    statement: str               # the docs' identity column
    reference: str               # equation numbers (the seeds' and docs/theory.md)
    left: str
    right: str
    left_params: Callable[[Context], dict]
    right_params: Callable[[Context], dict]
    mapping: str                 # the parameter map, in words/symbols
    value: ValueMap = field(default_factory=ValueMap)
    value_text: str = "P′ = P"
    d_map: VectorMap = same
    d_text: str = "same d"
    w_map: VectorMap = simplex
    w_text: str = "same w (simplex)"
    #: the right problem's columns from the left's (default: the same columns); it may change
    #: the number of rows too (the right formulation is built with N = its rows; d_map must
    #: then map to that length)
    right_columns: Callable[[np.ndarray, Context], np.ndarray] = _keep_columns
    #: which duality cases the row runs on (default: those without sample weights)
    when: Callable[[DualityCase], bool] = _no_weights

    def missing(self, registered: Sequence[str] | None = None) -> list[str]:
        """The formulations this row names that are not registered."""
        registered = available_formulations() if registered is None else registered
        return [name for name in dict.fromkeys((self.left, self.right))
                if name not in registered]


def _integer_weights(N: int) -> np.ndarray:
    """Sample weights 1, 2, 3, 1, 2, 3, ... (integers: the rows can be repeated)."""
    return 1.0 + np.arange(N) % 3


def _uniform(ctx: Context) -> np.ndarray:
    return np.full(ctx.N, 1.0 / ctx.N)


def _regularizer_at_uniform(ctx: Context) -> float:
    """(1/eta) R(1/N) of the left (regularized) formulation: its value at the one point of the
    capped simplex at nu = N."""
    return float(ctx.left.regularizer_value(_uniform(ctx))) / float(ctx.left.eta)


#: seed 002's T on the AdaBoost_l1 rows (1/T = 4: the entropy and the edges both matter)
_SHEN_LI_T = 0.25


#: the shipped rows (ids are stable: docs and tests refer to them)
IDENTITIES: list[Identity] = [
    Identity(
        "I1", "totalboost = softboost at nu = 1",
        "`totalboost` ≡ `softboost` at ν = 1",
        "thesis §3.1 (SoftBoost with ν = 1 is TotalBoost), (3.1)–(3.4)",
        "totalboost", "softboost",
        lambda c: {"d0": c.d0},
        lambda c: {"nu": 1.0, "d0": c.left.d0, "edge_bound": c.left.edge_bound},
        "ν = 1; same d⁰ and edge bound c",
        w_map=same, w_text="same w (unnormalized, Lemma 3.1)"),
    Identity(
        "I2", "erlpboost_unnormalized = erlpboost",
        "`erlpboost_unnormalized` ≡ `erlpboost`",
        "thesis §3.2.6, (3.18)–(3.21) vs (3.6), (3.10)",
        "erlpboost_unnormalized", "erlpboost",
        lambda c: {"nu": c.nu, "d0": c.d0, "eps": c.eps},
        lambda c: {"nu": c.left.nu, "d0": c.left.d0, "eta": c.left.eta},
        "same ν, d⁰, η (Δ_U = Δ on the simplex)",
        w_text="same w (simplex); β shifted by 1/η"),
    Identity(
        "I3", "erlpboost, constant sample weights = erlpboost",
        "`erlpboost` with constant sample weights s = k·1 ≡ `erlpboost` with uniform d⁰",
        "docs/theory.md “Sample weights”; thesis (3.6)",
        "erlpboost", "erlpboost",
        lambda c: {"nu": c.nu, "eps": c.eps, "sample_weight": np.full(c.N, 2.5)},
        lambda c: {"nu": c.left.nu, "eta": c.left.eta},
        "s = 2.5·1 ↦ no weights: caps s_n N/(ν Σs) = 1/ν, prior s/Σs = 1/N; same ν, η"),
    Identity(
        "I4", "lpboost, constant sample weights = lpboost",
        "`lpboost` with constant sample weights s = k·1 ≡ `lpboost`",
        "docs/theory.md “Sample weights”; thesis (2.2), (2.3)",
        "lpboost", "lpboost",
        lambda c: {"nu": c.nu, "sample_weight": np.full(c.N, 0.4)},
        lambda c: {"nu": c.left.nu},
        "s = 0.4·1 ↦ no weights; same ν"),
    Identity(
        "I5", "erlpboost at nu = N = lpboost at nu = N",
        "`erlpboost` at ν = N ≡ `lpboost` at ν = N (S_N = {1/N})",
        "thesis (3.6), (2.3): the capped simplex at ν = N is the point 1/N",
        "erlpboost", "lpboost",
        lambda c: {"nu": float(c.N), "eps": c.eps},
        lambda c: {"nu": float(c.N)},
        "ν = N on both sides, uniform d⁰ (the only prior with d⁰ ≤ 1/N), any η",
        value=ValueMap(1.0, lambda c: -_regularizer_at_uniform(c)),
        value_text="P′ = P − R(1/N)/η (= P: R(d⁰) = 0)"),
    Identity(
        "I6", "erlpboost = softboost at c = gamma* (erlpboost's max edge)",
        "`erlpboost` ≡ `softboost` with the edge bound c = γ* (ERLPBoost's optimal max edge)",
        "thesis (3.6) with γ fixed at γ* is (3.1); Lagrangians (3.12), (3.3)",
        "erlpboost", "softboost",
        lambda c: {"nu": c.nu, "d0": c.d0, "eps": c.eps},
        lambda c: {"nu": c.left.nu, "d0": c.left.d0, "edge_bound": c.left_max_edge},
        "same ν, d⁰; c = γ* = max_q (U^T d*)_q of the ERLPBoost optimum",
        value=ValueMap(lambda c: c.left.eta, lambda c: -c.left.eta * c.left_max_edge),
        value_text="P′ = η (P − γ*) (= Δ(d*, d⁰))",
        w_map=times(lambda c: c.left.eta),
        w_text="w′ = η w (SoftBoost's w is unnormalized)"),
    Identity(
        "I7", "erlpboost, integer sample weights = erlpboost on the repeated rows",
        "`erlpboost` with integer sample weights s ≡ `erlpboost` on the rows repeated s_n times",
        "docs/theory.md “Sample weights”, W1; thesis (3.6)",
        "erlpboost", "erlpboost",
        lambda c: {"nu": c.nu, "eps": c.eps, "sample_weight": _integer_weights(c.N)},
        lambda c: {"nu": c.left.nu * _integer_weights(c.N).sum() / c.N, "eta": c.left.eta},
        "N′ = Σs rows (row n s_n times), ν′ = ν Σs/N, uniform d⁰′; prior s/Σs ↦ 1/N′; same η",
        d_map=lambda d, c: np.repeat(d / _integer_weights(c.N), _integer_weights(c.N).astype(int)),
        d_text="d′ = d_n/s_n on each copy of row n",
        right_columns=lambda U, c: np.repeat(U, _integer_weights(c.N).astype(int), axis=0)),
    # -- seed 002 (Shen & Li): the squared hinge, cost-sensitive AdaBoost-l1, the exp loss ---------
    Identity(
        "I31", "lpboost_phinge at p = 2 (squared hinge) = erlpboost_l2 at nu = 1, eta = 2DN",
        "`lpboost_phinge` at p = 2 (the squared hinge (27)) ≡ `erlpboost_l2` at ν = 1",
        "seed 002 (27), (28) at p = 2; thesis (3.6) with R = (N/2)‖d − 1/N‖²",
        "lpboost_phinge", "erlpboost_l2",
        lambda c: {"p": 2.0, "D": 3.0 / c.N, "eps": c.eps},
        lambda c: {"nu": 1.0, "eta": 2.0 * c.left.D * c.N, "eps": c.eps},
        "η = 2DN (η = (pDN)^{q−1}/(q−1) at p = q = 2), ν = 1, uniform d⁰; (27)'s value is "
        "P + 1/(4DN)"),
    Identity(
        "I32", "lpboost_phinge at p = 2 = lpboost_sqhinge, same D",
        "`lpboost_phinge` at p = 2 ≡ `lpboost_sqhinge` (the squared hinge (27)), same D",
        "seed 002 (27), (28) at p = q = 2: c_p = 1/(4D), η = (pDN)^{q−1}/(q−1) = 2DN",
        "lpboost_phinge", "lpboost_sqhinge",
        lambda c: {"p": 2.0, "D": 3.0 / c.N, "eps": c.eps},
        lambda c: {"D": c.left.D, "eps": c.eps},
        "same D (both η = 2DN, ν = 1, uniform d⁰); (27)'s value is P + 1/(4DN) on both"),
    Identity(
        "I33", "lpboost_hinge (D) = lpboost at nu = 1/D",
        "`lpboost_hinge` (the hinge (21)/(22), p = 1) ≡ `lpboost` at ν = 1/D",
        "seed 002 (21), (22): the caps u ≤ D are d ≤ 1/ν; thesis (2.2), (2.3)",
        "lpboost_hinge", "lpboost",
        lambda c: {"D": 1.0 / c.nu, "eps": c.eps},
        lambda c: {"nu": 1.0 / c.left.D, "eps": c.eps},
        "ν = 1/D (D = 1/ν of the case: D ∈ [1/N, 1] is ν ∈ [1, N]); u = d, r = γ, ρ = −β"),
    Identity(
        "I34", "adaboost_l1_cost = erlpboost, nu = 1, eta = 1/T, d0 = c/sum c",
        "`adaboost_l1_cost` (costs c) ≡ `erlpboost` with d⁰ = c/Σc and ν = 1",
        "seed 002 (5), (10), (15) weighted (Sec. 5, [40]); thesis (3.6)",
        "adaboost_l1_cost", "erlpboost",
        lambda c: {"T": 0.25, "c": c.d0 * c.N, "eps": c.eps},
        lambda c: {"nu": 1.0, "eta": 1.0 / c.left.T, "d0": c.left.c / c.left.c.sum()},
        "η = 1/T, ν = 1, d⁰ = c/Σc (c = the case's d⁰ times N); the weighted (5) is "
        "ln Σc − P/T"),
    Identity(
        "I35", "adaboost_exp = erlpboost at nu = 1, eta = 1/T (w; d up to its mass)",
        "`adaboost_exp` (the loss (2), dual (14)) ≡ `erlpboost` at ν = 1, η = 1/T: same w",
        "seed 002 (2), (5), (14), (15); thesis (3.6), (3.10)",
        "adaboost_exp", "erlpboost",
        lambda c: {"T": 0.3, "eps": c.eps},
        lambda c: {"nu": 1.0, "eta": 1.0 / c.left.T, "eps": c.eps},
        "η = 1/T, ν = 1, uniform d⁰; Θ′ = −T ln(1 − Θ/T) is increasing in Θ",
        value=ValueMap(1.0, lambda c: -c.left.T * math.log(
            1.0 - c.left_cert.primal_value / c.left.T) - c.left_cert.primal_value),
        value_text="P′ = −T ln(1 − P/T) (the mean loss L = 1 − P/T)",
        d_map=lambda d, c: np.asarray(d, dtype=float) / float(np.sum(d)),
        d_text="d′ = d/Σd (Σd = L)"),
    Identity(
        "I30", "adaboost_l1 = erlpboost at nu = 1, eta = 1/T",
        "`adaboost_l1` (seed 002 (15) + T ln N) ≡ `erlpboost` at ν = 1, uniform d⁰, η = 1/T",
        "seed 002 (5), (10), (15); thesis (3.6), (3.10): T Σ u ln u = (1/η) Δ(u, 1/N) − T ln N",
        "adaboost_l1", "erlpboost",
        lambda c: {"T": _SHEN_LI_T, "eps": c.eps},
        lambda c: {"nu": 1.0, "eta": 1.0 / c.left.T, "eps": c.eps},
        "ν = 1, d⁰ = 1/N, η = 1/T",
        value_text="P′ = P (= Opt(15) + T ln N; Opt(5) = ln N − P/T)",
        w_text="same w (simplex; = w_(6) = T w_(5))"),
    Identity(
        "I36", "adaboost_l1_ineq = adaboost_l1 with an all-zero column",
        "`adaboost_l1_ineq` (1ᵀw ≤ 1/T) ≡ `adaboost_l1` on the columns [0, U]",
        "seed 002 (5)–(15) (F1b): (15) with r ≥ 0 is (15) with the zero hypothesis added",
        "adaboost_l1_ineq", "adaboost_l1",
        lambda c: {"T": _SHEN_LI_T, "eps": c.eps},
        lambda c: {"T": c.left.T, "eps": c.eps},
        "same T; the zero column's weight is the unused budget 1 − Σw",
        w_map=lambda w, c: np.concatenate([[1.0 - float(np.sum(w))], np.asarray(w, float)]),
        w_text="w′ = [1 − Σw, w]",
        right_columns=lambda U, c: np.hstack([np.zeros((U.shape[0], 1)), U])),
    # -- seed 001's relaxation family (formulations/sss_*.py): signed w, ||w||_1 <= 1 ----------
    Identity(
        "I8", "sss_soft_margin = lpboost over [U, -U]",
        "`sss_soft_margin` ≡ `lpboost` over the columns and their negations [U, −U]",
        "seed 001 Eq. 2, Eq. 6, Corollary 5 (its cap is 1/ν); thesis (2.2), (2.3)",
        "sss_soft_margin", "lpboost",
        lambda c: {"nu": c.nu, "eps": c.eps},
        lambda c: {"nu": c.left.nu},
        "same ν (a count; seed 001's cap ν′ = 1/ν); columns [U, −U]",
        w_map=signed_to_simplex_pair,
        w_text="w′ = [w₊, w₋] (+ cancelling mass (1 − ‖w‖₁)/2 on ±u¹)",
        right_columns=with_negations, when=_signed_rows),
    Identity(
        "I9", "sss_topk = sss_soft_margin at nu = k",
        "`sss_topk` (k) ≡ `sss_soft_margin` at ν = k",
        "seed 001 Corollary 5: AvgMin_k = the hinge soft margin with the cap 1/k",
        "sss_topk", "sss_soft_margin",
        lambda c: {"k": _floor_nu(c), "eps": c.eps},
        lambda c: {"nu": float(c.left.k)},
        "k = ⌊ν⌋ of the case; ν′ = k (seed 001: ν = 1/k)",
        w_map=same, w_text="same signed w", when=_signed_rows),
    Identity(
        "I10", "sss_smoothed_soft = erlpboost at eta = 1/beta over [U, -U]",
        "`sss_smoothed_soft` (ν, β) ≡ `erlpboost` (ν, η = 1/β, uniform d⁰) over [U, −U]",
        "seed 001 catalogue F8 (R5-cap), Eq. 8; thesis (3.6), (3.10)",
        "sss_smoothed_soft", "erlpboost",
        lambda c: {"nu": c.nu, "eps": c.eps},
        lambda c: {"nu": c.left.nu, "eta": 1.0 / c.left.beta},
        "same ν, η = 1/β, d⁰ uniform; columns [U, −U]",
        value_text="P′ = P (h = Δ(d, 1/N) includes ln N; Σ d ln d alone would shift by β ln N)",
        w_map=signed_to_simplex_pair, w_text="w′ = [w₊, w₋] (+ cancelling mass)",
        right_columns=with_negations, when=_signed_rows),
    Identity(
        "I11", "sss_smoothed_hard = erlpboost at nu = 1, eta = 1/beta over [U, -U]",
        "`sss_smoothed_hard` (β) ≡ `erlpboost` (ν = 1, η = 1/β, uniform d⁰) over [U, −U]",
        "seed 001 catalogue F7 (R4), §5.1; thesis (3.6), (3.10)",
        "sss_smoothed_hard", "erlpboost",
        lambda c: {"eps": c.eps},
        lambda c: {"nu": 1.0, "eta": 1.0 / c.left.beta},
        "ν = 1, η = 1/β, d⁰ uniform; columns [U, −U]",
        w_map=signed_to_simplex_pair, w_text="w′ = [w₊, w₋] (+ cancelling mass)",
        right_columns=with_negations, when=_signed_rows),
    Identity(
        "I12", "sss_norm_ball at p = inf = sss_soft_margin",
        "`sss_norm_ball` at p = ∞ ≡ `sss_soft_margin` (same ν)",
        "seed 001 Example 1, catalogue F4 (p = ∞ is F2)",
        "sss_norm_ball", "sss_soft_margin",
        lambda c: {"p": "inf", "nu": c.nu, "eps": c.eps},
        lambda c: {"nu": c.left.nu},
        "p = ∞: the radius ν^(1/p − 1) = 1/ν is the cap",
        w_map=same, w_text="same signed w", when=_signed_rows),
    Identity(
        "I13", "sss_hard_margin + weight = sss_norm_penalty at p = 1",
        "`sss_hard_margin` plus the weight ≡ `sss_norm_penalty` at p = 1",
        "seed 001 Example 2, catalogue F5 (R3-ℓ1: ‖d‖₁ = 1 on the simplex)",
        "sss_hard_margin", "sss_norm_penalty",
        lambda c: {"eps": c.eps},
        lambda c: {"p": "1", "weight": 0.3, "eps": c.eps},
        "no penalty ↦ p = 1, weight 0.3",
        value=ValueMap(1.0, 0.3), value_text="P′ = P + weight",
        w_map=same, w_text="same signed w", when=_signed_rows),
]


def identity_by_id(identity_id: str) -> Identity:
    for row in IDENTITIES:
        if row.id == identity_id:
            return row
    raise DualBoostInputError(f"unknown identity {identity_id!r}; choose from "
                              f"{', '.join(r.id for r in IDENTITIES)}")


# -- checking one row on one case ----------------------------------------------------------------

def _with_standalone(cls: type[Formulation], U: np.ndarray, params: dict) -> dict:
    """The row's parameters plus what a standalone solve needs that it does not give (SoftBoost's
    edge bound), as the verifier builds a formulation for a duality case."""
    extra = cls.standalone_params(U, **params) or {}
    return {**{k: v for k, v in extra.items() if k not in params}, **params}


def _fingerprint(U: np.ndarray, f: Formulation) -> str:
    digest = hashlib.sha1(np.ascontiguousarray(U).tobytes())
    for key, value in sorted(f.parameters().items()):
        digest.update(repr(key).encode())
        digest.update(np.asarray(value).tobytes() if isinstance(value, (list, np.ndarray))
                      else repr(value).encode())
    return digest.hexdigest()


#: the three rows' labels (short name before ": ", then what the value measures; l = left,
#: r = right, Theta_r the right's certified lower bound or its dual at the mapped w)
LABELS = {"value": "optimal value: |P_r - (scale P_l + shift)| <= tol",
          "d": "optimal d: P_r(d_map(d_l)) - Theta_r <= tol",
          "w": "optimal w: P_r - Theta_r(w_map(w_l)) <= tol"}


def _label(what: str, identity: Identity) -> str:
    return LABELS[what]


def _bracket(cert: Certificate) -> tuple[float, float]:
    return float(cert.dual_value), float(cert.primal_value)


def value_row(identity: Identity, ctx: Context, left: Certificate, right: Certificate,
              tol: float) -> tuple[float, float, bool, str]:
    scale, shift = identity.value(ctx)
    lo_l, hi_l = _bracket(left)
    lo_r, hi_r = _bracket(right)
    mapped = sorted((scale * lo_l + shift, scale * hi_l + shift))
    mid_r, mid_m = 0.5 * (lo_r + hi_r), 0.5 * (mapped[0] + mapped[1])
    value = abs(mid_r - mid_m)
    tolerance = scaled(tol, mid_r, mid_m, shift) + 0.5 * (hi_r - lo_r) + 0.5 * (mapped[1] -
                                                                               mapped[0])
    if not all(math.isfinite(x) for x in (value, tolerance)):
        return value, tolerance, False, (f"a bracket is not finite: left [{lo_l}, {hi_l}], "
                                         f"right [{lo_r}, {hi_r}]")
    detail = (f"P_right in [{lo_r:.10g}, {hi_r:.10g}], scale P_left + shift in "
              f"[{mapped[0]:.10g}, {mapped[1]:.10g}] (scale = {scale:.6g}, shift = {shift:.6g})")
    return value, tolerance, value <= tolerance, detail


def _cross_tolerance(tol: float, ctx: Context, left: Certificate, right: Certificate,
                     identity: Identity, *magnitudes: float) -> float:
    scale, _ = identity.value(ctx)
    width_r = max(right.primal_value - right.dual_value, 0.0)
    width_l = max(left.primal_value - left.dual_value, 0.0)
    return scaled(tol, right.primal_value, *magnitudes) + width_r + abs(scale) * width_l


def d_row(identity: Identity, ctx: Context, U_right: np.ndarray, left: Certificate,
          right: Certificate, tol: float) -> tuple[float, float, bool, str]:
    f = ctx.right
    mapped = np.asarray(identity.d_map(np.asarray(left.d, dtype=float), ctx), dtype=float)
    if mapped.shape != (f.N,):
        return None, None, False, (f"d_map gives shape {mapped.shape}, the right problem has "
                                   f"N = {f.N}")
    # the solver's d is feasible up to round-off: the right's own projection removes that, and
    # how far it moves the mapped d is part of the value (a map that leaves the feasible set
    # must not be projected back onto it silently, e.g. onto the one point of S_N at nu = N)
    feasible = np.asarray(f.primal_feasible(mapped), dtype=float)
    moved = float(np.abs(feasible - mapped).sum())
    value_at = float(f.primal_objective(U_right, feasible))
    value = max(value_at - float(right.dual_value), moved)
    tolerance = _cross_tolerance(tol, ctx, left, right, identity, value_at)
    distance = ""
    if right.d is not None:
        distance = f"; max |d_map(d_left) - d_right| = {np.abs(mapped - right.d).max():.3g}"
    detail = (f"P_right(d_map(d_left)) = {value_at:.10g}, certified optimum in "
              f"[{right.dual_value:.10g}, {right.primal_value:.10g}]; the right's feasibility "
              f"projection moves d_map(d_left) by {moved:.3g} (l1){distance}")
    if not math.isfinite(value):
        return None, tolerance, False, detail + " (the mapped d is infeasible for the right)"
    return value, tolerance, value <= tolerance, detail


def w_row(identity: Identity, ctx: Context, U_right: np.ndarray, left: Certificate,
          right: Certificate, tol: float) -> tuple[float, float, bool, str]:
    f = ctx.right
    w_left = np.asarray(left.point["w"], dtype=float).reshape(-1)
    mapped = np.asarray(identity.w_map(w_left, ctx), dtype=float).reshape(-1)
    if mapped.shape != (U_right.shape[1],):
        return None, None, False, (f"w_map gives {mapped.size} weights, the right problem has "
                                   f"{U_right.shape[1]} columns")
    theta = float(f.best_response(U_right, mapped).dual_value)
    value = float(right.primal_value) - theta
    tolerance = _cross_tolerance(tol, ctx, left, right, identity, theta)
    detail = (f"Theta_right(w_map(w_left)) = {theta:.10g}, certified optimum in "
              f"[{right.dual_value:.10g}, {right.primal_value:.10g}]; sum w_map(w_left) = "
              f"{mapped.sum():.6g}")
    if not math.isfinite(value):
        return None, tolerance, False, detail + " (the mapped w is infeasible for the right dual)"
    return value, tolerance, value <= tolerance, detail


def _solve(f: Formulation, U: np.ndarray, tol: float, solver: str | None,
           log: Callable[[str], None]) -> tuple[Certificate | None, list[Row]]:
    """The certified optimum of f on U (the verifier's primal solve: accepted at gap tol/100,
    else the best certificate), or None and the rows saying why."""
    checks = DualityChecks(f, U, tol, solver, log=log)
    try:
        cert = checks.certificate()
    except StepFailed as exc:
        rows = checks.solver_rows or [Row("solver", f"the {f.name} solve", "-", None, None,
                                          exc.status, str(exc))]
        return None, rows
    return cert, checks.solver_rows


@dataclass
class _Block:
    meta: dict
    rows: list[Row]


def check_case(identity: Identity, instance: str, case: DualityCase, tol: float,
               solver: str | None, log: Callable[[str], None],
               seen: set[str] | None = None,
               classes: dict[str, type[Formulation]] | None = None) -> _Block | None:
    """The three rows of one identity on one duality case (None: a repeat of an earlier case).
    ``classes`` puts a class in place of the registered one of its name (a file under test)."""
    U = np.asarray(case.U, dtype=float)
    N = U.shape[0]
    d0 = _uniform_array(N) if case.d0 is None else np.asarray(case.d0, dtype=float)
    ctx = Context(instance, case, U, N, float(case.nu), float(case.eps), d0)
    meta = {"instance": instance, "case": case.name, "kind": "identity",
            "formulation": block_name(identity), "N": int(N), "t": int(U.shape[1]),
            "nu": float(case.nu), "eps": float(case.eps), "eta": None, "d0_uniform":
            case.d0 is None, "seed": case.seed, "caps_bind": None, "algorithm": None,
            "status": "ok", "reason": "", "identity": identity.id, "left": identity.left,
            "right": identity.right, "left_params": None, "right_params": None}
    reference = identity.reference
    labels = {what: _label(what, identity) for what in ("value", "d", "w")}

    def rows_all(status: str, detail: str) -> list[Row]:
        return [Row(identity.id, labels[what], reference, None, None, status, detail)
                for what in ("value", "d", "w")]

    try:
        left_cls = (classes or {}).get(identity.left) or load_formulation(identity.left)
        right_cls = (classes or {}).get(identity.right) or load_formulation(identity.right)
    except Exception as exc:  # noqa: BLE001
        meta["status"], meta["reason"] = "error", _err(exc)
        return _Block(meta, rows_all(FAIL, f"loading the formulations raised {_err(exc)}"))
    try:
        ctx.left = left_cls(N, **_with_standalone(left_cls, U, identity.left_params(ctx)))
    except DualBoostInputError as exc:
        meta["status"], meta["reason"] = "n/a", str(exc)
        return _Block(meta, [Row("setup", f"{identity.left} accepts this case's parameters",
                                 "-", None, None, NA, f"n/a: {exc}")])
    except Exception as exc:  # noqa: BLE001
        meta["status"], meta["reason"] = "error", _err(exc)
        return _Block(meta, rows_all(FAIL, f"building {identity.left} raised {_err(exc)}"))
    if seen is not None:
        key = _fingerprint(U, ctx.left)
        if key in seen:
            return None
        seen.add(key)
    meta["left_params"] = _shown(ctx.left)
    prefix = f"{instance} | {case.name} | {identity.id}"
    log(f"{prefix}: solving {identity.left} (left)")
    left_cert, problems = _solve(ctx.left, U, tol, solver, lambda s: log(f"{prefix}: {s}"))
    if left_cert is None:
        meta["status"], meta["reason"] = "error", f"the {identity.left} solve failed"
        return _Block(meta, problems + rows_all(NA, f"n/a: no certified {identity.left} optimum"))
    ctx.left_cert = left_cert
    U_right = np.asarray(identity.right_columns(U, ctx), dtype=float)
    try:
        params = identity.right_params(ctx)
        ctx.right = right_cls(U_right.shape[0], **_with_standalone(right_cls, U_right, params))
    except Exception as exc:  # noqa: BLE001 - a mapping the right formulation refuses is wrong
        meta["status"], meta["reason"] = "error", _err(exc)
        return _Block(meta, problems + rows_all(
            FAIL, f"the mapped parameters build no {identity.right}: {_err(exc)}"))
    meta["right_params"] = _shown(ctx.right)
    log(f"{prefix}: solving {identity.right} (right)")
    right_cert, more = _solve(ctx.right, U_right, tol, solver, lambda s: log(f"{prefix}: {s}"))
    problems += more
    if right_cert is None:
        meta["status"], meta["reason"] = "error", f"the {identity.right} solve failed"
        return _Block(meta, problems + rows_all(NA,
                                                f"n/a: no certified {identity.right} optimum"))
    rows = [
        guarded(identity.id, labels["value"], reference,
                 lambda: value_row(identity, ctx, left_cert, right_cert, tol)),
        guarded(identity.id, labels["d"], reference,
                 lambda: d_row(identity, ctx, U_right, left_cert, right_cert, tol)),
        guarded(identity.id, labels["w"], reference,
                 lambda: w_row(identity, ctx, U_right, left_cert, right_cert, tol)),
    ]
    return _Block(meta, problems + rows)


def _uniform_array(N: int) -> np.ndarray:
    return np.full(N, 1.0 / N)


def _shown(f: Formulation) -> dict:
    """The formulation's parameters for the JSON and the block header (short vectors named)."""
    out = {}
    for key, value in f.parameters().items():
        if key in ("formulation", "N"):
            continue
        if isinstance(value, list):
            value = "given" if key != "sample_weight" else "given weights"
        out[key] = value
    return out


def block_name(identity: Identity) -> str:
    return f"{identity.id}: {identity.title}"


def run_identities(instances: list[Instance], tol: float = 1e-6, solver: str | None = None,
                   log: Callable[[str], None] | None = None,
                   select: Sequence[str] | None = None,
                   rows: Sequence[Identity] | None = None,
                   classes: dict[str, type[Formulation]] | None = None,
                   ) -> tuple[list[Row], list[dict]]:
    """Every identity row (or the ids in ``select``) on every duality case of ``instances``;
    returns (rows, per-case metadata) in the verifier's format. ``rows`` replaces the shipped
    list (the tests check deliberately wrong mappings this way); ``classes`` replaces registered
    formulations by name (a file verified with ``--formulation`` under a registered name)."""
    log = log or (lambda message: None)
    table = list(IDENTITIES if rows is None else rows)
    chosen = [r for r in table if r.id in set(select)] if select else table
    result: list[Row] = []
    registered = available_formulations()
    cases: list[dict] = []
    for identity in chosen:
        missing = identity.missing(registered)
        if missing:
            names = ", ".join(repr(m) for m in missing)
            cases.append({"instance": "identities", "case": "not available", "kind": "identity",
                          "formulation": block_name(identity), "N": None, "t": None,
                          "nu": None, "eps": None, "eta": None, "d0_uniform": None, "seed": None,
                          "caps_bind": None, "algorithm": None, "status": "n/a",
                          "reason": f"not registered: {names}", "identity": identity.id,
                          "left": identity.left, "right": identity.right,
                          "left_params": None, "right_params": None})
            row = Row(identity.id, f"not available: {identity.statement}", identity.reference,
                      None, None, NA, f"n/a: not available: formulation {names} is not "
                      "registered (see dualboost list); this identity is not checked")
            row.instance, row.case, row.formulation = "identities", "not available", \
                block_name(identity)
            result.append(row)
            continue
        for instance in instances:
            seen: set[str] = set()
            for case in instance.cases:
                if not identity.when(case):
                    continue
                block = check_case(identity, instance.name, case, tol, solver, log, seen,
                                   classes)
                if block is None:
                    continue
                for row in block.rows:
                    row.instance, row.case, row.formulation = instance.name, case.name, \
                        block_name(identity)
                cases.append(block.meta)
                result += block.rows
    return result, cases


def identities_of(name: str, cls: type[Formulation] | None = None) -> list[Identity]:
    """The shipped identities that name formulation ``name`` on either side: what the member
    states it is (TotalBoost is SoftBoost at nu = 1), checked whenever the member is verified
    on its own, so that a pin or a parameter map that contradicts them fails a row.

    With ``cls``, each parameter the class pins (``pinned``, e.g. TotalBoost's nu) is carried
    to the other side at the class's own pinned value: the identity then holds only if the pin
    is the value the identity states (TotalBoost pinned at nu = 2 is compared with SoftBoost at
    nu = 2, which caps d at 1/2, and fails where that cap binds)."""
    out = []
    pins = {p.name: float(p.default) for p in getattr(cls, "pinned", ())} if cls else {}
    for identity in IDENTITIES:
        if name not in (identity.left, identity.right):
            continue
        if pins and identity.left == name:
            identity = replace(identity, right_params=_carry_pins(identity, pins))
        out.append(identity)
    return out


class PinContradiction(ValueError):
    """A member's pinned value is not the one the identity it states maps it to."""


def _carry_pins(identity: Identity, pins: dict[str, float]):
    """The identity's right parameters with each of the left member's pinned values in place
    of the value the identity states; a pin that differs from the stated value is refused (the
    identity's three rows then FAIL with the reason)."""
    def carried(ctx: Context) -> dict:
        out = dict(identity.right_params(ctx))
        for pin, value in pins.items():
            if pin in out and np.ndim(out[pin]) == 0 and not np.isclose(float(out[pin]), value):
                raise PinContradiction(
                    f"{identity.left} pins {pin} = {value:g}, but {identity.id} states "
                    f"{identity.statement} ({identity.mapping}): the pin contradicts the "
                    "identity (docs/formulations.md)")
            if pin in out:
                out[pin] = value
        return out
    return carried


def header_facts(meta: dict) -> list[str]:
    """The block header's mapping line: the two formulations with their parameters."""
    facts = []
    for side in ("left", "right"):
        params = meta.get(f"{side}_params")
        if params is None:
            continue
        shown = ", ".join(f"{k}={_short(v)}" for k, v in params.items() if v is not None)
        facts.append(f"{side} {meta[side]}({shown})")
    return facts


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


# -- the docs table ------------------------------------------------------------------------------

TABLE_HEADER = ("| id | identity | source | parameter map | optimal value | optimal d | "
                "optimal w |\n|---|---|---|---|---|---|---|")


def markdown_table(rows: Sequence[Identity] | None = None) -> str:
    """The table of docs/formulations.md, "The map of identities" (P = left value, P′ = right)."""
    lines = [TABLE_HEADER]
    for r in IDENTITIES if rows is None else rows:
        cells = (r.id, r.statement, r.reference, r.mapping, r.value_text, r.d_text, r.w_text)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)
