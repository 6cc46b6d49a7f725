"""Short names of the verifier's checks, for the table and the progress lines.

A row of ``python -m dualboost.verify`` shows ``status  id  short name  value / tolerance  what the
value measures``; the long label of a row (its JSON ``label``) is shown with ``--verbose`` and under
a FAIL. ``SHORT`` maps a catalogue id of docs/theory.md to ``(name, measure)``; ``measure`` says
what the row's value is and when the row passes ("tol" is the row's tolerance column). An id that
is not in the table (an algorithm's own new claim), or an entry whose measure is None, is named
from its label: the text before the first ``": "`` is the name, the rest the measure.
"""

from __future__ import annotations

import re

#: id -> (short name, what the value measures and its pass condition, or None: from the label)
SHORT: dict[str, tuple[str, str | None]] = {
    "D1": ("weak duality", "max(Theta - P) <= tol"),
    "D2": ("strong duality", "|P - Theta| <= tol"),
    "D3": ("numpy Theta vs dual model", "max |diff| <= tol"),
    "D4": ("numpy P vs primal model", "max |diff| <= tol"),
    "D5": ("seed's problem as printed", "|seed optimum - mapped P| <= tol"),
    "K1": ("KKT recovery", "max |multiplier diff| <= tol"),
    "K2": ("complementary slackness", "max |multiplier * slack| <= tol"),
    "K3": ("KKT system vs gradients", "max |diff| <= tol"),
    "K4": ("identity at the optimum", "|lhs - rhs| <= tol"),
    "K5": ("identity at the optimum", "|lhs - rhs| <= tol"),
    "K6": ("identity at the optimum", "|lhs - rhs| <= tol"),
    "K7": ("identity at the optimum", "|lhs - rhs| <= tol"),
    "M1": ("fast master vs reference", "max |diff| of P, Theta, w <= tol"),
    "C1": ("closed form d(w, psi)", "max |diff| to the primal d <= tol"),
    "C2": ("closed form d(w,psi,beta)", "max |diff| to the primal d <= tol"),
    "C3": ("optimal beta", "|diff| to the solver's beta <= tol"),
    "C4": ("best response", "max |diff| / tol <= 1 (tolerance 1)"),
    "C5": ("dual's d(w) vs primal d", "l1 distance <= tol (a sqrt bound)"),
    "C6": ("declared d*-w* relations", "max residual <= tol (sqrt of --tol)"),
    "F1": ("numpy fast paths", "max relative diff <= tol"),
    "R1": ("range bound B", "max(R - B, -R), |R(d0)| <= tol"),
    "R2": ("modulus sigma", "(min curvature ratio - sigma)/2 >= -tol"),
    "R3": ("stated eta and bounds", "max relative diff <= tol"),
    "A1": ("converged", "T; passes when the rule stopped it"),
    "A2": ("KKT residual, every t", "max residual <= tol"),
    "T2": ("progress (Lemma 3.7)", "min_t progress - c jump^2 >= -tol"),
    "T4": ("iteration bound", None),
    "E11": ("soft margin of output", "margin - (min edge - eps) >= -tol"),
    "L1": ("master value monotone", "max_t (Theta^(t-1) - P^t) <= tol"),
    "L5": ("stop certified by an LP", "gamma_hat - P_LP^T <= tol = eps + slack"),
    "L6": ("worst case (Thm 2.5)", "T; passes when T >= N/2"),
    "G1": ("certified vs whole class", "margin - (LP - eps) >= -tol"),
    "S1": ("feasibility of d^t", "-(max violation) >= -tol"),
    "S3": ("edge drop >= eps", "min_t (drop - eps) >= -tol"),
    "S4": ("Delta(d^t, d0) <= B", "B - max_t Delta(d^t, d0) >= -tol"),
    "S5": ("iteration bound", "bound - T >= 0"),
    "S6": ("SoftBoost strong duality", "max_t |Theta_S - Delta| <= tol"),
    "S7": ("on stop: P_LP^T", "P_LP^T - (gamma_hat_T - eps) >= -tol"),
    "D6": ("printed objectives", "distance to the printed bracket <= tol"),
    "P1": ("parameter schema", "problems found = 0"),
    "W1": ("sample weights = repeated", "|P_weighted - P_repeated| <= tol"),
    # not formulation checks: the label says what failed or does not apply
    "coverage": ("", None),
    "setup": ("", None),
    "solver": ("", None),
    "claims": ("", None),
}
#: (id, the label's text before ": ") -> (short name, measure), for an id with several rows
SHORT_BY_LABEL: dict[tuple[str, str], tuple[str, str | None]] = {
    ("P2", "capabilities"): ("declared capabilities", None),
    ("S2", "Bregman Pythagoras"): ("Bregman Pythagoras (3.5)", "min_t (left - right) >= -tol"),
    ("S2", "progress"): ("progress >= eps^2/2", "min_t (Delta - eps^2/2) >= -tol"),
}

_TRAILING_PARENTHESIS = re.compile(r"\s*\([^()]*\)\s*$")


def _split(label: str) -> tuple[str, str]:
    head, sep, tail = label.partition(": ")
    return (head.strip(), tail.strip()) if sep else (label.strip(), "")


def _entry(check_id: str, label: str) -> tuple[str, str | None] | None:
    return SHORT_BY_LABEL.get((check_id, _split(label)[0])) or SHORT.get(check_id)


def short_name(check_id: str, label: str) -> str:
    """The short name of a row (``weak duality`` for D1)."""
    entry = _entry(check_id, label)
    if entry is not None:
        return entry[0]
    return _split(label)[0]


def measure(check_id: str, label: str, width: int | None = None) -> str:
    """What a row's value measures (and when it passes); from the label when not tabled (the
    whole label when the short name is not taken from it), with trailing parentheses dropped
    while it is wider than ``width``."""
    entry = _entry(check_id, label)
    if entry is not None and entry[1] is not None:
        return entry[1]
    head, tail = _split(label)
    text = tail if tail else ("" if short_name(check_id, label) == head else label)
    while width is not None and len(text) > width and _TRAILING_PARENTHESIS.search(text):
        text = _TRAILING_PARENTHESIS.sub("", text)
    return text
