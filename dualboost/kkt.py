"""Recover the multipliers (w, psi, beta) from an optimal d: the active-set linear system.

Thesis §3.2.4 and Appendix A (spec seed000_ch4-A D1.3, D2): with the active sets
``A_w = {q : u^q . d = gamma}`` and ``C = {n : d_n = 1/nu}`` known from d, stationarity of the
Lagrangian in d is *linear* in the multipliers:

    sum_{q in A_w} w_q u^q + sum_{n in C} psi_n e_n - sum_{n in Z} mu_n e_n + beta 1 = rhs,
    sum_{q in A_w} w_q = 1,

where ``rhs = -grad of the regularizer at d`` (``-(1/eta)(1 + ln(d/d0))`` for ERLPBoost, 0 for the
LP) and ``Z = {n : d_n = 0}`` carries the multipliers ``mu`` of ``d >= 0`` (only when that bound is
explicit, as in the LP). Appendix A recommends least squares for this consistent, overdetermined
system. The fast path does that on the interior rows (spec D1.3's recipe); when the signs of the
read-off psi, mu come out wrong (degenerate or underdetermined systems, typical at LP vertices),
the weighted L1 residual is minimized as a sparse LP that keeps w, psi, mu >= 0 inside the solve.
The residual certifies consistency.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import linprog, lsq_linear
from threadpoolctl import threadpool_limits


@dataclass
class KKTRecovery:
    """Multipliers recovered from d, with the residual of the active-set system."""

    w: np.ndarray
    psi: np.ndarray
    beta: float
    residual: float
    active_w: np.ndarray
    active_psi: np.ndarray


def active_set_multipliers(
    U: np.ndarray,
    d: np.ndarray,
    rhs: np.ndarray,
    nu: float,
    *,
    tol: float,
    explicit_nonnegativity: bool,
    row_weights: np.ndarray | None = None,
) -> KKTRecovery:
    """Solve the active-set system above; see the module docstring for the equations.

    ``row_weights`` scales the N stationarity rows. Entropic regularizers pass ``d / max(d)``:
    the right-hand side holds ``ln d_n``, whose error is ``(error of d_n) / d_n``, so unweighted
    rows of tiny d_n would let solver round-off dominate. The residual is the largest weighted
    violation of the stationarity rows and of sum(w) = 1 (the signs are enforced).
    """
    U = np.asarray(U, dtype=float)
    d = np.asarray(d, dtype=float)
    N, t = U.shape
    edges = U.T @ d
    gamma = edges.max()
    active_w = np.flatnonzero(gamma - edges <= tol)
    # nu = 1 (hard margin): the caps d_n <= 1 are implied by the simplex and are not modelled.
    capped = (1.0 / nu - d <= tol) if nu > 1 else np.zeros(N, dtype=bool)
    zero = (d <= tol) & ~capped if explicit_nonnegativity else np.zeros(N, dtype=bool)
    weights = np.ones(N) if row_weights is None else np.clip(row_weights, 0.0, 1.0)

    U_A = U[:, active_w]
    fast = _interior_least_squares(U, U_A, active_w, capped, zero, rhs, weights)
    if fast.residual <= tol:
        return fast
    return _l1_recovery(U, U_A, active_w, capped, zero, rhs, weights)


def _interior_least_squares(U, U_A, active_w, capped, zero, rhs, weights) -> KKTRecovery:
    """The fast path (spec D1.3's recipe): least squares on the interior rows and sum(w) = 1.

    Each capped (zero) row has its own multiplier psi_n (mu_n) that absorbs it, so only the
    interior rows determine (w_A, beta); psi and mu are read off afterwards. When the interior
    rows do not determine w, the read-off signs can come out wrong; that shows in the residual
    and the caller falls back to :func:`_l1_recovery`.
    """
    N, t = U.shape
    interior = ~capped & ~zero
    A = np.vstack([np.column_stack([U_A[interior], np.ones(interior.sum())])
                   * weights[interior, None],
                   np.append(np.ones(active_w.size), 0.0)])
    b = np.append(rhs[interior] * weights[interior], 1.0)
    lower = np.append(np.zeros(active_w.size), -np.inf)
    # A few hundred rows by a few dozen columns: BLAS threads only add contention (measured:
    # the same 58 solves took 1.3 s to 7.2 s with threads, steady with one).
    with threadpool_limits(limits=1, user_api="blas"):
        sol = lsq_linear(A, b, bounds=(lower, np.full(active_w.size + 1, np.inf)),
                         method="bvls", tol=1e-14, lsmr_tol="auto")
    w_A, beta = sol.x[:-1], float(sol.x[-1])
    slack = rhs - U_A @ w_A - beta  # = psi_n on capped rows, = -mu_n on zero rows
    residual = max(np.abs(A @ sol.x - b).max(initial=0.0),
                   np.max(np.clip(-slack[capped], 0.0, None) * weights[capped], initial=0.0),
                   np.max(np.clip(slack[zero], 0.0, None) * weights[zero], initial=0.0))
    w = np.zeros(t)
    w[active_w] = w_A
    psi = np.zeros(N)
    psi[capped] = np.clip(slack[capped], 0.0, None)
    return KKTRecovery(w=w, psi=psi, beta=beta, residual=float(residual), active_w=active_w,
                       active_psi=np.flatnonzero(capped))


def _l1_recovery(U, U_A, active_w, capped, zero, rhs, weights) -> KKTRecovery:
    """Solve the active-set system as an LP minimizing the weighted L1 residual.

    The interior rows alone often do not determine w: at an LP vertex (degenerate, non-unique
    multipliers), or when few examples carry weight. Plain least squares on them can then pick a
    w that makes some psi_n or mu_n negative, so the sign constraints must be part of the solve:
    variables w_A, psi_C, mu_Z >= 0, beta free and the residual r = r+ - r- (r+, r- >= 0) with
    cost ``sum_n weight_n (r+_n + r-_n)``; sparse, solved by HiGHS in milliseconds.
    """
    N, t = U.shape
    n_w, n_c, n_z = active_w.size, int(capped.sum()), int(zero.sum())
    eye = sparse.identity(N, format="csc")
    blocks = [sparse.csc_matrix(U_A), eye[:, np.flatnonzero(capped)],
              -eye[:, np.flatnonzero(zero)], sparse.csc_matrix(np.ones((N, 1))), eye, -eye]
    A_eq = sparse.vstack([sparse.hstack(blocks),
                          sparse.hstack([sparse.csc_matrix(np.ones((1, n_w))),
                                         sparse.csc_matrix((1, n_c + n_z + 1 + 2 * N))])])
    b_eq = np.append(rhs, 1.0)
    n_vars = n_w + n_c + n_z + 1 + 2 * N
    cost = np.zeros(n_vars)
    cost[n_w + n_c + n_z + 1:] = np.tile(weights, 2)
    bounds = [(0, None)] * (n_w + n_c + n_z) + [(None, None)] + [(0, None)] * (2 * N)
    sol = linprog(cost, A_eq=A_eq.tocsc(), b_eq=b_eq, bounds=bounds, method="highs",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    w, psi = np.zeros(t), np.zeros(N)
    if sol.status != 0:  # sol.x is None: report the failure as an infinite residual
        return KKTRecovery(w=w, psi=psi, beta=float("nan"), residual=float("inf"),
                           active_w=active_w, active_psi=np.flatnonzero(capped))
    x = sol.x
    w[active_w] = x[:n_w]
    psi[capped] = x[n_w:n_w + n_c]
    beta = float(x[n_w + n_c + n_z])
    core = n_w + n_c + n_z + 1
    residual = float(np.max(np.abs(A_eq[:, :core] @ x[:core] - b_eq) * np.append(weights, 1.0)))
    return KKTRecovery(w=w, psi=psi, beta=beta, residual=residual, active_w=active_w,
                       active_psi=np.flatnonzero(capped))
