"""Fast master solvers: optional implementations behind the same contract.

A formulation may return a :class:`Master` from ``Formulation.fast_master()``; the totally
corrective algorithms then call it instead of the reference path (a fresh cvxpy model per
iteration, :meth:`Formulation.solve_primal`). A master keeps its own state across iterations
(a HiGHS model with its basis, the previous w for a warm start) and must return a certificate
of the same kind: an exact bracket ``Theta(point) <= optimum <= P(d)`` computed by the
formulation itself (``Formulation.certify``), so a fast path can be faster but never less
certified. The cvxpy models stay the reference the verifier and the tests compare it with.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np

from ..formulation import Certificate, Formulation


@dataclass
class MasterSolve:
    """One fast master solve: its certificate and what the record shows."""

    certificate: Certificate
    #: the solver's own multipliers (for the KKT diagnostic), keyed by constraint name
    multipliers: dict = field(default_factory=dict)
    solver: str = ""
    status: str = "optimal"
    seconds: float = 0.0


class Master(ABC):
    """A stateful master solver for one run (see the module docstring)."""

    #: shown in the history and the summary ("highs-warm", "projected-newton", ...)
    path: str = "fast"

    formulation: Formulation

    @abstractmethod
    def solve(self, U: np.ndarray, gap_tol: float) -> MasterSolve:
        """Solve the master over the columns U (the previous call's columns plus new ones)."""

    def reference(self, U: np.ndarray, gap_tol: float, why: str,
                  solver_prefix: str = "") -> MasterSolve:
        """This iteration on the reference path (a cvxpy model, the solver policy), reported as a
        fallback with its reason."""
        model, certificate, record = self.formulation.solve_primal(U, gap_tol)
        return MasterSolve(certificate=certificate, multipliers=dict(model.multipliers()),
                           solver=f"{solver_prefix}{record.solver}",
                           status=f"{record.status} (reference path fallback: {why})")
