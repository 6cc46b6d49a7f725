"""``thesis-tables``: thesis Tables 5.4-5.12 (§5.6) on a9a, german and any LIBSVM file in
--data-dir, the protocol of thesis §5 / Table 5.3 on a grid this machine can finish.

For every data set, hypothesis class (decision stumps, raw features, SVM hypotheses through
the ``kernel`` oracle) and algorithm, every grid point is trained on the training part and
scored on the validation part; the point of lowest validation error (first in grid order on a
tie) gives the test error and the training seconds reported, as in the thesis.

The grid is a :class:`Grid`, chosen by ``--grid`` (:data:`GRIDS`; ``--quick`` is
:data:`QUICK`); every one runs ERLPBoost, Binary ERLPBoost (and the corrective ones when this
version has them) at eps = 0.001 over nu/N x eta (eta's theory value among them: the eta of
every best setting in Tables 5.10-5.12 is one), at most 1,000 iterations (corrective: 20,000);
AdaBoost once, the round count chosen on validation among :data:`ADA_CHECKPOINTS`; LPBoost at
eps 0.01 and 0.05 over the same nu/N, reported apart (the thesis left it out of its tables);
a linear SVM (scikit-learn's LinearSVC) beside the SVM hypotheses, as Table 5.6 has one.

* ``table5.3``: Table 5.3's whole grid on every set (nu/N in {1/N, 0.1, ..., 0.9} x eta in
  {1, 2, 5, ..., 3000, theory}, AdaBoost 20,000 rounds): about 3,000 fits, hours here;
* ``medium`` (the default): german on that whole grid (the corrective algorithms on four
  eta values), a9a on the nu/N the thesis selected there and four eta values, nu = 1 left out
  on a9a (the thesis never selected it there); about half an hour with --jobs 2 on a quiet
  2-core machine;
* ``reduced``: nu/N in {1/N, 0.2, 0.5} (a9a {0.2, 0.3, 0.5}) x eta in {theory, 200},
  AdaBoost 1,000 rounds: minutes.

``dualboost reproduce --list`` states each grid's size and estimated time (from
:data:`FIT_SECONDS`, measured); the report states the grid that ran and what it left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .base import Context, Experiment, Report, Task
from .datasets import A9A, GERMAN, extra_libsvm, load_a9a, load_german
from .report import table

TC = ("erlpboost", "binary_erlpboost")
CORRECTIVE = ("corrective_erlpboost", "corrective_binary_erlpboost")
FORMULATION = {"erlpboost": "erlpboost", "binary_erlpboost": "binary_erlpboost",
               "corrective_erlpboost": "erlpboost",
               "corrective_binary_erlpboost": "binary_erlpboost"}
ALGORITHM = {"erlpboost": "erlpboost", "binary_erlpboost": "erlpboost",
             "corrective_erlpboost": "corrective_erlpboost",
             "corrective_binary_erlpboost": "corrective_binary_erlpboost"}
SHORT = {"erlpboost": "erlp", "binary_erlpboost": "bin", "corrective_erlpboost": "corr",
         "corrective_binary_erlpboost": "corr bin", "adaboost": "ada", "svm": "SVM"}
CLASS_NAME = {"stumps": "decision stumps", "raw": "raw data", "kernel": "SVM hypotheses"}
EPS = 0.001
#: AdaBoost's round counts selected on validation (those up to the run's rounds)
ADA_CHECKPOINTS = (50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)
#: above this many training examples a grid may treat a set as large (a9a) and give it a smaller
#: grid of its own
LARGE_N = 5000
#: the grid point nu = 1 (nu/N = 1/N)
NU_ONE = "1/N"
#: Table 5.3's grid (the theory value of eta, None here, is added to its eta values)
TABLE53_FRACS = (NU_ONE, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
TABLE53_ETAS = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 3000.0)


@dataclass(frozen=True)
class Grid:
    """One grid of ``thesis-tables`` (``--grid``): nu/N x eta per set size, the classes,
    AdaBoost's rounds, LPBoost's and the linear SVM's settings, the iteration caps."""

    name: str
    #: one line: what it is
    summary: str
    #: nu/N (NU_ONE: nu = 1) and eta (None: the theory value) on sets of at most LARGE_N
    #: training examples
    fracs: tuple
    etas: tuple
    #: the same above LARGE_N training examples (a9a)
    large_fracs: tuple
    large_etas: tuple
    #: the corrective algorithms' (nu/N, eta) where they differ (None: as above): each of
    #: their fits runs up to 20,000 iterations (at eps = 0.001 on german: always)
    corrective: tuple | None = None
    large_corrective: tuple | None = None
    #: ((class, (nu/N values, eta values)), ...): the corrective algorithms' points on the
    #: larger sets for one hypothesis class, where they differ from large_corrective
    large_corrective_by_class: tuple = ()
    ada_rounds: int = 20000
    classes: tuple = ("stumps", "raw", "kernel")
    svm_C: tuple = (0.01, 0.1, 1.0, 10.0)
    lp_eps: tuple = (0.01, 0.05)
    cap: int = 1000
    corrective_cap: int = 20000
    lp_cap: int = 1000
    large_lp_cap: int = 1000
    eps: float = EPS
    #: what it leaves out of Table 5.3's protocol, and why (empty: nothing)
    left_out: str = ""

    def pairs(self, N: int, corrective: bool = False,
              oracle: str | None = None) -> tuple[tuple, tuple]:
        """(nu/N values, eta values) as defined (NU_ONE, None = theory) for N examples (and,
        for the corrective algorithms, the hypothesis class ``oracle``)."""
        large = N > LARGE_N
        if corrective and large and oracle in dict(self.large_corrective_by_class):
            return dict(self.large_corrective_by_class)[oracle]
        own = self.large_corrective if large else self.corrective
        if corrective and own is not None:
            return own
        return (self.large_fracs, self.large_etas) if large else (self.fracs, self.etas)

    def points(self, N: int, corrective: bool = False,
               oracle: str | None = None) -> tuple[list[float], list[float | None]]:
        """(nu/N values, eta values) for a training set of N examples."""
        fracs, etas = self.pairs(N, corrective, oracle)
        return [1.0 / N if f == NU_ONE else float(f) for f in fracs], list(etas)

    def lp_max_iter(self, N: int) -> int:
        return self.large_lp_cap if N > LARGE_N else self.lp_cap


