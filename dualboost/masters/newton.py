"""Projected Newton in the w-domain: the master of the regularized (entropy) family.

The master problem of the regularized-LPBoost family (:mod:`dualboost.regularized`) is solved in
the w-domain (the dual, t variables) with psi and beta eliminated::

    Theta_bar(w) = max_{psi >= 0, beta} Theta(w, psi, beta)
                 = min_{d in capped simplex} d . U w + (1/eta) R(d)        (thesis (3.10)-(3.12))

maximized over the simplex {w >= 0, sum w = 1}. The inner problem is the formulation's own best
response (:meth:`Formulation.best_response`; for the relative entropy the capped entropic
projection of ``d0 exp(-eta U w)``, O(N log N), thesis (3.11), §3.2.5). Theta_bar is concave and
differentiable with gradient ``U^T d(w)`` (Danskin); for the relative entropy its Hessian is
``-eta U_F^T (diag(d_F) - d_F d_F^T / sum(d_F)) U_F`` over the uncapped examples F (d_F is a
rescaling of ``d0 exp(-eta U w)`` there, the capped d_n are constant).

The method is an active-set projected Newton method on the simplex: the weights at (or within
epsilon of) zero whose gradient is below the average ``g.w`` go to zero (Bertsekas's
epsilon-active set), a (slightly regularized) Newton step is taken on the face of the others with
the sum held fixed (solved in an orthonormal basis of ``{1}^perp``), and the step length along
that feasible ray is the root of the directional derivative ``phi'(alpha) = g(alpha).p``
(regula falsi on a concave phi; the bracket end with ``phi' >= 0`` is kept, so the value rises).
The thesis (Ch. 4, its ERLPBoost experiments) used a quasi-Newton method in the same
domain with warm starts; here the exact Hessian is cheap because the w-domain has t variables.
Each solve is warm-started from the previous iteration's w, the new column at weight 0.

Stopping is on the CERTIFIED gap: ``formulation.certify(U, {"w": w}, d)`` (the formulation's own
exact bracket ``Theta(w) <= optimum <= P(d)``) must be ``<= gap_tol``. For the best response d(w),
``P(d) - Theta_bar(w) = max_q (U^T d)_q - w . U^T d``: the simplex optimality violation of w. If a
solve does not reach the tolerance within ``max_iterations``, that iteration falls back to the
reference path (:meth:`Formulation.solve_primal`, a cvxpy solve) and the status says so.
"""

from __future__ import annotations

import math
import time

import numpy as np
from scipy.linalg.blas import dsyrk
from scipy.linalg.lapack import dpotrf, dpotrs

from . import Master, MasterSolve

__all__ = ["ProjectedNewtonMaster", "simplex_projection"]


