"""The picture of a boosting run (``dualboost fit --plot FILE``): two panels.

Left, the certified bracket against the iterations t: the primal P^t(d^t) (an upper bound on the
master optimum at t) and the dual Theta^t(w^t, psi^t) (a lower bound), thesis (2.2)/(2.3) for
LPBoost and (3.6)/(3.10) for ERLPBoost, with the running minimum edge min_q u^q.d^(q-1) (an upper
bound on the best soft margin over the whole class) and P_LP^T.

Right, the cumulative distribution of the training margins m_n = y_n f(x_n) = (U w)_n of the
final combination (the margin picture of seed 002 and of the boosting literature): the fraction
of examples with margin <= m. Marked: the soft margin (2.2) of w for nu (the average of the nu
smallest margins), the level nu/N (the soft margin averages the margins below it), and m = 0
(where the curve reads the training error).
"""

from __future__ import annotations

import numpy as np

from .result import BoostResult

__all__ = ["margin_distribution", "plot_run"]


def margin_distribution(result: BoostResult) -> tuple[np.ndarray, np.ndarray]:
    """Sorted training margins m_(1) <= ... <= m_(N) of the final combination and the
    cumulative fractions k/N, k = 1..N (the right panel)."""
    columns = np.asarray(result.columns, dtype=float)
    weights = np.asarray(result.weights, dtype=float)
    margins = np.sort(columns @ weights) if columns.shape[1] else np.zeros(columns.shape[0])
    n = margins.size
    return margins, np.arange(1, n + 1) / n


def plot_run(result: BoostResult, path: str, title: str | None = None) -> None:
    """Save the two panels of ``result`` to ``path`` (format from its extension)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.2), constrained_layout=True)
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)

    solved = [r for r in result.history if r.solved]
    t = np.array([r.t for r in solved])
    left.plot(t, [r.primal for r in solved], "-", color="C0", label="P^t(d^t) (upper bound)")
    left.plot(t, [r.dual for r in solved], "--", color="C1", label="Θ^t(w^t, ψ^t) (lower bound)")
    if result.history:
        all_t = np.array([r.t for r in result.history])
        left.plot(all_t, np.minimum.accumulate([r.edge for r in result.history]), ":",
                  color="C2", label="min_q u^q·d^(q-1)")
    if result.lp_value is not None:
        left.axhline(result.lp_value, color="grey", lw=0.8,
                     label=f"P_LP^T = {result.lp_value:.4g}")
    left.set_xlabel("iteration t")
    left.set_ylabel("objective")
    left.set_title("certified bracket", fontsize=10)
    left.legend(loc="best", fontsize=8)
    left.grid(alpha=0.3)

    margins, fraction = margin_distribution(result)
    N = margins.size
    nu = float(result.parameters.get("nu", 1.0) or 1.0)
    right.step(margins, fraction, where="post", color="C0", label="fraction with margin ≤ m")
    right.axvline(result.soft_margin, color="C3", lw=1.0, ls="--",
                  label=f"soft margin (ν = {nu:g}) = {result.soft_margin:.4g}")
    right.axhline(nu / N, color="C2", lw=0.8, ls=":", label=f"ν/N = {nu / N:.3g}")
    right.axvline(0.0, color="k", lw=0.6)
    error = float(np.mean(margins <= 0)) if N else 0.0
    right.plot([0.0], [error], "o", ms=4, color="k", label=f"train error = {error:.3g}")
    right.set_xlim(min(-1.0, margins.min(initial=0.0)), max(1.0, margins.max(initial=0.0)))
    right.set_ylim(0.0, 1.0)
    right.set_xlabel("margin m = y f(x)")
    right.set_ylabel("cumulative fraction of examples")
    right.set_title("margin distribution of the final combination", fontsize=10)
    right.legend(loc="upper left", fontsize=8)
    right.grid(alpha=0.3)

    eps = result.parameters.get("eps")
    fig.suptitle(f"{title or result.formulation}: N = {N}, ν = {nu:g}, "
                 f"ε = {eps if eps is not None else '-'}, T = {result.iterations}, "
                 f"status {result.status}", fontsize=11)
    fig.savefig(path, dpi=120)


#: the earlier name of :func:`plot_run`
plot_history = plot_run
