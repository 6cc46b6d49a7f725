"""SoftBoost: the relative-entropy projection with an edge bound, thesis (3.1)-(3.4), Algorithm 3.1.

Primal (d-domain), the master problem (3.1) of iteration t, with c = gamma_hat_t - eps the
``edge_bound`` (the softboost algorithm sets it each iteration, thesis Algorithm 3.1 step (b))::

    min_d  Delta(d, d0) = sum_n d_n ln(d_n / d0_n)
    s.t.   U^T d <= c 1     (w >= 0)
           d <= 1/nu        (psi >= 0; not modelled at nu = 1)
           sum(d) = 1       (beta)
           d >= 0

Dual (w-domain), from the Lagrangian (3.3); stationarity (3.4) gives
``d_n = d0_n exp(-(U w)_n - psi_n - beta - 1)``, so::

    Theta_S(w, psi, beta) = -sum_n d0_n exp(-(U w)_n - psi_n - beta - 1) - beta
                            - c sum(w) - sum(psi)/nu,          w >= 0, psi >= 0, beta free

and with the optimal beta = -1 + ln sum_n d0_n exp(-(U w)_n - psi_n) eliminated::

    Theta_S(w, psi) = -ln sum_n d0_n exp(-(U w)_n - psi_n) - c sum(w) - sum(psi)/nu

The thesis's Lemma 3.1 prints two errors here (docs/theory.md): there is **no** constraint
sum(w) = 1 (w is unnormalized) and **no** eta (SoftBoost has none). The primal point of a dual
point is (3.2), ``d proportional to d0 exp(-U w - psi)``. Slater's condition needs a feasible d
with all d_n > 0 (d0 itself is generally infeasible); when (3.1) is infeasible the dual is
unbounded, which is how Algorithm 3.1 terminates (the algorithm decides it before solving, from
the LP value (2.3) of the columns). TotalBoost is the case nu = 1 (formulations/totalboost.py).
"""

from __future__ import annotations

import math
from typing import Any

import cvxpy as cp
import numpy as np
from scipy import sparse
from scipy.optimize import linprog
from scipy.special import logsumexp, rel_entr

from dualboost.errors import DualBoostInputError
from dualboost.formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from dualboost.kkt import KKTBlock, KKTSystem
from dualboost.params import D0, EPS, NU, Param
from dualboost.projection import capped_entropic_projection, euclidean_capped_projection

#: feasibility tolerance of a primal point (sum, bounds, caps and edge constraints)
PRIMAL_TOL = 1e-9

EDGE_BOUND = Param(
    "edge_bound", "the edge bound c = gamma_hat_t - eps of (3.1): U^T d <= c (set by the "
    "softboost algorithm at every iteration)", default=None,
    default_text="set by the algorithm")


