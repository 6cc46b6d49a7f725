"""The iteration-bound theory of the regularized LPBoost family, from declared properties only.

docs/theory.md states and derives these (section "The regularized family", T1-T4); for the
relative entropy they are the thesis's §3.2.5 numbers. A regularizer R declares

* sigma: R is sigma-strongly convex w.r.t. the l1 norm on the capped simplex;
* B: 0 <= R(d) <= B on the capped simplex, with R(d0) = 0.

Then, for P^t(d) = max_q u^q.d + (1/eta) R(d):

* T1 (the thesis's Lemma 3.3 / 3.15 generalized): with eta >= 2B/eps the stop delta <= eps/2
  implies g - P_LP^T <= eps; the default eta is max(2B/eps, sigma/2).
* T2 (Lemma 3.7 generalized): P^t(d^t) - P^(t-1)(d^(t-1)) >= (sigma / (8 eta)) (P^t(d^(t-1)) -
  P^(t-1)(d^(t-1)))^2 when eta >= sigma/2 (the conjugate is (eta/sigma)-smooth in the sup norm and
  ||x||_inf <= 2).
* T3 (Lemmas 3.8, 3.9 with c = sigma/(8 eta)): delta^t <= 1 / (c (t - 1 + 1/(c delta^1))).
* T4 (Thms 3.10 / 3.12 generalized): T < 16 eta / (sigma eps) (simple rule), T < 32 eta /
  (sigma eps) (practical); with the default eta, max(32 B/(sigma eps^2), 8/eps) and
  max(64 B/(sigma eps^2), 16/eps).

The verifier computes every constant here from (sigma, B); a formulation that also states eta or a
bound is compared with these, never trusted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Theory", "default_eta", "progress_constant", "iteration_bound", "lemma39_bound"]


@dataclass(frozen=True)
class Theory:
    """The declared properties of a regularizer on the capped simplex (see module docstring)."""

    modulus: float
    range_bound: float

    def eta(self, eps: float) -> float:
        return default_eta(eps, self.range_bound, self.modulus)


def default_eta(eps: float, range_bound: float, modulus: float) -> float:
    """T1: eta = max(2 B / eps, sigma / 2)."""
    return max(2.0 * range_bound / eps, modulus / 2.0)


def progress_constant(eta: float, modulus: float) -> float:
    """T2: c = sigma / (8 eta), valid for eta >= sigma / 2."""
    return modulus / (8.0 * eta)


def lemma39_bound(t: int, delta1: float, c: float) -> float:
    """T3: delta^t <= 1 / (c (t - 1 + 1 / (c delta^1)))."""
    if delta1 <= 0:
        return 0.0
    return 1.0 / (c * (t - 1 + 1.0 / (c * delta1)))


def iteration_bound(eps: float, eta: float, modulus: float, stopping: str = "simple") -> float:
    """T4: T < 16 eta / (sigma eps) (simple) or 32 eta / (sigma eps) (practical).

    Valid when eta >= sigma/2 (else Lemma 3.7's step alpha* = z sigma/(4 eta) may exceed 1);
    returns inf there, where the theory gives no bound.
    """
    if eta < modulus / 2.0 - 1e-15:
        return math.inf
    factor = 16.0 if stopping == "simple" else 32.0
    return factor * eta / (modulus * eps)
