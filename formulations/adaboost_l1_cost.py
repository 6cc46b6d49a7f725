"""Cost-sensitive AdaBoost-l1, seed 002 §4–§5 / [40] (derived pair): ERLPBoost with prior c / sum c.

Naming: seed 002 calls the w-domain problem the *primal*; here (as in the whole toolkit) the
*primal* is the d-domain problem and the *dual* the w-domain one. Translated here, once.

Seed 002 (Sec. 5) says only "modify the primal cost function (5) to have a weighted cost
function [40]"; the pair is derived (proofs_check/shen_li_more.py; docs/formulations.md,
"Seed 002's problems").
With per-example costs c > 0 and w_(5) = w / T (the toolkit's w on the simplex)::

    min_{w_(5) >= 0, 1^T w_(5) = 1/T}  log sum_i c_i exp(-y_i H_i w_(5))             (5) weighted

    dual:  max_{r, u in simplex}  r/T - sum_i u_i ln(u_i / c_i)   s.t.  U^T u <= -r 1

In the LPBoost-like minimization form (r -> -r, times T, as (10) -> (15)) the d-domain problem is::

    min_{d in simplex, gamma}  gamma + T sum_n d_n ln(d_n / c_n)   s.t.  U^T d <= gamma 1  (w)
      = gamma + T Delta(d, c / sum c) - T ln(sum c)

i.e. ERLPBoost (thesis (3.6), formulations/erlpboost.py) with nu = 1 (no caps), eta = 1/T and the
prior d0 = c / sum c, shifted by -T ln(sum c): the value here is ERLPBoost's, and seed 002's
optimum is Opt(5, weighted) = ln(sum c) - value / T. With unit costs it is AdaBoost-l1 (15)
(value shifted by T ln N). The maps are ERLPBoost's: d = softmax(ln c - U w / T)
(u proportional to c exp(-y_i H_i w_(5)), seed 002's KKT (24) weighted) and the multipliers of
the edge rows are w = T w_(5).

A member of the regularized family by declaration (ERLPBoost's regularizer, conjugate, modulus,
range bound and fast paths, unchanged): the derived theory (T2, T4 with sigma = 1,
B = ln(1/min d0)) and the projected-Newton master apply with no new numerics. The costs are a
vector parameter: ``--param c=costs.npy`` (or comma-separated numbers), ``params={"c": array}``
in Python; their scale does not change w or d (only the shift -T ln(sum c)). T and c are the
problem's parameters: the run promises no soft margin (``promises_soft_margin = False``).
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np

from dualboost.params import EPS, NU, Param
from dualboost.params import pinned as fixed
from formulations.erlpboost import ERLPBoost


def _costs_check(c: np.ndarray, N: int, values) -> str | None:
    if np.any(c <= 0):
        return "must be strictly positive (a cost of 0 would give the example prior 0)"
    return None


T_PARAM = Param("T", "seed 002's regularization parameter T > 0: l1 budget 1^T w = 1/T "
                "(eta = 1/T)", default=0.1, low=0, low_open=True)
COSTS = Param("c", "per-example costs c > 0 of the weighted loss log sum c_i exp(-margin_i) "
              "(the prior d0 = c / sum c)", kind="vector", default=lambda N, values: np.ones(N),
              check=_costs_check, default_text="1 (unit costs: AdaBoost-l1)")


class CostSensitiveAdaBoostL1(ERLPBoost):
    name = "adaboost_l1_cost"
    summary = "cost-sensitive AdaBoost-l1 (weighted log-sum-exp, budget 1/T) = ERLPBoost, d0 ~ c"
    equations = "seed 002 (5), (10), (15) weighted (Sec. 5, [40]); thesis (3.6), (3.10), (3.11)"
    own_params = (EPS, T_PARAM, COSTS)
    pinned = (fixed(NU, 1.0),)
    supports_sample_weight = False
    promises_soft_margin = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.params = cls.own_params  # the family adds nu, d0, eta: derived here from T, c

    def _check(self) -> None:
        self.d0 = self.c / float(self.c.sum())
        self.eta = 1.0 / self.T
        super()._check()

    def parameters(self) -> dict:
        out = super().parameters()
        out["eta"] = self.eta
        uniform = np.allclose(self.d0, 1.0 / self.N, rtol=0, atol=1e-15)
        out["d0"] = "uniform" if uniform else self.d0.tolist()
        return out

    def seed_problem(self, U):
        """The weighted (5) as stated: min log sum c exp(-U w_(5)), w_(5) >= 0, 1^T w_(5) = 1/T
        (the verifier's D5)."""
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True)
        objective = cp.log_sum_exp(-(U @ w) + np.log(self.c))
        return cp.Problem(cp.Minimize(objective), [cp.sum(w) == 1.0 / self.T])

    def value_shift(self) -> float:
        """-T ln(sum c): seed 002's LPBoost-form value (15, weighted) minus the value here."""
        return -self.T * math.log(float(self.c.sum()))

    def seed_objective(self, value: float) -> float:
        """Opt of the weighted (5): ln(sum c) - value / T."""
        return math.log(float(self.c.sum())) - value / self.T


CostSensitiveAdaBoostL1.params = CostSensitiveAdaBoostL1.own_params

FORMULATION = CostSensitiveAdaBoostL1
