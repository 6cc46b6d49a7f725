"""Run diagnostics: a finished run that is certified but useless says so, with a remedy that fits.

:func:`run_warnings` inspects a :class:`~dualboost.BoostResult` and returns one entry
``{"code": ..., "message": ...}`` per problem found; the codes are stable (scripts may test
them), the messages are one line each. :func:`attach_warnings` (what :func:`dualboost.api.run`
calls, so the CLI and the estimator too) stores them in ``result.warnings`` and refines the status
of a converged run (:func:`refine_status`): ``converged_degenerate`` or ``converged_vacuous``
(docs/json_schema.md, "Statuses of a converged run"). The CLI prints the entries and writes them
to its JSON; the estimator emits each as a :class:`DualBoostWarning`.

The math is in :mod:`dualboost.guarantee`: the stop promises ``softmargin(w) >= g - eps_eff``
with g <= gamma_hat = min_t edge^t, eps_eff = eps (LPBoost, SoftBoost) or eps/2 + B/eta
(ERLPBoost and its family, docs/theory.md T1).

Codes
-----
``vacuous_guarantee``
    eps_eff >= gamma_hat: the promise is <= 0, which the cancelling pair 0.5 h - 0.5 h already
    meets. The remedy names the cause: gamma_hat <= 0 (no combination has a positive soft margin
    at this nu: only a larger nu helps), an eta below the theory's max(2B/eps, sigma/2) (the
    regularizer may cost up to B/eta: leave eta at its default), or eps >= gamma_hat (a smaller
    eps).
``eta_below_theory``
    (regularized family) eta < max(2B/eps, sigma/2) but the guarantee is not empty: it is
    weakened from g - eps to g - (eps/2 + B/eta).
``degenerate_combination``
    The combined hypothesis is 0 within round-off on most training examples
    (:func:`dualboost.guarantee.roundoff_fraction`): the weights cancel, the scores there are
    rounding noise and are predicted as the tie class. For a class closed under negation the LP
    optimum (2.3) is >= 0, and on noisy data at a small nu often exactly 0, attained by a
    cancelling pair. Remedies: a larger nu (the optimum, the average of the nu smallest margins
    maximized over w, grows with nu); for LPBoost also ERLPBoost, whose regularized problem
    (thesis (3.6)) has a unique solution that spreads the weight.
``nonpositive_soft_margin``
    The soft margin (2.2) is <= ``tol`` but the margins are spread: by its objective the output
    is no better than a cancelling pair, yet it may classify well. Remedies as above, minus
    ERLPBoost (a regularized run cannot beat the LP optimum g).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .guarantee import (
    DEGENERATE_FRACTION,
    ROUNDOFF,
    Guarantee,
    _states_soft_margin,
    roundoff_fraction,
    run_guarantee,
    smallest_edge,
    stop_rule,
    training_margins,
)
from .model_io import is_tie
from .result import CONVERGED, CONVERGED_DEGENERATE, CONVERGED_VACUOUS

__all__ = ["DEGENERATE_FRACTION", "MARGIN_TOL", "ROUNDOFF", "attach_warnings", "refine_status",
           "run_warnings", "smallest_edge", "training_margins"]

#: a soft margin <= MARGIN_TOL counts as nonpositive (weights sum to 1, margins lie in [-1, 1])
MARGIN_TOL = 1e-6


# -- remedies, each for the run it is printed for ------------------------------------------------


def _larger_nu(params: dict) -> str:
    nu, N = params.get("nu"), params.get("N")
    softest = nu is not None and bool(N) and float(nu) >= int(N) * (1 - 1e-12)
    if params.get("D") is not None and not softest:
        # seed 002's members set the softness by the slack penalty D (nu = 1/D for the hinge
        # (21)): the knob a user of such a member turns is D, not the derived nu
        return (f"a smaller D (seed 002's penalty on the slacks: a softer margin; now "
                f"D = {float(params['D']):.4g}; choose it by cross-validation, "
                "docs/choosing_nu.md)")
    if nu is None or not N:
        return "a larger nu (a softer margin; choose it by cross-validation, docs/choosing_nu.md)"
    nu, N = float(nu), int(N)
    if nu >= N * (1 - 1e-12):
        return (f"nu = N = {N} is already the softest margin: richer hypotheses (another "
                "oracle) are the only remedy")
    return (f"a larger nu (a softer margin; now nu = {nu:.4g} = {nu / N:.3g} N, and the optimum, "
            "the average of the nu smallest margins, grows with nu; choose it by "
            "cross-validation, docs/choosing_nu.md)")


def _eta_advice(g: Guarantee) -> str:
    return (f"eta = {g.eta:.3g} is below the theory's max(2B/eps, sigma/2) = {g.eta_theory:.4g} "
            f"(thesis Thm 3.10, docs/theory.md T1), so the regularizer may cost up to "
            f"B/eta = {g.regularizer_cost:.3g} (B = {g.range_bound:.4g}): leave eta at its "
            f"default ({g.eta_theory:.4g} for eps = {g.eps:g}) or set eta >= {g.eta_theory:.4g}")


def _smaller_eps(g: Guarantee) -> str:
    target = g.gamma_hat / 10.0
    text = f"a smaller eps, well below {g.gamma_hat:.3g} (e.g. eps = {target:.2g})"
    if g.regularized:
        eta_new = 2.0 * g.range_bound / target
        if g.eta_below_theory or abs(g.eta - g.eta_theory) > 1e-9 * g.eta_theory:
            text += f", with eta at its default for that eps (2B/eps = {eta_new:.4g})"
        else:
            text += f" (the default eta follows: 2B/eps = {eta_new:.4g})"
    return text


def _eta_is_the_cause(g: Guarantee) -> bool:
    """eta below the theory and the default eta would make the guarantee non-empty."""
    return bool(g.eta_below_theory and g.gamma_hat is not None
                and g.with_eta(g.eta_theory) < g.gamma_hat)


def _vacuous_advice(g: Guarantee, params: dict, tol: float) -> str:
    if g.gamma_hat <= tol:
        knobs = "eps or eta" if g.regularized else "eps"
        return (f"no combination of these hypotheses has a positive soft margin at this nu "
                f"(g <= {g.gamma_hat:.3g}), whatever {knobs}; remedy: {_larger_nu(params)}")
    if _eta_is_the_cause(g):
        return f"remedy: {_eta_advice(g)}"
    advice = f"remedies: {_smaller_eps(g)}"
    if g.eta_below_theory:
        advice += f"; and {_eta_advice(g)}"
    return f"{advice}; or {_larger_nu(params)}"


def _eps_eff_text(g: Guarantee) -> str:
    if g.regularized:
        return (f"eps/2 + B/eta = {g.stop_part:.4g} + {g.regularizer_cost:.4g} = "
                f"{g.eps_effective:.4g} (docs/theory.md T1)")
    return f"eps = {g.eps:.4g}"


def _degenerate_advice(result: Any, g: Guarantee | None, params: dict) -> str:
    parts = []
    if g is not None and _eta_is_the_cause(g):
        parts.append(_eta_advice(g))
    parts.append(_larger_nu(params))
    if str(getattr(result, "algorithm", "")) == "lpboost":
        parts.append("ERLPBoost (--formulation erlpboost: its regularized problem (3.6) has a "
                     "unique solution that spreads the weight)")
    return "remedies: " + "; ".join(parts)


def _nonpositive_advice(g: Guarantee | None, params: dict, tol: float) -> str:
    if g is None or g.gamma_hat is None:
        return f"remedy: {_larger_nu(params)}"
    if g.vacuous:  # the vacuous_guarantee entry names the cause and its remedy
        return "the cause and its remedy: warning vacuous_guarantee"
    if _eta_is_the_cause(g):
        return f"remedy: {_eta_advice(g)}"
    if g.gamma_hat <= tol:
        return (f"no combination does better at this nu (g <= {g.gamma_hat:.3g}); remedy: "
                f"{_larger_nu(params)}")
    return (f"the best soft margin g may be as large as {g.gamma_hat:.3g}; remedies: "
            f"{_smaller_eps(g)}; or {_larger_nu(params)}")


# -- the entries --------------------------------------------------------------------------------


def run_warnings(result: Any, y: Any = None, *, tol: float = MARGIN_TOL,
                 formulation: Any = None) -> list[dict]:
    """Diagnostics of a finished run, a list of ``{"code": ..., "message": ...}``.

    ``y`` (the training labels in {-1, +1}, optional) adds the class that zero scores are
    predicted as; ``formulation`` (the instance that ran) supplies B and sigma of a regularized
    formulation (:func:`dualboost.guarantee.run_guarantee`). See the module docstring for the
    codes.
    """
    out: list[dict] = []
    params = getattr(result, "parameters", {}) or {}
    g = run_guarantee(result, formulation)
    if g is not None and g.vacuous:
        out.append({
            "code": "vacuous_guarantee",
            "message": (
                f"the guarantee is empty: the stop promises soft margin >= g - eps_eff with "
                f"eps_eff = {_eps_eff_text(g)} >= {g.gamma_hat:.4g} = min_t edge^t >= g (the "
                "smallest best edge seen bounds the best soft margin g over all hypotheses), "
                "so it promises no more than the 0 of a cancelling pair 0.5 h - 0.5 h; "
                f"{_vacuous_advice(g, params, tol)}"),
        })
    elif g is not None and g.eta_below_theory:
        out.append({
            "code": "eta_below_theory",
            "message": (f"the guarantee is weakened from soft margin >= g - eps to g - "
                        f"{_eps_eff_text(g)}: {_eta_advice(g)}"),
        })
    margins = training_margins(result)
    if not margins.size:
        return out
    sm = float(result.soft_margin)
    nu, N = params.get("nu"), params.get("N")
    nu_text = (f" for nu = {float(nu):.6g}" + (f" of N = {N}" if N else "")) \
        if nu is not None else ""
    vanished = roundoff_fraction(result)
    if vanished > DEGENERATE_FRACTION:
        tie = ""
        if y is not None:
            y_arr = np.asarray(y, dtype=float)
            pos = int(np.count_nonzero(y_arr > 0))
            at_zero = float(np.mean(is_tie(margins)))
            tie = (f"; the {at_zero:.1%} scores of 0 (|f| <= 1e-9) are predicted as the training "
                   f"majority class ({'+1' if pos > y_arr.size - pos else '-1'})")
        out.append({
            "code": "degenerate_combination",
            "message": (
                f"the combined hypothesis f = sum_q w_q h_q is 0 within round-off "
                f"(|f| <= {ROUNDOFF:g} sum_q |w_q| max|h_q|) on {vanished:.1%} of the training "
                f"examples: the weights cancel and those scores are rounding noise (soft margin "
                f"(2.2){nu_text} = {sm:.3g}){tie}; "
                f"{_degenerate_advice(result, g, params)}"),
        })
    elif sm <= tol and (g is None or g.promised) and \
            _states_soft_margin(str(getattr(result, "algorithm", "") or "")):
        # (a formulation that promises no soft margin, seed 002's losses at a fixed T or D, or
        # a run whose objective is not the soft margin, seed 002's CG, is not judged by it)
        spread = float(np.mean(np.abs(margins) <= tol))
        out.append({
            "code": "nonpositive_soft_margin",
            "message": (
                f"the soft margin (2.2){nu_text} is {sm:.3g} <= {tol:g}: by its objective the "
                "combination is no better than a cancelling pair 0.5 h - 0.5 h (all margins "
                f"0); its margins are spread (only {spread:.1%} within {tol:g} of 0), so it "
                f"may still classify well; {_nonpositive_advice(g, params, tol)}"),
        })
    return out


def refine_status(result: Any, entries: list[dict], guarantee: Guarantee | None = None) -> Any:
    """A ``converged`` run with a ``degenerate_combination`` entry becomes
    ``converged_degenerate``, else one with a ``vacuous_guarantee`` entry ``converged_vacuous``;
    the message gains the reason. ``success`` stays True (the stopping rule held); any other
    status is kept (a run that did not converge says that first)."""
    if getattr(result, "status", None) != CONVERGED:
        return result
    codes = {e.get("code") for e in entries}
    if "degenerate_combination" in codes:
        vanished = roundoff_fraction(result)
        result.status = CONVERGED_DEGENERATE
        reason = (f"degenerate: the combined hypothesis is 0 within round-off on {vanished:.1%} "
                  "of the training examples, its predictions there are noise (warning "
                  "degenerate_combination)")
    elif "vacuous_guarantee" in codes:
        result.status = CONVERGED_VACUOUS
        numbers = ""
        if guarantee is not None and guarantee.gamma_hat is not None:
            numbers = (f" = {guarantee.eps_effective:.3g}"
                       f" >= min_t edge^t = {guarantee.gamma_hat:.3g}")
        reason = (f"the guarantee is empty: eps_eff{numbers or ' >= min_t edge^t'}, so "
                  "'soft margin >= g - eps_eff' promises nothing (warning vacuous_guarantee)")
    else:
        return result
    result.message = f"{result.message}; {reason}" if result.message else reason
    return result


def max_iter_advice(result: Any) -> Any:
    """A run that ended at ``max_iter`` or at its time limit gains in its message how far its
    stopping rule still was and what to change.

    The corrective algorithms (one weight per step, no master solve; docs/corrective.md) reached
    the default 1,000 steps in 2-5 s on a noisy N = 1e4 set with the bracket still above eps,
    and the message only said "stopped after max_iter = 1000 master solves"; their certified
    gap is named. LPBoost and ERLPBoost (Algs. 2.1, 3.2) name their rule's quantity at the last
    certified master solve against its threshold, and gamma_hat = min_t edge^t >= g: ERLPBoost
    at defaults on a noisy N = 1e4 set with 200 features (gamma_hat ~ 0.021, just above the
    2 eps_eff of the early stop) made 770 master solves in 90 s with delta~ still 0.021 > eps/2,
    and the message only said "stopped by time_limit = 90 s after 770 master solves"."""
    status = getattr(result, "status", None)
    if status not in ("max_iter", "time_limit"):
        return result
    more = ("a larger max_iter (--max-iter) runs on, with a --time-limit to bound it"
            if status == "max_iter" else "a larger time limit (--time-limit, time_limit=) runs on")
    eps = (getattr(result, "parameters", {}) or {}).get("eps")
    gap = getattr(result, "certified_gap", None)
    if eps is None or not math.isfinite(float(eps)):
        return result
    eps = float(eps)
    # runs that certify a bracket (the corrective algorithms, fw, mlpboost); a stagewise run's
    # max_iter is its planned end
    if gap is not None and math.isfinite(float(gap)):
        if float(gap) > eps:
            result.message = (f"{result.message}; its stopping rule had not held: certified gap "
                              f"{float(gap):.3g} > eps = {eps:g}; {more}")
        return result
    rule = _rule_distance(result, eps)
    if rule is None:
        return result
    name, value, bound, t, gamma_hat = rule
    # gamma_hat >= g is a whole-class statement: only an exact oracle's edges certify it
    bracket = (f", and the best soft margin g is certified <= gamma_hat = min_t edge^t = "
               f"{gamma_hat:.3g}" if getattr(result, "oracle_exact", True) else "")
    result.message = (f"{result.message}; its stopping rule had not held: {name} = {value:.3g} > "
                      f"{bound} at master solve {t}{bracket}; {more}; on noisy data a "
                      "larger nu (a softer margin, docs/choosing_nu.md) is often what is missing")
    return result


def _rule_distance(result: Any, eps: float) -> tuple[str, float, str, int, float] | None:
    """(the rule's quantity, its value, its threshold as text, the master solve, gamma_hat) at
    the last certified master solve of an ``lpboost`` or ``erlpboost`` run, or None: LPBoost
    stops when gamma_hat - Theta^t <= eps (record.delta_practical), ERLPBoost before solving t
    when delta^t (simple) or delta~^t (practical) <= eps/2, as recorded for its last solve."""
    history = list(getattr(result, "history", None) or [])
    solved = [r for r in history if getattr(r, "solved", False)]
    algorithm, stopping = getattr(result, "algorithm", None), getattr(result, "stopping", None)
    if not solved:
        return None
    last = solved[-1]
    rule = stop_rule(algorithm, stopping, eps)
    if rule is None:
        return None
    name, _, bound = rule
    value = last.delta_simple if stopping == "simple" else last.delta_practical
    edges = [float(r.edge) for r in history if r.edge is not None and math.isfinite(r.edge)]
    if value is None or not math.isfinite(float(value)) or not edges:
        return None
    return name, float(value), bound, int(last.t), min(edges)


def attach_warnings(result: Any, y: Any = None, formulation: Any = None) -> Any:
    """Store :func:`run_warnings` in ``result.warnings`` (after any already there), refine the
    status (:func:`refine_status`); return the result."""
    entries = run_warnings(result, y, formulation=formulation)
    codes = {w.get("code") for w in result.warnings if isinstance(w, dict)}
    result.warnings = list(result.warnings) + [w for w in entries if w["code"] not in codes]
    return max_iter_advice(refine_status(result, entries, run_guarantee(result, formulation)))
