"""A member written with four declarations gets exact, domain-aware numerics and the fast master.

The members here include ones no file in the project ships (KL written with ``kl_div``, a scaled
l2, a hand-written Tsallis, Hellinger, chi^2), so the derivation is checked as generic, not as a
list of known regularizers. Speed is measured by ``benchmarks/members.py``, not here.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import cvxpy as cp
import numpy as np
import pytest

from dualboost.formulation import Multipliers
from dualboost.registry import load_formulation
from dualboost.regularized import FormulationMathError, RegularizedLPBoost
from dualboost.separable import NotSeparable, compile_separable

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"


class KLByKlDiv(RegularizedLPBoost):
    """The relative entropy written as kl_div (its own conjugate form differs from erlpboost's)."""

    name = "kl_by_kl_div"

    def regularizer(self, d):
        return cp.sum(cp.kl_div(d, self.d0)) + cp.sum(d) - 1  # = sum d ln(d/d0)

    def conjugate(self, y):
        return cp.sum(cp.multiply(self.d0, cp.exp(y - 1)))

    def modulus(self):
        return 1.0

    def range_bound(self):
        return float(np.log(1 / (self.nu * self.d0.min())))


class ScaledL2(RegularizedLPBoost):
    """(c N / 2) ||d - d0||^2 with c = 3."""

    name = "scaled_l2"
    cones = ("soc",)

    def regularizer(self, d):
        return 3 * self.N / 2 * cp.sum_squares(d - self.d0)

    def conjugate(self, y):
        c = 3 * self.N
        return c / 2 * cp.sum_squares(cp.pos(self.d0 + y / c)) - c / 2 * float(self.d0 @ self.d0)

    def modulus(self):
        return 3.0

    def range_bound(self):
        return 3 * self.N / 2 * (1 / self.nu + float(self.d0 @ self.d0) - 2 * self.d0.min())


class HandTsallis(RegularizedLPBoost):
    """Tsallis q = 1/2 written out by hand: R = sum 2 (sqrt d0 ... ) in a power form."""

    name = "hand_tsallis"
    cones = ("pow",)

    def regularizer(self, d):  # (1/(1-q)) sum [q d0^(q-1) d - d^q + (1-q) d0^q], q = 1/2
        return 2 * (0.5 * self.d0 ** -0.5 @ d - cp.sum(cp.sqrt(d))) + float(np.sum(np.sqrt(
            self.d0)))

    def conjugate(self, y):  # sum [g^-1 - d0^(1/2)], g = d0^(-1/2) - y
        return cp.sum(cp.inv_pos(self.d0 ** -0.5 - y)) - float(np.sum(np.sqrt(self.d0)))

    def modulus(self):
        return 0.5 * self.nu ** 0.5

    def range_bound(self):
        return float(0.5 * self.d0.min() ** -0.5 + 0.5 * np.sum(np.sqrt(self.d0))
                     - self.nu ** 0.5) / 0.5


def _example(name: str) -> type:
    return load_formulation(str(EXAMPLES / f"{name}.py"))


MEMBERS = {
    "doubled_entropy": lambda: _example("doubled_entropy"),
    "power43": lambda: _example("power43"),
    "chi2": lambda: _example("chi2"),
    "hellinger": lambda: _example("hellinger"),
    "kl_by_kl_div": lambda: KLByKlDiv,
    "scaled_l2": lambda: ScaledL2,
    "hand_tsallis": lambda: HandTsallis,
}


def _instance(cls, N=40, nu=6.0, seed=0):
    d0 = np.random.default_rng(seed).uniform(0.5, 1.5, N)
    d0 = np.minimum(d0 / d0.sum(), 1.0 / nu)
    d0 /= d0.sum()
    return cls(N, nu=nu, eps=0.05, d0=d0)


def _columns(N, t=5, seed=1):
    return np.sign(np.random.default_rng(seed).normal(size=(N, t)))


@pytest.mark.parametrize("name", sorted(MEMBERS))
def test_compiled_numerics_match_cvxpy(name):
    """The compiled R, R* and their gradients equal cvxpy's own evaluation of the declared
    expressions at random points inside the domains."""
    f = _instance(MEMBERS[name]())
    numerics = f.derived_numerics()
    assert numerics is not None, f.numerics_reason
    rng = np.random.default_rng(3)
    for _ in range(3):
        d = rng.dirichlet(np.ones(f.N))
        assert numerics.R.value(d) == pytest.approx(f.regularizer_value_reference(d), rel=1e-9)
        assert np.allclose(numerics.R.gradient(d), f.regularizer_gradient_reference(d),
                           rtol=1e-8, atol=1e-10)
        y = numerics.y0 - rng.uniform(0, 2, f.N)
        assert numerics.conj.value(y) == pytest.approx(f.conjugate_value_reference(y), rel=1e-9)
        reference = f.conjugate_gradient_reference(y)
        assert np.allclose(numerics.conj.gradient(y), reference, rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("name", sorted(MEMBERS))
def test_every_member_gets_the_fast_master(name):
    f = _instance(MEMBERS[name]())
    master = f.fast_master()
    assert master is not None and master.path == "projected-newton"
    assert f.fast_path_notes == []


@pytest.mark.parametrize("name", sorted(MEMBERS))
def test_best_response_is_a_tight_bracket_and_the_fast_master_certifies(name):
    """The derived best response brackets its own value to round-off (the optimality violation
    of w is the whole gap), and the Newton master certifies the instance without a fallback."""
    f = _instance(MEMBERS[name]())
    U = _columns(f.N)
    w = np.random.default_rng(2).dirichlet(np.ones(U.shape[1]))
    cert = f.best_response(U, w)
    edges = U.T @ cert.d
    assert cert.gap >= -1e-10
    assert cert.gap == pytest.approx(edges.max() - w @ edges, abs=1e-8)
    assert abs(cert.d.sum() - 1) < 1e-12 and cert.d.min() >= 0 and cert.d.max() <= f.cap + 1e-12
    solved = f.fast_master().solve(U, 1e-8)
    assert solved.path is None, solved.status  # None: the master's own path, no fallback
    assert solved.certificate.gap <= 1e-8


def test_hellinger_conjugate_is_infinite_beyond_its_domain_and_beta_stays_inside():
    """R*(y) = sum d0 y / (1 - y) is +inf for y >= 1; cvxpy's own value of inv_pos there is a
    finite, wrong number. The optimal beta and the best response never evaluate beyond it, even
    with large margins and eta."""
    f = _instance(_example("hellinger"))
    y = np.zeros(f.N)
    y[0] = 1.5
    assert f.conjugate_value(y) == np.inf
    assert np.isfinite(f.conjugate_value_reference(y))  # why the derived one is needed
    numerics = f.derived_numerics()
    assert np.allclose(numerics.upper, 1.0, atol=1e-12)
    U = _columns(f.N)
    for w in (np.eye(U.shape[1])[0], np.full(U.shape[1], 1 / U.shape[1])):
        point = Multipliers(w=w, psi=np.zeros(f.N))
        beta = f.optimal_beta(U, point)
        arguments = -f.eta * (U @ w + beta)
        assert arguments.max() < 1.0
        assert f.conjugate_gradient(arguments).sum() == pytest.approx(1.0, abs=1e-10)
        assert f.dual_objective(U, point) > -np.inf
    cert = f.best_response(U, np.eye(U.shape[1])[0])
    assert np.isfinite(cert.dual_value) and cert.gap >= -1e-10


def test_steep_exponential_at_large_eta_has_no_overflow():
    """The doubled entropy at eta = 5000: no RuntimeWarning (overflow), a finite bracket."""
    cls = _example("doubled_entropy")
    d0 = np.full(60, 1 / 60)
    f = cls(60, nu=5.0, eps=0.05, d0=d0, eta=5000.0)
    U = _columns(60)
    w = np.random.default_rng(0).dirichlet(np.ones(U.shape[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        cert = f.best_response(U, w)
        beta = f.optimal_beta(U, Multipliers(w=w, psi=cert.point["psi"]))
    assert np.isfinite(cert.dual_value) and np.isfinite(cert.primal_value)
    assert np.isfinite(beta) and cert.gap >= -1e-9


def test_four_thirds_power_has_exact_zeros_and_a_valid_bracket():
    f = _instance(_example("power43"), N=60, nu=3.0)
    U = _columns(60)
    cert = f.best_response(U, np.array([1.0, 0, 0, 0, 0]))
    assert np.count_nonzero(cert.d < 1e-12) > 0  # exact zeros, up to the projection's 1e-17
    reference = f.best_response_reference(U, np.array([1.0, 0, 0, 0, 0]))
    assert cert.dual_value == pytest.approx(reference.dual_value, abs=1e-7)
    assert np.isfinite(cert.primal_value) and cert.gap >= -1e-10


def test_a_wrong_conjugate_is_named_with_the_point():
    """R* doubled is not R's conjugate: fit warns with the Fenchel-Young point; a declared domain
    that contradicts R* is an error naming conjugate_domain()."""

    class Wrong(KLByKlDiv):
        name = "wrong_conjugate"

        def conjugate(self, y):
            return 2 * cp.sum(cp.multiply(self.d0, cp.exp(y - 1)))

    f = _instance(Wrong)
    f.fast_master()
    assert any("conjugate(y) is not the conjugate of regularizer(d)" in note
               and "coordinate" in note for note in f.fast_path_notes)

    class BadDomain(RegularizedLPBoost):
        name = "bad_domain"
        regularizer = _example("hellinger").regularizer
        conjugate = _example("hellinger").conjugate
        modulus = _example("hellinger").modulus
        range_bound = _example("hellinger").range_bound

        def conjugate_domain(self):
            return 2.0  # R* is infinite from 1 on

    with pytest.raises(FormulationMathError, match=r"conjugate_domain\(\)"):
        _instance(BadDomain).derived_numerics()


def test_non_separable_expressions_are_refused_with_the_node():
    with pytest.raises(NotSeparable, match="log_sum_exp"):
        compile_separable(lambda y: cp.log_sum_exp(y), 5, "R*")
    with pytest.raises(NotSeparable, match="index"):
        compile_separable(lambda d: cp.sum(cp.entr(d[::-1])), 5, "R")


def test_no_silent_slow_path(monkeypatch):
    """A declared but unwritten fast path and a member without a fast master on (lowered) 'large'
    N each give one slow_path warning in the result, with the reason."""
    import dualboost.engine as engine
    from dualboost.api import run

    class Listed(KLByKlDiv):
        name = "listed_not_written"
        fast_paths = ("conjugate_gradient",)

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1.0, -1.0)
    result = run(X, y, formulation=Listed, nu_frac=0.2, eps=0.1)
    slow = [w for w in result.warnings if w["code"] == "slow_path"]
    assert len(slow) == 1 and "conjugate_gradient" in slow[0]["message"]

    class Opaque(KLByKlDiv):
        name = "opaque"

        def regularizer(self, d):  # separable, but written through an index the compiler refuses
            return cp.sum(cp.kl_div(d[::-1], self.d0[::-1])) + cp.sum(d) - 1

    monkeypatch.setattr(engine, "SLOW_PATH_N", 10)
    result = run(X, y, formulation=Opaque, nu_frac=0.2, eps=0.1, max_iter=3)
    slow = [w for w in result.warnings if w["code"] == "slow_path"]
    assert len(slow) == 1 and "reference path" in slow[0]["message"]
    assert "index" in slow[0]["message"]


def test_newton_master_imports_no_concrete_formulation():
    # a master built for a member outside formulations/: the generic layers load none of it
    code = ("import sys; from dualboost.registry import load_formulation; "
            "f = load_formulation('docs/examples/chi2.py')(30, nu=3.0, eps=0.1); "
            "assert f.fast_master() is not None; "
            "print(sorted(m for m in sys.modules if m.startswith('formulations.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize("name", ["doubled_entropy", "power43", "chi2", "hellinger"])
def test_documented_members_fit_certified_on_the_fast_master(name):
    from sklearn.datasets import load_breast_cancer

    from dualboost.api import run

    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y > 0, 1.0, -1.0)
    result = run(X, y, formulation=str(EXAMPLES / f"{name}.py"), nu_frac=0.2, eps=0.01)
    assert result.status == "converged"
    assert result.master_paths == {"projected-newton": result.iterations}
    assert not [w for w in result.warnings if w["code"] == "slow_path"]


def test_wrong_numpy_lines_are_rejected_with_a_warning_and_the_fit_stays_fast():
    """A hand-written conjugate_gradient 1% off: the derived numerics run instead, fit says so
    once (slow_path), and every master solve still runs on the projected-Newton master."""
    from dualboost.api import run
    from formulations.erlpboost_tsallis import TsallisERLPBoost

    class Off(TsallisERLPBoost):
        name = "tsallis_off"

        def conjugate_gradient(self, y):
            return 1.01 * super().conjugate_gradient(y)

    f = Off(30, nu=3.0, eps=0.1)
    assert f.derived_numerics().numpy is None
    assert TsallisERLPBoost(30, nu=3.0, eps=0.1).derived_numerics().numpy is not None
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=80) > 0, 1.0, -1.0)
    result = run(X, y, formulation=Off, nu_frac=0.2, eps=0.1)
    slow = [w for w in result.warnings if w["code"] == "slow_path"]
    # (Tsallis's conjugate_value is written through conjugate_gradient: it is off too)
    assert len(slow) == 1 and "disagrees" in slow[0]["message"]
    assert result.master_paths == {"projected-newton": result.iterations}


DOC_MEMBERS = ["doubled_entropy", "power43", "chi2", "hellinger"]


@pytest.mark.parametrize("name", DOC_MEMBERS)
def test_documented_members_pass_the_verifier_on_every_instance(name, tmp_path):
    """What README and the walkthrough tell a user to run, on all the verifier's instances (not
    only quick): every row passes, none fails, and some formulation rows ran."""
    import json

    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "dualboost.verify", "--formulation",
                           str(EXAMPLES / f"{name}.py"), "--instances",
                           "quick,random,worst_case,breast_cancer", "--json", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]
    counts = json.loads(out.read_text())["counts"]
    assert counts.get("FAIL", 0) == 0 and counts.get("pass", 0) >= 100, counts


@pytest.mark.parametrize("name", DOC_MEMBERS)
@pytest.mark.parametrize("data, nu_frac", [("breast_cancer", None), ("german", None),
                                           ("german", 0.5)])
def test_documented_members_fit_at_defaults_certified(name, data, nu_frac, request):
    """The command line's defaults (nu = 0.1 N, eps = 0.01, eta from sigma and B) on breast
    cancer and german, and german at nu = N/2: every solve on the fast master, the last bracket
    closed, and
    the run ends by its rule, or (german at nu = 0.1 N, where the best soft margin is below eps)
    by the certified check that the guarantee cannot mean much (docs/theory.md, 'Stopping
    early'). At nu = N/2 the guarantee means something: the run converges."""
    from dualboost.api import run
    from dualboost.params import DEFAULT_NU_FRAC
    from dualboost.result import CONVERGED_STATUSES

    if data == "german":
        dataset = request.getfixturevalue("german")
        X, y = dataset.X, dataset.y
    else:
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True)
        y = np.where(y > 0, 1.0, -1.0)
    result = run(X, y, formulation=str(EXAMPLES / f"{name}.py"),
                 nu_frac=DEFAULT_NU_FRAC if nu_frac is None else nu_frac)
    allowed = CONVERGED_STATUSES if nu_frac is not None or data != "german" else \
        CONVERGED_STATUSES + ("vacuous_guarantee", "weak_guarantee")
    assert result.status in allowed, result.message
    if nu_frac == 0.5:
        assert result.status == "converged", result.message
    assert result.master_paths == {"projected-newton": result.iterations}
    assert abs(result.duality_gap) <= 1e-6 * max(1.0, abs(result.primal_objective))
