"""Weak learners: maximum-edge oracles over decision stumps, raw features, kernel hypotheses, a
given matrix, decision trees, or any scikit-learn estimator.

Every oracle follows :class:`Oracle`: ``fit(X, y)`` once, then ``best(d)`` returns the hypothesis
of maximum edge ``u . d`` (``u = y * h(X)``) and its column, and ``all_columns()`` lists every
distinct column of the class for certifying the optimum with the full LP. An oracle declares
``exact``: True when ``best(d)`` is the maximum over its whole class (stumps, raw, kernel, finite,
tree2_exact, hist_stumps -- whose class is the stumps at quantile bin edges), False for a
heuristic (greedy trees of depth >= 2, an estimator); with a heuristic oracle the certificates
hold over the hypotheses found only (docs/theory.md, "Heuristic oracles").
"""

from __future__ import annotations

from typing import Any

from ..errors import DualBoostInputError
from .base import Hypothesis, Oracle, distinct_columns
from .finite import Column, FiniteColumnOracle
from .hist_stumps import HistStumpOracle
from .kernel import KernelHypothesis, KernelOracle
from .learners import EstimatorHypothesis, EstimatorOracle
from .raw import RawFeature, RawFeatureOracle
from .stumps import Stump, StumpOracle
from .trees import ExactDepth2TreeOracle, Tree, TreeOracle

ORACLE_NAMES: tuple[str, ...] = ("stumps", "raw", "finite", "kernel", "tree", "tree2_exact",
                                 "hist_stumps")

#: the options each oracle takes (``make_oracle(name, **options)``, ``dualboost fit --oracle tree
#: --param max_depth=3``, ``DualBoostClassifier(oracle_params={...})``)
ORACLE_PARAMS: dict[str, tuple[str, ...]] = {
    "tree": ("max_depth", "max_bins", "criterion"),
    "tree2_exact": ("max_bins",),
    "hist_stumps": ("max_bins",),
}

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
    "tree": ("decision trees of depth <= max_depth (default 3) with leaves +-1 on quantile-binned "
             "features (max_bins <= 255, default 255), grown greedily for the edge "
             "(criterion 'edge', or 'gini'); heuristic for depth >= 2: certificates hold over "
             "the trees found", True),
    "tree2_exact": ("the tree of maximum edge over all depth-2 trees on binned features "
                    "(max_bins, default 32); exact, about F^2 (N + bins^2) per call", True),
    "hist_stumps": ("decision stumps with thresholds at the quantile bin edges of each feature "
                    "(max_bins <= 255, default 255; uint8 codes computed once per fit), and the "
                    "constants +-1; exact over that binned class, so certificates hold over it; "
                    "O(N F) per call without sorting (one bincount per feature)", True),
    "finite": ("the columns of a given N x J matrix of predictions in [-1, 1] (--hypotheses, "
               "worst_case:N); predicts on its training examples only", False),
}

__all__ = [
    "ORACLE_NAMES",
    "ORACLE_PARAMS",
    "ORACLE_SUMMARIES",
    "Column",
    "EstimatorHypothesis",
    "EstimatorOracle",
    "ExactDepth2TreeOracle",
    "FiniteColumnOracle",
    "HistStumpOracle",
    "Hypothesis",
    "KernelHypothesis",
    "KernelOracle",
    "Oracle",
    "RawFeature",
    "RawFeatureOracle",
    "Stump",
    "StumpOracle",
    "Tree",
    "TreeOracle",
    "distinct_columns",
    "make_oracle",
]


def make_oracle(name: str, hypotheses: Any = None, **options: Any) -> Oracle:
    """A new, unfitted oracle by name: "stumps", "raw", "kernel" (linear-kernel SVM hypotheses),
    "finite", "tree" (greedy trees; options ``max_depth``, ``max_bins``, ``criterion``) or
    "tree2_exact" (the exact best depth-2 tree; option ``max_bins``) or "hist_stumps" (the exact
    best stump over quantile-binned features; option ``max_bins``).

    ``hypotheses`` (an N x J matrix with entries in [-1, 1]) is required by "finite" and
    rejected by the others, so that a matrix is never silently ignored; an option the oracle
    does not take is refused the same way (:data:`ORACLE_PARAMS`).
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in ORACLE_NAMES:
        raise DualBoostInputError(f"unknown oracle {name!r}; valid names: "
                                  f"{', '.join(ORACLE_NAMES)}")
    allowed = ORACLE_PARAMS.get(key, ())
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        takes = f"takes {', '.join(allowed)}" if allowed else "takes no options"
        raise DualBoostInputError(f"oracle {key!r} {takes}; got {', '.join(unknown)}")
    if key == "finite":
        if hypotheses is None:
            raise DualBoostInputError("oracle 'finite' needs a hypothesis matrix (hypotheses=...)")
        return FiniteColumnOracle(hypotheses)
    if hypotheses is not None:
        raise DualBoostInputError(f"oracle {key!r} takes no hypothesis matrix; "
                                  "use 'finite' for a given matrix")
    if key == "tree":
        return TreeOracle(**options)
    if key == "tree2_exact":
        return ExactDepth2TreeOracle(**options)
    if key == "hist_stumps":
        return HistStumpOracle(**options)
    return {"stumps": StumpOracle, "raw": RawFeatureOracle, "kernel": KernelOracle}[key]()
