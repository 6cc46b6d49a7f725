"""What the stop of a finished run promises, and whether that promise is empty.

Every algorithm here stops with a certified guarantee on the soft margin (2.2) of its output w:

    softmargin_nu(w) >= g - eps_eff,     g <= gamma_hat = min_t u^t . d_t,

where g is the best soft margin over the whole hypothesis class (the LP (2.3) optimum over all
hypotheses) and gamma_hat the smallest best edge the oracle returned (each best edge at a capped
distribution d_t is an upper bound on g by weak duality of (2.2)/(2.3); docs/theory.md L5).
The certified form is ``softmargin(w) >= gamma_hat - eps_eff`` (docs/theory.md L5, E11, S7):

* ``lpboost`` (thesis Alg. 2.1) and ``softboost`` (Alg. 3.1, Thm 3.2): eps_eff = eps.
* ``erlpboost`` (Alg. 3.2, the regularized family): eps_eff = eps/2 + B/eta. The stop gives
  delta <= eps/2 and the regularizer (1/eta) R(d) costs at most B/eta on the capped simplex
  (0 <= R <= B), so g - softmargin(w) <= eps/2 + B/eta (docs/theory.md T1, E11). With the
  default eta = max(2B/eps, sigma/2) this is <= eps (thesis Thm 3.10); a smaller eta given by
  the user widens it (``--eta 1e-8``: B/eta ~ 1e8).
* any other algorithm: eps_eff = eps (the guarantee its stopping rule is stated with).
* a formulation that declares ``promises_soft_margin = False`` (seed 002's losses solved at a
  fixed T or D for their own sake): no promise, eps_eff = inf; never "empty" (nothing was
  promised), and the verifier's E11 and G1 are not applicable.

The guarantee is **empty** when eps_eff >= gamma_hat: then g - eps_eff <= gamma_hat - eps_eff
<= 0, and a soft margin of 0 is met by the cancelling pair 0.5 h - 0.5 h of any class closed
under negation (stumps, raw features): the run certifies nothing a trivial combination lacks.
(Whether g - eps_eff > 0 cannot be certified from the run alone, only g in
[softmargin(w), gamma_hat]; "empty" is said only when it is certain.)

A fit is **degenerate** when its combined hypothesis f = sum_q w_q h_q vanishes within round-off
on most training examples: |f(x_n)| <= ROUNDOFF * sum_q |w_q| max_n |h_q(x_n)| (the largest
value f can take, 1 for normalized weights and +-1 hypotheses; ROUNDOFF is the tie tolerance
of predictions, :data:`dualboost.model_io.TIE_TOLERANCE`) on more than DEGENERATE_FRACTION of
them. Those scores are rounding noise: their sign is not the model's, and predictions send them
to the tie class. LPBoost's LP (2.3) at an optimum of 0 is solved by such cancelling weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .result import TIE_TOLERANCE

__all__ = ["DEGENERATE_FRACTION", "Guarantee", "ROUNDOFF", "roundoff_fraction",
           "run_guarantee", "smallest_edge", "stop_rule", "training_margins"]

#: relative round-off level of the combined hypothesis (the tie tolerance of predictions)
ROUNDOFF = TIE_TOLERANCE
#: "most" training examples: more than this fraction
DEGENERATE_FRACTION = 0.5


@dataclass(frozen=True)
class Guarantee:
    """The promise ``softmargin(w) >= g - eps_eff`` of a run, with its parts (module docstring).

    ``stop_part`` is what the stopping rule leaves (eps, or eps/2 for ``erlpboost``),
    ``regularizer_cost`` B/eta (0 outside the regularized family), ``eta_theory`` the default
    max(2B/eps, sigma/2) of thesis Thm 3.10 / docs/theory.md T1 (None outside the family).
    """

    algorithm: str
    eps: float
    stop_part: float
    regularizer_cost: float = 0.0
    range_bound: float | None = None
    eta: float | None = None
    eta_theory: float | None = None
    modulus: float | None = None
    gamma_hat: float | None = None
    #: False: the formulation promises no soft margin (eps_eff = inf, never vacuous)
    promised: bool = True

    @property
    def eps_effective(self) -> float:
        if not self.promised:
            return math.inf
        return self.stop_part + self.regularizer_cost

    @property
    def regularized(self) -> bool:
        return self.range_bound is not None and self.eta is not None

    @property
    def vacuous(self) -> bool:
        """eps_eff >= gamma_hat: the guarantee is certainly <= 0 (never when none was made)."""
        return (self.promised and self.gamma_hat is not None
                and self.eps_effective >= self.gamma_hat)

    @property
    def eta_below_theory(self) -> bool:
        """eta below the theory's default (given by the user): the regularizer may cost more
        than eps/2 (T1 fails)."""
        return (self.regularized and self.eta_theory is not None
                and self.eta < self.eta_theory * (1.0 - 1e-9))

    def with_eta(self, eta: float) -> float:
        """eps_eff had eta been ``eta`` (same eps)."""
        return self.stop_part + (self.range_bound / eta if self.regularized else 0.0)


def smallest_edge(result: Any) -> float | None:
    """gamma_hat = min_t edge^t over the run's history (None without a history)."""
    edges = [float(r.edge) for r in getattr(result, "history", []) or []
             if r.edge is not None and np.isfinite(r.edge)]
    return min(edges) if edges else None


