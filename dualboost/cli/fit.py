"""``dualboost fit``: one boosting run on a data set, its summary and its JSON (the model).

Loads the data with :func:`dualboost.data.load_dataset`, runs :func:`dualboost.api.run` (the same
wiring as the estimator and the verifier), shows a progress line on stderr, prints a summary
table on stdout (not with ``--quiet``) and optionally writes the whole run as strict JSON
(``--json OUT``, :func:`dualboost.model_io.model_document`; keys in ``docs/json_schema.md``) and
a figure (``--plot``). Every file is checked first (:mod:`dualboost.cli.files`).
"""

from __future__ import annotations

import argparse
import math
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DualBoostInputError, DualityViolation, SolverFailure
from ..oracles.finite import as_hypothesis_matrix
from ..outputs import write_atomically, write_json
from ..params import DEFAULT_NU_FRAC, parse_param_text
from .common import (
    EXIT_FAILURE,
    EXIT_NOT_CONVERGED,
    EXIT_OK,
    PROG,
    CLIError,
    index_base,
    one_line,
    positive_int,
    positive_seconds,
    print_warning,
)
from .files import check_files, check_not_inputs, existing
from .progress import Progress


def add_parser(sub: Any) -> None:
    fit = sub.add_parser(
        "fit", help="run one boosting fit and print a summary (optionally write JSON)",
        description="Run one boosting fit by column generation and print a summary table. "
                    "Progress goes to stderr, the summary to stdout. No output may be one of "
                    "the input files (exit 2 before any work).",
    )
    data = fit.add_argument_group("data")
    data.add_argument("--data", required=True, metavar="SPEC",
                      help="a .csv file, a LIBSVM file, a .npy file (a dense 2-D array, the "
                           "label one of its columns), a .npz file (arrays X and y, or a "
                           "matrix saved by scipy.sparse.save_npz, kept sparse), Parquet (a "
                           "file, a directory or a quoted glob of parts), or a built-in data "
                           "set: breast_cancer, worst_case:N (N even)")
    data.add_argument("--label", metavar="NAME", default=None,
                      help="label column of a CSV or Parquet file (default: the last column); "
                           "of a .npy/.npz file 'last' (the default), a 0-based column index "
                           "(negative from the end) or column_K; also the label column of a "
                           "--test file")
    data.add_argument("--n-features", type=positive_int, default=None, metavar="K",
                      help="number of features of a LIBSVM file (default: its largest feature "
                           "index); narrower files are padded with zero columns, e.g. to give "
                           "a test file the training file's width. LIBSVM data stays sparse")
    data.add_argument("--index-base", type=index_base, default=None, metavar="{0,1}",
                      help="feature numbering of a LIBSVM file: 0 (the first feature is '0:') "
                           "or 1 ('1:'). Default: 0 when the training file has an index 0, "
                           "else 1. The model records it and reads --test (and 'dualboost "
                           "predict') with it")
    data.add_argument("--test", metavar="SPEC", default=None,
                      help="test data in the formats of --data (a CSV file with the training "
                           "features and a label column, a LIBSVM file read as wide as the "
                           "training data, breast_cancer): the summary and the JSON report the "
                           "test error beside the training error")

    model = fit.add_argument_group("model")
    from ..registry import available_formulations

    registered = ", ".join(available_formulations())
    model.add_argument("--formulation", default=None, metavar="NAME|PATH",
                       help=f"a registered formulation ({registered}) or the path of a .py "
                            "file defining one (default: the --algorithm's own problem where "
                            "it has one, e.g. adaboost_l1 for adaboost_cg, else erlpboost); "
                            "'dualboost list' shows each one's parameters")
    model.add_argument("--algorithm", default=None, metavar="NAME",
                       help="the algorithm to run (default: the formulation's own); "
                            "see 'dualboost list'")
    model.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="set a parameter the formulation or the algorithm declares "
                            "(repeatable), e.g. --param q=0.3; a vector parameter such as d0 "
                            "takes a .npy file or comma-separated numbers")
    # The shortcuts below default to None: "not given" leaves the declared default in place,
    # and a shortcut the formulation/algorithm does not declare is an error, never ignored.
    nu = model.add_mutually_exclusive_group()
    nu.add_argument("--nu", type=float, default=None, metavar="COUNT",
                    help="shortcut for --param nu: the capping parameter as a count in [1, N] "
                         "(1 = hard margin). Default, when the formulation declares nu: "
                         f"nu = max(1, {DEFAULT_NU_FRAC:g} N), the default of "
                         f"DualBoostClassifier (nu_frac={DEFAULT_NU_FRAC:g}); a starting point, "
                         "choose nu by cross-validation")
    nu.add_argument("--nu-frac", type=_nu_frac_arg, default=None, metavar="FRAC",
                    help=f"nu as a fraction of N, in (0, 1]: nu = FRAC * N (default "
                         f"{DEFAULT_NU_FRAC:g}, see --nu); 'auto': chosen by stratified 5-fold "
                         "cross-validation (accuracy) among 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, "
                         "then fitted on all the data (docs/choosing_nu.md)")
    model.add_argument("--eps", type=float, default=None,
                       help="shortcut for --param eps: target accuracy epsilon > 0 "
                            "(formulation default, 0.01 in the shipped ones)")
    model.add_argument("--eta", type=float, default=None,
                       help="shortcut for --param eta: regularization weight eta > 0 of a "
                            "regularized formulation (default: the theory's value, "
                            "max(2 B / eps, sigma / 2); docs/theory.md)")

    weak = fit.add_argument_group("weak learner").add_mutually_exclusive_group()
    weak.add_argument("--oracle", choices=("stumps", "raw", "kernel", "tree", "tree2_exact",
                                               "hist_stumps"),
                      default=None,
                      help="hypothesis class searched by the exact oracle, each with its "
                           "negation: stumps (decision stumps, the default), raw (each feature "
                           "rescaled to [-1, 1] by its training range), kernel (SVM "
                           "hypotheses, thesis §5: each training row x_i as h_i(x) = <x_i, x> "
                           "/ s with s = max_n ||x_n||^2 over the training rows, so every "
                           "training value is in [-1, 1]; on new data clipped to [-1, 1]; "
                           "O(nnz) per oracle call, sparse data stay sparse), tree (greedy "
                           "trees with leaves +-1 on binned features, --param max_depth=3, "
                           "max_bins=255, criterion=edge|gini; heuristic: certificates over the "
                           "trees found), tree2_exact (the best depth-2 tree, exact; --param "
                           "max_bins=32), hist_stumps (stumps at the quantile bin edges, "
                           "--param max_bins=255; exact over that binned class, O(N F) per "
                           "call without sorting). Built-in instances with their own "
                           "hypotheses use those")
    weak.add_argument("--hypotheses", metavar="FILE.npy", default=None,
                      help="an N x J matrix of hypothesis predictions in [-1, 1] saved with "
                           "numpy.save; makes the oracle pick the best of these J columns")

    loop = fit.add_argument_group("column generation")
    loop.add_argument("--stopping", default=None, metavar="RULE",
                      help="shortcut for --param stopping of the erlpboost algorithm: "
                           "simple (delta^t, thesis 3.2.1) or practical (delta~^t, 3.2.2; its "
                           "default); the lpboost algorithm has one rule (Alg. 2.1) and no "
                           "such parameter")
    loop.add_argument("--max-iter", type=positive_int, default=None, metavar="T",
                      help="at most T master solves (default: the algorithm's own, 1000, or "
                           "for the corrective algorithms their iteration bound capped at "
                           "100000); a run of a certified algorithm stopped there is not "
                           "converged: exit status 3, the JSON is still written; a stagewise "
                           "baseline (adaboost, arc_gv) that ran its T rounds finished")
    loop.add_argument("--time-limit", type=positive_seconds, default=None, metavar="SECONDS",
                      help="end the run at SECONDS, inside a master solve too, once its first "
                           "master solve is done (status time_limit, exit 3); the last "
                           "certified bracket and the JSON are kept. Ctrl-C does the same "
                           "(status interrupted)")
    loop.add_argument("--no-early-stop", action="store_true",
                      help="run on to the algorithm's own stopping rule where the guarantee "
                           "check would stop early (statuses vacuous_guarantee, "
                           "weak_guarantee, degenerate_lp; docs/theory.md 'Stopping early'); "
                           "pair it with --time-limit")
    loop.add_argument("--solver", default=None, metavar="NAME",
                      help="force one conic solver (e.g. CLARABEL, ECOS, SCS, HIGHS); "
                           "default: the policy of dualboost.solvers")
    loop.add_argument("--master", choices=("auto", "reference"), default="auto",
                      help="auto (default): the formulation's fast master where it has one "
                           "(warm HiGHS for LPBoost, projected Newton for the entropy family); "
                           "reference: the cvxpy models at every iteration (what a "
                           "formulation file without a fast path runs)")

    out = fit.add_argument_group("output")
    out.add_argument("--json", metavar="OUT", default=None,
                     help="write the run as JSON to OUT (keys: docs/json_schema.md); it is "
                          "also the model that 'dualboost predict --model OUT' applies")
    out.add_argument("--plot", metavar="FILE.png", default=None,
                     help="save two panels: the certified bracket P, Theta per iteration and "
                          "the cumulative distribution of the training margins with the soft "
                          "margin and nu marked; the format follows the extension (png, pdf, "
                          "svg, ...)")
    out.add_argument("--verbose", action="store_true",
                     help="print the full summary table and every warning's full text (by "
                          "default a few lines, one per warning or note with its code; the "
                          "JSON keeps the full text either way)")
    out.add_argument("--quiet", action="store_true",
                     help="print only warnings and errors (no progress line, no summary "
                          "table); the exit status and --json are unchanged")



