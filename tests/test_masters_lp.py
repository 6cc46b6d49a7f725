"""The LP master on HiGHS directly (dualboost.masters.highs_lp, path "highs-warm").

Every value is compared with an independent computation: the reference path (LPBoost's cvxpy
model (2.3) through the solver policy, ``LPBoost.solve_primal``) and scipy's HiGHS on the LP
written out by hand (``independent_lp_value_and_d``); the master's own multipliers are checked
against the dual (2.2) directly (feasibility and value), not only through its certificate.
"""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.algorithms.totally_corrective import independent_lp_value_and_d
from dualboost.data import lpboost_worst_case
from dualboost.engine import boost
from dualboost.masters import Master
from dualboost.masters.highs_lp import HighsLPMaster
from dualboost.oracles import StumpOracle, make_oracle
from formulations.lpboost import LPBoost

TOL = 1e-9


def random_columns(N: int, t: int, seed: int) -> np.ndarray:
    """t random columns in [-1, 1] with some duplicated (repeated rows of the LP (2.3))."""
    rng = np.random.default_rng(seed)
    U = rng.uniform(-1.0, 1.0, size=(N, t))
    U[rng.random((N, t)) < 0.3] = 1.0  # some exact +-1 entries, as stumps give
    U[rng.random((N, t)) < 0.3] = -1.0
    for q in range(2, t, 4):
        U[:, q] = U[:, q - 2]  # exact duplicates
    return U


def check_growing(f: LPBoost, U: np.ndarray) -> None:
    """Grow U column by column; at each t the fast master matches the reference path."""
    master = f.fast_master()
    assert isinstance(master, HighsLPMaster) and master.path == "highs-warm"
    nu = float(f.nu)
    for t in range(1, U.shape[1] + 1):
        U_t = U[:, :t]
        solved = master.solve(U_t, TOL)
        cert = solved.certificate
        _, reference, _ = f.solve_primal(U_t, TOL)
        optimum, _ = independent_lp_value_and_d(U_t, nu)
        assert -1e-12 <= cert.gap <= TOL, (t, cert.gap)  # round-off below 0
        assert abs(cert.primal_value - reference.primal_value) <= TOL, t
        assert abs(cert.dual_value - reference.dual_value) <= TOL, t
        assert abs(cert.dual_value - optimum) <= TOL, t
        assert solved.solver == "HIGHS" and "fallback" not in solved.status, solved.status
        # the solver's own multipliers are an optimal point of the dual (2.2): w on the
        # simplex, U w + psi + beta >= 0, psi >= 0 (0 without caps), -beta - sum(psi)/nu = P
        m = solved.multipliers
        w, psi, beta = m["w"], m["psi"], m["beta"]
        assert w.shape == (t,) and w.min() >= -TOL and abs(w.sum() - 1.0) <= TOL
        assert psi.min() >= -TOL
        if nu == 1.0:
            assert np.all(psi == 0.0)
        assert (U_t @ w + psi + beta).min() >= -1e-8
        assert abs(-beta - psi.sum() / nu - optimum) <= 1e-8
        # and d is the primal (2.3)'s: feasible with value P
        d = cert.d
        assert abs(d.sum() - 1.0) <= TOL and d.min() >= 0 and d.max() <= 1.0 / nu + TOL
        assert abs((U_t.T @ d).max() - optimum) <= TOL


