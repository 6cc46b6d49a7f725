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


# scipy.optimize takes 0.3 s to import and only the fallbacks below use it: imported on first call
def linprog(*args: Any, **kwargs: Any):
    from scipy.optimize import linprog as solve

    return solve(*args, **kwargs)


def lsq_linear(*args: Any, **kwargs: Any):
    from scipy.optimize import lsq_linear as solve

    return solve(*args, **kwargs)


__all__ = ["KKTRecovery", "KKTSystem", "Multipliers", "soft_margin_system", "solve_kkt_system",
           "system_from_model"]


class Multipliers(dict):
    """A dual point: a mapping from dual-variable name to value, also readable as attributes.

    ``m.w`` is ``m["w"]``; a name the formulation does not have reads as None. Defined here, the
    lowest layer that builds dual points (the KKT recovery), and re-exported by
    :mod:`dualboost.formulation`, so that the imports point one way (formulation -> kkt).
    """

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get(name)

    def copy(self) -> Multipliers:
        return Multipliers({k: (np.array(v, dtype=float) if v is not None else None)
                            for k, v in self.items()})


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
    #: "recovered": solved from d alone; "verified": a given point (the master's multipliers)
    #: restricted to the active sets read off d satisfied the system within tol
    source: str = "recovered"

    @property
    def active_w(self) -> np.ndarray:
        return self.active.get("w", np.array([], dtype=int))


@dataclass
class KKTBlock:
    """One named constraint ``expr(x) <= 0`` (or ``== 0``) at the point: its Jacobian
    (n x m, column r = grad of row r), its values and its kind."""

    #: sparse, or a dense array where it is dense (the edge block U)
    jacobian: sparse.csc_array | np.ndarray
    values: np.ndarray
    equality: bool
    #: a scalar constraint (the normalization) has a scalar multiplier
    scalar: bool = False


class _LazyBlock(KKTBlock):
    """A block whose Jacobian is assembled on first use (by ``build()``): the structured hint
    check (:func:`_verify_soft_margin_hint`), taken at every iteration of a run, never needs
    the Jacobians of :func:`soft_margin_system`'s blocks (the edge block [-1; U], and the
    sparse identity and column of the caps and the normalization)."""

    def __init__(self, build, values: np.ndarray, equality: bool, scalar: bool = False):
        self._build, self._jacobian = build, None
        super().__init__(None, values, equality=equality, scalar=scalar)

    @property
    def jacobian(self):
        if self._jacobian is None:
            self._jacobian = self._build()
        return self._jacobian

    @jacobian.setter
    def jacobian(self, value):
        if value is not None:
            self._jacobian = value


@dataclass
class KKTSystem:
    """The data of the active-set system at one primal point x (see the module docstring):
    the minimization objective's gradient, the named constraint blocks and the entries of
    variables declared nonnegative (positions in x and values)."""

    gradient: np.ndarray
    blocks: dict[str, KKTBlock]
    bounds: dict[str, tuple[np.ndarray, np.ndarray]]
    #: per-row weights of the stationarity rows (1 except where a formulation damps round-off)
    weights: np.ndarray
    absent: dict = field(default_factory=dict)
    #: U when the system is :func:`soft_margin_system`'s: the hint check then runs on the
    #: structure (one product with U) instead of the assembled blocks
    edge_columns: np.ndarray | None = None


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


def system_from_model(model, row_weights: np.ndarray | None = None) -> KKTSystem:
    """The system of a cvxpy model at its variables' current values, from ``Expression.grad``:
    the reference every hand-assembled system is compared with (verifier check K3)."""
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
    blocks = {}
    for name, constraint in model.constraints.items():
        expr = constraint.expr
        values = np.asarray(expr.value, dtype=float).reshape(-1)
        blocks[name] = KKTBlock(_flat_grad(expr.grad, variables, offsets, n, values.size),
                                values, type(constraint).__name__ in ("Equality", "Zero"),
                                scalar=not expr.shape)
    bounds = {}
    for key, var in model.variables.items():
        if var.attributes.get("nonneg") and var.value is not None:
            values = np.asarray(var.value, dtype=float).reshape(-1)
            bounds[key] = (offsets[var] + np.arange(values.size), values)
    return KKTSystem(gradient, blocks, bounds, weights, dict(model.absent))


