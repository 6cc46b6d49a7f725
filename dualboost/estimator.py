"""A scikit-learn classifier around :func:`dualboost.api.run`.

:class:`DualBoostClassifier` is a thin adapter: it validates the input the scikit-learn way,
encodes the two classes as -1 / +1, turns the fraction ``nu_frac`` into the count nu and hands
everything else to :func:`dualboost.api.run`, the entry point the CLI uses too, so the two cannot
drift apart.
"""

from __future__ import annotations

import math
import os
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .api import resolve_nu, run
from .data import encode_labels
from .result import BoostResult

__all__ = ["DualBoostClassifier"]

#: Oracles whose hypotheses can predict on new data. "finite" is excluded: its hypotheses are
#: columns of a matrix given on the training examples and have no meaning for a new x.
ESTIMATOR_ORACLES: tuple[str, ...] = ("stumps", "raw")


class DualBoostClassifier(ClassifierMixin, BaseEstimator):
    """Binary boosting classifier solved as a convex program by column generation.

    Each iteration adds the weak hypothesis of largest edge under the current distribution d on
    the examples and re-solves the totally corrective master problem, certified by strong
    duality (see :mod:`dualboost.engine`). With ``formulation="lpboost"`` the master problem is
    the soft-margin LP, thesis (2.2) (weights w) and (2.3) (distribution d), Algorithm 2.1; with
    ``formulation="erlpboost"`` it is the entropy-regularized LP, thesis (3.6) (primal over d) and
    its dual (3.10) (over w), Algorithm 3.2. The classifier is
    ``f(x) = sum_q w_q h_q(x)`` and ``predict`` returns ``classes_[1]`` where ``f(x) > 0``.

    Only binary problems are supported.

    Parameters
    ----------
    formulation : str or path-like, default="erlpboost"
        A registered formulation name (see :func:`dualboost.available_formulations`, e.g.
        ``"lpboost"``, ``"erlpboost"``) or the path of a ``.py`` file defining one
        :class:`~dualboost.Formulation` subclass.
    nu_frac : float, default=0.1
        The soft-margin parameter as a fraction of the number N of training examples,
        in ``(0, 1]``: ``nu = nu_frac * N`` (thesis convention: nu is a count in [1, N];
        nu = 1 is the hard margin; the soft margin (2.2) is the average of the nu smallest
        margins). Unlike :func:`dualboost.api.resolve_nu`, which refuses ``nu_frac * N < 1``,
        the estimator **raises nu to 1** (the hard margin) in that case, so that small data sets
        -- such as the few-sample data scikit-learn's estimator checks fit -- still work. The
        count actually used is stored in ``nu_``.
    eps : float, default=0.01
        Target accuracy of the stopping rule (> 0).
    eta : float or None, default=None
        Regularization parameter of regularized formulations (ERLPBoost: the relative entropy
        in (3.6) is weighted by 1/eta). None uses the formulation's theoretical default
        (ERLPBoost, thesis §3.2.5: ``max((2/eps) ln(N/nu), 1/2)``); ignored by LPBoost.
    oracle : {"stumps", "raw"}, default="stumps"
        The weak learner: exact best decision stumps, or signed features rescaled to [-1, 1]
        with the training range.
    stopping : {"practical", "simple"}, default="practical"
        Stopping rule of regularized formulations (thesis §3.2.2 / §3.2.1); LPBoost always uses
        the rule of Algorithm 2.1.
    max_iter : int, default=1000
        Maximum number of master solves. Reaching it emits a
        :class:`~sklearn.exceptions.ConvergenceWarning`.
    solver : str or None, default=None
        Force one cvxpy solver (e.g. ``"CLARABEL"``, ``"HIGHS"``); None follows the solver
        policy of :mod:`dualboost.solvers`.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels, sorted; ``classes_[0]`` is encoded as -1 and ``classes_[1]``
        as +1.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Feature names seen during ``fit``; defined only when X has string column names.
    result_ : BoostResult
        The full result of the run: certificates, iteration history, status and message.
    weights_ : ndarray of shape (n_iter_,)
        The hypothesis weights w (on the simplex).
    hypotheses_ : list of length n_iter_
        The selected weak hypotheses; each has ``predict(X)`` with values in [-1, 1].
    n_iter_ : int
        T, the number of master solves, equal to the number of hypotheses kept (ERLPBoost's
        final, discarded candidate is not counted).
    soft_margin_ : float
        The soft margin (2.2) of the combined hypothesis on the training set for ``nu_``.
    nu_ : float
        The count nu actually used: ``max(1, nu_frac * N)``.
    eta_ : float or None
        The eta actually used (the theory's default when ``eta=None``); None for
        formulations without a regularizer.

    Notes
    -----
    A score of exactly 0 is predicted as ``classes_[0]``, scikit-learn's convention for binary
    decision functions; :meth:`dualboost.BoostResult.predict` sends it to +1 instead.
    """

    def __init__(
        self,
        formulation: str | os.PathLike = "erlpboost",
        nu_frac: float = 0.1,
        eps: float = 0.01,
        eta: float | None = None,
        oracle: str = "stumps",
        stopping: str = "practical",
        max_iter: int = 1000,
        solver: str | None = None,
    ) -> None:
        self.formulation = formulation
        self.nu_frac = nu_frac
        self.eps = eps
        self.eta = eta
        self.oracle = oracle
        self.stopping = stopping
        self.max_iter = max_iter
        self.solver = solver

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The soft-margin programs are binary: labels are -1/+1 and f(x) is one score.
        tags.classifier_tags.multi_class = False
        return tags

    # -- parameters ---------------------------------------------------------------------------

    def _validate_own_params(self) -> None:
        """Check the parameters whose checks in :func:`dualboost.api.run` do not fit the
        estimator: nu_frac (clamped here, see the class docstring), oracle ("finite" cannot
        predict) and max_iter. eps, eta, stopping, solver and formulation are left to ``run``,
        whose errors are ValueErrors already."""
        frac = self.nu_frac
        if (isinstance(frac, bool) or not isinstance(frac, Real) or not math.isfinite(frac)
                or not 0 < frac <= 1):
            raise ValueError(f"nu_frac must be a fraction in (0, 1], got {frac!r}")
        if self.oracle not in ESTIMATOR_ORACLES:
            raise ValueError(
                f"oracle must be one of {ESTIMATOR_ORACLES}, got {self.oracle!r}")
        # The engine would truncate 2.5 to 2 silently; an estimator parameter should not.
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, Integral) \
                or self.max_iter < 1:
            raise ValueError(f"max_iter must be a positive integer, got {self.max_iter!r}")

    # -- fit / predict ------------------------------------------------------------------------

    def fit(self, X, y) -> DualBoostClassifier:
        """Fit the boosted combination on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numeric training features.
        y : array-like of shape (n_samples,)
            Labels with exactly two distinct values (numbers or strings).

        Returns
        -------
        self : DualBoostClassifier
        """
        self._validate_own_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type != "binary":
            # The first sentence is the one scikit-learn's checks look for.
            raise ValueError(
                "Only binary classification is supported. DualBoostClassifier is a binary "
                f"classifier; the type of the target is {y_type!r} "
                f"({np.unique(y).size} classes).")
        classes = np.unique(y)
        if classes.size != 2:
            # type_of_target calls one class "binary" as well.
            raise ValueError(
                "DualBoostClassifier is a binary classifier and needs exactly 2 classes in y; "
                f"got 1 class: {classes.tolist()}")
        # encode_labels is the CLI's encoding too: classes[0] -> -1, classes[1] -> +1.
        y_pm, self.classes_ = encode_labels(y)

        N = X.shape[0]
        # Clamp nu to the hard margin for small N (see the class docstring); resolve_nu still
        # checks that the result is a valid count.
        self.nu_ = resolve_nu(N, nu=max(1.0, float(self.nu_frac) * N))
        result = run(
            X, y_pm,
            formulation=self.formulation, nu=self.nu_, eps=self.eps, eta=self.eta,
            oracle=self.oracle, stopping=self.stopping, max_iter=self.max_iter,
            solver=self.solver,
        )
        self.result_: BoostResult = result
        self.weights_ = np.asarray(result.weights, dtype=float)
        self.hypotheses_ = list(result.hypotheses)
        self.n_iter_ = result.iterations
        self.soft_margin_ = float(result.soft_margin)
        self.eta_ = result.parameters.get("eta")
        if result.status == "max_iter":
            warnings.warn(f"DualBoostClassifier did not converge: {result.message}; "
                          "increase max_iter or eps", ConvergenceWarning, stacklevel=2)
        return self

    def decision_function(self, X) -> np.ndarray:
        """The combined hypothesis ``f(x) = sum_q w_q h_q(x)``, values in [-1, 1].

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            Positive scores mean ``classes_[1]``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.asarray(self.result_.decision_function(X), dtype=float).reshape(-1)

    def predict(self, X) -> np.ndarray:
        """Class labels: ``classes_[1]`` where the decision function is > 0, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
