"""Command-line interface: ``dualboost fit`` (one boosting run) and ``dualboost verify``.

``dualboost fit --data D [options]`` loads a data set with :func:`dualboost.data.load_dataset`,
runs :func:`dualboost.api.run` (the same wiring as the estimator and the verifier), shows a
progress line on stderr, prints a summary table on stdout and optionally writes the whole run as
strict JSON (``--json OUT``; the keys are documented in ``docs/json_schema.md``).

Exit status: 0 on success (also when the run stopped at ``--max-iter``; the summary says so),
2 on bad input (one line on stderr starting ``dualboost: error:``), 1 when no solver produced an
accepted solution, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from . import __version__
from .errors import DualBoostInputError, SolverFailure
from .oracles.finite import as_hypothesis_matrix
from .registry import available_formulations
from .result import BoostResult, IterationRecord

__all__ = ["build_parser", "main", "result_to_json", "to_jsonable", "train_error"]

PROG = "dualboost"
ERROR_PREFIX = f"{PROG}: error: "
EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

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


def build_parser() -> argparse.ArgumentParser:
    """The ``dualboost`` argument parser with its ``fit`` and ``verify`` subcommands."""
    parser = _Parser(
        prog=PROG,
        description="Boosting as convex optimization: LPBoost and ERLPBoost as paired "
                    "primal/dual models solved by column generation.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

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
                      help="label column of a CSV file (default: the last column)")

    model = fit.add_argument_group("model")
    registered = ", ".join(available_formulations())
    model.add_argument("--formulation", default="erlpboost", metavar="NAME|PATH",
                       help=f"a registered formulation ({registered}) or the path of a .py "
                            "file defining one (default: erlpboost)")
    nu = model.add_mutually_exclusive_group()
    nu.add_argument("--nu", type=float, default=None, metavar="COUNT",
                    help="soft-margin parameter nu as a count in [1, N] (default 1: hard margin)")
    nu.add_argument("--nu-frac", type=float, default=None, metavar="FRAC",
                    help="nu as a fraction of N, in (0, 1]: nu = FRAC * N")
    model.add_argument("--eps", type=float, default=0.01,
                       help="target accuracy epsilon > 0 (default 0.01)")
    model.add_argument("--eta", type=float, default=None,
                       help="regularization parameter eta > 0 (default: the theory's value, "
                            "max((2/eps) ln(N/nu), 1/2) for ERLPBoost)")

    weak = fit.add_argument_group("weak learner").add_mutually_exclusive_group()
    weak.add_argument("--oracle", choices=("stumps", "raw"), default=None,
                      help="hypothesis class searched by the exact oracle (default: stumps; "
                           "built-in instances with their own hypotheses use those)")
    weak.add_argument("--hypotheses", metavar="FILE.npy", default=None,
                      help="an N x J matrix of hypothesis predictions in [-1, 1] saved with "
                           "numpy.save; makes the oracle pick the best of these J columns")

    loop = fit.add_argument_group("column generation")
    loop.add_argument("--stopping", choices=("simple", "practical"), default="practical",
                      help="ERLPBoost stopping rule: delta^t (simple, thesis 3.2.1) or "
                           "delta~^t (practical, 3.2.2); LPBoost always uses Alg. 2.1 "
                           "(default: practical)")
    loop.add_argument("--max-iter", type=_positive_int, default=1000, metavar="T",
                      help="at most T master solves (default 1000)")
    loop.add_argument("--solver", default=None, metavar="NAME",
                      help="force one conic solver (e.g. CLARABEL, ECOS, SCS, HIGHS); "
                           "default: the policy of dualboost.solvers")

    out = fit.add_argument_group("output")
    out.add_argument("--json", metavar="OUT", default=None,
                     help="write the run as JSON to OUT (keys: docs/json_schema.md)")
    out.add_argument("--plot", metavar="FILE.png", default=None,
                     help="save a convergence plot (primal/dual bracket and the stopping "
                          "quantity per iteration); the format follows the extension")
    out.add_argument("--quiet", action="store_true", help="no progress line")

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
        return (f"t={rec.t:<5d} P={_fmt(primal, '.6f')}  {theta}={_fmt(rec.dual, '.6f')}  "
                f"{delta}={_fmt(value, '.3g')}  {elapsed:7.1f}s")

    def __rich__(self) -> Any:
        from rich.text import Text

        return Text(self.line())

    def __call__(self, record: IterationRecord) -> None:
        self.last = record
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
    if isinstance(obj, np.ndarray):
        return [to_jsonable(v) for v in obj.tolist()]
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
        "N": params.get("N"),
        "nu": params.get("nu"),
        "eps": params.get("eps"),
        "eta": params.get("eta"),
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
        "seconds": result.seconds,
        "master_seconds": result.master_seconds,
        "kkt_seconds": result.kkt_seconds,
        "oracle_seconds": result.oracle_seconds,
        "weights": result.weights,
        "hypotheses": [_describe(h) for h in result.hypotheses],
        "history": [record.to_dict() for record in result.history],
    }
    if extra:
        doc.update(extra)
    return to_jsonable(doc)


def _write_json(path: str, doc: dict) -> None:
    text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
    target = Path(path)
    # Write next to the target and rename, so a crash never leaves half a JSON file behind.
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _CLIError(f"cannot write --json {path!r}: {exc.strerror or exc}") from None


def _check_output_target(path: str, option: str) -> None:
    """Fail before a long run, not after it, when an output file cannot be written."""
    target = Path(path)
    if target.is_dir():
        raise _CLIError(f"{option} {path!r} is a directory; give a file name")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise _CLIError(f"{option} {path!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise _CLIError(f"{option} {path!r}: directory {str(parent)!r} is not writable")


def _print_summary(result: BoostResult, doc: dict, *, oracle: str, max_iter: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    greek = _can_encode(sys.stdout, "νεηΘ")
    nu, eps, eta, theta = ("ν", "ε", "η", "Θ") if greek else ("nu", "eps", "eta", "Theta")

    table = Table(title=f"dualboost fit: {doc['formulation']} on {doc['data']}",
                  show_header=False, title_justify="left")
    table.add_column("quantity", style="bold")
    table.add_column("value", overflow="fold")

    def row(name: str, value: object) -> None:
        table.add_row(name, str(value))

    row("formulation", doc["formulation"])
    row("N", doc["N"])
    row(nu, _fmt(doc["nu"]))
    row(eps, _fmt(doc["eps"]))
    row(eta, "none (no regularizer)" if doc["eta"] is None else _fmt(doc["eta"]))
    row("oracle", oracle)
    row("stopping", doc["stopping"])
    row("T (iterations)", doc["iterations"])
    status = doc["status"]
    if status == "max_iter":
        status = f"max_iter: NOT converged within --max-iter = {max_iter}"
    row("status", status)
    row("message", doc["message"])
    row("P (primal, upper bound)", _fmt(doc["primal_objective"]))
    row(f"{theta} (dual, lower bound)", _fmt(doc["dual_objective"]))
    row(f"gap P - {theta}", _fmt(doc["duality_gap"], ".3g"))
    row("soft margin of w", _fmt(doc["soft_margin"]))
    row("P_LP^T (LP over the T hypotheses)", _fmt(doc["lp_value"]))
    row("train error", _fmt(doc["train_error"], ".4f"))
    row("solver", doc["solver"] or "-")
    row("seconds", f"{doc['seconds']:.2f} (master {doc['master_seconds']:.2f}, "
                   f"KKT {doc['kkt_seconds']:.2f}, "
                   f"oracle {doc['oracle_seconds']:.2f})")
    console.print(table)
    if result.status == "max_iter":
        console.print(f"note: the run stopped at --max-iter = {max_iter} before the stopping "
                      "rule held; P and " + theta + " still bracket the master optimum.")


# ---------------------------------------------------------------------------------------------
# commands
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


def _fit(args: argparse.Namespace) -> int:
    from .api import run
    from .data import load_dataset

    for target, option in ((args.json, "--json"), (args.plot, "--plot")):
        if target is not None:
            _check_output_target(target, option)
    dataset = load_dataset(args.data, label=args.label)

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

    user_file = _formulation_file(args.formulation)
    progress = _Progress(stopping=args.stopping, max_iter=args.max_iter, enabled=not args.quiet)
    try:
        with progress:
            result = run(
                dataset.X, dataset.y,
                formulation=args.formulation,
                nu=args.nu, nu_frac=args.nu_frac,
                eps=args.eps, eta=args.eta,
                oracle=args.oracle or "stumps",  # ignored by run() when hypotheses is given
                hypotheses=hypotheses,
                stopping=args.stopping,
                max_iter=args.max_iter,
                solver=args.solver,
                progress=progress,
            )
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

    extra = {
        "formulation_spec": args.formulation,
        "label": args.label,
        "oracle": oracle,
        "hypotheses_file": args.hypotheses,
        "max_iter": args.max_iter,
        "classes": dataset.classes,
    }
    doc = result_to_json(result, data=args.data, extra=extra)
    if args.json is not None:
        _write_json(args.json, doc)
    if args.plot is not None:
        from .plots import plot_history

        plot_history(result, args.plot, title=f"{result.formulation} on {args.data}")
    _print_summary(result, doc, oracle=oracle, max_iter=args.max_iter)
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
    except SolverFailure as exc:
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
    return EXIT_USAGE  # unreachable: argparse accepts only the commands above