def _dense_csc(M: np.ndarray) -> sparse.csc_array:
    """A dense matrix as CSC with every entry stored (no scan for zeros: U is dense)."""
    n, m = M.shape
    return sparse.csc_array((np.asarray(M, dtype=float).ravel(order="F"),
                             np.tile(np.arange(n, dtype=np.int32), m),
                             np.arange(0, n * m + 1, n, dtype=np.int64)), shape=(n, m))


def soft_margin_system(U: np.ndarray, d: np.ndarray, gradient_d: np.ndarray, nu: float,
                       caps: bool, row_weights: np.ndarray | None = None,
                       absent: dict | None = None, cap: np.ndarray | None = None,
                       edges: np.ndarray | None = None) -> KKTSystem:
    """The system of ``min_{d, gamma} gamma + phi(d)`` over the blocks of
    :func:`dualboost.formulation.soft_margin_blocks` (``U^T d <= gamma`` (w), ``d <= 1/nu``
    (psi, with ``caps``), ``sum(d) = 1`` (beta), ``d >= 0``), assembled in numpy: x = (gamma, d)
    (cvxpy's order of the variables in those models), gradient (1, grad phi(d)), gamma =
    max_q u^q.d. LPBoost (phi = 0, thesis (2.3)) and the regularized family (phi = R/eta, (3.6))
    use it; check K3 compares it with :func:`system_from_model` on their cvxpy models.
    ``cap``: per-example caps (sample weights) in place of 1/nu; ``edges``: U^T d where the
    caller has it."""
    U = np.asarray(U, dtype=float)
    N, t = U.shape
    n = N + 1
    edges = U.T @ d if edges is None else np.asarray(edges, dtype=float)
    gamma = float(edges.max()) if t else -1.0
    gradient = np.concatenate([[1.0], np.asarray(gradient_d, dtype=float)])
    blocks = {"w": _LazyBlock(lambda: np.vstack([-np.ones((1, t)), U]), edges - gamma,
                              equality=False)}
    rows = np.arange(1, n, dtype=np.int32)
    ones = np.ones(N)
    if caps:
        # in CSC form directly (column n holds one 1 in row n + 1): no coordinate sort
        blocks["psi"] = _LazyBlock(
            lambda: sparse.csc_array((ones, rows, np.arange(N + 1, dtype=np.int32)),
                                     shape=(n, N)),
            d - (1.0 / nu if cap is None else cap), equality=False)
    blocks["beta"] = _LazyBlock(
        lambda: sparse.csc_array((ones, rows, np.array([0, N], dtype=np.int32)), shape=(n, 1)),
        np.array([d.sum() - 1.0]), equality=True, scalar=True)
    weights = np.ones(n)
    if row_weights is not None:
        weights[1:] = np.clip(row_weights, 0.0, 1.0)
    return KKTSystem(gradient, blocks, {"d": (rows, np.asarray(d, dtype=float))},
                     weights, dict(absent or {}), edge_columns=U)


