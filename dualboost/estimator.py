"""A scikit-learn classifier around :func:`dualboost.api.run`.

:class:`DualBoostClassifier` is a thin adapter: it validates the input the scikit-learn way,
encodes the two classes as -1 / +1, turns the fraction ``nu_frac`` into the count nu and hands
everything else to :func:`dualboost.api.run`, the entry point the CLI uses too, so the two cannot
drift apart: the same declared parameters are accepted, the same undeclared ones refused.
"""

from __future__ import annotations

import math
import os
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .algorithms import algorithm_class
from .api import resolve_nu, run
from .data import encode_labels
from .registry import load_formulation
from .result import BoostResult

__all__ = ["DualBoostClassifier"]

#: Oracles whose hypotheses can predict on new data. "finite" is excluded: its hypotheses are
#: columns of a matrix given on the training examples and have no meaning for a new x.
ESTIMATOR_ORACLES: tuple[str, ...] = ("stumps", "raw")

#: defaults of the two shortcuts that always hold a value (see the class docstring)
DEFAULT_NU_FRAC, DEFAULT_EPS = 0.1, 0.01

#: declared parameters that have their own estimator argument (so ``params`` may not set them)
OWN_ARGUMENTS = {"nu": "nu_frac", "eps": "eps", "eta": "eta", "stopping": "stopping"}


