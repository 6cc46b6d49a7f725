"""TotalBoost: SoftBoost without capping (nu = 1), thesis §3.1 ("SoftBoost with nu = 1 is
TotalBoost"); the master is (3.1) without the caps d <= 1/nu, its dual has no psi, and
Algorithm 3.1 runs unchanged (T <= floor((2/eps^2) ln N) + 1, Thm 3.2 at nu = 1)."""

from __future__ import annotations

from dualboost.params import D0, EPS, NU
from dualboost.params import pinned as fixed
from formulations.softboost import EDGE_BOUND, SoftBoost


class TotalBoost(SoftBoost):
    name = "totalboost"
    summary = "TotalBoost: SoftBoost with nu = 1 (hard margin, no caps)"
    equations = "thesis (3.1)-(3.4) at nu = 1; Algorithm 3.1"
    params = (EPS, D0, EDGE_BOUND)
    #: nu is not a parameter here (passing it is an error): fixed at 1, which the verifier checks
    pinned = (fixed(NU, 1.0),)


FORMULATION = TotalBoost
