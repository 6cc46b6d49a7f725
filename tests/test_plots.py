"""The run picture (dualboost/plots.py): axes follow the data (issue 19: on a9a the margin panel
was one vertical line in a fixed [-1, 1] window and the bracket panel was flat)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

from dualboost.api import run
from dualboost.margins import soft_margin
from dualboost.result import BoostResult, IterationRecord

pytest.importorskip("matplotlib")


def small_margin_result(N: int = 200, seed: int = 0) -> BoostResult:
    """An LPBoost-shaped result whose margins are +-0.01 (two nearly cancelling columns) and whose
    stopping quantity falls from 0.3 to 4e-3 over six solves (eps = 0.005)."""
    rng = np.random.default_rng(seed)
    u = rng.choice([-1.0, 1.0], size=N)
    columns = np.column_stack([u, -u])
    weights = np.array([0.505, 0.495])
    nu = 0.3 * N
    margins = columns @ weights
    deltas = [0.3, 0.1, 0.04, 0.02, 0.009, 0.004]
    history = []
    for t, delta in enumerate(deltas, start=1):
        dual = -0.01 + 0.002 * t
        history.append(IterationRecord(
            t=t, edge=dual + delta, primal_before=dual + delta, delta_simple=delta,
            delta_practical=delta, oracle_seconds=0.0, solved=True, primal=dual + 1e-12,
            dual=dual, duality_gap=1e-12))
    return BoostResult(
        formulation="lpboost", parameters={"nu": nu, "eps": 0.005, "N": N},
        weights=weights, hypotheses=[None, None], columns=columns, d=np.full(N, 1 / N),
        psi=None, beta=0.0, history=history, success=True, status="converged", message="",
        primal_objective=history[-1].primal, dual_objective=history[-1].dual,
        soft_margin=soft_margin(margins, nu), lp_value=history[-1].dual, seconds=0.0,
        master_seconds=0.0, oracle_seconds=0.0, stopping="lp", algorithm="lpboost")


def panels(result):
    from dualboost.plots import figure

    left, middle, right = figure(result).axes[:3]
    return left, middle, right


def test_margin_axis_follows_small_margins():
    result = small_margin_result()
    _, _, right = panels(result)
    lo, hi = right.get_xlim()
    margins = result.columns @ result.weights
    assert lo <= margins.min() and hi >= margins.max()  # every margin in the frame ...
    assert hi - lo < 0.05  # ... and the +-0.01 spread fills it (not the old [-1, 1])
    assert right.get_ylim() == (0.0, 1.0)


def test_convergence_panel_is_log_and_spans_the_stopping_quantity():
    result = small_margin_result()
    _, middle, _ = panels(result)
    assert middle.get_yscale() == "log"
    lo, hi = middle.get_ylim()
    deltas = [r.delta_simple for r in result.history]
    assert lo <= min(deltas) and hi >= max(deltas)
    assert hi / lo < 1e4  # the decades of the run, not of the solver's 1e-12 duality gaps


def test_bracket_panel_follows_the_bracket():
    result = small_margin_result()
    left, _, _ = panels(result)
    lo, hi = left.get_ylim()
    values = [v for r in result.history for v in (r.primal, r.dual, r.edge)]
    assert lo <= min(values) and hi >= max(values)
    assert hi - lo < 1.5 * (max(values) - min(values))  # padded, not a fixed window


def test_breast_cancer_picture_follows_its_run(tmp_path):
    bunch = load_breast_cancer()
    y = np.where(bunch.target == 1, 1.0, -1.0)
    result = run(bunch.data, y, formulation="erlpboost", nu_frac=0.1, eps=0.01)
    left, middle, right = panels(result)
    margins = result.columns @ result.weights
    lo, hi = right.get_xlim()
    assert lo <= np.quantile(margins, 0.002) and hi >= np.quantile(margins, 0.998)
    assert lo <= result.soft_margin <= hi and lo <= 0.0 <= hi
    assert hi - lo < 1.2 * (max(margins.max(), 0) - min(margins.min(), 0)) + 1e-9
    assert middle.get_yscale() == "log"
    threshold = 0.01 / 2  # ERLPBoost stops at delta <= eps/2: the line must be in the frame
    assert middle.get_ylim()[0] < threshold < middle.get_ylim()[1]
    from dualboost.plots import plot_run

    out = tmp_path / "run.png"
    plot_run(result, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
