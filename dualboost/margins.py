"""Margins, edges and the soft margin of a combined hypothesis.

Notation of the thesis (seed 000, Tables 2.1 and 3.1): ``U`` is N x t with
``U[n, q] = y_n h^q(x_n)``, the margin of example n under weights w is ``(U w)_n``
(Def. 2.2) and the edge of hypothesis q under d is ``u^q . d`` (Def. 2.1).
"""

from __future__ import annotations

import numpy as np


def capped_simplex_minimizer(scores: np.ndarray, nu: float) -> np.ndarray:
    """The d in {d >= 0, sum d = 1, d <= 1/nu} that minimizes ``d . scores``.

    It puts 1/nu on the floor(nu) smallest scores and the remaining mass on the next one
    (ties broken by a stable sort, so the result is deterministic).
    """
    scores = np.asarray(scores, dtype=float)
    n = scores.shape[0]
    order = np.argsort(scores, kind="stable")
    d = np.zeros(n)
    full = min(int(np.floor(nu + 1e-12)), n)
    d[order[:full]] = 1.0 / nu
    rest = 1.0 - full / nu
    if full < n and rest > 0:
        d[order[full]] = rest
    return d


def soft_margin(margins: np.ndarray, nu: float) -> float:
    """Soft-margin value (2.2) of a combination with the given example margins.

    ``max_psi min_n (m_n + psi_n) - sum(psi)/nu`` equals ``min_{capped d} d . m`` (LP duality),
    i.e. the average of the nu smallest margins, with the fractional part of nu weighting the
    next one. nu is a count in [1, N] (thesis convention).
    """
    margins = np.asarray(margins, dtype=float)
    return float(capped_simplex_minimizer(margins, nu) @ margins)


def lp_slacks(margins: np.ndarray, nu: float) -> np.ndarray:
    """Optimal soft-margin slacks psi for fixed margins: ``psi_n = max(0, rho - m_n)`` (2.2).

    rho is the ceil(nu)-th smallest margin (the thesis prints ``min(0, .)``, erratum #2).
    """
    margins = np.asarray(margins, dtype=float)
    k = min(int(np.ceil(nu - 1e-12)), margins.shape[0]) - 1
    rho = np.partition(margins, k)[k]
    return np.maximum(0.0, rho - margins)
