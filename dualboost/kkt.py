"""Recover the multipliers (w, psi, beta) from an optimal d: the active-set linear system.

Thesis §3.2.4 and Appendix A (spec seed000_ch4-A D1.3, D2): with the active sets
``A_w = {q : u^q . d = gamma}`` and ``C = {n : d_n = 1/nu}`` known from d, stationarity of the
Lagrangian in d is *linear* in the multipliers:

    sum_{q in A_w} w_q u^q + sum_{n in C} psi_n e_n - sum_{n in Z} mu_n e_n + beta 1 = rhs,
    sum_{q in A_w} w_q = 1,

where ``rhs = -grad of the regularizer at d`` (``-(1/eta)(1 + ln(d/d0))`` for ERLPBoost, 0 for the
LP) and ``Z = {n : d_n = 0}`` carries the multipliers ``mu`` of ``d >= 0`` (only when that bound is
explicit, as in the LP). As in the spec's practical recipe (D1.3), the interior rows and
``sum(w) = 1`` are solved by bounded least squares (w >= 0, beta free; Appendix A recommends least
squares), then psi and mu are read off the capped and zero rows; the residual certifies
consistency.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import lsq_linear


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
    violation: of the interior rows, of sum(w) = 1, and of psi >= 0 and mu >= 0.
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
    interior = ~capped & ~zero
    weights = np.ones(N) if row_weights is None else np.clip(row_weights, 0.0, 1.0)

    # Each capped (zero) row has its own multiplier psi_n (mu_n), which absorbs it: only the
    # interior rows and sum(w) = 1 determine (w_A, beta). A small bounded least-squares problem.
    U_A = U[:, active_w]
    A = np.vstack([np.column_stack([U_A[interior], np.ones(interior.sum())])
                   * weights[interior, None],
                   np.append(np.ones(active_w.size), 0.0)])
    b = np.append(rhs[interior] * weights[interior], 1.0)
    lower = np.append(np.zeros(active_w.size), -np.inf)
    sol = lsq_linear(A, b, bounds=(lower, np.full(active_w.size + 1, np.inf)), method="bvls",
                     tol=1e-14, lsmr_tol="auto")
    w_A, beta = sol.x[:-1], float(sol.x[-1])

    slack = rhs - U_A @ w_A - beta  # = psi_n on capped rows, = -mu_n on zero rows
    violations = [np.abs(A @ sol.x - b).max(initial=0.0),
                  np.clip(-slack[capped], 0.0, None).max(initial=0.0),
                  np.clip(slack[zero], 0.0, None).max(initial=0.0)]
    w = np.zeros(t)
    w[active_w] = w_A
    psi = np.zeros(N)
    psi[capped] = np.clip(slack[capped], 0.0, None)
    return KKTRecovery(w=w, psi=psi, beta=beta, residual=float(max(violations)),
                       active_w=active_w, active_psi=np.flatnonzero(capped))