def solve_kkt_system(system: KKTSystem, *, tol: float, hint=None) -> KKTRecovery:
    """The multipliers of least residual on the active sets read off the point.

    With ``hint`` (a dual point, e.g. the master's multipliers), its values on the active rows
    are tried first (the unit-column multipliers read off their rows): when they satisfy the
    system within ``tol`` they are returned (``source="verified"``), otherwise the multipliers
    are solved for from the point alone.
    """

    n = system.gradient.size
    active: dict[str, np.ndarray] = {}
    for name, block in system.blocks.items():
        if block.equality:
            active[name] = np.arange(block.values.size)
        else:
            scale = 1.0 + np.abs(block.values).max(initial=0.0)
            active[name] = np.flatnonzero(block.values >= -tol * scale)
    if hint is not None:  # taken at every iteration of a run: no assembly before it
        verified = (_verify_soft_margin_hint(system, active, hint, tol)
                    if _structured(system) else _verify_hint(system, active, hint, tol))
        if verified is not None and verified[1] <= tol:
            point, residual = verified
            return KKTRecovery(point=point, residual=float(residual), active=active,
                               source="verified")
    columns, lower, segments = [], [], []  # segments: (constraint name, its active rows)
    for name, block in system.blocks.items():
        rows = active[name]
        columns.append(block.jacobian[:, rows])
        lower.append(np.full(rows.size, -np.inf if block.equality else 0.0))
        segments.append((name, rows))
    for name, rows, matrix in _active_bounds(system, tol):
        columns.append(matrix)
        lower.append(np.zeros(rows.size))
        segments.append((name, rows))
    A = _Stacked(n, columns).tocsc()
    lower = np.concatenate(lower) if lower else np.zeros(0)
    b = -system.gradient
    weights = system.weights

    x, residual = _least_squares_with_private_columns(A, b, lower, weights)
    if not residual <= tol:
        x_l1, residual_l1 = _l1_solve(A, b, lower, weights)
        if residual_l1 < residual:
            x, residual = x_l1, residual_l1
    return KKTRecovery(point=_point_from(system, segments, x), residual=float(residual),
                       active=active, source="recovered")


def _active_bounds(system: KKTSystem, tol: float):
    """(name, rows, columns) of the active bounds d_n >= 0 (d_n <= tol): one unit column -e_n per
    active entry, priced by a multiplier mu_n >= 0."""
    n = system.gradient.size
    for key, (positions, values) in system.bounds.items():
        rows = np.flatnonzero(values <= tol)
        if rows.size:
            yield f"bound:{key}", rows, sparse.csc_array(
                (-np.ones(rows.size), (positions[rows], np.arange(rows.size))),
                shape=(n, rows.size))


def _point_from(system: KKTSystem, segments, x: np.ndarray):
    """The named multipliers from the unknowns x, laid out segment by segment ((name, rows, ...)
    in order; bound multipliers are not part of the dual point)."""
    point, start = Multipliers(), 0
    for name, block in system.blocks.items():
        point[name] = np.zeros(block.values.size)
    for name, rows, *_ in segments:
        if name in point:
            point[name][rows] = x[start:start + rows.size]
        start += rows.size
    for name, block in system.blocks.items():
        if block.scalar:
            point[name] = float(point[name][0])
    for key, value in system.absent.items():
        point.setdefault(key, value)
    return point


class _ColumnSubset:
    """The columns ``rows`` of a dense matrix, for products only (no copy of the block)."""

    def __init__(self, matrix: np.ndarray, columns: np.ndarray):
        self.matrix, self.columns = matrix, columns
        self.shape = (matrix.shape[0], columns.size)

    def __matmul__(self, x: np.ndarray) -> np.ndarray:
        full = np.zeros(self.matrix.shape[1])
        full[self.columns] = x
        return self.matrix @ full