QUICK = Grid("quick", "german only, nu/N = 0.5, eta in {theory, 20} at eps = 0.01, at most 30 "
             "iterations (what the tests run)", fracs=(0.5,), etas=(None, 20.0),
             large_fracs=(0.5,), large_etas=(None, 20.0), ada_rounds=50,
             classes=("raw", "kernel"), svm_C=(0.1,), lp_eps=(0.05,), cap=30,
             corrective_cap=300, lp_cap=30, large_lp_cap=30, eps=0.01,
             left_out="a9a, the decision stumps and every grid point but nu/N = 0.5 x eta in "
                      "{theory, 20}, at eps = 0.01 and at most 30 iterations, so that the "
                      "tests take seconds")
GRIDS: dict[str, Grid] = {g.name: g for g in (
    Grid("medium", "german on Table 5.3's whole grid (the corrective algorithms: every nu/N x "
         "eta in {theory, 200, 1000, 3000}); a9a on nu/N in {0.1, 0.2, 0.3, 0.5} x eta in "
         "{theory, 200, 1000, 3000} (the corrective algorithms: {0.1, 0.2, 0.3} x {theory}, on "
         "SVM hypotheses x {theory, 200}); AdaBoost 20,000 rounds",
         fracs=TABLE53_FRACS, etas=(None,) + TABLE53_ETAS,
         corrective=(TABLE53_FRACS, (None, 200.0, 1000.0, 3000.0)),
         large_fracs=(0.1, 0.2, 0.3, 0.5), large_etas=(None, 200.0, 1000.0, 3000.0),
         large_corrective=((0.1, 0.2, 0.3), (None,)),
         large_corrective_by_class=(("kernel", ((0.1, 0.2, 0.3), (None, 200.0))),),
         large_lp_cap=300,
         left_out="for the corrective algorithms, eta in {1, 2, 5, 10, 20, 50, 100, 500, 2000} on"
                  " german and every eta but the theory value on a9a (on its SVM hypotheses, but "
                  "theory and 200: at the theory eta alone their test error there was 2-3 "
                  "points above the thesis's; each of their fits may run "
                  "20,000 iterations: on german's decision stumps at eps = 0.001 every sampled "
                  "one did, about 5 CPU seconds each; on a9a about 15 at the theory eta and "
                  "minutes at eta = 200; benchmarks/thesis_tables_fit_times.py); on a9a, nu = 1 "
                  "(the thesis never selected it there; at the theory eta ~ 2e4 an ERLPBoost "
                  "fit on stumps takes about 3 s, docs/choosing_nu.md; see `--grid "
                  "table5.3`), nu/N in "
                  "{0.4, 0.6, 0.7, 0.8, 0.9} (the thesis never selected them on a9a; the "
                  "corrective algorithms also 0.5) and the eta values other than {theory, 200, "
                  "1000, 3000} (every a9a selection of Tables 5.10-5.12 is a theory value); "
                  "LPBoost stops at 300 iterations there"),
    Grid("reduced", "nu/N in {1/N, 0.2, 0.5} (a9a: {0.2, 0.3, 0.5}) x eta in {theory, 200}, "
         "AdaBoost 1,000 rounds (the grid before --grid existed)",
         fracs=(NU_ONE, 0.2, 0.5), etas=(None, 200.0), large_fracs=(0.2, 0.3, 0.5),
         large_etas=(None, 200.0), ada_rounds=1000, large_lp_cap=300,
         left_out="nu/N other than {1/N, 0.2, 0.5} (a9a: {0.2, 0.3, 0.5}; the thesis never "
                  "selected nu = 1 there), eta other than {theory, 200}, "
                  "AdaBoost beyond 1,000 rounds (the thesis: 20,000); LPBoost stops at 300 "
                  "iterations on a9a; the grid before --grid existed (22 minutes with --jobs 2 "
                  "on this loaded machine)"),
    Grid("table5.3", "Table 5.3's whole grid on every set: nu/N in {1/N, 0.1, ..., 0.9} x "
         "eta in {1, 2, 5, ..., 3000, theory}, AdaBoost 20,000 rounds",
         fracs=TABLE53_FRACS, etas=(None,) + TABLE53_ETAS, large_fracs=TABLE53_FRACS,
         large_etas=(None,) + TABLE53_ETAS),
)}
DEFAULT_GRID = "medium"

