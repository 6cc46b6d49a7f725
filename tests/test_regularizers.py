"""The regularized-LPBoost family's regularizer files, checked against independent computations.

Parametrized over Binary ERLPBoost (thesis (3.25)-(3.27)), unnormalized ERLPBoost (thesis
(3.18)-(3.21)), the squared l2 and the Tsallis regularizers (two values of q), with ERLPBoost
(thesis (3.6)) as the control. Nothing here is a number copied from the code under test:

* the conjugate is compared with the sup of y.d - R(d) solved by cvxpy from R alone, and the
  maximizer with grad R*;
* the primal and the dual models are solved independently (strong duality), and the closed forms
  (d(w, psi), d(w, psi, beta), optimal beta, KKT recovery) with the solver's multipliers;
* the numpy fast paths with the values the base class derives from the cvxpy expressions;
* the declared modulus sigma and range bound B by sampling the capped simplex (vertices, random
  points, two-coordinate moves), and B also with the thesis's closed forms for uniform d0;
* a boosting run with the exact LP optimum over all stumps (check G1).
"""

from __future__ import annotations

import functools
import math

import cvxpy as cp
import numpy as np
import pytest
from kkt_parts import feasibility_and_complementarity

from dualboost.data import load_dataset
from dualboost.engine import boost
from dualboost.errors import DualBoostInputError
from dualboost.oracles import make_oracle
from dualboost.projection import euclidean_capped_projection
from dualboost.registry import available_formulations, load_formulation
from dualboost.regularized import RegularizedLPBoost as Base
from dualboost.solvers import solve
from formulations.lpboost import LPBoost

NEW = ["binary_erlpboost", "erlpboost_unnormalized", "erlpboost_l2", "erlpboost_tsallis",
       "erlpboost_tsallis:q=0.3"]
NAMES = ["erlpboost"] + NEW  # ERLPBoost is the control
CASES = ["nu1", "caps", "caps_d0"]
N, T = 12, 5


# --- instances -------------------------------------------------------------------------------


def columns() -> np.ndarray:
    """Random columns; the first three examples are hard, so their caps bind at nu = 3.5."""
    rng = np.random.default_rng(1)
    U = rng.uniform(-1.0, 1.0, (N, T))
    U[:3] = np.clip(U[:3] - 0.6, -1.0, 1.0)
    return U


def nonuniform_d0() -> np.ndarray:
    rng = np.random.default_rng(2)
    return 0.5 * rng.dirichlet(3.0 * np.ones(N)) + 0.5 / N


def make(name: str, case: str = "nu1", eps: float = 0.1, n: int = N, **params):
    """The formulation ``name`` ("erlpboost_tsallis:q=0.3" sets q) on an instance of ``case``."""
    base, _, extra = name.partition(":")
    if extra:
        key, value = extra.split("=")
        params[key] = float(value)
    if case != "nu1":
        params.setdefault("nu", 3.5)
    if case == "caps_d0":
        params["d0"] = nonuniform_d0()
    return load_formulation(base)(n, eps=eps, **params)


def kkt_residual(f, U, model) -> float:
    """The largest violation of the KKT conditions by the solver's (d, w, psi, beta), from R's
    gradient (cvxpy): stationarity grad R(d) / eta + U w + psi + beta = 0 (rows weighted like
    recover_dual's, where a logarithm amplifies round-off), feasibility and the complementarity
    products."""
    d, m = model.d.value, model.multipliers()
    parts = feasibility_and_complementarity(f, U, model)
    x = np.maximum(d, 1e-300)
    if f.caps_in_domain:
        x = np.minimum(x, (1 - 1e-15) / f.nu)
    stationarity = Base.regularizer_gradient(f, x) / f.eta + U @ m.w + m.psi + m.beta
    stationarity[d <= 1e-9] = np.maximum(-stationarity[d <= 1e-9], 0.0)  # bound d >= 0 active
    parts.append(np.max(np.abs(stationarity) * f.kkt_row_weights(d)))
    return float(max(parts))


@functools.cache
def tight(name: str, case: str):
    """The primal with accurate multipliers: certified gap <= 1e-9 and KKT residual <= 1e-9.

    (Clarabel's multipliers are often good to 1e-7 only, e.g. on every Tsallis instance here; the
    certificate then hands the model to the next solver of the policy: ECOS, or SCS for the
    power cones, which ECOS does not take.)
    """
    f, U = make(name, case), columns()
    model = f.primal(U)

    def certify() -> bool:
        cert = f.certify(U, model.multipliers(), model.d.value)
        return cert.gap <= 1e-9 and kkt_residual(f, U, model) <= 1e-9

    record = solve(model.problem, f.kind, certify=certify)
    return f, U, model.d.value.copy(), model.multipliers(), record


