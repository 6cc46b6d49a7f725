"""The picture of a boosting run (``dualboost fit --plot FILE``): three panels, axes from the data.

Left, the certified bracket against the iterations t: the primal P^t(d^t) (an upper bound on the
master optimum at t) and the dual Theta^t(w^t, psi^t) (a lower bound), thesis (2.2)/(2.3) for
LPBoost and (3.6)/(3.10) for ERLPBoost, with the running minimum edge min_q u^q.d^(q-1) (an upper
bound on the best soft margin over the whole class) and P_LP^T. The y range is that of the run
after its first tenth of iterations (the first solves start at P^0 = -1 and would flatten the
rest); earlier points leave the frame.

Middle, the run's convergence on a log scale: the stopping quantity (LPBoost: min_q u^q.d^(q-1) -
Theta^t, Alg. 2.1 step (c); ERLPBoost: delta^t or delta~^t, thesis §3.2.1-2) against its
threshold (eps, or eps/2); nonpositive values sit on the panel's floor. The largest duality gap
P^t - Theta^t of the master solves is printed in the corner (each solve is certified to it).

Right, the cumulative distribution of the training margins m_n = y_n f(x_n) = (U w)_n of the
final combination: the fraction of examples with margin <= m. The m axis spans the central
99.6% of the margins (and 0 and the soft margin) with a little padding, so margins within +-0.01
fill the panel as margins within +-1 do. Marked: the soft margin (2.2) of w for nu, the level
nu/N, and m = 0 (where the curve reads the training error); a degenerate combination
(:mod:`dualboost.guarantee`) is said in the panel.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .guarantee import DEGENERATE_FRACTION, roundoff_fraction
from .result import BoostResult

__all__ = ["bracket_limits", "figure", "margin_distribution", "margin_limits", "plot_run"]

#: padding of a data-driven axis, as a fraction of the data's range
PAD = 0.06
#: the bracket panel's y range ignores the first this fraction of iterations
BURN_IN = 0.1
#: the margin axis spans this central fraction of the training margins
MARGIN_COVER = 0.996


def margin_distribution(result: BoostResult) -> tuple[np.ndarray, np.ndarray]:
    """Sorted training margins m_(1) <= ... <= m_(N) of the final combination and the
    cumulative fractions k/N, k = 1..N (the right panel)."""
    columns = np.asarray(result.columns, dtype=float)
    weights = np.asarray(result.weights, dtype=float)
    margins = np.sort(columns @ weights) if columns.shape[1] else np.zeros(columns.shape[0])
    n = margins.size
    return margins, np.arange(1, n + 1) / max(n, 1)


def _padded(lo: float, hi: float) -> tuple[float, float]:
    """[lo, hi] widened by PAD of its width; a zero width gets a width from the values' size."""
    width = hi - lo
    if not width > 0:
        width = max(abs(lo), abs(hi)) or 1e-3
    return lo - PAD * width, hi + PAD * width


def margin_limits(margins: np.ndarray, soft_margin: float) -> tuple[float, float]:
    """The m axis: the central MARGIN_COVER of the margins, 0 and the soft margin, padded (a
    handful of outlying margins would otherwise squeeze the rest into a line)."""
    margins = np.asarray(margins, dtype=float).ravel()
    tail = (1.0 - MARGIN_COVER) / 2.0
    central = np.quantile(margins, [tail, 1.0 - tail]) if margins.size else np.zeros(0)
    values = np.concatenate([central, [0.0]])
    if np.isfinite(soft_margin):
        values = np.append(values, soft_margin)
    return _padded(float(values.min()), float(values.max()))


def bracket_limits(result: BoostResult) -> tuple[float, float] | None:
    """The bracket panel's y range: P^t, Theta^t, the running minimum edge and P_LP^T after the
    first BURN_IN of the iterations (all of them for short runs), padded."""
    solved = [r for r in result.history if r.solved]
    if not solved:
        return None
    start = solved[0].t + int(BURN_IN * (solved[-1].t - solved[0].t)) if len(solved) > 10 else 0
    values = [v for r in solved if r.t >= start for v in (r.primal, r.dual) if v is not None]
    running = np.minimum.accumulate([r.edge for r in result.history])
    values += [float(e) for r, e in zip(result.history, running) if r.t >= start]
    if result.lp_value is not None:
        values.append(float(result.lp_value))
    values = [v for v in values if np.isfinite(v)]
    return _padded(min(values), max(values)) if values else None


def _stopping_series(result: BoostResult) -> tuple[np.ndarray, np.ndarray, float | None, str]:
    """(t, stopping quantity, threshold, label) of the middle panel."""
    eps = result.parameters.get("eps")
    if result.stopping in ("lp", "stagewise") or result.algorithm == "lpboost":
        rows = [r for r in result.history if r.solved]
        return (np.array([r.t for r in rows]), np.array([r.delta_simple for r in rows]),
                None if eps is None else float(eps), "min_q u^q·d^(q-1) − Θ^t (Alg. 2.1)")
    practical = result.stopping == "practical"
    rows = [r for r in result.history if r.t > 1]
    values = [r.delta_practical if practical else r.delta_simple for r in rows]
    label = "δ̃^t (practical rule)" if practical else "δ^t (simple rule)"
    return (np.array([r.t for r in rows]), np.array(values, dtype=float),
            None if eps is None else float(eps) / 2.0, label)


