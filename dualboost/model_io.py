"""A fitted model outside Python: the JSON of a run is the model.

``dualboost fit --json run.json`` (and ``DualBoostClassifier.to_json``) writes one document,
described in ``docs/json_schema.md``; its ``weights``, ``hypotheses``, ``classes``, ``tie_class``
and ``n_features`` keys are a complete classifier. :func:`load_model` rebuilds it as a
:class:`SavedModel`, whose ``decision_function`` is the combined hypothesis

    f(x) = sum_q w_q h^q(x)                                  (thesis (2.2): the weights w of the
                                                             w-domain problem, on the simplex)

computed in the same order and with the same hypothesis objects as
:meth:`dualboost.BoostResult.decision_function`, so the scores are identical to the fit's, bit for
bit. ``predict`` maps ``f(x) > 0`` to ``classes[1]`` (the class encoded +1), ``f(x) < 0`` to
``classes[0]`` and a score of 0 (|f(x)| <= :data:`TIE_TOLERANCE`: 0 up to the rounding of the
weights, e.g. a cancelling pair ``0.5 h - 0.5 h`` whose LP weights carry the solver's 1e-10
tolerance) to ``tie_class``, the training set's majority class (``classes[0]`` on an even split,
and for documents written before ``tie_class`` existed).

:func:`result_to_json` is the JSON of a run (the CLI and the estimator write it through
:func:`model_document`, so there is one schema, not two), and :func:`train_error` its training
error, counted with the prediction rule above: a score of 0 is not a mistake when the example is of
the tie class.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .errors import DualBoostInputError
from .oracles.base import Hypothesis, combined_scores
from .oracles.kernel import KernelHypothesis
from .oracles.raw import RawFeature
from .oracles.stumps import Stump
from .oracles.trees import Tree
from .result import TIE_TOLERANCE

__all__ = ["SavedModel", "encode_against", "labels_for_scores", "load_model",
           "load_prediction_data", "majority_class", "model_document", "result_to_json",
           "to_jsonable", "train_error"]

#: the hypothesis types a saved model can rebuild (``describe()["type"]``)
PREDICTING_TYPES = ("stump", "raw", "kernel", "tree")



def is_tie(scores: np.ndarray) -> np.ndarray:
    """Where a score is 0 up to rounding (|f(x)| <= :data:`TIE_TOLERANCE`)."""
    return np.abs(scores) <= TIE_TOLERANCE


def labels_for_scores(scores: Any, classes: Any, tie_class: Any) -> np.ndarray:
    """Labels for scores f(x): > 0 -> classes[1], < 0 -> classes[0], a tie (:func:`is_tie`) ->
    ``tie_class``; the array has the dtype of ``np.asarray(classes)``."""
    scores = np.asarray(scores, dtype=float)
    labels = np.asarray(classes)[(scores > 0).astype(int)]
    labels[is_tie(scores)] = tie_class
    return labels


def _py(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def majority_class(y_pm: Any, classes: Any) -> Any:
    """The training set's majority class (the class a score of 0, a tie, goes to).

    ``y_pm`` are the encoded labels (-1 for ``classes[0]``, +1 for ``classes[1]``); on an even
    split ``classes[0]`` wins (scikit-learn's convention for a zero binary score).
    """
    y_pm = np.asarray(y_pm, dtype=float)
    positives = int(np.count_nonzero(y_pm > 0))
    return _py(classes[1]) if positives > y_pm.size - positives else _py(classes[0])


@dataclass
class SavedModel:
    """A boosted combination rebuilt from its JSON document (see the module docstring).

    ``hypotheses`` are :class:`~dualboost.oracles.stumps.Stump`,
    :class:`~dualboost.oracles.raw.RawFeature` or
    :class:`~dualboost.oracles.kernel.KernelHypothesis` objects, ``weights`` the w^T of the run,
    ``classes`` the two original label values (``classes[0]`` encoded -1, ``classes[1]`` +1),
    ``tie_class`` the class of a tie (a score within 1e-9 of 0), ``n_features`` the training
    width (None when the document does not say; then X needs only the columns the hypotheses
    read).
    """

    hypotheses: list[Hypothesis]
    weights: np.ndarray
    classes: list
    tie_class: Any
    n_features: int | None = None
    formulation: str | None = None
    parameters: dict = field(default_factory=dict)
    #: the training CSV header's feature columns (new CSV files are matched by name), or None
    feature_names: list[str] | None = None
    #: the training CSV's label column
    label_column: str | None = None
    #: the training LIBSVM file's feature numbering (0 or 1), or None
    index_base: int | None = None

    def _check_X(self, X: Any) -> Any:
        if sp.issparse(X):
            # a stump or raw feature reads one column, a kernel hypothesis its support
            # columns: O(nnz of those columns + M) in CSC
            X = X.tocsc()
        else:
            try:
                X = np.asarray(X, dtype=float)
            except (TypeError, ValueError) as exc:
                raise DualBoostInputError(f"X must be numeric: {' '.join(str(exc).split())}") \
                    from None
        if X.ndim != 2:
            raise DualBoostInputError(f"X must be a 2-D array (examples x features), got shape "
                                      f"{X.shape}")
        if self.n_features is not None and X.shape[1] != self.n_features:
            raise DualBoostInputError(
                f"X has {X.shape[1]} features but the model was trained on {self.n_features}")
        return X

    def decision_function(self, X: Any) -> np.ndarray:
        """f(x) = sum_q w_q h^q(x) on the rows of ``X`` (dense or scipy.sparse), in [-1, 1]."""
        return combined_scores(self.weights, self.hypotheses, self._check_X(X))

    def predict_scores(self, scores: np.ndarray) -> np.ndarray:
        """Original labels for given scores: > 0 -> classes[1], < 0 -> classes[0], a tie (0 up
        to :data:`TIE_TOLERANCE`) -> tie_class."""
        return labels_for_scores(scores, self.classes, self.tie_class)

    def predict(self, X: Any) -> np.ndarray:
        """Original label values; a tie (a score within 1e-9 of 0) goes to ``tie_class``."""
        return self.predict_scores(self.decision_function(X))


# -------------------------------------------------------------------------------------------
# loading
# -------------------------------------------------------------------------------------------


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DualBoostInputError(f"model: {where} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise DualBoostInputError(f"model: {where} must be finite, got {value!r}")
    return value


def _integer(value: Any, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DualBoostInputError(f"model: {where} must be an integer >= {low}, got {value!r}")
    return int(value)


def _sign(value: Any, where: str) -> int:
    if isinstance(value, bool) or value not in (1, -1):
        raise DualBoostInputError(f"model: {where} must be 1 or -1, got {value!r}")
    return int(value)


def hypothesis_from_dict(entry: Any, q: int) -> Hypothesis:
    """Rebuild hypothesis ``q`` (0-based) from its ``describe()`` dictionary."""
    where = f"hypotheses[{q}]"
    if not isinstance(entry, dict) or "type" not in entry:
        raise DualBoostInputError(f"model: {where} must be an object with a 'type', got "
                                  f"{str(entry)[:60]!r}")
    kind = entry["type"]
    if kind == "stump":
        feature = _integer(entry.get("feature"), f"{where}.feature")
        threshold = entry.get("threshold", "missing")
        if threshold == "missing":
            raise DualBoostInputError(f"model: {where} has no 'threshold' (null for the "
                                      "constant stump)")
        threshold = -np.inf if threshold is None else _number(threshold, f"{where}.threshold")
        return Stump(feature, threshold, _sign(entry.get("sign"), f"{where}.sign"))
    if kind == "raw":
        feature = _integer(entry.get("feature"), f"{where}.feature")
        lo = _number(entry.get("min"), f"{where}.min")
        hi = _number(entry.get("max"), f"{where}.max")
        if lo > hi:
            raise DualBoostInputError(f"model: {where} has min {lo:g} > max {hi:g}")
        return RawFeature(feature, _sign(entry.get("sign"), f"{where}.sign"), lo, hi)
    if kind == "kernel":
        return _kernel_from_dict(entry, where)
    if kind == "tree":
        return _tree_from_dict(entry, where)
    if kind == "estimator":
        raise DualBoostInputError(
            f"model: {where} is a fitted scikit-learn estimator (estimator=...), which the JSON "
            "model cannot hold; save such a model with pickle or joblib")
    if kind == "column":
        raise DualBoostInputError(
            f"model: {where} is a column of a given hypothesis matrix (oracle 'finite': "
            "--hypotheses or a worst_case instance); such a model predicts only on its training "
            "examples, not on new data; fit with --oracle stumps, raw or kernel")
    raise DualBoostInputError(f"model: {where} has unknown type {kind!r}; a saved model "
                              f"predicts with {', '.join(PREDICTING_TYPES)}")


def _kernel_from_dict(entry: dict, where: str) -> KernelHypothesis:
    """A kernel hypothesis from its description: training row ``index`` stored sparsely as
    ``features`` (increasing 0-based columns) and ``values``, with the training ``scale``."""
    n_features = _integer(entry.get("n_features"), f"{where}.n_features", low=1)
    scale = _number(entry.get("scale"), f"{where}.scale")
    if not scale > 0:
        raise DualBoostInputError(f"model: {where}.scale must be > 0 (max_n ||x_n||^2 over "
                                  f"the training rows), got {scale!r}")
    features, values = entry.get("features"), entry.get("values")
    if not isinstance(features, list) or not isinstance(values, list) \
            or len(features) != len(values):
        raise DualBoostInputError(f"model: {where} needs 'features' and 'values', two arrays "
                                  "of the same length (the training row's nonzero entries)")
    cols = [_integer(j, f"{where}.features[{k}]") for k, j in enumerate(features)]
    if any(b <= a for a, b in zip(cols, cols[1:])) or (cols and cols[-1] >= n_features):
        raise DualBoostInputError(f"model: {where}.features must be increasing column indices "
                                  f"below n_features = {n_features}")
    vals = [_number(v, f"{where}.values[{k}]") for k, v in enumerate(values)]
    return KernelHypothesis(_integer(entry.get("index"), f"{where}.index"),
                            _sign(entry.get("sign"), f"{where}.sign"), scale, tuple(cols),
                            tuple(vals), n_features)


def _tree_from_dict(entry: dict, where: str) -> Tree:
    """A tree from its description: flat arrays ``feature`` (-1 at a leaf), ``threshold`` (null
    at a leaf), ``left``, ``right`` (children of internal nodes, each after its parent) and
    ``value`` (+-1 at the leaves), node 0 the root."""
    arrays = {k: entry.get(k) for k in ("feature", "threshold", "left", "right", "value")}
    sizes = {len(v) if isinstance(v, list) else -1 for v in arrays.values()}
    if len(sizes) != 1 or sizes == {-1} or sizes == {0}:
        raise DualBoostInputError(f"model: {where} needs 'feature', 'threshold', 'left', "
                                  "'right' and 'value', five non-empty arrays of one length")
    m = sizes.pop()
    feature, threshold, left, right, value = [], [], [], [], []
    for i in range(m):  # over the tree's nodes
        j = arrays["feature"][i]
        if isinstance(j, bool) or not isinstance(j, int) or j < -1:
            raise DualBoostInputError(f"model: {where}.feature[{i}] must be an integer >= -1")
        feature.append(j)
        if j >= 0:
            threshold.append(_number(arrays["threshold"][i], f"{where}.threshold[{i}]"))
            kids = [arrays["left"][i], arrays["right"][i]]
            if any(isinstance(c, bool) or not isinstance(c, int) or not i < c < m
                   for c in kids):
                raise DualBoostInputError(f"model: {where} node {i}: children must be node "
                                          f"indices after it, below {m}")
            left.append(kids[0])
            right.append(kids[1])
        else:
            threshold.append(0.0)
            left.append(-1)
            right.append(-1)
        value.append(_number(arrays["value"][i], f"{where}.value[{i}]") if j < 0
                     else float(arrays["value"][i] or 0.0))
    return Tree(tuple(feature), tuple(threshold), tuple(left), tuple(right), tuple(value))


def hypothesis_width(h: Hypothesis) -> int:
    """The number of feature columns a hypothesis needs: its feature + 1 (stump, raw) or the
    training width (kernel: it reads the whole row)."""
    if isinstance(h, KernelHypothesis):
        return h.n_features
    if isinstance(h, Tree):
        return max(h.feature) + 1 if max(h.feature) >= 0 else 1
    return int(h.feature) + 1


def _read_document(source: Any) -> tuple[dict, str]:
    if isinstance(source, dict):
        return source, "model"
    if not isinstance(source, (str, os.PathLike)):
        raise DualBoostInputError(f"a model is a JSON file path or a dict, got "
                                  f"{type(source).__name__}")
    path = Path(source)
    name = f"model {str(path)!r}"
    if not path.is_file():
        raise DualBoostInputError(f"no such model file: {str(path)!r}")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DualBoostInputError(f"cannot read {name}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise DualBoostInputError(f"{name} is not JSON: {exc.msg} at line {exc.lineno}") \
            from None
    if not isinstance(doc, dict):
        raise DualBoostInputError(f"{name} must hold a JSON object (the document of "
                                  "'dualboost fit --json'), got a JSON "
                                  f"{type(doc).__name__}")
    return doc, name


def load_model(source: str | os.PathLike | dict) -> SavedModel:
    """A :class:`SavedModel` from a ``dualboost fit --json`` document (path or parsed dict).

    Checks the keys a prediction needs (``weights``, ``hypotheses``, ``classes``; optional
    ``tie_class``, ``n_features``) and raises :class:`DualBoostInputError` with one line naming
    the first problem. Hypotheses of the ``finite`` oracle (type ``column``) cannot predict on new
    data and are refused.
    """
    doc, name = _read_document(source)
    for key in ("weights", "hypotheses", "classes"):
        if key not in doc:
            raise DualBoostInputError(f"{name} has no {key!r} key; is it the JSON written by "
                                      "'dualboost fit --json'?")
    weights_raw, hyps_raw, classes = doc["weights"], doc["hypotheses"], doc["classes"]
    if not isinstance(weights_raw, list) or not isinstance(hyps_raw, list):
        raise DualBoostInputError(f"{name}: 'weights' and 'hypotheses' must be arrays")
    if len(weights_raw) != len(hyps_raw):
        raise DualBoostInputError(f"{name} has {len(weights_raw)} weights but "
                                  f"{len(hyps_raw)} hypotheses")
    if not hyps_raw:
        raise DualBoostInputError(f"{name} has no hypotheses (T = 0): nothing to predict with")
    weights = np.array([_number(w, f"weights[{q}]") for q, w in enumerate(weights_raw)])
    hypotheses = [hypothesis_from_dict(entry, q) for q, entry in enumerate(hyps_raw)]
    if (not isinstance(classes, list) or len(classes) != 2
            or any(not isinstance(c, (int, float, str)) or isinstance(c, bool) for c in classes)
            or classes[0] == classes[1]):
        raise DualBoostInputError(f"{name}: 'classes' must be the two distinct original label "
                                  f"values (numbers or strings), got {classes!r}")
    tie_class = doc.get("tie_class", classes[0])
    if tie_class is None:
        tie_class = classes[0]
    if tie_class not in classes:
        raise DualBoostInputError(f"{name}: 'tie_class' {tie_class!r} is not one of the "
                                  f"classes {classes!r}")
    n_features = doc.get("n_features")
    if n_features is not None:
        n_features = _integer(n_features, "n_features", low=1)
        kernel_widths = {h.n_features for h in hypotheses if isinstance(h, KernelHypothesis)}
        if kernel_widths - {n_features}:  # its training row must have the model's width
            raise DualBoostInputError(f"{name}: a kernel hypothesis has n_features "
                                      f"{min(kernel_widths - {n_features})} but the model has "
                                      f"{n_features}")
        widest = max(hypothesis_width(h) for h in hypotheses)
        if widest > n_features:
            raise DualBoostInputError(f"{name}: a hypothesis reads feature {widest - 1} but "
                                      f"n_features is {n_features}")
    parameters = doc.get("parameters") or {}
    if not isinstance(parameters, dict):
        raise DualBoostInputError(f"{name}: 'parameters' must be an object")
    formulation = doc.get("formulation")
    names = doc.get("feature_names")
    if names is not None and (not isinstance(names, list)
                              or not all(isinstance(n, str) for n in names)
                              or (n_features is not None and len(names) != n_features)):
        raise DualBoostInputError(f"{name}: 'feature_names' must be null or n_features strings")
    label_column = doc.get("label_column")
    if label_column is not None and not isinstance(label_column, str):
        raise DualBoostInputError(f"{name}: 'label_column' must be null or a string")
    base = doc.get("libsvm_index_base")
    if base is not None and (isinstance(base, bool) or base not in (0, 1)):
        raise DualBoostInputError(f"{name}: 'libsvm_index_base' must be null, 0 or 1, got "
                                  f"{base!r}")
    return SavedModel(hypotheses=hypotheses, weights=weights, classes=list(classes),
                      tie_class=tie_class, n_features=n_features,
                      formulation=formulation if isinstance(formulation, str) else None,
                      parameters=dict(parameters), feature_names=names,
                      label_column=label_column, index_base=base)


# -------------------------------------------------------------------------------------------
# writing
# -------------------------------------------------------------------------------------------


def to_jsonable(obj: Any) -> Any:
    """``obj`` as plain JSON values: numpy scalars/arrays to Python, NaN and +-inf to None.

    Unknown objects become their ``repr`` so that writing the report never fails.
    """
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, bool):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return float(obj) if math.isfinite(obj) else None
    if isinstance(obj, np.ndarray):  # a 0-d array (a scalar dual variable) too
        return to_jsonable(obj.tolist())
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    return repr(obj)


def train_error(result: Any, y: Any, tie_sign: float | None = None) -> float:
    """Fraction of the N training examples that the returned combination misclassifies, by the
    prediction rule of :func:`labels_for_scores` (the one ``predict`` applies).

    ``y`` are the encoded training labels (-1/+1) of the run, ``tie_sign`` the encoded tie class
    (default: the majority of ``y``, :func:`majority_class`). The scores come from the stored
    columns, ``f(x_n) = y_n (U w)_n`` since ``u_n^q = y_n h^q(x_n)``, so no prediction on X is
    needed; a score within :data:`TIE_TOLERANCE` of 0 is a mistake only when ``y_n`` is not the
    tie class (with no hypotheses every score is 0: the minority fraction).
    """
    y = np.asarray(y, dtype=float).reshape(-1)
    if tie_sign is None:
        tie_sign = majority_class(y, [-1.0, 1.0])
    weights = np.asarray(result.weights, dtype=float)
    columns = np.asarray(result.columns, dtype=float)
    margins = columns @ weights if weights.size else np.zeros(y.size)
    if margins.shape != y.shape:
        raise DualBoostInputError(f"train_error: {y.size} labels for a run on "
                                  f"{margins.size} examples")
    predicted = labels_for_scores(y * margins, [-1.0, 1.0], float(tie_sign))
    return float(np.mean(predicted != y))


def _describe(h: Any) -> Any:
    describe = getattr(h, "describe", None)
    if callable(describe):
        return describe()
    return repr(h)


def _objective_as_printed(result: Any) -> dict | None:
    """The last master solve's ``as_printed`` record ({problem: [lower, upper]}), or None."""
    for record in reversed(list(getattr(result, "history", []) or [])):
        if getattr(record, "solved", False):
            return getattr(record, "as_printed", None)
    return None


#: the JSON's per-iteration vectors (``history[*].d`` and ``point``, SoftBoost's run-claim
#: inputs) are written while they hold at most this many numbers in all (about 6 MB of JSON),
#: else null: they are O(N T) (SoftBoost at N = 1e4, T = 190: an 89 MB file and 728 MB peak
#: memory; T = 82: 38 MB); the run's own claims read them in memory, not from the file
HISTORY_VECTOR_LIMIT = 250_000


#: the JSON keeps at most this many history records: a longer history (a corrective run of
#: 45,000 steps wrote 57 MB) keeps its first HISTORY_HEAD records, its last HISTORY_TAIL, every
#: record with a ``notice``, and evenly spaced ones between (``history_records`` says how many
#: there were; each kept record has its own ``t``). About 1 kB a record: a few MB at most
HISTORY_RECORD_LIMIT = 4000
HISTORY_HEAD = 1000
HISTORY_TAIL = 1000


def thinned(records: list) -> list:
    """At most about :data:`HISTORY_RECORD_LIMIT` of ``records`` (see there), in order."""
    n = len(records)
    if n <= HISTORY_RECORD_LIMIT:
        return records
    middle = range(HISTORY_HEAD, n - HISTORY_TAIL)
    room = HISTORY_RECORD_LIMIT - HISTORY_HEAD - HISTORY_TAIL
    stride = max(1, math.ceil(len(middle) / max(room, 1)))
    keep = [i for i in middle if (i - HISTORY_HEAD) % stride == 0
            or getattr(records[i], "notice", None)]
    return (records[:HISTORY_HEAD] + [records[i] for i in keep]
            + records[n - HISTORY_TAIL:])


def _history(result: Any) -> list[dict]:
    """``history`` of the JSON document: thinned (:data:`HISTORY_RECORD_LIMIT`), its
    per-iteration d and point dropped (null) when together larger than
    :data:`HISTORY_VECTOR_LIMIT` numbers."""
    records = thinned(list(getattr(result, "history", []) or []))

    def size(record: Any) -> int:
        point = getattr(record, "point", None) or {}
        return int(np.size(record.d) if getattr(record, "d", None) is not None else 0) + sum(
            int(np.size(v)) for v in point.values() if v is not None)

    if sum(size(r) for r in records) <= HISTORY_VECTOR_LIMIT:
        return [record.to_dict() for record in records]
    # the fields as asdict gives them, without copying d and point (to_jsonable converts)
    return [{**{f.name: getattr(record, f.name) for f in fields(record)}, "d": None,
             "point": None} for record in records]


def result_to_json(result: Any, *, data: str, y: Any = None, tie_sign: float | None = None,
                   extra: dict | None = None) -> dict:
    """The JSON document of a run (plain Python values, no NaN); see ``docs/json_schema.md``.

    ``train_error`` (:func:`train_error`) needs the encoded training labels ``y``; without them
    it is null.
    """
    from . import __version__

    params = result.parameters
    doc = {
        "dualboost_version": __version__,
        "data": data,
        "formulation": result.formulation,
        "algorithm": result.algorithm,
        "N": params.get("N"),
        # the three parameters most formulations share, also under "parameters"; null when the
        # formulation does not declare them (eta: not regularized)
        "nu": params.get("nu"),
        "eps": params.get("eps"),
        "eta": params.get("eta"),
        "parameters": {k: v for k, v in params.items() if k not in ("formulation", "N")},
        "algorithm_parameters": dict(getattr(result, "algorithm_parameters", {}) or {}),
        "stopping": result.stopping,
        "status": result.status,
        "success": result.success,
        "message": result.message,
        "iterations": result.iterations,
        "primal_objective": result.primal_objective,
        "dual_objective": result.dual_objective,
        # the objective as the seed states it (its sign and scale), bracketed by the d-domain
        # bracket above; recorded by algorithms whose seed states another form (seed 002's CG)
        "objective_as_printed": _objective_as_printed(result),
        "duality_gap": result.duality_gap,
        "certified_gap": getattr(result, "certified_gap", None),
        "soft_margin": result.soft_margin,
        "lp_value": result.lp_value,
        "train_error": None if y is None else train_error(result, y, tie_sign),
        "solver": result.solver,
        "master_paths": result.master_paths,
        "seconds": result.seconds,
        "master_seconds": result.master_seconds,
        "kkt_seconds": result.kkt_seconds,
        "oracle_seconds": result.oracle_seconds,
        "warnings": list(result.warnings),
        # what the certificates cover: "whole class" (an exact oracle) or "hypotheses found"
        # (a heuristic one: no whole-class statement; docs/theory.md, "Heuristic oracles")
        "certificate": getattr(result, "certificate_scope", "whole class"),
        "weights": result.weights,
        "hypotheses": [_describe(h) for h in result.hypotheses],
        "history": _history(result),
        "history_records": len(getattr(result, "history", []) or []),
    }
    if extra:
        doc.update(extra)
    return to_jsonable(doc)


def model_document(result: Any, classes: Any, *, y: Any = None, tie_class: Any = None,
                   n_features: int | None = None, data: str = "(python)",
                   extra: dict | None = None) -> dict:
    """The JSON document of a run (``docs/json_schema.md``), complete as a model.

    Built by :func:`result_to_json` (one schema for the CLI and the estimator) with the model
    keys added: ``classes`` (``classes[0]`` encoded -1), ``tie_class`` (given, or the majority
    class of the encoded training labels ``y``, see :func:`majority_class`) and ``n_features``.
    ``y`` (the run's encoded labels) also gives ``train_error``. ``extra`` adds or overrides
    other top-level keys.
    """
    classes = [_py(c) for c in np.asarray(classes).tolist()]
    if len(classes) != 2:
        raise DualBoostInputError(f"a model has exactly 2 classes, got {classes!r}")
    if tie_class is None:
        tie_class = majority_class(y, classes) if y is not None else classes[0]
    tie_class = _py(tie_class)
    keys = {"classes": classes, "tie_class": tie_class,
            "n_features": None if n_features is None else int(n_features)}
    keys.update(extra or {})
    tie_sign = 1.0 if tie_class == classes[1] else -1.0
    return result_to_json(result, data=data, y=y, tie_sign=tie_sign, extra=keys)


# -------------------------------------------------------------------------------------------
# new data (dualboost predict, dualboost fit --test)
# -------------------------------------------------------------------------------------------


@dataclass
class PredictionData:
    """Features of new examples, their original labels (None when the file has none) and the
    lines to tell the user about how the file was read (columns ignored)."""

    X: Any
    labels: np.ndarray | None
    name: str
    notes: list[str] = field(default_factory=list)


def _csv_columns(names: list[str], has_header: bool, *, text: str, n_features: int | None,
                 label: str | None, feature_names: list[str] | None, label_column: str | None,
                 notes: list[str], kind: str = "CSV file") -> tuple[list[int], int | None]:
    """The feature columns (in the model's order) and the label column of a new CSV file."""
    from .data import shown

    n_cols = len(names)
    j_label: int | None = None
    if label is not None:
        matches = [j for j, nm in enumerate(names) if nm == label]
        if len(matches) != 1:
            raise DualBoostInputError(
                f"label column {shown(label)} {'not found' if not matches else 'is ambiguous'} "
                f"in {shown(text)}; columns: {shown(', '.join(names), 300)[1:-1]}")
        j_label = matches[0]
    if feature_names is not None and has_header:
        # by name: the model's training header says which column is which feature
        if j_label is None and label_column is not None and names.count(label_column) == 1:
            j_label = names.index(label_column)
        missing = [f for f in feature_names if f not in names]
        if missing:
            raise DualBoostInputError(
                f"{kind} {shown(text)} lacks the model's feature column"
                f"{'s' if len(missing) > 1 else ''} "
                f"{', '.join(shown(f, 40) for f in missing[:10])}{' ...' * (len(missing) > 10)} "
                "(columns are matched by name against the training data's header)")
        doubled = [f for f in feature_names if names.count(f) > 1]
        if doubled:
            raise DualBoostInputError(f"{kind} {shown(text)} has column {shown(doubled[0])} "
                                      "more than once")
        features = [names.index(f) for f in feature_names]
        if j_label in features:
            raise DualBoostInputError(f"label column {shown(names[j_label])} is a feature of "
                                      "the model")
        ignored = [nm for j, nm in enumerate(names) if j not in features and j != j_label]
        if ignored:
            notes.append(f"ignored {len(ignored)} column{'s' if len(ignored) > 1 else ''} of "
                         f"{Path(text).name} that the model does not use: "
                         f"{shown(', '.join(ignored), 200)[1:-1]}")
        return features, j_label
    # by position: a file without a header, or a model without feature names
    if j_label is None:
        if n_features is None or n_cols == n_features + 1:
            j_label = n_cols - 1
        elif n_cols != n_features:
            raise DualBoostInputError(
                f"{kind} {shown(text)} has {n_cols} columns; the model needs {n_features} "
                "feature columns (plus an optional label column, the last one or --label)")
    features = [j for j in range(n_cols) if j != j_label]
    if n_features is not None and len(features) != n_features:
        raise DualBoostInputError(f"{kind} {shown(text)} has {len(features)} feature columns "
                                  f"but the model was trained on {n_features}")
    return features, j_label


def load_prediction_data(spec: str, *, n_features: int | None, label: str | None = None,
                         require_labels: bool = False, feature_names: list[str] | None = None,
                         label_column: str | None = None,
                         index_base: int | None = None) -> PredictionData:
    """New examples for a model with ``n_features`` features (same formats as ``--data``).

    A CSV file with a header, for a model that records the training header's
    ``feature_names``, is matched by name: each feature is read from the column of its name
    (a missing one is an error naming it), the label from ``label`` or the training label
    column ``label_column`` when present, and any other column (an id) is ignored and said so
    in ``notes``. Otherwise the columns are positional: the model's ``n_features`` feature
    columns and optionally one label column, the column ``label`` names, else the last one
    when there are ``n_features + 1``. A LIBSVM file is read ``n_features`` wide with the
    model's ``index_base`` (the training data's feature numbering) and always has labels;
    ``breast_cancer`` too. Labels are returned as the file's original values (numbers as
    floats, else strings); they may hold one class only.
    """
    from .data import read_csv, read_libsvm, shown, validate_features

    text = os.fspath(spec)
    if text.strip() == "breast_cancer":
        if label is not None:
            raise DualBoostInputError(f"--label {shown(label)} applies only to CSV files")
        from sklearn.datasets import load_breast_cancer

        bunch = load_breast_cancer()
        return PredictionData(np.asarray(bunch.data, dtype=float), np.asarray(bunch.target),
                              "breast_cancer")
    if text.strip().startswith("worst_case"):
        raise DualBoostInputError(f"{shown(text)} is defined by its hypothesis matrix, not by "
                                  "features; a model cannot predict on it")
    from .columnar import is_columnar

    if is_columnar(text):
        return _columnar_prediction_data(text, n_features=n_features, label=label,
                                         require_labels=require_labels,
                                         feature_names=feature_names,
                                         label_column=label_column)
    path = Path(text).expanduser()
    if not path.is_file():
        raise DualBoostInputError(f"no such data file: {shown(text)}")
    notes: list[str] = []
    if path.suffix.lower() == ".csv":
        table = read_csv(path, lambda names, has_header: _csv_columns(
            names, has_header, text=text, n_features=n_features, label=label,
            feature_names=feature_names, label_column=label_column, notes=notes))
        X = validate_features(table.X)
        labels = table.labels
    else:
        if label is not None:
            raise DualBoostInputError(f"--label {shown(label)} applies only to CSV files; "
                                      f"{shown(text)} is read as LIBSVM")
        X, labels, _ = read_libsvm(path, n_features=n_features, index_base=index_base)
    if require_labels and labels is None:
        raise DualBoostInputError(f"{shown(text)} has no label column (the model needs "
                                  f"{n_features} feature columns plus a label)")
    return PredictionData(X, labels, path.name, notes)


def _columnar_prediction_data(text: str, *, n_features: int | None, label: str | None,
                              require_labels: bool, feature_names: list[str] | None,
                              label_column: str | None) -> PredictionData:
    """:func:`load_prediction_data` for ``.npy``/``.npz``/Parquet (:mod:`dualboost.columnar`).

    Parquet columns have names: they are matched like a CSV header (by name against the
    training data's feature names; by position when the model has none). A ``.npy``/``.npz``
    file has no names: its columns are the model's features by position (a note says so when
    the model was trained on named columns), plus an optional label column (``--label INDEX``,
    ``last``, or the last one when there is one more column than the model has features)."""
    from .columnar import kind_of, read_columnar
    from .data import shown, validate_features

    kind = kind_of(text)
    what = "Parquet data" if kind == "parquet" else f".{kind} file"
    notes: list[str] = []
    table = read_columnar(text, lambda names, has_names, lab: _csv_columns(
        names, has_names, text=text, n_features=n_features, label=lab,
        feature_names=feature_names, label_column=label_column, notes=notes, kind=what),
        label)
    if kind != "parquet" and feature_names is not None:
        notes.append(f"{Path(text).name} has no column names: its columns are taken as the "
                     f"model's {len(feature_names)} features by position")
    X = validate_features(table.X)
    if require_labels and table.labels is None:
        raise DualBoostInputError(f"{shown(text)} has no label column (the model needs "
                                  f"{n_features} feature columns plus a label)")
    return PredictionData(X, table.labels, Path(text.rstrip("/")).name, notes)


def encode_against(labels: Any, classes: list) -> np.ndarray:
    """Original labels as -1 (``classes[0]``) / +1 (``classes[1]``) of a fitted model.

    A label that is neither class is a :class:`DualBoostInputError` naming it.
    """
    labels = np.asarray(labels)
    out = np.zeros(labels.shape[0])
    for sign, cls in ((-1.0, classes[0]), (1.0, classes[1])):
        if isinstance(cls, str) or labels.dtype.kind in "US":
            hit = labels.astype(str) == str(cls)
        else:
            hit = labels.astype(float) == float(cls)
        out[hit] = sign
    unknown = labels[out == 0]
    if unknown.size:
        shown = ", ".join(repr(_py(v)) for v in np.unique(unknown)[:5])
        raise DualBoostInputError(f"labels {shown} are not classes of the model "
                                  f"{[_py(c) for c in classes]!r}")
    return out
