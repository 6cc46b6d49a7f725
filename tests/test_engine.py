"""The column-generation engine: the thesis's lower-bound instance, certified soft margins against
the LP over *all* stumps, and the invariants of the iteration history.

Reference values are computed here (full-stump LPs with HiGHS); the only published number, the
German credit optimum of /work/shared/data/PROVENANCE.md, is compared only after computing it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dualboost.api import run
from dualboost.data import lpboost_worst_case
from dualboost.engine import boost
from dualboost.errors import DualBoostInputError
from dualboost.margins import soft_margin
from dualboost.oracles import StumpOracle, make_oracle
from dualboost.solvers import solve
from dualboost.theory import iteration_bound
from formulations.erlpboost import ERLPBoost
from formulations.lpboost import LPBoost

EPS = 0.01
#: thesis (PROVENANCE.md): exact LP over all stumps on german.csv at nu = 0.5 N
GERMAN_PUBLISHED_OPTIMUM = 0.01243


class RecordingOracle:
    """Delegates to a fitted oracle and keeps every distribution d it was asked about."""

    def __init__(self, oracle):
        self.oracle = oracle
        self.seen: list[np.ndarray] = []

    def best(self, d):
        self.seen.append(np.array(d, dtype=float, copy=True))
        return self.oracle.best(d)


def lp_optimum(U: np.ndarray, nu: float) -> float:
    """P_LP over the columns U: LPBoost's primal (2.3) with HiGHS, certified by its dual."""
    lp = LPBoost(U.shape[0], nu=nu)
    model = lp.primal(U)
    record = solve(model.problem, "lp", solver="HIGHS")
    assert record.status == "optimal"
    cert = lp.certify(U, model.multipliers().w, model.d.value)
    assert 0.0 <= cert.gap <= 1e-9, cert.gap
    return cert.dual_value


def min_edge(result) -> float:
    """gamma-hat: the smallest edge u^q . d^{q-1} over every oracle call of the run (q <= T+1)."""
    return min(record.edge for record in result.history)


def check_weights(result):
    T = result.iterations
    assert T == len(result.weights) == result.columns.shape[1] == len(result.hypotheses)
    assert np.all(result.weights >= -1e-9) and abs(result.weights.sum() - 1.0) <= 1e-8


# --- the worst case of thesis Theorem 2.5 ------------------------------------------------------


def worst_case_run(F, N, stopping="practical"):
    U = lpboost_worst_case(N)
    oracle = RecordingOracle(make_oracle("finite", hypotheses=U).fit(None, np.ones(N)))
    f = F(N, nu=1.0, eps=EPS)
    # Thm 2.5 is about Alg. 2.1 as printed: one column per solve, the oracle at d^(t-1)
    printed = {"pricing": "single", "smoothing": 0.0} if F is LPBoost else {}
    return f, U, oracle, boost(f, oracle, stopping=stopping, kkt=False, **printed)


@pytest.mark.parametrize("N", [10, 20, 40])
def test_lpboost_needs_n_over_2_iterations_on_the_worst_case(N):
    m = N // 2
    delta = 0.01 / (N - 0.5)  # the instance's default delta
    f, U, oracle, result = worst_case_run(LPBoost, N)
    assert result.success and result.iterations == m + 1 >= N / 2
    assert [h.index for h in result.hypotheses] == list(range(m + 1))  # chosen in order
    solved = [r for r in result.history if r.solved]
    assert len(solved) == len(result.history) == m + 1
    for t, record in enumerate(solved[:m], start=1):
        assert abs(record.dual - (-1.0 + 2.0 * t * delta)) <= 1e-9  # P_LP^t = -1 + 2 t delta
        assert abs(record.primal - record.dual) <= 1e-9
        # d^t = e_{m+t} (a unique pivot): the oracle sees it at t + 1
        assert np.abs(oracle.seen[t] - np.eye(N)[m + t - 1]).max() <= 1e-9
        assert record.delta_simple > EPS  # no early stop
    # with all m + 1 columns, w = (e_1 + e_{m+1}) / 2 gives every margin >= delta / 2
    assert solved[-1].dual >= delta / 2 - 1e-12
    assert solved[-1].dual == pytest.approx(lp_optimum(U, 1.0), abs=1e-9)
    assert result.soft_margin == pytest.approx(solved[-1].dual, abs=1e-9)


