"""The summary that ``dualboost fit`` prints on stdout (not with ``--quiet``).

By default a few lines that fit on a screen (:func:`print_summary`, at most about 20 for a
converged fit): what was solved, the status, the certificate, the errors, the time, and one line
per warning or note with its code. ``--verbose`` prints the full table with every parameter and
the full messages (:func:`print_table`); the JSON keeps everything either way
(docs/json_schema.md), and docs/theory.md the full statements.

A diagnostic is a **warning** when acting on it helps the user (a degenerate combination, a
slow path, an eta below the theory's); it is a **note** (:data:`NOTE_CODES`) when it states a
fact about the certificate on a model that may predict well (an empty guarantee at an eps
below the data's margin resolution, a soft margin <= 0 with spread margins: the thesis's own
a9a setting, nu/N = 0.3, eps = 0.001, ends so with a 15.6 % test error)."""

from __future__ import annotations

import sys
import textwrap
from typing import Any

import numpy as np

from ..result import BoostResult
from .common import can_encode, fmt


def _param_text(value: Any) -> str:
    """A resolved parameter for the summary table (vectors are summarized, not printed)."""
    if value == "uniform":
        return "uniform 1/N"
    if isinstance(value, (list, tuple, np.ndarray)):
        return f"vector of {len(value)} values"
    if isinstance(value, float):
        return fmt(value)
    return "-" if value is None else str(value)


#: diagnostics shown as one-line notes (module docstring); their full text is in the JSON
NOTE_CODES = frozenset({"vacuous_guarantee", "nonpositive_soft_margin"})
#: what to change, after the head of a note's message (its full remedies are in the JSON)
NOTE_HINTS = {
    "vacuous_guarantee": "a larger nu or a smaller eps certifies more; docs/choosing_nu.md",
    "nonpositive_soft_margin": "the model may still classify well",
}
#: the width of a summary line
WIDTH = 100


def short_text(message: object, limit: int = WIDTH) -> str:
    """The head of a diagnostic's or a run's message: up to its first ': ' or '; ' (the
    statement before its explanation), on one line of at most ``limit`` characters."""
    text = " ".join(str(message).split())
    cut = min((i for i in (text.find(": "), text.find("; ")) if i > 0), default=len(text))
    head = text[:cut]
    return head if len(head) <= limit else head[:limit - 3] + "..."


def diagnostic_line(warning: Any, limit: int = WIDTH) -> tuple[str, str]:
    """("warning" or "note", "code: head of the message") of one diagnostic entry."""
    if not isinstance(warning, dict):
        return "warning", short_text(warning, limit)
    code = str(warning.get("code", "") or "")
    kind = "note" if code in NOTE_CODES else "warning"
    hint = NOTE_HINTS.get(code)
    room = limit - len(code) - 2 - (len(hint) + 3 if hint else 0)
    head = short_text(warning.get("message", ""), max(room, 30))
    return kind, f"{code}: {head}" + (f" ({hint})" if hint else "")


def _status_text(doc: dict, max_iter: int | None) -> str:
    status = doc["status"]
    if status == "max_iter":
        return f"max_iter: NOT converged within --max-iter = {max_iter}"
    if status == "time_limit":
        return f"time_limit: NOT converged within --time-limit = {doc.get('time_limit')} s"
    if status == "interrupted":
        return "interrupted: NOT converged (Ctrl-C)"
    if status in ("vacuous_guarantee", "weak_guarantee", "degenerate_lp"):
        return f"{status}: NOT converged (stopped early, see the message)"
    if status == "rounds_completed":
        return f"rounds_completed: ran its {max_iter} rounds (finished)"
    return status


