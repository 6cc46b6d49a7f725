"""Any scikit-learn estimator as a weak learner, and a fitted ensemble's members as a finite class.

**Estimator oracle** (``EstimatorOracle``, heuristic: ``exact = False``). Given d, it fits a clone
of the user's estimator on the training data with labels y and ``sample_weight = d`` and proposes
its +-1 predictions h (scikit-learn's AdaBoost convention, ``estimator=``); if the edge
``sum_n d_n y_n h(x_n)`` is negative it proposes -h instead, so the class it searches is closed
under negation. A weighted fit minimizes a surrogate of the weighted error, which is
``(1 - edge) / 2`` for +-1 predictions (thesis Def. 2.1), so the proposal is a good hypothesis
but not certified to be the best one: the certificates hold over the hypotheses found.

**Ensemble members** (:func:`ensemble_hypotheses`): the members of a fitted scikit-learn ensemble
(AdaBoost's and a random forest's ``estimators_``, gradient boosting's regression trees through
the sign of their output) as a finite hypothesis class; :class:`FiniteColumnOracle` over their
prediction matrix lets any formulation re-solve their weights, certified over them
(``reweight_ensemble``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import DualBoostInputError
from .base import Hypothesis, Oracle, as_labels
from .finite import FiniteColumnOracle


def supports_sample_weight(estimator: Any) -> bool:
    """Whether ``estimator.fit`` takes ``sample_weight`` (scikit-learn's ``has_fit_parameter``)."""
    from sklearn.utils.validation import has_fit_parameter

    try:
        return bool(has_fit_parameter(estimator, "sample_weight"))
    except (TypeError, ValueError):
        return False


def check_weak_estimator(estimator: Any) -> None:
    """Refuse, in one line, an object that is no estimator or cannot take ``sample_weight``."""
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
        raise DualBoostInputError(f"estimator must have fit and predict (a scikit-learn "
                                  f"estimator), got {type(estimator).__name__}")
    if not supports_sample_weight(estimator):
        raise DualBoostInputError(
            f"estimator {type(estimator).__name__} does not accept sample_weight in fit, "
            "which the oracle needs to fit it to the distribution d")


@dataclass(frozen=True, eq=False)
class EstimatorHypothesis(Hypothesis):
    """``x -> sign * predict(x)`` of a fitted scikit-learn estimator whose classes are -1, +1
    (or, with ``kind="sign"``, ``sign * sign(predict(x))`` of a regressor, 0 mapped to +1)."""

    estimator: Any
    sign: int = 1
    kind: str = "labels"
    label: str = field(default="")

    def predict(self, X: Any) -> np.ndarray:
        p = np.asarray(self.estimator.predict(X), dtype=float).reshape(-1)
        if self.kind == "sign":
            p = np.where(p >= 0, 1.0, -1.0)
        return self.sign * p

    def describe(self) -> dict:
        return {"type": "estimator", "estimator": self.label or repr(self.estimator),
                "sign": self.sign}

    def negated(self) -> EstimatorHypothesis:
        return EstimatorHypothesis(self.estimator, -self.sign, self.kind, self.label)


class EstimatorOracle(Oracle):
    """A clone of ``estimator`` fitted with ``sample_weight = d`` per call (module docstring)."""

    name = "estimator"
    exact = False

    def __init__(self, estimator: Any) -> None:
        check_weak_estimator(estimator)
        self.estimator = estimator

    def fit(self, X: Any, y: Any) -> EstimatorOracle:
        n = X.shape[0]
        self._X = X
        self._y = as_labels(y, n)
        self._n_examples = n
        self._calls = 0
        return self

    def best(self, d: Any) -> tuple[EstimatorHypothesis, np.ndarray]:
        from sklearn.base import clone

        d = self._check_d(d)
        # solvers return entries like -1e-16; a weight must be >= 0, and scaling does not
        # change a weighted fit (sum 1 keeps the estimator's own tolerances meaningful)
        weights = np.clip(d, 0.0, None)
        total = weights.sum()
        weights = weights / total if total > 0 else np.full(d.size, 1.0 / d.size)
        # dyadic weights (multiples of 2^-40): the estimator's weighted sums are then exact
        # whatever their order, so the master's last-bit noise in d and the order of the rows
        # do not decide its ties (a row's weight below 2^-41 becomes 0)
        weights = np.round(weights * 2.0**40) / 2.0**40
        if not weights.sum() > 0:
            weights = np.full(d.size, 1.0 / d.size)
        est = clone(self.estimator)
        if "random_state" in est.get_params(deep=False) \
                and est.get_params(deep=False)["random_state"] is None:
            # reproducible runs: a fixed seed per call, different between calls
            est.set_params(random_state=self._calls)
        self._calls += 1
        try:
            est.fit(self._X, self._y, sample_weight=weights)
        except ValueError as exc:
            raise DualBoostInputError(f"estimator {type(est).__name__} failed to fit: "
                                      f"{' '.join(str(exc).split())}") from None
        label = type(est).__name__
        h = EstimatorHypothesis(est, 1, "labels", label)
        u = h.column(self._X, self._y)
        if float(u @ d) < 0:  # the class is closed under negation
            h, u = h.negated(), -u
        return h, u

    def all_columns(self) -> tuple[np.ndarray, list[Hypothesis]]:
        raise DualBoostInputError("oracle 'estimator': its class (every fit of the estimator) "
                                  "cannot be listed; certificates hold over the hypotheses "
                                  "found")


def ensemble_hypotheses(ensemble: Any, classes: Any = None) -> list[EstimatorHypothesis]:
    """The members of a fitted scikit-learn ensemble as +-1 hypotheses.

    AdaBoost, bagging, random forests and extra trees: each member of ``estimators_``, mapping
    its predicted class to -1 (``classes[0]``) / +1 (``classes[1]``; default the ensemble's
    ``classes_``). Gradient boosting: each stage's regression tree through the sign of its
    output (positive means ``classes[1]``). Members are fitted already; nothing is refitted.
    """
    members = getattr(ensemble, "estimators_", None)
    if members is None:
        raise DualBoostInputError(f"{type(ensemble).__name__} is not a fitted ensemble (no "
                                  "estimators_)")
    classes = list(getattr(ensemble, "classes_", []) if classes is None else classes)
    members_arr = np.asarray(members, dtype=object)
    if members_arr.ndim == 2:  # gradient boosting: (n_stages, K) regression trees, K = 1
        if members_arr.shape[1] != 1:
            raise DualBoostInputError("gradient boosting with more than 2 classes: dualboost "
                                      "is binary")
        return [EstimatorHypothesis(m, 1, "sign", f"{type(m).__name__}[{i}]")
                for i, m in enumerate(members_arr[:, 0])]
    if len(classes) != 2:
        raise DualBoostInputError(f"the ensemble has {len(classes)} classes; dualboost is "
                                  "binary")
    out = []
    for i, m in enumerate(members):
        out.append(EstimatorHypothesis(_LabelsToSigns(m, classes), 1, "labels",
                                       f"{type(m).__name__}[{i}]"))
    return out


class _LabelsToSigns:
    """A fitted classifier whose ``predict`` gives -1 for ``classes[0]``, +1 for ``classes[1]``.

    Members of a random forest predict class *indices* (0/1) rather than labels, members of
    AdaBoost the labels themselves; both are mapped."""

    def __init__(self, member: Any, classes: list) -> None:
        self.member = member
        self.classes = classes

    def predict(self, X: Any) -> np.ndarray:
        p = np.asarray(self.member.predict(X))
        own = list(getattr(self.member, "classes_", self.classes))
        if len(own) == 2 and own != list(self.classes):  # e.g. a forest's [0., 1.] indices
            return np.where(p == own[1], 1.0, -1.0)
        return np.where(p == self.classes[1], 1.0, -1.0)

    def __repr__(self) -> str:
        return f"member({self.member!r})"


__all__ = ["EstimatorHypothesis", "EstimatorOracle", "FiniteColumnOracle",
           "check_weak_estimator", "ensemble_hypotheses", "supports_sample_weight"]
