"""Seed 002's AdaBoost_l1 / LogitBoost_l1 with their CG algorithms: fit times, certified.

``python benchmarks/shen_li.py`` fits, with the exact stump oracle,

* on german (``german.csv``, 1000 x 20): ``adaboost_l1``, ``adaboost_l1_ineq`` and
  ``logitboost_l1`` (``adaboost_cg`` / ``logitboost_cg``, seed 002 Algorithm 2 and §4.4) at
  eps = 0.01 and each T of ``--T`` (default 0.2), on the warm-started fast master
  (projected Newton in w), and with ``--reference`` also on the cvxpy reference path (a cold
  model per iteration, what seed 002's MOSEK-based approach does) for comparison;
* on a9a (``a9a.train``, 29,305 x 123): AdaBoost-CG with T = 0.2 as the ``dualboost fit``
  command (the wall clock a user sees, process start and data loading included) at eps = 0.01
  and 1e-5 (the paper's threshold).

Every row is certified: ``gap`` is the last master's certified gap and ``pool gap`` the bracket
of the optimum over the whole stump class at the stop (``pool_upper - pool_lower`` of the last
record: the stop ``best edge < r + eps`` certifies it within eps). Data are read from
``dualboost.data.shared_data_dir()`` (../shared/data or $DUALBOOST_SHARED_DATA); a missing file
is skipped with a note. ``--repeat K`` prints the median of K runs: timings are noisy on a
shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dualboost.api import run  # noqa: E402
from dualboost.data import load_dataset, shared_data_dir  # noqa: E402

FORMULATIONS = (("adaboost_l1", {}), ("adaboost_l1_ineq", {}), ("logitboost_l1", {}))


def _file(name: str) -> Path | None:
    base = shared_data_dir()
    path = None if base is None else base / name
    return path if path is not None and path.exists() else None


def fit_row(X, y, name: str, T: float, eps: float, master: str) -> dict:
    result = run(X, y, formulation=name, params={"T": T, "eps": eps}, master=master,
                 max_iter=2000)
    last = result.history[-1]
    pool_gap = (last.pool_upper - last.pool_lower) if last.pool_upper is not None else None
    return {"seconds": result.seconds, "master": result.master_seconds,
            "oracle": result.oracle_seconds, "T_hyp": result.iterations,
            "status": result.status, "gap": result.duality_gap, "pool_gap": pool_gap,
            "paths": result.master_paths}


def cli_row(path: Path, T: float, eps: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "fit.json"
        command = [sys.executable, "-m", "dualboost", "fit", "--data", str(path),
                   "--n-features", "123", "--algorithm", "adaboost_cg", "--param", f"T={T}",
                   "--eps", str(eps), "--json", str(out), "--quiet"]
        tick = time.perf_counter()
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        wall = time.perf_counter() - tick
        if proc.returncode not in (0, 3):
            raise RuntimeError(proc.stderr[-2000:])
        doc = json.loads(out.read_text())
    last = doc["history"][-1]
    pool_gap = (last["pool_upper"] - last["pool_lower"]) if last.get("pool_upper") is not None \
        else None
    return {"seconds": wall, "fit": doc["seconds"], "master": doc["master_seconds"],
            "oracle": doc["oracle_seconds"], "T_hyp": doc["iterations"], "status": doc["status"],
            "gap": doc["duality_gap"], "pool_gap": pool_gap, "paths": doc["master_paths"],
            "train_error": doc["train_error"]}


def median_of(rows: list[dict]) -> dict:
    out = dict(rows[-1])
    for key in ("seconds", "fit", "master", "oracle"):
        if key in out:
            out[key] = statistics.median(r[key] for r in rows)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--T", default="0.2", help="comma-separated T values for german")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference", action="store_true",
                        help="also fit german on the cvxpy reference path")
    parser.add_argument("--no-a9a", action="store_true")
    args = parser.parse_args(argv)
    print(f"{'instance':34} {'formulation':17} {'path':9} {'T':>5} {'s':>7} {'master':>7} "
          f"{'hyp':>4} {'gap':>8} {'pool gap':>9} status")

    def show(label, name, path, T, row):
        pool = "-" if row["pool_gap"] is None else f"{row['pool_gap']:.2e}"
        print(f"{label:34} {name:17} {path:9} {T:5g} {row['seconds']:7.2f} "
              f"{row['master']:7.2f} {row['T_hyp']:4d} {row['gap']:8.1e} {pool:>9} "
              f"{row['status']}")

    german = _file("german.csv")
    if german is None:
        print("german.csv not found (shared_data_dir): german rows skipped")
    else:
        data = load_dataset(str(german))
        X, y = data.X, data.y
        for T in (float(t) for t in args.T.split(",")):
            for name, _ in FORMULATIONS:
                for master in ("auto",) + (("reference",) if args.reference else ()):
                    rows = [fit_row(X, y, name, T, 0.01, master)
                            for _ in range(args.repeat if master == "auto" else 1)]
                    show("german (stumps, eps 0.01)", name, "fast" if master == "auto"
                         else "reference", T, median_of(rows))
    a9a = _file("a9a.train")
    if args.no_a9a:
        pass
    elif a9a is None:
        print("a9a.train not found (shared_data_dir): a9a rows skipped")
    else:
        for eps in (0.01, 1e-5):
            rows = [cli_row(a9a, 0.2, eps) for _ in range(args.repeat)]
            row = median_of(rows)
            show(f"a9a.train, fit command, eps {eps:g}", "adaboost_l1", "cli", 0.2, row)
            print(f"{'':34} (in-process fit {row['fit']:.2f} s, oracle {row['oracle']:.2f} s, "
                  f"train error {row['train_error']:.4f}, paths {row['paths']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