#: the training-set sizes --list estimates the grids for (Table 5.2's a9a; german's 60 %)
LISTING_SIZES = {"german": 600, "a9a": 29305}
#: mean CPU seconds per fit (one BLAS thread: about a fit's wall time on a quiet machine) per
#: (set, class, algorithm), measured on a sample of grid points by
#: benchmarks/thesis_tables_fit_times.py (its docstring has the commands; the README of
#: benchmarks/ the numbers; these are the means over the runs of the medium grid, german
#: and a9a); AdaBoost per 1,000 rounds; "SET nu=1": the nu = 1 grid point of SET apart. On
#: a9a (eta ~ 2e4 there) the totally corrective fits at nu = 1 are a lower bound (AT_LEAST)
#: measured when the Newton master still fell back to its conic reference solve there (a
#: profiled ERLPBoost fit on decision stumps had not ended after 160 CPU seconds). Since the
#: master's release rule was fixed that fit ends in about 3 s (docs/choosing_nu.md): these
#: bounds are stale until the nu = 1 point is measured again, and overstate --list's estimate
FIT_SECONDS: dict[tuple[str, str, str], float] = {
    ('a9a', 'kernel', 'binary_erlpboost'): 2.42,
    ('a9a', 'kernel', 'corrective_binary_erlpboost'): 72.2,
    ('a9a', 'kernel', 'corrective_erlpboost'): 52.2,
    ('a9a', 'kernel', 'erlpboost'): 2.24,
    ('a9a', 'kernel', 'lpboost'): 2.86,
    ('a9a', 'kernel', 'svm'): 1.55,
    ('a9a', 'raw', 'adaboost'): 3.35,
    ('a9a', 'raw', 'binary_erlpboost'): 3.54,
    ('a9a', 'raw', 'corrective_binary_erlpboost'): 32.8,
    ('a9a', 'raw', 'corrective_erlpboost'): 11.5,
    ('a9a', 'raw', 'erlpboost'): 2.35,
    ('a9a', 'raw', 'lpboost'): 5.12,
    ('a9a', 'stumps', 'adaboost'): 5.07,
    ('a9a', 'stumps', 'binary_erlpboost'): 3.95,
    ('a9a', 'stumps', 'corrective_binary_erlpboost'): 53.4,
    ('a9a', 'stumps', 'corrective_erlpboost'): 18.5,
    ('a9a', 'stumps', 'erlpboost'): 2.72,
    ('a9a', 'stumps', 'lpboost'): 4.98,
    ('german', 'kernel', 'binary_erlpboost'): 0.0538,
    ('german', 'kernel', 'corrective_binary_erlpboost'): 2.68,
    ('german', 'kernel', 'corrective_erlpboost'): 1.88,
    ('german', 'kernel', 'erlpboost'): 0.0248,
    ('german', 'kernel', 'lpboost'): 0.00791,
    ('german', 'kernel', 'svm'): 0.175,
    ('german', 'raw', 'adaboost'): 1.31,
    ('german', 'raw', 'binary_erlpboost'): 0.0805,
    ('german', 'raw', 'corrective_binary_erlpboost'): 4.07,
    ('german', 'raw', 'corrective_erlpboost'): 2.45,
    ('german', 'raw', 'erlpboost'): 0.0544,
    ('german', 'raw', 'lpboost'): 0.0292,
    ('german', 'stumps', 'adaboost'): 0.377,
    ('german', 'stumps', 'binary_erlpboost'): 0.654,
    ('german', 'stumps', 'corrective_binary_erlpboost'): 4.77,
    ('german', 'stumps', 'corrective_erlpboost'): 3.88,
    ('german', 'stumps', 'erlpboost'): 0.884,
    ('german', 'stumps', 'lpboost'): 0.207,
    ('a9a nu=1', 'stumps', 'erlpboost'): 160.0,
    ('a9a nu=1', 'stumps', 'binary_erlpboost'): 160.0,
    ('a9a nu=1', 'raw', 'erlpboost'): 160.0,
    ('a9a nu=1', 'raw', 'binary_erlpboost'): 160.0,
    ('a9a nu=1', 'kernel', 'erlpboost'): 160.0,
    ('a9a nu=1', 'kernel', 'binary_erlpboost'): 160.0,
}
#: entries of FIT_SECONDS that are lower bounds (no such fit was run to its end here)
AT_LEAST: set[tuple[str, str, str]] = {k for k in FIT_SECONDS if k[0] == 'a9a nu=1'}
#: a fit this table does not have (a user's own set, say): not estimated
UNKNOWN = math.nan

