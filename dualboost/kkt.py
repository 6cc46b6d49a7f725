"""Recover the multipliers (w, psi, beta) from an optimal d: the active-set linear system.

Thesis §3.2.4 and Appendix A (spec seed000_ch4-A D1.3, D2): with the active sets
``A_w = {q : u^q . d = gamma}`` and ``C = {n : d_n = 1/nu}`` known from d, stationarity of the
Lagrangian in d is *linear* in the multipliers:

    sum_{q in A_w} w_q u^q + sum_{n in C} psi_n e_n - sum_{n in Z} mu_n e_n + beta 1 = rhs,
    sum_{q in A_w} w_q = 1,

where ``rhs = -grad of the regularizer at d`` (``-(1/eta)(1 + ln(d/d0))`` for ERLPBoost, 0 for the
LP) and ``Z = {n : d_n = 0}`` carries the multipliers ``mu`` of ``d >= 0`` (only when that bound is
explicit, as in the LP). The system has N + 1 rows and is solved by bounded least squares
(w, psi, mu >= 0, beta free), as Appendix A recommends; the residual certifies consistency.
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
    rows of tiny d_n would let solver round-off dominate. The residual is reported unweighted
    over the rows with weight >= 1e-3 and weighted elsewhere.
    """
    U = np.asarray(U, dtype=float)
    d = np.asarray(d, dtype=float)
    N, t = U.shape
    edges = U.T @ d
    gamma = edges.max()
    active_w = np.flatnonzero(gamma - edges <= tol)
    # nu = 1 (hard margin): the caps d_n <= 1 are implied by the simplex and are not modelled.
    has_caps = nu > 1
    active_psi = np.flatnonzero(1.0 / nu - d <= tol) if has_caps else np.array([], dtype=int)
    zero = np.flatnonzero(d <= tol) if explicit_nonnegativity else np.array([], dtype=int)
    zero = np.setdiff1d(zero, active_psi)

    blocks = [U[:, active_w], np.eye(N)[:, active_psi], -np.eye(N)[:, zero], np.ones((N, 1))]
    A = np.hstack(blocks)
    norm_row = np.zeros(A.shape[1])
    norm_row[: active_w.size] = 1.0
    A = np.vstack([A, norm_row])
    b = np.concatenate([rhs, [1.0]])
    weights = np.ones(N + 1)
    if row_weights is not None:
        weights[:N] = np.clip(row_weights, 0.0, 1.0)
    nonneg = active_w.size + active_psi.size + zero.size
    lower = np.concatenate([np.zeros(nonneg), [-np.inf]])
    upper = np.full(nonneg + 1, np.inf)
    sol = lsq_linear(A * weights[:, None], b * weights, bounds=(lower, upper), method="bvls",
                     tol=1e-14, lsmr_tol="auto")
    x = sol.x
    report = np.where(weights >= 1e-3, 1.0, weights)
    residual = float(np.linalg.norm((A @ x - b) * report, ord=np.inf))

    w = np.zeros(t)
    w[active_w] = x[: active_w.size]
    psi = np.zeros(N)
    psi[active_psi] = x[active_w.size : active_w.size + active_psi.size]
    return KKTRecovery(w=w, psi=psi, beta=float(x[-1]), residual=residual,
                       active_w=active_w, active_psi=active_psi)
