"""``dualboost list``: every registered formulation and algorithm with its declared parameters
(default, range, meaning), and the oracles (hypothesis classes), as text or ``--json``. The
defaults shown are the ones ``fit`` uses: a schema default the CLI replaces (nu: max(1, 0.1 N))
is shown as the CLI's."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from typing import Any

from ..params import Param
from ..registry import available_formulations
from .common import EXIT_OK, describe_exception


def add_parser(sub: Any) -> None:
    listing = sub.add_parser(
        "list", help="list the formulations and algorithms with their parameters",
        description="List every registered formulation (summary, equations, default algorithm, "
                    "cones, declared parameters) and every algorithm (summary, reference, "
                    "parameters). Any name shown under 'parameters' can be set with "
                    "'dualboost fit --param NAME=VALUE'.",
    )
    listing.add_argument("formulations", nargs="*", metavar="NAME|PATH",
                         help="list only these formulations (registered names or .py files); "
                              "default: every registered one")
    listing.add_argument("--json", action="store_true", help="print the listing as JSON")


def _param_entry(p: Param) -> dict:
    return {"name": p.name, "kind": p.kind, "default": p.describe_default(),
            "range": p.range_text(), "doc": p.doc}


def _algorithm_entries() -> tuple[list[dict], dict[str, type]]:
    from ..algorithms import algorithm_class, available_algorithms

    try:
        names = available_algorithms()
    except Exception as exc:  # an algorithm module being edited must not break the listing
        return [{"name": "?", "error": describe_exception(exc)}], {}
    entries, classes = [], {}
    for name in names:
        try:
            cls = algorithm_class(name)
            entries.append({"name": name, "summary": cls.summary, "reference": cls.reference,
                            "params": [_param_entry(p) for p in cls.params]})
            classes[name] = cls
        except Exception as exc:
            entries.append({"name": name, "error": describe_exception(exc)})
    return entries, classes


def _formulation_entry(spec: str, algorithms: dict[str, type]) -> dict:
    from ..registry import load_formulation

    try:
        cls = load_formulation(spec)
        caps = cls.capabilities
        runs_with = []
        for name, algo in algorithms.items():
            try:  # unsupported() reads the declared capabilities, so the class will do
                if not algo.unsupported(cls):
                    runs_with.append(name)
            except Exception:  # it needed an instance: say nothing rather than guess
                continue
        return {"name": cls.name, "spec": spec, "summary": cls.summary,
                "equations": cls.equations, "default_algorithm": cls.default_algorithm,
                "algorithms": runs_with, "cones": list(caps.cones),
                "strictly_convex": bool(caps.strictly_convex),
                "closed_forms": list(caps.closed_forms),
                "params": [_param_entry(p) for p in cls.params]}
    except Exception as exc:  # one broken file must not hide the others
        return {"name": spec, "spec": spec, "error": describe_exception(exc)}


def _oracle_entries() -> list[dict]:
    from ..oracles import ORACLE_SUMMARIES

    return [{"name": name, "summary": summary, "predicts_new_data": predicts}
            for name, (summary, predicts) in ORACLE_SUMMARIES.items()]


def catalogue(formulations: list[str] | None = None) -> dict:
    """What ``dualboost list --json`` prints: the formulations, algorithms and oracles, as plain
    data.

    A formulation or algorithm that fails to load is an entry with an ``error`` line instead of
    its fields.
    """
    algorithms, classes = _algorithm_entries()
    try:
        specs = formulations or available_formulations()
    except Exception as exc:
        return {"formulations": [{"name": "?", "error": describe_exception(exc)}],
                "algorithms": algorithms, "oracles": _oracle_entries()}
    return {"formulations": [_formulation_entry(spec, classes) for spec in specs],
            "algorithms": algorithms, "oracles": _oracle_entries()}


def _params_table(params: list[dict]) -> Any:
    from rich import box
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("parameter", no_wrap=True, style="bold")
    table.add_column("default", overflow="fold", max_width=24)
    table.add_column("range", no_wrap=True)
    table.add_column("meaning", overflow="fold", ratio=1)
    for p in params:
        table.add_row(Text(p["name"]), Text(p["default"]), Text(p["range"] or "-"),
                      Text(p["doc"]))
    return Padding(table, (0, 0, 0, 4), expand=False)


def _print_catalogue(doc: dict) -> None:
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    width = shutil.get_terminal_size((100, 24)).columns
    console = Console(file=sys.stdout, highlight=False, width=max(80, min(100, width)))

    def line(text: str | Text, indent: int = 2) -> None:
        text = text if isinstance(text, Text) else Text(text)
        console.print(Padding(text, (0, 0, 0, indent), expand=False))

    def head(name: str, summary: str) -> None:
        text = Text(name, style="bold")
        text.append(f"  {summary}")
        line(text, indent=2)

    available = {a["name"] for a in doc["algorithms"] if "error" not in a}

    console.print(Text("Formulations (dualboost fit --formulation NAME|PATH)", style="bold"))
    def entry(item: dict) -> bool:
        """The head line of a formulation or an algorithm; False when it failed to load."""
        console.print()
        if "error" in item:
            line(f"{item['name']}: failed to load: {item['error']}", indent=2)
            return False
        head(item["name"], item["summary"])
        return True

    def parameters(item: dict) -> None:
        if item["params"]:
            console.print(_params_table(item["params"]))
        else:
            line("parameters: none", indent=4)

    for f in doc["formulations"]:
        if not entry(f):
            continue
        if f["equations"]:
            line(f"equations: {f['equations']}", indent=4)
        others = [a for a in f["algorithms"] if a != f["default_algorithm"]]
        algorithms = f["default_algorithm"]
        if algorithms not in available:
            algorithms += " (not registered here)"
        if others:
            algorithms += f" (also runs with: {', '.join(others)})"
        line(f"default algorithm: {algorithms}", indent=4)
        line(f"cones: {', '.join(f['cones'])}; "
             f"{'strictly convex' if f['strictly_convex'] else 'not strictly convex'}"
             + (f"; closed forms: {', '.join(f['closed_forms'])}" if f["closed_forms"] else ""),
             indent=4)
        parameters(f)
    console.print()
    console.print(Text("Algorithms (dualboost fit --algorithm NAME)", style="bold"))
    for a in doc["algorithms"]:
        if not entry(a):
            continue
        if a["reference"]:
            line(f"reference: {a['reference']}", indent=4)
        parameters(a)
    console.print()
    console.print(Text("Oracles (dualboost fit --oracle NAME, DualBoostClassifier(oracle=NAME); "
                       "finite: --hypotheses)", style="bold"))
    for o in doc.get("oracles", []):
        console.print()
        head(o["name"], o["summary"])


def run(args: argparse.Namespace) -> int:
    doc = catalogue(args.formulations or None)
    if args.json:
        from ..model_io import to_jsonable

        print(json.dumps(to_jsonable(doc), indent=2, allow_nan=False))
    else:
        _print_catalogue(doc)
    return EXIT_OK
