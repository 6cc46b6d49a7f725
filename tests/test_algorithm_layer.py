"""The algorithm layer: a new algorithm plugs into the one loop without touching it.

A corrective step (update only the newest weight: a Frank-Wolfe / line-search step on the
regularized dual, in the spirit of Shalev-Shwartz & Singer's corrective algorithm and the
thesis's corrective ERLPBoost, Ch. 4) is written here, in a test file, as an ``Algorithm``
subclass: state, step, output. ``run_loop`` runs it unchanged, and every master step is
certified by the formulation's own machinery (``dual_feasible``, ``best_response``).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from dualboost.algorithms import Algorithm, Output, algorithm_class, register, run_loop
from dualboost.algorithms.base import Claim
from dualboost.errors import DualBoostInputError
from dualboost.formulation import Multipliers
from dualboost.oracles import make_oracle
from dualboost.result import IterationRecord
from formulations.erlpboost import ERLPBoost
from formulations.lpboost import LPBoost


class CorrectiveStep(Algorithm):
    """w^t = (1 - alpha) [w^(t-1); 0] + alpha e_t with alpha maximizing Theta(w^t, psi*(w^t))."""

    name = "test_corrective"
    summary = "corrective: line search on the newest weight only"

    @classmethod
    def unsupported(cls, formulation):
        return None if formulation.capabilities.strictly_convex else "needs a unique d(w)"

    def __init__(self, formulation, **kwargs):
        super().__init__(formulation, **kwargs)
        self.w = np.empty(0)
        self.cert = None

    def step(self, t, u, may_solve):
        f = self.formulation
        record = IterationRecord(t=t, edge=float(u @ self.d), primal_before=np.nan,
                                 delta_simple=np.nan, delta_practical=np.nan, oracle_seconds=0)
        if not may_solve:
            return record
        U_t = np.column_stack([self.U, u])
        if t == 1:
            w = np.ones(1)
        else:
            def negative_theta(alpha):
                trial = np.append((1 - alpha) * self.w, alpha)
                return -f.best_response(U_t, trial).dual_value
            alpha = minimize_scalar(negative_theta, bounds=(0.0, 1.0), method="bounded",
                                    options={"xatol": 1e-10}).x
            w = np.append((1 - alpha) * self.w, alpha)
        cert = f.best_response(U_t, f.dual_feasible(U_t, Multipliers(w=w))["w"])
        self.U, self.w, self.d, self.cert = U_t, cert.w, cert.d, cert
        record.solved = True
        record.primal, record.dual, record.duality_gap = (cert.primal_value, cert.dual_value,
                                                          cert.gap)
        return record

    def output(self):
        c = self.cert
        return Output(weights=c.w, point=c.point, d=c.d, primal_objective=c.primal_value,
                      dual_objective=c.dual_value, lp_value=None, kept=self.U.shape[1],
                      stopping="fixed iterations")

    @classmethod
    def claims(cls, result, formulation, tol):
        duals = [r.dual for r in result.history if r.solved]
        drop = max((a - b for a, b in zip(duals, duals[1:])), default=0.0)
        return [Claim("X1", "Theta^t non-decreasing (the line search never loses)", "-", drop,
                      drop <= tol, tolerance=tol)]


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(3)
    pool = np.sign(rng.normal(size=(40, 120)))
    labels = np.sign(rng.normal(size=40))
    return pool, labels


def test_a_corrective_step_runs_through_the_unchanged_loop(problem):
    pool, labels = problem
    f = ERLPBoost(40, nu=4.0, eps=0.1)
    oracle = make_oracle("finite", hypotheses=pool).fit(None, labels)
    result = run_loop(CorrectiveStep(f), oracle, max_iter=15)
    assert result.algorithm == "test_corrective" and result.iterations == 15
    solved = [r for r in result.history if r.solved]
    assert all(r.dual <= r.primal + 1e-9 for r in solved)  # every step is certified
    (claim,) = CorrectiveStep.claims(result, f, 1e-9)
    assert claim.ok, claim.value
    assert solved[-1].dual > solved[0].dual + 0.1  # it makes progress
    # the totally corrective master over the same 15 columns is at least as good (its optimum
    # bounds every dual value reached on those columns)
    _, optimum, _ = f.solve_primal(result.columns, 1e-9)
    assert optimum.primal_value >= result.dual_objective - 1e-9


def test_registered_algorithms_are_found_by_name(problem):
    register(CorrectiveStep)
    try:
        assert algorithm_class("test_corrective") is CorrectiveStep
    finally:
        from dualboost.algorithms import ALGORITHMS
        ALGORITHMS.pop("test_corrective")
    with pytest.raises(DualBoostInputError, match="unknown algorithm 'test_corrective'"):
        algorithm_class("test_corrective")


def test_an_unsupported_pairing_is_refused_in_one_line():
    with pytest.raises(DualBoostInputError, match="cannot run formulation 'lpboost'"):
        CorrectiveStep(LPBoost(10))
    with pytest.raises(DualBoostInputError, match="regularized-LPBoost family"):
        algorithm_class("erlpboost")(LPBoost(10))