@pytest.mark.parametrize("stopping", ["practical", "simple"])
@pytest.mark.parametrize("N", [10, 20, 40])
def test_erlpboost_escapes_the_worst_case(N, stopping):
    """ERLPBoost needs 2 iterations whatever N is, where LPBoost needs N/2 + 1.

    Why (measured first: T = 2 for N = 10 ... 80): after h^1 the regularized d^1 is the softmin
    d_n ~ exp(-eta u^1_n). On the second half u^1 is -1 + 2 delta on the pivot row and
    -1 + 3 delta elsewhere, and eta delta = 2 ln(N) / (N - 1/2) < 1, so d^1 spreads almost
    uniformly over the second half instead of sitting on the pivot row as LPBoost's e_{m+1}
    does. Against it the last column (+1 - delta on the whole second half) has edge ~1 - delta,
    the largest, so the oracle returns it at t = 2; {h^1, h^{m+1}} already has the optimal
    margin delta / 2 and the gap closes (Lemma 3.5 then certifies the stop).
    """
    m = N // 2
    delta = 0.01 / (N - 0.5)
    f, U, oracle, result = worst_case_run(ERLPBoost, N, stopping)
    assert f.eta * delta < 1.0  # the premise above
    d1 = oracle.seen[1]
    assert d1[m:].sum() >= 1.0 - 1e-9  # all mass on the second half ...
    assert d1[m] <= math.exp(f.eta * delta) * d1[m + 1:].min() * (1 + 1e-6)  # ... spread out
    assert d1[m] < 0.5  # LPBoost's d^1 puts all of it on row m + 1
    assert result.success
    assert [h.index for h in result.hypotheses] == [0, m]
    assert result.iterations == 2 <= N / 4
    # and the output is as good as LPBoost's after N/2 + 1 iterations, within eps (E11)
    optimum = lp_optimum(U, 1.0)
    assert soft_margin(result.columns @ result.weights, 1.0) >= optimum - EPS


# --- certified soft margins on breast cancer -------------------------------------------------


@pytest.fixture(scope="module")
def full_stump_lp(breast_cancer_stumps):
    """P_LP over every distinct stump of breast cancer, per nu fraction, computed once.

    By constraint generation (the verifier's G1 routine, ~1 s; the direct LP on 30,000 columns
    takes ~30 s and gigabytes), certified: the bracket it returns is closed to 1e-9."""
    from dualboost.verify.checks import full_class_lp_value

    cache: dict[float, float] = {}

    def optimum(frac: float) -> float:
        if frac not in cache:
            U = breast_cancer_stumps
            lower, upper = full_class_lp_value(U, frac * U.shape[0])
            assert 0.0 <= upper - lower <= 1e-9, (lower, upper)
            cache[frac] = lower
        return cache[frac]

    return optimum


def certify_run(result, F, nu, optimum):
    """The guarantees a converged run must meet against the full-class optimum g = P_LP."""
    assert result.success, result.message
    check_weights(result)
    margin = soft_margin(result.columns @ result.weights, nu)
    assert margin == pytest.approx(result.soft_margin, abs=1e-12)
    assert margin >= optimum - EPS
    # every oracle edge is >= g (the oracle is exact over the class, and g = min_d max_h edge)
    gamma_hat = min_edge(result)
    assert gamma_hat >= optimum - 1e-9
    # the restricted LP over the T selected columns: P_LP^T <= g, and g - P_LP^T <= eps
    lp_T = lp_optimum(result.columns, nu)
    assert lp_T <= optimum + 1e-9
    assert optimum - lp_T <= EPS
    if getattr(result, "lp_value", None) is not None:
        assert result.lp_value == pytest.approx(lp_T, abs=1e-8)
    if F is ERLPBoost:
        assert gamma_hat - lp_T <= EPS  # E10 / Lemma 3.5
        assert margin >= gamma_hat - EPS  # E11
    else:
        assert margin == pytest.approx(lp_T, abs=1e-9)  # LPBoost's w solves the restricted LP
        assert gamma_hat - result.dual_objective <= EPS  # Alg. 2.1 step (c)
    return margin


