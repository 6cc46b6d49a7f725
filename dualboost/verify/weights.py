"""W1: a formulation that declares ``sample_weight`` solves the problem of the repeated rows.

docs/theory.md, "Sample weights": integer weights s mean row n repeated s_n times; the weighted
problem on the N rows (caps ``s_n N / (nu sum s)``, prior ``d0 = s / sum s`` by default) must have
the optimum of the *unweighted* problem of the same class on the repeated rows, with
``nu' = nu sum(s) / N`` and the prior ``d0_n / s_n`` on each copy (uniform ``1/sum s`` for the
default prior), at the same eta. The reference is solved independently (its own certified primal
solve); it catches a wrong weighted path (a cap, a prior, a range bound that ignores the weights)
and a class declaring the support whose weighted problem is not the repeated rows' (for the
squared distance the aggregate is ``sum D_n^2 / s_n``, not ``R`` with a prior).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..formulation import Formulation
from .checks import StepFailed, not_applicable, scaled, verifier_order

__all__ = ["w1"]

#: parameters the reference gets from the case itself (the rest are copied from the instance)
_CASE = ("nu", "eps", "d0", "sample_weight")


def w1(f: Formulation, U: np.ndarray, certificate: Callable, build: Callable, tol: float,
       solver: str | None):
    """|P(weighted) - P(repeated rows)| with the two optima certified (module docstring)."""
    s = f.sample_weight
    if s is None:
        return not_applicable("no sample weights in this case")
    s = np.asarray(s, dtype=float)
    if not np.allclose(s, np.round(s)) or np.any(s < 1):
        return not_applicable("the reference needs positive integer weights")
    try:
        weighted = certificate()
    except StepFailed as exc:
        raise StepFailed(f"the weighted primal solve: {exc}", exc.status) from None
    counts = np.round(s).astype(int)
    rows = np.repeat(np.arange(f.N), counts)
    N_rep = int(rows.size)
    nu = float(getattr(f, "nu", 1.0))
    nu_rep = nu * N_rep / f.N
    d0 = getattr(f, "d0", None)
    d0_rep = None if d0 is None else (np.asarray(d0, dtype=float) / counts)[rows]
    extra = {k: v for k, v in f.values.items()
             if k not in _CASE and v is not None and not isinstance(v, np.ndarray)}
    U_rep = np.asarray(U, dtype=float)[rows]
    g = build(N_rep, nu_rep, float(getattr(f, "eps", 0.1)), d0_rep, U_rep, extra)
    order = verifier_order(g.capabilities.solver_kind, solver)
    _, reference, _ = g.solve_primal(U_rep, tol / 100, order=order)
    P_w, P_r = weighted.primal_value, reference.primal_value
    slack = max(weighted.gap, 0.0) + max(reference.gap, 0.0)
    tolerance = scaled(tol, P_w, P_r) + slack
    diff = abs(P_w - P_r)
    aggregate = np.bincount(rows, weights=np.asarray(reference.d, dtype=float), minlength=f.N)
    d_diff = float(np.abs(aggregate - np.asarray(weighted.d, dtype=float)).sum())
    detail = (f"weighted P = {P_w:.10g}; the unweighted problem on the {N_rep} repeated rows "
              f"(nu' = {nu_rep:g}, prior d0_n / s_n per copy, eta as here) P = {P_r:.10g}; "
              f"l1 distance of d to the repeated rows' aggregated d {d_diff:.2g}")
    if diff > tolerance:
        detail = ("the weighted problem is not the problem of the repeated rows (docs/theory.md "
                  "'Sample weights'); " + detail)
    return diff, tolerance, diff <= tolerance, detail
