"""``softboost-synthetic``: seed 004 §5's synthetic experiment (Figs 2 and 3).

Data (seed 004 §5; docs/reproductions.md states the one uncertain step): a 2000 x 100 matrix X
of uniform [0, 1] entries; the first 1000 rows get +1/2 on their first 10 columns, "and
rescaled such that the entries in those columns were again in [0, 1]". We read this as a
rescaling of the *columns* (``rescale="column"``, the default)::

    x_nj <- (x_nj + [n < 1000] / 2) / 1.5        for j < 10 and every row n,

so the positive class's signal entries lie in [1/3, 1] (mean 2/3) and the negative class's in
[0, 2/3] (mean 1/3). This is the reading that reproduces the independent rerun of the recipe
recorded with the seed (seed 0, N = 500, nu = 200: optimum soft margin 0.0251, LPBoost T = 52,
SoftBoost T = 55). Min-max scaling of each of the 10 columns (``rescale="minmax"``) gives nearly
the same numbers (0.02513 at nu = 200); dividing only the shifted entries (``"shifted"``, the
first 1000 rows) leaves the negative class's signal entries at mean 1/2 and the optimum soft
margin 0 for every nu/N <= 0.3. Labels: +1 for the first 1000 rows, -1 for the rest; the labels
of a random 10 % (200 examples) flipped; a random 500 examples train, the other 1500 test. The
hypotheses are the 100 columns and their negations (200, values in [0, 1] or [-1, 0]), with a
maximum-edge oracle over them (the ``finite`` oracle). Random numbers: numpy's
``default_rng(seed)``, drawn in the order X, flipped labels, train/test permutation; seed 0.

Fig. 2: test error against nu/N for SoftBoost and LPBoost at delta = eps = 1e-3, beside the LP
(2.3) over all 200 hypotheses. Fig. 3: the soft margin (2.2) against the iteration at nu = 200
(nu/N = 0.4), eps = 1e-2, for LPBoost, SoftBoost, ERLPBoost, the stagewise AdaBoost and the
corrective algorithms of this version. Two test errors are compared with a paired (McNemar)
criterion on the same 1500 test examples: a difference counts when it exceeds twice its
standard error, 2 sqrt(b + c) / M, b and c the examples only one of the two classifiers gets
wrong (:func:`paired_noise`).
"""

from __future__ import annotations

import numpy as np

from ..margins import soft_margin
from .base import Context, Experiment, Report, Task
from .report import table

N_ALL, F, N_TRAIN, N_SIGNAL = 2000, 100, 500, 10
FIG2_EPS, FIG3_EPS, FIG3_NU = 1e-3, 1e-2, 200
#: Fig. 3's iteration cap: the paper's axis ends at 10^3, but the corrective algorithms (one
#: hypothesis step per iteration) need about 10^4 iterations to reach eps = 0.01 here
FIG3_MAX_ITER = 20000
#: Fig. 3's 'close to the optimum': the first iteration within this of it (the 'slower start')
FIG3_CLOSE = 0.005
#: the readings of seed 004's "rescaled such that the entries in those columns were again in
#: [0, 1]" that :func:`make_data` offers; the first is the experiment's
RESCALINGS = ("column", "minmax", "shifted")
#: the independent rerun of the recipe recorded with the seed (seed 0, N = 500, nu = 200,
#: delta = 0.01): the optimum soft margin and each algorithm's T
RERUN = {"optimum": 0.0251, "lpboost": 52, "softboost": 55}
#: the algorithms of Fig. 3 beside LPBoost and SoftBoost, when this version has them
FIG3_EXTRA = ("erlpboost", "adaboost", "corrective_erlpboost", "corrective_binary_erlpboost")
#: Fig. 2's nu/N: the paper's axis runs 0..0.8; the optimum leaves 0 near 0.19 and the error's
#: minimum lies in 0.3-0.5, so that stretch is sampled every 0.05
FULL_FRACS = (1 / N_TRAIN, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7,
              0.8)
