"""LPBoost's master on HiGHS directly: one LP kept across the iterations of a run.

The d-domain LP, thesis (2.3)::

    min_{d, gamma} gamma
    s.t. U^T d - gamma <= 0     (one row per column of U; priced by w)
         sum(d) = 1             (priced by beta)
         0 <= d <= 1/nu         (the upper bounds priced by psi; no caps at nu = 1)
         gamma free

is held in one ``highspy.Highs`` model. Each new column u^t of U adds one row
``u^t . d - gamma <= 0``; HiGHS keeps the previous optimal basis (the new row's slack enters it
as basic), which stays dual feasible, so the re-solve is a few dual simplex pivots from it.

The multipliers are read from the same solve, in the thesis's sign convention (2.2) (the
Lagrangian ``gamma + w.(U^T d - gamma) + beta (1.d - 1) + psi.(d - 1/nu)``). HiGHS's row duals
y satisfy ``c - A^T y = z`` (z the reduced costs), so for a minimization:

* ``w = -y_edge`` (w >= 0 and, from gamma's reduced cost 1 + sum(y_edge) = 0, sum(w) = 1);
* ``beta = -y_norm`` (-beta is the soft margin rho of (2.2));
* ``psi_n = max(0, -z_n)`` for d_n at its upper bound 1/nu (z_n <= 0 there), else 0.

The certificate is the formulation's own exact bracket (:meth:`Formulation.certify`), so this
path is faster than the reference path but never less certified; when the bracket is wider than
the engine's ``gap_tol`` the iteration falls back to the reference path
(:meth:`Formulation.solve_primal`) and its status says so.
"""

from __future__ import annotations

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
}


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
        import highspy

        h = highspy.Highs()
        for key, value in HIGHS_OPTIONS.items():
            h.setOptionValue(key, value)
        inf = highspy.kHighsInf
        N = self.N
        upper = 1.0 / self.nu if self.caps else inf
        # columns d_0..d_{N-1}, then gamma (cost 1, free)
        costs = np.zeros(N + 1)
        costs[N] = 1.0
        lower = np.zeros(N + 1)
        lower[N] = -inf
        uppers = np.full(N + 1, upper)
        if self.caps:  # per-example caps with sample weights (the formulation's cap vector)
            uppers[:N] = getattr(self.formulation, "cap", upper)
        uppers[N] = inf
        h.addCols(N + 1, costs, lower, uppers, 0, np.zeros(N + 1, dtype=np.int32),
                  np.zeros(0, dtype=np.int32), np.zeros(0))
        # row 0: sum(d) = 1 (beta)
        h.addRow(1.0, 1.0, N, np.arange(N, dtype=np.int32), np.ones(N))
        self._highs, self._inf = h, inf
        self._U = np.zeros((N, 0))

    def _add_columns(self, U_new: np.ndarray) -> None:
        h, N = self._highs, self.N
        index = np.arange(N + 1, dtype=np.int32)
        for u in U_new.T:
            values = np.append(u, -1.0)
            h.addRow(-self._inf, 0.0, N + 1, index, values)

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
        h.run()
        status = h.modelStatusToString(h.getModelStatus())
        if status != "Optimal":
            self._highs = None  # rebuild from scratch next time
            return self.reference(U, gap_tol, f"HiGHS status {status!r}")
        solution = h.getSolution()
        x = np.asarray(solution.col_value, dtype=float)
        z = np.asarray(solution.col_dual, dtype=float)
        y = np.asarray(solution.row_dual, dtype=float)
        d = x[:self.N]
        w = -y[1:]
        beta = -float(y[0])
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
