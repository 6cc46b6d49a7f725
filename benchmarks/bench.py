"""Benchmark LPBoost against ERLPBoost with decision stumps on German credit (or breast cancer).

For each algorithm (LPBoost; ERLPBoost with the practical and with the simple stopping rule) the
script runs ``dualboost.api.run`` ``--repeat`` times and reports the medians of the wall-clock
time of the whole call, the master-solve time and the oracle time, with the iteration count T
and the soft margin (thesis (2.2)) of the returned weights. It then certifies the result against
the optimum of the soft-margin LP (2.3) over ALL distinct stump columns, solved once directly
with HiGHS (``LPBoost(N, nu).primal(U_full)`` and ``dualboost.solvers.solve``, with the
formulation's primal-dual certificate): a run passes when ``soft margin >= optimum - eps``.

Usage (from the project root)::

    python benchmarks/bench_german.py                        # german.csv, nu = 0.5 N, eps = 0.01
    python benchmarks/bench_german.py --repeat 3 --json bench.json
    python benchmarks/bench_german.py --dataset breast_cancer # nu = 0.2 N by default
    python benchmarks/bench_german.py --blas-threads 1        # see benchmarks/README.md

german.csv is read from ``dualboost.data.shared_data_dir()`` (``../shared/data`` or the
directory named by ``DUALBOOST_SHARED_DATA``); the script exits with a message when it is absent.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

import dualboost
from dualboost import boost, load_formulation
from dualboost.api import resolve_nu, run
from dualboost.data import load_dataset, shared_data_dir
from dualboost.errors import DualBoostInputError
from dualboost.oracles import StumpOracle, make_oracle
from formulations.lpboost import LPBoost

#: default nu as a fraction of N for each data set (the german target of 0.01243 is nu = 0.5 N)
DEFAULT_NU_FRAC = {"german": 0.5, "breast_cancer": 0.2}

#: (label, formulation, stopping rule); LPBoost has one rule, Alg. 2.1 step (c)
ALGORITHMS = (
    ("LPBoost", "lpboost", None),
    ("ERLPBoost practical", "erlpboost", "practical"),
    ("ERLPBoost simple", "erlpboost", "simple"),
)


def load(name: str):
    """The data set ``name``; german.csv comes from the shared data directory."""
    if name == "breast_cancer":
        return load_dataset("breast_cancer")
    directory = shared_data_dir()
    path = directory / "german.csv" if directory is not None else None
    if path is None or not path.is_file():
        env = os.environ.get("DUALBOOST_SHARED_DATA", "").strip()
        if path is not None:
            where = str(path)
        elif env:
            where = f"DUALBOOST_SHARED_DATA={env} (not a directory)"
        else:
            where = "../shared/data (directory not found)"
        sys.exit(f"bench_german: german.csv not found at {where}; put it there or point "
                 "DUALBOOST_SHARED_DATA at the directory that holds it")
    return load_dataset(str(path))


def full_lp(X: np.ndarray, y: np.ndarray, nu: float) -> dict:
    """The certified optimum of the LP (2.3) over every distinct stump column, solved directly."""
    start = time.perf_counter()
    U, _ = StumpOracle().fit(X, y).all_columns()
    columns_seconds = time.perf_counter() - start

    start = time.perf_counter()
    _, cert, record = LPBoost(U.shape[0], nu=nu).solve_primal(U, 1e-9)
    seconds = time.perf_counter() - start
    return {
        "columns": int(U.shape[1]),
        "columns_seconds": columns_seconds,
        "optimum": cert.dual_value,  # certified: dual_value <= optimum <= upper_bound
        "upper_bound": cert.primal_value,
        "solver": record.solver,
        "solver_seconds": record.seconds,  # cvxpy compile + HiGHS
        "seconds": seconds,  # model construction + solve + certificate
    }


def one_run(X, y, formulation: str, stopping: str, nu: float, eps: float, kkt: bool,
            max_iter: int) -> dict:
    """One boosting run, timed as a whole (oracle set-up included)."""
    start = time.perf_counter()
    if kkt:
        res = run(X, y, formulation=formulation, nu=nu, eps=eps, stopping=stopping,
                  oracle="stumps", max_iter=max_iter)
    else:  # the same run without the per-iteration KKT recovery diagnostic
        instance = load_formulation(formulation)(len(y), nu=nu, eps=eps)
        weak = make_oracle("stumps").fit(X, y)
        res = boost(instance, weak, stopping=stopping, max_iter=max_iter, kkt=False)
    seconds = time.perf_counter() - start
    return {
        "iterations": res.iterations,
        "oracle_calls": len(res.history),
        "status": res.status,
        "message": res.message,
        "seconds": seconds,
        "engine_seconds": res.seconds,
        "master_seconds": res.master_seconds,
        "kkt_seconds": res.kkt_seconds,
        "oracle_seconds": res.oracle_seconds,
        "soft_margin": res.soft_margin,
        "lp_value": res.lp_value,
        "train_error": float(np.mean(res.predict(X) != y)),
        "solver": res.solver,
    }


def summarize(label: str, formulation: str, stopping: str, runs: list[dict], optimum: float,
              eps: float, target_seconds: float) -> dict:
    """Medians of the timings over the repeats; T and the margin must agree between repeats."""
    first = runs[0]
    med = {key: statistics.median(r[key] for r in runs)
           for key in ("seconds", "engine_seconds", "master_seconds", "kkt_seconds",
                       "oracle_seconds")}
    stable = all(r["iterations"] == first["iterations"] and
                 abs(r["soft_margin"] - first["soft_margin"]) <= 1e-9 for r in runs)
    return {
        "algorithm": label,
        "formulation": formulation,
        "stopping": stopping if formulation != "lpboost" else "lp",
        "iterations": first["iterations"],
        "oracle_calls": first["oracle_calls"],
        "status": first["status"],
        "message": first["message"],
        "seconds": med["seconds"],
        "engine_seconds": med["engine_seconds"],
        "master_seconds": med["master_seconds"],
        "kkt_seconds": med["kkt_seconds"],
        "oracle_seconds": med["oracle_seconds"],
        "seconds_per_iteration": med["seconds"] / max(first["iterations"], 1),
        "soft_margin": first["soft_margin"],
        "lp_value": first["lp_value"],
        "train_error": first["train_error"],
        "solver": first["solver"],
        "certified": bool(first["soft_margin"] >= optimum - eps),
        "within_target_seconds": max(r["seconds"] for r in runs) < target_seconds,
        "repeats_agree": stable,
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time LPBoost and ERLPBoost with stumps and certify them against the full "
                    "stump LP.")
    parser.add_argument("--dataset", choices=sorted(DEFAULT_NU_FRAC), default="german",
                        help="german (german.csv from the shared data directory, the default) or "
                             "breast_cancer (scikit-learn)")
    parser.add_argument("--nu-frac", type=float, default=None,
                        help="nu as a fraction of N (default 0.5 for german, 0.2 for "
                             "breast_cancer)")
    parser.add_argument("--eps", type=float, default=0.01, help="accuracy eps (default 0.01)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per algorithm; timings are medians (default 1)")
    parser.add_argument("--max-iter", type=int, default=1000, help="master solves per run")
    parser.add_argument("--no-kkt", action="store_true",
                        help="skip the per-iteration KKT recovery diagnostic (dualboost.boost "
                             "with kkt=False); run() and the CLI always do it")
    parser.add_argument("--blas-threads", type=int, default=None, metavar="K",
                        help="limit OpenBLAS/MKL threads to K while timing (threadpoolctl); by "
                             "default the libraries choose (see benchmarks/README.md)")
    parser.add_argument("--target-seconds", type=float, default=10.0,
                        help="time target per run for the summary line (default 10)")
    parser.add_argument("--json", metavar="OUT", help="also write all numbers to this JSON file")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when a run misses the certificate or the time "
                             "target")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.blas_threads is not None and args.blas_threads < 1:
        parser.error("--blas-threads must be at least 1")

    # a file or a pipe gets the full table, not one squeezed to 80 columns
    console = Console(width=None if sys.stdout.isatty() else 132)
    log = Console(stderr=True, width=None if sys.stderr.isatty() else 132)
    data = load(args.dataset)
    X, y, N = data.X, data.y, data.N
    nu_frac = DEFAULT_NU_FRAC[args.dataset] if args.nu_frac is None else args.nu_frac
    try:
        nu = resolve_nu(N, nu_frac=nu_frac)
    except DualBoostInputError as exc:
        parser.error(str(exc))

    log.print(f"[dim]{args.dataset}: N = {N}, F = {data.F}, nu = {nu:g}, eps = {args.eps:g}; "
              "solving the LP over all stumps ...[/dim]")
    lp = full_lp(X, y, nu)
    optimum = lp["optimum"]

    limits = contextlib.nullcontext()
    if args.blas_threads is not None:
        from threadpoolctl import threadpool_limits

        limits = threadpool_limits(limits=args.blas_threads)
    rows = []
    with limits:
        for label, formulation, stopping in ALGORITHMS:
            runs = []
            for k in range(args.repeat):
                log.print(f"[dim]{label}: run {k + 1}/{args.repeat} ...[/dim]")
                runs.append(one_run(X, y, formulation, stopping, nu, args.eps,
                                    not args.no_kkt, args.max_iter))
            rows.append(summarize(label, formulation, stopping, runs, optimum, args.eps,
                                  args.target_seconds))

    cores = os.cpu_count()
    table = Table(title=f"{args.dataset} (N = {N}), stumps, nu = {nu:g} ({nu_frac:g} N), "
                        f"eps = {args.eps:g}; median of {args.repeat} run(s), {cores} cores"
                        + ("; no KKT diagnostic" if args.no_kkt else "")
                        + (f"; {args.blas_threads} BLAS thread(s)"
                           if args.blas_threads is not None else ""))
    for name in ("algorithm", "T", "seconds", "master s", "KKT s", "oracle s", "s / iter",
                 "soft margin", "≥ opt − ε"):
        table.add_column(name, justify="left" if name == "algorithm" else "right")
    for r in rows:
        table.add_row(r["algorithm"], str(r["iterations"]), f"{r['seconds']:.2f}",
                      f"{r['master_seconds']:.2f}", f"{r['kkt_seconds']:.2f}",
                      f"{r['oracle_seconds']:.3f}",
                      f"{r['seconds_per_iteration']:.3f}", f"{r['soft_margin']:.5f}",
                      "yes" if r["certified"] else "NO", end_section=r is rows[-1])
    table.add_row("full LP, all stumps", f"{lp['columns']} cols", f"{lp['seconds']:.2f}",
                  f"{lp['solver_seconds']:.2f}", "", "", "", f"{optimum:.5f}", "optimum")
    console.print(table)
    console.print(f"certified optimum of the LP over all {lp['columns']} stump columns: "
                  f"{optimum:.5f} (upper bound {lp['upper_bound']:.5f}; built in "
                  f"{lp['columns_seconds']:.2f} s, solved in {lp['seconds']:.2f} s)")
    for r in rows:
        if not r["repeats_agree"]:
            console.print(f"[yellow]note: {r['algorithm']}: T or the soft margin differed "
                          "between repeats[/yellow]")
        if r["status"] != "converged":
            console.print(f"[yellow]note: {r['algorithm']}: {r['message']}[/yellow]")
    all_certified = all(r["certified"] for r in rows)
    all_fast = all(r["within_target_seconds"] for r in rows)
    console.print(f"every soft margin >= optimum - eps: {'yes' if all_certified else 'NO'}; "
                  f"every run under {args.target_seconds:g} s: {'yes' if all_fast else 'NO'}")

    if args.json:
        report = {
            "dataset": args.dataset, "N": N, "F": data.F, "nu": nu, "nu_frac": nu_frac,
            "eps": args.eps, "repeat": args.repeat, "kkt": not args.no_kkt,
            "blas_threads": args.blas_threads,
            "target_seconds": args.target_seconds, "cpu_count": cores,
            "platform": platform.platform(), "python": platform.python_version(),
            "dualboost_version": dualboost.__version__, "full_lp": lp, "results": rows,
        }
        Path(args.json).write_text(json.dumps(report, indent=2, default=float) + "\n")
        log.print(f"[dim]wrote {args.json}[/dim]")
    if args.check and not (all_certified and all_fast):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
