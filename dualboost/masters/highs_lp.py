"""LPBoost's master on HiGHS directly: one LP kept across the iterations of a run.

The d-domain LP, thesis (2.3)::

    min_{d, gamma} gamma
    s.t. U^T d - gamma <= 0     (one row per column of U; priced by w)
         sum(d) = 1             (priced by beta)
         0 <= d <= 1/nu         (the upper bounds priced by psi; no caps at nu = 1)
         gamma free

is held in one ``highspy.Highs`` model. Each new column u^t of U adds one row; HiGHS keeps the
previous optimal basis (the new row's slack enters it as basic), which stays dual feasible, so
the re-solve is a few dual simplex pivots from it.

**Sparse edge rows.** A column of +-1 entries (a classifier's ``y h(x)``: stumps, trees) is
dense, and the dual simplex's pricing and factorization cost grow with the nonzeros. With
``sum(d) = 1`` its edge is ``u.d = 1 - 2 sum_{u_n = -1} d_n = 2 sum_{u_n = +1} d_n - 1``, so
with ``gamma = 1 - 2 delta`` its row is written on the smaller of the two sets (the examples it
gets wrong, M, or right, C)::

    sum_{n in M} d_n - delta >= 0       (the weighted error of h is at least delta)
    sum_{n in C} d_n + delta <= 1       (its weighted accuracy is at most 1 - delta)

and any other column as ``u.d + 2 delta <= 1``. Each is the row ``u.d - gamma <= 0`` scaled by
-1/2, 1/2 or 1 plus a multiple of ``sum(d) = 1``, so the LP, its vertices and the reduced costs
of d are the same; the objective is ``-2 delta`` (= gamma - 1). The stump rows carry half the
nonzeros or fewer (measured: a column-by-column re-solve of pima-, heart- and blood-shaped runs
5.7 -> 3.3 s, 0.21 -> 0.16 s, 0.27 -> 0.12 s).

The multipliers are read from the same solve, in the thesis's sign convention (2.2) (the
Lagrangian ``gamma + w.(U^T d - gamma) + beta (1.d - 1) + psi.(d - 1/nu)``). HiGHS's row duals
y satisfy ``c - A^T y = z`` (z the reduced costs), so for a minimization, matching
``z_n = (U w)_n + beta`` term by term:

* ``w_q = y_q / 2`` on an error row, ``-y_q / 2`` on an accuracy row, ``-y_q`` on a general
  row (w >= 0, and sum(w) = 1 from delta's reduced cost ``2 (sum(w) - 1) = 0``);
* ``beta = -y_0 - (1/2) sum of y_q over the error and accuracy rows`` (-beta is the soft margin
  rho of (2.2));
* ``psi_n = max(0, -z_n)`` for d_n at its upper bound 1/nu (z_n <= 0 there), else 0.

The certificate is the formulation's own exact bracket (:meth:`Formulation.certify`), so this
path is faster than the reference path but never less certified; when the bracket is wider than
the engine's ``gap_tol`` the iteration falls back to the reference path
(:meth:`Formulation.solve_primal`) and its status says so.
"""

from __future__ import annotations

import numpy as np

from . import Master, MasterSolve
from .highs_run import HIGHS_OPTIONS, pivot_limit, pivot_passes, run_optimal
from .lp_rows import EdgeRows, add_edge_rows, soft_margin_model, sparse_lines
from .sifting import off_bounds, sifted_soft_margin_lp

# the row builders and HiGHS's options live in lp_rows and highs_run (shared with sifting);
# they are named here too, where the LP master's docstring explains them
__all__ = ["HIGHS_OPTIONS", "EdgeRows", "HighsLPMaster", "add_edge_rows", "pivot_limit",
           "run_optimal", "soft_margin_model", "sparse_lines"]


#: a sifted solve gives up once its working set exceeds this share of the N examples (the
#: whole LP's warm dual simplex then solves it; sifting stays off for the rest of the run when
#: it started from a previous solve's w). Its rounds admit the most violated examples, at most
#: doubling the working set, so a solve after a new batch of columns can pass N / 2 on its way
#: (make_classification N = 1e5, nu = 0.7 N, 61 columns: 18,435 examples change bound, the
#: working set peaks at 44,550 in 12 rounds, 2.1 s, where the warm whole LP took 5.1 s)
SIFTING_MAX_SHARE = 0.75

