"""ERLPBoost Lagrangian duality: Lemma 3.6 (3.10)-(3.16), the value identity, and §3.2.6.

Checks
------
* :func:`check_erlpboost_dual_derivation` -- sympy derivation of (3.13), (3.14), (3.16) and
  (3.10)/(3.11) from the Lagrangian (3.12) on a small symbolic instance.
* :func:`check_erlpboost_value_identity` -- ``P^t(d^t) = -1/eta - beta^t - (1/nu) sum psi^t``
  and strong duality ``min P^t = max Theta_hat^t`` on a numeric instance (SLSQP both sides).
* :func:`check_unnormalized_dual` -- Lemma 3.13: the optimal beta of (3.19) and the reduction
  of Theta_hat_U to Theta_hat (3.10).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.optimize import minimize
from scipy.special import logsumexp

from .result import CheckResult, Comparisons, summarize_methods

__all__ = [
    "check_erlpboost_dual_derivation",
    "check_erlpboost_value_identity",
    "check_unnormalized_dual",
    "d_from_dual",
    "erlpboost_primal_slsqp",
    "erlpboost_dual_slsqp",
    "kkt_multipliers",
    "primal_value",
    "theta_hat",
]

# --------------------------------------------------------------------------------------------
# symbolic instance
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _SymInstance:
    N: int
    t: int
    u: sp.Matrix  # N x t, u[n, q] = u^q_n
    d0: tuple[sp.Symbol, ...]
    psi: tuple[sp.Symbol, ...]
    w: tuple[sp.Symbol, ...]
    d: tuple[sp.Symbol, ...]
    beta: sp.Symbol
    gamma: sp.Symbol
    eta: sp.Symbol
    nu: sp.Symbol

    def margins(self) -> list[sp.Expr]:
        """s_n = sum_q u^q_n w_q."""
        return [sum(self.u[n, q] * self.w[q] for q in range(self.t)) for n in range(self.N)]

    def w_on_simplex(self) -> dict[sp.Symbol, sp.Expr]:
        """Substitution enforcing 1.w = 1 (w_t = 1 - sum_{q<t} w_q)."""
        return {self.w[-1]: 1 - sum(self.w[:-1])}

    def domains(self) -> dict[sp.Symbol, tuple[float, float]]:
        dom: dict[sp.Symbol, tuple[float, float]] = {}
        for s in self.u:
            dom[s] = (-1, 1)
        for s in self.d0:
            dom[s] = (sp.Rational(1, 20), 1)
        for s in self.psi:
            dom[s] = (0, 1)
        for s in self.w:
            dom[s] = (0, 1)
        for s in self.d:
            dom[s] = (sp.Rational(1, 50), 1)
        dom[self.beta] = (-2, 2)
        dom[self.gamma] = (-1, 1)
        dom[self.eta] = (sp.Rational(1, 2), 6)
        dom[self.nu] = (1, 3)
        return dom


def _sym_instance(N: int, t: int) -> _SymInstance:
    return _SymInstance(
        N=N,
        t=t,
        u=sp.Matrix(N, t, lambda n, q: sp.Symbol(f"u_{n + 1}{q + 1}", real=True)),
        d0=tuple(sp.Symbol(f"d0_{n + 1}", positive=True) for n in range(N)),
        psi=tuple(sp.Symbol(f"psi_{n + 1}", nonnegative=True) for n in range(N)),
        w=tuple(sp.Symbol(f"w_{q + 1}", real=True) for q in range(t)),
        d=tuple(sp.Symbol(f"d_{n + 1}", positive=True) for n in range(N)),
        beta=sp.Symbol("beta", real=True),
        gamma=sp.Symbol("gamma", real=True),
        eta=sp.Symbol("eta", positive=True),
        nu=sp.Symbol("nu", positive=True),
    )


@dataclass(frozen=True)
class _Derivation:
    inst: _SymInstance
    dL_dgamma: sp.Expr
    d_star: tuple[sp.Expr, ...]  # solution of dL/dd_n = 0        (3.13)
    theta: sp.Expr  # L at d_star with 1.w = 1                      (3.14)
    beta_star: sp.Expr  # argmax_beta Theta                          (3.16)
    d2theta_dbeta2: sp.Expr
    dtheta_at_beta_star: sp.Expr  # must be 0 (solve ran with check=False)
    d_at_beta_star: tuple[sp.Expr, ...]  # (3.13) at beta_star       (3.11)
    theta_hat: sp.Expr  # Theta at beta_star                          (3.10)


@lru_cache(maxsize=4)
def _stationary_d(lagrangian: sp.Expr, d: tuple) -> list:
    """Solve dL/dd_n = 0 for each d_n; each must have exactly one solution."""
    d_star = []
    for n, d_n in enumerate(d):
        sols = sp.solve(sp.Eq(sp.diff(lagrangian, d_n), 0), d_n, check=False, simplify=False)
        if len(sols) != 1:
            raise RuntimeError(f"dL/dd_{n + 1} = 0 has {len(sols)} solutions: {sols}")
        d_star.append(sols[0])
    return d_star


def _derive_erlpboost_dual(N: int = 3, t: int = 2) -> _Derivation:
    """Carry out the proof of Lemma 3.6 with sympy (nothing from the thesis is plugged in)."""
    I = _sym_instance(N, t)
    eta, nu, beta, gamma = I.eta, I.nu, I.beta, I.gamma
    # Lagrangian (3.12)
    L = (
        gamma
        + sum(I.d[n] * sp.log(I.d[n] / I.d0[n]) for n in range(N)) / eta
        + sum(I.w[q] * (sum(I.u[n, q] * I.d[n] for n in range(N)) - gamma) for q in range(t))
        + sum(I.psi[n] * (I.d[n] - 1 / nu) for n in range(N))
        + beta * (sum(I.d) - 1)
    )
    dL_dgamma = sp.diff(L, gamma)
    d_star = _stationary_d(L, I.d)
    # plug in, enforce 1.w = 1 (gamma must then drop out)
    theta = L.subs(dict(zip(I.d, d_star)), simultaneous=True).subs(I.w_on_simplex())
    theta = sp.expand(sp.expand_log(theta, force=True))
    # maximize over beta
    dtheta = sp.diff(theta, beta)
    sols = sp.solve(sp.Eq(dtheta, 0), beta, check=False, simplify=False)
    real_sols = [s for s in sols if s.is_real is not False]
    if len(real_sols) != 1:
        raise RuntimeError(f"dTheta/dbeta = 0 has real solutions {real_sols}")
    beta_star = real_sols[0]
    d2 = sp.diff(theta, beta, 2)
    d_at_beta = tuple(
        sp.simplify(ds.subs(I.w_on_simplex()).subs(beta, beta_star)) for ds in d_star
    )
    theta_hat = sp.expand(sp.expand_log(theta.subs(beta, beta_star), force=True))
    return _Derivation(
        I, dL_dgamma, tuple(d_star), theta, beta_star, d2, dtheta.subs(beta, beta_star),
        d_at_beta, theta_hat,
    )


def check_erlpboost_dual_derivation(psi_sign: int = 1, N: int = 3, t: int = 2) -> CheckResult:
    """Lemma 3.6: derive the ERLPBoost dual from the Lagrangian (3.12) with sympy.

    On a symbolic instance (``N`` examples, ``t`` hypotheses, symbols u_{n,q}, d0_n, eta, psi_n,
    beta, w_q) the derivation solves dL/dd_n = 0 and compares with (3.13); substitutes back with
    1.w = 1 and compares with Theta^t (3.14); solves dTheta/dbeta = 0 and compares with (3.16)
    (and checks d^2Theta/dbeta^2 < 0); substitutes again and compares with (3.11) and Theta_hat
    (3.10).  ``psi_sign`` is the sign of psi_n inside the exponent of the *reference* (3.11) and
    (3.10); the thesis prints -psi in its proof (erratum #16), which must make this check fail.
    """
    name = "ERLPBoost dual derivation"
    ref = "thesis (3.10)-(3.16), Lemma 3.6; erratum #16"
    D = _derive_erlpboost_dual(N, t)
    I = D.inst
    eta, nu, beta = I.eta, I.nu, I.beta
    dom = I.domains()
    s = I.margins()
    s_simplex = [sp.expand(x.subs(I.w_on_simplex())) for x in s]
    cmp = Comparisons(dom)
    methods, failures = cmp.methods, cmp.failures

    # dL/dgamma = 1 - 1.w
    cmp("dL/dgamma", D.dL_dgamma, 1 - sum(I.w))
    # (3.13)
    for n in range(N):
        ref313 = I.d0[n] * sp.exp(-eta * s[n] - eta * I.psi[n] - eta * beta - 1)
        cmp(f"(3.13) d_{n + 1}", D.d_star[n], ref313)
    # gamma dropped out
    if D.theta.has(I.gamma):
        failures.append("gamma did not vanish from Theta after 1.w = 1")
    # (3.14)
    ref314 = (
        -sum(
            I.d0[n] * sp.exp(-eta * s_simplex[n] - eta * I.psi[n] - eta * beta - 1)
            for n in range(N)
        )
        / eta
        - beta
        - sum(I.psi) / nu
    )
    cmp("(3.14) Theta", D.theta, ref314)
    # (3.16) and concavity in beta
    Z = sum(I.d0[n] * sp.exp(-eta * s_simplex[n] - eta * I.psi[n]) for n in range(N))
    cmp("(3.16) beta", D.beta_star, -1 / eta + sp.log(Z) / eta)
    cmp("dTheta/dbeta(beta*) = 0", D.dtheta_at_beta_star, sp.Integer(0))
    exps = sum(
        I.d0[n] * sp.exp(-eta * s_simplex[n] - eta * I.psi[n] - eta * beta - 1) for n in range(N)
    )
    # d2Theta/dbeta2 = -eta * (a sum of positive terms) < 0
    cmp("d2Theta/dbeta2", D.d2theta_dbeta2, -eta * exps)
    # (3.11) and (3.10) with the reference's psi sign
    ex = [sp.exp(-eta * (s_simplex[n] + psi_sign * I.psi[n])) for n in range(N)]
    Zs = sum(I.d0[n] * ex[n] for n in range(N))
    for n in range(N):
        cmp(f"(3.11) d_{n + 1}", D.d_at_beta_star[n], I.d0[n] * ex[n] / Zs)
    cmp("(3.10) Theta_hat", D.theta_hat, -sp.log(Zs) / eta - sum(I.psi) / nu)

    how = summarize_methods(methods)
    if failures:
        return CheckResult(name, ref, False, f"N={N}, t={t}; FAILED: " + "; ".join(failures))
    return CheckResult(name, ref, True, f"N={N}, t={t}; {how}")


# --------------------------------------------------------------------------------------------
# numeric ERLPBoost instance (used by several checks)
# --------------------------------------------------------------------------------------------


def theta_hat(U: np.ndarray, w: np.ndarray, psi: np.ndarray, eta: float, nu: float,
              d0: np.ndarray | None = None) -> float:
    """Theta_hat^t(w, psi) of (3.10), evaluated stably with logsumexp."""
    N = U.shape[0]
    d0 = np.full(N, 1.0 / N) if d0 is None else d0
    z = np.log(d0) - eta * (U @ w + psi)
    return float(-logsumexp(z) / eta - psi.sum() / nu)


def d_from_dual(U: np.ndarray, w: np.ndarray, psi: np.ndarray, eta: float,
                d0: np.ndarray | None = None, psi_sign: float = 1.0) -> np.ndarray:
    """d^t of (3.11) from dual variables (w, psi) (``psi_sign=-1`` is the erratum #16 form)."""
    N = U.shape[0]
    d0 = np.full(N, 1.0 / N) if d0 is None else d0
    z = np.log(d0) - eta * (U @ w + psi_sign * psi)
    return np.exp(z - logsumexp(z))


def primal_value(U: np.ndarray, d: np.ndarray, eta: float, d0: np.ndarray | None = None) -> float:
    """P^t(d) = max_q u^q.d + (1/eta) Delta(d, d0)   (3.6), with 0 ln 0 = 0."""
    N = U.shape[0]
    d0 = np.full(N, 1.0 / N) if d0 is None else d0
    pos = d > 0
    rel = float(np.sum(d[pos] * np.log(d[pos] / d0[pos])))
    return float(np.max(U.T @ d) + rel / eta)


def erlpboost_primal_slsqp(U: np.ndarray, eta: float, nu: float) -> np.ndarray:
    """Solve the epigraph form of (3.6) with SLSQP (uniform d0); returns d^t."""
    N, t = U.shape
    lnN = np.log(N)

    def f(x: np.ndarray) -> float:
        d = x[:N]
        return float(x[N] + np.sum(d * (np.log(d) + lnN)) / eta)

    def g(x: np.ndarray) -> np.ndarray:
        out = np.empty(N + 1)
        out[:N] = (np.log(x[:N]) + lnN + 1) / eta
        out[N] = 1.0
        return out

    cons = [
        {"type": "ineq", "fun": lambda x: x[N] - U.T @ x[:N],
         "jac": lambda x: np.hstack([-U.T, np.ones((t, 1))])},
        {"type": "eq", "fun": lambda x: np.sum(x[:N]) - 1.0,
         "jac": lambda x: np.hstack([np.ones(N), 0.0])},
    ]
    x0 = np.hstack([np.full(N, 1.0 / N), np.max(U.T @ np.full(N, 1.0 / N))])
    bounds = [(1e-14, 1.0 / nu)] * N + [(None, None)]
    res = minimize(f, x0, jac=g, constraints=cons, bounds=bounds, method="SLSQP",
                   options={"ftol": 1e-15, "maxiter": 2000})
    d = np.clip(res.x[:N], 0, None)
    return d / d.sum()


def erlpboost_dual_slsqp(U: np.ndarray, eta: float, nu: float) -> tuple[np.ndarray, np.ndarray]:
    """Maximize Theta_hat (3.10) over w in the simplex, psi >= 0 with SLSQP (uniform d0)."""
    N, t = U.shape

    def f(x: np.ndarray) -> float:
        return -theta_hat(U, x[:t], x[t:], eta, nu)

    def g(x: np.ndarray) -> np.ndarray:
        d = d_from_dual(U, x[:t], x[t:], eta)
        # dTheta_hat/dw_q = u^q.d ;  dTheta_hat/dpsi_n = d_n - 1/nu
        return -np.hstack([U.T @ d, d - 1.0 / nu])

    cons = [{"type": "eq", "fun": lambda x: np.sum(x[:t]) - 1.0,
             "jac": lambda x: np.hstack([np.ones(t), np.zeros(N)])}]
    x0 = np.hstack([np.full(t, 1.0 / t), np.zeros(N)])
    bounds = [(0.0, None)] * (t + N)
    res = minimize(f, x0, jac=g, constraints=cons, bounds=bounds, method="SLSQP",
                   options={"ftol": 1e-15, "maxiter": 2000})
    w = np.clip(res.x[:t], 0, None)
    return w / w.sum(), np.clip(res.x[t:], 0, None)


def _numeric_instance(seed: int = 3, N: int = 8, t: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, size=(N, t))


def kkt_multipliers(U: np.ndarray, d: np.ndarray, eta: float, nu: float,
                    tol: float = 1e-6) -> tuple[np.ndarray, np.ndarray, float]:
    """Recover (w, psi, beta) from a primal solution d^t via the §3.2.4 linear system.

    With the active sets A_w = {q : u^q.d = gamma} and A_psi = {n : d_n = 1/nu}, solve (least
    squares)  sum_{A_w} w_q = 1  and  sum_{A_w} w_q u^q + sum_{A_psi} psi_n e_n + beta 1 =
    -(1/eta)(1 + ln(d/d0))  (the d-gradient of the Lagrangian (3.12) set to 0; uniform d0).
    """
    N, t = U.shape
    edges = U.T @ d
    A_w = np.flatnonzero(edges >= edges.max() - tol)
    A_psi = np.flatnonzero(d >= 1.0 / nu - tol)
    k, m = len(A_w), len(A_psi)
    A = np.zeros((N + 1, k + m + 1))
    b = np.zeros(N + 1)
    A[0, :k] = 1.0
    b[0] = 1.0
    A[1:, :k] = U[:, A_w]
    A[1 + A_psi, k + np.arange(m)] = 1.0
    A[1:, -1] = 1.0
    b[1:] = -(1.0 + np.log(d * N)) / eta
    x = np.linalg.lstsq(A, b, rcond=None)[0]
    w = np.zeros(t)
    w[A_w] = x[:k]
    psi = np.zeros(N)
    psi[A_psi] = x[k:k + m]
    return w, psi, float(x[-1])


def check_erlpboost_value_identity(beta_shift: float = 0.0, tol: float = 1e-6) -> CheckResult:
    """Value identity P^t(d^t) = -1/eta - beta^t - (1/nu) sum psi^t  (from (3.12), (3.13)).

    On a random instance (N=8, t=3, nu=3, eta=4, uniform d0, one cap active) the primal (3.6)
    and the dual (3.10) are solved independently with SLSQP.  Then

    * (w, psi, beta) are recovered from the *primal* d^t by the KKT system of §3.2.4, and the
      identity is checked with these multipliers;
    * it is checked again with the *dual* (w^t, psi^t) and beta^t from (3.16) (this one is
      strong duality P^t(d^t) = Theta_hat^t(w^t, psi^t), since -1/eta - beta(3.16) - sum psi/nu
      is Theta_hat algebraically);
    * the two multiplier sets agree and (3.11) reproduces the primal d^t.

    ``beta_shift`` is added to both betas (a hook for a deliberately wrong variant).
    """
    name = "ERLPBoost value identity"
    ref = "thesis (3.11)-(3.16), Lemma 3.6, §3.2.4"
    eta, nu = 4.0, 3.0
    U = _numeric_instance()
    N = U.shape[0]
    d_p = erlpboost_primal_slsqp(U, eta, nu)
    w, psi = erlpboost_dual_slsqp(U, eta, nu)
    P = primal_value(U, d_p, eta)
    w_k, psi_k, beta_k = kkt_multipliers(U, d_p, eta, nu)
    beta_k += beta_shift
    z = np.log(np.full(N, 1.0 / N)) - eta * (U @ w + psi)
    beta = -1.0 / eta + logsumexp(z) / eta + beta_shift  # (3.16)
    d_dual = d_from_dual(U, w, psi, eta)
    n_caps = int(np.sum(d_p > 1.0 / nu - 1e-7))
    errs = {
        "identity(KKT)": abs(P - (-1.0 / eta - beta_k - psi_k.sum() / nu)),
        "identity(dual,3.16)": abs(P - (-1.0 / eta - beta - psi.sum() / nu)),
        "|beta_KKT-beta(3.16)|": abs(beta_k - beta),
        "|w_KKT-w|+|psi_KKT-psi|": float(np.abs(w_k - w).sum() + np.abs(psi_k - psi).sum()),
        "|d(3.11)-d|": float(np.max(np.abs(d_dual - d_p))),
    }
    ok = all(v <= tol for v in errs.values()) and n_caps >= 1
    detail = (
        f"SLSQP primal & dual, N={N}, t={U.shape[1]}, nu={nu:g}, eta={eta:g}, "
        f"active caps={n_caps}; " + ", ".join(f"{k}={v:.1e}" for k, v in errs.items())
        + f" (tol {tol:g})"
    )
    return CheckResult(name, ref, ok, detail)


# --------------------------------------------------------------------------------------------
# §3.2.6 unnormalized dual
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _UnnormalizedDerivation:
    inst: _SymInstance
    d_star: tuple[sp.Expr, ...]  # solutions of dL_U/dd_n = 0       (3.20)
    theta_U_from_L: sp.Expr  # L_U at d_star with 1.w = 1            (3.19)
    theta_U: sp.Expr  # (3.19) as printed, 1.w = 1
    beta_solutions: tuple[sp.Expr, ...]  # real roots of dTheta_U/dbeta = 0
    d2: sp.Expr


@lru_cache(maxsize=4)
def _derive_unnormalized(N: int = 3, t: int = 2) -> _UnnormalizedDerivation:
    """Lagrangian of (3.21), its stationary d, and the beta-stationarity of (3.19) (sympy)."""
    I = _sym_instance(N, t)
    eta, nu, beta, gamma = I.eta, I.nu, I.beta, I.gamma
    L_U = (
        gamma
        + sum(I.d[n] * sp.log(I.d[n] / I.d0[n]) - I.d[n] + I.d0[n] for n in range(N)) / eta
        + sum(I.w[q] * (sum(I.u[n, q] * I.d[n] for n in range(N)) - gamma) for q in range(t))
        + sum(I.psi[n] * (I.d[n] - 1 / nu) for n in range(N))
        + beta * (sum(I.d) - 1)
    )
    d_star = _stationary_d(L_U, I.d)
    theta_from_L = L_U.subs(dict(zip(I.d, d_star)), simultaneous=True).subs(I.w_on_simplex())
    theta_from_L = sp.expand(sp.expand_log(theta_from_L, force=True))
    # (3.19) as printed (with the corrected constraint 1.w = 1, erratum #18)
    s1 = [sp.expand(x.subs(I.w_on_simplex())) for x in I.margins()]
    theta_U = (
        sum(-I.d0[n] * sp.exp(-eta * (s1[n] + I.psi[n] + beta)) + I.d0[n] for n in range(N)) / eta
        - sum(I.psi) / nu
        - beta
    )
    roots = tuple(
        b
        for b in sp.solve(sp.Eq(sp.diff(theta_U, beta), 0), beta, check=False, simplify=False)
        if b.is_real is not False
    )
    return _UnnormalizedDerivation(
        I, tuple(d_star), theta_from_L, theta_U, roots, sp.diff(theta_U, beta, 2)
    )


def check_unnormalized_dual(use_normalized_beta: bool = False, N: int = 3, t: int = 2
                            ) -> CheckResult:
    """Lemma 3.13 (§3.2.6): maximize Theta_hat_U (3.19) over beta and recover Theta_hat (3.10).

    With sympy: derive (3.20) from dL_U/dd_n = 0 and (3.19) by substituting it into the
    Lagrangian of (3.21); solve dTheta_hat_U/dbeta = 0 and compare with
    beta_U = (1/eta) ln sum_n d0_n exp(-eta(sum_q u^q_n w_q + psi_n)) (no -1/eta, unlike (3.16));
    check d^2/dbeta^2 < 0; and check Theta_hat_U(w, psi, beta_U) = Theta_hat (3.10) exactly
    (using 1.d0 = 1, i.e. d0_N = 1 - sum_{n<N} d0_n, which the identity needs).
    ``use_normalized_beta=True`` plugs in the (3.16) beta instead, which must fail.
    """
    name = "Unnormalized dual (3.19) -> (3.10)"
    ref = "thesis (3.18)-(3.21), Lemma 3.13"
    D = _derive_unnormalized(N, t)
    I = D.inst
    eta, nu, beta = I.eta, I.nu, I.beta
    dom = I.domains()
    dom.update({s: (sp.Rational(1, 20), sp.Rational(1, 3)) for s in I.d0[:-1]})
    cmp = Comparisons(dom)
    methods, failures = cmp.methods, cmp.failures

    s = I.margins()
    for n in range(N):
        cmp(f"(3.20) d_{n + 1}", D.d_star[n], I.d0[n] * sp.exp(-eta * (s[n] + I.psi[n] + beta)))
    cmp("(3.19) from L_U", D.theta_U_from_L, D.theta_U)
    s1 = [sp.expand(x.subs(I.w_on_simplex())) for x in s]
    Z = sum(I.d0[n] * sp.exp(-eta * (s1[n] + I.psi[n])) for n in range(N))
    beta_U = sp.log(Z) / eta
    if len(D.beta_solutions) != 1:
        failures.append(f"dTheta_U/dbeta = 0 has real solutions {D.beta_solutions}")
    else:
        cmp("beta_U", D.beta_solutions[0], beta_U)
        cmp("dTheta_U/dbeta(beta_U) = 0",
            sp.diff(D.theta_U, beta).subs(beta, D.beta_solutions[0]), sp.Integer(0))
    cmp("d2/dbeta2", D.d2, -eta * sum(I.d0[n] * sp.exp(-eta * (s1[n] + I.psi[n] + beta))
                                      for n in range(N)))
    beta_plug = beta_U - 1 / eta if use_normalized_beta else beta_U
    on_simplex = {I.d0[-1]: 1 - sum(I.d0[:-1])}
    lhs = D.theta_U.subs(beta, beta_plug).subs(on_simplex)
    rhs = (-sp.log(Z) / eta - sum(I.psi) / nu).subs(on_simplex)
    cmp("Theta_hat_U(beta_U) = (3.10)", lhs, rhs)
    if failures:
        return CheckResult(name, ref, False, "FAILED: " + "; ".join(failures))
    return CheckResult(name, ref, True, f"N={N}, t={t}; {summarize_methods(methods)}")