def _bracket_panel(ax: Any, result: BoostResult) -> None:
    from matplotlib.ticker import MaxNLocator

    solved = [r for r in result.history if r.solved]
    t = np.array([r.t for r in solved])
    ax.plot(t, [r.primal for r in solved], "-", color="C0", label="P^t(d^t) (upper bound)")
    ax.plot(t, [r.dual for r in solved], "--", color="C1", label="Θ^t(w^t, ψ^t) (lower bound)")
    if result.history:
        all_t = np.array([r.t for r in result.history])
        ax.plot(all_t, np.minimum.accumulate([r.edge for r in result.history]), ":",
                color="C2", label="min_q u^q·d^(q-1) (≥ best soft margin)")
    if result.lp_value is not None:
        ax.axhline(result.lp_value, color="grey", lw=0.8,
                   label=f"P_LP^T = {result.lp_value:.4g}")
    limits = bracket_limits(result)
    if limits is not None:
        ax.set_ylim(*limits)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("iteration t")
    ax.set_ylabel("objective")
    ax.set_title("certified bracket", fontsize=10)
    ax.legend(loc="best", fontsize=7)
    ax.grid(alpha=0.3)


def _convergence_panel(ax: Any, result: BoostResult) -> None:
    from matplotlib.ticker import MaxNLocator

    t, delta, threshold, label = _stopping_series(result)
    positive = np.concatenate([delta[np.isfinite(delta) & (delta > 0)],
                               [threshold] if threshold else []])
    floor = float(positive.min()) / 10.0 if positive.size else 1e-12
    ax.set_yscale("log")
    if t.size:
        ax.plot(t, np.where(delta > 0, delta, floor), "-", color="C3", marker=".", ms=3,
                label=label)
    if threshold:
        ax.axhline(threshold, color="k", lw=0.8, ls="--",
                   label=f"stop at {'ε' if threshold == result.parameters.get('eps') else 'ε/2'}"
                         f" = {threshold:g}")
    if positive.size:
        ax.set_ylim(floor / 2.0, float(positive.max()) * 3.0)
    gaps = [r.duality_gap for r in result.history if r.solved and r.duality_gap is not None]
    if gaps:  # each master solve is certified to this; a line of them would only stretch the axis
        ax.text(0.02, 0.03, f"{len(gaps)} master solves, duality gaps P^t − Θ^t ≤ "
                f"{max(gaps):.2g}", transform=ax.transAxes, fontsize=7, color="0.3")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("iteration t")
    ax.set_ylabel("stopping quantity (log scale)")
    ax.set_title("convergence: the stopping quantity against its threshold", fontsize=10)
    ax.legend(loc="upper right", fontsize=7)
    ax.grid(alpha=0.3, which="both")


def _margin_panel(ax: Any, result: BoostResult) -> None:
    from matplotlib.ticker import MaxNLocator  # matplotlib only when a picture is drawn

    margins, fraction = margin_distribution(result)
    N = margins.size
    nu = float(result.parameters.get("nu", 1.0) or 1.0)
    ax.step(margins, fraction, where="post", color="C0", label="fraction with margin ≤ m")
    ax.axvline(result.soft_margin, color="C3", lw=1.0, ls="--",
               label=f"soft margin (ν = {nu:g}) = {result.soft_margin:.4g}")
    if N:
        ax.axhline(nu / N, color="C2", lw=0.8, ls=":", label=f"ν/N = {nu / N:.3g}")
    ax.axvline(0.0, color="k", lw=0.6)
    error = float(np.mean(margins <= 0)) if N else 0.0
    ax.plot([0.0], [error], "o", ms=4, color="k", label=f"margin ≤ 0: {error:.3g}")
    ax.set_xlim(*margin_limits(margins, float(result.soft_margin)))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6))  # small ranges: long labels, fewer ticks
    vanished = roundoff_fraction(result)
    if vanished > DEGENERATE_FRACTION:
        ax.text(0.98, 0.7, f"f = 0 within round-off\non {vanished:.1%} of the examples\n"
                "(degenerate: those predictions are noise)", transform=ax.transAxes,
                ha="right", va="center", fontsize=8, color="C3")
    ax.set_ylim(0.0, 1.0)
    ax.set_xlabel("margin m = y f(x)")
    ax.set_ylabel("cumulative fraction of examples")
    ax.set_title("margin distribution of the final combination", fontsize=10)
    ax.legend(loc="upper left", fontsize=7)
    ax.grid(alpha=0.3)


def figure(result: BoostResult, title: str | None = None) -> Any:
    """The three panels of ``result`` as a matplotlib Figure (Agg canvas, no display)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(15, 4.4), constrained_layout=True)
    FigureCanvasAgg(fig)
    left, middle, right = fig.subplots(1, 3)
    _bracket_panel(left, result)
    _convergence_panel(middle, result)
    _margin_panel(right, result)
    N = np.asarray(result.columns).shape[0]
    nu = float(result.parameters.get("nu", 1.0) or 1.0)
    eps = result.parameters.get("eps")
    fig.suptitle(f"{title or result.formulation}: N = {N}, ν = {nu:g}, "
                 f"ε = {eps if eps is not None else '-'}, T = {result.iterations}, "
                 f"status {result.status}", fontsize=11)
    return fig


def plot_run(result: BoostResult, path: str, title: str | None = None) -> None:
    """Save the three panels of ``result`` to ``path`` (format from its extension)."""
    figure(result, title).savefig(path, dpi=110)


#: the earlier name of :func:`plot_run`
plot_history = plot_run
