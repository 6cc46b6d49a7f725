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

from dataclasses import dataclass

import numpy as np

from . import Master, MasterSolve

#: HiGHS options: silent, dual simplex, the tolerances of dualboost.solvers.SOLVER_OPTIONS
HIGHS_OPTIONS = {
    "output_flag": False,
    "log_to_console": False,
    "presolve": "off",
    "solver": "simplex",
    "simplex_strategy": 1,  # dual simplex: a new row keeps the old basis dual feasible
    # devex pricing: dual steepest-edge weights are recomputed after every added row, which
    # cost more than the pivots they save (german, nu = 0.2 N: 22.7 s -> 9.7 s for T = 275)
    "simplex_dual_edge_weight_strategy": 1,
    "primal_feasibility_tolerance": 1e-10,
    "dual_feasibility_tolerance": 1e-10,
    # no random cost perturbation: the d have cost 0, so HiGHS perturbs nearly every cost and
    # removes the perturbation again after each solve, pivots that a re-solve from an optimal
    # basis does not need (20 LPBoost runs on UCI-shaped and scikit-learn data, nu = 0.2 N and
    # 0.5 N: 10.8 -> 8.8 s in all; german nu = 0.2 N 2.6 -> 1.1 s). A solve that does not end
    # optimal this way (a stall on a degenerate vertex) is re-run with the perturbation on
    # (:data:`PERTURBED`) before anything falls back.
    "dual_simplex_cost_perturbation_multiplier": 0.0,
}

#: HiGHS's default cost perturbation, for the re-run of a solve that did not end optimal
PERTURBED = {"dual_simplex_cost_perturbation_multiplier": 1.0}


def pivot_limit(size: int) -> int:
    """Simplex pivots allowed to one solve of an LP over ``size`` examples (a stall without the
    perturbation is cut short and re-run with it): far above what a solve takes (a few
    thousand at N ~ 1,000)."""
    return 40 * size + 1000


def run_optimal(h) -> bool:
    """``h.run()``; when it does not end optimal (the unperturbed dual simplex can stall on a
    degenerate vertex), once more from where it stopped with HiGHS's cost perturbation on.
    True when the model ends optimal."""
    h.run()
    if h.modelStatusToString(h.getModelStatus()) == "Optimal":
        return True
    for key, value in PERTURBED.items():
        h.setOptionValue(key, value)
    try:
        h.run()
    finally:
        for key in PERTURBED:
            h.setOptionValue(key, HIGHS_OPTIONS[key])
    return h.modelStatusToString(h.getModelStatus()) == "Optimal"


