"""The core's import graph: the layers, bottom to top, and no import from a lower layer to a
higher one; no cycles (issue 29, "The house": the generic layers know only the contract).

The graph is read from the source with :mod:`ast` (every ``import`` / ``from`` statement,
function-local ones included, relative ones resolved), over ``dualboost/**.py`` and the shipped
``formulations/``. An edge ``a -> b`` means module a imports module b (``from pkg import name``
counts as importing the submodule ``pkg.name`` where that is a module, else ``pkg`` itself); the
implicit import of a parent package's ``__init__`` is not an edge (it would make every module
part of one cycle through ``dualboost/__init__``, which loads the public API on first use).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE_DIRS = ("dualboost", "dualboost/cli", "dualboost/masters", "dualboost/verify",
             "dualboost/algorithms", "dualboost/oracles", "dualboost/reproduce", "formulations")

#: The layers, bottom to top. A module may import its own layer and the ones below it, never one
#: above. An entry names a module and everything under it; the longest entry that covers a
#: module decides its layer.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # what everything is built on: no model, no run
    ("foundations", ("dualboost.errors", "dualboost.params", "dualboost.theory",
                     "dualboost.projection", "dualboost.run_control", "dualboost.separable",
                     "dualboost.margins", "dualboost.margin_identities", "dualboost.threads",
                     "dualboost._lazy", "dualboost.data", "dualboost.columnar",
                     "dualboost.outputs")),
    # the contract a member fulfils, the solver policy behind its models, and the registry that
    # loads members by name at run time (how a lower layer reaches a member without importing
    # it); HiGHS's runner serves the solver policy as much as the masters
    ("contract", ("dualboost.formulation", "dualboost.kkt", "dualboost.solvers",
                  "dualboost.masters.highs_run", "dualboost.registry")),
    ("masters", ("dualboost.masters",)),
    # the derived families a member subclasses
    ("family", ("dualboost.regularized", "dualboost.sss", "dualboost.temperature")),
    ("oracles and results", ("dualboost.oracles", "dualboost.result", "dualboost.guarantee")),
    ("algorithms", ("dualboost.algorithms", "dualboost.engine")),
    ("verifier", ("dualboost.verify",)),
    ("members", ("formulations",)),
    ("api", ("dualboost.api", "dualboost.estimator", "dualboost.estimator_cv",
             "dualboost.reweight", "dualboost.model_io", "dualboost.diagnostics",
             "dualboost.plots")),
    ("reproduce", ("dualboost.reproduce",)),
    ("cli", ("dualboost.cli",)),
]
#: packages whose ``__init__`` imports no module of the core: a name space that any layer may
#: name (``dualboost.__version__``; the registry lists ``formulations``' members by name); their
#: submodules keep their own layers
NAMESPACES = ("dualboost", "formulations")
#: ``python -m PKG``'s ``__main__``: run as a script, imported by no module, so above every layer
#: (it enters through the command line's front end like the console script)
ENTRY_POINTS = "entry points"


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


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` (``len(LAYERS)`` for an entry point); KeyError when no
    layer covers the module."""
    if module.endswith(".__main__"):
        return len(LAYERS)
    if module in NAMESPACES:
        return 0
    best, depth = None, -1
    for i, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and entry.count(".") > depth:
                best, depth = i, entry.count(".")
    if best is None:
        raise KeyError(module)
    return best


def _layer_name(index: int) -> str:
    return ENTRY_POINTS if index == len(LAYERS) else LAYERS[index][0]


def upward_edges(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import ``a -> b`` with b in a higher layer than a."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if layer_of(b) > layer_of(a))


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


def test_every_module_has_one_layer():
    unplaced = []
    for module in import_graph():
        try:
            layer_of(module)
        except KeyError:
            unplaced.append(module)
    assert not unplaced, f"modules in no layer (add them to LAYERS): {sorted(unplaced)}"


def test_the_layers_read_as_stated():
    """The rule on the kinds of edge issue 29 found: an algorithm importing a concrete member or
    the verifier, the verifier's entry point or the experiments importing the command line."""
    assert layer_of("dualboost.masters.newton") == layer_of("dualboost.masters")
    assert layer_of("dualboost.masters.highs_run") < layer_of("dualboost.masters")
    assert layer_of("dualboost.verify.__main__") > layer_of("dualboost.cli")
    found = upward_edges({
        "dualboost.algorithms.frank_wolfe": {"formulations.lpboost", "dualboost.registry"},
        "dualboost.algorithms.shen_li_cg": {"dualboost.verify.margin_identities",
                                            "dualboost.margin_identities"},
        "dualboost.reproduce": {"dualboost.cli.files", "dualboost.api"},
        "dualboost.registry": {"formulations"},
        "dualboost.cli": {"dualboost.reproduce"},
    })
    assert found == [("dualboost.algorithms.frank_wolfe", "formulations.lpboost"),
                     ("dualboost.algorithms.shen_li_cg", "dualboost.verify.margin_identities"),
                     ("dualboost.reproduce", "dualboost.cli.files")]


def test_namespaces_import_nothing_of_the_core():
    """What lets every layer name them."""
    graph = import_graph()
    assert {name: sorted(graph[name]) for name in NAMESPACES} == {name: [] for name in NAMESPACES}


def test_no_import_from_a_lower_layer_to_a_higher_one():
    graph = import_graph()
    bad = upward_edges(graph)
    assert not bad, "imports from a lower layer to a higher one:\n" + "\n".join(
        f"{a} ({_layer_name(layer_of(a))}) -> {b} ({_layer_name(layer_of(b))})" for a, b in bad)


def test_no_import_cycle_in_the_core():
    """Every cycle among the core modules is reported (a cycle within one layer passes the
    layer rule)."""
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(_describe(c, graph) for c in found)