class DualBoostClassifier(ClassifierMixin, BaseEstimator):
    """Binary boosting classifier solved as a convex program by column generation.

    Each iteration adds the weak hypothesis of largest edge under the current distribution d on
    the examples and re-solves the totally corrective master problem, certified by strong
    duality (see :mod:`dualboost.engine`). With ``formulation="lpboost"`` the master problem is
    the soft-margin LP, thesis (2.2) (weights w) and (2.3) (distribution d), Algorithm 2.1; with
    ``formulation="erlpboost"`` it is the entropy-regularized LP, thesis (3.6) (primal over d) and
    its dual (3.10) (over w), Algorithm 3.2; ``dualboost list`` shows every registered
    formulation and algorithm with its parameters. The classifier is
    ``f(x) = sum_q w_q h_q(x)`` and ``predict`` returns ``classes_[1]`` where ``f(x) > 0``.

    Only binary problems are supported.

    Parameters
    ----------
    formulation : str or path-like, default="erlpboost"
        A registered formulation name (see :func:`dualboost.available_formulations`, e.g.
        ``"lpboost"``, ``"erlpboost"``, ``"erlpboost_tsallis"``) or the path of a ``.py`` file
        defining one :class:`~dualboost.Formulation` subclass.
    nu_frac : float, default=0.1
        The capping parameter as a fraction of the number N of training examples,
        in ``(0, 1]``: ``nu = nu_frac * N`` (thesis convention: nu is a count in [1, N];
        nu = 1 is the hard margin; the soft margin (2.2) is the average of the nu smallest
        margins). Unlike :func:`dualboost.api.resolve_nu`, which refuses ``nu_frac * N < 1``,
        the estimator **raises nu to 1** (the hard margin) in that case, so that small data sets
        -- such as the few-sample data scikit-learn's estimator checks fit -- still work. The
        count actually used is stored in ``nu_``. For a formulation that does not declare nu the
        default 0.1 is not passed (``nu_`` is None) and any other value is a ValueError.
    eps : float, default=0.01
        Target accuracy of the stopping rule (> 0). Like ``nu_frac``: the default is not passed
        to a formulation that does not declare eps, another value is a ValueError.
    eta : float or None, default=None
        Regularization weight of regularized formulations (the primal adds (1/eta) R(d), thesis
        (3.6)). None uses the formulation's theoretical default (``max(2 B / eps, sigma / 2)``,
        for ERLPBoost thesis §3.2.5: ``max((2/eps) ln(N/nu), 1/2)``). Passed only when set: with
        a formulation that does not declare eta (LPBoost) a value is a ValueError at ``fit``.
    oracle : {"stumps", "raw"}, default="stumps"
        The weak learner: exact best decision stumps, or signed features rescaled to [-1, 1]
        with the training range.
    stopping : {"practical", "simple"} or None, default=None
        Stopping rule of the ``erlpboost`` algorithm (thesis §3.2.2 / §3.2.1; None: its default,
        ``"practical"``). Passed only when set: the ``lpboost`` algorithm has the one rule of
        Algorithm 2.1 and no such parameter, so a value with it is a ValueError at ``fit``.
    algorithm : str or None, default=None
        The algorithm that runs the formulation (``"lpboost"``, ``"erlpboost"``, ...; see
        :func:`dualboost.algorithms.available_algorithms`); None runs the formulation's own
        ``default_algorithm``. A pairing the algorithm cannot run is a ValueError at ``fit``
        with the algorithm's one-line reason.
    params : dict or None, default=None
        Any other parameter the formulation or the algorithm declares, by name, e.g.
        ``params={"q": 0.3}`` for ``formulation="erlpboost_tsallis"`` or ``{"d0": prior}``.
        A name that neither declares is a ValueError at ``fit`` listing the declared ones.
        scikit-learn estimators cannot take ``**kwargs`` (``get_params``, ``set_params`` and
        ``clone`` need every constructor argument to be a named attribute), so the parameters a
        formulation adds travel in this one dict. nu, eps, eta and stopping are set through
        their own arguments above, not here. The dict is never modified.
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
    nu_ : float or None
        The count nu actually used: ``max(1, nu_frac * N)``; None when the formulation has no nu.
    eta_ : float or None
        The eta actually used (the theory's default when ``eta=None``); None for
        formulations without a regularizer.
    algorithm_ : str
        The algorithm that ran.
    parameters_ : dict
        Every resolved parameter of the run: the formulation's (``result_.parameters``, without
        its "formulation" and "N" entries) and the algorithm's (``result_.algorithm_parameters``).

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
        stopping: str | None = None,
        max_iter: int = 1000,
        solver: str | None = None,
        algorithm: str | None = None,
        params: dict | None = None,
    ) -> None:
        self.formulation = formulation
        self.nu_frac = nu_frac
        self.eps = eps
        self.eta = eta
        self.oracle = oracle
        self.stopping = stopping
        self.max_iter = max_iter
        self.solver = solver
        self.algorithm = algorithm
        self.params = params

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The soft-margin programs are binary: labels are -1/+1 and f(x) is one score.
        tags.classifier_tags.multi_class = False
        # scipy.sparse X is used as is by the stump and raw oracles (never made dense).
        tags.input_tags.sparse = True
        return tags

    # -- parameters ---------------------------------------------------------------------------

    def _validate_own_params(self) -> None:
        """Check the parameters whose checks in :func:`dualboost.api.run` do not fit the
        estimator: nu_frac (clamped here, see the class docstring), oracle ("finite" cannot
        predict), max_iter and the shape of params. eps, eta, stopping, solver, algorithm,
        formulation and the params' names and values are left to ``run``, whose errors are
        ValueErrors already."""
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
        if self.params is not None and not isinstance(self.params, dict):
            raise ValueError(f"params must be a dict of declared parameters or None, got "
                             f"{type(self.params).__name__}")
        for name in self.params or {}:
            if name in OWN_ARGUMENTS:
                raise ValueError(f"params may not set {name!r}: use the estimator's own "
                                 f"{OWN_ARGUMENTS[name]!r} argument")

    def _shortcuts(self) -> tuple[type, bool, bool]:
        """The formulation class, and whether nu and eps are passed (when declared).

        Their defaults always hold a value, so a formulation without nu (or eps) runs with the
        defaults untouched; a value other than the default is refused, never ignored.
        """
        cls = load_formulation(self.formulation)
        algo = algorithm_class(self.algorithm or cls.default_algorithm)
        declared = {p.name for p in (*cls.params, *algo.params)}
        use = []
        for name, argument, value, default in (("nu", "nu_frac", self.nu_frac, DEFAULT_NU_FRAC),
                                               ("eps", "eps", self.eps, DEFAULT_EPS)):
            if name in declared:
                use.append(True)
            elif value != default:
                raise ValueError(f"{argument}={value!r} is given but formulation {cls.name!r} "
                                 f"and algorithm {algo.name!r} do not declare {name!r} "
                                 f"(declared: {', '.join(sorted(declared)) or 'none'})")
            else:
                use.append(False)
        return cls, use[0], use[1]

    # -- fit / predict ------------------------------------------------------------------------

    def fit(self, X, y) -> DualBoostClassifier:
        """Fit the boosted combination on (X, y).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Finite numeric training features. A scipy.sparse matrix stays sparse (the oracles
            work on its stored entries; implicit zeros are feature values like any other) and
            gives the same model as its dense copy.
        y : array-like of shape (n_samples,)
            Labels with exactly two distinct values (numbers or strings).

        Returns
        -------
        self : DualBoostClassifier
        """
        self._validate_own_params()
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=("csr", "csc"))
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
        formulation, use_nu, use_eps = self._shortcuts()
        # Clamp nu to the hard margin for small N (see the class docstring); resolve_nu still
        # checks that the result is a valid count.
        nu = resolve_nu(N, nu=max(1.0, float(self.nu_frac) * N)) if use_nu else None
        # eta and stopping are passed only when set: run() refuses a parameter that the
        # formulation and the algorithm do not declare (a DualBoostInputError, a ValueError).
        result = run(
            X, y_pm,
            formulation=formulation, algorithm=self.algorithm,
            params=dict(self.params or {}),
            nu=nu, eps=self.eps if use_eps else None, eta=self.eta, stopping=self.stopping,
            oracle=self.oracle, max_iter=self.max_iter, solver=self.solver,
        )
        self.result_: BoostResult = result
        self.nu_ = result.parameters.get("nu")
        self.weights_ = np.asarray(result.weights, dtype=float)
        self.hypotheses_ = list(result.hypotheses)
        self.n_iter_ = result.iterations
        self.soft_margin_ = float(result.soft_margin)
        self.eta_ = result.parameters.get("eta")
        self.algorithm_ = result.algorithm
        self.parameters_ = {
            **{k: v for k, v in result.parameters.items() if k not in ("formulation", "N")},
            **dict(result.algorithm_parameters),
        }
        if result.status == "max_iter":
            warnings.warn(f"DualBoostClassifier did not converge: {result.message}; "
                          "increase max_iter or eps", ConvergenceWarning, stacklevel=2)
        return self

    def decision_function(self, X) -> np.ndarray:
        """The combined hypothesis ``f(x) = sum_q w_q h_q(x)``, values in [-1, 1].

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            Positive scores mean ``classes_[1]``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, accept_sparse=("csr", "csc"))
        if sp.issparse(X):
            X = X.tocsc()  # each hypothesis reads one column: O(nnz_j + n) in CSC
        return np.asarray(self.result_.decision_function(X), dtype=float).reshape(-1)

    def predict(self, X) -> np.ndarray:
        """Class labels: ``classes_[1]`` where the decision function is > 0, else ``classes_[0]``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
