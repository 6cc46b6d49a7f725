"""What every experiment of ``dualboost reproduce`` shares: the run (:class:`Task`), the
context, the data a run needs, and the :class:`Experiment` contract.

An experiment lists its runs (each one fit, a small picklable :class:`Task` naming a
module-level function and its keyword arguments) and turns their results into a report. The
runs never see the command line: they get the data sets by name (loaded once by the parent and
shipped once to each worker) and their own keyword arguments, so a run gives the same numbers
whether it ran in the parent, in a local process or on a Dask worker.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class MissingData(Exception):
    """A data file an experiment needs is absent: its name and where the paper got it."""

    def __init__(self, file: str, origin: str, where: str):
        super().__init__(f"missing data file {file!r} (looked in {where}); the paper got it "
                         f"from {origin}; put it in --data-dir (nothing is downloaded)")
        self.file = file


@dataclass(frozen=True)
class DataNeed:
    """A data file an experiment reads, and where the paper got it."""

    file: str
    origin: str
    optional: bool = False


@dataclass(frozen=True)
class Task:
    """One run: ``fn`` ("module:function") called as ``fn(data, **kwargs)``; ``data`` is the
    dict of the experiment's loaded data sets. ``key`` orders the runs in every report."""

    key: tuple
    fn: str
    kwargs: dict = field(default_factory=dict)
    label: str = ""

    def __hash__(self) -> int:
        return hash(self.key)


def call(task: Task, data: dict) -> Any:
    """Run ``task`` on ``data`` (the function every executor calls)."""
    module, name = task.fn.split(":")
    fn = getattr(importlib.import_module(module), name)
    return fn(data, **task.kwargs)


@dataclass
class Context:
    """What the command line sets: where data and outputs are, quick or full, and the grid
    (``--grid``: one of the experiment's :attr:`Experiment.grids`; None = its default)."""

    data_dir: Path | None
    out: Path
    quick: bool = False
    seed: int = 0
    grid: str | None = None


@dataclass
class Report:
    """What an experiment hands back: the markdown body and the figures to write."""

    markdown: str
    #: file name -> function drawing into a matplotlib Figure it is given
    figures: dict[str, Callable[[Any], None]] = field(default_factory=dict)
    #: extra settings recorded in the JSON
    settings: dict = field(default_factory=dict)


class Experiment:
    """Contract: ``name``, ``title``, ``needs``, ``full_time`` (what the full version took on
    this project's 2-core machine), :meth:`load_data`, :meth:`tasks`, :meth:`report`."""

    name: str = ""
    title: str = ""
    needs: tuple[DataNeed, ...] = ()
    full_time: str = "not measured"
    #: the algorithms it runs: all must be registered for the experiment to be offered
    algorithms: tuple[str, ...] = ()
    #: algorithms whose rows are added when this version registers them
    optional_algorithms: tuple[str, ...] = ()
    #: the grids ``--grid`` chooses among (name -> one line), the first the default; empty:
    #: the experiment has one grid (and ``--quick``)
    grids: dict[str, str] = {}

    def grid_listing(self) -> list[str]:
        """Lines ``--list`` prints about the grids (their size and estimated time)."""
        return []

    def check_grid(self, ctx: Context) -> None:
        """A clear error when ``ctx.grid`` is not one of :attr:`grids`."""
        from ..errors import DualBoostInputError

        if ctx.grid is None:
            return
        if not self.grids:
            raise DualBoostInputError(f"experiment {self.name!r} has one grid; --grid does not "
                                      "apply to it")
        if ctx.grid not in self.grids:
            raise DualBoostInputError(f"unknown grid {ctx.grid!r} for {self.name!r}; choose "
                                      f"one of {', '.join(self.grids)} (dualboost reproduce "
                                      "--list describes them)")
        if ctx.quick:
            raise DualBoostInputError("give --quick or --grid, not both (--quick is its own "
                                      "small grid)")

    def load_data(self, ctx: Context) -> dict:
        return {}

    def tasks(self, ctx: Context, data: dict) -> list[Task]:
        raise NotImplementedError

    def report(self, ctx: Context, data: dict, runs: list[dict]) -> Report:
        raise NotImplementedError


def require(ctx: Context, need: DataNeed) -> Path:
    """The path of a needed file in ``ctx.data_dir``, or :class:`MissingData`."""
    where = str(ctx.data_dir) if ctx.data_dir is not None else "no data directory (--data-dir)"
    if ctx.data_dir is None:
        raise MissingData(need.file, need.origin, where)
    path = Path(ctx.data_dir) / need.file
    if not path.is_file():
        raise MissingData(need.file, need.origin, where)
    return path
