"""Seed 002's soft-margin LPBoost with the hinge loss, (21)/(22): LPBoost with D = 1/nu.

Naming: seed 002 calls the w-domain problem (21) the *primal* and the u-domain problem (22) the
*dual*; here (as in the whole toolkit) the *primal* is the d-domain problem (d = seed 002's u)
and the *dual* the w-domain one. Translated here, once.

Seed 002's w-domain problem (21) (hinge loss, p = 1 of the l_p hinge family (27)/(28))::

    max_{w, rho, xi}  rho - D sum_i xi_i   s.t.  y_i H_i w >= rho - xi_i,  w >= 0, 1^T w = 1,
                                                xi >= 0

and its u-domain dual (22) (with the erratum "D 1 >= u >= 0", not the strict inequalities)::

    min_{r, u}  r   s.t.  U^T u <= r 1,  0 <= u <= D 1,  1^T u = 1

This is the thesis's soft-margin LP (2.3)/(2.2) with the cap 1/nu = D, i.e. nu = 1/D as a count
(``lpboost`` at nu = 1/D, identity I33 of docs/formulations.md): u = d, r = gamma, rho = -beta,
xi = psi. Feasibility needs D >= 1/N (nu <= N); D >= 1 leaves the caps idle (nu = 1, the hard
margin (19)/(20)), so D lies in [1/N, 1]. The optimum is the average of the 1/D smallest margins
(seed 002 citing [24]; thesis (2.2)).

D (seed 002's name) is the parameter; nu = 1/D is derived from it (reported, not a parameter).
The default D = 1/max(1, 0.1 N) is ``lpboost``'s default nu = max(1, 0.1 N). Everything else
(models, certificates, the warm-started HiGHS master) is LPBoost's, unchanged.
"""

from __future__ import annotations

import cvxpy as cp

from dualboost.params import EPS, Param
from formulations.lpboost import LPBoost


def _d_in_range(value: float, N: int, values) -> str | None:
    """D must lie in [1/N, 1]: below 1/N (22) is infeasible (sum u = 1 with u <= D)."""
    if value < 1.0 / N * (1 - 1e-12) or value > 1.0:
        return (f"must lie in [1/N, 1] = [{1.0 / N:g}, 1] for N = {N} (seed 002 (22): the caps "
                f"u <= D with sum u = 1; nu = 1/D is a count in [1, N]), got {value:g}")
    return None


D_PARAM = Param("D", "seed 002's soft-margin constant D of (21)/(22): max rho - D sum xi, the "
                "caps u <= D; nu = 1/D (a count in [1, N]), so D in [1/N, 1]",
                default=lambda N, values: 1.0 / max(1.0, 0.1 * N), check=_d_in_range,
                default_text="1/max(1, 0.1 N) (nu = max(1, 0.1 N), lpboost's default)")


class HingeLPBoost(LPBoost):
    name = "lpboost_hinge"
    summary = "seed 002's soft-margin LPBoost (hinge loss) with D: lpboost at nu = 1/D"
    equations = "seed 002 (21), (22); thesis (2.2), (2.3)"
    params = (D_PARAM, EPS)

    def _check(self) -> None:
        # nu = 1/D as a count, kept inside [1, N] against round-off (D = 1/N gives N exactly)
        self.nu = min(float(self.N), max(1.0, 1.0 / self.D))
        super()._check()

    @classmethod
    def params_for_nu(cls, N: int, nu: float) -> dict:
        """D = 1/nu: the verifier's cases (a cap count nu) checked at their own caps."""
        return {"D": 1.0 / float(nu)}

    def parameters(self) -> dict:
        return {**super().parameters(), "nu": self.nu}

    def seed_objective(self, value: float) -> float:
        """-Opt(21) (the optimum of :meth:`seed_problem`) from the value here: Opt(21) =
        Opt(22) = P (no shift, no scale)."""
        return -value

    def seed_problem(self, U):
        """Seed 002's w-domain problem (21) as printed, as a minimization of -(rho - D sum xi):
        the verifier's D5 compares its optimum with seed_objective."""
        U = self.check_columns(U)
        w = cp.Variable(U.shape[1], nonneg=True)
        rho = cp.Variable()
        xi = cp.Variable(self.N, nonneg=True)
        return cp.Problem(cp.Minimize(self.D * cp.sum(xi) - rho),
                          [U @ w >= rho - xi, cp.sum(w) == 1])


FORMULATION = HingeLPBoost
