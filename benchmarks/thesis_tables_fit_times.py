"""Seconds per fit of ``dualboost reproduce thesis-tables``'s grid points, measured on a sample.

The grid estimates that ``dualboost reproduce --list`` prints (``dualboost.reproduce.
thesis_tables.FIT_SECONDS``) are this script's measured means. Every fit is one process, one
BLAS thread, exactly the run a grid task makes (``thesis_tables.boost_run``); a table row is
printed as each fit ends (wall and CPU seconds), then the mean, median and max CPU seconds per
(data, class, algorithm): with one BLAS thread a fit's CPU time is about its wall time on a
quiet machine, so these are what the estimates use (wall time here depends on the load).

    python benchmarks/thesis_tables_fit_times.py --dataset german
    python benchmarks/thesis_tables_fit_times.py --dataset a9a --fracs 0.1,0.3 --etas 1000,3000
    python benchmarks/thesis_tables_fit_times.py --dataset german --algorithms erlpboost \
        --classes raw --etas 1,200,theory --fracs 1/N,0.5

``--from-runs DIR/runs.json`` (repeatable) prints the same summary from the ``cpu_seconds`` of a
``dualboost reproduce thesis-tables`` run instead of fitting (AdaBoost per 1,000 rounds).

``--etas``: numbers or ``theory`` (the theory value (2/ε) ln(N/ν), binary (2/ε)(ln(N/ν)+1));
``--fracs``: ν/N values or ``1/N`` (ν = 1). Timings depend on the machine's load: compare
samples taken back to back.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dualboost.reproduce import thesis_tables as tt  # noqa: E402
from dualboost.reproduce.base import Context  # noqa: E402
from dualboost.reproduce.datasets import load_a9a, load_german  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset", choices=("german", "a9a"), default="german")
    p.add_argument("--data-dir", default=None,
                   help="default: $DUALBOOST_SHARED_DATA or ../shared/data")
    p.add_argument("--classes", default="stumps,raw,kernel")
    p.add_argument("--algorithms", default=",".join(tt.TC + tt.CORRECTIVE + ("lpboost",
                                                                       "adaboost")))
    p.add_argument("--etas", default="1,20,200,3000,theory")
    p.add_argument("--fracs", default="1/N,0.5")
    p.add_argument("--ada-rounds", type=int, default=1000)
    p.add_argument("--from-runs", action="append", metavar="RUNS_JSON",
                   help="summarize a reproduce run's runs.json instead of fitting")
    args = p.parse_args(argv)
    if args.from_runs:
        return from_runs(args.from_runs)
    from dualboost.data import shared_data_dir

    ctx = Context(data_dir=Path(args.data_dir) if args.data_dir else shared_data_dir(),
                  out=Path("."))
    data = {args.dataset: (load_german if args.dataset == "german" else load_a9a)(ctx)}
    N = len(data[args.dataset]["y_train"])
    fracs = [1.0 / N if f == "1/N" else float(f) for f in args.fracs.split(",")]
    etas = [None if e == "theory" else float(e) for e in args.etas.split(",")]
    seen: dict[tuple, list[float]] = {}
    print(f"{'class':7} {'algorithm':28} {'nu/N':>7} {'eta':>9} {'T':>6} {'status':22} "
          f"{'wall s':>8} {'cpu s':>8}", flush=True)
    for oracle in args.classes.split(","):
        for algorithm in args.algorithms.split(","):
            if algorithm == "adaboost":
                if oracle == "kernel":
                    continue
                tick, cpu = time.perf_counter(), time.process_time()
                res = tt.adaboost_run(data, dataset=args.dataset, oracle=oracle,
                                   rounds=args.ada_rounds, checkpoints=[args.ada_rounds])
                runs = [("-", "-", res["T"], res["status"], time.perf_counter() - tick,
                         time.process_time() - cpu)]
            else:
                runs = []
                for frac in fracs:
                    for eta in (etas if algorithm != "lpboost" else [None]):
                        cap = 20000 if algorithm in tt.CORRECTIVE else 1000
                        tick, cpu = time.perf_counter(), time.process_time()
                        res = tt.boost_run(data, dataset=args.dataset, oracle=oracle,
                                        algorithm=algorithm, nu_frac=frac, eta=eta,
                                        eps=tt.EPS if algorithm != "lpboost" else 0.01,
                                        max_iter=cap)
                        runs.append((f"{frac:.3g}", "theory" if eta is None else f"{eta:g}",
                                     res["T"], res["status"], time.perf_counter() - tick,
                                     time.process_time() - cpu))
            for frac, eta, T, status, s, c in runs:
                print(f"{oracle:7} {algorithm:28} {frac:>7} {eta:>9} {T:>6} {status:22} "
                      f"{s:8.2f} {c:8.2f}", flush=True)
                seen.setdefault((oracle, algorithm), []).append(c)
    print(f"\n{args.dataset} (N = {N}): CPU seconds per fit\n{'class':7} {'algorithm':28} "
          f"{'fits':>4} {'mean':>8} {'median':>8} {'max':>8}")
    for (oracle, algorithm), ss in seen.items():
        print(f"{oracle:7} {algorithm:28} {len(ss):4d} {statistics.mean(ss):8.2f} "
              f"{statistics.median(ss):8.2f} {max(ss):8.2f}")
    return 0


def from_runs(paths: list[str]) -> int:
    """Mean CPU seconds per (set, class, algorithm) over the runs of runs.json files; the
    nu = 1 points of sets above thesis_tables.LARGE_N apart; AdaBoost per 1,000 rounds."""
    import json

    seen: dict[tuple, list[float]] = {}
    for path in paths:
        for r in json.loads(Path(path).read_text(encoding="utf-8"))["runs"]:
            if r.get("error") or r.get("cpu_seconds") is None:
                continue
            ds, oracle, algorithm = r["key"][:3]
            cpu = float(r["cpu_seconds"])
            if algorithm == "adaboost":
                cpu *= 1000 / r["kwargs"]["rounds"]
            nu = (r.get("result") or {}).get("nu")
            if nu is not None and nu <= 1.0 + 1e-9 and algorithm != "lpboost":
                ds = f"{ds} nu=1"
            seen.setdefault((ds, oracle, algorithm), []).append(cpu)
    print(f"{'set':12} {'class':7} {'algorithm':28} {'runs':>5} {'mean':>8} {'median':>8} "
          f"{'max':>8}")
    for (ds, oracle, algorithm), ss in sorted(seen.items()):
        print(f"{ds:12} {oracle:7} {algorithm:28} {len(ss):5d} {statistics.mean(ss):8.2f} "
              f"{statistics.median(ss):8.2f} {max(ss):8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