#: Tables 5.4-5.6 (test error %), 5.7-5.9 (seconds), 5.10-5.12 (nu/N, eta) for a9a, german
PAPER = {
    ("stumps", "erlpboost"): ((15.60, 28.50), (536.10, 1.80), (".3, 2408", ".5, 139 (eps .01)")),
    ("stumps", "binary_erlpboost"): ((15.65, 27.50), (149.10, 2.10), (".2, 5219", ".5, 3386")),
    ("stumps", "corrective_erlpboost"): ((15.65, 25.00), (194.90, 0.00),
                                         ("0, 20571", ".4, 1833")),
    ("stumps", "corrective_binary_erlpboost"): ((15.54, 26.00), (456.90, 13.00),
                                                (".1, 6605", ".5, 339 (eps .01)")),
    ("stumps", "adaboost"): ((15.65, 30.50), (350.30, 6.99), ("–", "–")),
    ("raw", "erlpboost"): ((15.61, 27.00), (151.60, 0.10), (".2, 3219", "0, 1279 (eps .01)")),
    ("raw", "binary_erlpboost"): ((15.59, 26.50), (114.00, 0.30), (".2, 5219", ".2, 5219")),
    ("raw", "corrective_erlpboost"): ((15.65, 27.50), (134.70, 0.00),
                                      ("0, 20571", ".3, 241 (eps .01)")),
    ("raw", "corrective_binary_erlpboost"): ((15.69, 26.50), (1458.50, 0.90),
                                             (".3, 4408", ".2, 5219")),
    ("raw", "adaboost"): ((15.64, 26.00), (75.72, 22.03), ("–", "–")),
    ("kernel", "erlpboost"): ((15.62, 26.50), (8312.20, 11.00), ("0, 20571", "0, 1.27e6")),
    ("kernel", "binary_erlpboost"): ((15.64, 26.50), (3844.60, 81.60),
                                     (".3, 4408", "0, 1.48e6")),
    ("kernel", "corrective_erlpboost"): ((15.65, 26.50), (16117.0, 38.30),
                                         ("0, 2.06e6", "0, 1.28e6")),
    ("kernel", "corrective_binary_erlpboost"): ((15.65, 26.50), (16117.0, 38.30),
                                                ("0, 2.26e6", "0, 1.48e6")),
    ("kernel", "svm"): ((15.62, 26.00), (3.6, 2.05), ("–", "–")),
}


def _algorithms() -> list[str]:
    from ..algorithms import ALGORITHMS

    return list(TC) + [a for a in CORRECTIVE if a in ALGORITHMS]


def _errors(result, data: dict, hypotheses_limit: int | None = None) -> tuple[float, float]:
    return (float(np.mean(result.predict(data["X_valid"]) != data["y_valid"])),
            float(np.mean(result.predict(data["X_test"]) != data["y_test"])))


def boost_run(data: dict, *, dataset: str, oracle: str, algorithm: str, nu_frac: float,
              eta: float | None, eps: float, max_iter: int) -> dict:
    from .fitting import fit, summary

    d = data[dataset]
    N = len(d["y_train"])
    nu = max(1.0, nu_frac * N)
    formulation = FORMULATION.get(algorithm, "lpboost")
    algo = ALGORITHM.get(algorithm, algorithm)
    result, _, seconds = fit(d["X_train"], d["y_train"], formulation=formulation,
                             algorithm=algo, nu=nu, eps=eps, eta=eta, oracle=oracle,
                             max_iter=max_iter)
    valid, test = _errors(result, d)
    return {**summary(result), "valid_error": valid, "test_error": test, "seconds": seconds,
            "nu": nu}


