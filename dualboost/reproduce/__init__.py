"""``dualboost reproduce``: the seeds' experiments rerun from data on disk, our numbers beside
the papers', on one machine or a Dask cluster.

One module per experiment (:mod:`.lower_bound`, :mod:`.softboost_synthetic`,
:mod:`.instability`, :mod:`.thesis_tables`), the grid runner (:mod:`.grid`) and the report
writer (:mod:`.report`, :func:`write_outputs`). :func:`reproduce` is the whole command.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from .base import Context, DataNeed, Experiment, MissingData, Report, Task
from .grid import ProgressLine, run_tasks

__all__ = ["EXPERIMENTS", "Context", "DataNeed", "Experiment", "MissingData", "Report", "Task",
           "experiment", "missing_algorithms", "reproduce", "output_paths"]


def _experiments() -> dict[str, Experiment]:
    from ..algorithms import ALGORITHMS
    from .fw_report import FWReport
    from .instability import Instability
    from .lower_bound import LowerBound
    from .shen_li import ShenLi
    from .softboost_synthetic import SoftBoostSynthetic
    from .thesis_tables import ThesisTables

    found = [LowerBound(), SoftBoostSynthetic(), Instability(), ThesisTables(), FWReport(),
             ShenLi()]
    # an experiment is offered only when this version has every algorithm it runs
    return {e.name: e for e in found if all(a in ALGORITHMS for a in e.algorithms)}


EXPERIMENTS: dict[str, Experiment] = _experiments()


def missing_algorithms(exp: Experiment) -> list[str]:
    from ..algorithms import ALGORITHMS

    return [a for a in exp.algorithms if a not in ALGORITHMS]


def experiment(name: str) -> Experiment:
    from ..errors import DualBoostInputError

    if name not in EXPERIMENTS:
        raise DualBoostInputError(f"unknown experiment {name!r}; available: "
                                  f"{', '.join(EXPERIMENTS)} (dualboost reproduce --list)")
    return EXPERIMENTS[name]


def output_paths(out: Path, report: Report | None = None) -> list[Path]:
    names = ["report.md", "runs.json"] + (list(report.figures) if report else [])
    return [out / n for n in names]


def reproduce(name: str, ctx: Context, *, jobs: int = 1, scheduler: Any = None,
              progress: bool = True) -> tuple[Report, list[dict], float]:
    """Load the data, run the grid, write ``report.md``, the figures and ``runs.json`` into
    ``ctx.out``. Raises :class:`MissingData` before any run when a file is absent."""
    exp = experiment(name)
    missing = missing_algorithms(exp)
    if missing:
        from ..errors import DualBoostInputError

        raise DualBoostInputError(f"experiment {name!r} needs algorithm(s) this version does "
                                  f"not have: {', '.join(missing)}")
    exp.check_grid(ctx)
    tick = time.perf_counter()
    data = exp.load_data(ctx)
    tasks = exp.tasks(ctx, data)
    line = ProgressLine(len(tasks), name, enabled=progress)
    runs = run_tasks(tasks, data, jobs=jobs, scheduler=scheduler, progress=line)
    report = exp.report(ctx, data, runs)
    seconds = time.perf_counter() - tick
    where = (f"Dask cluster {scheduler if isinstance(scheduler, str) else 'in process'}"
             if scheduler is not None else (f"{jobs} local processes" if jobs > 1 else "serial"))
    write_outputs(exp, ctx, report, runs, seconds, where)
    return report, runs, seconds


def rerender(name: str, out: Path) -> Report:
    """Write ``out``'s report and figures again from its ``runs.json`` (no run is repeated):
    for a report whose text changed after a long run."""
    exp = experiment(name)
    doc = json.loads((Path(out) / "runs.json").read_text(encoding="utf-8"))
    for r in doc["runs"]:
        r["key"] = [tuple(k) if isinstance(k, list) else k for k in r["key"]]
    ctx = Context(data_dir=None, out=Path(out), quick=doc["quick"], seed=doc["seed"],
                  grid=doc.get("grid"))
    report = exp.report(ctx, {}, doc["runs"])
    write_outputs(exp, ctx, report, doc["runs"], doc["seconds"], doc["executor"])
    return report


def write_outputs(exp: Experiment, ctx: Context, report: Report, runs: list[dict],
                  seconds: float, where: str) -> None:
    from ..outputs import write_atomically, write_json, write_text
    from .report import versions

    ctx.out.mkdir(parents=True, exist_ok=True)
    vers = versions()
    failed = [r for r in runs if r["error"]]
    head = [f"# {exp.title}", "",
            f"`dualboost reproduce {exp.name}{' --quick' if ctx.quick else ''}"
            f"{f' --grid {ctx.grid}' if ctx.grid else ''}`: "
            f"{len(runs)} runs, {len(failed)} failed.", "",
            f"Time: {seconds:.1f} s wall clock ({where}).", "", ""]
    if failed:
        head += ["Failed runs:", ""] + [f"- {r['label']}: {r['error']}" for r in failed] + [""]
    tail = ["", "## Versions", "",
            ", ".join(f"{k} {v}" for k, v in vers.items() if k != "machine"), "",
            f"Machine: {vers['machine']}.", ""]
    write_text(str(ctx.out / "report.md"), "\n".join(head) + report.markdown + "\n" +
               "\n".join(tail), "--out")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    for fname, draw in report.figures.items():
        fig = Figure(figsize=(7, 4.5), layout="constrained")
        draw(fig)
        write_atomically(str(ctx.out / fname), "--out",
                         lambda tmp, fig=fig: fig.savefig(tmp, dpi=110, format="png"))
    doc = {"experiment": exp.name, "quick": ctx.quick, "seed": ctx.seed, "grid": ctx.grid,
           "settings": report.settings, "versions": vers, "seconds": seconds,
           "executor": where, "runs": runs}
    write_json(str(ctx.out / "runs.json"), _clean(json.loads(json.dumps(doc, default=_plain))),
               "--out")


def _clean(value: Any) -> Any:
    """NaN and infinities as None (strict JSON)."""
    import math

    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)
