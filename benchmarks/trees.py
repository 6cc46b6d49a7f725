"""Trees as weak learners: dualboost's tree oracles against scikit-learn's AdaBoost and
HistGradientBoosting, test accuracy and fit seconds (issue 30; results in benchmarks/trees.md).

The data set is the issue's: ``make_classification(n_samples=20000, n_features=50,
n_informative=10, flip_y=0.05, random_state=0)``, the first 10,000 rows to train and the rest to
test. Rows:

* ``DualBoostClassifier(formulation=F, oracle="tree", oracle_params={"max_depth": k})`` for
  F in {erlpboost, lpboost} and k in {2, 3, 4} (greedy trees on binned features, a heuristic
  oracle: the certificates hold over the trees found);
* ``oracle="tree2_exact"`` (the best depth-2 tree per call, exact: certified over all depth-2
  trees on the bins);
* ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=k), n_estimators=200)`` for k = 2, 3, 4;
* ``HistGradientBoostingClassifier()``.

Run from the project root (single-threaded BLAS, as dualboost's fits use)::

    python benchmarks/trees.py                      # every row (about 10 minutes on 2 cores)
    python benchmarks/trees.py --only dualboost     # dualboost's rows only
    python benchmarks/trees.py --depths 3 --formulations erlpboost --no-exact   # the target pair
    python benchmarks/trees.py --nu-frac 0.3 --eps 0.01 --time-limit 300
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")

from sklearn.datasets import make_classification  # noqa: E402
from sklearn.ensemble import AdaBoostClassifier, HistGradientBoostingClassifier  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from dualboost.estimator import DualBoostClassifier  # noqa: E402


def data() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X, y = make_classification(n_samples=20000, n_features=50, n_informative=10, flip_y=0.05,
                               random_state=0)
    return X[:10000], y[:10000], X[10000:], y[10000:]


def rows(args: argparse.Namespace) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    if args.only in (None, "dualboost"):
        for form in args.formulations:
            for depth in args.depths:
                out.append((f"{form}, tree depth {depth}", DualBoostClassifier(
                    formulation=form, nu_frac=args.nu_frac, eps=args.eps, oracle="tree",
                    oracle_params={"max_depth": depth}, time_limit=args.time_limit)))
        if not args.no_exact:
            out.append(("erlpboost, tree2_exact (exact depth 2)", DualBoostClassifier(
                nu_frac=args.nu_frac, eps=args.eps, oracle="tree2_exact",
                time_limit=args.time_limit)))
    if args.only in (None, "sklearn"):
        for depth in args.depths:
            out.append((f"AdaBoost(tree depth {depth}, 200)", AdaBoostClassifier(
                DecisionTreeClassifier(max_depth=depth), n_estimators=200, random_state=0)))
        if not args.no_hgb:
            out.append(("HistGradientBoosting()",
                        HistGradientBoostingClassifier(random_state=0)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("dualboost", "sklearn"), default=None)
    parser.add_argument("--nu-frac", type=float, default=0.2)
    parser.add_argument("--eps", type=float, default=0.01)
    parser.add_argument("--depths", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--formulations", nargs="+", default=["erlpboost", "lpboost"])
    parser.add_argument("--no-exact", action="store_true", help="skip the tree2_exact row")
    parser.add_argument("--no-hgb", action="store_true", help="skip HistGradientBoosting")
    args = parser.parse_args()
    Xtr, ytr, Xte, yte = data()
    print("| model | test accuracy | fit (s) | T | status |")
    print("|---|---|---|---|---|")
    for name, model in rows(args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = time.perf_counter()
            model.fit(Xtr, ytr)
            seconds = time.perf_counter() - start
        accuracy = float(np.mean(model.predict(Xte) == yte))
        result = getattr(model, "result_", None)
        T = getattr(model, "n_iter_", None) if result is not None else len(
            getattr(model, "estimators_", []) or []) or "-"
        status = result.status if result is not None else "-"
        print(f"| {name} | {accuracy:.4f} | {seconds:.1f} | {T} | {status} |", flush=True)


if __name__ == "__main__":
    main()
