"""Fast masters for seed 002's (Shen & Li) problems that are not plain members of the family.

* :class:`ZeroColumnMaster`: AdaBoost_l1 with the inequality budget ``1^T w <= 1/T`` (seed 002
  F1b) is the equality member on the columns ``[0, U]`` (the all-zero column carries the unused
  budget); the family's projected-Newton master runs on those, and its certificate is read back
  as one of the inequality problem on U (w = the last t weights, slack = the first).
* :class:`UnnormalizedNewtonMaster`: LogitBoost_l1's w-domain problem (seed 002 (32); (31) is its
  d-domain problem) has no normalization sum(d) = 1, so no beta: Theta(w) =
  -(1/eta) R*(-eta U w) over the simplex, whose -Hessian is ``eta U^T diag(h) U`` without the
  rank-one correction that eliminating beta adds (:mod:`dualboost.masters.newton`).
"""

from __future__ import annotations

import time

import numpy as np

from . import Master, MasterSolve
from .newton import ProjectedNewtonMaster, _Curvature

__all__ = ["UnnormalizedNewtonMaster", "ZeroColumnMaster"]


class ZeroColumnMaster(Master):
    """The inner master on ``[0, U]``; certificates translated by the formulation."""

    def __init__(self, formulation, inner: Master):
        self.formulation, self.inner = formulation, inner
        self.path = inner.path
        self._buffer = np.zeros((formulation.N, 17), order="F")
        self._known = 0

    def _with_zero(self, U: np.ndarray) -> np.ndarray:
        """[0, U] in a column-major buffer kept across solves (U extends the previous U: only
        the new columns are copied, and the inner master's own column cache stays valid)."""
        N, t = U.shape
        known = self._known
        if known > t or (known and not np.array_equal(self._buffer[:, known], U[:, known - 1])):
            known = 0
        if self._buffer.shape[1] < t + 1:
            grown = np.zeros((N, max(t + 1, 2 * self._buffer.shape[1])), order="F")
            grown[:, :known + 1] = self._buffer[:, :known + 1]
            self._buffer = grown
        self._buffer[:, known + 1:t + 1] = U[:, known:t]
        self._known = t
        return self._buffer[:, :t + 1]

    def solve(self, U: np.ndarray, gap_tol: float) -> MasterSolve:
        tick = time.perf_counter()
        f = self.formulation
        U = np.asarray(f.check_columns(U), dtype=float)
        solved = self.inner.solve(self._with_zero(U), gap_tol)
        certificate = f._from_twin(solved.certificate)
        multipliers = dict(solved.multipliers)
        w_all = np.asarray(multipliers.get("w", solved.certificate.w), dtype=float)
        multipliers["w"], multipliers["slack"] = w_all[1:], float(w_all[0])
        return MasterSolve(certificate=certificate, multipliers=multipliers,
                           solver=solved.solver, status=solved.status,
                           seconds=time.perf_counter() - tick, path=solved.path,
                           iterations=solved.iterations)


class UnnormalizedNewtonMaster(ProjectedNewtonMaster):
    """Projected Newton on Theta(w) = -(1/eta) R*(-eta U w) (no beta): see the module
    docstring."""

    def _curvature(self, U: np.ndarray, d: np.ndarray) -> _Curvature | None:
        curvature = super()._curvature(U, d)
        if curvature is None:
            return None
        # without beta the -Hessian is eta U^T diag(h) U: no a a^T / total term
        return _Curvature(curvature.moment, np.zeros_like(curvature.a), 1.0, curvature.eta)
