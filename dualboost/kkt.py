"""Recover the multipliers from an optimal primal point: the KKT / active-set linear system.

Thesis §3.2.4 and Appendix A, for any formulation: with the primal variables x (d, and gamma where
the model has it) at their optimal values, stationarity of the Lagrangian

    grad f(x) + sum_c J_c(x)^T lambda_c - sum_{j: x_j = 0, x_j >= 0 declared} mu_j e_j = 0

is *linear* in the multipliers, once the active sets are read off x: ``lambda_c`` ranges over the
active rows of each named inequality constraint (``expr_c <= 0``, lambda >= 0) and all rows of each
equality (free sign); ``mu`` prices the active bounds of variables declared nonnegative. The
gradient and the Jacobians come from the formulation's own cvxpy model (``Expression.grad``), so
no formulation writes its own KKT system. For the relative entropy this is exactly the thesis's
system ``sum_{A_w} w_q u^q + sum_{A_psi} psi_n e_n + beta 1 = -(1/eta)(1 + ln(d/d0))``,
``sum_{A_w} w_q = 1`` (the last row is the stationarity in gamma).

Solution: Appendix A recommends least squares for this consistent, overdetermined system. A
multiplier whose column is a unit vector (a cap psi_n, a bound mu_n) only enters its own row, so
the fast path solves bounded least squares on the other rows and reads those multipliers off.
When their signs come out wrong (degenerate or underdetermined systems, typical at LP vertices),
the weighted L1 residual is minimized as a sparse LP with every sign constraint inside the solve.
The residual certifies consistency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse
from scipy.optimize import linprog, lsq_linear
from threadpoolctl import threadpool_limits

__all__ = ["KKTRecovery", "generic_kkt_recovery"]


class PointView:
    """Read access to the usual blocks of a result's dual ``point``: w, psi, beta."""

    point: Any

    @property
    def w(self) -> np.ndarray:
        return self.point["w"]

    @property
    def psi(self) -> np.ndarray | None:
        return self.point.get("psi")

    @property
    def beta(self) -> float | None:
        return self.point.get("beta")


@dataclass
class KKTRecovery(PointView):
    """Multipliers recovered from a primal point, keyed by constraint name, with the residual."""

    point: Any  # Multipliers
    residual: float
    #: for each named constraint, the indices of its active rows
    active: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def active_w(self) -> np.ndarray:
        return self.active.get("w", np.array([], dtype=int))


def _flat_grad(grad: dict, variables: list, offsets: dict, n: int, m: int) -> sparse.csc_array:
    """cvxpy's {variable: (size_var x m)} gradient as one (n x m) sparse matrix."""
    blocks = []
    for var in variables:
        g = grad.get(var)
        size = int(np.prod(var.shape)) if var.shape else 1
        if g is None:
            blocks.append(sparse.csc_array((size, m)))
            continue
        if np.isscalar(g) or np.ndim(g) == 0:
            g = np.full((size, m), float(g))
        blocks.append(sparse.csc_array(g.reshape(size, m) if not sparse.issparse(g) else g))
    return sparse.vstack(blocks, format="csc")


