"""Seed 001's relaxation family (formulations/sss_*.py, dualboost/sss.py).

Each pair is checked by the verifier on the quick instances (and at other p than the default);
the identities of the catalogue (F2 = LPBoost over [U, -U], F3 = F2 at nu = k, F4 at p = inf = F2,
F5 at p = 1 = F1 + weight, F7/F8 = ERLPBoost at eta = 1/beta over [U, -U]) are compared with
independent solves; the Figure 1 API against its definitions; F6/F9's Theorem 7 checks reject
each wrong declaration by name; and the CLI fits them.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cvxpy as cp
import numpy as np
import pytest

from dualboost.errors import DualBoostInputError
from dualboost.params import EPS, NU, Param
from dualboost.registry import available_formulations, load_formulation
from dualboost.sss import (
    BETA,
    P_NORM,
    P_NORM_STRICT,
    GeneralRelaxation,
    GeneralSmoothedRelaxation,
    entropy,
)
from dualboost.verify import run as verify_run

NAMES = ["sss_hard_margin", "sss_soft_margin", "sss_topk", "sss_norm_ball", "sss_norm_penalty",
         "sss_sq_norm_penalty", "sss_smoothed_hard", "sss_smoothed_soft"]


def columns(N: int = 14, t: int = 6, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    U = rng.uniform(-1, 1, size=(N, t))
    U[:, 0] = np.sign(U[:, 0])  # a +-1 column (ties in the margins)
    return U


def optimum(f, U) -> float:
    _, cert, _ = f.solve_primal(U, 1e-9)
    assert 0 <= cert.gap <= 1e-6 * (1 + abs(cert.primal_value))
    return cert.primal_value


def failing(rows: list[dict]) -> list[str]:
    return [f"{r['id']} {r['case']}: {r['detail']}" for r in rows if r["status"] == "FAIL"]


# -- registration and the verifier --------------------------------------------------------------

def test_every_relaxation_is_registered_with_its_parameters():
    assert set(NAMES) <= set(available_formulations())
    for name in NAMES:
        cls = load_formulation(name)
        assert cls.capabilities.signed_weights
        assert cls.catalogue and cls.catalogue in cls.equations
        assert "eps" in {p.name for p in cls.params}


@pytest.mark.parametrize("name", NAMES)
def test_verifier_passes_on_the_quick_instances(name):
    rows = verify_run(name, "quick")
    assert not failing(rows), failing(rows)
    # the declared d*-w* relations are checked, not skipped, on every duality case
    c6 = [r for r in rows if r["id"] == "C6"]
    assert c6 and all(r["status"] == "pass" for r in c6)


def _with_default(cls, param: Param, value: str):
    params = tuple(replace(p, default=value) if p.name == param.name else p for p in cls.params)
    return type(f"{cls.__name__}_p{value}", (cls,), {"params": params})


@pytest.mark.parametrize("name,p", [("sss_norm_ball", "inf"), ("sss_norm_ball", "3"),
                                    ("sss_norm_ball", "1"), ("sss_norm_penalty", "1.5"),
                                    ("sss_norm_penalty", "inf"), ("sss_norm_penalty", "1"),
                                    ("sss_sq_norm_penalty", "3")])
def test_verifier_passes_at_other_norms(name, p):
    cls = load_formulation(name)
    variant = _with_default(cls, P_NORM if name != "sss_sq_norm_penalty" else P_NORM_STRICT, p)
    rows = verify_run(variant, "quick")
    assert not failing(rows), failing(rows)
    assert any(r["id"] == "D2" and r["status"] == "pass" for r in rows)


def test_a_wrong_relation_fails_row_c6():
    """C6 can fail: F10's map d* = [gamma* - U w*]_+ / weight stated with 2 weight."""
    cls = load_formulation("sss_sq_norm_penalty")

    class Wrong(cls):
        def relations(self, U, d, point):
            z = U @ self.signed_w(point)
            xi = np.maximum(-float(point["beta"]) - z, 0.0)
            return {"wrong map": float(np.max(np.abs(d - xi / (2 * self.weight))))}

    rows = verify_run(Wrong, "quick")
    assert {r["id"] for r in rows if r["status"] == "FAIL"} == {"C6"}


# -- the identities of the catalogue --------------------------------------------------------------

def test_soft_margin_is_lpboost_over_the_reflexive_columns():
    U = columns()
    N = U.shape[0]
    lpboost = load_formulation("lpboost")
    for nu in (1.0, 2.5, 5.0):
        mine = optimum(load_formulation("sss_soft_margin")(N, nu=nu), U)
        theirs = optimum(lpboost(N, nu=nu), np.hstack([U, -U]))
        assert mine == pytest.approx(theirs, abs=1e-7)
        one_sided = optimum(lpboost(N, nu=nu), U)
        assert mine >= one_sided - 1e-8  # the seed's w-domain is larger