def print_summary(result: BoostResult, doc: dict, *, oracle: str, max_iter: int | None,
                  verbose: bool = False) -> None:
    """The short summary (module docstring); ``verbose``: the full table."""
    if verbose:
        print_table(result, doc, oracle=oracle, max_iter=max_iter)
        return
    greek = can_encode(sys.stdout, "νεηΘ≥")
    theta, ge = ("Θ", "≥") if greek else ("Theta", ">=")
    symbols = {"nu": "ν", "eps": "ε", "eta": "η"} if greek else {}
    lines = []
    solves = sum(1 for r in doc["history"] if r.get("solved"))
    if (doc.get("history_records") or 0) > len(doc["history"]):  # a thinned history
        solves = doc["history_records"]
    count = "hypotheses" if "T" in doc["parameters"] else "T"
    cls_name = doc.get("formulation_class") or doc["formulation"]
    named = (f"{doc['formulation']} (class name {cls_name!r})"
             if cls_name != doc["formulation"] else doc["formulation"])
    lines.append(f"dualboost fit: formulation {named}, algorithm "
                 f"{doc['algorithm'] or '-'} on "
                 f"{doc['data']} (N = {doc['N']}, {count} = {doc['iterations']}, "
                 f"{solves} steps, oracle {oracle})")
    shown = []
    for name, value in list(doc["parameters"].items()) + [
            (k, v) for k, v in doc["algorithm_parameters"].items() if k != "stopping"]:
        if value is None:
            continue  # a default without content (no sample weights)
        shown.append(f"{symbols.get(name, name)} = {_param_text(value)}")
    if doc["stopping"] not in doc["algorithm_parameters"].values():
        shown.append(f"stopping = {doc['stopping']}")
    text = ", ".join(shown)
    lines.extend(textwrap.wrap(text, WIDTH, initial_indent="  parameters: ",
                               subsequent_indent="    ")[:3])
    selection = doc.get("nu_selection")
    if selection:  # --nu-frac auto: what chose nu
        best = max(selection["mean_accuracy"])
        lines.append(f"  nu: nu_frac = {selection['nu_frac']:g} chosen by {selection['method']} "
                     f"(mean {best:.4f}; the curve is in the JSON's nu_selection)")
    lines.append(f"  status: {_status_text(doc, max_iter)}")
    lines.append(f"    {short_text(doc['message'], WIDTH - 4)}")
    cert = (f"  certificate: P = {fmt(doc['primal_objective'])} {ge} optimum {ge} {theta} = "
            f"{fmt(doc['dual_objective'])} (gap {fmt(doc['duality_gap'], '.3g')})")
    lines.append(cert)
    if doc.get("certificate") == "hypotheses found":  # a heuristic oracle (docs/theory.md)
        lines.append("    relative to the hypotheses found (heuristic oracle): no whole-class "
                     "bound, no early stop")
    elif str(doc.get("certificate", "")).startswith("whole class: "):  # e.g. hist_stumps
        lines.append(f"    over the {doc['certificate'][len('whole class: '):]} "
                     "(docs/scale.md)")
    scales = {h.get("scale") for h in doc["hypotheses"]
              if isinstance(h, dict) and h.get("type") == "kernel"}
    if oracle == "kernel" and len(scales) == 1:  # how the SVM hypotheses were scaled
        lines.append(f"  kernel: h_i(x) = <x_i, x> / s, s = max_n ||x_n||^2 = "
                     f"{fmt(scales.pop())}; clipped to [-1, 1] on new data")
    margin = f"  soft margin of w: {fmt(doc['soft_margin'])}"
    if doc.get("certified_gap") is not None:
        margin += f" (certified gap to the best, {fmt(doc['certified_gap'], '.3g')})"
    if doc.get("lp_value") is not None:
        margin += f"; P_LP^T = {fmt(doc['lp_value'])}"
    lines.append(margin)
    errors = f"  train error: {fmt(doc['train_error'], '.4f')}"
    if doc.get("test_error") is not None:
        errors += f"; test error: {doc['test_error']:.4f} (N = {doc['test_N']})"
    lines.append(errors)
    paths = doc.get("master_paths") or {}
    path = ", ".join(f"{name} x{n}" for name, n in paths.items())
    lines.append(f"  seconds: {doc['seconds']:.2f} (master {doc['master_seconds']:.2f}, KKT "
                 f"{doc['kkt_seconds']:.2f}, oracle {doc['oracle_seconds']:.2f})"
                 + (f"; {path}" if path else ""))
    for warning in doc.get("warnings") or []:
        kind, line = diagnostic_line(warning, WIDTH - 10)
        lines.append(f"  {kind} {line}")
    if doc.get("warnings"):
        lines.append("  (full text: --verbose, or the JSON's warnings and message; "
                     "docs/theory.md)")
    if not result.success:
        lines.append(f"  note: stopped ({result.status}) before the stopping rule held; P and "
                     f"{theta} bracket the last certified master's optimum")
    print("\n".join(lines), flush=True)