@pytest.mark.slow
@pytest.mark.parametrize("F", [LPBoost, ERLPBoost], ids=lambda F: F.name)
@pytest.mark.parametrize("frac", [0.2, 0.5])
def test_breast_cancer_soft_margin_is_certified(F, frac, breast_cancer, full_stump_lp):
    N = breast_cancer.N
    nu = frac * N
    result = boost(F(N, nu=nu, eps=EPS), StumpOracle().fit(breast_cancer.X, breast_cancer.y),
                   stopping="practical", kkt=False)
    certify_run(result, F, nu, full_stump_lp(frac))


@pytest.mark.parametrize("pricing", ["single", "multiple"])
def test_lpboost_pricing_certified(pricing, breast_cancer, full_stump_lp):
    N = breast_cancer.N
    result = boost(LPBoost(N, nu=0.2 * N, eps=EPS),
                   StumpOracle().fit(breast_cancer.X, breast_cancer.y), pricing=pricing)
    certify_run(result, LPBoost, 0.2 * N, full_stump_lp(0.2))
    extra = [r.extra_columns for r in result.history]
    assert (max(extra) == 0) == (pricing == "single")
    assert result.algorithm_parameters == {"pricing": pricing, "smoothing": 0.5}


class _SpyOracle:
    """A stump oracle that records every d it is asked about and the candidates it offered."""

    def __init__(self, inner):
        self.inner, self.calls = inner, []

    def best(self, d):
        return self.inner.best(d)

    def candidates(self, d):
        found = self.inner.candidates(d)
        self.calls.append((np.array(d, dtype=float), found))
        return found


@pytest.mark.parametrize("smoothing", [0.0, 0.5, 0.9])
@pytest.mark.parametrize("frac", [0.2, 0.5])
def test_lpboost_pricing_points_and_extra_columns(breast_cancer, smoothing, frac):
    """The oracle is asked at alpha c + (1 - alpha) d^(t-1) (c: the pricing point of smallest
    best edge so far; d^(t-1) itself after a mis-price, and always at alpha = 0), a capped
    distribution; solve t adds u^t and, in the oracle's order, every other candidate whose
    edge exceeds Theta^(t-1) + eps at the pricing point and Theta^(t-1) at d^(t-1)."""
    from dualboost.algorithms import run_loop
    from dualboost.algorithms.totally_corrective import LPBoostAlgorithm

    class Recording(LPBoostAlgorithm):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.masters = []

        def step(self, t, u, may_solve, extra=()):
            record = super().step(t, u, may_solve, extra)
            self.masters.append(np.array(self.master_d))
            return record

    N = breast_cancer.N
    nu = frac * N
    spy = _SpyOracle(StumpOracle().fit(breast_cancer.X, breast_cancer.y))
    algorithm = Recording(LPBoost(N, nu=nu, eps=EPS), kkt=False, smoothing=smoothing)
    result = run_loop(algorithm, spy)
    assert result.success and len(spy.calls) == len(result.history) == len(algorithm.masters)
    at, theta, master = 0, -1.0, np.full(N, 1.0 / N)
    center, best = None, np.inf
    masters_prev = theta_prev = None  # d^(t-2) and Theta^(t-2), for the mis-price of step t-1
    alpha, smoothed, moves = smoothing, False, set()
    for k, (record, (d, found)) in enumerate(zip(result.history, spy.calls)):
        assert d.sum() == pytest.approx(1.0, abs=1e-9)
        assert d.min() >= -1e-12 and d.max() <= 1.0 / nu + 1e-12  # capped: edges bound g
        (h, u), others = found[0], found[1:]
        if k:
            mispriced = spy.calls[k - 1][1][0][1] @ masters_prev <= theta_prev + 1e-12
            smoothed = smoothing > 0 and not mispriced
            expected = alpha * center + (1 - alpha) * master if smoothed else master
            np.testing.assert_allclose(d, expected, atol=1e-15)
        if u @ d < best:
            center, best = d, float(u @ d)
        if smoothed:  # alpha moves 0.1 towards the side where u's edge is lower, in [0, 0.9]
            rises = float(u @ (master - center)) > 0
            moves.add(rises)
            alpha = min(0.9, alpha + 0.1) if rises else max(0.0, alpha - 0.1)
        assert record.edge == pytest.approx(u @ d, abs=1e-15)
        if others:  # the algorithm's own products (one block: the same rounding)
            block = np.column_stack([v for _, v in others])
            keep = (block.T @ d > theta + EPS) & (
                True if k == 0 or np.array_equal(d, master) else block.T @ master > theta + 1e-12)
        wanted = [others[i] for i in np.flatnonzero(keep)] if others else []
        assert record.extra_columns == len(wanted)
        assert result.hypotheses[at:at + 1 + len(wanted)] == [h] + [g for g, _ in wanted]
        np.testing.assert_array_equal(result.columns[:, at:at + 1 + len(wanted)],
                                      np.column_stack([u] + [v for _, v in wanted]))
        masters_prev, theta_prev = master, theta
        at, theta, master = at + 1 + len(wanted), record.dual, algorithm.masters[k]
    assert at == result.iterations
    assert sum(r.extra_columns for r in result.history) > 0  # the rule was exercised
    assert min(r.edge for r in result.history) == best
    if smoothing:
        assert moves  # alpha was adapted (both ways in the longer nu = 0.2 N runs)
        assert frac != 0.2 or moves == {True, False}


