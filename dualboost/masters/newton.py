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
epsilon-active set) where the quadratic model agrees, i.e. its maximum along that weight alone
is at or past 0 (``w_q B_qq <= g.w - g_q``, B the -Hessian: at eta ~ 2e4 a weight of 1e-6 is not
negligible, see ``_release_costs``), a (slightly regularized) Newton step is taken on the face
of the others with the sum held fixed (solved in an orthonormal basis of ``{1}^perp``; a weight
near 0 whose step would cross 0 joins the bound set), and the step length along that feasible
ray is the root of the directional derivative ``phi'(alpha) = g(alpha).p`` (regula falsi on a
concave phi; the bracket end with ``phi' >= 0`` is kept, so the value rises).
The thesis (Ch. 4, its ERLPBoost experiments) used a quasi-Newton method in the same
domain with warm starts; here the Hessian itself is affordable because the w-domain has t
variables: its second moment U^T diag(h) U is kept across steps and solves and updated on the
examples whose curvature weight h moved by more than 1e-3 relative (``_second_moment``), so
the matrix is exact for weights within 1e-3 of the current ones. Each solve is warm-started
from the previous iteration's w, the new column at weight 0.

Stopping is on the CERTIFIED gap: ``formulation.certify(U, {"w": w}, d)`` (the formulation's own
exact bracket ``Theta(w) <= optimum <= P(d)``) must be ``<= gap_tol``. For the best response d(w),
``P(d) - Theta_bar(w) = max_q (U^T d)_q - w . U^T d``: the simplex optimality violation of w. If a
solve does not reach the tolerance within ``max_iterations``, that iteration falls back to the
reference path (:meth:`Formulation.solve_primal`, a cvxpy solve) and the status says so. The
violation is not monotone along the iterates (the value is), so the iterate of least violation
within gap_tol is kept and certified when the last one is above it.

Known limitation: where grad R* has exact zeros and R''(0+) is finite (chi^2, l2), Theta_bar is
piecewise quadratic; at a large eta (nu = 1, eps = 0.01: eta ~ 2e5 on german) hundreds of
examples sit at the kink d = 0, the Hessian of the current piece underestimates the curvature
along the step (the step overshoots by 1e2-1e5 and the line search cuts it) and the steps zigzag
across kinks with a slow linear rate; a solve that does not reach gap_tol in ``max_iterations``
falls back. Much of that zigzag was the release of small weights at an eta-sized curvature (see
``_release_costs``): since the release follows the model, german with chi^2 at api.run's
defaults certifies all 434 solves on Newton (before: 4 of 425 fell back), and 25 growing
stump columns on tie groups at nu = 1 take 48-66 Newton iterations where they took 222-484.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np
from scipy.linalg.blas import dgemm, dsymv, dsyrk
from scipy.linalg.lapack import dpotrf, dpotrs

from ..formulation import Certificate, Formulation
from . import Master, MasterSolve

__all__ = ["ProjectedNewtonMaster", "simplex_projection"]

#: corrections of the kept second moment between two whole recomputations
_MOMENT_REFRESH = 50

#: trust region of a Newton step in the l1 norm: the simplex's diameter. A longer step cannot be
#: taken (the line search would cut it to a sliver) and is dominated by a near-null direction of
#: the Hessian (linearly dependent columns: one-hot features on a9a give U two exact null
#: directions), so the regularization is raised until the step fits (a9a: 5-6 Newton iterations
#: of 13 evaluations each, stepping 1e4, 1e3, ... long, became one)
_STEP_RADIUS = 2.0

#: d_n at most this fraction of max(d) counts as 0 (off the Hessian): the best response's d is
#: projected onto the capped simplex, whose sum correction shifts the exact zeros of a clipped
#: grad R* (chi^2, l2, the 4/3-power) by round-off, ~1e-12 max(d) on german (N = 1000). Such a
#: zero counted inside gets the full curvature 1 / R''(0+) (d0 / 2 for chi^2): hundreds of
#: examples at d = 0 then make the Newton model far too curved, the steps ~1e-6 long, and the
#: solve stalls (german, chi^2 at nu = 0.1 N: 17 of 150 solves fell back to the reference path)
_ZERO = 1e-9


