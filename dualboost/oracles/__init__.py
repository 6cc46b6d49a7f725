"""Weak learners: exact maximum-edge oracles over decision stumps, raw features, or a given matrix.

Every oracle follows :class:`Oracle`: ``fit(X, y)`` once, then ``best(d)`` returns the hypothesis
of maximum edge ``u . d`` (``u = y * h(X)``) and its column, and ``all_columns()`` lists every
distinct column of the class for certifying the optimum with the full LP.
"""

from __future__ import annotations

from typing import Any

from ..errors import DualBoostInputError
from .base import Hypothesis, Oracle, distinct_columns
from .finite import Column, FiniteColumnOracle
from .kernel import KernelHypothesis, KernelOracle
from .raw import RawFeature, RawFeatureOracle
from .stumps import Stump, StumpOracle

ORACLE_NAMES: tuple[str, ...] = ("stumps", "raw", "finite", "kernel")

#: one line per oracle for ``dualboost list``: what its class is, and whether a fitted model
#: of it predicts on new data (``dualboost predict``, ``DualBoostClassifier``)
ORACLE_SUMMARIES: dict[str, tuple[str, bool]] = {
    "stumps": ("decision stumps sign * (+1 if x_j > threshold else -1), a threshold between "
               "every two consecutive distinct training values of a feature, and the constants "
               "+-1 (the default)", True),
    "raw": ("each feature rescaled to [-1, 1] by its training range [min, max] (clipped on new "
            "data), and its negation", True),
    "kernel": ("SVM hypotheses (thesis §5): each training row x_i as h_i(x) = <x_i, x> / s, "
               "s = max_n ||x_n||^2 over the training rows (every training value in [-1, 1]; "
               "clipped on new data), and its negation; O(nnz) per call, X (X^T r)", True),
    "finite": ("the columns of a given N x J matrix of predictions in [-1, 1] (--hypotheses, "
               "worst_case:N); predicts on its training examples only", False),
}

__all__ = [
    "ORACLE_NAMES",
    "ORACLE_SUMMARIES",
    "Column",
    "FiniteColumnOracle",
    "Hypothesis",
    "KernelHypothesis",
    "KernelOracle",
    "Oracle",
    "RawFeature",
    "RawFeatureOracle",
    "Stump",
    "StumpOracle",
    "distinct_columns",
    "make_oracle",
]


def make_oracle(name: str, hypotheses: Any = None) -> Oracle:
    """A new, unfitted oracle by name: "stumps", "raw", "kernel" (linear-kernel SVM hypotheses)
    or "finite".

    ``hypotheses`` (an N x J matrix with entries in [-1, 1]) is required by "finite" and
    rejected by the others, so that a matrix is never silently ignored.
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "finite":
        if hypotheses is None:
            raise DualBoostInputError("oracle 'finite' needs a hypothesis matrix (hypotheses=...)")
        return FiniteColumnOracle(hypotheses)
    if key in ("stumps", "raw", "kernel"):
        if hypotheses is not None:
            raise DualBoostInputError(f"oracle {key!r} takes no hypothesis matrix; "
                                      "use 'finite' for a given matrix")
        return {"stumps": StumpOracle, "raw": RawFeatureOracle, "kernel": KernelOracle}[key]()
    raise DualBoostInputError(f"unknown oracle {name!r}; valid names: {', '.join(ORACLE_NAMES)}")
