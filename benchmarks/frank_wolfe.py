"""Frank-Wolfe boosting (``fw``: classic, short, line_search, pairwise steps) and MLPBoost beside
the totally corrective ERLPBoost and LPBoost, on german and a9a with stumps.

For every instance and algorithm: the number of oracle calls (iterations), the hypotheses kept
(T), the seconds of the fit split into the oracle's and the step's (the master solve of the
totally corrective algorithms, the Frank-Wolfe step and, for MLPBoost, its LP), the final soft
margin (2.2) of the output, its certified gap (the smallest best edge of the run minus that soft
margin: the same formula for every algorithm, an upper bound on g - soft margin), and whether
the soft margin is within eps of the full LP over every stump (solved directly by HiGHS).

Instances (issue 22): german (stumps, nu/N in {0.5, 0.9}, eps in {0.01, 0.001}) and the a9a
training split (nu/N = 0.3, eps = 0.01); the data come from the shared data directory
(``DUALBOOST_SHARED_DATA`` or ../shared/data; an absent file skips its instance). Each run has a
time limit (``--time-limit``): a run that reaches it is reported with status ``time_limit`` and
the bracket it had certified by then.

Usage::

    python benchmarks/frank_wolfe.py                       # every instance and algorithm
    python benchmarks/frank_wolfe.py --instances german --algorithms fw:pairwise,erlpboost
    python benchmarks/frank_wolfe.py --markdown table.md --json runs.json

Timings are single runs; on a shared machine repeat the interesting rows (``--repeat``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import full_lp, load_a9a, load_german  # noqa: E402

from dualboost.api import run  # noqa: E402

#: (name, nu_frac, eps) of issue 22's comparison
INSTANCES = [("german", 0.5, 0.01), ("german", 0.5, 0.001), ("german", 0.9, 0.01),
             ("german", 0.9, 0.001), ("a9a", 0.3, 0.01)]

#: "algorithm" or "algorithm:step"
ALGORITHMS = ["fw:classic", "fw:short", "fw:line_search", "fw:pairwise", "mlpboost:short",
              "mlpboost:pairwise", "erlpboost", "lpboost"]


def load(name: str):
    return load_german() if name == "german" else load_a9a()


def fit(data, spec: str, nu_frac: float, eps: float, time_limit: float) -> dict:
    algorithm, _, step = spec.partition(":")
    formulation = "lpboost" if algorithm == "lpboost" else "erlpboost"
    params = {"step": step} if step else {}
    result = run(data.X, data.y, formulation=formulation, algorithm=algorithm,
                 nu_frac=nu_frac, eps=eps, params=params, max_iter=10 ** 7,
                 time_limit=time_limit)
    min_edge = min(r.edge for r in result.history)
    return {"algorithm": spec, "status": result.status, "iterations": len(result.history),
            "T": result.iterations, "seconds": result.seconds,
            "oracle_seconds": result.oracle_seconds, "step_seconds": result.master_seconds,
            "soft_margin": result.soft_margin, "min_edge": min_edge,
            "certified_gap": min_edge - result.soft_margin,
            "lp_steps": sum(1 for r in result.history
                            if r.diagnostics and r.diagnostics.get("kind") == "lp")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", default="german,a9a",
                        help="comma-separated data names (german, a9a)")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS),
                        help="comma-separated algorithm[:step] specs")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds per run (default 120, as benchmarks/corrective.py)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row (median seconds)")
    parser.add_argument("--full-lp-max", type=float, default=3e8,
                        help="solve the full stump LP when N x columns <= this")
    parser.add_argument("--json", help="write the rows to this file")
    parser.add_argument("--markdown", help="write the table as markdown to this file")
    args = parser.parse_args(argv)
    names = args.instances.split(",")
    specs = args.algorithms.split(",")
    rows = []
    cache: dict = {}
    for name, nu_frac, eps in INSTANCES:
        if name not in names:
            continue
        data = cache.setdefault(name, load(name))
        if data is None:
            print(f"{name}: data not found, skipped", file=sys.stderr)
            continue
        lp = full_lp(data, nu_frac * data.N, args.full_lp_max)
        optimum = lp.get("optimum")
        for spec in specs:
            runs = [fit(data, spec, nu_frac, eps, args.time_limit) for _ in range(args.repeat)]
            row = dict(runs[0])
            for key in ("seconds", "oracle_seconds", "step_seconds"):
                row[key] = statistics.median(r[key] for r in runs)
            row.update(data=name, N=data.N, nu_frac=nu_frac, eps=eps, optimum=optimum,
                       certified=None if optimum is None else
                       bool(row["soft_margin"] >= optimum - eps))
            rows.append(row)
            print(line(row), flush=True)
    table = markdown(rows)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


def per_iteration_ms(row: dict, key: str) -> float:
    return 1000.0 * row[key] / max(row["iterations"], 1)


def shortfall(row: dict) -> float | None:
    """g - soft margin against the full stump LP (None where it was not solved)."""
    return None if row["optimum"] is None else row["optimum"] - row["soft_margin"]


def line(row: dict) -> str:
    gap = shortfall(row)
    return (f"{row['data']} nu/N={row['nu_frac']:g} eps={row['eps']:g} {row['algorithm']:<18} "
            f"{row['status']:<18} it={row['iterations']:<7} T={row['T']:<4} "
            f"{row['seconds']:7.2f}s oracle {per_iteration_ms(row, 'oracle_seconds'):.3f} "
            f"ms/it, step {per_iteration_ms(row, 'step_seconds'):.3f} ms/it, soft margin "
            f"{row['soft_margin']:.6f}, certified gap {row['certified_gap']:.2e}, g - sm "
            + ("-" if gap is None else f"{gap:.2e}"))


def markdown(rows: list[dict]) -> str:
    """The table in the shape of benchmarks/corrective.py's (one table for both scripts)."""
    head = ("| instance | algorithm | status | iters | T | sec | oracle ms/it | own ms/it | "
            "soft margin | cert gap | g − sm |\n"
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    body = []
    for r in rows:
        gap = shortfall(r)
        body.append(f"| {r['data']} ν/N={r['nu_frac']:g} ε={r['eps']:g} | {r['algorithm']} | "
                    f"{r['status']} | {r['iterations']} | {r['T']} | {r['seconds']:.2f} | "
                    f"{per_iteration_ms(r, 'oracle_seconds'):.3f} | "
                    f"{per_iteration_ms(r, 'step_seconds'):.3f} | {r['soft_margin']:.6f} | "
                    f"{r['certified_gap']:.2e} | " + ("–" if gap is None else f"{gap:.2e}")
                    + " |")
    return head + "\n".join(body) + "\n"


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