class _Stacked:
    """The columns of the active-set system side by side, kept as their blocks (dense or
    sparse): what the verified-hint path needs (products, the unit columns) without building
    one sparse matrix."""

    def __init__(self, n: int, parts: list):
        self.n, self.parts = n, parts
        self.widths = [part.shape[1] for part in parts]
        self.shape = (n, int(sum(self.widths)))

    def __matmul__(self, x: np.ndarray) -> np.ndarray:
        out, start = np.zeros(self.n), 0
        for part, width in zip(self.parts, self.widths):
            if width:
                out += part @ x[start:start + width]
            start += width
        return out

    def unit_columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(columns, their rows, their coefficients) of the columns with one nonzero."""
        columns, rows, coefficients, start = [], [], [], 0
        for part, width in zip(self.parts, self.widths):
            if width and sparse.issparse(part):
                part = sparse.csc_array(part)
                unit = np.flatnonzero(np.diff(part.indptr) == 1)
                columns.append(start + unit)
                rows.append(part.indices[part.indptr[unit]])
                coefficients.append(part.data[part.indptr[unit]])
            elif width:
                # a column with two nonzeros in its first rows is not a unit column (every
                # column of the edge block U^T d <= gamma, with its -1 for gamma): only the
                # others are counted in full
                matrix, kept = ((part.matrix, part.columns) if isinstance(part, _ColumnSubset)
                                else (part, np.arange(width)))
                candidates = np.flatnonzero(np.count_nonzero(matrix[:2, kept], axis=0) < 2)
                block = matrix[:, kept[candidates]]
                single = np.count_nonzero(block, axis=0) == 1
                if single.any():
                    block = block[:, single]
                    where = np.argmax(block != 0, axis=0)
                    columns.append(start + candidates[single])
                    rows.append(where)
                    coefficients.append(block[where, np.arange(where.size)])
            start += width
        if not columns:
            return np.zeros(0, int), np.zeros(0, int), np.zeros(0)
        return np.concatenate(columns), np.concatenate(rows), np.concatenate(coefficients)

    def tocsc(self) -> sparse.csc_array:
        parts = [_dense_csc(part) if not sparse.issparse(part) else sparse.csc_array(part)
                 for part in self.parts]
        return sparse.hstack(parts, format="csc") if parts else sparse.csc_array((self.n, 0))


def _verify_hint(system: KKTSystem, active: dict, hint, tol: float):
    """The KKT conditions at the point for a given dual point (the master's multipliers).

    The hint's multipliers of the shared blocks (w, beta) are kept on the active rows and on
    every row where the hint puts weight (an inexact master leaves w_q ~ gap / slack_q on
    nearly active columns); those extra rows count through complementary slackness,
    ``max w_q * slack_q``. The unit-column multipliers (psi on the active caps, mu on the active
    bounds d_n = 0) are read off their rows. Returns (point, residual) with the residual the
    larger of the weighted stationarity residual (sign violations included) and the
    complementarity products, or None when the hint lacks a block.
    """

    n = system.gradient.size
    parts, lower, segments, complementarity = [], [], [], 0.0
    for name, block in system.blocks.items():
        rows = active[name]
        J = block.jacobian
        unit = sparse.issparse(J) and bool(np.all(np.diff(sparse.csc_array(J).indptr) == 1))
        value = hint.get(name)
        if value is None and not unit:
            return None
        values = np.zeros(block.values.size) if value is None else \
            np.atleast_1d(np.asarray(value, dtype=float)).reshape(-1)
        if not unit and not block.equality:
            extra = np.flatnonzero(values != 0)
            extra = np.setdiff1d(extra, rows, assume_unique=False)
            if extra.size:
                slack = np.clip(-block.values[extra], 0.0, None)
                complementarity = max(complementarity,
                                      float(np.max(np.abs(values[extra]) * slack)))
                rows = np.union1d(rows, extra)
        # every column active (the regularized masters' w > 0): the block itself, not a copy;
        # a dense block's active columns are not copied either (only products are needed)
        everything = rows.size == J.shape[1] and (rows.size == 0 or rows[-1] == rows.size - 1)
        parts.append(J if everything else
                     _ColumnSubset(J, rows) if not sparse.issparse(J) else J[:, rows])
        lower.append(np.full(rows.size, -np.inf if block.equality else 0.0))
        segments.append((name, rows, None if unit else values[rows]))
    for name, rows, matrix in _active_bounds(system, tol):
        parts.append(matrix)
        lower.append(np.zeros(rows.size))
        segments.append((name, rows, None))
    A = _Stacked(n, parts)
    x = np.concatenate([np.zeros(rows.size) if given is None else given
                        for _, rows, given in segments]) if segments else np.zeros(0)
    b = -system.gradient
    columns, rows, coefficients = _first_owner(*A.unit_columns())
    x[columns] = 0.0
    _read_off_private(A, x, b, columns, rows, coefficients)
    lower = np.concatenate(lower) if lower else np.zeros(0)
    residual = max(_weighted_residual(A, x, b, lower, system.weights, (columns, rows)),
                   complementarity)
    return _point_from(system, segments, x), residual


def _structured(system: KKTSystem) -> bool:
    """Whether :func:`_verify_soft_margin_hint` applies: a soft-margin system whose blocks are
    the usual ones, with no unit column among the shared ones (N > 1, no zero column of U,
    whose edge column would then be a unit column of the gamma row)."""
    U = system.edge_columns
    if U is None:
        return False
    names = set(system.blocks)
    return (U.shape[0] > 1 and names in ({"w", "beta"}, {"w", "psi", "beta"})
            and set(system.bounds) == {"d"} and _no_zero_column(U))


def _no_zero_column(U: np.ndarray) -> bool:
    """Whether every column of U has a nonzero entry: from the first row where that settles
    it (a +-1 stump matrix: always), else a scan of the columns still open (not of all of U,
    which a run would pay at every iteration)."""
    if U.shape[0] == 0:
        return U.shape[1] == 0
    open_columns = np.flatnonzero(U[0] == 0)
    return bool(open_columns.size == 0 or U[:, open_columns].any(axis=0).all())


def _verify_soft_margin_hint(system: KKTSystem, active: dict, hint, tol: float):
    """:func:`_verify_hint` on the structure of :func:`soft_margin_system` (the same result;
    the tests compare both): x = (gamma, d), stationarity rows

        gamma:  1 - sum_{q in A_w} w_q = 0
        d_n:    grad phi(d)_n + (U w)_n + psi_n + beta - mu_n = 0

    with w the hint's on its active rows and wherever it is nonzero (their complementarity
    ``w_q * slack_q`` counts), beta the hint's, and psi_n (an active cap) or mu_n (an active
    bound d_n <= tol) read off row n: a product with U and a few vector operations in place of
    the assembled blocks (a run checks its master's multipliers this way at every
    iteration)."""
    U, (_, d) = system.edge_columns, system.bounds["d"]
    N, t = U.shape
    w_hint, beta_hint = hint.get("w"), hint.get("beta")
    if w_hint is None or beta_hint is None:
        return None
    w_hint = np.atleast_1d(np.asarray(w_hint, dtype=float)).reshape(-1)
    beta = float(np.atleast_1d(np.asarray(beta_hint, dtype=float)).reshape(-1)[0])
    slack_values = system.blocks["w"].values
    rows = active["w"]
    extra = np.setdiff1d(np.flatnonzero(w_hint != 0), rows)
    complementarity = (float(np.max(np.abs(w_hint[extra]) * np.clip(-slack_values[extra], 0.0,
                                                                      None)))
                       if extra.size else 0.0)
    rows = np.union1d(rows, extra)
    w = np.zeros(t)
    w[rows] = w_hint[rows]
    b = -system.gradient
    weights = system.weights
    shared = U @ w + beta  # row n's terms other than its own multiplier
    capped = np.zeros(N, dtype=bool)
    if "psi" in system.blocks:
        capped[active["psi"]] = True
    at_zero = (d <= tol) & ~capped  # a row with both is owned by its cap (the first column)
    read_off = b[1:] - shared  # psi_n (coefficient 1) or -mu_n (coefficient -1)
    # products with the masks, not np.where (several times slower over N); read_off is finite
    # where it is used, and + 0.0 turns the -0.0 of a negative entry times False into 0.0
    if np.isfinite(read_off).all():
        psi = read_off * capped
        psi += 0.0
        mu = read_off * at_zero
        np.negative(mu, out=mu)
        mu += 0.0
    else:
        psi = np.where(capped, read_off, 0.0)
        mu = np.where(at_zero, -read_off, 0.0)
    residual_rows = np.abs(shared + psi - mu - b[1:]) * weights[1:]
    residual_gamma = abs(-float(w[rows].sum()) - b[0]) * weights[0]
    sign = max(float(np.clip(-w[rows], 0.0, None).max(initial=0.0)),
               float((np.clip(-psi, 0.0, None) * weights[1:]).max(initial=0.0)),
               float((np.clip(-mu, 0.0, None) * weights[1:]).max(initial=0.0)))
    residual = max(float(residual_rows.max(initial=0.0)), residual_gamma, sign,
                   complementarity)
    point = Multipliers()
    point["w"] = w
    if "psi" in system.blocks:
        point["psi"] = psi
    point["beta"] = beta
    for key, value in system.absent.items():
        point.setdefault(key, value)
    return point, residual


def _weighted_residual(A, x, b, lower, weights, unit=None) -> float:
    """The largest weighted stationarity residual or sign violation. A unit column's multiplier
    is read off its own row, so its sign violation carries that row's weight (``unit`` =
    (columns, rows)): a row damped for round-off must not count through its multiplier."""
    r = np.abs(A @ x - b) * weights
    sign = np.clip(lower - x, 0.0, None)  # violated lower bounds (0 or -inf never violate)
    sign[~np.isfinite(sign)] = 0.0
    if unit is not None:
        columns, rows = unit
        sign[columns] *= weights[rows]
    return float(max(r.max(initial=0.0), sign.max(initial=0.0)))


def _first_owner(columns, rows, coefficients):
    """One unit column per row: a row owned by two cannot happen for bounds that exclude each
    other (d_n = 0 and d_n = 1/nu); should it, the first column takes the row and the others
    stay 0."""
    _, first = np.unique(rows, return_index=True)
    return columns[first], rows[first], coefficients[first]


def _private_structure(A) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Unit ("private") columns of A, the row each owns, its coefficient, and the rows no unit
    column owns.

    A cap psi_n or a bound mu_n enters only the stationarity row of d_n; once the shared
    multipliers (w, beta, ...) are fixed it is read off that row, so the solves below only
    see the shared columns."""
    n, _ = A.shape
    columns = np.flatnonzero(np.diff(A.indptr) == 1)
    columns, rows, coefficients = _first_owner(columns, A.indices[A.indptr[columns]],
                                               A.data[A.indptr[columns]])
    owned = np.zeros(n, dtype=bool)
    owned[rows] = True
    return columns, rows, coefficients, np.flatnonzero(~owned)


