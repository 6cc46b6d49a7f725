"""Margins, edges and the soft margin of a combined hypothesis.

Notation of the thesis (seed 000, Tables 2.1 and 3.1): ``U`` is N x t with
``U[n, q] = y_n h^q(x_n)``, the margin of example n under weights w is ``(U w)_n``
(Def. 2.2) and the edge of hypothesis q under d is ``u^q . d`` (Def. 2.1).
"""

from __future__ import annotations

import numpy as np

from .params import example_caps

__all__ = ["capped_simplex_minimizer", "example_caps", "lp_slacks", "soft_margin"]


def capped_simplex_minimizer(scores: np.ndarray, nu: float,
                             caps: np.ndarray | None = None) -> np.ndarray:
    """The d in {d >= 0, sum d = 1, d <= 1/nu} that minimizes ``d . scores``.

    It puts 1/nu on the floor(nu) smallest scores and the remaining mass on the next one
    (ties broken by a stable sort, so the result is deterministic). With per-example ``caps``
    (sample weights, :func:`dualboost.params.example_caps`) the bound is ``d <= caps`` and the
    smallest scores are filled up to their caps, in order, until the mass is 1.
    """
    scores = np.asarray(scores, dtype=float)
    n = scores.shape[0]
    order = np.argsort(scores, kind="stable")
    if caps is not None:
        sorted_caps = np.asarray(caps, dtype=float)[order]
        before = np.concatenate([[0.0], np.cumsum(sorted_caps)[:-1]])
        d = np.zeros(n)
        d[order] = np.clip(1.0 - before, 0.0, sorted_caps)
        return d
    d = np.zeros(n)
    full = min(int(np.floor(nu + 1e-12)), n)
    d[order[:full]] = 1.0 / nu
    rest = 1.0 - full / nu
    if full < n and rest > 0:
        d[order[full]] = rest
    return d


def soft_margin(margins: np.ndarray, nu: float,
                sample_weight: np.ndarray | None = None) -> float:
    """Soft-margin value (2.2) of a combination with the given example margins.

    ``max_psi min_n (m_n + psi_n) - sum(psi)/nu`` equals ``min_{capped d} d . m`` (LP duality),
    i.e. the average of the nu smallest margins, with the fractional part of nu weighting the
    next one. nu is a count in [1, N] (thesis convention). With ``sample_weight`` s the caps
    are ``s_n N / (nu sum s)`` (:func:`dualboost.params.example_caps`): the weighted average of
    the smallest margins making up the fraction nu/N of the total weight, each example counting
    s_n times (docs/theory.md, "Sample weights").
    """
    margins = np.asarray(margins, dtype=float)
    caps = None if sample_weight is None else example_caps(margins.shape[0], nu, sample_weight)
    return float(capped_simplex_minimizer(margins, nu, caps) @ margins)


def lp_slacks(margins: np.ndarray, nu: float, caps: np.ndarray | None = None) -> np.ndarray:
    """Optimal soft-margin slacks psi for fixed margins: ``psi_n = max(0, rho - m_n)`` (2.2).

    rho is the ceil(nu)-th smallest margin (the thesis prints ``min(0, .)``, erratum #2); with
    per-example ``caps`` it is the margin at which the caps of the smallest margins, summed in
    order, reach 1 (the maximizer of ``rho - caps . max(0, rho - m)``).
    """
    margins = np.asarray(margins, dtype=float)
    if caps is not None:
        order = np.argsort(margins, kind="stable")
        total = np.cumsum(np.asarray(caps, dtype=float)[order])
        k = min(int(np.searchsorted(total, 1.0 - 1e-12)), margins.shape[0] - 1)
        return np.maximum(0.0, margins[order[k]] - margins)
    k = min(int(np.ceil(nu - 1e-12)), margins.shape[0]) - 1
    rho = np.partition(margins, k)[k]
    return np.maximum(0.0, rho - margins)
