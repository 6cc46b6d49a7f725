"""Convergence plot of a boosting run: the certified bracket closing, and delta reaching eps/2."""

from __future__ import annotations

import numpy as np

from .result import BoostResult


def plot_history(result: BoostResult, path: str, title: str | None = None) -> None:
    """Save a two-panel PNG/PDF/SVG of ``result.history`` to ``path``.

    Left: per iteration t, the primal P^t(d^t) (upper bound), the dual Theta^t (lower bound), the
    running min_q u^q.d^(q-1) (the oracle's best guarantee so far) and P_LP^T. Right: the stopping
    quantity (delta^t or delta~^t for ERLPBoost, gamma_hat_t - P_LP^t for LPBoost) on a log scale
    against its threshold.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    solved = [r for r in result.history if r.solved]
    t = np.array([r.t for r in solved])
    eps = result.parameters.get("eps")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
    left.plot(t, [r.primal for r in solved], "-", color="C0", label="primal P^t(d^t)")
    left.plot(t, [r.dual for r in solved], "--", color="C1", label="dual Θ^t(w^t, ψ^t)")
    all_t = np.array([r.t for r in result.history])
    left.plot(all_t, np.minimum.accumulate([r.edge for r in result.history]), ":", color="C2",
              label="min_q u^q·d^(q-1)")
    if result.lp_value is not None:
        left.axhline(result.lp_value, color="grey", lw=0.8,
                     label=f"P_LP^T = {result.lp_value:.4g}")
    left.set_xlabel("iteration t")
    left.set_ylabel("objective")
    left.legend(loc="upper right", fontsize=8)
    left.grid(alpha=0.3)

    if result.stopping == "lp":
        deltas, threshold, label = [r.delta_simple for r in solved], eps, "γ̂_t − P_LP^t"
        steps, stop_label = t, "ε"
    elif result.stopping in ("simple", "practical"):
        key = "delta_simple" if result.stopping == "simple" else "delta_practical"
        deltas = [getattr(r, key) for r in result.history]
        threshold, steps = eps / 2, all_t
        label = "δ^t" if result.stopping == "simple" else "δ̃^t"
        stop_label = "ε/2"
    else:  # an algorithm with another rule (SoftBoost stops on infeasibility): the gap
        deltas, threshold, steps = [r.primal - r.dual for r in solved], None, t
        label, stop_label = "certified gap P^t − Θ^t", ""
    positive = np.maximum(np.asarray(deltas, dtype=float), 1e-16)
    right.semilogy(steps, positive, "-o", ms=2.5, color="C3", label=label)
    if threshold is not None:
        right.axhline(threshold, color="k", lw=0.8, ls="--",
                      label=f"stop at {stop_label} = {threshold:g}")
    right.set_xlabel("iteration t")
    right.set_ylabel("stopping quantity")
    right.legend(fontsize=8)
    right.grid(alpha=0.3, which="both")
    nu = result.parameters.get("nu", 1.0)
    fig.suptitle(title or f"{result.formulation}: N = {result.parameters['N']}, "
                 f"ν = {nu:g}, ε = {eps:g}, T = {result.iterations}")
    fig.savefig(path, dpi=120)
    plt.close(fig)