def training_margins(result: Any) -> np.ndarray:
    """(U w)_n = y_n f(x_n), the margins of the output combination on the training examples."""
    weights = np.asarray(result.weights, dtype=float)
    columns = np.asarray(result.columns, dtype=float)
    if weights.size == 0 or columns.size == 0:
        return np.zeros(0)
    return columns @ weights


def roundoff_fraction(result: Any) -> float:
    """The fraction of training examples with |f(x_n)| <= ROUNDOFF * sum_q |w_q| max|h_q|
    (0 when the run kept no hypothesis)."""
    weights = np.asarray(result.weights, dtype=float)
    columns = np.asarray(result.columns, dtype=float)
    if weights.size == 0 or columns.size == 0:
        return 0.0
    scale = float(np.abs(weights) @ np.max(np.abs(columns), axis=0))
    return float(np.mean(np.abs(columns @ weights) <= ROUNDOFF * scale))


def _regularizer_constants(formulation: Any) -> tuple[float, float] | None:
    """(B, sigma) of a regularized formulation instance, None for any other."""
    bound = getattr(formulation, "range_bound", None)
    modulus = getattr(formulation, "modulus", None)
    if not (callable(bound) and callable(modulus)) or getattr(formulation, "eta", None) is None:
        return None
    try:
        B, sigma = float(bound()), float(modulus())
    except Exception:  # a user's formulation file: no constants, no regularizer part
        return None
    return (B, sigma) if math.isfinite(B) and math.isfinite(sigma) else None


def run_guarantee(result: Any, formulation: Any = None) -> Guarantee | None:
    """The :class:`Guarantee` of a finished run; None when it has no eps, or when its oracle is
    heuristic (``result.oracle_exact`` False: no whole-class promise is made).

    ``formulation`` (the instance that ran) supplies B and sigma of a regularized formulation;
    without it an ``erlpboost`` run is assumed to use the default eta (eps_eff <= eps).
    """
    if not getattr(result, "oracle_exact", True):
        # gamma_hat >= g needs an exact oracle: a heuristic one's run promises nothing about g
        return None
    params = getattr(result, "parameters", {}) or {}
    eps = params.get("eps")
    if eps is None or not _states_soft_margin(str(getattr(result, "algorithm", "") or "")):
        return None
    return stop_guarantee(str(getattr(result, "algorithm", "") or ""), float(eps), formulation,
                          smallest_edge(result))


#: the algorithms whose stop is stated on their own problem's value over the whole class, not
#: on the soft margin (2.2): seed 002's CG (their classes say ``soft_margin_guarantee = False``;
#: tests/test_shen_li_core.py checks that the two agree). Names, as ``stop_guarantee`` reads
#: "erlpboost": the algorithms import this module, not the other way round
OWN_PROBLEM_STOPS = frozenset({"adaboost_cg", "logitboost_cg"})


def _states_soft_margin(algorithm: str) -> bool:
    """Whether the algorithm's stop is stated on the soft margin (2.2)."""
    return algorithm not in OWN_PROBLEM_STOPS


def stop_rule(algorithm: str, stopping: str | None, eps: float
              ) -> tuple[str, float, str] | None:
    """The quantity the stopping rule drives down, for LPBoost (thesis Alg. 2.1: gamma_hat -
    Theta^t <= eps; ``stopping`` "lp") and ERLPBoost (Alg. 3.2: delta^t, "simple", or delta~^t,
    "practical", <= eps/2): (its name, its threshold, the threshold as text); None for other
    algorithms. Named by a run's messages and by its slow-progress note."""
    if algorithm == "lpboost" and stopping == "lp":
        return "gamma_hat - Theta^t", eps, f"eps = {eps:g}"
    if algorithm == "erlpboost" and stopping in ("practical", "simple"):
        tilde = "~" if stopping == "practical" else ""
        return f"delta{tilde}^t", eps / 2, f"eps/2 = {eps / 2:g}"
    return None


def stop_guarantee(algorithm: str, eps: float, formulation: Any = None,
                   gamma_hat: float | None = None) -> Guarantee:
    """The promise of ``algorithm``'s stop at ``eps`` (module docstring): eps_eff = eps, or
    eps/2 + B/eta for ``erlpboost`` on a formulation with B and sigma; none (eps_eff = inf) for
    a formulation that declares ``promises_soft_margin = False``. Used for a finished run
    (:func:`run_guarantee`) and, during a run, by the algorithms' early guarantee check."""
    if formulation is not None and not getattr(formulation, "promises_soft_margin", True):
        return Guarantee(algorithm, eps, eps, gamma_hat=gamma_hat, promised=False)
    constants = (_regularizer_constants(formulation)
                 if algorithm == "erlpboost" and formulation is not None else None)
    if constants is None:
        return Guarantee(algorithm, eps, eps, gamma_hat=gamma_hat)
    from .theory import default_eta

    B, sigma = constants
    eta = float(formulation.eta)
    return Guarantee(algorithm, eps, eps / 2.0, regularizer_cost=B / eta, range_bound=B,
                     eta=eta, eta_theory=default_eta(eps, B, sigma), modulus=sigma,
                     gamma_hat=gamma_hat)