def adaboost_run(data: dict, *, dataset: str, oracle: str, rounds: int,
                 checkpoints: list[int]) -> dict:
    from .fitting import error_of, fit, predictions

    d = data[dataset]
    result, _, seconds = fit(d["X_train"], d["y_train"], formulation="lpboost",
                             algorithm="adaboost", nu=1, oracle=oracle, max_iter=rounds)
    # 20,000 rounds pick the same few hundred stumps again and again: predict with each
    # distinct hypothesis once and add up its weights (a 9,768 x 20,000 matrix is 1.5 GB)
    index: dict[str, int] = {}
    column = np.array([index.setdefault(repr(h), len(index)) for h in result.hypotheses],
                      dtype=int)
    distinct = list({repr(h): h for h in result.hypotheses}.values())
    Hv = predictions(distinct, d["X_valid"])
    Ht = predictions(distinct, d["X_test"])
    w = np.asarray(result.weights, dtype=float)
    out = []
    for k in checkpoints:
        k = min(k, len(w))
        wk = np.bincount(column[:k], weights=w[:k], minlength=len(distinct))
        out.append({"rounds": k, "valid_error": error_of(wk, Hv, d["y_valid"],
                                                         result.tie_label),
                    "test_error": error_of(wk, Ht, d["y_test"], result.tie_label)})
    return {"checkpoints": out, "T": int(result.iterations), "seconds": seconds,
            "status": result.status}


def svm_run(data: dict, *, dataset: str, C: float) -> dict:
    import time

    from sklearn.svm import LinearSVC

    d = data[dataset]
    tick = time.perf_counter()
    clf = LinearSVC(C=C, dual=True, max_iter=20000, random_state=0).fit(d["X_train"],
                                                                        d["y_train"])
    seconds = time.perf_counter() - tick
    return {"valid_error": float(np.mean(clf.predict(d["X_valid"]) != d["y_valid"])),
            "test_error": float(np.mean(clf.predict(d["X_test"]) != d["y_test"])),
            "seconds": seconds}