class _Curvature(NamedTuple):
    """The -Hessian of Theta_bar as eta (M - a a^T / total); M's upper triangle, column-major."""

    moment: np.ndarray
    a: np.ndarray
    total: float
    eta: float


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
    regularizers (see :meth:`_curvature`).
    """

    path = "projected-newton"

    def __init__(self, formulation, max_iterations: int = 100, polish_tol: float = 1e-9,
                 polish_iterations: int = 30, hessian_tolerance: float = 0.03):
        self.formulation = formulation
        #: the gap aimed at below gap_tol, and the iterations allowed for it once within gap_tol
        self.polish_tol, self.polish_iterations = float(polish_tol), int(polish_iterations)
        self.max_iterations = int(max_iterations)
        self.w: np.ndarray | None = None
        #: relative change of an example's curvature weight h under which the kept Hessian
        #: keeps its old weight (see _second_moment). 3 % rather than 0.1 %: the Hessian's
        #: products then cost a sixth (a9a, nu = 0.3 N, eps 0.001: 141 -> 31 whole
        #: recomputations, 7.6 -> 1.0 GFLOP) for a third more line-search evaluations; CPU
        #: seconds of whole fits -15 % (a9a), -22 % (german), -30 % (hastie 1e4), +2-4 %
        #: (twonorm), the same T and soft margins
        self.hessian_tolerance = float(hessian_tolerance)
        self._buffer = np.empty(0)
        self._columns, self._known_columns = np.empty((0, 0), order="F"), 0
        self._columns_generation = 0  # bumped when the column-major copy of U restarts
        #: the U that _columns was made for in this solve (None: check the next U again), and
        #: a copy of U's last column (to tell an extension of it from another matrix)
        self._columns_source: np.ndarray | None = None
        self._last_column = np.empty(0)
        self._buffer_columns: np.ndarray | None = None  # the copy of a U not column-major
        #: B^T B with B = [sqrt(h~), sqrt(h~) U]: sum(h~), a = U^T h~ in row 0 and the second
        #: moment U^T diag(h~) U below it (upper triangle, column-major)
        self._moment = np.empty((0, 0), order="F")
        self._moment_h: np.ndarray | None = None
        self._moment_generation = self._moment_updates = 0
        #: the last certified solve's (t, column generation, w, Theta_bar, d, gradient)
        self._last: tuple | None = None
        #: the regularization of the last direction (raised by the trust region)
        self.mu_used = 1e-8
        #: Newton iterations of the last solve (diagnostic)
        self.iterations = 0
        #: id(w) -> (w, best response to w) for the iterate and the last line search's trials
        self._responses: dict[int, tuple[np.ndarray, Certificate]] = {}

    # -- pieces ------------------------------------------------------------------------------
    def _evaluate(self, U: np.ndarray, w: np.ndarray):
        """(Theta_bar(w), d(w), gradient U^T d(w)) from the formulation's best response (kept
        by w's identity for :meth:`_certify`)."""
        response = self.formulation.best_response(U, w)
        self._responses[id(w)] = (w, response)
        d = np.asarray(response.d, dtype=float)
        edges = response.edges if response.edges is not None else U.T @ d
        return float(response.dual_value), d, np.asarray(edges, dtype=float)

    def _curvature(self, U: np.ndarray, d: np.ndarray) -> _Curvature | None:
        """-Hessian of Theta_bar as eta (M - a a^T / sum h), M = U^T diag(h) U, a = U^T h, with
        h = 1 / R''(d) on the examples off their bounds and 0 on the others (d(w) moves with
        grad R*, whose derivative is the inverse of R's curvature; h = d for the relative
        entropy, thesis (3.11); d (1 - nu d) for the binary one, (3.27)). None when no example
        is off its bounds (Theta_bar is linear there).

        M is kept across calls (:meth:`_second_moment`) and only the rows whose h moved by more
        than ``hessian_tolerance`` (relatively) are updated: the result is the exact -Hessian at
        a nearby h~ with |h~_n - h_n| <= tol h_n, so (1 - tol) H <= H~ <= (1 + tol) H and Newton
        keeps a fast linear rate, while the certified stop decides when a solve is done."""
        f = self.formulation
        cap = getattr(f, "cap", None)  # per-example caps with sample weights
        cap = 1.0 / float(getattr(f, "nu", 1.0)) if cap is None else cap
        # the d-domain (Capabilities.d_domain): d >= 0 puts the examples at d_n = 0 on their
        # bound; d of any sign ("affine", seed 002's AdaBoost-QP) has no bound there; without
        # the normalization sum(d) = 1 ("orthant", the exponential loss (14)) beta is not
        # eliminated and the -Hessian has no rank-one term (total = inf below)
        domain = f.capabilities.d_domain
        inside = (d > _ZERO * float(d.max(initial=0.0)) if domain != "affine"
                  else np.ones(d.size, dtype=bool))
        if getattr(f, "has_caps", False):
            inside &= d < cap * (1.0 - 1e-9)
        h = self._inverse_curvature(d, inside)
        if float(h.sum()) <= 0.0:
            return None
        moment, a, kept = self._second_moment(U, h)
        total = float(kept.sum()) if domain != "orthant" else math.inf
        if total <= 0.0:
            return None
        return _Curvature(moment, a, total, float(f.eta))

    def _second_moment(self, U: np.ndarray, h: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(U^T diag(h~) U as its upper triangle, t x t in column-major order; U^T h~; h~).

        The matrix of the last call is extended by the new columns (a solve's U extends the
        previous one) and corrected by signed symmetric rank-k updates (syrk) on the k rows
        whose h moved by more than the tolerance: near an optimum, and from one solve to the
        next, most rows barely move. Recomputed whole when more than half the rows moved, when
        U is not the previous one extended, and every ``_MOMENT_REFRESH`` corrections (their
        round-off accumulates). U^T h~ rides along as row 0 of the kept matrix (the products
        with [sqrt(h~), sqrt(h~) U]), so it costs no pass over U of its own."""
        N, t = U.shape
        columns = self._column_major(U)
        kept, moment = self._moment_h, self._moment
        known = moment.shape[0] - 1
        if (self._columns_generation != self._moment_generation or kept is None
                or kept.size != N or known < 0 or known > t
                or self._moment_updates >= _MOMENT_REFRESH):
            return self._fresh_moment(columns, h)
        if known < t:
            # the new columns against all: [1, U]^T diag(h~) U_new, O(N t) per new column
            grown = np.empty((t + 1, t + 1), order="F")
            grown[:known + 1, :known + 1] = moment
            block = columns[:, known:] * kept[:, None]
            grown[1:, known + 1:] = columns.T @ block
            grown[0, known + 1:] = block.sum(axis=0)
            moment = self._moment = grown
        delta = h - kept
        moved = np.flatnonzero(np.abs(delta) > self.hessian_tolerance * np.maximum(h, kept))
        if 2 * moved.size > N:
            return self._fresh_moment(columns, h)
        if moved.size:
            for rows, sign in ((moved[delta[moved] > 0], 1.0), (moved[delta[moved] < 0], -1.0)):
                if rows.size:
                    # (sqrt|delta| [1, U_rows])^T (sqrt|delta| [1, U_rows]) added in place; A.T
                    # is the column-major (t + 1) x k matrix BLAS wants
                    root = np.sqrt(np.abs(delta[rows]))
                    A = np.empty((rows.size, t + 1))
                    A[:, 0] = root
                    np.multiply(columns[rows], root[:, None], out=A[:, 1:])
                    moment = dsyrk(sign, A.T, beta=1.0, c=moment, trans=0, overwrite_c=1)
            self._moment = moment
            kept[moved] = h[moved]
            self._moment_updates += 1
        return self._split_moment(moment, kept)

    def _fresh_moment(self, columns: np.ndarray, h: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """U^T diag(h) U recomputed whole (it becomes the kept matrix), U^T h and h."""
        N, t = columns.shape
        # [sqrt(h), sqrt(h) U] from the column-major U, into a buffer kept across calls (a
        # fresh N x t array per call costs page faults comparable to the product), then one
        # symmetric rank-N update: half a general product (single precision was tried: it costs
        # more Newton iterations than it saves)
        size = N * (t + 1)
        if self._buffer.size < size:
            self._buffer = np.empty(max(size, 2 * self._buffer.size))
        A = self._buffer[:size].reshape((N, t + 1), order="F")
        np.sqrt(h, out=A[:, 0])
        np.multiply(columns, A[:, :1], out=A[:, 1:])
        self._moment = dsyrk(1.0, A, trans=1)
        self._moment_h = h.copy()
        self._moment_generation, self._moment_updates = self._columns_generation, 0
        return self._split_moment(self._moment, self._moment_h)

    @staticmethod
    def _split_moment(moment: np.ndarray, kept: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(U^T diag(h~) U, U^T h~, h~) from the kept [sqrt(h~), sqrt(h~) U] product."""
        return np.asfortranarray(moment[1:, 1:]), moment[0, 1:].copy(), kept

    def _column_major(self, U: np.ndarray) -> np.ndarray:
        """U in column-major order, kept across solves: a solve's U extends the previous one by
        new columns (the engine's contract), so only those are copied; a column-major U (the
        engine's own buffer) is used as it is. Checked once per solve (``_columns_source``)."""
        if U is self._columns_source:
            return self._columns
        N, t = U.shape
        known = self._known_columns
        stale = (self._columns.shape[0] != N or known > t
                 or (known and not np.array_equal(self._last_column, U[:, known - 1])))
        if stale:
            known = 0
            self._columns_generation += 1
        if U.flags.f_contiguous:
            columns = U
        else:
            buffer = self._buffer_columns
            copied = known if buffer is not None and self._columns.base is buffer else 0
            if buffer is None or buffer.shape[0] != N or buffer.shape[1] < t:
                width = 0 if buffer is None else buffer.shape[1]
                grown = np.empty((N, max(t, 2 * width)), order="F")
                if copied:
                    grown[:, :copied] = buffer[:, :copied]
                buffer = self._buffer_columns = grown
            buffer[:, copied:t] = U[:, copied:t]
            columns = buffer[:, :t]
        self._columns, self._known_columns = columns, t
        self._last_column = U[:, t - 1].copy() if t else np.empty(0)
        self._columns_source = U
        return columns

    def _inverse_curvature(self, d: np.ndarray, inside: np.ndarray) -> np.ndarray:
        """1 / R''(d) on the rows ``inside`` (finite and positive there, else 0), 0 on the
        others, from the member: ``inverse_curvature(d)`` (declared in closed form, e.g. x for
        the relative entropy, or derived from its R; for a non-separable R only a diagonal
        model, which the line search and the certified stop keep correct), asked at d inside
        and at d0 elsewhere (d at its bounds can be outside the member's formula). Whole-vector
        selections, not boolean gathers and scatters: those cost about ten times as much."""
        f = self.formulation
        d0 = getattr(f, "d0", None)
        d0 = np.full(f.N, 1.0 / f.N) if d0 is None else np.asarray(d0, dtype=float)
        probe = np.where(inside, d, d0)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            value = np.asarray(f.inverse_curvature(probe), dtype=float)
            keep = inside & (value > 0)  # NaN fails the test
        if np.isfinite(value).all():
            return value * keep
        return np.where(keep & np.isfinite(value), value, 0.0)

    def _direction(self, U, w, d, g, mu, eps_active):
        """The Newton ascent direction on the face of the free weights.

        Bound (epsilon-active, Bertsekas): w_q <= eps_active with g_q below the weighted average
        g.w; those move to 0 (p_q = -w_q), the free ones take the Newton step of the quadratic
        model restricted to the affine set sum(w) = 1, so that sum(p) = 0 exactly."""
        lam = float(g @ w)
        free = (w > eps_active) | (g > lam)
        # one curvature for every face tried (a smaller face takes its sub-block: the Hessian
        # of a restriction is the restriction of the Hessian)
        curvature = (self._curvature(U, d) if np.count_nonzero(free | (w > 0.0)) > 1
                     else None)
        if curvature is not None:
            # a small weight below the average gradient is released to 0 only where the model
            # puts its own 1-D maximum at or past 0 (_release_costs): eps_active is absolute
            # and the curvature is eta-sized. At eta ~ 2e4 (a9a, nu = 1) releasing weights of
            # 1e-6 moved the gradient by ~1e-2: the direction's curvature p.Bp ~ 2e-8 dwarfed
            # its slope (~1e-13), the line search crept (steps 1e-3 .. 1e-16 of the direction),
            # the trust region's mu rose to 1e2 and the solve fell back from t ~ 60 on
            free |= self._release_costs(w, curvature) > lam - g
        self.mu_used = mu
        held = np.zeros(w.size, dtype=bool)
        for _ in range(w.size):
            p = self._face_step(w, g, mu, free, curvature, held)
            for _ in range(8):  # the trust region: see _STEP_RADIUS (an O(n^3) re-solve each)
                length = float(np.abs(p).sum())
                if not length > _STEP_RADIUS:
                    break
                # along a near-null direction the step scales as 1/delta
                mu = max(mu, 1e-12) * 2.0 * length / _STEP_RADIUS
                p = self._face_step(w, g, mu, free, curvature, held)
            self.mu_used = mu
            # a weight at (or within eps_active of) its bound whose Newton step crosses it joins
            # the bound set; one that the step only shrinks stays free (the step is feasible,
            # and forcing it to 0 is a release at an eta-sized curvature cost, as above)
            blocked = free & (w <= eps_active) & (w + p < 0)
            if not blocked.any():
                return p
            free &= ~blocked
            # a blocked weight whose gradient is above the average g.w is held where it is
            # (p_q = 0), not dropped to 0: dropping it costs w_q (g_q - g.w) > 0 of slope, and
            # with the chi^2 member at small nu (a Hessian with a near-null direction, steps of
            # 1e-8) that cancelled the whole ascent of the step (slope 1e-23, the solve stalled)
            held |= blocked & (g > lam)
        return p

    @staticmethod
    def _release_costs(w: np.ndarray, curvature: _Curvature) -> np.ndarray:
        """w_q B_qq, B_qq = eta (M_qq - a_q^2 / total) the -Hessian's diagonal (module
        docstring). The quadratic model along weight q alone (its mass moved to the others) has
        its maximum at or past w_q = 0 exactly when this is at most the move's slope
        ``g.w - g_q``: only then is the bound the model's own answer."""
        moment, a, total, eta = curvature
        return w * (eta * (moment.diagonal() - a * a / total))

    def _face_step(self, w, g, mu, free, curvature: _Curvature | None,
                   held: np.ndarray | None = None):
        """Newton step on the free weights I with sum(p) = 0 over all weights, for the -Hessian
        B = eta (M_II - a_I a_I^T / total) + delta I (delta: a relative regularization mu).

        Solved in an orthonormal basis Z of {1}^perp (a Householder reflection H = I - c v v^T,
        v = 1/sqrt(n) - e_1, whose last n - 1 columns are Z), which avoids the cancellation of
        the bordered system when B is nearly singular. Z^T B Z is B's trailing block minus
        rank-one terms in v, and B itself is M's block plus a rank-one term: all of them are
        applied to one gathered copy of M's block in a single rank-3 product (no n x n
        temporaries: at n in the hundreds each pass over an n x n matrix costs about as much
        as the Cholesky factorization)."""
        idx = np.flatnonzero(free)
        p = np.zeros_like(w)
        p[~free] = -w[~free]
        released = ~free
        if held is not None:
            p[held] = 0.0
            released = released & ~held
        n = idx.size
        if n == 0:
            return p
        shift = float(w[released].sum()) / n  # the released weight, spread evenly
        if n == 1:
            p[idx] = shift
            return p
        if curvature is None:  # Theta_bar is linear here: a gradient step of the regularization
            zero = np.zeros((w.size, w.size), order="F")
            curvature = _Curvature(zero, np.zeros(w.size), 1.0, 0.0)
        moment, a, total, eta = curvature
        aI = a[idx]
        diagonal = moment.diagonal()[idx]
        indicator = np.zeros(w.size)
        indicator[idx] = 1.0
        M1 = dsymv(1.0, moment, indicator)[idx]  # M_II 1 from the upper triangle
        first = int(idx[0])
        M0 = np.concatenate([moment[:first + 1, first], moment[first, first + 1:]])[idx]
        scale = max(eta * (float(diagonal.sum()) - float(aI @ aI) / total) / n, 1e-300)
        delta = mu * scale + 1e-14
        B1 = eta * (M1 - aI * (float(aI.sum()) / total)) + delta  # B 1
        B0 = eta * (M0 - aI * (float(aI[0]) / total))  # B e_1
        B0[0] += delta
        root = math.sqrt(n)
        v = np.full(n, 1.0 / root)
        v[0] -= 1.0
        c = 2.0 / float(v @ v)
        r = g[idx] - shift * B1
        rhs = (r - c * v * float(v @ r))[1:]
        Bv = B1 / root - B0
        tail = c * Bv[1:] / root  # c (Bv)_j v_j for j >= 1, v_j = 1/sqrt(n)
        kappa = c * c * float(v @ Bv) / n
        # trailing block of Z^T B Z = eta M_JJ + V C V^T + delta I, V = [a_J, tail, 1]
        V = np.empty((n - 1, 3))
        V[:, 0], V[:, 1], V[:, 2] = aI[1:], tail, 1.0
        C = np.array([[-eta / total, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, -1.0, kappa]])
        rest = idx[1:]
        extra = 0.0
        for _ in range(8):
            # M_JJ gathered in column-major order (logical [i, j] = M[rest_i, rest_j]: the
            # upper triangle stays the upper triangle, rest being sorted); two takes are
            # about 3x faster than one np.ix_ gather
            reduced = moment.T.take(rest, axis=0).take(rest, axis=1).T
            reduced = dgemm(1.0, V @ C, V, beta=eta, c=reduced, trans_b=1, overwrite_c=1)
            reduced.flat[::n] += delta + extra  # reduced is (n - 1) x (n - 1)
            factor, info = dpotrf(reduced, lower=0, clean=0, overwrite_a=1)
            if info == 0:
                z, _ = dpotrs(factor, rhs, lower=0)
                break
            extra = scale * 1e-6 if extra == 0.0 else extra * 100
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
        value_lo, value_hi = value0, trial[1]
        rising = None  # the highest trial with an Armijo rise, kept should phi' never be >= 0
        kept_hi = 0  # consecutive shrinks of hi: Illinois halves the kept end's slope
        kept_lo = 0  # consecutive raises of lo: Illinois halves hi's slope
        linear = False  # the last trial showed phi' unchanged on its side (a linear piece)
        for _ in range(12):
            if linear:
                # phi' is piecewise constant here (nearly every example at its cap or at 0,
                # the Hessian blind to the kinks): the tangents at lo and hi meet at the kink
                # (for a concave phi they bound it from above); the secant on phi' would creep
                # (a9a: 12 trials a search at a single kink)
                alpha = ((value_hi - value_lo + slope_lo * lo - slope_hi * hi)
                         / (slope_lo - slope_hi))
                if not alpha - lo > 1e-3 * (hi - lo):
                    break  # the kink is at lo: nothing left to gain on this ray
            else:
                weight_lo = slope_lo * (0.5 ** max(kept_hi - 1, 0))
                weight_hi = slope_hi * (0.5 ** max(kept_lo - 1, 0))
                alpha = lo + (hi - lo) * weight_lo / (weight_lo - weight_hi)
            if not lo < alpha < hi:
                alpha = 0.5 * (lo + hi)
            trial = point(alpha)
            rise = trial[1] - value0
            if rise >= 1e-4 * alpha * slope0 and (rising is None or trial[1] > rising[2]):
                rising = (alpha, *trial[:4])
            if trial[4] >= 0.0:
                linear = abs(trial[4] - slope_lo) <= 1e-3 * slope_lo
                lo, slope_lo, value_lo, best = alpha, trial[4], trial[1], (alpha, *trial[:4])
                kept_hi, kept_lo = 0, kept_lo + 1
                if slope_lo <= 0.1 * slope0:
                    break
            else:
                linear = abs(trial[4] - slope_hi) <= 1e-3 * abs(slope_hi)
                hi, slope_hi, value_hi = alpha, trial[4], trial[1]
                kept_hi, kept_lo = kept_hi + 1, 0
                if -slope_hi <= 0.1 * slope0 and best is not None:
                    break
        return best if best is not None else rising

    # -- the solve ---------------------------------------------------------------------------
    def solve(self, U: np.ndarray, gap_tol: float) -> MasterSolve:
        tick = time.perf_counter()
        f = self.formulation
        U = np.asarray(f.check_columns(U), dtype=float)
        t = U.shape[1]
        self._columns_source = None  # U may be another matrix than last solve's: check it
        self._responses = {}
        warm = self._warm_start(U)
        if warm is not None:
            w, value, d, g = warm
        else:
            if self.w is not None and self.w.size <= t:
                w = np.concatenate([self.w, np.zeros(t - self.w.size)])  # new column at 0
            else:
                w = np.full(t, 1.0 / t)
            w = simplex_projection(w) if t > 1 else np.ones(1)
            value, d, g = self._evaluate(U, w)
        self._last = None
        mu = 1e-8
        cert = None
        self.iterations = 0
        # Iterate past gap_tol to a tight target (Newton converges fast there): the next column is
        # chosen by the oracle on this d, and a d certified only to gap_tol can pick another
        # stump at a near-tie than the reference path's accurate solve would.
        target = min(gap_tol, self.polish_tol)
        within = 0  # iterations spent with the certified violation already <= gap_tol
        # the iterate of least violation <= gap_tol, and the iterations since the first one: the
        # violation is not monotone (the value is): on a piecewise-quadratic Theta_bar (chi^2 at
        # small nu, hundreds of examples at the kink d = 0) it dips below gap_tol and rises again
        # while the steps zigzag across the kinks, and the solve ended above gap_tol after 100
        # iterations and fell back to the reference path (german: 17 of 150 solves)
        best, since = None, -1
        for iteration in range(self.max_iterations + 1):
            # the simplex optimality violation is P(d(w)) - Theta_bar(w); certify when it is small
            violation = float(g.max() - g @ w)
            if violation <= target:
                cert = self._certify(U, w)  # d is the best response to w
                if cert.gap <= target:
                    break
            within = within + 1 if violation <= gap_tol else 0
            if violation <= gap_tol:
                since = max(since, 0)
                if best is None or violation < best[0]:
                    best = (violation, w, value, d, g)
            if since >= 0:
                since += 1
            if (iteration == self.max_iterations or within > self.polish_iterations
                    or since > 2 * self.polish_iterations):
                break
            self.iterations = iteration + 1
            p = self._direction(U, w, d, g, mu, eps_active=min(1e-6, max(violation, 1e-15)))
            mu = self.mu_used  # raised by the trust region
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
            # the trials' responses are dropped (N-vectors each); the kept iterates' stay (the
            # iterate of least violation may be certified at the end)
            kept = {id(w)} | ({id(best[1])} if best is not None else set())
            self._responses = {k: v for k, v in self._responses.items() if k in kept}
            mu = max(mu * 0.1, 1e-12) if step >= 1.0 else min(mu * 10.0, 1e2)
        if cert is None or cert.gap > target:
            cert = self._certify(U, w)  # d is the best response to w
            if not cert.gap <= gap_tol and best is not None and best[0] < violation:
                _, w, value, d, g = best
                cert = self._certify(U, w)
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
        remember = getattr(f, "remember_edges", None)
        if remember is not None and cert.edges is not None:
            remember(U, cert.d, cert.edges)  # for the KKT recovery and the next P^(t+1)(d^t)
        self.w = np.asarray(w, dtype=float).copy()
        self._last = (t, self._columns_generation, self.w, value, d, g)
        status = "optimal" if math.isfinite(cert.gap) else "optimal; certificate not finite"
        return MasterSolve(certificate=cert, multipliers=multipliers, solver="newton",
                           status=status, seconds=time.perf_counter() - tick,
                           iterations=self.iterations)

    def _certify(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """``formulation.certify(U, {"w": w})``, without evaluating the best response again
        where this solve has it: the base ``certify`` of a bare w is the best response to
        ``dual_feasible(w)``, the same w when w is exactly on the simplex."""
        f = self.formulation
        entry = self._responses.get(id(w))
        if entry is not None and entry[0] is w and type(f).certify is Formulation.certify:
            point = f.dual_feasible(U, {"w": w})
            if np.array_equal(point["w"], w):
                return entry[1]
        return f.certify(U, {"w": w})

    def _warm_start(self, U: np.ndarray):
        """(w, Theta_bar(w), d(w), gradient) at the previous solution, the new columns at weight
        0, without a best response: U w and hence d(w) and Theta_bar(w) are the previous ones,
        only the new columns' edges u.d are new. None when U does not extend the last solve's
        columns (or that solve fell back to the reference path)."""
        last = getattr(self, "_last", None)
        if last is None:
            return None
        t0, generation, w0, value, d, g0 = last
        t = U.shape[1]
        if t < t0 or t0 == 0:
            return None
        self._column_major(U)  # bumps the generation when U is not the last one extended
        if self._columns_generation != generation:
            return None
        w = np.concatenate([w0, np.zeros(t - t0)])
        g = np.concatenate([g0, U[:, t0:].T @ d])
        return w, value, d, g
