"""Run diagnostics: a finished run that is certified but useless says so.

:func:`run_warnings` inspects a :class:`~dualboost.BoostResult` and returns one entry
``{"code": ..., "message": ...}`` per problem found; the codes are stable (scripts may test
them), the messages are one line each. :func:`dualboost.api.run` stores them in
``result.warnings``; the CLI prints them and writes them to its JSON; the estimator emits each as a
:class:`DualBoostWarning`.

Codes
-----
``vacuous_guarantee``
    eps >= gamma_hat = min_t edge^t, the smallest best edge seen. Every edge u^q . d^(t-1) of the
    oracle's best hypothesis under a distribution d on the capped simplex is an upper bound on
    the best soft margin g over the whole hypothesis class (weak duality of (2.2)/(2.3): g =
    min_d max_q u^q . d over capped d <= max_q u^q . d^(t-1)). The stopping guarantee of
    Algorithm 2.1 (and of thesis Thm 3.10 / 3.12 for ERLPBoost) is "soft margin of the output >=
    g - eps"; with eps >= gamma_hat >= g the right-hand side is <= 0, which a cancelling pair
    0.5 h - 0.5 h already attains: the guarantee says nothing.
``degenerate_combination``
    The output combination is numerically no better than a cancelling pair: its soft margin
    (2.2) is <= ``tol`` (the nu smallest margins average to <= 0, which ``0.5 h - 0.5 h``, all
    margins 0, matches), or more than half of the training margins (U w)_n lie within ``tol``
    of 0 (the weights nearly cancel, the scores are 0 or rounding noise). For a class closed
    under negation (stumps, raw features) the LP optimum is >= 0 because of that pair, and on
    noisy data at a small nu it is often exactly 0: the LP is then solved by a cancelling pair.
    The optimum g(nu), the average of the nu smallest margins maximized over w, grows with nu,
    so the remedies are a larger nu (softer margin) or nu chosen by cross-validation, a smaller
    eps, or ERLPBoost, whose regularized problem (thesis (3.6)) has a unique solution that
    spreads the weight.
``nonpositive_soft_margin``
    The soft margin (2.2) is <= ``tol`` but the margins are spread (at most half within ``tol``
    of 0), typically ERLPBoost at a small nu on noisy data: by the objective the output is no
    better than a cancelling pair, yet it may classify well; the same remedies apply to the
    objective (above all a larger nu, or nu by cross-validation).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .model_io import is_tie

__all__ = ["DEGENERATE_FRACTION", "MARGIN_TOL", "run_warnings"]

#: margins (U w)_n with |.| <= MARGIN_TOL count as 0 (weights sum to 1, margins lie in [-1, 1])
MARGIN_TOL = 1e-6
#: "most" training margins: more than this fraction within MARGIN_TOL of 0
DEGENERATE_FRACTION = 0.5

REMEDIES = ("remedies: a larger nu (softer margin; the optimum, the average of the nu smallest "
            "margins, grows with nu) or nu chosen by cross-validation (GridSearchCV, see "
            "docs/choosing_nu.md), a smaller eps, or ERLPBoost (its "
            "regularized solution is unique, thesis (3.6))")


def smallest_edge(result: Any) -> float | None:
    """gamma_hat = min_t edge^t over the run's history (None without a history)."""
    edges = [float(r.edge) for r in getattr(result, "history", []) or []
             if r.edge is not None and np.isfinite(r.edge)]
    return min(edges) if edges else None


def training_margins(result: Any) -> np.ndarray:
    """(U w)_n, the margins of the output combination on the training examples."""
    weights = np.asarray(result.weights, dtype=float)
    columns = np.asarray(result.columns, dtype=float)
    if weights.size == 0 or columns.size == 0:
        return np.zeros(0)
    return columns @ weights


def run_warnings(result: Any, y: Any = None, *, tol: float = MARGIN_TOL) -> list[dict]:
    """Diagnostics of a finished run, a list of ``{"code": ..., "message": ...}``.

    ``y`` (the training labels in {-1, +1}, optional) adds the majority class to the
    degenerate-combination message (where a zero score is sent). See the module docstring for
    the codes and why each is raised.
    """
    out: list[dict] = []
    params = getattr(result, "parameters", {}) or {}
    eps = params.get("eps")
    nu = params.get("nu")
    N = params.get("N")
    gamma_hat = smallest_edge(result)
    if eps is not None and gamma_hat is not None and float(eps) >= gamma_hat:
        if gamma_hat > tol:
            advice = (f"use eps well below {gamma_hat:.4g} (e.g. eps = {gamma_hat / 10:.2g})")
        else:
            advice = ("no combination has a positive soft margin here, whatever eps; use a "
                      "larger nu (softer margin) or ERLPBoost")
        out.append({
            "code": "vacuous_guarantee",
            "message": (
                f"eps = {float(eps):.4g} >= {gamma_hat:.4g}, the certified upper bound on the "
                "best soft margin over all hypotheses (the smallest best edge seen, "
                "min_t edge^t): the guarantee 'soft margin >= optimum - eps' says nothing; "
                f"{advice}"),
        })
    margins = training_margins(result)
    if margins.size:
        near_zero = float(np.mean(np.abs(margins) <= tol))
        sm = float(result.soft_margin)
        reasons = []
        if near_zero > DEGENERATE_FRACTION:
            reasons.append(f"{near_zero:.1%} of the training margins are within {tol:g} of 0 "
                           "(the weights nearly cancel)")
        if sm <= tol:
            nu_text = f" for nu = {float(nu):.6g}" + (f" of N = {N}" if N else "") \
                if nu is not None else ""
            reasons.append(f"the soft margin (2.2){nu_text} is {sm:.3g} <= {tol:g}: by its "
                           "objective the combination is no better than a cancelling pair "
                           "0.5 h - 0.5 h (all margins 0)")
        if near_zero > DEGENERATE_FRACTION:
            tie = ""
            at_zero = float(np.mean(is_tie(margins)))
            if y is not None and at_zero > 0:
                y_arr = np.asarray(y, dtype=float)
                pos = int(np.count_nonzero(y_arr > 0))
                tie = (f"; the {at_zero:.1%} scores of 0 (up to rounding) are predicted as the "
                       f"training majority class ({'+1' if pos > y_arr.size - pos else '-1'})")
            out.append({
                "code": "degenerate_combination",
                "message": f"{'; '.join(reasons)}{tie}; {REMEDIES}",
            })
        elif reasons:
            out.append({
                "code": "nonpositive_soft_margin",
                "message": (f"{reasons[0]}; the margins are spread (only {near_zero:.1%} "
                            f"within {tol:g} of 0), so the classifier may still be useful, "
                            f"but nu is likely too small for this data; {REMEDIES}"),
            })
    return out


def attach_warnings(result: Any, y: Any = None) -> Any:
    """Store :func:`run_warnings` in ``result.warnings`` (after any already there); return it."""
    entries = run_warnings(result, y)
    codes = {w.get("code") for w in result.warnings if isinstance(w, dict)}
    result.warnings = list(result.warnings) + [w for w in entries if w["code"] not in codes]
    return result
