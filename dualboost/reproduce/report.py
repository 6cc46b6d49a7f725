"""The report writer: markdown tables, the run JSON, the figures, and what makes a report
comparable across executors (:func:`strip_timing`).

Timing is the only thing that differs between a serial, a local-process and a Dask run of the
same experiment: every column that holds seconds has a header ending in ``[s]`` and every
prose line about time starts with ``Time:``; :func:`strip_timing` drops both.
"""

from __future__ import annotations

import math
import platform
import re
import sys
from typing import Any

TIMING_MARK = "[s]"


def fmt(value: Any, spec: str = ".4g") -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return format(value, spec)
    return str(value)


def table(headers: list[str], rows: list[list[Any]], specs: list[str] | None = None) -> str:
    """A markdown table; ``specs`` formats floats per column (default ``.4g``)."""
    specs = specs or [".4g"] * len(headers)
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        lines.append("| " + " | ".join(fmt(v, s) for v, s in zip(row, specs)) + " |")
    return "\n".join(lines)


def strip_timing(text: str) -> str:
    """``text`` without its timing: table columns headed ``... [s]``, lines ``Time: ...``."""
    out: list[str] = []
    drop: list[int] = []
    for line in text.splitlines():
        if line.startswith("Time:") or line.startswith("- Time:"):
            continue
        if line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            if all(set(c.strip()) <= set("-:") for c in cells):  # the rule line
                pass
            elif any(c.strip().endswith(TIMING_MARK) for c in cells):
                drop = [i for i, c in enumerate(cells) if c.strip().endswith(TIMING_MARK)]
            cells = [c for i, c in enumerate(cells) if i not in drop]
            line = "|" + "|".join(cells) + "|"
        else:
            drop = []
        out.append(line)
    return "\n".join(out)


def versions() -> dict:
    """The versions a report states (the solvers decide the numbers)."""
    import numpy
    import scipy

    from .. import __version__

    found = {"dualboost": __version__, "python": sys.version.split()[0],
             "numpy": numpy.__version__, "scipy": scipy.__version__}
    from importlib.metadata import PackageNotFoundError, version

    # the installed distributions' versions, without importing them (dask alone takes seconds)
    for name in ("highspy", "cvxpy", "clarabel", "matplotlib", "scikit-learn", "distributed"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    found["machine"] = f"{platform.machine()}, {_cores()} cores, {platform.system()}"
    return found


def _cores() -> int:
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")
