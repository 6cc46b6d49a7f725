"""``DualBoostClassifierCV``: nu chosen by cross-validation (issue 31), in the convention of
scikit-learn's ``LogisticRegressionCV``.

The soft margin's nu (``nu_frac`` = nu / N) decides how many examples the margin may give up
(docs/choosing_nu.md): nu_frac = 0.1 overfits 5 % label noise where 0.3 does not. This estimator
fits :class:`~dualboost.estimator.DualBoostClassifier` at every ``nu_fracs`` value on every fold
of ``cv`` (scikit-learn's :func:`~sklearn.model_selection.check_cv`: stratified k-fold for a
classifier, 5 folds by default) through :class:`~sklearn.model_selection.GridSearchCV`, keeps the
value of best mean ``scoring``, and refits on the whole training set there. Each fit is a
deterministic function of its data and parameters (the early stop counts work, not seconds), so
the selection does not depend on the machine's load. Every fit is a separate run (no warm start
along the path).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .estimator import DualBoostClassifier

__all__ = ["DEFAULT_NU_FRACS", "DualBoostClassifierCV"]

#: the nu / N values tried by default: from a nearly hard margin to half the examples
DEFAULT_NU_FRACS = (0.01, 0.05, 0.1, 0.2, 0.3, 0.5)


class DualBoostClassifierCV(ClassifierMixin, BaseEstimator):
    """DualBoostClassifier with ``nu_frac`` chosen by cross-validation (module docstring).

    Parameters
    ----------
    nu_fracs : sequence of float, default=DEFAULT_NU_FRACS
        The nu / N values tried, each in (0, 1].
    cv : int, cross-validation generator or iterable, default=5
        As for :class:`~sklearn.model_selection.GridSearchCV` (stratified k-fold for an int).
    scoring : str or callable or None, default=None
        As for GridSearchCV (None: accuracy).
    n_jobs : int or None, default=None
        Fits run in parallel (joblib).
    **The other parameters** are DualBoostClassifier's (formulation, eps, eta, oracle, stopping,
    max_iter, solver, algorithm, params, time_limit), used at every nu.

    Attributes
    ----------
    nu_frac_ : float
        The chosen nu / N.
    cv_results_ : dict
        GridSearchCV's ``cv_results_`` (``param_nu_frac``, ``mean_test_score``, ...).
    scores_ : ndarray of shape (len(nu_fracs),)
        The mean validation score at each nu_frac, in the order of ``nu_fracs``.
    best_estimator_ : DualBoostClassifier
        Refitted on the whole training set at ``nu_frac_``.
    classes_ : ndarray
        The two class labels.
    """

    def __init__(self, nu_fracs=DEFAULT_NU_FRACS, cv=5, scoring=None, n_jobs=None,
                 formulation="erlpboost", eps: float = 0.01, eta: float | None = None,
                 oracle: str = "stumps", stopping: str | None = None,
                 max_iter: int | None = None, solver: str | None = None,
                 algorithm: str | None = None, params: dict | None = None,
                 time_limit: float | None = None) -> None:
        self.nu_fracs = nu_fracs
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.formulation = formulation
        self.eps = eps
        self.eta = eta
        self.oracle = oracle
        self.stopping = stopping
        self.max_iter = max_iter
        self.solver = solver
        self.algorithm = algorithm
        self.params = params
        self.time_limit = time_limit

    def _base(self) -> DualBoostClassifier:
        return DualBoostClassifier(
            formulation=self.formulation, eps=self.eps, eta=self.eta, oracle=self.oracle,
            stopping=self.stopping, max_iter=self.max_iter, solver=self.solver,
            algorithm=self.algorithm, params=self.params, time_limit=self.time_limit)

    def fit(self, X, y, sample_weight=None) -> DualBoostClassifierCV:
        from sklearn.model_selection import GridSearchCV

        fracs = [float(v) for v in np.atleast_1d(np.asarray(self.nu_fracs, dtype=float))]
        if not fracs or not all(0.0 < v <= 1.0 for v in fracs):
            raise ValueError(f"nu_fracs must be fractions in (0, 1], got {self.nu_fracs!r}")
        search = GridSearchCV(self._base(), {"nu_frac": fracs}, cv=self.cv,
                              scoring=self.scoring, n_jobs=self.n_jobs, refit=True,
                              error_score="raise")
        fit_params: dict[str, Any] = {}
        if sample_weight is not None:
            fit_params["sample_weight"] = sample_weight
        search.fit(X, y, **fit_params)
        self.cv_results_ = search.cv_results_
        self.nu_frac_ = float(search.best_params_["nu_frac"])
        self.best_score_ = float(search.best_score_)
        order = [float(v) for v in search.cv_results_["param_nu_frac"]]
        means = search.cv_results_["mean_test_score"]
        self.scores_ = np.array([means[order.index(v)] for v in fracs])
        self.best_estimator_ = search.best_estimator_
        self.classes_ = self.best_estimator_.classes_
        self.n_features_in_ = getattr(self.best_estimator_, "n_features_in_", None)
        return self

    def decision_function(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    def predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)