@pytest.mark.parametrize("nu", [1.0, 2.5, 7.0, 13.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_instances_match_the_reference_path(nu, seed):
    N = 24
    check_growing(LPBoost(N, nu=nu), random_columns(N, 14, seed))


def sign_columns(N: int, t: int, seed: int) -> np.ndarray:
    """t columns of +-1 entries (a classifier's y h(x)), some mostly -1 and some mostly +1, so
    that both sparse row forms (error set and accuracy set) occur, and some repeated."""
    rng = np.random.default_rng(seed)
    wrong = rng.random((N, t)) < rng.uniform(0.1, 0.9, size=t)
    U = np.where(wrong, -1.0, 1.0)
    for q in range(3, t, 5):
        U[:, q] = U[:, q - 3]
    return U


@pytest.mark.parametrize("nu", [1.0, 3.0, 9.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_sign_columns_take_the_sparse_rows_and_match_the_reference_path(nu, seed):
    """+-1 columns are written on their error or accuracy sets (the module docstring's sparse
    edge rows); mixed with general columns, each keeps its own form. Both forms occur, and the
    multipliers read back through them are checked against the dual (2.2) directly."""
    N = 24
    U = sign_columns(N, 16, seed)
    U[:, 5::6] = random_columns(N, 16, seed + 7)[:, 5::6]  # general columns among them
    check_growing(LPBoost(N, nu=nu), U)
    master = LPBoost(N, nu=nu).fast_master()
    master.solve(U, TOL)
    general = np.any(np.abs(U) != 1.0, axis=0)
    assert general.any() and not general.all()
    errors = ~general & (np.count_nonzero(U == -1.0, axis=0) * 2 <= N)
    rows = master._rows
    assert np.array_equal(rows.errors, errors)
    assert np.array_equal(rows.accuracy, ~general & ~errors)
    assert errors.any() and (~general & ~errors).any()
    # the model's rows are A d + delta_coef delta: A the error or accuracy indicators, or U
    A = np.where(errors, U == -1.0, np.where(~general & ~errors, U == 1.0, U))
    assert np.array_equal(rows.coefficients(U), A)
    assert np.allclose(rows.weighted_sum(U, np.arange(N, dtype=float)),
                       np.arange(N, dtype=float) @ A)


def test_an_unperturbed_budget_that_does_not_end_optimal_goes_on_perturbed():
    """run_optimal: by default one run() with HiGHS's cost perturbation on (a degenerate LP
    can stall the unperturbed dual simplex); with a budget, first at most that many pivots
    without it, then (when that did not end optimal) on from there with it, the options
    restored afterwards."""
    from dualboost.masters.highs_run import HIGHS_OPTIONS, UNPERTURBED, run_optimal

    class Recorder:
        def __init__(self, statuses):
            self.statuses, self.runs = list(statuses), []
            self.options = {**HIGHS_OPTIONS, "simplex_iteration_limit": 10**6}

        def run(self):
            self.runs.append(dict(self.options))
            self.status = self.statuses.pop(0)

        def getModelStatus(self):
            return self.status

        def modelStatusToString(self, status):
            return status

        def setOptionValue(self, key, value):
            self.options[key] = value

        def getOptionValue(self, key):
            return self.options[key]

    key = next(iter(UNPERTURBED))
    assert HIGHS_OPTIONS[key] == 1.0  # perturbed unless a budget says otherwise
    h = Recorder(["Optimal"])
    assert run_optimal(h) is True
    assert [r[key] for r in h.runs] == [1.0]
    h = Recorder(["Iteration limit reached", "Optimal"])
    assert run_optimal(h, unperturbed=30) is True
    assert [(r[key], r["simplex_iteration_limit"]) for r in h.runs] == [(0.0, 30),
                                                                          (1.0, 10**6)]
    assert h.options[key] == 1.0 and h.options["simplex_iteration_limit"] == 10**6
    h = Recorder(["Optimal"])
    assert run_optimal(h, unperturbed=30) is True and len(h.runs) == 1
    h = Recorder(["Unknown", "Unknown"])
    assert run_optimal(h, unperturbed=30) is False and h.options[key] == 1.0


def test_a_degenerate_lp_with_optimum_zero_converges():
    """Examples repeated with both labels make the soft-margin optimum 0 for every
    hypothesis (a distribution balanced on the pairs gives every column edge 0): the LP is
    degenerate (every complementary column tight at the optimum). LPBoost's LP master
    converges there, certified, with value 0 (the degenerate LPs of a9a's LPBoost)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 4))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=150) > 0, 1.0, -1.0)
    X, y = np.vstack([X, X]), np.concatenate([y, -y])  # every point with both labels
    f = LPBoost(y.size, nu=0.3 * y.size, eps=0.01)
    result = boost(f, StumpOracle().fit(X, y), max_iter=200)
    assert result.status == "converged"
    assert {r.path for r in result.history if r.solved} == {"highs-warm"}
    assert abs(result.dual_objective) <= 1e-9 and abs(result.primal_objective) <= 1e-9


@pytest.mark.parametrize("N", [10, 20])
def test_worst_case_instance_matches_the_reference_path(N):
    """Thesis Thm 2.5's instance (hard margin), column by column."""
    check_growing(LPBoost(N, nu=1.0), lpboost_worst_case(N))


def test_columns_that_do_not_extend_the_previous_call_rebuild_the_model():
    N = 16
    f = LPBoost(N, nu=3.0)
    U = random_columns(N, 6, 3)
    master = f.fast_master()
    master.solve(U[:, :4], TOL)
    V = U[:, ::-1].copy()  # same set, another order: not an extension
    solved = master.solve(V[:, :3], TOL)
    optimum, _ = independent_lp_value_and_d(V[:, :3], 3.0)
    assert abs(solved.certificate.dual_value - optimum) <= TOL
    assert -1e-12 <= solved.certificate.gap <= TOL


def test_wide_certificate_falls_back_to_the_reference_path(monkeypatch):
    """When the bracket from HiGHS's solution is wider than gap_tol (here: widened on purpose),
    the master says it fell back, and the certificate is the reference path's own."""
    N = 12
    f = LPBoost(N, nu=2.0)
    U = random_columns(N, 3, 5)
    master = f.fast_master()
    genuine, calls = f.certify, []

    def widened(*args, **kwargs):
        cert = genuine(*args, **kwargs)
        calls.append(cert.gap)
        if len(calls) == 1:  # the master's own certificate
            cert.primal_value += 1e-3
        return cert

    monkeypatch.setattr(f, "certify", widened)
    solved = master.solve(U, TOL)
    assert "reference path fallback" in solved.status and len(calls) >= 2
    assert solved.solver != "" and -1e-12 <= solved.certificate.gap <= TOL
    optimum, _ = independent_lp_value_and_d(U, 2.0)
    assert abs(solved.certificate.dual_value - optimum) <= TOL


def test_highs_failure_falls_back_to_the_reference_path():
    """A HiGHS solve that stops early (iteration limit 0) is not used."""
    N = 12
    f = LPBoost(N, nu=2.0)
    U = random_columns(N, 6, 7)
    master = f.fast_master()
    master.solve(U[:, :1], TOL)
    master._highs.setOptionValue("simplex_iteration_limit", 0)
    solved = master.solve(U, TOL)
    assert "reference path fallback" in solved.status, solved.status
    optimum, _ = independent_lp_value_and_d(U, 2.0)
    assert abs(solved.certificate.dual_value - optimum) <= TOL
    # the next call rebuilds a fresh model (without the limit) and is warm again
    again = master.solve(U, TOL)
    assert "fallback" not in again.status and abs(again.certificate.dual_value - optimum) <= TOL


def test_subclass_with_its_own_primal_keeps_the_reference_path():
    class Other(LPBoost):
        name = "other_lp"

        def primal(self, U):
            return super().primal(U)

    assert Other(8, nu=2.0).fast_master() is None
    assert isinstance(LPBoost(8, nu=2.0).fast_master(), Master)


def test_breast_cancer_run_matches_the_reference_run(breast_cancer):
    """Whole LPBoost runs (Alg. 2.1) on stumps, fast path against the reference path (a forced
    solver): the same soft margin (2.2), every master certified within 1e-9.

    T and the final margin are NOT compared exactly: the restricted LP's optimal d is not
    unique (from t = 3 on this instance the master value stays 0.2267 while the two solvers
    return different optimal vertices), so the oracle sees different distributions and the runs
    take different paths (41 and 40 iterations today). Both stop within eps of the optimum over
    all stumps, which is at least both margins: so the margins differ by at most eps.
    """
    N = breast_cancer.N
    f = LPBoost(N, nu=0.2 * N, eps=0.01)
    fast = boost(f, StumpOracle().fit(breast_cancer.X, breast_cancer.y), kkt=False)
    reference = boost(f, StumpOracle().fit(breast_cancer.X, breast_cancer.y), kkt=False,
                      solver="HIGHS")
    assert fast.success and reference.success
    assert {r.path for r in fast.history if r.solved} == {"highs-warm"}
    assert {r.path for r in reference.history if r.solved} == {"reference"}
    assert abs(fast.soft_margin - reference.soft_margin) <= 0.01 + TOL
    assert max(r.duality_gap for r in fast.history if r.solved) <= TOL
    # the fast run's stop is certified by the independent LP on its own kept columns, and its
    # weights attain that LP's value (Alg. 2.1 outputs the LP's w)
    optimum, _ = independent_lp_value_and_d(fast.columns, 0.2 * N)
    assert min(r.edge for r in fast.history) - optimum <= 0.01 + TOL
    assert abs(fast.soft_margin - optimum) <= TOL


@pytest.mark.parametrize("N", [10, 20])
def test_worst_case_run_matches_the_reference_run(N):
    """Thesis Thm 2.5's instance (nu = 1): same T and margin on both paths."""
    U = lpboost_worst_case(N)
    runs = []
    for solver in (None, "HIGHS"):
        f = LPBoost(N, nu=1.0, eps=0.01)
        oracle = make_oracle("finite", hypotheses=U).fit(None, np.ones(N))
        # Alg. 2.1 as printed, the subject of Thm 2.5
        runs.append(boost(f, oracle, kkt=False, solver=solver, pricing="single",
                          smoothing=0.0))
    fast, reference = runs
    assert {r.path for r in fast.history if r.solved} == {"highs-warm"}
    assert fast.iterations == reference.iterations >= N / 2
    assert abs(fast.soft_margin - reference.soft_margin) <= TOL


def test_a_copy_of_the_shipped_file_keeps_the_reference_path(tmp_path):
    """A user's edited copy of formulations/lpboost.py may have another primal model: the fast
    master (which hard-codes (2.3)) is only for the shipped class and its plain subclasses."""
    import formulations.lpboost as shipped
    from dualboost.registry import load_formulation

    path = tmp_path / "my_lp.py"
    path.write_text(open(shipped.__file__).read().replace('name = "lpboost"',
                                                          'name = "my_lp"'))
    F = load_formulation(str(path))
    assert F is not shipped.LPBoost and F(8, nu=2.0).fast_master() is None


@pytest.mark.parametrize("nu", [1.0, 37.5])
def test_sifting_solves_agree_with_the_warm_whole_lp(nu):
    """The same master run column by column with sifting forced and with the warm whole LP:
    the same certified optimum at every step (the LP value is unique, its w need not be)."""
    rng = np.random.default_rng(3)
    N = 300
    U_all = rng.choice([-1.0, 1.0], size=(N, 40))
    f = LPBoost(N, nu=nu)
    sifting, warm = HighsLPMaster(f, sifting=True), HighsLPMaster(f, sifting=False)
    for t in range(1, U_all.shape[1] + 1):
        a, b = sifting.solve(U_all[:, :t], 1e-9), warm.solve(U_all[:, :t], 1e-9)
        assert "fallback" not in a.status and "fallback" not in b.status
        assert a.certificate.dual_value == pytest.approx(b.certificate.dual_value, abs=1e-9)
        assert a.certificate.gap <= 1e-9
        # the first solve too (its working set placed by uniform weights on the columns)
        assert sifting.path == "highs-sifting"


def test_auto_sifting_survives_a_first_solve_from_uniform_weights(monkeypatch):
    """The first sifted solve places its working set by uniform weights, a guess: when it gives
    up, that solve is solved whole and the next one sifts again from its w (before, one such
    failure switched sifting off for the run: make_classification N = 1e5, nu = 0.7 N, all 8
    solves on the whole LP, 16 s against 7 s sifted)."""
    import dualboost.masters.highs_lp as highs_lp

    calls = []
    real = highs_lp.sifted_soft_margin_lp

    def first_gives_up(U, nu, w_start=None, **kwargs):
        calls.append(None if w_start is None else np.asarray(w_start).copy())
        return None if len(calls) == 1 else real(U, nu, w_start, **kwargs)

    monkeypatch.setattr(highs_lp, "sifted_soft_margin_lp", first_gives_up)
    rng = np.random.default_rng(5)
    N = 300
    U_all = rng.uniform(-1.0, 1.0, size=(N, 6))
    f = LPBoost(N, nu=0.7 * N)
    master = HighsLPMaster(f)
    monkeypatch.setattr(master, "_sifting_pays", lambda t: master.sifting is not False)
    first = master.solve(U_all[:, :3], 1e-9)
    assert master.path == "highs-warm" and master.sifting is None
    second = master.solve(U_all, 1e-9)
    assert master.path == "highs-sifting", second.status
    # the second placement came from the first solve's w, its support joined the working set
    assert calls[1] is not None and np.allclose(calls[1][:3], first.certificate.w)
    optimum, _ = independent_lp_value_and_d(U_all, 0.7 * N)
    assert abs(second.certificate.dual_value - optimum) <= 1e-9


def test_auto_sifting_stops_on_a_degenerate_lp():
    """A sifted solve whose LP value is 0 (complementary pairs of columns: the degenerate LP of
    noisy data) switches sifting off for the rest of the run; a positive value keeps it on."""
    rng = np.random.default_rng(2)
    N = 400
    u = rng.choice([-1.0, 1.0], size=(N, 3))
    f = LPBoost(N, nu=0.3 * N)
    master = HighsLPMaster(f)
    master._sifting_pays = lambda t: master.sifting is not False
    kept = master.solve(u[:, 1:2], 1e-9)  # one column: value -1 (the nu smallest margins)
    assert abs(kept.certificate.dual_value + 1.0) <= 1e-9
    assert master.path == "highs-sifting" and master.sifting is None, kept.status
    zero = master.solve(np.column_stack([u[:, 1:2], -u[:, 1:2]]), 1e-9)
    assert master.path == "highs-sifting" and abs(zero.certificate.dual_value) <= 1e-9
    assert master.sifting is False
