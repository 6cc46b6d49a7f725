"""One entry point shared by the CLI, the estimator, the verifier and the docs.

``run(X, y, ...)`` resolves nu (count or fraction), routes every other parameter to the formulation
or the algorithm that declares it (:func:`route_params`), builds the formulation and the oracle, and
runs the engine. Keeping this in one place means the CLI and ``DualBoostClassifier`` cannot drift
apart: a parameter that neither the formulation nor the algorithm declares is an error in both.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .algorithms import Algorithm, algorithm_class
from .diagnostics import attach_warnings
from .engine import boost
from .errors import DualBoostInputError
from .formulation import Formulation
from .registry import load_formulation
from .result import BoostResult, IterationRecord
from .threads import blas_limit

__all__ = ["declared_names", "resolve_nu", "route_params", "run"]


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


def declared_names(formulation_cls: type[Formulation],
                   algorithm_cls: type[Algorithm]) -> str:
    """One line naming the declared parameters of a formulation and an algorithm."""
    f_names = ", ".join(p.name for p in formulation_cls.params) or "none"
    a_names = ", ".join(p.name for p in algorithm_cls.params) or "none"
    return (f"formulation {formulation_cls.name!r} declares: {f_names}; "
            f"algorithm {algorithm_cls.name!r} declares: {a_names}")


def route_params(formulation_cls: type[Formulation], algorithm_cls: type[Algorithm],
                 given: Mapping[str, Any], *,
                 labels: Mapping[str, str] | None = None) -> tuple[dict, dict]:
    """Split ``given`` into the formulation's and the algorithm's parameters, by declaration.

    A name declared by both goes to both. A name declared by neither is a
    :class:`DualBoostInputError` that names the declared ones; ``labels`` says how to call a
    parameter in that message (the CLI passes ``{"eta": "--eta"}``).
    """
    f_names = {p.name for p in formulation_cls.params}
    a_names = {p.name for p in algorithm_cls.params}
    unknown = [k for k in given if k not in f_names and k not in a_names]
    if "sample_weight" in unknown:
        from .params import sample_weight_unsupported

        raise DualBoostInputError(sample_weight_unsupported(
            f"formulation {formulation_cls.name!r}"))
    if unknown:
        labels = labels or {}
        what = ", ".join(labels.get(k, repr(k)) for k in unknown)
        verb = "are not parameters" if len(unknown) > 1 else "is not a parameter"
        raise DualBoostInputError(
            f"{what} {verb} of formulation {formulation_cls.name!r} or algorithm "
            f"{algorithm_cls.name!r} ({declared_names(formulation_cls, algorithm_cls)})")
    return ({k: v for k, v in given.items() if k in f_names},
            {k: v for k, v in given.items() if k in a_names})


def run(
    X: np.ndarray | None,
    y: np.ndarray,
    *,
    formulation: str | type[Formulation] | None = None,
    nu: float | None = None,
    nu_frac: float | None = None,
    eps: float | None = None,
    eta: float | None = None,
    oracle: str | Any = "stumps",
    hypotheses: np.ndarray | None = None,
    oracle_params: Mapping[str, Any] | None = None,
    stopping: str | None = None,
    algorithm: str | None = None,
    params: Mapping[str, Any] | None = None,
    max_iter: int | None = None,
    solver: str | None = None,
    kkt: bool = True,
    master: str = "auto",
    progress: Callable[[IterationRecord], None] | None = None,
    time_limit: float | None = None,
    blas_threads: int | None = None,
    guarantee_check: bool = True,
) -> BoostResult:
    """Fit one boosting run on (X, y) with labels y in {-1, +1}.

    ``formulation`` is a registered name, the path of a ``.py`` file or a class (default: the
    algorithm's own problem where it has one, e.g. ``adaboost_l1`` for ``adaboost_cg``, else
    ``erlpboost``); ``algorithm`` defaults to the formulation's own (``default_algorithm``).
    ``params`` sets any parameter the formulation or the algorithm declares (e.g.
    ``{"q": 0.3}`` for a Tsallis regularizer);
    ``nu``/``nu_frac``, ``eps``, ``eta`` and ``stopping`` are shortcuts for the parameters of
    those names, passed only when not None. Giving a parameter that neither declares, or the same
    parameter twice (a shortcut and ``params``), is a :class:`DualBoostInputError`; so is a pairing
    the algorithm cannot run (its one-line reason is quoted).

    ``oracle`` names the hypothesis class (:func:`dualboost.oracles.make_oracle`): ``"stumps"``,
    ``"raw"`` or ``"kernel"`` (SVM hypotheses ``<x_i, x> / s``, ``s = max_n ||x_n||^2`` over
    the training rows, clipped to [-1, 1] on new data). ``hypotheses`` (an N x J matrix of
    predictions in [-1, 1]) selects the finite-column oracle and makes ``oracle`` and X
    irrelevant. ``"tree"`` (greedy trees, heuristic) and ``"tree2_exact"`` (the exact best
    depth-2 tree) take options in ``oracle_params`` (e.g. ``{"max_depth": 3}``); an unfitted
    :class:`dualboost.oracles.Oracle` instance (e.g. an
    :class:`~dualboost.oracles.EstimatorOracle`) is used as given. A heuristic oracle
    (``exact = False``) makes no whole-class statement and no early stop
    (:func:`dualboost.engine.label_relative`). ``kkt=False`` skips the per-iteration KKT recovery
    diagnostic (its residual is then None in the history). ``master="reference"`` keeps every
    master solve on the cvxpy reference path (see :func:`dualboost.engine.boost`).
    ``time_limit`` (seconds, None: none) and Ctrl-C end the run early with status
    ``"time_limit"`` / ``"interrupted"`` and the last certified bracket
    (:func:`dualboost.algorithms.run_loop`).

    ``blas_threads``: BLAS threads during the fit (the oracle's set-up and the loop). None
    (default): one thread, unless the user set ``OMP_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS`` /
    ``MKL_NUM_THREADS`` or runs inside ``threadpoolctl.threadpool_limits``, which are left alone
    (:mod:`dualboost.threads`: more threads gain a few percent alone and cost 3x with two
    fits on two cores).

    ``max_iter`` (None: the algorithm's default): at most that many master steps; the default
    is 1000, and a corrective algorithm's own iteration bound capped at 100000 (the
    corrective algorithms need thousands of O(N) steps; :meth:`Algorithm.default_max_iter`).

    ``guarantee_check=False`` keeps LPBoost (Algorithm 2.1) and ERLPBoost (Algorithm 3.2) (also
    SoftBoost/TotalBoost, Algorithm 3.1, and ``fw``/``mlpboost``) running to their own stopping
    rule when, once the guarantee check is due (after a fixed amount of master work, counted in
    matrix entries and solver iterations, never on the clock), the eventual guarantee is
    already certified empty or weak
    (docs/theory.md, "Stopping early"); by default they stop there with status
    ``"vacuous_guarantee"`` / ``"weak_guarantee"`` (LPBoost also ``"degenerate_lp"``) and the
    remedy.
    """
    from .oracles import make_oracle

    y = np.asarray(y, dtype=float)
    N = y.shape[0]
    if N == 0:
        raise DualBoostInputError("the data set is empty")
    if formulation is None:  # the algorithm's own problem (seed 002's CG), else erlpboost
        own = getattr(algorithm_class(algorithm), "default_formulation", None) if algorithm \
            else None
        formulation = own or "erlpboost"
    cls = load_formulation(formulation)
    algo = algorithm_class(algorithm or cls.default_algorithm)
    given = dict(params or {})
    shortcuts = {"eps": eps, "eta": eta, "stopping": stopping,
                 "nu": nu if nu is not None else nu_frac}
    for name, value in shortcuts.items():
        if value is None:
            continue
        if name in given:
            raise DualBoostInputError(f"{name} is given twice (as a keyword and in params)")
        given[name] = value
    f_params, a_params = route_params(cls, algo, given)
    if nu is not None or nu_frac is not None:
        # nu is validated here (count or fraction); the schema re-checks the count
        nu_value = resolve_nu(N, nu, nu_frac)
        for routed in (f_params, a_params):
            if "nu" in routed:
                routed["nu"] = nu_value
    instance = cls(N, **f_params)
    reason = algo.unsupported(instance)
    if reason:  # before the oracle is fitted, which may take long
        raise DualBoostInputError(
            f"algorithm {algo.name!r} cannot run formulation {instance.name!r}: {reason}")
    with blas_limit(blas_threads):
        if hypotheses is not None:
            weak = make_oracle("finite", hypotheses=hypotheses).fit(X, y)
        elif isinstance(oracle, str):
            weak = make_oracle(oracle, **dict(oracle_params or {})).fit(X, y)
        else:  # an Oracle instance
            if oracle_params:
                raise DualBoostInputError("oracle_params apply to an oracle given by name, "
                                          "not to an oracle instance")
            weak = oracle.fit(X, y)
        if not guarantee_check and hasattr(algo, "_check_guarantee"):
            a_params = {**a_params, "guarantee_check": False}
        result = boost(instance, weak, algorithm=algo.name, max_iter=max_iter, solver=solver,
                       kkt=kkt, master=master, progress=progress, time_limit=time_limit,
                       **a_params)
    positives = int(np.count_nonzero(y > 0))
    result.tie_label = 1.0 if positives > N - positives else -1.0  # model_io.majority_class
    return attach_warnings(result, y, instance)  # warnings and status: dualboost.diagnostics
