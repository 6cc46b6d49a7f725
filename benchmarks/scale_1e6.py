"""One machine at N = 1e6 (issue 32, docs/scale.md): ERLPBoost at nu = 0.3 N, eps = 0.01
through DualBoostClassifier on make_classification(n_samples=N, n_features=28,
n_informative=20, flip_y=0.05, random_state=0), with the exact stump oracle or hist_stumps.

Run it under ``/usr/bin/time -v`` for the peak RSS:

    /usr/bin/time -v python benchmarks/scale_1e6.py --oracle hist_stumps --n 1000000

Prints one JSON line: data seconds, fit seconds, status, T, P, Theta, training accuracy,
and the oracle's time per call measured separately on the same data (``--oracle-calls``).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default="hist_stumps")
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--oracle-calls", type=int, default=0,
                    help="only time this many oracle calls (fit of the oracle + best(d))")
    ap.add_argument("--time-limit", type=float, default=None)
    args = ap.parse_args()
    from sklearn.datasets import make_classification

    t0 = time.perf_counter()
    X, y = make_classification(n_samples=args.n, n_features=28, n_informative=20,
                               flip_y=0.05, random_state=0)
    t_data = time.perf_counter() - t0
    out: dict = {"N": args.n, "oracle": args.oracle, "data_seconds": round(t_data, 2)}
    if args.oracle_calls:
        from dualboost.oracles import make_oracle

        ypm = np.where(y > 0, 1.0, -1.0)
        t0 = time.perf_counter()
        oracle = make_oracle(args.oracle).fit(X, ypm)
        out["oracle_fit_seconds"] = round(time.perf_counter() - t0, 3)
        rng = np.random.default_rng(0)
        times = []
        for _ in range(args.oracle_calls):
            d = rng.random(args.n)
            d /= d.sum()
            t0 = time.perf_counter()
            oracle.best(d)
            times.append(time.perf_counter() - t0)
        out["best_seconds_median"] = round(float(np.median(times)), 4)
        print(json.dumps(out), flush=True)
        return
    from dualboost.estimator import DualBoostClassifier

    clf = DualBoostClassifier(formulation="erlpboost", nu_frac=0.3, eps=0.01,
                              oracle=args.oracle, time_limit=args.time_limit)
    t0 = time.perf_counter()
    clf.fit(X, y)
    out["fit_seconds"] = round(time.perf_counter() - t0, 2)
    r = clf.result_
    out.update(status=r.status, T=len(r.hypotheses), P=r.primal_objective,
               Theta=r.dual_objective, certificate=r.certificate_scope,
               master_seconds=round(float(getattr(r, "master_seconds", 0.0) or 0.0), 2),
               oracle_seconds=round(float(getattr(r, "oracle_seconds", 0.0) or 0.0), 2),
               train_accuracy=round(float(clf.score(X, y)), 4))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