def test_topk_is_the_soft_margin_at_nu_k_and_its_margin_is_avgmin():
    U = columns()
    N = U.shape[0]
    for k in (1, 3, 7):
        topk = load_formulation("sss_topk")(N, k=k)
        soft = load_formulation("sss_soft_margin")(N, nu=float(k))
        assert optimum(topk, U) == pytest.approx(optimum(soft, U), abs=1e-7)
        z = U @ np.random.default_rng(k).dirichlet(np.ones(U.shape[1]))
        assert topk.relaxed_margin(z) == pytest.approx(np.sort(z)[:k].mean(), abs=1e-12)


def test_norm_ball_at_p_inf_is_the_soft_margin_and_at_p_1_the_hard_margin():
    U = columns()
    N = U.shape[0]
    ball = load_formulation("sss_norm_ball")
    assert optimum(ball(N, p="inf", nu=4.0), U) == pytest.approx(
        optimum(load_formulation("sss_soft_margin")(N, nu=4.0), U), abs=1e-7)
    assert optimum(ball(N, p="1", nu=4.0), U) == pytest.approx(
        optimum(load_formulation("sss_hard_margin")(N), U), abs=1e-6)


def test_norm_penalty_at_p_1_is_the_hard_margin_plus_the_weight():
    U = columns()
    N = U.shape[0]
    hard = optimum(load_formulation("sss_hard_margin")(N), U)
    value = optimum(load_formulation("sss_norm_penalty")(N, p="1", weight=0.3), U)
    assert value == pytest.approx(hard + 0.3, abs=1e-6)


@pytest.mark.parametrize("name,nu", [("sss_smoothed_hard", 1.0), ("sss_smoothed_soft", 3.0)])
def test_smoothed_relaxations_are_erlpboost_at_eta_one_over_beta(name, nu):
    """h(d) = KL(d || uniform) is the thesis's Delta(d, 1/N): the values agree with no shift."""
    U = columns()
    N = U.shape[0]
    params = {"beta": 0.05} | ({"nu": nu} if name == "sss_smoothed_soft" else {})
    mine = optimum(load_formulation(name)(N, **params), U)
    theirs = optimum(load_formulation("erlpboost")(N, nu=nu, eta=20.0), np.hstack([U, -U]))
    assert mine == pytest.approx(theirs, abs=1e-6)


def test_smoothed_values_lie_in_the_seed_sandwich():
    """Seed 001 Eq. 7: relaxed margin <= smoothed value <= relaxed margin + beta max h, at
    random w, for the unsmoothed relaxations with a closed-form map."""
    U = columns()
    N = U.shape[0]
    rng = np.random.default_rng(0)
    for name, params, spread in [("sss_hard_margin", {}, math.log(N)),
                                 ("sss_soft_margin", {"nu": 3.0}, math.log(N / 3.0))]:
        f = load_formulation(name)(N, **params)
        for _ in range(20):
            w = rng.normal(size=U.shape[1])
            z = U @ (w / np.abs(w).sum())
            beta = rng.choice([0.01, 0.1, 1.0])
            low = f.relaxed_margin(z)
            value, d = f.smoothed_value(z, beta)
            assert low - 1e-12 <= value <= low + beta * spread + 1e-12
            assert value == pytest.approx(d @ z + beta * entropy(d), abs=1e-12)


@pytest.mark.parametrize("name,params", [("sss_hard_margin", {}),
                                         ("sss_soft_margin", {"nu": 3.0}),
                                         ("sss_topk", {"k": 4}),
                                         ("sss_smoothed_hard", {"beta": 0.2}),
                                         ("sss_smoothed_soft", {"nu": 3.0, "beta": 0.2})])
def test_figure1_map_matches_the_cvxpy_prox(name, params):
    """smoothed_distribution's closed form (softmax, the capped projection) against the
    Bregman-proximal step solved by cvxpy, at a random w and two smoothings."""
    U = columns()
    f = load_formulation(name)(U.shape[0], **params)
    z = U @ np.random.default_rng(1).dirichlet(np.ones(U.shape[1]))
    for beta in (0.03, 0.5):
        closed = f.smoothed_distribution(z, beta)
        _, reference = f._inner_by_cvxpy(z, beta)
        assert np.abs(closed - reference).max() < 1e-5
        assert closed.sum() == pytest.approx(1.0)


def test_sq_norm_penalty_map_at_p_2():
    """Catalogue F10: d* = [gamma* - U w*]_+ / weight, so the hinges sum to the weight."""
    U = columns()
    N = U.shape[0]
    f = load_formulation("sss_sq_norm_penalty")(N, weight=0.4)
    dual = f.dual(U)
    dual.problem.solve(solver="CLARABEL")
    w, beta = dual.w.value, float(dual.beta.value)
    hinges = np.maximum(-beta - U @ w, 0.0)
    assert hinges.sum() == pytest.approx(0.4, abs=1e-6)
    primal = f.primal(U)
    primal.problem.solve(solver="CLARABEL")
    assert np.abs(primal.d.value - hinges / 0.4).max() < 1e-5
    assert np.abs(f.d_from_dual(U, {"w": w}) - hinges / 0.4).max() < 1e-5


# -- F6 / F9: Theorem 7 before use ---------------------------------------------------------------

WEIGHT = Param("weight", "penalty weight", default=0.5, low=0, low_open=True)