@dataclass
class EdgeRows:
    """The edge rows of (2.3) in the form HiGHS is given (module docstring), one per column of
    U: row q is ``sum_n A[n, q] d_n + delta_coef[q] delta`` in ``[lower[q], upper[q]]`` (bounds
    for sum(d) = 1; infinite bounds are HiGHS's kHighsInf), A the indicator of the column's
    error set (``errors``), of its accuracy set (``accuracy``), or U itself on a column that is
    not +-1 (:meth:`coefficients`); the thesis's multipliers are read back from HiGHS's row
    duals by :meth:`multipliers`. Only the per-column forms are stored: the rows of A an LP
    needs are made from U's (an N x t copy per solve costs as much as the solve at large N)."""

    errors: np.ndarray
    accuracy: np.ndarray

    @classmethod
    def of(cls, U: np.ndarray) -> EdgeRows:
        """The forms of the columns U: +-1 columns on the smaller of their two sets."""
        N = U.shape[0]
        n_wrong = np.count_nonzero(U == -1.0, axis=0)
        sign = n_wrong + np.count_nonzero(U == 1.0, axis=0) == N
        errors = sign & (2 * n_wrong <= N)
        return cls(errors=errors, accuracy=sign & ~errors)

    def followed_by(self, other: EdgeRows) -> EdgeRows:
        """These rows, then ``other``'s (the columns of another block of U)."""
        return EdgeRows(np.concatenate([self.errors, other.errors]),
                        np.concatenate([self.accuracy, other.accuracy]))

    def coefficients(self, U_rows: np.ndarray) -> np.ndarray:
        """A's rows for the given rows of U (same columns)."""
        return np.where(self.errors, U_rows == -1.0,
                        np.where(self.accuracy, U_rows == 1.0, U_rows)).astype(float)

    def weighted_sum(self, U_rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """``weights @ A[rows]`` from ``e = weights @ U[rows]`` alone: on +-1 columns the
        indicator of u = -1 (+1) is (1 - u)/2 ((1 + u)/2)."""
        e = weights @ U_rows
        total = float(weights.sum())
        return np.where(self.errors, (total - e) / 2, np.where(self.accuracy, (total + e) / 2, e))

    @property
    def delta_coef(self) -> np.ndarray:
        return np.where(self.errors, -1.0, np.where(self.accuracy, 1.0, 2.0))

    @property
    def lower(self) -> np.ndarray:
        return np.where(self.errors, 0.0, -np.inf)

    @property
    def upper(self) -> np.ndarray:
        return np.where(self.errors, np.inf, 1.0)

    def multipliers(self, y: np.ndarray) -> tuple[np.ndarray, float]:
        """(w, beta) of (2.2) from the row duals y (row 0: sum(d); then one row per column):
        ``w_q = y_q/2`` (error row), ``-y_q/2`` (accuracy row), ``-y_q`` (other)."""
        w_factor = np.where(self.errors, 0.5, np.where(self.accuracy, -0.5, -1.0))
        beta_factor = np.where(self.errors | self.accuracy, -0.5, 0.0)
        return w_factor * y[1:], -float(y[0]) + float(beta_factor @ y[1:])


def sparse_lines(B: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, indices, values) of the nonzeros of B line by line (HiGHS's packed rows of a
    row-wise block, or packed columns of B^T)."""
    nonzero = B != 0.0
    counts = np.count_nonzero(nonzero, axis=1)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    return starts, np.nonzero(nonzero)[1].astype(np.int32), B[nonzero]


def soft_margin_model(N: int, caps: np.ndarray | float | None, options: dict):
    """A HiGHS model of (2.3) in the form of the module docstring, without its edge rows yet:
    columns d_0..d_{N-1} (bounds [0, caps_n]; [0, inf) with ``caps=None``), then
    delta = (1 - gamma)/2 (cost -2, i.e. gamma - 1; free); row 0 is sum(d) = 1 (beta)."""
    import highspy

    h = highspy.Highs()
    for key, value in options.items():
        h.setOptionValue(key, value)
    costs, lower, upper = np.zeros(N + 1), np.zeros(N + 1), np.full(N + 1, np.inf)
    costs[N], lower[N] = -2.0, -np.inf
    if caps is not None:
        upper[:N] = caps
    h.addCols(N + 1, costs, lower, upper, 0, np.zeros(N + 1, dtype=np.int32),
              np.zeros(0, dtype=np.int32), np.zeros(0))
    h.addRow(1.0, 1.0, N, np.arange(N, dtype=np.int32), np.ones(N))
    return h


def add_edge_rows(h, U_new: np.ndarray) -> EdgeRows:
    """One edge row per column of U_new added to a :func:`soft_margin_model`, in the form of
    :class:`EdgeRows` (returned)."""
    rows = EdgeRows.of(U_new)
    starts, index, values = sparse_lines(np.column_stack([rows.coefficients(U_new).T,
                                                          rows.delta_coef]))
    h.addRows(U_new.shape[1], rows.lower, rows.upper, values.size, starts, index, values)
    return rows


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
        from .sifting import sifted_soft_margin_lp

        t = U.shape[1]
        w_start = None  # uniform weights (sifted_soft_margin_lp)
        if self._w is not None:
            w_start = np.zeros(t)
            w_start[:min(t, self._w.size)] = self._w[:t]
        caps = getattr(self.formulation, "cap", None) if self.caps else None
        sifted = sifted_soft_margin_lp(U, self.nu, w_start,
                                       caps=caps if np.ndim(caps) == 1 else None,
                                       working_start=self._support)
        if sifted is None:
            return None
        self._support = sifted.support
        certificate = self.formulation.certify(U, {"w": sifted.w, "psi": sifted.psi}, sifted.d)
        scale = 1.0 + abs(certificate.primal_value) + abs(certificate.dual_value)
        if not -1e-12 * scale <= certificate.gap <= gap_tol:
            return None
        return MasterSolve(certificate=certificate,
                           multipliers={"w": sifted.w, "psi": sifted.psi, "beta": sifted.beta},
                           solver="HIGHS", status=f"optimal (sifting: {sifted.rounds} rounds, "
                           f"{sifted.working_set} of {self.N} examples)")

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
        if not run_optimal(h):
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
        return MasterSolve(certificate=certificate,
                           multipliers={"w": w, "psi": psi, "beta": beta}, solver="HIGHS",
                           status=f"optimal (warm dual simplex, {iterations} pivots)")