class ThesisTables(Experiment):
    name = "thesis-tables"
    title = "Overall comparison, thesis Tables 5.4-5.12 (a9a, german, your LIBSVM files)"
    needs = A9A + (GERMAN,)
    full_time = ("the default grid (medium, 1,236 runs): 24.3 min with --jobs 2 in one "
                 "command on the nearly quiet machine (45 CPU minutes in all; the grids' sizes "
                 "and estimates below)")
    algorithms = ("erlpboost", "adaboost", "lpboost")
    optional_algorithms = CORRECTIVE

    grids = {name: g.summary for name, g in GRIDS.items()}

    def grid_listing(self) -> list[str]:
        from pathlib import Path

        from .grid import _clock

        lines = []
        for name, grid in GRIDS.items():
            ctx = Context(data_dir=None, out=Path("."), grid=name)
            tasks = self.tasks(ctx, {ds: {"y_train": np.zeros(n)}
                                     for ds, n in LISTING_SIZES.items()})
            seconds = sum(estimated_seconds(t) for t in tasks)
            bound = any(estimate_key(t) in AT_LEAST for t in tasks)
            when = ("not estimated" if not math.isfinite(seconds) else
                    f"estimated {'at least ' if bound else ''}{_clock(seconds / 2)} with "
                    "--jobs 2 on a quiet 2-core machine")
            lines.append(f"--grid {name}{' (the default)' if name == DEFAULT_GRID else ''}: "
                         f"{len(tasks):,} runs on a9a and german, {when}: {grid.summary}")
        return lines

    def grid_of(self, ctx: Context) -> Grid:
        """The grid ``ctx`` asks for: --quick's, --grid's or the default."""
        if ctx.quick:
            return QUICK
        return GRIDS[ctx.grid or DEFAULT_GRID]

    def classes(self, ctx: Context) -> tuple[str, ...]:
        return self.grid_of(ctx).classes

    def load_data(self, ctx: Context) -> dict:
        data = {"german": load_german(ctx)}
        if not ctx.quick:
            data["a9a"] = load_a9a(ctx)
        for extra in extra_libsvm(ctx):  # the user's own sets, in the quick version too
            data[extra["name"]] = extra
        return data

    def eps(self, ctx: Context) -> float:
        return self.grid_of(ctx).eps

    def tasks(self, ctx: Context, data: dict) -> list[Task]:
        grid = self.grid_of(ctx)
        tasks = []
        rounds = grid.ada_rounds
        for ds in data:
            N = len(data[ds]["y_train"])
            fracs, _ = grid.points(N)
            for oracle in grid.classes:
                for algorithm in _algorithms():
                    cap = grid.corrective_cap if algorithm in CORRECTIVE else grid.cap
                    a_fracs, etas = grid.points(N, algorithm in CORRECTIVE, oracle)
                    for frac in a_fracs:
                        for eta in etas:
                            tasks.append(Task(
                                (ds, oracle, algorithm, frac, eta or 0.0, grid.eps),
                                f"{__name__}:boost_run",
                                {"dataset": ds, "oracle": oracle, "algorithm": algorithm,
                                 "nu_frac": frac, "eta": eta, "eps": grid.eps,
                                 "max_iter": cap},
                                f"{ds} {oracle} {algorithm} nu/N={frac:.3g} "
                                f"eta={'theory' if eta is None else f'{eta:g}'}"))
                if oracle != "kernel":
                    tasks.append(Task((ds, oracle, "adaboost", 0.0, 0.0, 0.0),
                                      f"{__name__}:adaboost_run",
                                      {"dataset": ds, "oracle": oracle, "rounds": rounds,
                                       "checkpoints": [c for c in ADA_CHECKPOINTS
                                                       if c <= rounds]},
                                      f"{ds} {oracle} adaboost {rounds} rounds"))
                else:
                    for C in grid.svm_C:
                        tasks.append(Task((ds, oracle, "svm", C, 0.0, 0.0),
                                          f"{__name__}:svm_run", {"dataset": ds, "C": C},
                                          f"{ds} linear SVM C={C:g}"))
                for lp_eps in grid.lp_eps:
                    for frac in fracs:
                        tasks.append(Task((ds, oracle, "lpboost", frac, 0.0, lp_eps),
                                          f"{__name__}:boost_run",
                                          {"dataset": ds, "oracle": oracle,
                                           "algorithm": "lpboost", "nu_frac": frac,
                                           "eta": None, "eps": lp_eps,
                                           "max_iter": grid.lp_max_iter(N)},
                                          f"{ds} {oracle} lpboost nu/N={frac:.3g} "
                                          f"eps={lp_eps:g}"))
        return tasks

    def _select(self, runs: list[dict]) -> dict:
        """(dataset, class, algorithm) -> the chosen run's numbers (first lowest validation)."""
        best: dict = {}
        for r in runs:
            ds, oracle, algorithm, frac, eta, eps = r["key"]
            res = r["result"]
            if not res:
                continue
            if algorithm == "adaboost":
                cands = [{**c, "seconds": res["seconds"], "setting": f"{c['rounds']} rounds",
                          "T": c["rounds"]} for c in res["checkpoints"]]
            elif algorithm == "svm":
                cands = [{**res, "setting": f"C = {frac:g}", "T": None}]
            else:
                eta_val = res.get("eta")
                nu_text = "0" if frac * len_or(r) <= 1.0 + 1e-9 else f"{frac:.3g}"
                setting = (f"{nu_text}, {eta_val:.4g}" if eta_val is not None
                           else f"ν/N {nu_text}, ε {eps:g}")
                cands = [{**res, "setting": setting}]
            group = (ds, oracle, algorithm if algorithm != "lpboost" else f"lpboost eps={eps:g}")
            for c in cands:
                if group not in best or c["valid_error"] < best[group]["valid_error"]:
                    best[group] = c
        return best

    def report(self, ctx: Context, data: dict, runs: list[dict]) -> Report:
        best = self._select(runs)
        sets = list(dict.fromkeys(r["key"][0] for r in runs))  # in task (= data) order
        body = [
            "Protocol (thesis §5.6, Table 5.3): train on the training part for every grid "
            "point, select the lowest validation error, report its test error (%) and "
            "training seconds. Data: a9a as shipped (29,305 / 9,768 / 9,769 = Table 5.2); "
            f"german.csv split 60/20/20 by `numpy.random.default_rng({ctx.seed})` (the "
            "thesis's seed is not given); any other LIBSVM file in --data-dir split the same "
            "way.",
            "",
            grid_text(self.grid_of(ctx), sets) + " LPBoost: its multiple pricing and dual "
            "smoothing (the project's default). SVM hypotheses: the `kernel` oracle, "
            "h_i(x) = ⟨x_i, x⟩ / s with s = max_n ‖x_n‖² over the training rows (so every "
            "training value is in [−1, 1]; new data clipped), and their negations. Linear SVM: "
            "scikit-learn LinearSVC.",
            "",
        ]
        rows = []
        checks = []
        for oracle in self.classes(ctx):
            names = _algorithms() + (["svm"] if oracle == "kernel" else ["adaboost"])
            for ds in sets:
                for algorithm in names:
                    b = best.get((ds, oracle, algorithm))
                    paper = PAPER.get((oracle, algorithm))
                    col = {"a9a": 0, "german": 1}.get(ds)
                    p_err = paper[0][col] if paper and col is not None else None
                    p_sec = paper[1][col] if paper and col is not None else None
                    p_set = paper[2][col] if paper and col is not None else "–"
                    ours = None if b is None else 100 * b["test_error"]
                    diff = None if ours is None or p_err is None else ours - p_err
                    if ds == "a9a" and diff is not None:
                        checks.append((oracle, algorithm, diff))
                    rows.append([CLASS_NAME[oracle], ds, SHORT.get(algorithm, algorithm),
                                 p_err, ours, diff,
                                 None if b is None else 100 * b["valid_error"],
                                 p_set, None if b is None else b["setting"],
                                 None if b is None else b.get("T"),
                                 p_sec, None if b is None else b["seconds"]])
        body += ["## Tables 5.4–5.12: best by validation", "",
                 "Test error in %; 'paper' from Tables 5.4–5.6, its seconds from 5.7–5.9 "
                 "(unknown hardware, 2009), its setting 'ν/N, η' from 5.10–5.12 (0 = ν of 1). "
                 "Our setting is 'ν/N, η' the same way (η the value used).",
                 "",
                 table(["class", "data", "alg", "paper test %", "ours test %", "difference",
                        "ours valid %", "paper ν/N, η", "ours ν/N, η", "T", "paper train [s]",
                        "ours train [s]"], rows,
                       ["", "", "", ".2f", ".2f", "+.2f", ".2f", "", "", ".0f", ".2f", ".2f"])]
        far = [(o, a, d) for o, a, d in checks if abs(d) > 0.5]
        verdict = "not run (no a9a)" if not checks else ("yes" if not far else "no")
        body += ["", "a9a within ±0.5 points of the thesis for every algorithm and class: "
                 f"**{verdict}**" +
                 ("" if not far else " — outside: " + "; ".join(
                     f"{SHORT.get(a, a)} / {CLASS_NAME[o]} {d:+.2f}" for o, a, d in far) +
                  ". Why: the thesis's winners are theory η at other ε (0.01 and "
                  "1e-5) and ν/N on a finer grid; ours run at ε = 0.001 on a coarser grid, and "
                  "its SVM hypotheses' scaling is not stated.")]
        if "german" in sets:
            n_test = len(data["german"]["y_test"]) if "german" in data else 200
            body += ["", f"german: its test part has {n_test} examples (one example = "
                     f"{100 / n_test:.1f} points) and the thesis's split seed is unknown, so "
                     "differences of a few points there are within the split's noise; the "
                     "SVM-hypothesis rows are the farthest (the scaling of these hypotheses is "
                     "not stated in the thesis; ours divides by max_n ‖x_n‖²)."]
        lp_rows = []
        for ds in sets:
            for oracle in self.classes(ctx):
                for eps in ((0.05,) if ctx.quick else (0.01, 0.05)):
                    b = best.get((ds, oracle, f"lpboost eps={eps:g}"))
                    if b:
                        lp_rows.append([ds, CLASS_NAME[oracle], eps, 100 * b["test_error"],
                                        100 * b["valid_error"], b["setting"], b.get("T"),
                                        b.get("status"), b["seconds"]])
        body += ["", "## LPBoost (left out of the thesis's tables: 'would not converge' at "
                 "ε = 0.001)", "",
                 table(["data", "class", "ε", "test %", "valid %", "setting", "T", "status",
                        "train [s]"], lp_rows,
                       ["", "", ".2g", ".2f", ".2f", "", ".0f", "", ".2f"])]

        def figure(fig, ds: str) -> None:
            ax = fig.add_subplot(1, 1, 1)
            labels, ours, paper = [], [], []
            for r in rows:
                if r[1] == ds and r[3] is not None and r[4] is not None:
                    labels.append(f"{r[2]}\n{r[0].split()[0]}")
                    ours.append(r[4])
                    paper.append(r[3])
            x = np.arange(len(labels))
            ax.bar(x - 0.2, paper, 0.4, label="thesis")
            ax.bar(x + 0.2, ours, 0.4, label="ours")
            ax.set_xticks(x, labels, fontsize=6)
            if ours:
                ax.set_ylim(min(ours + paper) - 1, max(ours + paper) + 1)
            ax.set_ylabel("test error (%)")
            ax.set_title(f"{ds}: best-by-validation test error")
            ax.legend()

        from functools import partial

        figures = {f"{ds}_test_error.png": partial(figure, ds=ds) for ds in sets
                   if ds in ("a9a", "german")}
        return Report("\n".join(body), figures, {"seed": ctx.seed, "eps": EPS})