class SoftBoost(Formulation):
    name = "softboost"
    summary = "SoftBoost: relative-entropy projection under the edge bound gamma_hat - eps"
    equations = "thesis (3.1), (3.2), (3.3), (3.4); Lemma 3.1 (corrected); Algorithm 3.1"
    params = (NU, EPS, D0, EDGE_BOUND)
    capabilities = Capabilities(
        strictly_convex=True, cones=("exp",),
        closed_forms=("primal_objective", "dual_objective", "d_from_dual", "optimal_beta",
                      "best_response"), primal_form="projection")
    default_algorithm = "softboost"

    # -- helpers ----------------------------------------------------------------------------
    @property
    def has_caps(self) -> bool:
        return self.nu > 1

    def _bound(self) -> float:
        if self.edge_bound is None:
            raise DualBoostInputError(
                f"formulation {self.name!r} needs its edge bound gamma_hat - eps (thesis (3.1)); "
                "the softboost algorithm sets it each iteration; for a standalone solve pass "
                "edge_bound=... (e.g. from standalone_params(U))")
        return float(self.edge_bound)

    def _slack_margins(self, U: np.ndarray, point) -> np.ndarray:
        """U w + psi (psi only where the caps are modelled)."""
        s = U @ np.asarray(point["w"], dtype=float).reshape(-1)
        psi = point.get("psi")
        if psi is not None and self.has_caps:
            s = s + np.asarray(psi, dtype=float)
        return s

    def _penalty(self, point) -> float:
        psi = point.get("psi")
        return float(np.sum(psi)) / self.nu if (psi is not None and self.has_caps) else 0.0

    @classmethod
    def standalone_params(cls, U: np.ndarray, **params: Any) -> dict[str, Any]:
        """An edge bound that makes (3.1) strictly feasible on U: midway between the LP value
        P_LP of (2.3) on U (the smallest feasible edge bound) and the largest edge of d0 (above
        which d0 itself is optimal). ``params`` may give nu and d0 (defaults 1 and uniform).
        When the two coincide (e.g. nu = N) the bound is put above d0's largest edge: then d0
        is the unique solution (w = 0), the only strictly feasible choice."""
        from formulations.lpboost import LPBoost

        U = np.asarray(U, dtype=float)
        if U.ndim == 1:
            U = U[:, None]
        N = U.shape[0]
        nu = params.get("nu") or 1.0
        d0 = params.get("d0")
        d0 = np.full(N, 1.0 / N) if d0 is None else np.asarray(d0, dtype=float)
        _, cert, _ = LPBoost(N, nu=nu).solve_primal(U, 1e-9)
        p_lp = cert.primal_value
        top = float((U.T @ d0).max())
        if top - p_lp > 1e-6:
            return {"edge_bound": 0.5 * (p_lp + top)}
        return {"edge_bound": top + 0.5}

    # -- the declared math ------------------------------------------------------------------
    def primal(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        bound = self._bound()
        d = cp.Variable(self.N, nonneg=True, name="d")
        constraints = {"w": U.T @ d <= bound}
        if self.has_caps:
            constraints["psi"] = d <= 1.0 / self.nu
        constraints["beta"] = cp.sum(d) == 1
        # Delta(d, d0) written as -entr(d) - ln(d0).d (the form the exp-cone solvers handle
        # reliably; see formulations/erlpboost.py)
        objective = -cp.sum(cp.entr(d)) - np.log(self.d0) @ d
        problem = cp.Problem(cp.Minimize(objective), list(constraints.values()))
        absent = {} if self.has_caps else {"psi": np.zeros(self.N)}
        return Model(problem, {"d": d}, constraints, absent)

    def dual(self, U: np.ndarray) -> Model:
        U = self.check_columns(U)
        bound = self._bound()
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        beta = cp.Variable(name="beta")
        variables = {"w": w}
        s = U @ w + beta + 1
        penalty = 0
        if self.has_caps:
            psi = cp.Variable(self.N, nonneg=True, name="psi")
            variables["psi"] = psi
            s = s + psi
            penalty = cp.sum(psi) / self.nu
        variables["beta"] = beta
        objective = -self.d0 @ cp.exp(-s) - beta - bound * cp.sum(w) - penalty
        absent = {} if self.has_caps else {"psi": np.zeros(self.N)}
        return Model(cp.Problem(cp.Maximize(objective)), variables, {}, absent)

    def primal_objective(self, U: np.ndarray, d: np.ndarray) -> float:
        """Delta(d, d0) at a feasible d; inf beyond PRIMAL_TOL of the feasible set of (3.1)."""
        U = self.check_columns(U)
        bound = self._bound()
        d = np.asarray(d, dtype=float)
        if abs(d.sum() - 1) > PRIMAL_TOL or d.min() < -PRIMAL_TOL or \
                d.max() > 1.0 / self.nu + PRIMAL_TOL:
            return math.inf
        if U.shape[1] and float((U.T @ d).max()) > bound + PRIMAL_TOL:
            return math.inf
        return float(rel_entr(np.clip(d, 0.0, None), self.d0).sum())

    def primal_feasible(self, d: np.ndarray) -> np.ndarray:
        """Exactly on the capped simplex (the edge constraints are kept within PRIMAL_TOL)."""
        return euclidean_capped_projection(np.asarray(d, dtype=float), self.nu)

    def certify(self, U: np.ndarray, point, d: np.ndarray | None = None, *,
                anchor: np.ndarray | None = None) -> Certificate:
        """The generic bracket, sharpened in two ways (both keep it exact):

        * the solver's w is Newton-polished (:meth:`polish`) and its best response replaces the
          dual point when Theta_S is higher; its d(w) joins the primal candidates. Interior-point
          solvers return (3.1)'s d and w good to ~1e-6 only (the unnormalized w reaches the
          hundreds near termination), which alone cannot close a 1e-8 gap;
        * the primal point is made *exactly* feasible for the edge constraints: a solver's d
          violates the active ones by ~1e-12. d is mixed with the LP point of (2.3) (edges <=
          P_LP < c) just enough to satisfy every edge; by convexity Delta rises by at most
          theta Delta(d_LP, d0), theta ~ the violation. ``anchor`` may give that point (a
          capped distribution whose edges are all below c, e.g. the algorithm's LP solution of
          this iteration); otherwise it is solved for when needed.
        """
        U = self.check_columns(U)
        cert = super().certify(U, point, d)
        candidates = [cert.d] if cert.d is not None else []
        polished = self.best_response(U, self.polish(U, cert.w))
        if polished.dual_value > cert.dual_value:
            cert.point, cert.dual_value = polished.point, polished.dual_value
        # d(w) is on the capped simplex up to round-off already; the Euclidean projection
        # (primal_feasible) would clip its tiny entries (1e-30 near termination) to exact zeros
        candidates.append(polished.d)
        best_d, best_value = cert.d, math.inf
        anchors: dict = {}
        if anchor is not None:
            anchor = euclidean_capped_projection(np.asarray(anchor, dtype=float), self.nu)
            if (U.T @ anchor).max() < self._bound():
                anchors["d"] = anchor
        for candidate in candidates:
            repaired = self._edge_feasible(U, candidate, anchors)
            candidate = candidate if repaired is None else repaired
            value = self.primal_objective(U, candidate)
            if value < best_value:
                best_d, best_value = candidate, value
        cert.d, cert.primal_value = best_d, best_value
        return cert

    def _edge_feasible(self, U: np.ndarray, d: np.ndarray, anchors: dict) -> np.ndarray | None:
        """d mixed with a strictly edge-feasible anchor so that U^T d <= c holds exactly; None
        when d already satisfies it or no anchor exists (P_LP >= c). ``anchors`` caches the
        anchor (the LP point of (2.3) on U) between calls."""
        bound = self._bound()
        edges = U.T @ d
        if not U.shape[1] or edges.max() <= bound:
            return None
        if "d" not in anchors:
            anchors["d"] = None
            N, t = U.shape
            sol = linprog(np.r_[np.zeros(N), 1.0], A_ub=np.hstack([U.T, -np.ones((t, 1))]),
                          b_ub=np.zeros(t), A_eq=np.r_[np.ones(N), 0.0][None, :], b_eq=[1.0],
                          bounds=[(0.0, 1.0 / self.nu)] * N + [(None, None)], method="highs")
            if sol.status == 0:
                anchor = euclidean_capped_projection(sol.x[:N], self.nu)
                if (U.T @ anchor).max() < bound:
                    anchors["d"] = anchor
        anchor = anchors["d"]
        if anchor is None:
            return None
        anchor_edges = U.T @ anchor
        over = edges > bound
        theta = float(np.max((edges[over] - bound) / (edges[over] - anchor_edges[over])))
        for _ in range(60):  # guard against round-off in the mixture
            theta = min(1.0, theta * 1.01 + 1e-15)
            mixed = (1.0 - theta) * d + theta * anchor
            if (U.T @ mixed).max() <= bound:
                return mixed
        return None

    def polish(self, U: np.ndarray, w: np.ndarray, iterations: int = 50) -> np.ndarray:
        """Projected Newton ascent on the dual function Theta_S(w) (psi and beta maximized out)
        over w >= 0, from a solver's w. By Danskin its gradient is ``g = U^T d(w) - c`` with d(w)
        the capped projection of ``d0 exp(-U w)`` (:meth:`best_response`), and its Hessian is
        ``-U_F^T (diag(d_F) - d_F d_F^T / m) U_F`` on the uncapped examples F (mass m). The free
        set is {q : w_q > 0 or g_q > 0}; a step is kept when Theta_S rises or, once the rise is
        below round-off, when the KKT residual (|g_q| on w_q > 0, max(g_q, 0) on w_q = 0) falls.
        Interior-point solvers return (3.1)'s d and w good to ~1e-6 (relative); a few steps
        bring the active edges to c within round-off, so d(w) is the master's solution."""
        U = self.check_columns(U)
        c = self._bound()
        w = np.clip(np.asarray(w, dtype=float).reshape(-1), 0.0, None)
        cap = self.nu if self.has_caps else 1.0
        log_d0 = np.log(self.d0)

        def state(w):
            proj = capped_entropic_projection(log_d0 - U @ w, cap)
            d = proj.d
            theta = float(rel_entr(d, self.d0).sum() + d @ (U @ w) - c * w.sum())
            return proj, U.T @ d - c, theta

        def kkt_residual(w, g):
            return float(np.abs(np.where(w > 0, g, np.maximum(g, 0.0))).max(initial=0.0))

        w[w <= 1e-12 * max(1.0, float(w.max(initial=0.0)))] = 0.0
        proj, g, theta = state(w)
        for _ in range(iterations):
            residual = kkt_residual(w, g)
            free = np.flatnonzero((w > 0) | (g > 0))
            if free.size == 0 or residual <= 1e-15:
                break
            d_free = proj.d[~proj.capped]
            U_free = U[~proj.capped][:, free]
            moment = U_free.T @ d_free
            H = U_free.T @ (d_free[:, None] * U_free) - np.outer(moment, moment) / d_free.sum()
            step = np.linalg.lstsq(H, g[free], rcond=1e-14)[0]
            alpha, accepted = 1.0, False
            for _ in range(50):
                trial = w.copy()
                trial[free] = np.maximum(w[free] + alpha * step, 0.0)
                trial_proj, trial_g, trial_theta = state(trial)
                noise = 1e-14 * (1.0 + abs(theta))
                if trial_theta > theta + noise or (
                        trial_theta >= theta - noise and kkt_residual(trial, trial_g) < residual):
                    w, proj, g, theta, accepted = trial, trial_proj, trial_g, trial_theta, True
                    break
                alpha /= 2
            if not accepted:
                break
        return w

    def fast_master(self):
        """Projected Newton on Theta_S from the previous w, certified by :meth:`certify`
        (:mod:`dualboost.masters.softboost_newton`, path "projected-newton")."""
        from dualboost.masters.softboost_newton import SoftBoostNewtonMaster

        return SoftBoostNewtonMaster(self)

    def kkt_system(self, U: np.ndarray, d: np.ndarray) -> KKTSystem:
        """The active-set system of (3.1) at d in numpy (thesis (3.4) as stationarity):
        ``1 + ln(d / d0) + U w + psi + beta 1 - mu = 0`` over x = d, the blocks U^T d <= c (w),
        d <= 1/nu (psi), sum(d) = 1 (beta). Check K3 compares it with the system from the cvxpy
        model's gradients."""
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        N = self.N
        blocks = {"w": KKTBlock(U, U.T @ d - self._bound(), equality=False)}
        if self.has_caps:
            blocks["psi"] = KKTBlock(sparse.identity(N, format="csc"), d - 1.0 / self.nu,
                                     equality=False)
        blocks["beta"] = KKTBlock(sparse.csc_array(np.ones((N, 1))), np.array([d.sum() - 1.0]),
                                  equality=True, scalar=True)
        gradient = 1.0 + np.log(np.maximum(d, 1e-300) / self.d0)
        weights = self.kkt_row_weights(d)
        return KKTSystem(gradient, blocks, {"d": (np.arange(N), d)},
                         np.ones(N) if weights is None else np.clip(weights, 0.0, 1.0),
                         {} if self.has_caps else {"psi": np.zeros(N)})

    # -- closed forms -----------------------------------------------------------------------
    def dual_feasible(self, U: np.ndarray, point) -> Multipliers:
        """Clip w and psi at 0; w is NOT normalized (erratum to Lemma 3.1)."""
        out = Multipliers(w=np.clip(np.asarray(point["w"], dtype=float).reshape(-1), 0.0, None))
        if self.has_caps:
            psi = point.get("psi")
            out["psi"] = np.zeros(self.N) if psi is None else \
                np.clip(np.asarray(psi, dtype=float).reshape(-1), 0.0, None)
        if point.get("beta") is not None:
            out["beta"] = float(point["beta"])
        return out

    def optimal_beta(self, U: np.ndarray, point) -> float:
        """beta = -1 + ln sum_n d0_n exp(-(U w)_n - psi_n) (the beta of Lemma 3.1's proof)."""
        s = self._slack_margins(self.check_columns(U), point)
        return float(-1.0 + logsumexp(-s, b=self.d0))

    def dual_value(self, U: np.ndarray, point, beta: float) -> float:
        """Theta_S(w, psi, beta) from (3.3)/(3.4), in numpy."""
        s = self._slack_margins(U, point)
        w = np.asarray(point["w"], dtype=float)
        return float(-math.exp(logsumexp(-s - beta - 1.0, b=self.d0)) - beta
                     - self._bound() * w.sum() - self._penalty(point))

    def dual_objective(self, U: np.ndarray, point) -> float:
        """Theta_S at a dual point; a missing beta (or psi) is maximized out in closed form."""
        U = self.check_columns(U)
        w = np.asarray(point["w"], dtype=float).reshape(-1)
        psi = point.get("psi")
        if w.min(initial=0.0) < -1e-12 or (psi is not None and self.has_caps
                                           and np.min(psi, initial=0.0) < -1e-12):
            return -math.inf
        if psi is None and self.has_caps:
            return self.best_response(U, w).dual_value
        beta = point.get("beta")
        if beta is not None:
            return self.dual_value(U, point, float(beta))
        s = self._slack_margins(U, point)
        return float(-logsumexp(-s, b=self.d0) - self._bound() * w.sum() - self._penalty(point))

    def d_from_dual(self, U: np.ndarray, point) -> np.ndarray:
        """(3.4) ``d0 exp(-U w - psi - beta - 1)`` with the given beta; (3.2) without it."""
        U = self.check_columns(U)
        s = self._slack_margins(U, point)
        beta = point.get("beta")
        if beta is not None:
            return self.d0 * np.exp(-s - float(beta) - 1.0)
        log_d = np.log(self.d0) - s
        return np.exp(log_d - logsumexp(log_d))

    def best_response(self, U: np.ndarray, w: np.ndarray) -> Certificate:
        """psi and beta maximized for fixed w: the inner minimization of the Lagrangian (3.3)
        over the capped simplex is the capped entropic projection of ``d0 exp(-U w)``; psi is
        read off the capped examples (ERLPBoost's rule with eta = 1)."""
        U = self.check_columns(U)
        w = np.asarray(w, dtype=float).reshape(-1)
        log_a = np.log(self.d0) - U @ w
        proj = capped_entropic_projection(log_a, self.nu if self.has_caps else 1.0)
        psi = np.zeros(self.N)
        if self.has_caps:
            psi[proj.capped] = np.log(self.nu) + proj.log_scale + log_a[proj.capped]
            psi = np.maximum(psi, 0.0)
        beta = -1.0 - proj.log_scale
        point = Multipliers(w=w, psi=psi, beta=beta)
        return Certificate(point, proj.d, self.primal_objective(U, proj.d),
                           self.dual_objective(U, Multipliers(w=w, psi=psi)))


FORMULATION = SoftBoost
