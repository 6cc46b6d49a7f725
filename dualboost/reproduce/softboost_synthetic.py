"""``softboost-synthetic``: seed 004 §5's synthetic experiment (Figs 2 and 3).

Data (seed 004 §5, the recipe stated in full because one step is uncertain): a 2000 x 100
matrix of uniform [0, 1] entries; the first 1000 rows get +1/2 on their first 10 columns and
are "rescaled such that the entries in those columns were again in [0, 1]" -- read here as a
division of those entries by 1.5 (the paper does not say whether it divided by 1.5 or min-max
scaled each column); labels +1 for the first 1000 rows, -1 for the rest; the labels of a
random 10 % (200 examples) flipped; a random 500 examples train, the other 1500 test. The
hypotheses are the 100 columns and their negations (200, values in [0, 1] or [-1, 0]), with a
maximum-edge oracle over them (the ``finite`` oracle). Random numbers: numpy's
``default_rng(seed)``, seed 0.

Fig. 2: test error against nu/N for SoftBoost and LPBoost at delta = eps = 1e-3. Fig. 3: the
soft margin (2.2) against the iteration at nu = 200 (nu/N = 0.4), eps = 1e-2, for LPBoost,
SoftBoost, ERLPBoost, the stagewise AdaBoost and the corrective algorithms of this version.
"""

from __future__ import annotations

import numpy as np

from ..margins import soft_margin
from .base import Context, Experiment, Report, Task
from .report import table

N_ALL, F, N_TRAIN = 2000, 100, 500
FIG2_EPS, FIG3_EPS, FIG3_NU = 1e-3, 1e-2, 200
#: the algorithms of Fig. 3 beside LPBoost and SoftBoost, when this version has them
FIG3_EXTRA = ("erlpboost", "adaboost", "corrective_erlpboost", "corrective_binary_erlpboost")


