"""``dualboost reproduce EXPERIMENT``: a seed's experiment rerun, the paper's numbers beside
ours (:mod:`dualboost.reproduce`).

``--list`` names every experiment, the data it needs and how long its full version took on
this project's 2-core machine. A missing data file is exit 2 with one line naming the file and
where the paper got it; the outputs (``report.md``, ``runs.json``, the PNG figures, in
``--out``) follow the rules of :mod:`dualboost.cli.files`: none may be an input file.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .common import EXIT_OK, EXIT_USAGE, CLIError, positive_int, print_error


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "reproduce", help="rerun a paper's experiment and compare with its numbers",
        description="Rerun one of the seeds' experiments from data on disk; writes report.md "
                    "(the paper's numbers beside ours), PNG figures and runs.json into --out.")
    p.add_argument("experiment", nargs="?", help="experiment name (see --list)")
    p.add_argument("--list", action="store_true",
                   help="name every experiment, the data it needs and its full run time")
    p.add_argument("--data-dir", metavar="DIR",
                   help="directory with the data files (default: $DUALBOOST_SHARED_DATA or "
                        "../shared/data next to the project)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: ./reproduce-EXPERIMENT)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="run the grid on N local processes (one BLAS thread each)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the grid on a Dask distributed cluster, e.g. tcp://host:8786")
    p.add_argument("--quick", action="store_true",
                   help="a small version (few grid points, small N): what the tests run")
    p.add_argument("--grid", metavar="NAME",
                   help="which grid the experiment runs, for experiments that offer several "
                        "(thesis-tables: reduced, medium = the default, table5.3); --list "
                        "states each one's size and estimated time")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def listing() -> str:
    from ..algorithms import ALGORITHMS
    from ..reproduce import EXPERIMENTS, missing_algorithms

    lines = []
    for exp in EXPERIMENTS.values():
        needs = ", ".join(n.file + (" (optional)" if n.optional else "") for n in exp.needs)
        lines.append(f"{exp.name}\n    {exp.title}\n    data: {needs or 'none (generated)'}\n"
                     f"    full version on a 2-core machine: {exp.full_time}")
        missing = missing_algorithms(exp)
        if missing:
            lines.append(f"    needs algorithms this version lacks: {', '.join(missing)}")
        later = [a for a in exp.optional_algorithms if a not in ALGORITHMS]
        if later:
            lines.append(f"    adds rows for {', '.join(later)} once this version has them")
        lines += [f"    {line}" for line in exp.grid_listing()]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..reproduce import Context, MissingData, experiment, output_paths, reproduce
    from .files import check_not_inputs, check_output_target

    if args.list:
        print(listing())
        return EXIT_OK
    if not args.experiment:
        raise CLIError("name an experiment (dualboost reproduce --list names them)")
    if args.jobs > 1 and args.scheduler:
        raise CLIError("give --jobs or --scheduler, not both")
    exp = experiment(args.experiment)
    if args.data_dir is not None:
        data_dir: Path | None = Path(args.data_dir)
        if not data_dir.is_dir():
            raise CLIError(f"--data-dir {args.data_dir!r} is not a directory")
    else:
        from ..data import shared_data_dir

        data_dir = shared_data_dir()
    out = Path(args.out) if args.out else Path(f"reproduce-{exp.name}")
    if out.exists() and not out.is_dir():
        raise CLIError(f"--out {str(out)!r} exists and is not a directory")
    out.parent.mkdir(parents=True, exist_ok=True) if not out.parent.exists() else None
    if data_dir is not None and out.resolve() == data_dir.resolve():
        raise CLIError(f"--out {str(out)!r} is the data directory; choose another directory "
                       "(outputs never go where the inputs are)")
    inputs = []
    if data_dir is not None and data_dir.is_dir():
        inputs = [("--data-dir", str(p)) for p in sorted(data_dir.iterdir()) if p.is_file()]
    outputs = [("--out", str(p), "file") for p in output_paths(out)]
    if out.is_dir():
        for _, path, _ in outputs:
            check_output_target(path, "--out")
    check_not_inputs(inputs, outputs)
    ctx = Context(data_dir=data_dir, out=out, quick=args.quick, grid=args.grid)
    exp.check_grid(ctx)
    try:
        report, runs, seconds = reproduce(exp.name, ctx, jobs=args.jobs,
                                          scheduler=args.scheduler, progress=not args.quiet)
    except MissingData as exc:
        print_error(exc)
        return EXIT_USAGE
    failed = sum(1 for r in runs if r["error"])
    print(f"{exp.name}: {len(runs)} runs ({failed} failed) in {seconds:.1f} s; report "
          f"{os.path.join(str(out), 'report.md')}")
    return EXIT_OK if not failed else 1
