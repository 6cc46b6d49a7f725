"""The summary table that ``dualboost fit`` prints on stdout (not with ``--quiet``)."""

from __future__ import annotations

import sys
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


def print_summary(result: BoostResult, doc: dict, *, oracle: str, max_iter: int) -> None:
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
    row("stopping", doc["stopping"])
    solves = sum(1 for r in doc["history"] if r.get("solved"))
    extra = sum(r.get("extra_columns", 0) for r in doc["history"] if r.get("solved"))
    # seed 002's problems have a parameter T of their own (shown above): no second "T" then
    count = "hypotheses" if "T" in doc["parameters"] else "T (hypotheses)"
    row(count, doc["iterations"] if not extra else
        f"{doc['iterations']} (from {solves} master solves, multiple pricing)")
    status = doc["status"]
    if status == "max_iter":
        status = f"max_iter: NOT converged within --max-iter = {max_iter}"
    elif status == "time_limit":
        status = f"time_limit: NOT converged within --time-limit = {doc.get('time_limit')} s"
    elif status == "interrupted":
        status = "interrupted: NOT converged (Ctrl-C)"
    elif status in ("vacuous_guarantee", "weak_guarantee", "degenerate_lp"):
        status = f"{status}: NOT converged (stopped early, see the message)"
    row("status", status)
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