#: an optimum soft margin at or below this is the degenerate 0 (a cancelling pair x_j, -x_j)
ZERO = 1e-9


def make_data(seed: int = 0, rescale: str = "column") -> dict:
    """Seed 004 §5's synthetic set: train and test hypothesis values, noisy and clean labels.

    ``rescale`` is the reading of the paper's "rescaled such that the entries in those columns
    were again in [0, 1]" (j < 10 the signal columns, P the first 1000 rows, the positives):

    * ``"column"`` (the experiment's): x_nj <- (x_nj + [n in P]/2) / 1.5 for every row n, so
      positives' signal entries lie in [1/3, 1] and negatives' in [0, 2/3];
    * ``"minmax"``: add 1/2 on P, then each signal column min-max scaled to exactly [0, 1];
    * ``"shifted"``: x_nj <- (x_nj + 1/2) / 1.5 on P only; negatives' signal entries stay
      uniform on [0, 1].

    Returns ``H_train`` (500 x 200: the columns, then their negations), ``y_train``, ``H_test``
    (1500 x 200), ``y_test`` (labels after the 10 % flip) and ``y_train_clean``,
    ``y_test_clean`` (the class, +1 for the first 1000 rows, before the flip).
    """
    if rescale not in RESCALINGS:
        raise ValueError(f"rescale must be one of {', '.join(map(repr, RESCALINGS))}; "
                         f"got {rescale!r}")
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, 1.0, (N_ALL, F))
    positive = np.arange(N_ALL) < N_ALL // 2
    S = X[:, :N_SIGNAL]  # a view: the signal columns, rescaled in place
    S[positive] += 0.5
    if rescale == "column":
        S /= 1.5
    elif rescale == "minmax":
        S -= S.min(axis=0)
        S /= S.max(axis=0)
    else:
        S[positive] /= 1.5
    clean = np.where(positive, 1.0, -1.0)
    y = clean.copy()
    flip = rng.choice(N_ALL, size=N_ALL // 10, replace=False)
    y[flip] *= -1.0
    perm = rng.permutation(N_ALL)
    train, test = perm[:N_TRAIN], perm[N_TRAIN:]
    H = np.hstack([X, -X])  # hypothesis j < 100: x_j; j >= 100: -x_j
    return {"H_train": H[train], "y_train": y[train], "H_test": H[test], "y_test": y[test],
            "y_train_clean": clean[train], "y_test_clean": clean[test]}


def _wrong_bits(predicted: np.ndarray, y: np.ndarray) -> str:
    """Which test examples a classifier gets wrong, packed (hex) for the run JSON."""
    return np.packbits(np.asarray(predicted) != np.asarray(y)).tobytes().hex()


def wrong_from_bits(bits: str, M: int) -> np.ndarray:
    """The boolean mask :func:`_wrong_bits` packed."""
    return np.unpackbits(np.frombuffer(bytes.fromhex(bits), dtype=np.uint8))[:M].astype(bool)


def paired_noise(wrong_a: np.ndarray, wrong_b: np.ndarray) -> tuple[float, float]:
    """(err_a - err_b, twice its standard error) for two classifiers on the same test set.

    McNemar's normal approximation: with b, c the examples only a, only b gets wrong, the
    difference is (b - c)/M with standard error about sqrt(b + c)/M; a difference above
    2 sqrt(b + c)/M is beyond the test set's noise (about 95 %)."""
    a, b = np.asarray(wrong_a, bool), np.asarray(wrong_b, bool)
    M = a.size
    only_a, only_b = int(np.count_nonzero(a & ~b)), int(np.count_nonzero(b & ~a))
    return (only_a - only_b) / M, 2.0 * float(np.sqrt(only_a + only_b)) / M


def u_shape(fracs: list[float], errors: list[float | None], wrong: list[np.ndarray | None],
            optimum: list[float | None]) -> dict | None:
    """The U-shape check on one test-error curve, or None with fewer than 3 usable points.

    Usable: the optimum over all 200 hypotheses is above 0 (where it is 0 the LP is solved by
    a cancelling pair and the classifier is degenerate) and the run finished. The curve is a
    U when its minimum is at neither end of the usable range and *both* ends exceed the
    minimum by more than the paired noise of :func:`paired_noise`."""
    use = [i for i, (e, w, o) in enumerate(zip(errors, wrong, optimum))
           if e is not None and w is not None and o is not None and o > ZERO]
    if len(use) < 3:
        return None
    m = min(use, key=lambda i: errors[i])
    ends = {}
    for side, i in (("left", use[0]), ("right", use[-1])):
        diff, noise = paired_noise(wrong[i], wrong[m])
        ends[side] = {"frac": fracs[i], "error": errors[i], "excess": diff, "noise": noise,
                      "above": i != m and diff > noise}
    return {"min": {"frac": fracs[m], "error": errors[m]}, **ends,
            "verdict": ends["left"]["above"] and ends["right"]["above"]}


def _fig3_algorithms() -> list[str]:
    from ..algorithms import ALGORITHMS

    return ["lpboost", "softboost"] + [a for a in FIG3_EXTRA if a in ALGORITHMS]


def _test_numbers(d: dict, predicted: np.ndarray) -> dict:
    return {"test_error": float(np.mean(predicted != d["y_test"])),
            "clean_test_error": float(np.mean(predicted != d["y_test_clean"])),
            "test_wrong": _wrong_bits(predicted, d["y_test"])}


def fig2_run(data: dict, *, nu: float, algorithm: str, eps: float = FIG2_EPS,
             max_iter: int = 1000) -> dict:
    from .fitting import fit, summary

    d = data["synthetic"]
    result, _, seconds = fit(None, d["y_train"], formulation=algorithm, nu=nu, eps=eps,
                             hypotheses=d["H_train"], max_iter=max_iter)
    train = float(np.mean(result.predict(d["H_train"]) != d["y_train"]))
    return {**summary(result), **_test_numbers(d, result.predict(d["H_test"])),
            "train_error": train, "seconds": seconds}


def fig3_run(data: dict, *, algorithm: str, max_iter: int = FIG3_MAX_ITER) -> dict:
    from .fitting import fit, summary

    d = data["synthetic"]
    H, y = d["H_train"], d["y_train"]
    U = y[:, None] * H
    formulation = {"adaboost": "lpboost", "softboost": "softboost", "lpboost": "lpboost"}.get(
        algorithm, None)
    if formulation is None:  # a regularized algorithm: its own default formulation
        formulation = "binary_erlpboost" if "binary" in algorithm else "erlpboost"
    # the corrective algorithms record the soft margin of their normalized w_t themselves
    # (margin_lower); ERLPBoost's certified w^t is traced after every master solve
    corrective = algorithm.startswith("corrective")
    trace = algorithm not in ("lpboost", "softboost", "adaboost") and not corrective
    result, weights, seconds = fit(None, y, formulation=formulation, algorithm=algorithm,
                                   nu=FIG3_NU, eps=FIG3_EPS, hypotheses=H, max_iter=max_iter,
                                   trace=trace)
    idx = [int(h.index) for h in result.hypotheses]
    curve: list[float | None] = []
    if corrective:
        # record t carries the soft margin of w_t, the weights *before* step t: shift by one
        # so that entry t is the weights after iteration t, the last the output's (at a
        # converged stop no step is taken, so the last two agree)
        curve = [r.margin_lower if r.margin_lower is not None and np.isfinite(r.margin_lower)
                 else None for r in result.history[1:]] + [float(result.soft_margin)]
    elif weights:
        for w in weights:
            s = float(np.sum(w))
            curve.append(soft_margin(U[:, idx[:len(w)]] @ (w / s), FIG3_NU) if s > 0 else None)
    else:
        for r in result.history:
            if algorithm == "softboost":
                curve.append(r.lp_value)
            elif r.solved or algorithm == "adaboost":
                curve.append(r.dual)
    return {**summary(result), "curve": curve, "seconds": seconds,
            "test_error": float(np.mean(result.predict(d["H_test"]) != d["y_test"]))}


def optimum_run(data: dict, *, nu: float) -> dict:
    from .fitting import soft_margin_lp

    d = data["synthetic"]
    U = d["y_train"][:, None] * d["H_train"]
    value, w = soft_margin_lp(U, nu)
    predicted = np.where(d["H_test"] @ w > 0, 1.0, -1.0)
    return {"optimum": value, **_test_numbers(d, predicted)}


def _u_line(name: str, u: dict | None) -> str:
    if u is None:
        return (f"{name}: not measured (fewer than 3 ν/N with a positive optimum and a "
                "finished run).")
    parts = []
    for side in ("left", "right"):
        e = u[side]
        parts.append(f"{side} end ν/N = {e['frac']:g}: {e['error']:.4f}, "
                     f"{e['excess']:+.4f} vs noise {e['noise']:.4f} "
                     f"({'above' if e['above'] else 'not above'})")
    return (f"{name}: minimum {u['min']['error']:.4f} at ν/N = {u['min']['frac']:g}; "
            + "; ".join(parts) + f" → **{'yes' if u['verdict'] else 'no'}**.")


class SoftBoostSynthetic(Experiment):
    name = "softboost-synthetic"
    title = "SoftBoost vs LPBoost on seed 004's synthetic data (Figs 2 and 3)"
    needs = ()
    full_time = "2.4 min with --jobs 2 (48 runs) on the loaded machine (load ~7)"
    algorithms = ("lpboost", "softboost")
    optional_algorithms = ("corrective_erlpboost", "corrective_binary_erlpboost")

    def fracs(self, ctx: Context) -> list[float]:
        return [0.2, 0.4, 0.8] if ctx.quick else list(FULL_FRACS)

    def eps2(self, ctx: Context) -> float:
        return 1e-2 if ctx.quick else FIG2_EPS

    def load_data(self, ctx: Context) -> dict:
        return {"synthetic": make_data(ctx.seed)}

    def tasks(self, ctx: Context, data: dict) -> list[Task]:
        tasks = []
        for frac in self.fracs(ctx):
            nu = max(1.0, frac * N_TRAIN)
            for a in ("softboost", "lpboost"):
                tasks.append(Task(("fig2", a, frac), f"{__name__}:fig2_run",
                                  {"nu": nu, "algorithm": a, "eps": self.eps2(ctx),
                                   "max_iter": 20 if ctx.quick else 1000},
                                  f"fig2 {a} nu/N={frac:g}"))
            tasks.append(Task(("opt", "", frac), f"{__name__}:optimum_run", {"nu": nu},
                              f"optimum nu/N={frac:g}"))
        if FIG3_NU / N_TRAIN not in self.fracs(ctx):
            tasks.append(Task(("opt", "", FIG3_NU / N_TRAIN), f"{__name__}:optimum_run",
                              {"nu": float(FIG3_NU)}, "optimum nu=200"))
        for a in _fig3_algorithms():
            tasks.append(Task(("fig3", a, 0.0), f"{__name__}:fig3_run",
                              {"algorithm": a,
                               "max_iter": 20 if ctx.quick else FIG3_MAX_ITER},
                              f"fig3 {a} nu=200"))
        return tasks

    def report(self, ctx: Context, data: dict, runs: list[dict]) -> Report:
        by = {tuple(r["key"]): r for r in runs}
        res = {k: (r["result"] or {}) for k, r in by.items()}
        fr = self.fracs(ctx)
        M = N_ALL - N_TRAIN

        def wrong(r: dict) -> np.ndarray | None:
            return wrong_from_bits(r["test_wrong"], M) if r.get("test_wrong") else None

        sb = [res[("fig2", "softboost", f)] for f in fr]
        lp = [res[("fig2", "lpboost", f)] for f in fr]
        opt = [res[("opt", "", f)] for f in fr]
        optimum = [o.get("optimum") for o in opt]
        rows, within = [], []
        for f, s, p, o in zip(fr, sb, lp, opt):
            diff = noise = None
            if s.get("test_wrong") and p.get("test_wrong"):
                diff, noise = paired_noise(wrong(s), wrong(p))
                within.append(abs(diff) <= noise)
            rows.append([f, max(1.0, f * N_TRAIN), s.get("test_error"), p.get("test_error"),
                         diff, noise, s.get("T"), p.get("T"), s.get("lp_value"),
                         p.get("lp_value"), o.get("optimum"), o.get("test_error"),
                         o.get("clean_test_error"), s.get("seconds"), p.get("seconds")])
        sb_err = [s.get("test_error") for s in sb]
        lp_err = [p.get("test_error") for p in lp]
        u_sb = u_shape(fr, sb_err, [wrong(s) for s in sb], optimum)
        u_lp = u_shape(fr, lp_err, [wrong(p) for p in lp], optimum)
        gaps = [abs(a - b) for a, b in zip(sb_err, lp_err) if a is not None and b is not None]
        opt3 = res[("opt", "", FIG3_NU / N_TRAIN)]
        zero = [f for f, v in zip(fr, optimum) if v is not None and v <= ZERO]
        positive = [(f, o) for f, o in zip(fr, opt)
                    if o.get("optimum") is not None and o["optimum"] > ZERO]
        best = min(positive, key=lambda fo: fo[1]["test_error"], default=None)
        first_positive = f"{min(f for f, _ in positive):g}" if positive else "–"
        d = make_data(ctx.seed)  # a few ms; the report may be rerendered without the data
        flipped = int(np.count_nonzero(d["y_train"] != d["y_train_clean"]))
        test_flipped = int(np.count_nonzero(d["y_test"] != d["y_test_clean"]))
        body = [
            "Data: seed 004 §5's recipe: a 2000 × 100 matrix uniform on [0, 1]; +1/2 on the "
            "first 10 columns of the first 1000 rows, 'and rescaled such that the entries in "
            "those columns were again in [0,1]' — read as a rescaling of those **columns**: "
            "all 2000 entries of each of the first 10 columns divided by 1.5, so the positive "
            "class's signal entries lie in [1/3, 1] (mean 2/3) and the negative class's in "
            "[0, 2/3] (mean 1/3). Why this reading: it reproduces the independent rerun of the "
            f"recipe recorded with the seed (seed 0, ν = 200: optimum soft margin "
            f"{RERUN['optimum']}, LPBoost T = {RERUN['lpboost']}, SoftBoost T = "
            f"{RERUN['softboost']}; Fig. 3 below). Min-max scaling of each of the 10 columns "
            "instead gives nearly the same numbers (seed 0: optimum 0.02513 at ν = 200 "
            "against 0.02510). Dividing only the shifted entries (the first 1000 rows) "
            "leaves the negative class's signal entries uniform on [0, 1] and the optimum 0 "
            "for every ν/N ≤ 0.3 (seed 0; `dualboost.reproduce.softboost_synthetic.make_data(seed, "
            "rescale=...)` offers all three "
            "readings). Labels +1 for the first 1000 rows, −1 for the rest; 10 % of the "
            "labels (200) flipped; 500 "
            "train / 1500 test; `numpy.random.default_rng("
            f"{ctx.seed})` drawn in that order. Hypotheses: the 100 columns and their "
            "negations (200), maximum-edge oracle.",
            "",
            f"## Fig. 2: test error vs ν/N (δ = ε = {self.eps2(ctx):g}"
            + (", quick version: at most 20 iterations)" if ctx.quick else ")"),
            "",
            "The paper's curve values cannot be read off (seed 004 gives the axes only: ν/N "
            "0–0.8, error 0.06–0.18); its claims are qualitative: LPBoost ≈ SoftBoost, the "
            "error U-shaped in ν/N. 'optimum (all 200)' is the soft-margin LP (2.3) over "
            "every hypothesis at that ν, solved directly (HiGHS); 'clean' is its classifier's "
            "error against the test labels before the flip. 'noise' is twice the paired "
            "standard error of the SoftBoost − LPBoost difference on the same 1500 test "
            "examples, 2·√(b + c)/1500 with b, c the examples only one of the two gets wrong "
            "(McNemar).",
            "",
            table(["ν/N", "ν", "SoftBoost test err", "LPBoost test err", "difference",
                   "noise", "SoftBoost T", "LPBoost T", "SoftBoost P_LP", "LPBoost P_LP",
                   "optimum (all 200)", "optimum's test err", "optimum's clean err",
                   "SoftBoost [s]", "LPBoost [s]"],
                  rows, [".3g", ".0f", ".4f", ".4f", "+.4f", ".4f", ".0f", ".0f", ".5f",
                         ".5f", ".5f", ".4f", ".4f", ".2f", ".2f"]),
            "",
            f"**LPBoost ≈ SoftBoost**: the difference is within the paired noise at "
            f"{sum(within)} of {len(within)} ν/N; largest |difference| "
            f"{max(gaps, default=float('nan')):.4f}.",
            "",
            "**U-shaped error in ν/N.** Criterion: over the ν/N whose optimum is positive, "
            "the minimum lies inside the range and the errors at *both* ends of the range "
            "exceed it by more than the paired noise (2·√(b + c)/1500, b and c the test "
            "examples only the end's or only the minimum's classifier gets wrong; about a "
            "95 % test each).",
            "",
            "- " + _u_line("SoftBoost", u_sb),
            "- " + _u_line("LPBoost", u_lp),
            "",
        ]
        if zero:
            body += [
                "Where the optimum over all 200 hypotheses is 0 (ν/N ∈ {"
                + ", ".join(f"{f:g}" for f in zero) + "} here), the LP is solved by a "
                "cancelling pair (x_j and −x_j: every margin 0) and both algorithms return a "
                "(nearly) degenerate combination with a test error near 0.5; these points "
                "are left out of the U check. This is the paper's 'for small ν the data are "
                "not easily separable even allowing ν mistakes' in its extreme form; here "
                f"the optimum turns positive between ν/N = {max(zero):g} and "
                f"{first_positive} (the training set has {flipped} flipped labels), where "
                "the paper puts the hard region below ν/N ≈ 0.1.",
                "",
            ]
        if best is not None:
            f, o = best
            body += [
                "**What differs from the paper.** The error level: our lowest test error is "
                f"{o['test_error']:.4f} (the optimum at ν/N = {f:g}); the test set has "
                f"{test_flipped} flipped labels ({test_flipped / M:.3f}, the error of a "
                "classifier right on every clean label), while the paper's axis reaches "
                "down to 0.06. Against the clean test "
                f"labels the same classifier errs on {o['clean_test_error']:.4f}. The paper "
                "does not say which labels it tested on; its curves' values cannot be read, "
                "so only the shape is compared.",
                "",
            ]
        body += [
            f"## Fig. 3: soft margin vs iterations (ν = {FIG3_NU}, ε = {FIG3_EPS:g}"
            + (", quick version: at most 20 iterations)" if ctx.quick else ")"),
            "",
            "The paper's Fig. 3 has no readable values (y-axis −0.02…0.05); LPBoost and "
            "SoftBoost converge to the maximum soft margin, the optimum over all 200 "
            f"hypotheses, which we compute: **{opt3.get('optimum', float('nan')):.5f}** (the "
            f"LP (2.3) at ν = {FIG3_NU}). 'rerun' is the independent rerun of this recipe "
            f"recorded with the seed: optimum {RERUN['optimum']}, LPBoost T = "
            f"{RERUN['lpboost']}, SoftBoost T = {RERUN['softboost']}. Soft margin per "
            "iteration: LPBoost's LP value, SoftBoost's LP (1) over its hypotheses so far "
            "(its output rule), the soft margin of ERLPBoost's and the corrective "
            "algorithms' normalized w^t and of AdaBoost's normalized weights. The paper's "
            "BrownBoost and SmoothBoost are not in this version.",
            "",
        ]
        rows3 = []
        o = opt3.get("optimum")
        for a in _fig3_algorithms():
            r = res.get(("fig3", a, 0.0), {})
            if not r:
                continue
            curve = r.get("curve", [])
            final = next((c for c in reversed(curve) if c is not None), None)
            close = None if o is None else next(
                (t + 1 for t, c in enumerate(curve) if c is not None and c >= o - FIG3_CLOSE),
                None)
            positive = next((t + 1 for t, c in enumerate(curve) if c is not None and c > 0),
                            None)
            rows3.append([a, RERUN.get(a), r.get("iterations"), r.get("distinct"), positive,
                          close,
                          final, None if final is None or o is None else final - o,
                          r.get("status"), r.get("test_error"), r.get("seconds")])
        body += [
            table(["algorithm", "rerun T", "iterations", "distinct hypotheses",
                   "first iteration > 0", f"first within {FIG3_CLOSE:g} of the optimum",
                   "final soft margin", "minus optimum", "status", "test err", "fit [s]"],
                  rows3, ["", ".0f", ".0f", ".0f", ".0f", ".0f", ".5f", "+.5f", "", ".4f",
                          ".2f"]),
            "",
            "The paper's findings beside ours: LPBoost and SoftBoost need roughly the same "
            "number of iterations, SoftBoost with 'a slower start' (compare the first "
            "iteration with a positive soft margin and the first within "
            f"{FIG3_CLOSE:g} of the optimum); the corrective algorithms take one small step "
            "on one hypothesis per iteration and need far more iterations than the paper's "
            "10^3-iteration axis (the dotted line in the figure), as the paper found for "
            "SmoothBoost, and they stop as soon as their rule guarantees a soft margin within "
            f"ε = {FIG3_EPS:g} of the optimum (the 'minus optimum' column), not at it; the "
            "stagewise AdaBoost does not maximize the soft margin at "
            f"ν = {FIG3_NU} (its cap is {FIG3_MAX_ITER if not ctx.quick else 20} iterations), "
            "as the paper found for BrownBoost.",
        ]

        def fig2(fig) -> None:
            ax = fig.add_subplot(1, 1, 1)
            if zero:
                ax.axvspan(0, max(zero), color="0.9",
                           label="optimum 0: error ~0.5 (off the axis)")
            ax.plot(fr, sb_err, "-o", label="SoftBoost")
            ax.plot(fr, lp_err, ":s", label="LPBoost")
            ax.plot(fr, [o.get("test_error") for o in opt], "--", color="gray",
                    label="LP over all 200 hypotheses")
            ax.set_ylim(0.05, 0.3)
            ax.set_xlim(0, 0.82)
            ax.set_xlabel("nu/N")
            ax.set_ylabel("test error")
            ax.set_title(f"synthetic, 10% label noise, delta = {self.eps2(ctx):g}")
            ax.legend(fontsize=8)

        def fig3(fig) -> None:
            ax = fig.add_subplot(1, 1, 1)
            for a in _fig3_algorithms():
                curve = res.get(("fig3", a, 0.0), {}).get("curve", [])
                ts = [t + 1 for t, c in enumerate(curve) if c is not None]
                ax.plot(ts, [c for c in curve if c is not None], label=a)
            if opt3.get("optimum") is not None:
                ax.axhline(opt3["optimum"], color="gray", ls="--", label="optimum")
            ax.axvline(1e3, color="gray", ls=":", lw=0.8)  # where the paper's axis ends
            ax.set_xscale("log")
            ax.set_ylim(-0.02, 0.05)
            ax.set_xlabel("iteration")
            ax.set_ylabel("soft margin (2.2)")
            ax.set_title(f"synthetic, nu = {FIG3_NU}, eps = {FIG3_EPS:g}")
            ax.legend(fontsize=8)

        return Report("\n".join(body), {"fig2_error_vs_nu.png": fig2,
                                        "fig3_soft_margin.png": fig3},
                      {"seed": ctx.seed, "fracs": fr, "fig2_eps": self.eps2(ctx),
                       "fig3_eps": FIG3_EPS, "fig3_nu": FIG3_NU, "rescale": "column"})
