"""Members of the regularized family against the built-in ERLPBoost: fit seconds and ratios.

For each regularizer the project ships or documents (the relative entropy, binary, unnormalized,
l2, Tsallis, and docs/examples' 4/3-power, chi^2, Hellinger) on breast cancer, german and a9a
(each skipped with a note when its file is absent), the fit is timed twice at the same nu and eps
as the built-in ``erlpboost``:

* ``4 decl.``: the member with its four declarations only (R, R*, sigma, B; every hand-written
  numpy line of a shipped member removed), on the projected-Newton master with the numerics
  compiled from the cvxpy expressions (dualboost/separable.py);
* ``numpy``: the member as shipped, with its optional numpy lines (the docs' members have none:
  "-").

``ratio`` is the member's seconds over the built-in erlpboost's, measured back to back (the
machine's load drifts; ``--repeat K`` keeps the minimum of K runs of each). Targets (issue 18):
<= 4x with four declarations, <= 2x with the numpy lines. ``paths`` counts master solves that
did not run on the fast master (0 expected). Run from the project root::

    python benchmarks/members.py                          # breast_cancer, german, a9a
    python benchmarks/members.py --data breast_cancer --repeat 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualboost.api import run  # noqa: E402
from dualboost.data import load_dataset, shared_data_dir  # noqa: E402
from dualboost.registry import load_formulation  # noqa: E402
from dualboost.regularized import RegularizedLPBoost  # noqa: E402

#: the numpy lines a shipped member may write; "4 decl." resets them to the derived ones
NUMPY_LINES = ("regularizer_value", "regularizer_gradient", "conjugate_value",
               "conjugate_gradient", "optimal_beta", "best_response", "inverse_curvature",
               "dual_value")

MEMBERS = [
    ("entropy", "erlpboost"),
    ("binary", "binary_erlpboost"),
    ("unnormalized", "erlpboost_unnormalized"),
    ("l2", "erlpboost_l2"),
    ("Tsallis q=0.5", "erlpboost_tsallis"),
    ("4/3-power", "docs/examples/power43.py"),
    ("chi^2", "docs/examples/chi2.py"),
    ("Hellinger", "docs/examples/hellinger.py"),
]

#: data set -> (nu as a fraction of N, eps)
SETTINGS = {"breast_cancer": (0.2, 0.01), "german": (0.5, 0.01), "a9a": (0.3, 0.01)}


def four_declarations(cls: type) -> type:
    """``cls`` with every hand-written numpy line replaced by the derived one."""
    attrs = {name: getattr(RegularizedLPBoost, name) for name in NUMPY_LINES
             if name in vars(RegularizedLPBoost)}
    attrs.update(name=f"{cls.name}_4", fast_paths=())
    return type(f"{cls.__name__}FourDeclarations", (cls,), attrs)


def has_numpy_lines(cls: type) -> bool:
    return any(getattr(cls, name) is not getattr(RegularizedLPBoost, name)
               for name in NUMPY_LINES if name in vars(RegularizedLPBoost))


def load(name: str):
    if name == "breast_cancer":
        data = load_dataset("breast_cancer")
        return data.X, data.y
    base = shared_data_dir()
    path = None if base is None else Path(base) / ("german.csv" if name == "german"
                                                   else "a9a.train")
    if path is None or not path.exists():
        return None
    data = load_dataset(str(path), n_features=123) if name == "a9a" else \
        load_dataset(str(path))
    return data.X, data.y


def timed(X, y, formulation, nu_frac: float, eps: float, repeat: int):
    best, result = np.inf, None
    for _ in range(repeat):
        tick = time.perf_counter()
        result = run(X, y, formulation=formulation, nu_frac=nu_frac, eps=eps, kkt=False)
        best = min(best, time.perf_counter() - tick)
    other = sum(count for path, count in result.master_paths.items()
                if path != "projected-newton")
    return best, result, other


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="breast_cancer,german,a9a")
    parser.add_argument("--members", default=None,
                        help="comma-separated labels (default: all)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    wanted = None if args.members is None else set(args.members.split(","))
    header = (f"{'data':<14} {'member':<14} {'T':>4} {'erlpboost s':>11} {'4 decl. s':>9} "
              f"{'ratio':>6} {'numpy s':>8} {'ratio':>6} {'paths':>5}")
    print(header)
    print("-" * len(header))
    worst4 = worst_np = 0.0
    for name in args.data.split(","):
        loaded = load(name)
        if loaded is None:
            print(f"{name:<14} skipped: file absent (dualboost.data.shared_data_dir())")
            continue
        X, y = loaded
        nu_frac, eps = SETTINGS[name]
        for label, spec in MEMBERS:
            if wanted is not None and label not in wanted:
                continue
            cls = load_formulation(spec)
            base_s, base, _ = timed(X, y, "erlpboost", nu_frac, eps, args.repeat)
            four_s, four, other = timed(X, y, four_declarations(cls), nu_frac, eps, args.repeat)
            ratio4 = four_s / base_s
            worst4 = max(worst4, ratio4)
            numpy_text = ratio_text = "-"
            if has_numpy_lines(cls):
                np_s, _, other_np = timed(X, y, cls, nu_frac, eps, args.repeat)
                other += other_np
                worst_np = max(worst_np, np_s / base_s)
                numpy_text, ratio_text = f"{np_s:.2f}", f"{np_s / base_s:.2f}"
            print(f"{name:<14} {label:<14} {four.iterations:>4} {base_s:>11.2f} "
                  f"{four_s:>9.2f} {ratio4:>6.2f} {numpy_text:>8} {ratio_text:>6} "
                  f"{other:>5}", flush=True)
    print(f"\nworst ratio: four declarations {worst4:.2f} (target <= 4), numpy lines "
          f"{worst_np:.2f} (target <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