def capped_simplex_samples(nu: float, n: int, rng, k: int = 150) -> list[np.ndarray]:
    """Vertices (floor(nu) coordinates at 1/nu and the remainder) and random points."""
    out = []
    for _ in range(k):
        d = np.zeros(n)
        perm, m = rng.permutation(n), int(math.floor(nu))
        d[perm[:m]] = 1.0 / nu
        if m < n:
            d[perm[m]] = 1.0 - m / nu
        out.append(d)
    for _ in range(k):
        mix = rng.dirichlet(0.3 * np.ones(3))
        out.append(sum(mix[i] * out[rng.integers(k)] for i in range(3)))
        out.append(euclidean_capped_projection(rng.dirichlet(rng.choice([0.1, 1, 10]) * np.ones(n)),
                                               nu))
    return out


# --- registry and parameters -----------------------------------------------------------------


def test_registered_and_declared():
    for name in NEW:
        base = name.partition(":")[0]
        assert base in available_formulations()
        F = load_formulation(base)
        assert issubclass(F, Base) and F.name == base and F.equations.startswith("thesis")
        assert F.capabilities.strictly_convex and F.default_algorithm == "erlpboost"
    assert load_formulation("binary_erlpboost").caps_in_domain
    assert make("erlpboost_tsallis").q == 0.5
    assert [p.name for p in load_formulation("erlpboost_tsallis").params] == \
        ["nu", "eps", "d0", "q", "eta"]


