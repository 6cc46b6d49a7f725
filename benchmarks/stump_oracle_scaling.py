"""Per-call CPU time of the dense exact stump oracle (``StumpOracle.best`` and ``candidates``)
as N grows, this tree against an earlier commit, calls interleaved.

The data: the scale set of ``bench.py`` (scikit-learn's ``make_classification`` with 50
features, 10 informative, ``flip_y = 0.05``, ``random_state = 0``) at N = 1e4, 3e4, 1e5
(``--sizes``). For each N both oracles are fitted once, then ``--calls`` distributions d
(Dirichlet(1) weights, a fixed seed) are given to each in turn, old and new alternating call by
call so that load changes hit both alike; every answer of the two is checked equal (stump and
column, bit for bit). Reported: the median CPU time per call (``time.process_time``; numpy runs
these single-threaded) and the exponent of the growth in N between consecutive sizes and over
the whole range (log time ratio / log N ratio).

Usage (from the project root)::

    python benchmarks/stump_oracle_scaling.py --against e30ff2d
    python benchmarks/stump_oracle_scaling.py --sizes 1e4,1e5 --calls 20 --block-bytes 524288

``--against REV`` loads ``dualboost/oracles/stumps.py`` of that git commit (``git show``) as
the old oracle; without it only this tree is timed.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dualboost.oracles import StumpOracle  # noqa: E402


def old_oracle_class(rev: str):
    """``StumpOracle`` of commit ``rev``, loaded as a submodule of dualboost.oracles (its
    relative imports then resolve against this tree's base module)."""
    source = subprocess.run(["git", "show", f"{rev}:dualboost/oracles/stumps.py"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    name = "dualboost.oracles._stumps_" + "".join(c for c in rev if c.isalnum())
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, f"{rev}:dualboost/oracles/stumps.py", "exec"), module.__dict__)
    return module.StumpOracle


def scale_set(n: int):
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n, n_features=50, n_informative=10, flip_y=0.05,
                               random_state=0)
    return X, np.where(y > 0, 1.0, -1.0)


def cpu_call(fn, *args):
    start = time.process_time()
    out = fn(*args)
    return time.process_time() - start, out


def same(a, b) -> bool:
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, z) for x, z in zip(a, b))
    # the old module has its own Stump class: compare what the stumps say
    return a[0].describe() == b[0].describe() and np.array_equal(a[1], b[1])


def measure(n: int, calls: int, old_cls, block_bytes: int | None) -> dict:
    X, y = scale_set(n)
    new = StumpOracle()
    if block_bytes:
        new.block_bytes = block_bytes
    new.fit(X, y)
    oracles = {"new": new}
    if old_cls is not None:
        oracles["old"] = old_cls().fit(X, y)
    rng = np.random.default_rng(0)
    times: dict[tuple[str, str], list[float]] = {}
    mismatches = 0
    for call in range(calls + 1):  # the first round warms up (buffers, page faults): dropped
        d = rng.dirichlet(np.ones(n))
        for method in ("best", "candidates"):
            answers = {}
            names = list(oracles) if call % 2 == 0 else list(oracles)[::-1]
            for name in names:
                seconds, answers[name] = cpu_call(getattr(oracles[name], method), d)
                if call:
                    times.setdefault((name, method), []).append(seconds)
            if "old" in answers:
                mismatches += not same(answers["old"], answers["new"])
    return {key: statistics.median(v) for key, v in times.items()} | {"mismatches": mismatches}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4,3e4,1e5")
    parser.add_argument("--calls", type=int, default=15, help="timed calls per oracle and method")
    parser.add_argument("--against", default=None, help="git commit of the old oracle")
    parser.add_argument("--block-bytes", type=int, default=None)
    args = parser.parse_args()
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    old_cls = old_oracle_class(args.against) if args.against else None
    console = Console(width=None if sys.stdout.isatty() else 200)
    load = os.getloadavg()
    results = {}
    for n in sizes:
        results[n] = measure(n, args.calls, old_cls, args.block_bytes)
        console.log(f"N = {n:,} done")
    names = ["new"] + (["old"] if old_cls else [])
    table = Table(title=f"Dense stump oracle, ms CPU per call (median of {args.calls}), scale set "
                        f"N x 50; load average at start {load[0]:.2f}")
    table.add_column("N", justify="right")
    for method in ("best", "candidates"):
        for name in names:
            table.add_column(f"{method} {name}" + (f" ({args.against})" if name == "old" else ""),
                             justify="right")
        if old_cls:
            table.add_column(f"{method} old/new", justify="right")
    if old_cls:
        table.add_column("answers differ", justify="right")
    for n in sizes:
        r = results[n]
        row = [f"{n:,}"]
        for method in ("best", "candidates"):
            row += [f"{1e3 * r[(name, method)]:.2f}" for name in names]
            if old_cls:
                row.append(f"{r[('old', method)] / r[('new', method)]:.2f}")
        if old_cls:
            row.append(str(r["mismatches"]))
        table.add_row(*row)
    pairs = list(zip(sizes, sizes[1:]))
    if len(sizes) > 2:
        pairs.append((sizes[0], sizes[-1]))
    for lo, hi in pairs:
        row = [f"exponent {lo:.0e}->{hi:.0e}"]
        for method in ("best", "candidates"):
            for name in names:
                ratio = results[hi][(name, method)] / results[lo][(name, method)]
                row.append(f"N^{math.log(ratio) / math.log(hi / lo):.2f}")
            if old_cls:
                row.append("")
        if old_cls:
            row.append("")
        table.add_row(*row)
    console.print(table)
    console.print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
