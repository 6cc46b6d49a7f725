"""A scikit-learn classifier around :func:`dualboost.api.run`.

:class:`DualBoostClassifier` is a thin adapter: it validates the input the scikit-learn way,
encodes the two classes as -1 / +1, turns the fraction ``nu_frac`` into the count nu and hands
everything else to :func:`dualboost.api.run`, the entry point the CLI uses too, so the two cannot
drift apart: the same declared parameters are accepted, the same undeclared ones refused.

Beyond ``fit`` / ``predict`` it offers what scikit-learn tooling expects: ``predict_proba`` (a
monotone logistic map of the score, *not* calibrated), ``feature_importances_``,
``sample_weight`` with the meaning of repeated rows, general (non-integer) weights for the
formulations that declare them (docs/theory.md, "Sample weights"), a
:class:`DualBoostWarning` per diagnostic of :mod:`dualboost.diagnostics`, and ``to_json`` /
``from_json`` in the schema of ``dualboost fit --json`` (``dualboost predict --model`` reads it).
"""

from __future__ import annotations

import json
import math
import os
import warnings
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .algorithms import algorithm_class
from .api import resolve_nu, run
from .data import encode_labels
from .errors import DualBoostInputError
from .model_io import (
    hypothesis_width,
    is_tie,
    labels_for_scores,
    load_model,
    majority_class,
    model_document,
    to_jsonable,
)
from .oracles.base import combined_scores
from .oracles.kernel import KernelHypothesis
from .oracles.learners import EstimatorHypothesis
from .oracles.raw import RawFeature
from .oracles.stumps import Stump
from .oracles.trees import Tree
from .params import DEFAULT_NU_FRAC, sample_weight_unsupported
from .registry import load_formulation
from .result import BoostResult

__all__ = ["DualBoostClassifier", "DualBoostWarning", "feature_importances"]


class DualBoostWarning(UserWarning):
    """A diagnostic of a finished run (:func:`dualboost.diagnostics.run_warnings`).

    ``code`` is the stable code of the entry (``"vacuous_guarantee"``,
    ``"degenerate_combination"``); the message is the entry's one line.
    """

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


#: the smallest slope of the predict_proba map (keeps it strictly increasing; see predict_proba)
MIN_PROBA_SLOPE = 1e-6
#: how far a tie (a score within 1e-9 of 0) moves its probability toward ``tie_class_``
#: (see predict_proba)
TIE_PROBA_NUDGE = 1e-12


def feature_importances(hypotheses, weights, n_features: int) -> np.ndarray:
    """Summed weights per feature, normalized to sum 1 (all zeros when nothing reads a feature).

    A stump or raw feature adds its weight w_q to the feature it reads; constant hypotheses (the
    constant stump, a raw feature whose training range is one value) read none and count nowhere.
    A kernel hypothesis ``<x_i, x> / s`` reads every nonzero feature of its training row x_i and
    splits its weight among them in proportion to ``|x_ij|`` (an all-zero row counts nowhere).
    A tree splits its weight evenly among its internal nodes (a feature tested twice counts
    twice); an estimator's hypothesis by the fitted estimator's ``feature_importances_``.
    """
    out = np.zeros(int(n_features))
    for w, h in zip(np.asarray(weights, dtype=float), hypotheses):
        if isinstance(h, KernelHypothesis):
            share = np.abs(np.asarray(h.values, dtype=float))
            if share.sum() > 0:
                np.add.at(out, np.asarray(h.features, dtype=np.intp),
                          abs(w) * share / share.sum())
            continue
        if isinstance(h, Tree):  # its weight split evenly among its internal nodes' features
            internal = [j for j in h.feature if j >= 0]
            for j in internal:
                out[j] += abs(w) / len(internal)
            continue
        if isinstance(h, EstimatorHypothesis):  # the fitted estimator's own importances
            own = getattr(h.estimator, "feature_importances_", None)
            if own is not None and np.size(own) == out.size and np.sum(own) > 0:
                out += abs(w) * np.asarray(own, dtype=float) / np.sum(own)
            continue
        if isinstance(h, Stump) and h.is_constant:
            continue
        if isinstance(h, RawFeature) and not h.hi > h.lo:
            continue
        feature = getattr(h, "feature", None)
        if feature is not None:
            out[int(feature)] += abs(w)
    total = out.sum()
    return out / total if total > 0 else out

