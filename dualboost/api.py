"""One entry point shared by the CLI, the estimator, the verifier and the docs.

``run(X, y, ...)`` resolves nu (count or fraction), builds the formulation and the oracle, and runs
the engine. Keeping this in one place means the CLI and ``DualBoostClassifier`` cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .engine import boost
from .errors import DualBoostInputError
from .registry import load_formulation
from .result import BoostResult, IterationRecord


def resolve_nu(N: int, nu: float | None = None, nu_frac: float | None = None) -> float:
    """nu as a count in [1, N] from either a count ``nu`` or a fraction ``nu_frac`` of N.

    With neither given, nu = 1 (the hard margin). ``nu_frac * N`` below 1 is raised to 1 only
    when it is within rounding of 1; otherwise it is an error, never a silent change.
    """
    if nu is not None and nu_frac is not None:
        raise DualBoostInputError("give either nu (a count in [1, N]) or nu_frac, not both")
    if nu_frac is not None:
        frac = float(nu_frac)
        if not math.isfinite(frac) or frac <= 0 or frac > 1:
            raise DualBoostInputError(f"nu_frac must be a fraction in (0, 1], got {nu_frac!r}")
        nu = frac * N
        if 1 - 1e-9 <= nu < 1:  # e.g. nu_frac = 1/49 with N = 49: rounding, not a choice
            nu = 1.0
        if nu < 1:
            raise DualBoostInputError(
                f"nu_frac = {frac:g} gives nu = {nu:g} < 1 for N = {N}; use nu_frac >= {1 / N:g}")
    if nu is None:
        return 1.0
    nu = float(nu)
    if not math.isfinite(nu) or nu < 1 or nu > N:
        raise DualBoostInputError(f"nu must be a count in [1, N] = [1, {N}], got {nu:g}")
    return nu


def run(
    X: np.ndarray | None,
    y: np.ndarray,
    *,
    formulation: str = "erlpboost",
    nu: float | None = None,
    nu_frac: float | None = None,
    eps: float = 0.01,
    eta: float | None = None,
    oracle: str = "stumps",
    hypotheses: np.ndarray | None = None,
    stopping: str | None = None,
    algorithm: str | None = None,
    params: dict | None = None,
    max_iter: int = 1000,
    solver: str | None = None,
    kkt: bool = True,
    progress: Callable[[IterationRecord], None] | None = None,
) -> BoostResult:
    """Fit one boosting run on (X, y) with labels y in {-1, +1}.

    ``hypotheses`` (an N x J matrix of predictions in [-1, 1]) selects the finite-column oracle
    and makes ``oracle`` and X irrelevant. ``kkt=False`` skips the per-iteration KKT recovery
    diagnostic (its residual is then None in the history). ``params`` sets any parameter the
    formulation declares (``nu``, ``eps``, ``eta`` keep their own keywords); one it does not
    declare is an error. ``algorithm`` defaults to the formulation's own.
    """
    from .oracles import make_oracle

    y = np.asarray(y, dtype=float)
    N = y.shape[0]
    if N == 0:
        raise DualBoostInputError("the data set is empty")
    cls = load_formulation(formulation)
    given = dict(params or {})
    declared = {p.name for p in cls.params}
    if "nu" in declared or nu is not None or nu_frac is not None:
        given["nu"] = resolve_nu(N, nu, nu_frac) if (nu is not None or nu_frac is not None) \
            else given.get("nu", resolve_nu(N))
    if eps is not None:
        given.setdefault("eps", eps)
    if eta is not None:
        given["eta"] = eta
    instance = cls(N, **given)
    if hypotheses is not None:
        weak = make_oracle("finite", hypotheses=hypotheses).fit(X, y)
    else:
        weak = make_oracle(oracle).fit(X, y)
    return boost(instance, weak, algorithm=algorithm, stopping=stopping, max_iter=max_iter,
                 solver=solver, kkt=kkt, progress=progress)
