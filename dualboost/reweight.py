"""Reweight a fitted scikit-learn ensemble: its members as a finite hypothesis class, their
weights re-solved by any formulation and certified over them (the members are the class, so the
finite oracle is exact). A front end over :func:`dualboost.api.run`; the members' hypotheses are
:func:`dualboost.oracles.learners.ensemble_hypotheses`."""

from __future__ import annotations

from typing import Any

import numpy as np

from .api import run
from .data import encode_labels
from .oracles.learners import ensemble_hypotheses

__all__ = ["reweight_ensemble", "reweighted_scores"]


def reweight_ensemble(ensemble: Any, X: Any, y: Any, **run_kwargs: Any):
    """Re-solve the weights of a fitted ensemble's members by any formulation.

    The members (:func:`ensemble_hypotheses`) give an N x J prediction matrix on (X, y), the
    finite class of :class:`FiniteColumnOracle`; :func:`dualboost.api.run` solves it (keyword
    arguments such as ``formulation``, ``nu_frac``, ``eps`` are passed on). The result is certified
    over the members (the class is finite and the oracle exact). Returns ``(result,
    hypotheses)``: ``result.weights[q]`` weighs ``hypotheses[result.hypotheses[q].index]``, and
    ``combined_scores`` / :func:`reweighted_scores` predict on new data.
    """
    y = np.asarray(y)
    y_pm, classes = encode_labels(y)
    hyps = ensemble_hypotheses(ensemble, classes=list(classes))
    H = np.column_stack([h.predict(X) for h in hyps])
    result = run(None, y_pm, hypotheses=H, **run_kwargs)
    return result, hyps


def reweighted_scores(result: Any, hypotheses: list, X: Any) -> np.ndarray:
    """f(x) = sum_q w_q h_{j_q}(x) of a :func:`reweight_ensemble` result on new rows X."""
    out = np.zeros(X.shape[0])
    for weight, col in zip(result.weights, result.hypotheses):
        out = out + weight * hypotheses[col.index].predict(X)
    return out
