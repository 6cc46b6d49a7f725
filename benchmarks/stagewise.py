"""What the stagewise baselines' certified bracket costs, and what totally corrective buys.

``python benchmarks/stagewise.py`` runs stagewise AdaBoost and Arc-Gv (seed 002 (7), (8);
``dualboost.algorithms.stagewise``) with the exact stump oracle for a fixed number of rounds on
german and a9a (from ``dualboost.data.shared_data_dir()``: ../shared/data or
$DUALBOOST_SHARED_DATA; a missing file is skipped with a note), once per LP
schedule: the LP (2.3) over the columns seen re-solved every round with a new column
(``lp_every=1``), by the default time budget (``lp_every=0``), and only for the output (a
huge ``lp_every``). It prints, per run: seconds (total, the LP's share, the oracle's), the
number of rounds with a certified P_LP^t, the soft margin of the normalized weights, P_LP^T over
the same distinct hypotheses (what LPBoost's reweighting of them reaches) and their difference.

Options: ``--rounds T`` (default 200), ``--data german,a9a``, ``--algorithms adaboost,arc_gv``,
``--nu-frac F`` (default 0.1), ``--repeat K`` (the median of K runs; timings are noisy on a
shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dualboost.api import run  # noqa: E402
from dualboost.data import load_dataset, shared_data_dir  # noqa: E402

FILES = {"german": "german.csv", "a9a": "a9a.train"}
SCHEDULES = (("every round", 1), ("auto (default)", 0), ("output only", 10**9))


def one(X, y, algorithm: str, nu_frac: float, rounds: int, lp_every: int) -> dict:
    result = run(X, y, formulation="lpboost", algorithm=algorithm, nu_frac=nu_frac,
                 max_iter=rounds, params={"lp_every": lp_every})
    lp_rounds = sum(1 for r in result.history if r.primal is not None)
    lp_seconds = sum(r.master_seconds for r in result.history if r.path != "stagewise")
    return {"seconds": result.seconds, "lp": lp_seconds, "oracle": result.oracle_seconds,
            "lp_rounds": lp_rounds, "margin": result.soft_margin, "lp_value": result.lp_value,
            "distinct": len({c.tobytes() for c in result.columns.T})}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--data", default="german,a9a")
    parser.add_argument("--algorithms", default="adaboost,arc_gv")
    parser.add_argument("--nu-frac", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    header = (f"{'data':<7} {'algorithm':<9} {'LP schedule':<15} {'total s':>8} {'LP s':>7} "
              f"{'oracle s':>8} {'rounds w/ P_LP':>14} {'soft margin':>11} {'P_LP^T':>9} "
              f"{'gap':>8}")
    print(f"{args.rounds} rounds, nu = {args.nu_frac:g} N, stumps; median of {args.repeat}")
    print(header)
    print("-" * len(header))
    for name in args.data.split(","):
        directory = shared_data_dir()
        path = None if directory is None or name not in FILES else directory / FILES[name]
        if path is None or not path.exists():
            print(f"{name}: not found (shared_data_dir() = {directory}), skipped")
            continue
        data = load_dataset(str(path))
        for algorithm in args.algorithms.split(","):
            for label, every in SCHEDULES:
                runs = [one(data.X, data.y, algorithm, args.nu_frac, args.rounds, every)
                        for _ in range(args.repeat)]
                row = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(f"{name:<7} {algorithm:<9} {label:<15} {row['seconds']:>8.2f} "
                      f"{row['lp']:>7.2f} {row['oracle']:>8.2f} {int(row['lp_rounds']):>14d} "
                      f"{row['margin']:>11.4f} {row['lp_value']:>9.4f} "
                      f"{row['lp_value'] - row['margin']:>8.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