@pytest.mark.slow
def test_german_credit_certified_and_matches_published_optimum(german):
    N = german.N
    nu = 0.5 * N
    U_full, _ = StumpOracle().fit(german.X, german.y).all_columns()
    optimum = lp_optimum(U_full, nu)
    margins = {}
    for F in (LPBoost, ERLPBoost):
        result = run(german.X, german.y, formulation=F.name, nu=nu, eps=EPS, kkt=False)
        margins[F.name] = certify_run(result, F, nu, optimum)
    # only now the cross-check with the published value (PROVENANCE.md, 5 decimals)
    assert abs(optimum - GERMAN_PUBLISHED_OPTIMUM) <= 1e-4, optimum


# --- the history of a run ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def breast_cancer_runs(breast_cancer):
    """LPBoost and ERLPBoost (both rules) at nu = 0.2 N, with the KKT diagnostic on."""
    N = breast_cancer.N
    runs = {}
    for name, F, stopping in [("lpboost", LPBoost, "practical"),
                              ("practical", ERLPBoost, "practical"),
                              ("simple", ERLPBoost, "simple")]:
        oracle = StumpOracle().fit(breast_cancer.X, breast_cancer.y)
        runs[name] = boost(F(N, nu=0.2 * N, eps=EPS), oracle, stopping=stopping, kkt=True)
    return runs


def test_lpboost_history_invariants(breast_cancer_runs):
    result = breast_cancer_runs["lpboost"]
    assert result.success and result.stopping == "lp"
    check_weights(result)
    history = result.history
    assert all(r.solved for r in history)
    assert sum(1 + r.extra_columns for r in history) == result.iterations
    values = np.array([r.dual for r in history])
    assert np.all(np.diff(values) >= -1e-9)  # L1: P_LP^t non-decreasing
    assert all(abs(r.primal - r.dual) <= 1e-9 for r in history)  # L3: strong duality
    edges = np.array([r.edge for r in history])
    for t in range(len(history) - 1):  # L4: P_LP^t <= P_LP <= min_{q <= t+1} u^q.d^{q-1}
        assert values[t] <= edges[: t + 2].min() + 1e-9
    assert all(r.delta_simple > EPS for r in history[:-1])  # stops at the first t allowed
    assert history[-1].delta_simple <= EPS
    assert all(r.kkt_residual is not None and r.kkt_residual < 1e-6 for r in history)


