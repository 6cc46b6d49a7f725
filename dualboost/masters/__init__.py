"""Fast master solvers: optional implementations behind the same contract.

A formulation may return a :class:`Master` from ``Formulation.fast_master()``; the totally
corrective algorithms then call it instead of the reference path (a fresh cvxpy model per
iteration, :meth:`Formulation.solve_primal`). A master keeps its own state across iterations
(a HiGHS model with its basis, the previous w for a warm start) and must return a certificate
of the same kind: an exact bracket ``Theta(point) <= optimum <= P(d)`` computed by the
formulation itself (``Formulation.certify``), so a fast path can be faster but never less
certified. The cvxpy models stay the reference the verifier and the tests compare it with.

Why the reference path rebuilds and recompiles its model at every iteration: it *is* the
contract, the model a formulation's ``primal(U)`` builds from the numpy columns, and a user's
file may build anything from them (SoftBoost's edge bound changes with every iteration). cvxpy
reuses a compilation only for a DPP model whose Parameters keep their shape, while U gains a
column per iteration, so a cached compilation would need every formulation to be written
against a padded parameter. Measured on breast cancer (nu = 0.2 N, eps = 0.01, stumps), the
compilation is 43% of LPBoost's reference master time (0.90 of 2.08 s, T = 40) and at most a
third of ERLPBoost's (the Clarabel solves take 3.2 of 4.9 s, T = 35); the fast masters here
compile nothing, and every shipped formulation has one: LPBoost (``highs_lp``), the regularized
family (``newton``; every member whose R and R* are sums of per-coordinate terms, with numerics
compiled from its cvxpy declarations, :mod:`dualboost.separable`), SoftBoost and TotalBoost
(``softboost_newton``). The output's P_LP^T is solved by sifting over the examples
(``sifting``) from the last master's w.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np

from ..formulation import Certificate, Formulation
from ..run_control import TimeLimitReached, current


@dataclass
class MasterSolve:
    """One fast master solve: its certificate and what the record shows."""

    certificate: Certificate
    #: the solver's own multipliers (for the KKT diagnostic), keyed by constraint name
    multipliers: dict = field(default_factory=dict)
    solver: str = ""
    status: str = "optimal"
    seconds: float = 0.0
    #: the path that ran when it is not the master's own: "reference" for a fallback
    path: str | None = None
    #: the solver's iterations in passes over the N x t matrix (a Newton step is one, a simplex
    #: pivot dualboost.masters.highs_run.PIVOT_PASSES), None when it reports none: the fit's
    #: work count (the guarantee check falls due on work, never on the clock)
    iterations: int | None = None


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
        fallback with its reason.

        Inside a run the fallback is announced at once by a progress line (the model has a
        variable per example, and a cone per example for the regularized family: ERLPBoost's
        Clarabel solve over a9a's N = 29,305 takes minutes; the solver policy's heartbeat then
        prints a line every ``every`` seconds); a solver the run's time
        limit could not stop in time is not started (:mod:`dualboost.solvers`), and the run's
        message then names this fallback and the remedies."""
        control = current()
        N = int(np.shape(U)[0])
        if control is not None:
            control.announce(f"reference path fallback ({why}): a cvxpy model over "
                             f"N = {N} examples{', may take minutes' if N >= 5000 else ''}")
        try:
            model, certificate, record = self.formulation.solve_primal(U, gap_tol)
        except TimeLimitReached as reached:
            if reached.detail:
                reached.detail += (f"; it was the reference path fallback of a {self.path} "
                                   f"master solve ({why}); remedies: a larger nu (a softer "
                                   "margin, docs/choosing_nu.md), a larger eps, or a longer "
                                   "time limit")
            raise
        return MasterSolve(certificate=certificate, multipliers=dict(model.multipliers()),
                           solver=f"{solver_prefix}{record.solver}",
                           status=f"{record.status} (reference path fallback: {why})",
                           seconds=record.seconds, path="reference")
