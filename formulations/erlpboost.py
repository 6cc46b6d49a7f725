"""ERLPBoost: entropy-regularized LPBoost, thesis (3.6), its dual (3.10) and the map (3.11).

Primal (d-domain), thesis (3.6) in epigraph form::

    P^t(d) = max_q u^q . d + (1/eta) Delta(d, d0),   Delta(d, d0) = sum_n d_n ln(d_n / d0_n)
    min_{d, gamma} gamma + (1/eta) Delta(d, d0)
    s.t. U^T d <= gamma 1   (w),   d <= 1/nu   (psi),   sum(d) = 1   (beta)

Dual (w-domain), thesis (3.10), beta optimized out by (3.16)::

    Theta^t(w, psi) = -(1/eta) ln sum_n d0_n exp(-eta((U w)_n + psi_n)) - sum(psi)/nu
    max over w >= 0, sum(w) = 1, psi >= 0

Primal from dual (3.11): ``d = softmax(ln d0 - eta (U w + psi))``; beta (3.16):
``beta = -1/eta + (1/eta) ln sum_n d0_n exp(-eta((U w)_n + psi_n))``. With beta kept, the dual
function is (3.14): ``-(1/eta) sum d0 exp(-eta(Uw + psi + beta) - 1) - beta - sum(psi)/nu``.

Theory (thesis §3.2.5): eta = max((2/eps) ln(N/nu), 1/2); the simple rule stops within
T <= max(32 ln(N/nu)/eps^2, 8/eps) iterations (Thm 3.10), the practical one within
max(64 ln(N/nu)/eps^2, 16/eps) (Thm 3.12).

To swap the regularizer, copy this file and change ``regularizer`` (cvxpy), ``regularizer_value``
(numpy), ``regularizer_gradient`` and the closed forms that depend on it.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
from scipy.special import logsumexp, rel_entr

from dualboost.formulation import Certificate, DualModel, Formulation, PrimalModel
from dualboost.kkt import active_set_multipliers
from dualboost.projection import capped_entropic_projection


class ERLPBoost(Formulation):
    name = "erlpboost"
    kind = "exp"
    regularized = True
    theory = "entropy"
    equations = "thesis (3.6), (3.10), (3.11), (3.16); Algorithm 3.2"

    # -- the regularizer (1/eta) Delta(d, d0) ---------------------------------------------
    def regularizer(self, d: cp.Variable) -> cp.Expression:
        # sum d ln(d/d0) written as -entr(d) - ln(d0).d: the same function, but Clarabel and ECOS
        # solve this form reliably where rel_entr(d, d0) made them stall on some stump subsets
        return (-cp.sum(cp.entr(d)) - np.log(self.d0) @ d) / self.eta

    def regularizer_value(self, d: np.ndarray) -> float:
        return float(rel_entr(np.clip(d, 0.0, None), self.d0).sum()) / self.eta

    def regularizer_gradient(self, d: np.ndarray) -> np.ndarray:
        return (1.0 + np.log(np.maximum(d, 1e-300) / self.d0)) / self.eta

    # -- models ---------------------------------------------------------------------------
    def primal(self, U):
        U = self.check_columns(U)
        d = cp.Variable(self.N, nonneg=True, name="d")  # implicit in the entropy, explicit helps
        gamma = cp.Variable(name="gamma")
        edge = U.T @ d <= gamma
        cap = d <= 1.0 / self.nu if self.has_caps else None
        normalization = cp.sum(d) == 1
        constraints = [edge, normalization] + ([cap] if cap is not None else [])
        problem = cp.Problem(cp.Minimize(gamma + self.regularizer(d)), constraints)
        return PrimalModel(problem, d, gamma, edge, cap, normalization)

    def dual(self, U):
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True, name="w")
        psi = cp.Variable(self.N, nonneg=True, name="psi") if self.has_caps else None
        slack_margins = U @ w + (psi if psi is not None else 0)
        penalty = cp.sum(psi) / self.nu if psi is not None else 0
        smoothed_min = -cp.log_sum_exp(np.log(self.d0) - self.eta * slack_margins) / self.eta
        problem = cp.Problem(cp.Maximize(smoothed_min - penalty), [cp.sum(w) == 1])
        return DualModel(problem, w, psi, None, self.N)

    # -- numpy objectives and closed forms ----------------------------------------------
    def primal_objective(self, U, d):
        U = self.check_columns(U)
        max_edge = float((U.T @ d).max()) if U.shape[1] else -1.0
        return max_edge + self.regularizer_value(d)

    def _exponents(self, U, w, psi):
        return np.log(self.d0) - self.eta * (U @ w + psi)

    def dual_objective(self, U, w, psi, beta=None):
        U = self.check_columns(U)
        z = self._exponents(U, w, psi)
        if beta is None:  # (3.10)
            return float(-logsumexp(z) / self.eta - psi.sum() / self.nu)
        # (3.14)
        return float(-np.exp(z - self.eta * beta - 1.0).sum() / self.eta - beta
                     - psi.sum() / self.nu)

    def d_from_dual(self, U, w, psi, beta=None):
        """(3.11), or (3.13) when beta is given (then d sums to 1 only at the optimal beta)."""
        U = self.check_columns(U)
        z = self._exponents(U, w, psi)
        if beta is not None:
            return np.exp(z - self.eta * beta - 1.0)
        return np.exp(z - logsumexp(z))

    def optimal_beta(self, U, w, psi) -> float:
        """(3.16)."""
        return float((-1.0 + logsumexp(self._exponents(self.check_columns(U), w, psi))) / self.eta)

    def best_response(self, U, w):
        """Exact psi for fixed w: the capped entropic projection of ``d0 exp(-eta U w)``."""
        U = self.check_columns(U)
        log_a = np.log(self.d0) - self.eta * (U @ w)
        proj = capped_entropic_projection(log_a, self.nu)
        psi = np.zeros(self.N)
        psi[proj.capped] = (np.log(self.nu) + proj.log_scale + log_a[proj.capped]) / self.eta
        psi = np.maximum(psi, 0.0)
        beta = (-1.0 - proj.log_scale) / self.eta
        return Certificate(w=w, psi=psi, beta=beta, d=proj.d,
                           primal_value=self.primal_objective(U, proj.d),
                           dual_value=self.dual_objective(U, w, psi))

    def recover_dual(self, U, d, tol=1e-6):
        U = self.check_columns(U)
        d = np.asarray(d, dtype=float)
        return active_set_multipliers(U, d, -self.regularizer_gradient(d), self.nu, tol=tol,
                                      explicit_nonnegativity=False,
                                      row_weights=np.clip(d, 0.0, None) / d.max())

    # -- theory -----------------------------------------------------------------------------
    @classmethod
    def default_eta(cls, N, nu, eps):
        """Theorem 3.10: eta = max((2/eps) ln(N/nu), 1/2)."""
        return max(2.0 / eps * math.log(N / nu), 0.5)

    @classmethod
    def iteration_bound(cls, N, nu, eps, stopping="simple"):
        """Theorem 3.10 (simple) and Theorem 3.12 (practical)."""
        factor = 1 if stopping == "simple" else 2
        return max(factor * 32 * math.log(N / nu) / eps**2, factor * 8 / eps)


FORMULATION = ERLPBoost