def print_table(result: BoostResult, doc: dict, *, oracle: str, max_iter: int | None) -> None:
    """The full table (``dualboost fit --verbose``): every parameter, the full messages."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=sys.stdout, highlight=False)
    greek = can_encode(sys.stdout, "νεηΘ")
    theta = "Θ" if greek else "Theta"
    symbols = {"nu": "ν", "eps": "ε", "eta": "η"} if greek else {}

    table = Table(title=Text(f"dualboost fit: {doc['formulation']} on {doc['data']}"),
                  show_header=False, title_justify="left")
    table.add_column("quantity", style="bold")
    table.add_column("value", overflow="fold")

    def row(name: str, value: object) -> None:
        table.add_row(Text(name), Text(str(value)))

    cls_name = doc.get("formulation_class") or doc["formulation"]
    if cls_name != doc["formulation"]:  # a file: its path, and the name its class declares
        row("formulation", f"{doc['formulation']} (class name {cls_name!r})")
    else:
        row("formulation", doc["formulation"])
    row("algorithm", doc["algorithm"] or "-")
    row("N", doc["N"])
    for name, value in doc["parameters"].items():
        row(symbols.get(name, name), _param_text(value))
    for name, value in doc["algorithm_parameters"].items():
        if name != "stopping":  # the "stopping" row below shows the rule that was applied
            row(f"{name} (algorithm)", _param_text(value))
    scales = {h.get("scale") for h in doc["hypotheses"]
              if isinstance(h, dict) and h.get("type") == "kernel"}
    if oracle == "kernel" and len(scales) == 1:  # say how the SVM hypotheses were scaled
        oracle = (f"kernel (h_i(x) = <x_i, x> / s, s = max_n ||x_n||^2 = {fmt(scales.pop())}; "
                  "clipped to [-1, 1] on new data)")
    if doc.get("oracle_params"):
        oracle = f"{oracle} ({', '.join(f'{k}={v}' for k, v in doc['oracle_params'].items())})"
    row("oracle", oracle)
    if doc.get("certificate") == "hypotheses found":  # a heuristic oracle (docs/theory.md)
        row("certificate", "relative to the hypotheses found (heuristic oracle): no "
                           "whole-class bound gamma_hat >= g, no early stop")
    elif str(doc.get("certificate", "")).startswith("whole class: "):  # e.g. hist_stumps
        row("certificate", f"over the {doc['certificate'][len('whole class: '):]}: "
                           "gamma_hat >= g holds for g over that class (docs/scale.md)")
    row("stopping", doc["stopping"])
    solves = sum(1 for r in doc["history"] if r.get("solved"))
    extra = sum(r.get("extra_columns", 0) for r in doc["history"] if r.get("solved"))
    # seed 002's problems have a parameter T of their own (shown above): no second "T" then
    count = "hypotheses" if "T" in doc["parameters"] else "T (hypotheses)"
    row(count, doc["iterations"] if not extra else
        f"{doc['iterations']} (from {solves} master solves, multiple pricing)")
    row("status", _status_text(doc, max_iter))
    row("message", doc["message"])
    row("P (primal, upper bound)", fmt(doc["primal_objective"]))
    row(f"{theta} (dual, lower bound)", fmt(doc["dual_objective"]))
    row(f"gap P - {theta}", fmt(doc["duality_gap"], ".3g"))
    for problem, (low, high) in (doc.get("objective_as_printed") or {}).items():
        row(f"as printed: {problem}", f"[{fmt(low)}, {fmt(high)}]")
    row("soft margin of w", fmt(doc["soft_margin"]))
    if doc.get("certified_gap") is not None:  # fw, mlpboost, corrective: g - soft margin <= it
        row("certified gap (best edge - soft margin)", fmt(doc["certified_gap"], ".3g"))
    row("P_LP^T (LP over the T hypotheses)", fmt(doc["lp_value"]))
    row("train error", fmt(doc["train_error"], ".4f"))
    if doc.get("test_error") is not None:
        row("test error", f"{doc['test_error']:.4f} (N = {doc['test_N']}, {doc['test_data']})")
    row("solver", doc["solver"] or "-")
    paths = doc.get("master_paths") or {}
    row("master path", ", ".join(f"{name} x{count}" for name, count in paths.items()) or "-")
    row("seconds", f"{doc['seconds']:.2f} (master {doc['master_seconds']:.2f}, "
                   f"KKT {doc['kkt_seconds']:.2f}, "
                   f"oracle {doc['oracle_seconds']:.2f})")
    for warning in doc.get("warnings") or []:
        row("warning", f"{warning.get('code', '')}: {warning.get('message', '')}"
            if isinstance(warning, dict) else warning)
    console.print(table)
    if not result.success:
        console.print(f"note: the run stopped ({result.status}) before the stopping rule held; "
                      f"P and {theta} of its last certified master solve still bracket that "
                      "master's optimum.")