def simplex_projection(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto {w >= 0, sum w = 1} (sort-based, O(t log t))."""
    v = np.asarray(v, dtype=float)
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, v.size + 1)
    rho = int(np.nonzero(u - css / k > 0)[0][-1])
    theta = css[rho] / (rho + 1.0)
    w = np.maximum(v - theta, 0.0)
    return w / w.sum()


class ProjectedNewtonMaster(Master):
    """Active-set projected Newton on Theta_bar(w) over the simplex (see the module docstring).

    ``formulation`` must be of the regularized family with a numpy ``best_response`` (written by
    hand, or derived from a numpy ``conjugate_gradient``); the Hessian is exact for separable
    regularizers (see :meth:`_hessian`).
    """

    path = "projected-newton"

    def __init__(self, formulation, max_iterations: int = 100, polish_tol: float = 1e-11,
                 polish_iterations: int = 30):
        self.formulation = formulation
        #: the gap aimed at below gap_tol, and the iterations allowed for it once within gap_tol
        self.polish_tol, self.polish_iterations = float(polish_tol), int(polish_iterations)
        self.max_iterations = int(max_iterations)
        self.w: np.ndarray | None = None
        self._buffer = np.empty(0)
        self._columns, self._known_columns = np.empty((0, 0), order="F"), 0
        #: Newton iterations of the last solve (diagnostic)
        self.iterations = 0
        # the relative entropy's curvature is known in closed form (1/R'' = d)
        from formulations.erlpboost import ERLPBoost

        self._entropy_curvature = (type(formulation).regularizer_gradient
                                   is ERLPBoost.regularizer_gradient)

    # -- pieces ------------------------------------------------------------------------------
    def _evaluate(self, U: np.ndarray, w: np.ndarray):
        """(Theta_bar(w), d(w), gradient U^T d(w)) from the formulation's best response."""
        response = self.formulation.best_response(U, w)
        d = np.asarray(response.d, dtype=float)
        edges = response.edges if response.edges is not None else U.T @ d
        return float(response.dual_value), d, np.asarray(edges, dtype=float)

    def _hessian(self, U: np.ndarray, d: np.ndarray, free: np.ndarray) -> np.ndarray:
        """-Hessian of Theta_bar on the free columns: eta A^T (diag(h) - h h^T / sum h) A, with
        A the rows of the examples off their bounds and h = 1 / R''(d) there (d(w) moves with
        grad R*, whose derivative is the inverse of R's curvature; h = d for the relative
        entropy, thesis (3.11); d (1 - nu d) for the binary one, (3.27))."""
        f = self.formulation
        cap = getattr(f, "cap", None)  # per-example caps with sample weights
        cap = 1.0 / float(getattr(f, "nu", 1.0)) if cap is None else cap
        inside = d > 1e-12 * float(d.max(initial=0.0))
        if getattr(f, "has_caps", False):
            inside &= d < cap * (1.0 - 1e-9)
        h = np.zeros(d.size)
        h[inside] = self._inverse_curvature(d[inside], inside)
        h[~(np.isfinite(h) & (h > 0))] = 0.0
        total = float(h.sum())
        if total <= 0.0:
            return np.zeros((free.size, free.size))
        # A = sqrt(h) U over all rows (rows at a bound have h = 0 and add nothing: cheaper than
        # gathering the others), from the column-major copy of U (a column subset is then one
        # contiguous copy per column, and BLAS takes A as it is); A^T A is one symmetric rank-k
        # update (half a general product; single precision was tried: it costs more Newton
        # iterations than it saves)
        root = np.sqrt(h)
        A = self._scaled_columns(U, free, root)
        Ah = A.T @ root  # = U_free^T h
        upper = dsyrk(1.0, A, trans=1)  # (sqrt(h) U)^T (sqrt(h) U), its upper triangle
        M = upper + np.triu(upper, 1).T
        M -= np.outer(Ah, Ah) / total
        return float(f.eta) * M

    def _scaled_columns(self, U: np.ndarray, free: np.ndarray, root: np.ndarray) -> np.ndarray:
        """diag(root) U[:, free] in column-major order."""
        columns = self._column_major(U)
        if free.size == U.shape[1]:
            # into a buffer kept across calls: a fresh N x t array per call costs page faults
            # comparable to the product itself
            size = U.shape[0] * free.size
            if self._buffer.size < size:
                self._buffer = np.empty(max(size, 2 * self._buffer.size))
            A = self._buffer[:size].reshape((U.shape[0], free.size), order="F")
            return np.multiply(columns, root[:, None], out=A)
        A = columns[:, free]
        A *= root[:, None]
        return A

    def _column_major(self, U: np.ndarray) -> np.ndarray:
        """U in column-major order, kept across solves: a solve's U extends the previous one by
        new columns (the engine's contract), so only those are copied."""
        N, t = U.shape
        known = self._known_columns
        stale = (self._columns.shape[0] != N or known > t
                 or (known and not np.array_equal(self._columns[:, known - 1], U[:, known - 1])))
        if stale:
            known = 0
        if self._columns.shape[1] < t or stale:
            grown = np.empty((N, max(t, 2 * self._columns.shape[1])), order="F")
            if known:
                grown[:, :known] = self._columns[:, :known]
            self._columns = grown
        self._columns[:, known:t] = U[:, known:t]
        self._known_columns = t
        return self._columns[:, :t]

    def _inverse_curvature(self, x: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """1 / R''(x) on the given rows: exactly x for the relative entropy's gradient
        1 + ln(x / d0); otherwise central differences of ``regularizer_gradient`` (a separable
        R; for another R this is only a diagonal model, which the line search and the
        certified stop keep correct)."""
        f = self.formulation
        if self._entropy_curvature:
            return x
        step = 1e-6 * x
        probe = np.asarray(getattr(f, "d0", np.full(f.N, 1.0 / f.N)), dtype=float).copy()
        with np.errstate(divide="ignore", invalid="ignore"):
            probe[rows] = x
            middle = f.regularizer_gradient(probe)[rows]
            probe[rows] = x + step
            upper = f.regularizer_gradient(probe)[rows]
            probe[rows] = x - step
            lower = f.regularizer_gradient(probe)[rows]
            # one-sided where x + step leaves R's domain (the binary entropy near 1/nu)
            beyond = ~np.isfinite(upper)
            upper[beyond], step_up = middle[beyond], np.where(beyond, 0.0, step)
            return (step_up + step) / (upper - lower)

    def _direction(self, U, w, d, g, mu, eps_active):
        """The Newton ascent direction on the face of the free weights.

        Bound (epsilon-active, Bertsekas): w_q <= eps_active with g_q below the weighted average
        g.w; those move to 0 (p_q = -w_q), the free ones take the Newton step of the quadratic
        model restricted to the affine set sum(w) = 1, so that sum(p) = 0 exactly."""
        lam = float(g @ w)
        free = (w > eps_active) | (g > lam)
        # the -Hessian on the first free set; a smaller face takes its sub-block (exact: the
        # Hessian of a restriction is the restriction of the Hessian)
        first = np.flatnonzero(free)
        hessian = self._hessian(U, d, first) if first.size > 1 else None
        for _ in range(w.size):
            p = self._face_step(U, w, d, g, mu, free, (first, hessian))
            # a weight at its bound whose Newton step points out of the simplex joins the bound set
            blocked = free & (w <= eps_active) & (p < 0)
            if not blocked.any():
                return p
            free &= ~blocked
        return p

    def _face_step(self, U, w, d, g, mu, free, computed=None):
        """Newton step on the free weights with sum(p) = 0 over all weights: solved in an
        orthonormal basis Z of {1}^perp (a Householder reflection), which avoids the cancellation
        of the bordered system when -Hessian is nearly singular."""
        idx = np.flatnonzero(free)
        p = np.zeros_like(w)
        p[~free] = -w[~free]
        released = float(w[~free].sum())
        n = idx.size
        if n == 0:
            return p
        shift = np.full(n, released / n)
        if n == 1:
            p[idx] = shift
            return p
        first, hessian = computed if computed is not None else (None, None)
        if hessian is not None and idx.size == first.size:
            B = hessian.copy()  # the face of the first free set (the usual case)
        elif hessian is not None:
            # _direction only removes weights from the first free set: idx is a subset of it
            where = np.searchsorted(first, idx)
            B = hessian[np.ix_(where, where)]
        else:
            B = self._hessian(U, d, idx)
        scale = max(float(np.trace(B)) / n, 1e-300)
        B.flat[::n + 1] += mu * scale + 1e-14
        # Z = the last n - 1 columns of H = I - 2 v v^T / (v.v), v = 1/sqrt(n) - e_1 (H e_1 =
        # 1/sqrt(n)), applied implicitly: v is constant on rows 1.., so H B H restricted to them
        # is B minus two broadcast rank-one terms plus a constant (O(n^2), no n^3 products)
        v = np.full(n, 1.0 / math.sqrt(n))
        v[0] -= 1.0
        c = 2.0 / float(v @ v)
        r = g[idx] - B @ shift
        rhs = (r - c * v * float(v @ r))[1:]
        Bv = B @ v
        vBv = float(v @ Bv)
        tail = c * Bv[1:] / math.sqrt(n)  # c v_1.. Bv_1.. with v_1.. = 1/sqrt(n)
        reduced = B[1:, 1:]
        reduced -= tail[:, None]
        reduced -= tail[None, :]
        reduced += c * c * vBv / n
        for _ in range(8):
            factor, info = dpotrf(reduced, lower=0, clean=0, overwrite_a=0)
            if info == 0:
                z, _ = dpotrs(factor, rhs, lower=0)
                break
            reduced.flat[::n] += scale * 1e-6  # reduced is (n - 1) x (n - 1)
            scale *= 100
        else:
            z = rhs
        y = np.concatenate([[0.0], z])
        p[idx] = shift + y - c * v * float(v @ y)
        return p

    def _line_search(self, U, w, g, p, value0):
        """Along w + alpha p (feasible for alpha <= alpha_max): phi(alpha) = Theta_bar is concave
        with phi'(alpha) = g(alpha).p (Danskin), so the step is the root of phi' in
        [0, min(1, alpha_max)] by regula falsi (Illinois variant: phi' can fall steeply near 0
        and plain regula falsi then creeps from one end), keeping the bracket end where
        phi' >= 0 (there phi has increased); failing that, the highest trial that rose by an
        Armijo fraction of the slope. Returns (alpha, w, value, d, g) or None."""
        slope0 = float(g @ p)
        violation = float(g.max() - g @ w)
        if not slope0 > 0.0:
            # at round-off level phi'(0) loses its sign; take the full step if it lowers the
            # optimality violation (the certified gap of the best response)
            negative = p < 0
            alpha_max = float(np.min(-w[negative] / p[negative])) if negative.any() else np.inf
            if alpha_max < 1.0:
                return None
            candidate = w + p
            candidate = np.clip(candidate, 0.0, None)
            candidate /= candidate.sum()
            value, d, g_new = self._evaluate(U, candidate)
            if float(g_new.max() - g_new @ candidate) < violation:
                return 1.0, candidate, value, d, g_new
            return None
        negative = p < 0
        alpha_max = float(np.min(-w[negative] / p[negative])) if negative.any() else np.inf
        hi = min(1.0, alpha_max)
        lo, slope_lo, best = 0.0, slope0, None

        def point(alpha):
            candidate = w + alpha * p
            if alpha >= alpha_max:
                candidate[negative & (-w / np.where(negative, p, -1.0) <= alpha)] = 0.0
            candidate = np.clip(candidate, 0.0, None)
            candidate /= candidate.sum()
            value, d, g_new = self._evaluate(U, candidate)
            return candidate, value, d, g_new, float(g_new @ p)

        trial = point(hi)
        # the full (or boundary) step is kept when phi' >= 0 there, or when it overshoots a
        # little but phi rose by an Armijo fraction of the slope (well above round-off)
        rise = trial[1] - value0
        if trial[4] >= 0.0 or (rise >= 1e-4 * hi * slope0 and
                               rise > 1e-9 * (1.0 + abs(value0))):
            return (hi, *trial[:4])
        slope_hi, alpha = trial[4], hi
        rising = None  # the highest trial with an Armijo rise, kept should phi' never be >= 0
        kept_hi = 0  # consecutive shrinks of hi: Illinois halves the kept end's slope
        for _ in range(12):
            weight_lo = slope_lo * (0.5 ** max(kept_hi - 1, 0))
            alpha = lo + (hi - lo) * weight_lo / (weight_lo - slope_hi)
            if not lo < alpha < hi:
                alpha = 0.5 * (lo + hi)
            trial = point(alpha)
            rise = trial[1] - value0
            if rise >= 1e-4 * alpha * slope0 and (rising is None or trial[1] > rising[2]):
                rising = (alpha, *trial[:4])
            if trial[4] >= 0.0:
                lo, slope_lo, best, kept_hi = alpha, trial[4], (alpha, *trial[:4]), 0
                if slope_lo <= 0.1 * slope0:
                    break
            else:
                hi, slope_hi, kept_hi = alpha, trial[4], kept_hi + 1
                if -slope_hi <= 0.1 * slope0 and best is not None:
                    break
        return best if best is not None else rising

    # -- the solve ---------------------------------------------------------------------------
    def solve(self, U: np.ndarray, gap_tol: float) -> MasterSolve:
        tick = time.perf_counter()
        f = self.formulation
        U = np.asarray(f.check_columns(U), dtype=float)
        t = U.shape[1]
        if self.w is not None and self.w.size <= t:
            w = np.concatenate([self.w, np.zeros(t - self.w.size)])  # new column at weight 0
        else:
            w = np.full(t, 1.0 / t)
        w = simplex_projection(w) if t > 1 else np.ones(1)
        value, d, g = self._evaluate(U, w)
        mu = 1e-8
        cert = None
        self.iterations = 0
        # Iterate past gap_tol to a tight target (Newton converges fast there): the next column is
        # chosen by the oracle on this d, and a d certified only to gap_tol can pick another
        # stump at a near-tie than the reference path's accurate solve would.
        target = min(gap_tol, self.polish_tol)
        within = 0  # iterations spent with the certified violation already <= gap_tol
        for iteration in range(self.max_iterations + 1):
            # the simplex optimality violation is P(d(w)) - Theta_bar(w); certify when it is small
            violation = float(g.max() - g @ w)
            if violation <= target:
                cert = f.certify(U, {"w": w})  # d is the best response to w
                if cert.gap <= target:
                    break
            within = within + 1 if violation <= gap_tol else 0
            if iteration == self.max_iterations or within > self.polish_iterations:
                break
            self.iterations = iteration + 1
            p = self._direction(U, w, d, g, mu, eps_active=min(1e-6, max(violation, 1e-15)))
            found = self._line_search(U, w, g, p, value)
            if found is None:  # a projected-gradient step before giving up
                step = 1.0 / max(float(np.abs(g).max()) * float(f.eta), 1e-12)
                for _ in range(50):
                    candidate = simplex_projection(w + step * g)
                    c_value, c_d, c_g = self._evaluate(U, candidate)
                    if c_value > value:
                        found = (step, candidate, c_value, c_d, c_g)
                        break
                    step *= 0.5
            if found is None:
                break
            step, w, value, d, g = found
            mu = max(mu * 0.1, 1e-12) if step >= 1.0 else min(mu * 10.0, 1e2)
        if cert is None or cert.gap > target:
            cert = f.certify(U, {"w": w})  # d is the best response to w
            if not cert.gap <= gap_tol:
                cert = None
        if cert is None:  # not certified within the budget: this iteration on the reference path
            solved = self.reference(U, gap_tol, f"projected Newton stopped at {self.iterations} "
                                    f"iterations above gap {gap_tol:g}", solver_prefix="newton->")
            self.w = np.asarray(solved.certificate.w, dtype=float).copy()
            solved.seconds = time.perf_counter() - tick
            return solved
        multipliers = dict(cert.point.items())
        multipliers["w"] = w
        self.w = np.asarray(w, dtype=float).copy()
        status = "optimal" if math.isfinite(cert.gap) else "optimal; certificate not finite"
        return MasterSolve(certificate=cert, multipliers=multipliers, solver="newton",
                           status=status, seconds=time.perf_counter() - tick)
