"""One fit as the experiments need it: the run's numbers as plain JSON values, the test error,
and, when asked, the weights w^t after every master solve (to draw error per iteration).

The weights per iteration come from a subclass of the algorithm that keeps a copy of its
certified w after each step; nothing else about the run changes. The soft-margin LP (2.2)/(2.3)
over a fixed set of columns (:func:`soft_margin_lp`) is HiGHS through scipy.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..algorithms import algorithm_class
from ..api import resolve_nu, route_params
from ..registry import load_formulation


def soft_margin_lp(U: np.ndarray, nu: float) -> tuple[float, np.ndarray]:
    """max_{w in simplex, psi >= 0} min_n (U w + psi)_n - sum(psi)/nu: (value, w) (thesis (2.2))."""
    from scipy.optimize import linprog

    N, T = U.shape
    c = np.concatenate([np.zeros(T), np.full(N, 1.0 / nu), [-1.0]])
    A_ub = sp.hstack([sp.csr_matrix(-U), -sp.identity(N, format="csr"),
                      sp.csr_matrix(np.ones((N, 1)))], format="csr")
    A_eq = sp.csr_matrix(np.concatenate([np.ones(T), np.zeros(N), [0.0]])[None, :])
    bounds = [(0, None)] * (T + N) + [(None, None)]
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(N), A_eq=A_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise RuntimeError(f"soft-margin LP failed: {res.message}")
    return float(-res.fun), np.asarray(res.x[:T])


def _traced(algo: type) -> type:
    """``algo`` keeping a copy of its certified w (and the column count) after every step."""

    def step(self, t, u, may_solve):
        record = super(cls, self).step(t, u, may_solve)
        cert = getattr(self, "cert", None)
        if record.solved and cert is not None and getattr(cert, "w", None) is not None:
            self.trace.append(np.array(cert.w, dtype=float))
        return record

    cls = type(f"Traced{algo.__name__}", (algo,), {"step": step})
    return cls


def fit(X: Any, y: np.ndarray, *, formulation: str, algorithm: str | None = None,
        nu: float | None = None, nu_frac: float | None = None, eps: float | None = None,
        eta: float | None = None, oracle: str = "stumps", hypotheses: np.ndarray | None = None,
        params: dict | None = None, max_iter: int = 1000, trace: bool = False
        ) -> tuple[Any, list[np.ndarray] | None, float]:
    """(result, weights per iteration or None, seconds). Always one BLAS thread, no KKT
    diagnostic, no guarantee check (it is timed, so it would make a report depend on load)."""
    from ..algorithms import run_loop
    from ..api import run
    from ..oracles import make_oracle
    from ..threads import blas_limit

    tick = time.perf_counter()
    if not trace:
        result = run(X, y, formulation=formulation, algorithm=algorithm, nu=nu, nu_frac=nu_frac,
                     eps=eps, eta=eta, oracle=oracle, hypotheses=hypotheses, params=params,
                     max_iter=max_iter, kkt=False, blas_threads=1, guarantee_check=False)
        return result, None, time.perf_counter() - tick
    cls = load_formulation(formulation)
    algo = algorithm_class(algorithm or cls.default_algorithm)
    given = dict(params or {})
    for name, value in (("eps", eps), ("eta", eta)):
        if value is not None:
            given[name] = value
    N = len(y)
    if nu is not None or nu_frac is not None:
        given["nu"] = resolve_nu(N, nu, nu_frac)
    f_params, a_params = route_params(cls, algo, given)
    instance = cls(N, **f_params)
    if hasattr(algo, "_check_guarantee"):
        a_params["guarantee_check"] = False
    with blas_limit(1):
        weak = (make_oracle("finite", hypotheses=hypotheses) if hypotheses is not None
                else make_oracle(oracle)).fit(X, y)
        runner = _traced(algo)(instance, kkt=False, **a_params)
        runner.trace = []
        result = run_loop(runner, weak, max_iter=max_iter)
    positives = int(np.count_nonzero(y > 0))
    result.tie_label = 1.0 if positives > N - positives else -1.0
    return result, runner.trace, time.perf_counter() - tick


def predictions(hypotheses: list, X: Any) -> np.ndarray:
    """The M x T matrix of the hypotheses' predictions on X."""
    if not hypotheses:
        return np.zeros((X.shape[0], 0))
    return np.column_stack([np.asarray(h.predict(X), dtype=float) for h in hypotheses])


def error_of(weights: np.ndarray, H: np.ndarray, y: np.ndarray, tie: float) -> float:
    """Classification error of sgn(H w) (a score within 1e-9 goes to ``tie``)."""
    scores = H[:, :len(weights)] @ np.asarray(weights, dtype=float)
    labels = np.where(scores > 0, 1.0, -1.0)
    labels[np.abs(scores) <= 1e-9] = tie
    return float(np.mean(labels != y))


def summary(result: Any) -> dict:
    """The numbers every run record keeps."""
    return {"status": result.status, "T": int(result.iterations),
            "iterations": int(len(result.history)),
            "distinct": int(len({repr(h) for h in result.hypotheses})),
            "soft_margin": float(result.soft_margin),
            "lp_value": None if result.lp_value is None else float(result.lp_value),
            "primal": float(result.primal_objective), "dual": float(result.dual_objective),
            "eta": result.parameters.get("eta")}
