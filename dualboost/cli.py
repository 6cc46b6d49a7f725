"""Command-line interface: ``dualboost list``, ``fit``, ``predict`` and ``verify``.

``dualboost list`` prints every registered formulation (summary, the seed's equation numbers,
default algorithm, cones, declared parameters with default, range and meaning) and every algorithm
(summary, reference, parameters); ``--json`` prints the same as JSON.

``dualboost fit --data D [options]`` loads a data set with :func:`dualboost.data.load_dataset`,
runs :func:`dualboost.api.run` (the same wiring as the estimator and the verifier), shows a
progress line on stderr, prints a summary table on stdout and optionally writes the whole run as
strict JSON (``--json OUT``; the keys are documented in ``docs/json_schema.md``). ``--formulation``
picks the problem (its own default algorithm runs unless ``--algorithm`` names another),
``--param name=value`` sets any parameter the formulation or the algorithm declares, and ``--nu``,
``--nu-frac``, ``--eps``, ``--eta``, ``--stopping`` are shortcuts for the parameters of those names.
``--test DATA`` reports the test error of the fitted combination beside the training error;
``--time-limit SECONDS`` and Ctrl-C end a long run and keep its last certified bracket.

``dualboost predict --model run.json --data new.csv`` applies the model saved by ``fit --json``
(:mod:`dualboost.model_io`) to new data: predictions (original label values) and scores, and the
accuracy when the data have labels.

Exit status: 0 only when the run converged (its stopping rule held) and its final certificate
holds; 3 when it did not converge (``max_iter``, ``time_limit`` or ``interrupted``: the JSON and
the plot are still written, one line on stderr says so); 2 on bad input, found before any work
starts (one line on stderr starting ``dualboost: error:``; this includes a parameter that the
formulation and the algorithm do not declare, a pairing the algorithm cannot run, and an output
file that cannot be written); 1 when no solver produced an accepted solution or when a
certificate failed (weak duality Theta <= P violated at a feasible pair: the formulation's primal
and dual are not a pair); 130 on Ctrl-C before the first certified master solve.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
import traceback
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from . import __version__
from .errors import DualBoostInputError, DualityViolation, SolverFailure
from .oracles.finite import as_hypothesis_matrix
from .params import Param, parse_param_text
from .registry import available_formulations
from .result import BoostResult, IterationRecord

__all__ = ["DEFAULT_NU_FRAC", "build_parser", "catalogue", "main", "result_to_json", "to_jsonable",
           "train_error"]

PROG = "dualboost"
ERROR_PREFIX = f"{PROG}: error: "
EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_NOT_CONVERGED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

#: nu = max(1, DEFAULT_NU_FRAC * N) when a formulation declares nu and none is given: the same
#: default as DualBoostClassifier(nu_frac=0.1) (a test keeps the two equal). A starting point,
#: not a recommendation: choose nu by cross-validation (docs).
DEFAULT_NU_FRAC = 0.1

# A plain progress line every PLAIN_EVERY iterations keeps CI logs short but alive.
PLAIN_EVERY = 10


class _CLIError(Exception):
    """A problem found by the CLI itself (not by the library); reported like bad input."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors, so every usage error looks like every input error."""

    def error(self, message: str) -> NoReturn:
        hint = f"; see '{self.prog} --help'"
        _print_error(message + hint)
        raise SystemExit(EXIT_USAGE)