@pytest.mark.parametrize("name, params, message", [
    ("binary_erlpboost", {"nu": float(N)}, "nu < N"),
    ("binary_erlpboost", {"nu": float(N), "eta": 1.0}, "nu < N"),
    ("binary_erlpboost", {"nu": 2.0, "d0": np.r_[0.5, np.full(N - 1, 0.5 / (N - 1))]}, "d0 < 1/nu"),
    ("erlpboost_tsallis", {"q": 1.0}, "q must lie in (0, 1)"),
    ("erlpboost_tsallis", {"q": 0.0}, "q must lie in (0, 1)"),
    ("erlpboost_l2", {"q": 0.5}, "does not take parameter 'q'"),
])
def test_invalid_parameters(name, params, message):
    with pytest.raises(DualBoostInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_formulation(name)(N, **params)


# --- the conjugate is the sup, by an independent solve ---------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_conjugate_is_the_sup(name):
    """R*(y) = sup over R's domain of y.d - R(d), solved by cvxpy from ``regularizer`` alone."""
    f = make(name, "caps_d0")
    rng = np.random.default_rng(3)
    for _ in range(3):
        y = rng.normal(0.0, 1.5, N)
        if name.startswith("erlpboost_tsallis"):  # dom R* = {g > 0}: keep away from its edge
            y = np.minimum(y, f.q / (1 - f.q) * f.d0 ** (f.q - 1) - 0.3)
        d = cp.Variable(N, nonneg=True)
        problem = cp.Problem(cp.Maximize(y @ d - f.regularizer(d)))
        solve(problem, f.kind)
        sup = float(problem.value)
        assert abs(f.conjugate_value(y) - sup) <= 1e-7 * (1 + abs(sup))
        assert abs(Base.conjugate_value(f, y) - sup) <= 1e-7 * (1 + abs(sup))
        # grad R*(y) attains the sup (sharp: the value is exact) and is near the solver's point
        # (only loosely: a value error e moves the maximizer by ~sqrt(e))
        g = f.conjugate_gradient(y)
        attained = y @ g - Base.regularizer_value(f, g)
        assert attained >= sup - 1e-7 * (1 + abs(sup))
        assert abs(attained - f.conjugate_value(y)) <= 1e-10 * (1 + abs(sup))
        assert np.abs(g - d.value).max() <= 1e-4 * (1 + np.abs(g).max())
    # Fenchel-Young with equality at d0 (R(d0) = 0): R*(grad R(d0)) = grad R(d0).d0, and
    # grad R*(grad R(d0)) = d0
    y0 = Base.regularizer_gradient(f, f.d0)
    assert abs(f.conjugate_value(y0) - y0 @ f.d0) <= 1e-12
    assert np.abs(f.conjugate_gradient(y0) - f.d0).max() <= 1e-12


def test_tsallis_conjugate_is_infinite_off_its_domain():
    f = make("erlpboost_tsallis")
    y = np.zeros(N)
    y[0] = f.q / (1 - f.q) * f.d0[0] ** (f.q - 1) + 1.0  # g_0 < 0: the sup is +inf
    assert f.conjugate_value(y) == math.inf and f.conjugate_gradient(y)[0] == math.inf


# --- strong duality, KKT, closed forms -------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_strong_duality(name, case):
    """D2: the primal and the dual models solved independently reach the same value."""
    f, U = make(name, case), columns()
    primal, dual = f.primal(U), f.dual(U)
    solve(primal.problem, f.kind)
    solve(dual.problem, f.kind)
    P = f.primal_objective(U, f.primal_feasible(primal.d.value))
    point = f.dual_feasible(U, dual.values())
    theta_beta = f.dual_objective(U, point)  # with the dual's own beta
    theta = f.dual_objective(U, {"w": point.w, "psi": point.psi})  # beta maximized out
    assert abs(P - theta) <= 1e-6 and abs(P - theta_beta) <= 1e-6, (P, theta, theta_beta)
    assert theta_beta <= theta + 1e-12
    assert abs(P - float(primal.problem.solution.opt_val)) <= 1e-6
    assert abs(theta - float(dual.problem.solution.opt_val)) <= 1e-6
    # D3: Theta's numpy form vs the dual model's own expression at the same point
    assert abs(theta_beta - f.dual_objective_reference(U, point)) <= 1e-9


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_kkt_recovery_matches_solver(name, case):
    """K1: the generic active-set recovery from d alone gives the solver's multipliers."""
    f, U, d, m, record = tight(name, case)
    recovered = f.recover_dual(U, d)
    assert recovered.residual <= 1e-6
    assert np.abs(recovered.w - m.w).max() <= 1e-6, record.solver
    assert np.abs(recovered.psi - m.psi).max() <= 1e-6, record.solver
    assert abs(recovered.beta - m.beta) <= 1e-6, record.solver


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_closed_forms(name, case):
    """C1-C3: d = grad R*(-eta (U w + psi + beta)) and the optimal beta, vs the solver."""
    f, U, d, m, _ = tight(name, case)
    point = {"w": m.w, "psi": m.psi}
    assert np.abs(f.d_from_dual(U, point) - d).max() <= 1e-6  # C1 (beta optimized)
    assert np.abs(f.d_from_dual(U, point | {"beta": m.beta}) - d).max() <= 1e-6  # C2
    beta = f.optimal_beta(U, point)
    assert abs(beta - m.beta) <= 1e-6  # C3
    assert abs(Base.optimal_beta(f, U, point) - beta) <= 1e-10  # the fast path vs the root
    assert abs(f.d_from_dual(U, point | {"beta": beta}).sum() - 1.0) <= 1e-10
    # the value in multipliers at the optimum (complementary slackness): P = Theta(w, psi, beta)
    P = f.primal_objective(U, f.primal_feasible(d))
    assert abs(f.dual_value(U, point, m.beta) - P) <= 1e-7


@pytest.mark.parametrize("case", ["caps", "caps_d0"])
@pytest.mark.parametrize("name", NAMES)
def test_caps_bind(name, case):
    """The capped instances do exercise the caps: some d_n = 1/nu with psi_n > 0; in Binary
    ERLPBoost the cap is R's domain: d stays strictly below 1/nu and there is no psi."""
    f, U, d, m, _ = tight(name, case)
    cap = 1.0 / f.nu
    if f.caps_in_domain:
        assert not f.has_caps and np.all(m.psi == 0.0)
        assert d.max() > 0.8 * cap and np.all(f.d_from_dual(U, {"w": m.w}) < cap)
    else:
        at_cap = d >= cap - 1e-7
        assert at_cap.any() and np.all(m.psi[at_cap] > 1e-4) and np.all(m.psi[~at_cap] <= 1e-7)


def test_l2_reaches_zero():
    """Unlike the entropies, the quadratic's d has exact zeros (grad R* = pos(d0 - eta s / N))."""
    f, U, d, m, _ = tight("erlpboost_l2", "caps")
    exact = f.d_from_dual(U, {"w": m.w, "psi": m.psi})
    assert np.sum(exact == 0.0) >= 1 and np.all(d[exact == 0.0] <= 1e-8)


@pytest.mark.parametrize("case", CASES)
def test_unnormalized_is_erlpboost(case):
    """Thesis §3.2.6: the same d and Theta; beta_U = beta + 1/eta (3.16 vs the unnormalized)."""
    f, U, d, m, _ = tight("erlpboost", case)
    g, _, d_u, m_u, _ = tight("erlpboost_unnormalized", case)
    assert f.eta == g.eta
    assert np.abs(d - d_u).max() <= 1e-6
    assert np.abs(m.w - m_u.w).max() <= 1e-6 and np.abs(m.psi - m_u.psi).max() <= 1e-6
    assert abs(m_u.beta - (m.beta + 1.0 / f.eta)) <= 1e-6
    point = {"w": m.w, "psi": m.psi}
    assert abs(g.optimal_beta(U, point) - f.optimal_beta(U, point) - 1.0 / f.eta) <= 1e-12
    assert abs(g.dual_objective(U, point) - f.dual_objective(U, point)) <= 1e-12
    assert np.abs(g.d_from_dual(U, point) - f.d_from_dual(U, point)).max() <= 1e-12


# --- fast paths and best response ------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_fast_paths_match_the_expressions(name, case):
    """F1: numpy regularizer, conjugate and its gradient vs the cvxpy expressions' values, at the
    optimum's y = -eta (U w + psi + beta) and at random points."""
    f, U, d, m, _ = tight(name, case)
    rng = np.random.default_rng(4)
    ys = [-f.eta * (U @ m.w + m.psi + m.beta)] + [rng.normal(0.0, 2.0, N) for _ in range(3)]
    if name.startswith("erlpboost_tsallis"):
        ys[1:] = [np.minimum(y, f.q / (1 - f.q) * f.d0 ** (f.q - 1) - 0.1) for y in ys[1:]]
    for y in ys:
        value = Base.conjugate_value(f, y)
        assert abs(f.conjugate_value(y) - value) <= 1e-10 * (1 + abs(value))
        grad = Base.conjugate_gradient(f, y)
        assert np.abs(f.conjugate_gradient(y) - grad).max() <= 1e-10 * (1 + np.abs(grad).max())
    for x in [f.primal_feasible(d), f.d0] + capped_simplex_samples(f.nu, N, rng, 5):
        x = np.minimum(x, 1.0 / f.nu)
        assert abs(f.regularizer_value(x) - Base.regularizer_value(f, x)) <= 1e-10


def inner_minimizer(f, U, w) -> np.ndarray:
    """argmin over the capped simplex of (U w).d + R(d) / eta (one cvxpy solve)."""
    d = cp.Variable(U.shape[0], nonneg=True)
    constraints = [cp.sum(d) == 1] + ([d <= 1.0 / f.nu] if f.has_caps else [])
    problem = cp.Problem(cp.Minimize((U @ w) @ d + f.regularizer(d) / f.eta), constraints)
    solve(problem, f.kind)
    return d.value


def inner_value(f, U, w, d) -> float:
    d = f.primal_feasible(d)
    return float((U @ w) @ d + f.regularizer_value(d) / f.eta)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_best_response(name, case):
    """C4: the best response for a fixed w vs the derived cvxpy solve, and the exact bracket."""
    f, U, d, m, _ = tight(name, case)
    optimum = f.primal_objective(U, f.primal_feasible(d))
    rng = np.random.default_rng(5)
    for w in [rng.dirichlet(np.ones(T)), m.w]:
        cert, ref = f.best_response(U, w), f.best_response_reference(U, w)
        assert abs(cert.dual_value - ref.dual_value) <= 1e-7
        assert cert.dual_value >= ref.dual_value - 1e-9  # the exact max is not beaten
        # d: the inner minimizer over the capped simplex, solved in d by cvxpy (the reference's
        # own d is grad R* at the solver's beta): the fast d is at least as good as the
        # solver's, and near it (solvers return d to ~1e-6 only)
        solver_d = inner_minimizer(f, U, w)
        assert inner_value(f, U, w, cert.d) <= inner_value(f, U, w, solver_d) + 1e-12
        assert np.abs(cert.d - solver_d).max() <= 2e-5
        assert np.abs(cert.d - f.d_from_dual(U, {"w": w, "psi": cert.psi})).max() <= 1e-9
        assert cert.dual_value <= optimum + 1e-9 <= cert.primal_value + 2e-9
        assert abs(cert.d.sum() - 1.0) <= 1e-12 and cert.d.max() <= 1.0 / f.nu + 1e-12
    assert cert.gap <= 1e-6  # at the solver's w the bracket closes


# --- the declared theory: sigma and B --------------------------------------------------------


@pytest.mark.parametrize("case", CASES + ["nu_int"])
@pytest.mark.parametrize("name", NAMES)
def test_range_bound_and_modulus(name, case):
    """R1, R2: 0 <= R <= B on the capped simplex, R(d0) = 0, and the sigma-strong convexity
    inequality R(z) >= R(x) + grad R(x).(z - x) + (sigma/2)||z - x||_1^2 on sampled pairs
    (vertices, random points and two-coordinate moves, where Pinsker is tight)."""
    f = make(name, "caps", nu=4.0) if case == "nu_int" else make(name, case)
    rng = np.random.default_rng(6)
    samples = capped_simplex_samples(f.nu, N, rng)
    values = np.array([f.regularizer_value(x) for x in samples])
    B, sigma = f.range_bound(), f.modulus()
    assert abs(f.regularizer_value(f.d0)) <= 1e-12
    assert values.min() >= -1e-12 and values.max() <= B + 1e-9, (values.max(), B)
    worst = math.inf
    for _ in range(40):
        x = 0.99 * samples[rng.integers(len(samples))] + 0.01 * f.d0  # grad R finite at x
        grad = Base.regularizer_gradient(f, x)
        for k in range(8):
            if k % 2:
                i, j = rng.choice(N, 2, replace=False)
                z = x.copy()
                step = rng.uniform(0.0, 1.0) * min(x[i], 1.0 / f.nu - x[j])
                z[i] -= step
                z[j] += step
            else:
                z = samples[rng.integers(len(samples))]
            gap = np.abs(z - x).sum()
            if gap < 1e-6:
                continue
            bregman = f.regularizer_value(z) - f.regularizer_value(x) - grad @ (z - x)
            worst = min(worst, bregman / (0.5 * gap ** 2))
    assert worst >= sigma - 1e-9, (worst, sigma)
    # the theory's eta is computed from these two (T1)
    assert f.eta == pytest.approx(max(2 * B / f.eps, sigma / 2), rel=1e-15)


@pytest.mark.parametrize("nu", [1.0, 3.0, 6.0])
def test_range_bound_closed_forms_for_uniform_d0(nu):
    """B for uniform d0 against the thesis's constants, and tight at a vertex for integer nu."""
    n = 10
    vertex = np.r_[np.full(int(nu), 1.0 / nu), np.zeros(n - int(nu))]
    expected = {
        "erlpboost": math.log(n / nu),  # thesis §3.2.5
        "erlpboost_unnormalized": math.log(n / nu),  # §3.2.6: Delta_U = Delta on the simplex
        "binary_erlpboost": math.log(n / nu) + 1.0,  # Thm 3.21 / Lemma 3.15
        "erlpboost_l2": n / 2 * (1 / nu - 1 / n),
        "erlpboost_tsallis": (n ** 0.5 - nu ** 0.5) / 0.5,
        "erlpboost_tsallis:q=0.3": (n ** 0.7 - nu ** 0.7) / 0.7,
    }
    for name, B in expected.items():
        f = make(name, n=n, nu=nu)
        assert f.range_bound() == pytest.approx(B, rel=1e-12, abs=1e-14), name
        if name != "binary_erlpboost":  # the binary bound (ln(N/nu) + 1) is not tight
            assert f.regularizer_value(vertex) == pytest.approx(B, rel=1e-12, abs=1e-14), name
        else:
            assert f.regularizer_value(vertex) <= B


def test_binary_range_bound_nonuniform_d0_can_exceed_the_uniform_constant():
    """With non-uniform d0 the complement part of Delta_{2,nu} can exceed 1: B must cover it."""
    n, nu = 10, 2.0
    d0 = np.r_[0.45, np.full(n - 1, 0.55 / (n - 1))]
    f = load_formulation("binary_erlpboost")(n, nu=nu, d0=d0)
    worst = max(f.regularizer_value(x)
                for x in capped_simplex_samples(nu, n, np.random.default_rng(7), 400))
    assert worst > math.log(1.0 / (nu * d0.min())) + 1.0  # the uniform-d0 form would be wrong
    assert worst <= f.range_bound()


# --- a boosting run, certified against the LP over the whole stump class ---------------------


@pytest.fixture(scope="module")
def small_stump_problem():
    data = load_dataset("breast_cancer")
    X, y = data.X[:120], data.y[:120]
    n = X.shape[0]
    all_columns, _ = make_oracle("stumps").fit(X, y).all_columns()
    optimum = LPBoost(n, nu=0.2 * n).solve_primal(all_columns, 1e-9)[1].dual_value
    return X, y, optimum


@pytest.mark.parametrize("name", NAMES)
def test_boosting_run_reaches_the_soft_margin(name, small_stump_problem):
    """G1: the output's soft margin >= the exact LP optimum over all stumps - eps."""
    X, y, optimum = small_stump_problem
    n, eps = X.shape[0], 0.05
    f = make(name, n=n, eps=eps, nu=0.2 * n)
    result = boost(f, make_oracle("stumps").fit(X, y), max_iter=300)
    assert result.status == "converged"
    assert result.soft_margin >= optimum - eps, (result.soft_margin, optimum)