@pytest.mark.parametrize("rule", ["practical", "simple"])
def test_erlpboost_history_invariants(breast_cancer_runs, rule):
    result = breast_cancer_runs[rule]
    f = ERLPBoost(result.parameters["N"], nu=result.parameters["nu"], eps=EPS)
    gap_tol = EPS / 100  # the engine's default acceptance threshold
    assert result.success and result.stopping == rule
    check_weights(result)
    T = result.iterations
    history = result.history
    assert len(history) == T + 1  # h^{T+1} was asked for and discarded
    assert all(r.solved for r in history[:-1]) and not history[-1].solved
    assert history[-1].primal is None
    solved = history[:-1]
    for r in solved:
        assert r.primal >= r.dual - 1e-9  # E1
        assert -1e-9 <= r.duality_gap <= gap_tol
        assert r.duality_gap == pytest.approx(r.primal - r.dual, abs=1e-12)
        assert r.kkt_residual is not None and r.kkt_residual < 1e-6
    # E3: the exact P^t(d^t) are non-decreasing; the certified brackets must allow it
    for before, after in zip(solved, solved[1:]):
        assert after.primal >= before.dual - 1e-9
    # P^0(d^0) = Theta^0 = -1 (the empty max): delta^1 = delta~^1 = u^1.d^0 + 1 (d^0 = d0)
    first = history[0]
    assert first.primal_before == pytest.approx(first.edge, abs=1e-12)
    assert first.delta_simple == pytest.approx(first.edge + 1.0, abs=1e-12)
    assert first.delta_practical == pytest.approx(first.edge + 1.0, abs=1e-12)
    # the stopping rule: first t >= 2 with delta <= eps/2 (thesis §3.2.1-2)
    field = "delta_practical" if rule == "practical" else "delta_simple"
    assert getattr(history[-1], field) <= EPS / 2
    assert all(getattr(r, field) > EPS / 2 for r in history[1:-1])
    # the iteration bound (Thm 3.10 / 3.12), vacuous here but a bound
    assert T <= iteration_bound(EPS, f.eta, 1.0, rule)
    # E2 at T: P_LP^T <= P^T(d^T) <= P_LP^T + ln(N/nu)/eta
    lp_T = lp_optimum(result.columns, f.nu)
    exact_low, exact_high = solved[-1].dual, solved[-1].primal
    assert lp_T <= exact_high + 1e-9
    assert exact_low <= lp_T + math.log(f.N / f.nu) / f.eta + 1e-9


def test_practical_rule_stops_no_earlier_than_simple(breast_cancer_runs):
    """delta~^t = min_q P^q - Theta^{t-1} >= min_q P^q - P^{t-1} = delta^t (weak duality)."""
    practical, simple = breast_cancer_runs["practical"], breast_cancer_runs["simple"]
    assert practical.iterations >= simple.iterations
    for run_ in (practical, simple):
        for r in run_.history:
            assert r.delta_practical >= r.delta_simple - 1e-12


@pytest.mark.parametrize("F", [LPBoost, ERLPBoost], ids=lambda F: F.name)
def test_max_iter_stops_unsuccessfully(F, breast_cancer):
    N = breast_cancer.N
    oracle = StumpOracle().fit(breast_cancer.X, breast_cancer.y)
    result = boost(F(N, nu=0.2 * N, eps=EPS), oracle, max_iter=3, kkt=False)
    assert result.status == "max_iter" and result.success is False
    assert "max_iter" in result.message
    assert len(result.history) == 3  # max_iter counts master solves
    assert result.iterations == sum(1 + r.extra_columns for r in result.history)
    assert all(r.solved for r in result.history)
    check_weights(result)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"stopping": "foo"}, "stopping must be one of"),
    ({"stopping": "Simple"}, "stopping must be one of"),
    ({"max_iter": 0}, "max_iter must be a positive integer"),
    ({"max_iter": -5}, "max_iter must be a positive integer"),
    ({"max_iter": 2.5}, "max_iter must be a positive integer"),
    ({"max_iter": "10"}, "max_iter must be a positive integer"),
])
def test_bad_engine_input(kwargs, message):
    U = lpboost_worst_case(10)
    oracle = make_oracle("finite", hypotheses=U).fit(None, np.ones(10))
    for F in (LPBoost, ERLPBoost):
        with pytest.raises(DualBoostInputError, match=message):
            boost(F(10, eps=EPS), oracle, **kwargs)
    with pytest.raises(DualBoostInputError, match=message):
        run(None, np.ones(10), hypotheses=U, formulation="erlpboost", **kwargs)