def _print_error(message: object) -> None:
    # Library messages are one line already; collapsing whitespace guarantees it for any text.
    print(ERROR_PREFIX + " ".join(str(message).split()), file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# argument parsing
# ---------------------------------------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The ``dualboost`` parser with its ``list``, ``fit``, ``predict`` and ``verify`` commands."""
    parser = _Parser(
        prog=PROG,
        description="Boosting as convex optimization: LPBoost, ERLPBoost and their relatives as "
                    "paired primal/dual models solved by column generation.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    listing = sub.add_parser(
        "list", help="list the formulations and algorithms with their parameters",
        description="List every registered formulation (summary, equations, default algorithm, "
                    "cones, declared parameters) and every algorithm (summary, reference, "
                    "parameters). Any name shown under 'parameters' can be set with "
                    "'dualboost fit --param NAME=VALUE'.",
    )
    listing.add_argument("formulations", nargs="*", metavar="NAME|PATH",
                         help="list only these formulations (registered names or .py files); "
                              "default: every registered one")
    listing.add_argument("--json", action="store_true", help="print the listing as JSON")

    fit = sub.add_parser(
        "fit", help="run one boosting fit and print a summary (optionally write JSON)",
        description="Run one boosting fit by column generation and print a summary table. "
                    "Progress goes to stderr, the summary to stdout.",
    )
    data = fit.add_argument_group("data")
    data.add_argument("--data", required=True, metavar="SPEC",
                      help="a .csv file, a LIBSVM file, or a built-in data set: "
                           "breast_cancer, worst_case:N (N even)")
    data.add_argument("--label", metavar="NAME", default=None,
                      help="label column of a CSV file (default: the last column); also the "
                           "label column of a --test CSV file")
    data.add_argument("--n-features", type=_positive_int, default=None, metavar="K",
                      help="number of features of a LIBSVM file (default: its largest feature "
                           "index); narrower files are padded with zero columns, e.g. to give "
                           "a test file the training file's width. LIBSVM data stays sparse")
    data.add_argument("--test", metavar="SPEC", default=None,
                      help="test data in the formats of --data (a CSV file with the training "
                           "features and a label column, a LIBSVM file read as wide as the "
                           "training data, breast_cancer): the summary and the JSON report the "
                           "test error beside the training error")

    model = fit.add_argument_group("model")
    registered = ", ".join(available_formulations())
    model.add_argument("--formulation", default="erlpboost", metavar="NAME|PATH",
                       help=f"a registered formulation ({registered}) or the path of a .py "
                            "file defining one (default: erlpboost); 'dualboost list' shows "
                            "each one's parameters")
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
    nu.add_argument("--nu-frac", type=float, default=None, metavar="FRAC",
                    help=f"nu as a fraction of N, in (0, 1]: nu = FRAC * N (default "
                         f"{DEFAULT_NU_FRAC:g}, see --nu)")
    model.add_argument("--eps", type=float, default=None,
                       help="shortcut for --param eps: target accuracy epsilon > 0 "
                            "(formulation default, 0.01 in the shipped ones)")
    model.add_argument("--eta", type=float, default=None,
                       help="shortcut for --param eta: regularization weight eta > 0 of a "
                            "regularized formulation (default: the theory's value, "
                            "max(2 B / eps, sigma / 2); docs/theory.md)")

    weak = fit.add_argument_group("weak learner").add_mutually_exclusive_group()
    weak.add_argument("--oracle", choices=("stumps", "raw"), default=None,
                      help="hypothesis class searched by the exact oracle (default: stumps; "
                           "built-in instances with their own hypotheses use those)")
    weak.add_argument("--hypotheses", metavar="FILE.npy", default=None,
                      help="an N x J matrix of hypothesis predictions in [-1, 1] saved with "
                           "numpy.save; makes the oracle pick the best of these J columns")

    loop = fit.add_argument_group("column generation")
    loop.add_argument("--stopping", default=None, metavar="RULE",
                      help="shortcut for --param stopping of the erlpboost algorithm: "
                           "simple (delta^t, thesis 3.2.1) or practical (delta~^t, 3.2.2; its "
                           "default); the lpboost algorithm has one rule (Alg. 2.1) and no "
                           "such parameter")
    loop.add_argument("--max-iter", type=_positive_int, default=1000, metavar="T",
                      help="at most T master solves (default 1000); a run stopped there is not "
                           "converged: exit status 3, the JSON is still written")
    loop.add_argument("--time-limit", type=_positive_seconds, default=None, metavar="SECONDS",
                      help="end the run after the first master solve that finishes past "
                           "SECONDS (status time_limit, exit 3); the last certified bracket "
                           "and the JSON are kept. Ctrl-C does the same (status interrupted)")
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
    out.add_argument("--quiet", action="store_true", help="no progress line")

    predict = sub.add_parser(
        "predict", help="apply a model saved by 'dualboost fit --json' to new data",
        description="Apply the model saved by 'dualboost fit --json' to new data: one line per "
                    "example with the prediction (an original label value) and the score "
                    "f(x) = sum_q w_q h_q(x); a score of 0 (within 1e-9) goes to the training "
                    "set's majority class. Prints the accuracy when the data have labels.",
    )
    predict.add_argument("--model", required=True, metavar="RUN.json",
                         help="the JSON written by 'dualboost fit --json' (stumps or raw "
                              "features)")
    predict.add_argument("--data", required=True, metavar="SPEC",
                         help="a .csv file (the model's feature columns, optionally a label "
                              "column), a LIBSVM file, or breast_cancer")
    predict.add_argument("--label", metavar="NAME", default=None,
                         help="label column of a CSV file (default: the last column when there "
                              "is one more column than the model has features; none otherwise)")
    predict.add_argument("--n-features", type=_positive_int, default=None, metavar="K",
                         help="width of a LIBSVM file (default: the model's n_features)")
    predict.add_argument("--out", metavar="PRED.csv", default=None,
                         help="write 'prediction,score' rows to this CSV file (default: "
                              "stdout); the accuracy line then goes to stdout, else to stderr")

    # Only listed here so that `dualboost --help` shows it; main() hands its arguments over to
    # dualboost.verify untouched, so that module owns its own options and help.
    sub.add_parser("verify", add_help=False,
                   help="check strong duality / KKT of the formulations "
                        "(see 'dualboost verify --help')")
    return parser


# ---------------------------------------------------------------------------------------------
# progress
# ---------------------------------------------------------------------------------------------


def _fmt(value: float | None, spec: str = ".6g") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return format(value, spec)


def _can_encode(stream: Any, text: str) -> bool:
    """Whether ``stream`` can print ``text``; Greek letters fall back to ASCII names if not."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class _Progress:
    """The engine's ``progress`` callback: a live status line on a terminal, else plain lines.

    On a terminal the line is a rich ``Live`` display that re-renders itself (so the elapsed time
    keeps ticking during a long master solve); elsewhere (CI, pipes, pytest) it prints one plain
    line every ``PLAIN_EVERY`` iterations so that logs stay readable.
    """

    def __init__(self, *, stopping: str, max_iter: int, enabled: bool = True):
        self.stopping = stopping
        self.max_iter = max_iter
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last: IterationRecord | None = None
        self.last_time: float | None = None  # when the last record arrived
        self.hypotheses = 0  # so far: one per solved step plus its extra columns
        self.live = None
        stream = sys.stderr
        self.interactive = (enabled and hasattr(stream, "isatty") and stream.isatty()
                            and os.environ.get("TERM") != "dumb")
        self.greek = _can_encode(stream, "ΘδP")

    def __enter__(self) -> _Progress:
        self.start = time.perf_counter()
        if self.interactive:
            from rich.console import Console
            from rich.live import Live

            self.live = Live(self, console=Console(stderr=True), refresh_per_second=4,
                             transient=True, redirect_stdout=False, redirect_stderr=False)
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
            self.live = None

    def line(self) -> str:
        """The status text for the last record (or a 'starting' note before the first)."""
        elapsed = time.perf_counter() - self.start
        # One label for both rules: LPBoost ignores --stopping, so "δ~" would mislead there.
        theta, delta = ("Θ", "δ") if self.greek else ("Theta", "delta")
        rec = self.last
        if rec is None:
            return f"starting (max {self.max_iter} iterations)  {elapsed:7.1f}s"
        value = rec.delta_simple if self.stopping == "simple" else rec.delta_practical
        # The last ERLPBoost record is never solved (h^t is discarded): show P^t(d^{t-1}).
        primal = rec.primal if rec.solved else rec.primal_before
        # LPBoost's multiple pricing adds several hypotheses per master solve t
        count = f"T={self.hypotheses:<5d} " if self.hypotheses > rec.t else ""
        text = (f"t={rec.t:<5d} {count}P={_fmt(primal, '.6f')}  {theta}={_fmt(rec.dual, '.6f')}  "
                f"{delta}={_fmt(value, '.3g')}  {elapsed:7.1f}s")
        if rec.solved:
            # which master ran and how long its solve took, so a slow solver is visible
            where = "/".join(x for x in (rec.path, rec.solver) if x) or "master"
            text += f"  [{where} {rec.master_seconds:.2f}s]"
        if self.interactive and self.last_time is not None:
            text += f"  step t={rec.t + 1}: {time.perf_counter() - self.last_time:.0f}s"
        return text

    def __rich__(self) -> Any:
        from rich.text import Text

        return Text(self.line())

    def __call__(self, record: IterationRecord) -> None:
        self.last = record
        self.last_time = time.perf_counter()
        if record.solved:
            self.hypotheses += 1 + record.extra_columns
        if not self.enabled or self.interactive:
            return
        if record.t == 1 or record.t % PLAIN_EVERY == 0:
            print(self.line(), file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# results: JSON and summary
# ---------------------------------------------------------------------------------------------


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


def train_error(result: BoostResult) -> float:
    """Fraction of training examples whose margin ``(U w)_n`` is <= 0 (a zero score is wrong).

    Uses the stored columns ``u_n^q = y_n h^q(x_n)``, so no prediction on X is needed.
    """
    weights = np.asarray(result.weights, dtype=float)
    columns = np.asarray(result.columns, dtype=float)
    if weights.size == 0:
        return 1.0
    margins = columns @ weights
    return float(np.mean(margins <= 0))


def _describe(h: Any) -> Any:
    describe = getattr(h, "describe", None)
    if callable(describe):
        return describe()
    return repr(h)


def result_to_json(result: BoostResult, *, data: str, extra: dict | None = None) -> dict:
    """The JSON document of a run (plain Python values, no NaN); see ``docs/json_schema.md``."""
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
        "duality_gap": result.duality_gap,
        "soft_margin": result.soft_margin,
        "lp_value": result.lp_value,
        "train_error": train_error(result),
        "solver": result.solver,
        "master_paths": result.master_paths,
        "seconds": result.seconds,
        "master_seconds": result.master_seconds,
        "kkt_seconds": result.kkt_seconds,
        "oracle_seconds": result.oracle_seconds,
        "warnings": list(result.warnings),
        "weights": result.weights,
        "hypotheses": [_describe(h) for h in result.hypotheses],
        "history": [record.to_dict() for record in result.history],
    }
    if extra:
        doc.update(extra)
    return to_jsonable(doc)


def _write_json(path: str, doc: dict, option: str = "--json") -> None:
    text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
    _write_atomically(path, option, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def plot_formats() -> dict[str, str]:
    """Extensions the plotting backend (matplotlib's Agg canvas) can write, with their names."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    return dict(FigureCanvasAgg(Figure()).get_supported_filetypes())


def _check_output_target(path: str, option: str, *, plot: bool = False) -> None:
    """Fail before a long run, not after it, when an output file cannot be written."""
    target = Path(path)
    if target.is_dir():
        raise _CLIError(f"{option} {path!r} is a directory; give a file name")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise _CLIError(f"{option} {path!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise _CLIError(f"{option} {path!r}: directory {str(parent)!r} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise _CLIError(f"{option} {path!r}: the file exists and is not writable")
    if plot:
        formats = plot_formats()
        ext = target.suffix.lower().lstrip(".")
        if ext not in formats:
            what = f"extension '.{ext}'" if ext else "no extension"
            raise _CLIError(f"{option} {path!r} has {what}; the plotting backend writes "
                            f"{', '.join('.' + e for e in sorted(formats))}")


def _write_atomically(path: str, option: str, write: Any) -> None:
    """``write(tmp_path)`` next to ``path``, then rename: no half-written file is ever left."""
    target = Path(path)
    tmp = target.with_name(f".{target.stem}.{os.getpid()}.tmp{target.suffix}")
    try:
        write(str(tmp))
        os.replace(tmp, target)
    except OSError as exc:
        raise _CLIError(f"cannot write {option} {path!r}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)


def _param_text(value: Any) -> str:
    """A resolved parameter for the summary table (vectors are summarized, not printed)."""
    if value == "uniform":
        return "uniform 1/N"
    if isinstance(value, (list, tuple, np.ndarray)):
        return f"vector of {len(value)} values"
    if isinstance(value, float):
        return _fmt(value)
    return "-" if value is None else str(value)


def _print_summary(result: BoostResult, doc: dict, *, oracle: str, max_iter: int) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=sys.stdout, highlight=False)
    greek = _can_encode(sys.stdout, "νεηΘ")
    theta = "Θ" if greek else "Theta"
    symbols = {"nu": "ν", "eps": "ε", "eta": "η"} if greek else {}

    table = Table(title=Text(f"dualboost fit: {doc['formulation']} on {doc['data']}"),
                  show_header=False, title_justify="left")
    table.add_column("quantity", style="bold")
    table.add_column("value", overflow="fold")

    def row(name: str, value: object) -> None:
        table.add_row(Text(name), Text(str(value)))

    cls_name = doc.get("formulation_class") or doc["formulation"]
    if cls_name != doc["formulation"]:  # a file: its path, and the name its class declares
        row("formulation", f"{doc['formulation']} (class name {cls_name!r})")
    else:
        row("formulation", doc["formulation"])
    row("algorithm", doc["algorithm"] or "-")
    row("N", doc["N"])
    for name, value in doc["parameters"].items():
        row(symbols.get(name, name), _param_text(value))
    for name, value in doc["algorithm_parameters"].items():
        if name != "stopping":  # the "stopping" row below shows the rule that was applied
            row(f"{name} (algorithm)", _param_text(value))
    row("oracle", oracle)
    row("stopping", doc["stopping"])
    solves = sum(1 for r in doc["history"] if r.get("solved"))
    extra = sum(r.get("extra_columns", 0) for r in doc["history"] if r.get("solved"))
    row("T (hypotheses)", doc["iterations"] if not extra else
        f"{doc['iterations']} (from {solves} master solves, multiple pricing)")
    status = doc["status"]
    if status == "max_iter":
        status = f"max_iter: NOT converged within --max-iter = {max_iter}"
    elif status == "time_limit":
        status = f"time_limit: NOT converged within --time-limit = {doc.get('time_limit')} s"
    elif status == "interrupted":
        status = "interrupted: NOT converged (Ctrl-C)"
    row("status", status)
    row("message", doc["message"])
    row("P (primal, upper bound)", _fmt(doc["primal_objective"]))
    row(f"{theta} (dual, lower bound)", _fmt(doc["dual_objective"]))
    row(f"gap P - {theta}", _fmt(doc["duality_gap"], ".3g"))
    row("soft margin of w", _fmt(doc["soft_margin"]))
    row("P_LP^T (LP over the T hypotheses)", _fmt(doc["lp_value"]))
    row("train error", _fmt(doc["train_error"], ".4f"))
    if doc.get("test_error") is not None:
        row("test error", f"{doc['test_error']:.4f} (N = {doc['test_N']}, {doc['test_data']})")
    row("solver", doc["solver"] or "-")
    paths = doc.get("master_paths") or {}
    row("master path", ", ".join(f"{name} x{count}" for name, count in paths.items()) or "-")
    row("seconds", f"{doc['seconds']:.2f} (master {doc['master_seconds']:.2f}, "
                   f"KKT {doc['kkt_seconds']:.2f}, "
                   f"oracle {doc['oracle_seconds']:.2f})")
    for warning in doc.get("warnings") or []:
        row("warning", f"{warning.get('code', '')}: {warning.get('message', '')}"
            if isinstance(warning, dict) else warning)
    console.print(table)
    if result.status != "converged":
        console.print(f"note: the run stopped ({result.status}) before the stopping rule held; "
                      f"P and {theta} of its last certified master solve still bracket that "
                      "master's optimum.")


# ---------------------------------------------------------------------------------------------
# list
# ---------------------------------------------------------------------------------------------


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if isinstance(exc, DualBoostInputError) else f"{type(exc).__name__}: {text}"


def _param_entry(p: Param) -> dict:
    return {"name": p.name, "kind": p.kind, "default": p.describe_default(),
            "range": p.range_text(), "doc": p.doc}


def _algorithm_entries() -> tuple[list[dict], dict[str, type]]:
    from .algorithms import algorithm_class, available_algorithms

    try:
        names = available_algorithms()
    except Exception as exc:  # an algorithm module being edited must not break the listing
        return [{"name": "?", "error": _one_line(exc)}], {}
    entries, classes = [], {}
    for name in names:
        try:
            cls = algorithm_class(name)
            entries.append({"name": name, "summary": cls.summary, "reference": cls.reference,
                            "params": [_param_entry(p) for p in cls.params]})
            classes[name] = cls
        except Exception as exc:
            entries.append({"name": name, "error": _one_line(exc)})
    return entries, classes


def _formulation_entry(spec: str, algorithms: dict[str, type]) -> dict:
    from .registry import load_formulation

    try:
        cls = load_formulation(spec)
        caps = cls.capabilities
        runs_with = []
        for name, algo in algorithms.items():
            try:  # unsupported() reads the declared capabilities, so the class will do
                if not algo.unsupported(cls):
                    runs_with.append(name)
            except Exception:  # it needed an instance: say nothing rather than guess
                continue
        return {"name": cls.name, "spec": spec, "summary": cls.summary,
                "equations": cls.equations, "default_algorithm": cls.default_algorithm,
                "algorithms": runs_with, "cones": list(caps.cones),
                "strictly_convex": bool(caps.strictly_convex),
                "closed_forms": list(caps.closed_forms),
                "params": [_param_entry(p) for p in cls.params]}
    except Exception as exc:  # one broken file must not hide the others
        return {"name": spec, "spec": spec, "error": _one_line(exc)}


def catalogue(formulations: list[str] | None = None) -> dict:
    """What ``dualboost list --json`` prints: the formulations and algorithms, as plain data.

    A formulation or algorithm that fails to load is an entry with an ``error`` line instead of
    its fields.
    """
    algorithms, classes = _algorithm_entries()
    try:
        specs = formulations or available_formulations()
    except Exception as exc:
        return {"formulations": [{"name": "?", "error": _one_line(exc)}],
                "algorithms": algorithms}
    return {"formulations": [_formulation_entry(spec, classes) for spec in specs],
            "algorithms": algorithms}


def _params_table(params: list[dict]) -> Any:
    from rich import box
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("parameter", no_wrap=True, style="bold")
    table.add_column("default", overflow="fold", max_width=24)
    table.add_column("range", no_wrap=True)
    table.add_column("meaning", overflow="fold", ratio=1)
    for p in params:
        table.add_row(Text(p["name"]), Text(p["default"]), Text(p["range"] or "-"),
                      Text(p["doc"]))
    return Padding(table, (0, 0, 0, 4), expand=False)


def _print_catalogue(doc: dict) -> None:
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    width = shutil.get_terminal_size((100, 24)).columns
    console = Console(file=sys.stdout, highlight=False, width=max(80, min(100, width)))

    def line(text: str | Text, indent: int = 2) -> None:
        text = text if isinstance(text, Text) else Text(text)
        console.print(Padding(text, (0, 0, 0, indent), expand=False))

    def head(name: str, summary: str) -> None:
        text = Text(name, style="bold")
        text.append(f"  {summary}")
        line(text, indent=2)

    available = {a["name"] for a in doc["algorithms"] if "error" not in a}

    console.print(Text("Formulations (dualboost fit --formulation NAME|PATH)", style="bold"))
    for f in doc["formulations"]:
        console.print()
        if "error" in f:
            line(f"{f['name']}: failed to load: {f['error']}", indent=2)
            continue
        head(f["name"], f["summary"])
        if f["equations"]:
            line(f"equations: {f['equations']}", indent=4)
        others = [a for a in f["algorithms"] if a != f["default_algorithm"]]
        algorithms = f["default_algorithm"]
        if algorithms not in available:
            algorithms += " (not registered here)"
        if others:
            algorithms += f" (also runs with: {', '.join(others)})"
        line(f"default algorithm: {algorithms}", indent=4)
        line(f"cones: {', '.join(f['cones'])}; "
             f"{'strictly convex' if f['strictly_convex'] else 'not strictly convex'}"
             + (f"; closed forms: {', '.join(f['closed_forms'])}" if f["closed_forms"] else ""),
             indent=4)
        if f["params"]:
            console.print(_params_table(f["params"]))
        else:
            line("parameters: none", indent=4)
    console.print()
    console.print(Text("Algorithms (dualboost fit --algorithm NAME)", style="bold"))
    for a in doc["algorithms"]:
        console.print()
        if "error" in a:
            line(f"{a['name']}: failed to load: {a['error']}", indent=2)
            continue
        head(a["name"], a["summary"])
        if a["reference"]:
            line(f"reference: {a['reference']}", indent=4)
        if a["params"]:
            console.print(_params_table(a["params"]))
        else:
            line("parameters: none", indent=4)


def _list(args: argparse.Namespace) -> int:
    doc = catalogue(args.formulations or None)
    if args.json:
        print(json.dumps(to_jsonable(doc), indent=2, allow_nan=False))
    else:
        _print_catalogue(doc)
    return EXIT_OK


# ---------------------------------------------------------------------------------------------
# fit
# ---------------------------------------------------------------------------------------------


def _load_hypotheses(path: str, n_examples: int) -> np.ndarray:
    """The N x J matrix of a .npy file (never unpickled), finite and in [-1, 1]."""
    p = Path(path)
    if not p.exists():
        raise _CLIError(f"no such hypotheses file: {path!r}")
    if not p.is_file():
        raise _CLIError(f"hypotheses path is not a regular file: {path!r}")
    try:
        with open(p, "rb") as fh:
            head = fh.read(6)
    except OSError as exc:
        raise _CLIError(f"cannot read --hypotheses {path!r}: {exc.strerror or exc}") from None
    # np.load reports any non-.npy file as "pickled data"; say what is really wrong instead.
    if head != b"\x93NUMPY" and not head.startswith(b"PK"):
        raise _CLIError(f"--hypotheses {path!r} is not a .npy file (no NumPy header); "
                        "save the N x J matrix with numpy.save")
    try:
        loaded = np.load(p, allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc):
            raise _CLIError(f"--hypotheses {path!r} holds Python objects (dtype=object), which "
                            "are never unpickled; save a numeric N x J array") from None
        raise _CLIError(f"cannot read --hypotheses {path!r} as a .npy array: "
                        f"{' '.join(str(exc).split())}") from None
    except (OSError, EOFError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise _CLIError(f"cannot read --hypotheses {path!r} as a .npy array: {msg}") from None
    if not isinstance(loaded, np.ndarray):  # an .npz archive holds several arrays
        close = getattr(loaded, "close", None)
        if callable(close):
            close()
        raise _CLIError(f"--hypotheses {path!r} is an .npz archive; save a single N x J "
                        "array with numpy.save")
    if loaded.ndim != 2:
        raise _CLIError(f"--hypotheses {path!r} must be a 2-D N x J array, got shape "
                        f"{loaded.shape}")
    if loaded.shape[0] != n_examples:
        raise _CLIError(f"--hypotheses {path!r} has {loaded.shape[0]} rows but the data set has "
                        f"N = {n_examples} examples (one row per example is needed)")
    # The oracle's own validator, called here so that its message can name the file.
    try:
        return as_hypothesis_matrix(loaded)
    except DualBoostInputError as exc:
        raise _CLIError(f"--hypotheses {path!r}: {exc}") from None


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
            raise _CLIError(f"--param {name}: no such .npy file: {value!r}")
        try:
            return np.asarray(np.load(path, allow_pickle=False), dtype=float)
        except (ValueError, TypeError, OSError, EOFError) as exc:
            raise _CLIError(f"--param {name}: cannot read {value!r} as a numeric .npy array: "
                            f"{_one_line(exc)}") from None
    try:
        return np.array([float(item) for item in value.split(",")])
    except ValueError:
        raise _CLIError(f"--param {name} is a vector: give comma-separated numbers or a .npy "
                        f"file, got {value!r}") from None


def _fit_params(args: argparse.Namespace, formulation_cls: type,
                algorithm_cls: type) -> dict[str, Any]:
    """The ``--param`` values, checked against the declarations together with the shortcuts.

    Fails before the data are loaded: a name that neither the formulation nor the algorithm
    declares (``--eta`` with lpboost), or one given twice, is exit 2 with the declared names.
    """
    from .api import route_params

    given: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for text in args.param:
        name, value = parse_param_text(text)
        if name in given:
            raise _CLIError(f"--param {name} is given twice")
        given[name], labels[name] = value, f"--param {name}"
    shortcuts = {"nu": ("--nu" if args.nu is not None else "--nu-frac",
                        args.nu if args.nu is not None else args.nu_frac),
                 "eps": ("--eps", args.eps), "eta": ("--eta", args.eta),
                 "stopping": ("--stopping", args.stopping)}
    names = dict(given)
    for name, (option, value) in shortcuts.items():
        if value is None:
            continue
        if name in given:
            raise _CLIError(f"{option} and --param {name} both set {name}; give one of them")
        names[name], labels[name] = value, option
    route_params(formulation_cls, algorithm_cls, names, labels=labels)
    schema = {p.name: p for p in (*formulation_cls.params, *algorithm_cls.params)}
    for name, value in given.items():
        if schema[name].kind == "vector":
            given[name] = _vector_param(name, value)
    return given


def _default_nu(args: argparse.Namespace, params: dict, formulation_cls: type,
                algorithm_cls: type, N: int) -> float | None:
    """nu = max(1, DEFAULT_NU_FRAC N) when nu is declared and none was given, else None."""
    declared = {p.name for p in (*formulation_cls.params, *algorithm_cls.params)}
    if "nu" not in declared or args.nu is not None or args.nu_frac is not None or "nu" in params:
        return None
    return max(1.0, DEFAULT_NU_FRAC * N)


def _fit(args: argparse.Namespace) -> int:
    from .algorithms import algorithm_class
    from .api import run
    from .data import load_dataset
    from .model_io import encode_against, load_model, load_prediction_data, model_document
    from .registry import load_formulation

    for target, option, plot in ((args.json, "--json", False), (args.plot, "--plot", True)):
        if target is not None:
            _check_output_target(target, option, plot=plot)
    if args.json is not None and args.plot is not None and \
            Path(args.json).resolve() == Path(args.plot).resolve():
        raise _CLIError("--json and --plot name the same file")
    formulation_cls = load_formulation(args.formulation)
    algorithm_cls = algorithm_class(args.algorithm or formulation_cls.default_algorithm)
    params = _fit_params(args, formulation_cls, algorithm_cls)
    dataset = load_dataset(args.data, label=args.label, n_features=args.n_features)

    hypotheses = None
    oracle = args.oracle or "stumps"
    if args.hypotheses is not None:
        hypotheses = _load_hypotheses(args.hypotheses, dataset.N)
        oracle = "finite"
    elif dataset.hypotheses is not None:
        if args.oracle is not None:
            raise _CLIError(f"data set {dataset.name!r} is defined by its own hypothesis matrix; "
                            f"--oracle {args.oracle} does not apply to it")
        hypotheses = dataset.hypotheses
        oracle = "finite"
    n_features = None if oracle == "finite" else int(dataset.X.shape[1])

    test = None
    if args.test is not None:  # loaded before the fit: a bad test file is exit 2 up front
        if oracle == "finite":
            raise _CLIError("--test needs a model that predicts on new features; the finite "
                            "oracle's hypotheses are columns of a matrix on the training "
                            "examples only")
        test = load_prediction_data(args.test, n_features=n_features, label=args.label,
                                    require_labels=True)
        test_y = encode_against(test.labels, list(dataset.classes))

    nu = args.nu
    default_nu = _default_nu(args, params, formulation_cls, algorithm_cls, dataset.N)
    if default_nu is not None:
        nu = default_nu
    user_file = _formulation_file(args.formulation)
    rule = args.stopping or params.get("stopping") or "practical"
    progress = _Progress(stopping=str(rule), max_iter=args.max_iter, enabled=not args.quiet)
    try:
        with progress:
            result = run(
                dataset.X, dataset.y,
                formulation=formulation_cls,
                algorithm=algorithm_cls.name,
                params=params,
                nu=nu, nu_frac=args.nu_frac,
                eps=args.eps, eta=args.eta,
                stopping=args.stopping,
                oracle=args.oracle or "stumps",  # ignored by run() when hypotheses is given
                hypotheses=hypotheses,
                max_iter=args.max_iter,
                solver=args.solver,
                master=args.master,
                progress=progress,
                time_limit=args.time_limit,
            )
    except DualityViolation as exc:
        where = f" (formulation file {args.formulation})" if user_file is not None else ""
        raise _CLIError(f"certificate failed{where}: {exc}", EXIT_FAILURE) from exc
    except (DualBoostInputError, SolverFailure, KeyboardInterrupt):
        raise
    except Exception as exc:
        # A user's formulation file passes the registry's static checks but may still fail
        # when the engine calls it; that is bad input (exit 2), not a dualboost bug.
        where = _error_in_file(exc, user_file) if user_file is not None else None
        if where is None:
            raise
        raise _CLIError(f"formulation {args.formulation!r} failed ({where}): "
                        f"{type(exc).__name__}: {exc}") from exc
    # The engine raises DualityViolation at the failing solve; this guards the reported pair.
    scale = 1.0 + abs(result.primal_objective) + abs(result.dual_objective)
    if not (math.isfinite(result.primal_objective) and math.isfinite(result.dual_objective)) \
            or result.dual_objective > result.primal_objective + 1e-9 * scale:
        raise _CLIError(f"certificate failed: formulation {result.formulation!r} reports Theta "
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
        "hypotheses_file": args.hypotheses,
        "max_iter": args.max_iter,
        "time_limit": args.time_limit,
        "test_data": args.test,
    }
    doc = model_document(result, dataset.classes, y=dataset.y, n_features=n_features,
                         data=args.data, extra=extra)
    if test is not None:
        model = load_model(doc)  # predicts exactly as 'dualboost predict' will
        scores = model.decision_function(test.X)
        wrong = encode_against(model.predict_scores(scores), model.classes) != test_y
        doc["test_error"] = float(np.mean(wrong))
        doc["test_N"] = int(test_y.size)
    if args.json is not None:
        _write_json(args.json, doc)
    if args.plot is not None:
        from .plots import plot_run

        _write_atomically(args.plot, "--plot", lambda tmp: plot_run(
            result, tmp, title=f"{doc['formulation']} on {args.data}"))
    _print_summary(result, doc, oracle=oracle, max_iter=args.max_iter)
    for warning in doc.get("warnings") or []:  # also rows of the summary; one line each here
        if isinstance(warning, dict):
            text = f"{warning.get('code', '')}: {warning.get('message', '')}"
        else:
            text = str(warning)
        print(f"{PROG}: warning: {' '.join(text.split())}", file=sys.stderr, flush=True)
    if result.status != "converged":
        wrote = f"; the report is in {args.json}" if args.json is not None else ""
        print(f"{PROG}: not converged ({result.status}): {' '.join(result.message.split())}"
              f"{wrote}", file=sys.stderr, flush=True)
        return EXIT_NOT_CONVERGED
    return EXIT_OK


def _label_text(value: Any) -> str:
    """An original label for a CSV cell: integral floats without '.0' (a CSV label '1' was
    read as 1.0)."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value.item() if isinstance(value, np.generic) else value)


def _predict(args: argparse.Namespace) -> int:
    from .model_io import encode_against, load_model, load_prediction_data

    if args.out is not None:
        _check_output_target(args.out, "--out")
        if Path(args.out).resolve() == Path(args.model).resolve():
            raise _CLIError("--out would overwrite --model")
    model = load_model(args.model)
    width = model.n_features
    if args.n_features is not None:
        if width is not None and args.n_features != width:
            raise _CLIError(f"--n-features {args.n_features} differs from the model's "
                            f"n_features = {width}")
        width = args.n_features
    data = load_prediction_data(args.data, n_features=width, label=args.label)
    scores = model.decision_function(data.X)
    predictions = model.predict_scores(scores)
    lines = ["prediction,score"] + [f"{_label_text(p)},{float(v)!r}"
                                    for p, v in zip(predictions, scores)]
    text = "\n".join(lines) + "\n"
    if args.out is not None:
        _write_atomically(args.out, "--out",
                          lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    else:
        sys.stdout.write(text)
    if data.labels is not None:
        truth = encode_against(data.labels, model.classes)
        correct = int(np.sum(encode_against(predictions, model.classes) == truth))
        n = truth.size
        print(f"accuracy {correct / n:.4f} ({correct} of {n} correct, error "
              f"{1 - correct / n:.4f}) on {data.name}",
              file=sys.stdout if args.out is not None else sys.stderr, flush=True)
    return EXIT_OK


def _verify(argv: list[str]) -> int:
    # Imported only here: the verifier is optional for `fit` and may pull in heavier modules.
    try:
        from . import verify
    except ImportError as exc:
        raise _CLIError(f"the verify command is not available: {exc}", EXIT_FAILURE) from None
    entry = getattr(verify, "main", None)
    if not callable(entry):
        raise _CLIError("the verify command is not available: dualboost.verify has no main()",
                        EXIT_FAILURE)
    code = entry(argv)
    return EXIT_OK if code is None else int(code)


def _run_guarded(command: Any, *args: Any) -> int:
    """Run a command; turn every expected failure into one stderr line and an exit status."""
    try:
        return command(*args)
    except SystemExit as exc:  # e.g. argparse inside `verify`
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except _CLIError as exc:
        _print_error(exc)
        return exc.code
    except DualBoostInputError as exc:
        _print_error(exc)
        return EXIT_USAGE
    except (SolverFailure, DualityViolation) as exc:
        _print_error(exc)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        _print_error("interrupted")
        return EXIT_INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dualboost`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # `verify` owns its options, so its arguments are passed through without parsing here.
    if argv and argv[0] == "verify":
        return _run_guarded(_verify, argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    if args.command == "fit":
        return _run_guarded(_fit, args)
    if args.command == "list":
        return _run_guarded(_list, args)
    if args.command == "predict":
        return _run_guarded(_predict, args)
    return EXIT_USAGE  # unreachable: argparse accepts only the commands above
