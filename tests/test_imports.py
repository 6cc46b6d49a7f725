"""The core's import graph: no cycles among the generic layers, and the generic layers import no
concrete formulation and no front end (issue: the dependency arrows point one way).

The graph is read from the source with :mod:`ast` (every ``import`` / ``from`` statement,
function-local ones included, relative ones resolved), over ``dualboost/*.py``,
``dualboost/{masters,verify,algorithms,oracles}`` and the shipped ``formulations/``. An edge
``a -> b`` means module a imports module b (``from pkg import name`` counts as importing the
submodule ``pkg.name`` where that is a module, else ``pkg`` itself); the implicit import of a
parent package's ``__init__`` is not an edge (it would make every module part of one cycle
through ``dualboost/__init__``, which imports the public API).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE_DIRS = ("dualboost", "dualboost/cli", "dualboost/masters", "dualboost/verify",
             "dualboost/algorithms", "dualboost/oracles", "formulations")

#: the generic layers: the contract, the derived family, the masters, the KKT recovery, the
#: verifier (and what they are built on: parameters, solvers, projections, theory)
GENERIC = ("dualboost.formulation", "dualboost.params", "dualboost.kkt", "dualboost.regularized",
           "dualboost.masters", "dualboost.verify", "dualboost.theory", "dualboost.solvers",
           "dualboost.projection", "dualboost.margins", "dualboost.errors")
#: what the generic layers must not import
FRONT_ENDS = ("dualboost.cli", "dualboost.model_io", "dualboost.estimator")
CONCRETE = ("formulations",)

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def core_modules() -> dict[str, Path]:
    out = {}
    for folder in CORE_DIRS:
        for path in sorted((ROOT / folder).glob("*.py")):
            out[_module_name(path)] = path
    return out


def _resolve(module: str, path: Path, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[:len(package) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def import_graph() -> dict[str, set[str]]:
    """module -> the core modules it imports (see the module docstring)."""
    modules = core_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, path, node.level, node.module)
                for alias in node.names:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    targets.append(sub if sub in modules else base)
            for target in targets:
                # the longest core module that the dotted name is or lies in
                parts = target.split(".")
                while parts and ".".join(parts) not in modules:
                    parts.pop()
                if parts and ".".join(parts) != name:
                    graph[name].add(".".join(parts))
    return graph


def _generic(module: str) -> bool:
    """A module of the generic layers; an entry point (``python -m ...``'s ``__main__``) is a
    front end wherever it lies."""
    return not module.endswith(".__main__") and _in(module, GENERIC)


def _in(module: str, layers: tuple[str, ...]) -> bool:
    return any(module == layer or module.startswith(layer + ".") for layer in layers)


def cycles(graph: dict[str, set[str]], skip: set[tuple[str, str]] = frozenset()
           ) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if (v, w) in skip:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    edges = sorted((a, b) for a in component for b in graph[a] if b in members)
    return " / ".join(f"{a} -> {b}" for a, b in edges)


def test_the_graph_sees_function_local_and_relative_imports():
    """The walker itself: a known top-level, relative and function-local import are edges."""
    graph = import_graph()
    assert "dualboost.kkt" in graph["dualboost.formulation"]  # top level, relative
    assert "dualboost.masters.newton" in graph["dualboost.regularized"]  # function-local
    assert "dualboost.regularized" in graph["formulations.erlpboost"]  # absolute
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_in_the_core():
    """Every cycle among the core modules is reported."""
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(_describe(c, graph) for c in found)


def test_no_import_cycle_among_the_generic_layers():
    """(a) of the issue, on the generic layers alone (their imports of each other)."""
    graph = import_graph()
    generic = {a: {b for b in targets if _generic(b)} for a, targets in graph.items()
               if _generic(a)}
    found = cycles(generic)
    assert not found, "import cycles:\n" + "\n".join(_describe(c, graph) for c in found)


def test_generic_layers_import_no_formulation_and_no_front_end():
    graph = import_graph()
    bad = sorted((a, b) for a, targets in graph.items() if _generic(a)
                 for b in targets if _in(b, CONCRETE + FRONT_ENDS))
    assert not bad, "generic layers importing a concrete formulation or a front end:\n" + \
        "\n".join(f"{a} -> {b}" for a, b in bad)