def _load_hypotheses(path: str, n_examples: int) -> np.ndarray:
    """The N x J matrix of a .npy file (never unpickled), finite and in [-1, 1]."""
    p = Path(path)
    if not p.exists():
        raise CLIError(f"no such hypotheses file: {path!r}")
    if not p.is_file():
        raise CLIError(f"hypotheses path is not a regular file: {path!r}")
    try:
        with open(p, "rb") as fh:
            head = fh.read(6)
    except OSError as exc:
        raise CLIError(f"cannot read --hypotheses {path!r}: {exc.strerror or exc}") from None
    # np.load reports any non-.npy file as "pickled data"; say what is really wrong instead.
    if head != b"\x93NUMPY" and not head.startswith(b"PK"):
        raise CLIError(f"--hypotheses {path!r} is not a .npy file (no NumPy header); "
                        "save the N x J matrix with numpy.save")
    try:
        loaded = np.load(p, allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc):
            raise CLIError(f"--hypotheses {path!r} holds Python objects (dtype=object), which "
                            "are never unpickled; save a numeric N x J array") from None
        raise CLIError(f"cannot read --hypotheses {path!r} as a .npy array: "
                        f"{' '.join(str(exc).split())}") from None
    except (OSError, EOFError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise CLIError(f"cannot read --hypotheses {path!r} as a .npy array: {msg}") from None
    if not isinstance(loaded, np.ndarray):  # an .npz archive holds several arrays
        close = getattr(loaded, "close", None)
        if callable(close):
            close()
        raise CLIError(f"--hypotheses {path!r} is an .npz archive; save a single N x J "
                        "array with numpy.save")
    if loaded.ndim != 2:
        raise CLIError(f"--hypotheses {path!r} must be a 2-D N x J array, got shape "
                        f"{loaded.shape}")
    if loaded.shape[0] != n_examples:
        raise CLIError(f"--hypotheses {path!r} has {loaded.shape[0]} rows but the data set has "
                        f"N = {n_examples} examples (one row per example is needed)")
    # The oracle's own validator, called here so that its message can name the file.
    try:
        return as_hypothesis_matrix(loaded)
    except DualBoostInputError as exc:
        raise CLIError(f"--hypotheses {path!r}: {exc}") from None


def _source_file(cls: type) -> str | None:
    """The module file that defines a formulation class, or None."""
    import inspect

    try:
        return inspect.getsourcefile(cls)
    except (TypeError, OSError):
        return None


def _formulation_file(spec: str) -> Path | None:
    """The resolved path when ``--formulation`` names a file (mirrors the registry's rule)."""
    path = Path(spec)
    if spec.endswith(".py") or path.is_file():
        return path.resolve()
    return None


def _error_in_file(exc: BaseException, path: Path) -> str | None:
    """'line L in NAME' of the deepest traceback frame inside ``path``, or None."""
    where = None
    for frame in traceback.extract_tb(exc.__traceback__):
        try:
            if Path(frame.filename).resolve() == path:
                where = f"line {frame.lineno} in {frame.name}"
        except OSError:
            continue
    return where


def _vector_param(name: str, value: Any) -> Any:
    """A vector parameter given on the command line: a .npy file or comma-separated numbers."""
    if not isinstance(value, str):
        return value  # one number: the schema's validation says what is wrong with it
    if value.endswith(".npy"):
        path = Path(value)
        if not path.is_file():
            raise CLIError(f"--param {name}: no such .npy file: {value!r}")
        try:
            return np.asarray(np.load(path, allow_pickle=False), dtype=float)
        except (ValueError, TypeError, OSError, EOFError) as exc:
            raise CLIError(f"--param {name}: cannot read {value!r} as a numeric .npy array: "
                            f"{one_line(exc)}") from None
    try:
        return np.array([float(item) for item in value.split(",")])
    except ValueError:
        raise CLIError(f"--param {name} is a vector: give comma-separated numbers or a .npy "
                        f"file, got {value!r}") from None


def _fit_params(args: argparse.Namespace, formulation_cls: type,
                algorithm_cls: type) -> dict[str, Any]:
    """The ``--param`` values, checked against the declarations together with the shortcuts.

    Fails before the data are loaded: a name that neither the formulation nor the algorithm
    declares (``--eta`` with lpboost), or one given twice, is exit 2 with the declared names.
    """
    from ..api import route_params

    given: dict[str, Any] = {}
    labels: dict[str, str] = {}
    from ..oracles import ORACLE_PARAMS

    # the chosen oracle's options (--oracle tree --param max_depth=3) go to the oracle
    oracle_names = set(ORACLE_PARAMS.get(args.oracle or "stumps", ()))
    args.oracle_params = {}
    for text in args.param:
        name, value = parse_param_text(text)
        if name in given or name in args.oracle_params:
            raise CLIError(f"--param {name} is given twice")
        if name in oracle_names:
            args.oracle_params[name] = value
            continue
        given[name], labels[name] = value, f"--param {name}"
    shortcuts = {"nu": ("--nu" if args.nu is not None else "--nu-frac",
                        args.nu if args.nu is not None else
                        (None if args.nu_frac == "auto" else args.nu_frac)),
                 "eps": ("--eps", args.eps), "eta": ("--eta", args.eta),
                 "stopping": ("--stopping", args.stopping)}
    names = dict(given)
    for name, (option, value) in shortcuts.items():
        if value is None:
            continue
        if name in given:
            raise CLIError(f"{option} and --param {name} both set {name}; give one of them")
        names[name], labels[name] = value, option
    route_params(formulation_cls, algorithm_cls, names, labels=labels)
    schema = {p.name: p for p in (*formulation_cls.params, *algorithm_cls.params)}
    for name, value in given.items():
        if schema[name].kind == "vector":
            given[name] = _vector_param(name, value)
    return given


def _nu_frac_arg(text: str) -> float | str:
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number in (0, 1] or 'auto', got {text!r}") from None


#: the folds of --nu-frac auto
NU_AUTO_FOLDS = 5


def _nu_by_cross_validation(args: argparse.Namespace, params: dict, dataset: Any,
                            quiet: bool) -> tuple[float, dict]:
    """nu / N of the best mean validation accuracy over stratified k-fold splits, among the
    cross-validating estimator's grid (:data:`dualboost.estimator_cv.DEFAULT_NU_FRACS`); every
    fit is deterministic (the early stop counts work, not seconds), so is the choice."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    from ..estimator import DualBoostClassifier
    from ..estimator_cv import DEFAULT_NU_FRACS

    folds = StratifiedKFold(NU_AUTO_FOLDS, shuffle=True, random_state=0)
    scores = []
    for frac in DEFAULT_NU_FRACS:
        if not quiet:
            print(f"{PROG}: --nu-frac auto: {NU_AUTO_FOLDS}-fold cross-validation at nu_frac = "
                  f"{frac:g}", file=sys.stderr, flush=True)
        estimator = DualBoostClassifier(
            formulation=args.formulation, nu_frac=frac, eps=0.01 if args.eps is None else args.eps,
            eta=args.eta, oracle=args.oracle or "stumps", algorithm=args.algorithm,
            params={k: v for k, v in params.items() if k != "nu"} or None,
            max_iter=args.max_iter, solver=args.solver, time_limit=args.time_limit,
            oracle_params=getattr(args, "oracle_params", None) or None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scores.append(float(np.mean(cross_val_score(estimator, dataset.X, dataset.y,
                                                        cv=folds))))
    best = int(np.argmax(scores))  # the first (smallest nu) of equal scores
    chosen = float(DEFAULT_NU_FRACS[best])
    record = {"method": f"stratified {NU_AUTO_FOLDS}-fold cross-validation, accuracy",
              "nu_fracs": list(DEFAULT_NU_FRACS), "mean_accuracy": scores, "nu_frac": chosen}
    if not quiet:
        curve = ", ".join(f"{f:g}: {a:.4f}" for f, a in zip(DEFAULT_NU_FRACS, scores))
        print(f"{PROG}: --nu-frac auto chose nu_frac = {chosen:g} (mean validation accuracy "
              f"{curve})", file=sys.stderr, flush=True)
    return chosen, record


def _default_nu(args: argparse.Namespace, params: dict, formulation_cls: type,
                algorithm_cls: type, N: int) -> float | None:
    """nu = max(1, DEFAULT_NU_FRAC N) when nu is declared and none was given, else None."""
    declared = {p.name for p in (*formulation_cls.params, *algorithm_cls.params)}
    if "nu" not in declared or args.nu is not None or args.nu_frac is not None or "nu" in params:
        return None
    return max(1.0, DEFAULT_NU_FRAC * N)


def _inputs(args: argparse.Namespace) -> list:
    """Every file the run reads: --data, --test, a --formulation file, --hypotheses and the
    .npy files of vector parameters (the outputs may be none of them)."""
    files = [*existing("--data", args.data), *existing("--test", args.test),
             *existing("--formulation", args.formulation),
             *existing("--hypotheses", args.hypotheses)]
    for text in args.param:
        name, _, value = text.partition("=")
        if value.strip().endswith(".npy"):
            files += existing(f"--param {name.strip()}", value.strip())
    return files


def run(args: argparse.Namespace) -> int:
    from ..algorithms import algorithm_class
    from ..api import run as api_run
    from ..data import load_dataset
    from ..model_io import encode_against, load_model, load_prediction_data, model_document
    from ..registry import load_formulation

    if args.formulation is None:  # the algorithm's own problem (seed 002's CG), else erlpboost
        own = getattr(algorithm_class(args.algorithm), "default_formulation", None) \
            if args.algorithm else None
        args.formulation = own or "erlpboost"
    # every output checked, and none of them an input, before anything is loaded
    outputs = [("--json", args.json, "json"), ("--plot", args.plot, "plot")]
    check_files(_inputs(args), outputs)
    formulation_cls = load_formulation(args.formulation)
    # a registered formulation is read from its module file too (formulations/<name>.py)
    check_not_inputs(existing("--formulation", _source_file(formulation_cls)), outputs)
    algorithm_cls = algorithm_class(args.algorithm or formulation_cls.default_algorithm)
    params = _fit_params(args, formulation_cls, algorithm_cls)
    dataset = load_dataset(args.data, label=args.label, n_features=args.n_features,
                           index_base=args.index_base)

    hypotheses = None
    oracle = args.oracle or "stumps"
    if args.hypotheses is not None:
        hypotheses = _load_hypotheses(args.hypotheses, dataset.N)
        oracle = "finite"
    elif dataset.hypotheses is not None:
        if args.oracle is not None:
            raise CLIError(f"data set {dataset.name!r} is defined by its own hypothesis matrix; "
                           f"--oracle {args.oracle} does not apply to it")
        hypotheses = dataset.hypotheses
        oracle = "finite"
    n_features = None if oracle == "finite" else int(dataset.X.shape[1])

    test = None
    if args.test is not None:  # loaded before the fit: a bad test file is exit 2 up front
        if oracle == "finite":
            raise CLIError("--test needs a model that predicts on new features; the finite "
                           "oracle's hypotheses are columns of a matrix on the training "
                           "examples only")
        test = load_prediction_data(args.test, n_features=n_features, label=args.label,
                                    require_labels=True, feature_names=_named(dataset),
                                    label_column=dataset.label_name,
                                    index_base=dataset.index_base)
        test_y = encode_against(test.labels, list(dataset.classes))
        for note in test.notes:
            print_warning(f"--test: {note}")

    nu_selection = None
    if args.nu_frac == "auto":
        declared = {p.name for p in (*formulation_cls.params, *algorithm_cls.params)}
        if "nu" not in declared or "nu" in params:
            raise CLIError("--nu-frac auto chooses nu, which this formulation does not take "
                           "(or --param nu sets it)")
        if oracle == "finite":
            raise CLIError("--nu-frac auto cross-validates on held-out rows; the finite "
                           "oracle's hypotheses are columns on the training examples only")
        args.nu_frac, nu_selection = _nu_by_cross_validation(args, params, dataset, args.quiet)
    nu = args.nu
    default_nu = _default_nu(args, params, formulation_cls, algorithm_cls, dataset.N)
    if default_nu is not None:
        nu = default_nu
    user_file = _formulation_file(args.formulation)
    rule = args.stopping or params.get("stopping") or "practical"
    progress = Progress(stopping=str(rule), max_iter=args.max_iter, enabled=not args.quiet)
    try:
        with progress:
            result = api_run(
                dataset.X, dataset.y,
                formulation=formulation_cls,
                algorithm=algorithm_cls.name,
                params=params,
                nu=nu, nu_frac=args.nu_frac,
                eps=args.eps, eta=args.eta,
                stopping=args.stopping,
                oracle=args.oracle or "stumps",  # ignored by run() when hypotheses is given
                oracle_params=getattr(args, "oracle_params", None) or None,
                hypotheses=hypotheses,
                max_iter=args.max_iter,
                solver=args.solver,
                master=args.master,
                progress=progress,
                time_limit=args.time_limit,
                guarantee_check=not args.no_early_stop,
            )
    except DualityViolation as exc:
        where = f" (formulation file {args.formulation})" if user_file is not None else ""
        raise CLIError(f"certificate failed{where}: {exc}", EXIT_FAILURE) from exc
    except (DualBoostInputError, SolverFailure, KeyboardInterrupt):
        raise
    except Exception as exc:
        # A user's formulation file passes the registry's static checks but may still fail
        # when the engine calls it; that is bad input (exit 2), not a dualboost bug.
        where = _error_in_file(exc, user_file) if user_file is not None else None
        if where is None:
            raise
        raise CLIError(f"formulation {args.formulation!r} failed ({where}): "
                       f"{type(exc).__name__}: {exc}") from exc
    # The engine raises DualityViolation at the failing solve; this guards the reported pair.
    scale = 1.0 + abs(result.primal_objective) + abs(result.dual_objective)
    if not (math.isfinite(result.primal_objective) and math.isfinite(result.dual_objective)) \
            or result.dual_objective > result.primal_objective + 1e-9 * scale:
        raise CLIError(f"certificate failed: formulation {result.formulation!r} reports Theta "
                       f"= {result.dual_objective:.10g} > P = {result.primal_objective:.10g} "
                       "(weak duality; docs/theory.md, check D1)", EXIT_FAILURE)

    # A formulation file is reported under its own path (its class's name may be that of the
    # registered formulation it was copied from); formulation_class keeps the class's name.
    extra = {
        "formulation": args.formulation if user_file is not None else result.formulation,
        "formulation_class": result.formulation,
        "formulation_spec": args.formulation,
        "label": args.label,
        "oracle": oracle,
        "oracle_params": getattr(args, "oracle_params", None) or None,
        "hypotheses_file": args.hypotheses,
        "max_iter": getattr(result, "max_iter", args.max_iter),
        "time_limit": args.time_limit,
        "test_data": args.test,
        "feature_names": None if n_features is None else _named(dataset),
        "label_column": dataset.label_name,
        "libsvm_index_base": dataset.index_base,
        "nu_selection": nu_selection,
    }
    doc = model_document(result, dataset.classes, y=dataset.y, n_features=n_features,
                         data=args.data, extra=extra)
    if test is not None:
        model = load_model(doc)  # predicts exactly as 'dualboost predict' will
        wrong = encode_against(model.predict(test.X), model.classes) != test_y
        doc["test_error"] = float(np.mean(wrong))
        doc["test_N"] = int(test_y.size)
    if args.json is not None:
        write_json(args.json, doc)
    if args.plot is not None:
        from ..plots import plot_run

        write_atomically(args.plot, "--plot", lambda tmp: plot_run(
            result, tmp, title=f"{doc['formulation']} on {args.data}"))
    if not args.quiet:
        from .summary import print_summary

        print_summary(result, doc, oracle=oracle,
                      max_iter=getattr(result, "max_iter", args.max_iter),
                      verbose=args.verbose)
    from .summary import diagnostic_line

    for warning in doc.get("warnings") or []:  # also lines of the summary; one line each here
        kind, line = diagnostic_line(warning)
        if args.verbose and isinstance(warning, dict):
            print_warning(f"{warning.get('code', '')}: {warning.get('message', '')}")
        elif kind == "warning":
            print_warning(line)
        elif args.quiet:  # a note is in the summary (and the JSON); with --quiet one line here
            print(f"{PROG}: note: {line}", file=sys.stderr, flush=True)
    if not result.success:  # the converged* statuses stopped by their rule (exit 0)
        wrote = f"; the report is in {args.json}" if args.json is not None else ""
        print(f"{PROG}: not converged ({result.status}): {one_line(result.message)}{wrote}",
              file=sys.stderr, flush=True)
        return EXIT_NOT_CONVERGED
    return EXIT_OK


def _named(dataset: Any) -> list[str] | None:
    """The training feature names when they are the columns of a CSV header (new CSV files
    are matched against them by name), else None (LIBSVM, headerless CSV: by position)."""
    return list(dataset.feature_names) if getattr(dataset, "named_columns", False) else None