def generic_kkt_recovery(model, *, tol: float, row_weights: np.ndarray | None = None
                         ) -> KKTRecovery:
    """Solve the active-set system of ``model`` at its variables' current values."""
    from .formulation import Multipliers

    problem = model.problem
    variables = problem.variables()
    offsets, n = {}, 0
    for var in variables:
        offsets[var] = n
        n += int(np.prod(var.shape)) if var.shape else 1
    gradient = _flat_grad(problem.objective.expr.grad, variables, offsets, n, 1).toarray()
    gradient = gradient.reshape(-1)
    if problem.objective.NAME == "maximize":  # stationarity of the minimization form
        gradient = -gradient

    weights = np.ones(n)
    d_var = model.variables.get("d")
    if row_weights is not None and d_var is not None:
        start = offsets[d_var]
        weights[start:start + d_var.size] = np.clip(row_weights, 0.0, 1.0)

    columns, lower, owners = [], [], []  # owner: (constraint name, row index) per unknown
    active: dict[str, np.ndarray] = {}
    for name, constraint in model.constraints.items():
        expr = constraint.expr
        value = np.asarray(expr.value, dtype=float).reshape(-1)
        m = value.size
        J = _flat_grad(expr.grad, variables, offsets, n, m)
        equality = type(constraint).__name__ in ("Equality", "Zero")
        if equality:
            rows = np.arange(m)
        else:
            scale = 1.0 + np.abs(value).max(initial=0.0)
            rows = np.flatnonzero(value >= -tol * scale)
        active[name] = rows
        columns.append(J[:, rows])
        lower += [-np.inf if equality else 0.0] * rows.size
        owners += [(name, int(r)) for r in rows]
    for key, var in model.variables.items():
        if var.attributes.get("nonneg") and var.value is not None:
            value = np.asarray(var.value, dtype=float).reshape(-1)
            rows = np.flatnonzero(value <= tol)
            if rows.size:
                E = sparse.csc_array((-np.ones(rows.size), (offsets[var] + rows,
                                                           np.arange(rows.size))),
                                     shape=(n, rows.size))
                columns.append(E)
                lower += [0.0] * rows.size
                owners += [(f"bound:{key}", int(r)) for r in rows]
    A = sparse.hstack(columns, format="csc") if columns else sparse.csc_array((n, 0))
    lower = np.asarray(lower, dtype=float)
    b = -gradient

    x, residual = _least_squares_with_private_columns(A, b, lower, weights)
    if not residual <= tol:
        x_l1, residual_l1 = _l1_solve(A, b, lower, weights)
        if residual_l1 < residual:
            x, residual = x_l1, residual_l1

    point = Multipliers()
    for name, constraint in model.constraints.items():
        size = int(np.prod(constraint.expr.shape)) if constraint.expr.shape else 1
        point[name] = np.zeros(size)
    for (name, row), value in zip(owners, x):
        if name in point:
            point[name][row] = value
    for name, constraint in model.constraints.items():
        if not constraint.expr.shape:  # a scalar constraint (the normalization) has a scalar
            point[name] = float(point[name][0])
    for key, value in model.absent.items():
        point.setdefault(key, value)
    return KKTRecovery(point=point, residual=float(residual), active=active)


def _weighted_residual(A, x, b, lower, weights) -> float:
    r = np.abs(A @ x - b) * weights
    sign = np.clip(lower - x, 0.0, None)  # violated lower bounds (0 or -inf never violate)
    sign[~np.isfinite(sign)] = 0.0
    return float(max(r.max(initial=0.0), sign.max(initial=0.0)))


def _least_squares_with_private_columns(A, b, lower, weights):
    """Bounded least squares on the rows not owned by a unit column, the rest read off."""
    n, k = A.shape
    counts = np.diff(A.indptr)
    private = counts == 1
    owned_rows = A.indices[A.indptr[:-1][private]] if private.any() else np.array([], int)
    own_row_of = np.full(k, -1)
    own_row_of[np.flatnonzero(private)] = owned_rows
    row_owned = np.zeros(n, dtype=bool)
    row_owned[owned_rows] = True
    shared = np.flatnonzero(~private)
    free_rows = np.flatnonzero(~row_owned)
    x = np.zeros(k)
    if shared.size:
        A_s = A[free_rows][:, shared].toarray() * weights[free_rows, None]
        b_s = b[free_rows] * weights[free_rows]
        keep = np.abs(A_s).sum(axis=1) > 0
        A_s, b_s = A_s[keep], b_s[keep]
        upper = np.full(shared.size, np.inf)
        # a few hundred rows by a few dozen columns: BLAS threads only add contention
        with threadpool_limits(limits=1, user_api="blas"):
            if A_s.shape[0] == 0:
                sol_x = np.clip(np.zeros(shared.size), lower[shared], None)
            else:
                sol_x = lsq_linear(A_s, b_s, bounds=(lower[shared], upper), method="bvls",
                                   tol=1e-14, lsmr_tol="auto").x
        x[shared] = sol_x
    rest = b - A @ x
    for column in np.flatnonzero(private):
        row = own_row_of[column]
        coefficient = A[[row], [column]]
        coefficient = float(np.asarray(coefficient).reshape(-1)[0])
        if coefficient != 0:
            x[column] = rest[row] / coefficient
            rest[row] = 0.0
    # a row owned by two unit columns cannot happen for bounds that exclude each other
    return x, _weighted_residual(A, x, b, lower, weights)


def _l1_solve(A, b, lower, weights):
    """min sum_r weight_r |(A x - b)_r| with the sign bounds inside: an LP for HiGHS."""
    n, k = A.shape
    eye = sparse.identity(n, format="csc")
    A_eq = sparse.hstack([A, eye, -eye], format="csc")
    cost = np.concatenate([np.zeros(k), weights, weights])
    bounds = [(lo if np.isfinite(lo) else None, None) for lo in lower] + [(0, None)] * (2 * n)
    sol = linprog(cost, A_eq=A_eq, b_eq=b, bounds=bounds, method="highs",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    if sol.status != 0 or sol.x is None:  # report the failure as an infinite residual
        return np.zeros(k), float("inf")
    x = sol.x[:k]
    return x, _weighted_residual(A, x, b, lower, weights)
