"""Prediction and oracle cost of the ``kernel`` oracle (SVM hypotheses <x_i, x> / s) on a9a.

Prints one table: for T kernel hypotheses (training rows of a9a.train, random signs and weights),
the seconds of a saved model's ``decision_function`` on a9a.test (9,769 x 123 as shipped, 14 ones
per row) given as CSR, CSC and dense, beside the earlier prediction (``X @ x_i`` with x_i as a
dense vector of all 123 features, per hypothesis, on the CSR, CSC and dense X: scipy's and BLAS's
products, whose summation order depends on the format), and
the seconds of one ``KernelOracle.best(d)`` (two sparse products, X (X^T r)) on a9a.train.
Median of ``--repeat`` runs; timings on a shared machine are noisy, compare rows of one run.

    python benchmarks/kernel_predict.py [--T 10,100] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dualboost.data import load_dataset, shared_data_dir  # noqa: E402
from dualboost.model_io import SavedModel  # noqa: E402
from dualboost.oracles import make_oracle  # noqa: E402


def _median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--T", default="10,100", help="comma-separated hypothesis counts")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    root = shared_data_dir()
    if root is None or not (root / "a9a.train").is_file() or not (root / "a9a.test").is_file():
        print("a9a.train / a9a.test not found (set DUALBOOST_SHARED_DATA)")
        return 1
    train = load_dataset(str(root / "a9a.train"), n_features=123)
    test = load_dataset(str(root / "a9a.test"), n_features=123, index_base=train.index_base)
    oracle = make_oracle("kernel").fit(train.X, train.y)
    rng = np.random.default_rng(0)
    d = rng.dirichlet(np.ones(train.N))
    best = _median_seconds(lambda: oracle.best(d), args.repeat)
    X_csr, X_csc, X_dense = test.X.tocsr(), test.X.tocsc(), test.X.toarray()
    print(f"a9a.train N = {train.N}, nnz = {train.X.nnz}; a9a.test M = {X_csr.shape[0]}, "
          f"nnz = {X_csr.nnz}; scale s = {oracle.scale:g}")
    print(f"KernelOracle.best(d) on a9a.train: {best * 1e3:.2f} ms (median of {args.repeat})")
    print("\nmilliseconds of decision_function on a9a.test:")
    print("| T | CSR | CSC | dense | earlier: CSR | earlier: CSC | earlier: dense |")
    print("|---|---|---|---|---|---|---|")
    for T in (int(t) for t in args.T.split(",")):
        rows = rng.choice(train.N, size=T, replace=False)
        hyps = [oracle._hypothesis(int(i), int(s)) for i, s in zip(rows, rng.choice([-1, 1], T))]
        weights = rng.dirichlet(np.ones(T))
        model = SavedModel(hyps, weights, [-1, 1], -1, n_features=123)
        support = [np.bincount(np.asarray(h.features, dtype=int), np.asarray(h.values), 123)
                   for h in hyps]  # x_i as a dense vector

        def baseline(X, weights=weights, hyps=hyps, support=support) -> np.ndarray:
            out = np.zeros(X.shape[0])
            for w, h, v in zip(weights, hyps, support):
                out += w * h.sign * np.clip(X @ v / h.scale, -1, 1)
            return out

        ref = baseline(X_dense)
        for X in (X_csr, X_csc, X_dense):
            assert np.allclose(model.decision_function(X), ref, rtol=0, atol=1e-12)
        cells = [_median_seconds(lambda X=X, m=model: m.decision_function(X), args.repeat) * 1e3
                 for X in (X_csr, X_csc, X_dense)]
        base = [_median_seconds(lambda X=X: baseline(X), args.repeat) * 1e3
                for X in (X_csr, X_csc, X_dense)]
        print(f"| {T} | " + " | ".join(f"{ms:.1f}" for ms in (*cells, *base)) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
