"""SoftBoost's master (3.1) in the w-domain: projected Newton on Theta_S over w >= 0.

The dual of (3.1) with psi and beta maximized out (thesis (3.3); Lemma 3.1 corrected: w is not
normalized and there is no eta) is ``Theta_S(w) = min_{d capped} Delta(d, d0) + d.(U w - c)``,
concave on the orthant, its inner minimizer the capped entropic projection of ``d0 exp(-U w)``
(the formulation's ``best_response``). The formulation's own ``polish`` ascends it by projected
Newton steps (gradient ``U^T d(w) - c``, Hessian on the uncapped examples); here it starts from
the previous iteration's w with the new column at weight 0, and the result is certified by the
formulation's exact bracket (``certify``, edge feasibility restored with ``anchor``, a capped
distribution strictly inside the edge bound: the algorithm passes this iteration's LP point).

(3.1) is only solved when it has an interior point (the algorithm decides infeasibility first,
from P_LP^t), so Theta_S is bounded above and the ascent converges; a bracket wider than the
engine's ``gap_tol`` sends the iteration to the reference path, and the status says so.
"""

from __future__ import annotations

import time

import numpy as np

from . import Master, MasterSolve

__all__ = ["SoftBoostNewtonMaster"]


class SoftBoostNewtonMaster(Master):
    """See the module docstring. ``formulation`` is replaced by the algorithm at every iteration
    (its edge bound changes); ``anchor`` may be set to an edge-feasible capped distribution."""

    path = "projected-newton"

    def __init__(self, formulation, iterations: int = 200):
        self.formulation = formulation
        self.iterations = int(iterations)
        self.anchor: np.ndarray | None = None
        self.w: np.ndarray | None = None

    def solve(self, U: np.ndarray, gap_tol: float) -> MasterSolve:
        tick = time.perf_counter()
        f = self.formulation
        U = f.check_columns(U)
        t = U.shape[1]
        start = np.zeros(t)
        if self.w is not None and self.w.size <= t:
            start[:self.w.size] = self.w  # the new columns at weight 0
        w = f.polish(U, start, iterations=self.iterations)
        cert = f.certify(U, {"w": w}, anchor=self.anchor)
        scale = 1.0 + abs(cert.primal_value) + abs(cert.dual_value)
        if not -1e-12 * scale <= cert.gap <= gap_tol:  # a gap of -1e-16 is round-off
            solved = self.reference(U, gap_tol, f"certified gap {cert.gap:.3g} above gap_tol = "
                                    f"{gap_tol:g} after projected Newton",
                                    solver_prefix="newton->")
            self.w = np.asarray(solved.certificate.w, dtype=float).reshape(-1).copy()
            solved.seconds = time.perf_counter() - tick
            return solved
        self.w = np.asarray(cert.w, dtype=float).reshape(-1).copy()
        return MasterSolve(certificate=cert, multipliers=dict(cert.point.items()), solver="newton",
                           status="optimal (projected Newton on Theta_S)",
                           seconds=time.perf_counter() - tick)