def make_data(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, 1.0, (N_ALL, F))
    X[:1000, :10] = (X[:1000, :10] + 0.5) / 1.5
    y = np.where(np.arange(N_ALL) < 1000, 1.0, -1.0)
    flip = rng.choice(N_ALL, size=N_ALL // 10, replace=False)
    y[flip] *= -1.0
    perm = rng.permutation(N_ALL)
    train, test = perm[:N_TRAIN], perm[N_TRAIN:]
    H = np.hstack([X, -X])  # hypothesis j < 100: x_j; j >= 100: -x_j
    return {"H_train": H[train], "y_train": y[train], "H_test": H[test], "y_test": y[test]}


def _fig3_algorithms() -> list[str]:
    from ..algorithms import ALGORITHMS

    return ["lpboost", "softboost"] + [a for a in FIG3_EXTRA if a in ALGORITHMS]


def fig2_run(data: dict, *, nu: float, algorithm: str, eps: float = FIG2_EPS,
             max_iter: int = 1000) -> dict:
    from .fitting import fit, summary

    d = data["synthetic"]
    result, _, seconds = fit(None, d["y_train"], formulation=algorithm, nu=nu, eps=eps,
                             hypotheses=d["H_train"], max_iter=max_iter)
    test = float(np.mean(result.predict(d["H_test"]) != d["y_test"]))
    train = float(np.mean(result.predict(d["H_train"]) != d["y_train"]))
    return {**summary(result), "test_error": test, "train_error": train, "seconds": seconds}


def fig3_run(data: dict, *, algorithm: str, max_iter: int = 1000) -> dict:
    from .fitting import fit, summary

    d = data["synthetic"]
    H, y = d["H_train"], d["y_train"]
    U = y[:, None] * H
    formulation = {"adaboost": "lpboost", "softboost": "softboost", "lpboost": "lpboost"}.get(
        algorithm, None)
    if formulation is None:  # a regularized algorithm: its own default formulation
        formulation = "binary_erlpboost" if "binary" in algorithm else "erlpboost"
    trace = algorithm not in ("lpboost", "softboost", "adaboost")
    result, weights, seconds = fit(None, y, formulation=formulation, algorithm=algorithm,
                                   nu=FIG3_NU, eps=FIG3_EPS, hypotheses=H, max_iter=max_iter,
                                   trace=trace)
    idx = [int(h.index) for h in result.hypotheses]
    curve: list[float | None] = []
    if weights:
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
    scores = d["H_test"] @ w
    return {"optimum": value, "test_error": float(np.mean(np.where(scores > 0, 1.0, -1.0)
                                                          != d["y_test"]))}


class SoftBoostSynthetic(Experiment):
    name = "softboost-synthetic"
    title = "SoftBoost vs LPBoost on seed 004's synthetic data (Figs 2 and 3)"
    needs = ()
    full_time = "6.3 min serial (37 runs) on the loaded machine (load ~8)"
    algorithms = ("lpboost", "softboost")
    optional_algorithms = ("corrective_erlpboost", "corrective_binary_erlpboost")

    def fracs(self, ctx: Context) -> list[float]:
        return [0.4] if ctx.quick else [1 / N_TRAIN, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5,
                                             0.6, 0.7, 0.8]

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
        for a in _fig3_algorithms()[:3] if ctx.quick else _fig3_algorithms():
            tasks.append(Task(("fig3", a, 0.0), f"{__name__}:fig3_run",
                              {"algorithm": a, "max_iter": 20 if ctx.quick else 1000},
                              f"fig3 {a} nu=200"))
        return tasks

    def report(self, ctx: Context, data: dict, runs: list[dict]) -> Report:
        by = {tuple(r["key"]): r for r in runs}
        res = {k: (r["result"] or {}) for k, r in by.items()}
        fr = self.fracs(ctx)
        rows = []
        for f in fr:
            sb, lp, opt = res[("fig2", "softboost", f)], res[("fig2", "lpboost", f)], \
                res[("opt", "", f)]
            rows.append([f, sb.get("test_error"), lp.get("test_error"),
                         None if not sb or not lp else sb["test_error"] - lp["test_error"],
                         sb.get("T"), lp.get("T"), sb.get("lp_value"), lp.get("lp_value"),
                         opt.get("optimum"), opt.get("test_error"), sb.get("seconds"),
                         lp.get("seconds")])
        sb_err = [res[("fig2", "softboost", f)].get("test_error") for f in fr]
        lp_err = [res[("fig2", "lpboost", f)].get("test_error") for f in fr]
        gaps = [abs(a - b) for a, b in zip(sb_err, lp_err) if a is not None and b is not None]
        valid = [e for e in sb_err if e is not None]
        u_shape = (len(valid) >= 3 and min(valid[1:-1]) < valid[0]
                   and min(valid[1:-1]) < valid[-1])
        opt3 = res[("opt", "", FIG3_NU / N_TRAIN)]
        zero = [f for f in fr if abs(res[("opt", "", f)].get("optimum", 1.0)) < 1e-9]
        body = [
            "Data: seed 004 §5's recipe (2000 × 100 uniform, +1/2 on the first 10 columns of "
            "the first 1000 rows, **then those entries divided by 1.5** — the paper's "
            "'rescaled' is uncertain: dividing by 1.5 or min-max per column), labels ±1 by "
            "half, 10 % of the labels flipped, 500 train / 1500 test, "
            f"`numpy.random.default_rng({ctx.seed})`. Hypotheses: the 100 columns and their "
            "negations (200), maximum-edge oracle.",
            "",
            f"## Fig. 2: test error vs ν/N (δ = ε = {self.eps2(ctx):g}"
            + (", quick version: at most 20 iterations)" if ctx.quick else ")"),
            "",
            "The paper's curve values cannot be read off (seed 004 gives the axes only: "
            "error 0.06–0.18); its claims are qualitative: LPBoost ≈ SoftBoost, the error "
            "U-shaped in ν/N.",
            "",
            table(["ν/N", "SoftBoost test err", "LPBoost test err", "difference",
                   "SoftBoost T", "LPBoost T", "SoftBoost P_LP", "LPBoost P_LP",
                   "optimum (all 200)", "optimum's test err", "SoftBoost [s]", "LPBoost [s]"],
                  rows, [".3g", ".4f", ".4f", "+.4f", ".0f", ".0f", ".5f", ".5f", ".5f",
                         ".4f", ".2f", ".2f"]),
            "",
            f"LPBoost ≈ SoftBoost: largest |difference| {max(gaps, default=float('nan')):.4f}."
            f" U-shaped error in ν/N (both ends above the middle's minimum, SoftBoost): "
            f"**{('yes' if u_shape else 'no') if len(valid) >= 3 else 'not measured'}**.",
            "",
            ("Where the optimum over all 200 hypotheses is 0 (ν/N ∈ {"
             + ", ".join(f"{f:g}" for f in zero) + "} here) both algorithms return a "
             "combination of (nearly) cancelling hypotheses and the test error is about 0.5: "
             "with this reading of the recipe the data are not 'well separable' (the "
             "hypotheses are uncentred and there is no constant one, so the negative class's "
             "margins centre at 0), and the paper's error range 0.06–0.18 is not reached. The "
             "left arm of the U here is that degenerate optimum, not the paper's 'concentrating "
             "on random directions'." if zero else "No grid point has a zero optimum."),
            "",
            f"## Fig. 3: soft margin vs iterations (ν = {FIG3_NU}, ε = {FIG3_EPS:g}"
            + (", quick version: at most 20 iterations)" if ctx.quick else ")"),
            "",
        ]
        rows3 = []
        for a in _fig3_algorithms():
            r = res.get(("fig3", a, 0.0), {})
            curve = [c for c in r.get("curve", []) if c is not None]
            paper = {"lpboost": 0.0251, "softboost": 0.0251}.get(a)
            final = curve[-1] if curve else None
            if not r:
                continue
            rows3.append([a, paper, final, None if paper is None or final is None
                          else final - paper, r.get("T"), r.get("test_error"),
                          r.get("seconds")])
        body += [
            "'paper' is the maximum soft margin the figure's curves approach (y-axis "
            "−0.02…0.05; LPBoost and SoftBoost converge to it) — read as the optimum over "
            f"all 200 hypotheses, which we compute: **{opt3.get('optimum', float('nan')):.5f}**"
            " (the LP (2.3) over every hypothesis). Soft margin per iteration: LPBoost's LP "
            "value, SoftBoost's LP (1) over its hypotheses so far (its output rule), "
            "ERLPBoost's and the corrective algorithms' own normalized w^t, AdaBoost's "
            "normalized weights. An independent rerun of this recipe (seed 0, "
            "divide by 1.5) reported 0.0251 at ν = 200 with LPBoost stopping at T = 52 and "
            "SoftBoost at T = 55; our ν = 200 optimum is far below that (our optimum reaches "
            "about 0.026 only at ν = 400, see the table above), so the difference is in the "
            "recipe's reading (the rescaling, the noise, or ν), which the paper does not pin "
            "down.",
            "",
            table(["algorithm", "paper (≈ optimum)", "final soft margin", "difference", "T",
                   "test err", "fit [s]"], rows3,
                  ["", ".4f", ".5f", "+.5f", ".0f", ".4f", ".2f"]),
        ]

        def fig2(fig) -> None:
            ax = fig.add_subplot(1, 1, 1)
            ax.plot(fr, sb_err, "-o", label="SoftBoost")
            ax.plot(fr, lp_err, ":s", label="LPBoost")
            ax.plot(fr, [res[("opt", "", f)].get("test_error") for f in fr], "--",
                    color="gray", label="LP over all 200 hypotheses")
            ax.set_xlabel("nu/N")
            ax.set_ylabel("test error")
            ax.set_title(f"synthetic, 10% label noise, delta = {FIG2_EPS:g}")
            ax.legend()

        def fig3(fig) -> None:
            ax = fig.add_subplot(1, 1, 1)
            for a in _fig3_algorithms():
                curve = res.get(("fig3", a, 0.0), {}).get("curve", [])
                ts = [t + 1 for t, c in enumerate(curve) if c is not None]
                ax.plot(ts, [c for c in curve if c is not None], label=a)
            if opt3.get("optimum") is not None:
                ax.axhline(opt3["optimum"], color="gray", ls="--", label="optimum")
            ax.set_xscale("log")
            ax.set_ylim(-0.02, 0.05)
            ax.set_xlabel("iteration")
            ax.set_ylabel("soft margin (2.2)")
            ax.set_title(f"synthetic, nu = {FIG3_NU}, eps = {FIG3_EPS:g}")
            ax.legend(fontsize=8)

        return Report("\n".join(body), {"fig2_error_vs_nu.png": fig2,
                                        "fig3_soft_margin.png": fig3},
                      {"seed": ctx.seed, "fracs": fr, "fig2_eps": FIG2_EPS,
                       "fig3_eps": FIG3_EPS, "fig3_nu": FIG3_NU})