def _read_off_private(A, x, b, columns, rows, coefficients) -> None:
    """Each unit column's multiplier from its own row, given the shared ones (in place)."""
    rest = b - A @ x
    nonzero = coefficients != 0
    x[columns[nonzero]] = rest[rows[nonzero]] / coefficients[nonzero]


def _least_squares_with_private_columns(A, b, lower, weights):
    """Bounded least squares on the rows not owned by a unit column, the rest read off."""
    n, k = A.shape
    columns, rows, coefficients, free_rows = _private_structure(A)
    shared = np.setdiff1d(np.arange(k), columns, assume_unique=True)
    x = np.zeros(k)
    if shared.size:
        A_s = A[free_rows][:, shared].toarray() * weights[free_rows, None]
        b_s = b[free_rows] * weights[free_rows]
        keep = np.abs(A_s).sum(axis=1) > 0
        A_s, b_s = A_s[keep], b_s[keep]
        upper = np.full(shared.size, np.inf)
        # a few hundred rows by a few dozen columns: BLAS threads only add contention
        with _single_blas_thread():
            if A_s.shape[0] == 0:
                sol_x = np.clip(np.zeros(shared.size), lower[shared], None)
            else:
                sol_x = lsq_linear(A_s, b_s, bounds=(lower[shared], upper), method="bvls",
                                   tol=1e-14, lsmr_tol="auto").x
        x[shared] = sol_x
    _read_off_private(A, x, b, columns, rows, coefficients)
    return x, _weighted_residual(A, x, b, lower, weights, (columns, rows))