def estimate_key(task: Task) -> tuple[str, str, str]:
    """The :data:`FIT_SECONDS` entry a task is estimated by."""
    ds, oracle, algorithm = task.key[:3]
    N = LISTING_SIZES.get(ds)
    if (algorithm not in ("svm", "adaboost", "lpboost") and N
            and task.kwargs["nu_frac"] * N <= 1.0 + 1e-9
            and (f"{ds} nu=1", oracle, algorithm) in FIT_SECONDS):
        return (f"{ds} nu=1", oracle, algorithm)
    return (ds, oracle, algorithm)


def estimated_seconds(task: Task) -> float:
    """A task's CPU seconds from :data:`FIT_SECONDS` (NaN when it has none)."""
    seconds = FIT_SECONDS.get(estimate_key(task), UNKNOWN)
    if task.key[2] == "adaboost":  # measured per 1,000 rounds
        seconds *= task.kwargs["rounds"] / 1000
    return seconds


def _values(values: list, fmt=None) -> str:
    fmt = fmt or (lambda v: f"{v:g}")
    return "{" + ", ".join(fmt(v) for v in values) + "}"


def _frac_text(f) -> str:
    return "1/N" if f == NU_ONE else f"{f:g}"


def _eta_text(e) -> str:
    return "theory" if e is None else f"{e:g}"