#: the soft-margin LP's value within this of 0 is 0 up to the master's round-off (its certified
#: gap is eps/100): the degenerate LP of noisy data (every column in a complementary pair tight,
#: a9a's LPBoost). Sifting's working set then grows to most of the LP round after round (a9a,
#: t = 3: 16 rounds, 4.7 s, against 0.8 s warm whole), so the run goes on with the whole LP;
#: LPBoost's early stop reads the same value (dualboost.algorithms.totally_corrective)
DEGENERATE_LP_VALUE = 1e-9

#: the unperturbed pivots a warm re-solve may try first: this many plus so many per new row,
#: on LPs over at most UNPERTURBED_MAX_N examples
UNPERTURBED_PIVOTS, UNPERTURBED_PIVOTS_PER_ROW, UNPERTURBED_MAX_N = 200, 20, 5000


class HighsLPMaster(Master):
    """The LP (2.3) re-solved by dual simplex from the previous basis (see the module docstring).

    ``formulation`` is an LPBoost instance (its ``N`` and ``nu``; its ``certify`` and
    ``solve_primal``). One instance serves one run: the columns passed to :meth:`solve` must
    extend those of the previous call (otherwise the model is rebuilt from scratch).
    """

    path = "highs-warm"

    def __init__(self, formulation, sifting: bool | None = None):
        self.formulation = formulation
        self.N = int(formulation.N)
        self.nu = float(getattr(formulation, "nu", 1.0))
        self.caps = bool(getattr(formulation, "has_caps", self.nu > 1))
        self._highs = None
        self._U = np.zeros((self.N, 0))
        #: None: sift when N is large against the working set (:meth:`_sifting_pays`)
        self.sifting = sifting
        self._w: np.ndarray | None = None
        self._support: np.ndarray | None = None  # the last sifted solve's fractional examples

    def _sifting_pays(self, t: int) -> bool:
        """Sifting (:mod:`dualboost.masters.sifting`) from the previous w: each solve prices all
        N examples once per round (O(N t)) and solves an LP on about 2 (t + 1) + 100 of them,
        where the warm dual simplex on the whole LP pivots over dense rows of length N, and its
        pivots per new row grow with N (twonorm, t = 100: about 250 at N = 1e4). It pays when
        N is several times that working set and large (measured on twonorm, T = 100: the same
        3.3 s at N = 3,000, 18.0 -> 10.9 s at N = 10,000). The first solve has no w to place
        the working set; sifting places it by uniform weights on the columns (twonorm
        N = 1e5 with 21 columns: 3.9 s cold on the whole LP)."""
        if self.sifting is False:
            return False
        return bool(self.sifting) or (self.N >= 10_000
                                      and self.N >= 8 * (2 * (t + 1) + 100))

    def _sifted(self, U: np.ndarray, gap_tol: float) -> MasterSolve | None:
        t = U.shape[1]
        w_start = None  # uniform weights (sifted_soft_margin_lp)
        if self._w is not None:
            w_start = np.zeros(t)
            w_start[:min(t, self._w.size)] = self._w[:t]
        caps = getattr(self.formulation, "cap", None) if self.caps else None
        sifted = sifted_soft_margin_lp(U, self.nu, w_start,
                                       caps=caps if np.ndim(caps) == 1 else None,
                                       working_start=self._support,
                                       max_working=(None if self.sifting is True
                                                    else int(self.N * SIFTING_MAX_SHARE)))
        if sifted is None and self.sifting is None and self._w is not None:
            # (a degenerate LP: its working set grew to a large part of the LP from a placement
            # by the previous solve's w) the whole LP's warm dual simplex from here on; from
            # uniform weights (the first solve) the placement was only a guess, and the next
            # solve sifts from this one's w
            self.sifting = False
        if sifted is None:
            return None
        self._support = sifted.support
        certificate = self.formulation.certify(U, {"w": sifted.w, "psi": sifted.psi}, sifted.d)
        scale = 1.0 + abs(certificate.primal_value) + abs(certificate.dual_value)
        if not -1e-12 * scale <= certificate.gap <= gap_tol:
            return None
        if self.sifting is None and abs(certificate.primal_value) <= DEGENERATE_LP_VALUE:
            self.sifting = False  # (DEGENERATE_LP_VALUE) this solve stands; the next is whole
        return MasterSolve(certificate=certificate,
                           multipliers={"w": sifted.w, "psi": sifted.psi, "beta": sifted.beta},
                           solver="HIGHS", status=f"optimal (sifting: {sifted.rounds} rounds, "
                           f"{sifted.working_set} of {self.N} examples)",
                           iterations=pivot_passes(sifted.pivots))

    # -- the HiGHS model ----------------------------------------------------------------------
    def _build(self) -> None:
        N = self.N
        # per-example caps with sample weights (the formulation's cap vector), else 1/nu
        caps = getattr(self.formulation, "cap", 1.0 / self.nu) if self.caps else None
        self._highs = soft_margin_model(N, caps, {**HIGHS_OPTIONS,
                                                  "simplex_iteration_limit": pivot_limit(N)})
        self._U = np.zeros((N, 0))
        #: the forms of the model's edge rows (EdgeRows), one per column so far
        self._rows = EdgeRows.of(self._U)

    def _add_columns(self, U_new: np.ndarray) -> None:
        """One edge row per new column, in the form of :class:`EdgeRows`."""
        if U_new.shape[1]:
            self._rows = self._rows.followed_by(add_edge_rows(self._highs, U_new))

    # -- one master solve -----------------------------------------------------------------------
    def solve(self, U: np.ndarray, gap_tol: float) -> MasterSolve:
        f = self.formulation
        U = f.check_columns(U)
        t = U.shape[1]
        if t == 0:
            return self.reference(U, gap_tol, "no columns")
        if self._sifting_pays(t):
            solved = self._sifted(U, gap_tol)
            if solved is not None:
                self.path, self._w = "highs-sifting", np.asarray(solved.certificate.w).copy()
                return solved
        self.path = "highs-warm"
        known = self._U.shape[1]
        if self._highs is None or t < known or not np.array_equal(U[:, :known], self._U):
            self._build()
            known = 0
        self._add_columns(U[:, known:])
        self._U = U.copy()

        h = self._highs
        # a warm re-solve of a small LP first tries some pivots per new row without the cost
        # perturbation (dualboost.masters.highs_run): cheaper when it ends there (german,
        # nu = 0.2 N, eps = 0.01: every re-solve did, at most 335 pivots), and a stall on a
        # degenerate vertex costs that budget only; on a large LP a pivot costs milliseconds and
        # the budget would cost seconds, so it is perturbed from the start
        budget = (UNPERTURBED_PIVOTS_PER_ROW * (t - known) + UNPERTURBED_PIVOTS
                  if known and self.N <= UNPERTURBED_MAX_N else 0)
        if not run_optimal(h, unperturbed=budget):
            status = h.modelStatusToString(h.getModelStatus())
            self._highs = None  # rebuild from scratch next time
            return self.reference(U, gap_tol, f"HiGHS status {status!r}")
        solution = h.getSolution()
        x = np.asarray(solution.col_value, dtype=float)
        z = np.asarray(solution.col_dual, dtype=float)
        y = np.asarray(solution.row_dual, dtype=float)
        d = x[:self.N]
        w, beta = self._rows.multipliers(y)
        psi = np.clip(-z[:self.N], 0.0, None) if self.caps else np.zeros(self.N)
        certificate = f.certify(U, {"w": w, "psi": psi}, d)
        scale = 1.0 + abs(certificate.primal_value) + abs(certificate.dual_value)
        if not -1e-12 * scale <= certificate.gap <= gap_tol:
            # a gap above tolerance, or a negative one (Theta > P: the reference path names
            # the broken pair with DualityViolation)
            return self.reference(U, gap_tol, f"certified gap {certificate.gap:.3g} outside "
                                   f"[0, gap_tol = {gap_tol:g}] on HiGHS's warm solve")
        iterations = int(h.getInfo().simplex_iteration_count)
        self._w = np.asarray(certificate.w, dtype=float).copy()
        self._support = off_bounds(d, np.asarray(getattr(f, "cap", 1.0 / self.nu), dtype=float))
        return MasterSolve(certificate=certificate,
                           multipliers={"w": w, "psi": psi, "beta": beta}, solver="HIGHS",
                           status=f"optimal (warm dual simplex, {iterations} pivots)",
                           iterations=pivot_passes(iterations))