#: Oracles whose hypotheses can predict on new data. "finite" is excluded: its hypotheses are
#: columns of a matrix given on the training examples and have no meaning for a new x.
ESTIMATOR_ORACLES: tuple[str, ...] = ("stumps", "raw", "kernel", "tree", "tree2_exact",
                                      "hist_stumps")

#: defaults of the two shortcuts that always hold a value (see the class docstring)
DEFAULT_EPS = 0.01

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
        The capping parameter as a fraction of the number N of training examples, in ``(0, 1]``:
        ``nu = nu_frac * N``, the CLI's default too (thesis convention: nu is a count in [1, N]; nu
        = 1 is the hard margin; the soft margin (2.2) is the average of the nu smallest margins).
        Unlike :func:`dualboost.api.resolve_nu`, which refuses ``nu_frac * N < 1``, the estimator
        **raises nu to 1** (the hard margin) in that case, so that small data sets -- such as the
        few-sample data scikit-learn's estimator checks fit -- still work. The count actually used
        is stored in ``nu_``. For a formulation that does not declare nu the default 0.1 is not
        passed (``nu_`` is None) and any other value is a ValueError.
    eps : float, default=0.01
        Target accuracy of the stopping rule (> 0). Like ``nu_frac``: the default is not passed
        to a formulation that does not declare eps, another value is a ValueError.
    eta : float or None, default=None
        Regularization weight of regularized formulations (the primal adds (1/eta) R(d), thesis
        (3.6)). None uses the formulation's theoretical default (``max(2 B / eps, sigma / 2)``,
        for ERLPBoost thesis §3.2.5: ``max((2/eps) ln(N/nu), 1/2)``). Passed only when set: with
        a formulation that does not declare eta (LPBoost) a value is a ValueError at ``fit``.
    oracle : {"stumps", "raw", "kernel", "tree", "tree2_exact", "hist_stumps"}, default="stumps"
        The weak learner: exact best decision stumps; signed features rescaled to [-1, 1]
        with the training range; or ``"kernel"``, the SVM hypotheses of the thesis (§5):
        every training row x_i as a linear classifier ``h_i(x) = <x_i, x> / s`` and its
        negation, scaled by ``s = max_n ||x_n||^2`` over the training rows so that every
        training value lies in [-1, 1] (Cauchy-Schwarz) and clipped to [-1, 1] on new data.
        Each oracle call costs two sparse products ``X (X^T r)``, O(nnz(X)); the N x N kernel
        matrix is never formed. ``"tree"``: greedy decision trees with leaves +-1 on
        quantile-binned features (options in ``oracle_params``: ``max_depth``, default 3,
        ``max_bins``, default 255, ``criterion``, "edge" or "gini"), a heuristic for depth >= 2;
        ``"tree2_exact"``: the tree of maximum edge over all depth-2 trees (option
        ``max_bins``, default 32), exact (docs/theory.md, "Heuristic oracles");
        ``"hist_stumps"``: the best stump with a threshold at a quantile bin edge of its
        feature (option ``max_bins``, default 255), exact over that binned class and O(N F)
        per call without sorting (docs/scale.md).
    oracle_params : dict or None, default=None
        Options of the oracle named by ``oracle`` (see there); never modified.
    estimator : scikit-learn estimator or None, default=None
        Any estimator whose ``fit`` takes ``sample_weight`` (scikit-learn's AdaBoost
        convention), e.g. ``DecisionTreeClassifier(max_depth=3)``: each oracle call fits a clone
        on the training data with ``sample_weight = d`` and proposes its +-1 predictions (or
        their negation, whichever has the larger edge). A heuristic: the certificates hold over
        the hypotheses found. Its hypotheses are fitted estimators, which the JSON model cannot
        hold: save such a model with pickle or joblib. With ``estimator`` set, ``oracle`` must
        stay "stumps" (the default) and ``oracle_params`` None.
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
    max_iter : int or None, default=None
        Maximum number of master solves; None: the algorithm's default (1000, or a corrective
        algorithm's iteration bound capped at 100000). Reaching it emits a
        :class:`~sklearn.exceptions.ConvergenceWarning`.
    time_limit : float or None, default=None
        Seconds (> 0) after which the fit ends, inside a master solve too, once its first master
        solve is certified: the CLI's ``--time-limit`` (:func:`dualboost.api.run`). The model is
        the last certified master solve's (``result_.status == "time_limit"``) and a
        :class:`~sklearn.exceptions.ConvergenceWarning` is emitted. None: no limit. A bound for
        every fit of a search such as ``GridSearchCV``, where one slow setting (a small
        ``nu_frac`` on noisy data) would otherwise hold up the whole search.
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
        With ``sample_weight`` s it is counted in total weight: ``max(nu_frac, 1/N) * sum(s)``
        over the N rows of positive weight (for integer weights the nu of the repeated rows;
        ``parameters_["nu"]`` is then the formulation's count on the N rows, see ``fit``).
    eta_ : float or None
        The eta actually used (the theory's default when ``eta=None``); None for
        formulations without a regularizer.
    algorithm_ : str
        The algorithm that ran.
    parameters_ : dict
        Every resolved parameter of the run: the formulation's (``result_.parameters``, without
        its "formulation" and "N" entries) and the algorithm's (``result_.algorithm_parameters``).
    tie_class_ : label
        The training set's majority class (``classes_[0]`` on an even split; with
        ``sample_weight``, by total weight): the prediction for a tie, a score within 1e-9 of 0.
    feature_importances_ : ndarray of shape (n_features_in_,)
        Summed hypothesis weights per feature, normalized to sum 1 (constant hypotheses count
        nowhere; all zeros if only constants were chosen); see :func:`feature_importances`.
    proba_slope_ : float
        The slope a of the :meth:`predict_proba` map, fitted on the training scores.
    warnings_ : list of dict
        The run's diagnostics (``result_.warnings``), each also emitted as a
        :class:`DualBoostWarning` by ``fit``.

    Notes
    -----
    **Ties.** A score of 0 up to rounding (|f(x)| <= 1e-9, e.g. a cancelling pair
    ``0.5 h - 0.5 h`` whose LP weights carry the solver's tolerance) is predicted as
    ``tie_class_``, the training set's majority class, like ``dualboost predict``; other scores
    > 0 give ``classes_[1]``, < 0 ``classes_[0]``.

    **Diagnostics.** A run whose eps-guarantee is vacuous (eps >= the smallest best edge seen,
    an upper bound on the best soft margin) or whose combination is degenerate (soft margin <= 0
    or most training margins 0; a milder entry when only the soft margin is <= 0) emits a
    :class:`DualBoostWarning` naming the remedies (a larger nu, nu by cross-validation, a
    smaller eps, ERLPBoost); see :mod:`dualboost.diagnostics`. A run that did not converge emits
    scikit-learn's :class:`~sklearn.exceptions.ConvergenceWarning`.

    **Sample weights.** ``fit(X, y, sample_weight=s)`` means repeated rows (integer weight k =
    the row k times); ``nu_frac`` is then a fraction of the total weight, so scaling all weights
    changes nothing. ``lpboost`` and ``erlpboost`` take general weights as per-example caps (and
    ERLPBoost's prior d0 = s / sum(s)); other formulations take integer weights by repeating rows
    and refuse others (docs/theory.md, "Sample weights"; see ``fit``).

    **Multi-class.** The programs are binary; for more classes wrap the estimator:
    ``sklearn.multiclass.OneVsRestClassifier(DualBoostClassifier())``.
    """

    def __init__(
        self,
        formulation: str | os.PathLike = "erlpboost",
        nu_frac: float = 0.1,
        eps: float = 0.01,
        eta: float | None = None,
        oracle: str = "stumps",
        stopping: str | None = None,
        max_iter: int | None = None,
        solver: str | None = None,
        algorithm: str | None = None,
        params: dict | None = None,
        time_limit: float | None = None,
        oracle_params: dict | None = None,
        estimator: object = None,
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
        self.time_limit = time_limit
        self.oracle_params = oracle_params
        self.estimator = estimator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The soft-margin programs are binary: labels are -1/+1 and f(x) is one score.
        tags.classifier_tags.multi_class = False
        # scipy.sparse X is used as is by the stump, raw and kernel oracles (never made dense).
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
        if self.oracle_params is not None and not isinstance(self.oracle_params, dict):
            raise ValueError(f"oracle_params must be a dict or None, got "
                             f"{type(self.oracle_params).__name__}")
        if self.estimator is not None:
            if self.oracle != "stumps" or self.oracle_params:
                raise ValueError("estimator= replaces the oracle: leave oracle at 'stumps' and "
                                 "oracle_params at None")
            from .oracles.learners import check_weak_estimator

            check_weak_estimator(self.estimator)
        # The engine would truncate 2.5 to 2 silently; an estimator parameter should not.
        if self.max_iter is not None and (isinstance(self.max_iter, bool)
                                          or not isinstance(self.max_iter, Integral)
                                          or self.max_iter < 1):
            raise ValueError(f"max_iter must be a positive integer, got {self.max_iter!r}")
        limit = self.time_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, Real)
                                  or not math.isfinite(limit) or not limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds or None, got "
                             f"{limit!r}")
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

    def fit(self, X, y, sample_weight=None) -> DualBoostClassifier:
        """Fit the boosted combination on (X, y).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Finite numeric training features. A scipy.sparse matrix stays sparse (the oracles
            work on its stored entries; implicit zeros are feature values like any other) and
            gives the same model as its dense copy.
        y : array-like of shape (n_samples,)
            Labels with exactly two distinct values (numbers or strings).
        sample_weight : array-like of shape (n_samples,) or None
            Non-negative weights with the meaning of repeated rows: an integer weight k fits
            the model of the data set in which the row appears k times (0 drops the row), and
            ``nu_frac`` is a fraction of the **total weight** (scaling every weight by the same
            constant does not change the model). For a formulation that declares
            ``sample_weight`` (``lpboost``, ``erlpboost``) the weights are passed on, general
            (non-integer) weights included: the same program on the rows of positive weight
            with per-example caps ``d_n <= s_n / (nu_frac sum(s))`` and, for ERLPBoost, the
            prior ``d0 = s / sum(s)`` (docs/theory.md, "Sample weights"; the count nu is
            ``max(1, nu_frac N)`` over those N rows, so integer weights give the repeated rows'
            model whenever ``nu_frac N >= 1``). Any other formulation gets integer weights by
            repeating rows (``np.repeat``) and refuses non-integer ones with a ValueError that
            names docs/theory.md. Equal weights are no weights.

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
                f"({np.unique(y).size} classes); for more classes wrap it in "
                "sklearn.multiclass.OneVsRestClassifier(DualBoostClassifier(...)).")
        classes = np.unique(y)
        if classes.size != 2:
            # type_of_target calls one class "binary" as well.
            raise ValueError(
                "DualBoostClassifier is a binary classifier and needs exactly 2 classes in y; "
                f"got 1 class: {classes.tolist()}")
        formulation, use_nu, use_eps = self._shortcuts()
        params = dict(self.params or {})
        weights = None
        if sample_weight is not None:
            X, y, weights = self._apply_sample_weight(X, y, sample_weight, formulation, params)
        # encode_labels is the CLI's encoding too: classes[0] -> -1, classes[1] -> +1.
        y_pm, self.classes_ = encode_labels(y)
        if weights is None:
            self.tie_class_ = self.classes_[1 if majority_class(y_pm, [0, 1]) == 1 else 0]
        else:  # by total weight (an even split goes to classes_[0], as without weights)
            self.tie_class_ = self.classes_[1 if weights[y_pm > 0].sum() >
                                            weights[y_pm < 0].sum() else 0]
            if not np.all(weights == weights[0]):  # equal weights are no weights
                params["sample_weight"] = weights

        N = X.shape[0]
        # Clamp nu to the hard margin for small N (see the class docstring); resolve_nu still
        # checks that the result is a valid count.
        nu = resolve_nu(N, nu=max(1.0, float(self.nu_frac) * N)) if use_nu else None
        # eta and stopping are passed only when set: run() refuses a parameter that the
        # formulation and the algorithm do not declare (a DualBoostInputError, a ValueError).
        result = run(
            X, y_pm,
            formulation=formulation, algorithm=self.algorithm,
            params=params,
            nu=nu, eps=self.eps if use_eps else None, eta=self.eta, stopping=self.stopping,
            oracle=self._oracle(), oracle_params=None if self.estimator is not None else
            self.oracle_params, max_iter=self.max_iter, solver=self.solver,
            time_limit=None if self.time_limit is None else float(self.time_limit),
        )
        self.result_: BoostResult = result
        self._train_y = y_pm  # the run's encoded labels: to_json's train_error (model_io)
        self.nu_ = result.parameters.get("nu")
        if weights is not None and self.nu_ is not None:  # counted in total weight (see fit)
            self.nu_ = float(self.nu_) * float(weights.sum()) / N
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
        self.feature_importances_ = feature_importances(self.hypotheses_, self.weights_,
                                                        self.n_features_in_)
        self.proba_slope_ = self._fit_proba_slope(self._scores(X), y_pm, weights)
        self.warnings_ = [dict(w) for w in result.warnings if isinstance(w, dict)]
        if not result.success:
            # converged_vacuous / converged_degenerate stopped by their rule (their warnings
            # follow); only max_iter is helped by more iterations, and the early stops'
            # messages carry their own remedies (a larger eps would make an empty guarantee
            # emptier: "increase max_iter or eps" was wrong advice there)
            advice = "; increase max_iter or eps" if result.status == "max_iter" else ""
            warnings.warn(f"DualBoostClassifier did not converge ({result.status}): "
                          f"{result.message}{advice}", ConvergenceWarning, stacklevel=2)
        for entry in self.warnings_:
            warnings.warn(DualBoostWarning(f"{entry.get('code')}: {entry.get('message')}",
                                           code=str(entry.get("code"))), stacklevel=2)
        return self

    def _oracle(self):
        """The oracle ``run`` gets: the name, or an estimator oracle around a clone of
        ``estimator`` (never the user's object: the oracle fits clones of it)."""
        if self.estimator is None:
            return self.oracle
        from sklearn.base import clone

        from .oracles.learners import EstimatorOracle

        return EstimatorOracle(clone(self.estimator))

    def _apply_sample_weight(self, X, y, sample_weight, formulation, params):
        """(X, y, weights) for ``fit``: rows of weight 0 dropped and their weights, where the
        formulation declares ``sample_weight``; else the rows repeated by their integer weights
        (non-integers refused, see ``fit``) and None."""
        sw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        if not sw.sum() > 0:
            raise ValueError("sample_weight is zero for every row: nothing to fit")
        if "sample_weight" in params:
            raise ValueError("sample_weight is given twice (as fit's argument and in params)")
        keep = sw > 0
        y = np.asarray(y)
        integer = np.all(np.abs(sw - np.rint(sw)) <= 1e-9 * np.maximum(1.0, np.abs(sw)))
        # with estimator=, integer weights repeat rows: the weighted fits of the estimator break
        # exact ties by rounding, so only the same rows give the same proposals
        repeat = self.estimator is not None and integer
        if any(p.name == "sample_weight" for p in formulation.params) and not repeat:
            X, y, sw = X[keep], y[keep], sw[keep]
            if np.unique(y).size != 2:
                raise ValueError("the rows of positive sample_weight hold one class only: "
                                 "a binary classifier needs 2")
            return X, y, sw
        counts = np.rint(sw)
        off = np.abs(sw - counts) > 1e-9 * np.maximum(1.0, np.abs(sw))
        if off.any():
            raise DualBoostInputError(
                f"sample_weight = {sw[off][0]!r} is not an integer: "
                + sample_weight_unsupported(f"formulation {formulation.name!r}"))
        index = np.repeat(np.arange(X.shape[0]), counts.astype(np.int64))
        X, y = X[index], y[index]
        if np.unique(y).size != 2:
            raise ValueError("the rows of positive sample_weight hold one class only: "
                             "a binary classifier needs 2")
        return X, y, None

    @staticmethod
    def _fit_proba_slope(scores: np.ndarray, y_pm: np.ndarray,
                         weights: np.ndarray | None = None) -> float:
        """The slope a of ``P(classes_[1] | x) = 1 / (1 + exp(-a f(x)))`` (see predict_proba),
        weighted by the sample weights (= the repeated rows; solved tightly so that the two
        agree to round-off)."""
        if np.unique(y_pm).size < 2:
            return MIN_PROBA_SLOPE
        fit = LogisticRegression(fit_intercept=False, tol=1e-12).fit(
            scores.reshape(-1, 1), y_pm, sample_weight=weights)
        return float(max(fit.coef_[0, 0], MIN_PROBA_SLOPE))

    def _scores(self, X) -> np.ndarray:
        """f(x) = sum_q w_q h^q(x), in the order of :meth:`BoostResult.decision_function`
        (and of ``dualboost predict``), so that the scores agree bit for bit."""
        if sp.issparse(X):
            X = X.tocsc()  # a hypothesis reads one column (kernel: its support columns)
        return combined_scores(self.weights_, self.hypotheses_, X)

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
        return self._scores(X)

    def predict(self, X) -> np.ndarray:
        """Class labels: ``classes_[1]`` where the decision function is > 0, ``classes_[0]``
        where it is < 0, and ``tie_class_`` (the training majority class) where it is 0 up to
        rounding (|f(x)| <= 1e-9, :data:`dualboost.model_io.TIE_TOLERANCE`).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        return labels_for_scores(self.decision_function(X), self.classes_, self.tie_class_)

    def predict_proba(self, X) -> np.ndarray:
        """A monotone map of the score to [0, 1]; **not calibrated probabilities**.

        ``P(classes_[1] | x) = 1 / (1 + exp(-a f(x)))`` with f the decision function and
        ``a = proba_slope_ >= 1e-6`` the slope of a one-dimensional logistic regression without
        intercept (scikit-learn's ``LogisticRegression(fit_intercept=False)``, default C) of the
        training labels on the training scores. Without an intercept the map is 1/2 at f = 0,
        so ``argmax`` agrees with :meth:`predict`; a tie (|f(x)| <= 1e-9) is moved by 1e-12
        toward ``tie_class_`` for the same reason. The boosting objective maximizes a soft
        margin, not a likelihood, and the scores are fitted on the training set itself, so
        these numbers rank examples (ROC curves) but are not calibrated. For probabilities,
        calibrate on held-out data::

            from sklearn.calibration import CalibratedClassifierCV
            clf = CalibratedClassifierCV(DualBoostClassifier(nu_frac=0.2), cv=5).fit(X, y)
            clf.predict_proba(X_new)

        Returns
        -------
        proba : ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``.
        """
        scores = self.decision_function(X)
        if self.proba_slope_ is None:
            raise ValueError("this model was loaded from a 'dualboost fit --json' document, "
                             "which has no predict_proba slope; save it with "
                             "DualBoostClassifier.to_json, or calibrate it with "
                             "CalibratedClassifierCV")
        with np.errstate(over="ignore"):
            p1 = 1.0 / (1.0 + np.exp(-self.proba_slope_ * scores))
        nudge = TIE_PROBA_NUDGE if self.tie_class_ == self.classes_[1] else -TIE_PROBA_NUDGE
        p1 = np.where(is_tie(scores), 0.5 + nudge, p1)
        return np.column_stack([1.0 - p1, p1])

    # -- save / load ----------------------------------------------------------------------------

    def to_json(self, path: str | os.PathLike) -> None:
        """Write the fitted model as the JSON document of ``dualboost fit --json``.

        The schema is the CLI's (docs/json_schema.md, built by
        :func:`dualboost.model_io.model_document`): ``weights``, ``hypotheses``, ``classes``,
        ``tie_class`` and ``n_features`` make it a complete model, so
        ``dualboost predict --model path --data new.csv`` applies it outside Python. One key is
        added, ``"estimator"``: the constructor arguments, ``proba_slope`` (the
        :meth:`predict_proba` map) and ``feature_names_in``. :meth:`from_json` reads it back with
        the same decision values, bit for bit.
        """
        check_is_fitted(self)
        if self.estimator is not None:
            raise DualBoostInputError(
                f"a model with estimator={type(self.estimator).__name__}(...) cannot go into the "
                "JSON model (its hypotheses are fitted estimators); save it with pickle or "
                "joblib (joblib.dump(model, 'model.joblib'))")
        params = {k: (str(v) if isinstance(v, os.PathLike) else v)
                  for k, v in self.get_params(deep=False).items()}
        names = getattr(self, "feature_names_in_", None)
        extra = {"estimator": {
            "class": type(self).__name__,
            "params": params,
            "proba_slope": self.proba_slope_,
            "feature_names_in": None if names is None else [str(n) for n in names],
        }}
        if self.result_ is not None:
            doc = model_document(self.result_, self.classes_, tie_class=self.tie_class_,
                                 y=getattr(self, "_train_y", None),
                                 n_features=self.n_features_in_, data="(DualBoostClassifier)",
                                 extra=extra)
        else:  # loaded by from_json: write the document it came from, with this estimator's key
            doc = to_jsonable({**self.document_, **extra})
        Path(path).write_text(json.dumps(doc, indent=2, allow_nan=False) + "\n",
                              encoding="utf-8")

    @classmethod
    def from_json(cls, path: str | os.PathLike) -> DualBoostClassifier:
        """A fitted estimator from a JSON model (:meth:`to_json` or ``dualboost fit --json``).

        The model is rebuilt by :func:`dualboost.model_io.load_model` (one-line errors for a
        malformed document; the ``finite`` oracle's columns cannot predict and are refused).
        ``result_`` is None (the certificates and the history stay in the file, key
        ``history``); ``decision_function``, ``predict`` and ``feature_importances_`` work as
        after ``fit``. ``predict_proba`` needs the slope that :meth:`to_json` stores; a document
        written by the CLI has none, and ``predict_proba`` then raises. A document without
        ``n_features`` takes the widest feature a hypothesis reads.
        """
        model = load_model(path)
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        saved = doc.get("estimator") if isinstance(doc.get("estimator"), dict) else {}
        params = saved.get("params") if isinstance(saved.get("params"), dict) else None
        if params is None:  # written by the CLI: its formulation and parameters, where they fit
            params = {"formulation": doc.get("formulation") or "erlpboost"}
            if doc.get("eps") is not None:
                params["eps"] = doc["eps"]
            if doc.get("nu") is not None and doc.get("N"):
                params["nu_frac"] = min(1.0, float(doc["nu"]) / float(doc["N"]))
            if doc.get("oracle") in ESTIMATOR_ORACLES:  # e.g. --oracle kernel: refit the same
                params["oracle"] = doc["oracle"]
                if isinstance(doc.get("oracle_params"), dict):  # --oracle tree --param ...
                    params["oracle_params"] = dict(doc["oracle_params"])
        valid = cls().get_params(deep=False)
        est = cls(**{k: v for k, v in params.items() if k in valid})
        est.classes_ = np.asarray(model.classes)
        est.tie_class_ = est.classes_[model.classes.index(model.tie_class)]
        widest = max(hypothesis_width(h) for h in model.hypotheses)
        est.n_features_in_ = model.n_features if model.n_features is not None else widest
        names = saved.get("feature_names_in")
        if names is not None:
            est.feature_names_in_ = np.asarray(names, dtype=object)
        est.weights_ = np.asarray(model.weights, dtype=float)
        est.hypotheses_ = list(model.hypotheses)
        est.n_iter_ = len(est.hypotheses_)
        est.result_ = None
        parameters = dict(model.parameters)
        est.nu_ = parameters.get("nu")
        est.eta_ = parameters.get("eta")
        est.algorithm_ = doc.get("algorithm")
        est.parameters_ = {**parameters, **dict(doc.get("algorithm_parameters") or {})}
        sm = doc.get("soft_margin")
        est.soft_margin_ = float(sm) if sm is not None else float("nan")
        est.feature_importances_ = feature_importances(est.hypotheses_, est.weights_,
                                                       est.n_features_in_)
        slope = saved.get("proba_slope")
        est.proba_slope_ = float(slope) if slope is not None else None
        est.warnings_ = [w for w in doc.get("warnings") or [] if isinstance(w, dict)]
        est.document_ = doc
        return est