class L2Penalty(GeneralRelaxation):
    name = "general_l2_penalty"
    params = (WEIGHT, EPS)
    default_algorithm = "sss"

    def f(self, d):
        return self.weight * cp.norm(d, 2)

    def f_conjugate(self, x):
        return 0, [cp.norm(x, 2) <= self.weight]


class SmoothedCap(GeneralSmoothedRelaxation):
    name = "general_smoothed_cap"
    params = (NU, EPS, BETA)
    default_algorithm = "erlpboost"

    def f(self, d):
        return 0, [d <= 1.0 / self.nu]

    def f_conjugate(self, x):
        return cp.sum(x) / self.nu, [x >= 0]


def test_general_relaxation_matches_the_shipped_pair():
    U = columns()
    N = U.shape[0]
    assert optimum(L2Penalty(N, weight=0.5), U) == pytest.approx(
        optimum(load_formulation("sss_norm_penalty")(N, p="2", weight=0.5), U), abs=1e-6)
    assert optimum(SmoothedCap(N, nu=3.0, beta=0.1), U) == pytest.approx(
        optimum(load_formulation("sss_smoothed_soft")(N, nu=3.0, beta=0.1), U), abs=1e-6)


@pytest.mark.parametrize("cls", [L2Penalty, SmoothedCap])
def test_general_relaxations_pass_the_verifier(cls):
    rows = verify_run(cls, "quick")
    assert not failing(rows), failing(rows)


def _general(f, conjugate):
    return type("UserRelaxation", (GeneralRelaxation,), {
        "name": "user", "params": (EPS,), "default_algorithm": "sss",
        "f": lambda self, d: f(d), "f_conjugate": lambda self, x: conjugate(x)})


@pytest.mark.parametrize("condition,f,conjugate", [
    ("(i)", lambda d: cp.norm(d, 2) + 0.1, lambda x: (-0.1, [cp.norm(x, 2) <= 1])),
    ("(ii)", lambda d: (0, [d >= 0]), lambda x: (0, [x <= 0])),
    ("(iii)", lambda d: 0.5 * cp.sum_squares(d - 1.0),
     lambda x: 0.5 * cp.sum_squares(x) + cp.sum(x)),
    ("conjugate", lambda d: 0.5 * cp.sum_squares(d), lambda x: cp.sum_squares(x)),
])
def test_theorem7_rejects_each_wrong_declaration_by_name(condition, f, conjugate):
    with pytest.raises(DualBoostInputError) as info:
        _general(f, conjugate)(8)
    message = str(info.value)
    assert len(message.splitlines()) == 1
    assert condition in message


def test_theorem7_accepts_the_squared_norm():
    cls = _general(lambda d: 0.5 * cp.sum_squares(d), lambda x: 0.5 * cp.sum_squares(x))
    assert cls(8).N == 8


# -- the CLI -------------------------------------------------------------------------------------

def test_fit_from_the_cli_reaches_the_lp_optimum(tmp_path, capsys):
    """sss_soft_margin with the totally corrective LPBoost on breast cancer with stumps (a class
    closed under negation): its soft margin is within eps of lpboost's over the whole class."""
    from dualboost.cli import main

    results = {}
    for name in ("sss_soft_margin", "lpboost"):
        out = tmp_path / f"{name}.json"
        code = main(["fit", "--data", "breast_cancer", "--formulation", name, "--nu-frac", "0.2",
                     "--eps", "0.01", "--json", str(out)])
        capsys.readouterr()
        assert code == 0
        results[name] = json.loads(out.read_text())
    mine, theirs = results["sss_soft_margin"], results["lpboost"]
    assert mine["algorithm"] == "lpboost"
    assert mine["soft_margin"] >= theirs["soft_margin"] - 0.01 - 1e-9
    assert theirs["soft_margin"] >= mine["soft_margin"] - 0.01 - 1e-9


def test_fit_param_errors_are_one_line(capsys):
    from dualboost.cli import main

    code = main(["fit", "--data", "worst_case:8", "--formulation", "sss_topk", "--param",
                 "k=0"])
    err = capsys.readouterr().err
    assert code != 0 and "k must lie in [1, N = 8]" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(DualBoostInputError, match="p must be >= 1"):
        load_formulation("sss_norm_ball")(8, p="0.5")
    with pytest.raises(DualBoostInputError, match=r"p must lie in \(1, inf\)"):
        load_formulation("sss_sq_norm_penalty")(8, p="inf")


# -- proofs_check: seed 001's pairs derived with sympy ------------------------------------------

SSS_PROOFS = ["check_sss_avgmin_identity", "check_sss_entropy_conjugate",
              "check_sss_squared_norm_pair", "check_sss_norm_maps",
              "check_sss_theorem7_monotonicity"]


@pytest.mark.parametrize("name", SSS_PROOFS)
def test_proofs_check_derivation_holds_and_its_mistake_fails(name):
    import proofs_check
    from proofs_check import sss

    check = getattr(sss, name)
    assert check in proofs_check.ALL_CHECKS
    right, wrong = check(), check(mistake=True)
    assert right.passed, right.detail
    assert not wrong.passed, wrong.detail