def _greek(text: str) -> str:
    """The ASCII names of the grid definitions as the report writes them."""
    import re

    for word, letter in (("nu", "ν"), ("eta", "η"), ("eps", "ε")):
        text = re.sub(rf"\b{word}\b", letter, text)
    return text


def grid_text(grid: Grid, sets: list[str]) -> str:
    """The report's paragraph on the grid that ran: its points, and what it left out of
    Table 5.3's protocol and why."""
    def points(fracs, etas) -> str:
        return (f"ν/N ∈ {_values(list(fracs), _frac_text)} × η ∈ "
                f"{_values(list(etas), _eta_text)}")

    def both(pair, corrective) -> str:
        text = points(*pair)
        if corrective is not None and corrective != pair:
            text += f" (the corrective algorithms: {points(*corrective)})"
        return text

    small = both((grid.fracs, grid.etas), grid.corrective)
    large = both((grid.large_fracs, grid.large_etas), grid.large_corrective)
    for oracle, pair in grid.large_corrective_by_class:
        large += f" (on {CLASS_NAME[oracle]}: {points(*pair)})"
    where = (small if small == large else
             f"{small} on sets of at most {LARGE_N:,} training examples (german), {large} on "
             "larger ones (a9a)")
    text = (f"Grid `{grid.name}` (`--grid`; `dualboost reproduce --list` names the others): "
            f"{where}, at ε = {grid.eps:g} (η's theory value: (2/ε) ln(N/ν) for ERLPBoost and "
            "Corrective ERLPBoost, (2/ε)(ln(N/ν) + 1) for the binary variants); at most "
            f"{grid.cap:,} iterations (corrective: {grid.corrective_cap:,}). AdaBoost: one run "
            f"of {grid.ada_rounds:,} rounds, the round count selected on validation among "
            f"{_values([c for c in ADA_CHECKPOINTS if c <= grid.ada_rounds])}. LPBoost at "
            f"ε ∈ {_values(list(grid.lp_eps))} over the same ν/N, at most {grid.lp_cap:,} "
            "iterations" + (f" ({grid.large_lp_cap:,} on the larger sets)"
                            if grid.large_lp_cap != grid.lp_cap else "") +
            f". Linear SVM: C ∈ {_values(list(grid.svm_C))}.")
    text += (" The thesis (Table 5.3): ν/N ∈ {1/N, 0.1, …, 0.9} × η ∈ {1, 2, 5, 10, 20, 50, "
             "100, 200, 500, 1000, 2000, 3000, theory}, AdaBoost 20,000 rounds; its best "
             "settings (Tables 5.10–5.12) are all theory values of η, several at ε = 0.01 or "
             "1e-5; ours are at one ε.")
    if grid.left_out:
        text += f" Left out of Table 5.3 here: {_greek(grid.left_out)}."
    else:
        text += " Nothing of Table 5.3's grid is left out."
    return text


def len_or(record: dict) -> float:
    """N of the run's training set (1 / nu_frac for the nu = 1 grid point)."""
    res = record.get("result") or {}
    frac = record["key"][3]
    nu = res.get("nu")
    return (nu / frac) if nu and frac else math.inf