def _l1_solve(A, b, lower, weights):
    """The multipliers of least weighted max residual, every sign constraint inside: an LP.

    With the unit columns eliminated (:func:`_private_structure`), a row owned by a free unit
    column (an equality's multiplier) is always satisfied, a row owned by a sign-constrained one
    (coefficient a, multiplier >= 0) leaves the residual ``max(0, -sign(a) r)`` of its rest
    ``r = b - A_shared x``, and every other row leaves ``|r|``. Minimizing the largest weighted
    residual s over the shared multipliers is a small LP (columns: the shared multipliers and s;
    rows: two per row), solved by HiGHS; it is the same max-norm that the residual reports.
    """
    n, k = A.shape
    columns, rows, coefficients, free_rows = _private_structure(A)
    shared = np.setdiff1d(np.arange(k), columns, assume_unique=True)
    signed = np.isfinite(lower[columns]) & (coefficients != 0)
    hinge_rows = rows[signed]
    hinge_sign = -np.sign(coefficients[signed])  # residual = max(0, hinge_sign * r)
    A_s = sparse.csr_array(A[:, shared]) if shared.size else sparse.csr_array((n, 0))
    # |w_r (b_r - A_r x)| <= s on the free rows; hinge_sign w_r (b_r - A_r x) <= s on hinge rows
    blocks, rhs = [], []
    W = weights[free_rows]
    Af = A_s[free_rows] * W[:, None]
    blocks += [-Af, Af]
    rhs += [-b[free_rows] * W, b[free_rows] * W]
    Wh = weights[hinge_rows] * hinge_sign
    Ah = A_s[hinge_rows] * Wh[:, None]
    blocks.append(-Ah)
    rhs.append(-b[hinge_rows] * Wh)
    A_ub = sparse.hstack([sparse.vstack(blocks, format="csr"),
                          sparse.csr_array(-np.ones((sum(blk.shape[0] for blk in blocks), 1)))],
                         format="csr")
    cost = np.zeros(shared.size + 1)
    cost[-1] = 1.0
    bounds = [(lo if np.isfinite(lo) else None, None) for lo in lower[shared]] + [(0, None)]
    sol = linprog(cost, A_ub=A_ub, b_ub=np.concatenate(rhs), bounds=bounds, method="highs",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    if sol.status != 0 or sol.x is None:  # report the failure as an infinite residual
        return np.zeros(k), float("inf")
    x = np.zeros(k)
    x[shared] = sol.x[:shared.size]
    _read_off_private(A, x, b, columns, rows, coefficients)
    # a sign-constrained private multiplier read off with the wrong sign is the hinge's
    # violation; clip it to its bound so the residual shows it on its row instead
    x[columns] = np.maximum(x[columns], np.where(np.isfinite(lower[columns]),
                                                 lower[columns], -np.inf))
    return x, _weighted_residual(A, x, b, lower, weights, (columns, rows))


_BLAS_LIMITER = None


def _single_blas_thread():
    """A context that limits BLAS to one thread (the controller is built once: it is slow)."""
    global _BLAS_LIMITER
    if _BLAS_LIMITER is None:
        from threadpoolctl import ThreadpoolController
        _BLAS_LIMITER = ThreadpoolController()
    return _BLAS_LIMITER.limit(limits=1, user_api="blas")
