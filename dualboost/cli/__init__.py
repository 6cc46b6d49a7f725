"""Command-line interface: ``dualboost list``, ``fit``, ``predict`` and ``verify``.

One module per command (:mod:`~dualboost.cli.list_cmd`, :mod:`~dualboost.cli.fit`,
:mod:`~dualboost.cli.predict`, :mod:`~dualboost.cli.verify_cmd`) over the shared
:mod:`~dualboost.cli.common` (exit statuses, one-line messages, argument types) and
:mod:`~dualboost.cli.files` (the rules for every file read or written: outputs writable, no
output an input, atomic writes). The JSON of a run is :mod:`dualboost.model_io`'s.

``dualboost list`` prints every registered formulation and algorithm with its declared
parameters; ``dualboost fit --data D [options]`` runs one fit, prints a summary and optionally
writes the run as JSON (the model) and a figure; ``dualboost predict --model run.json --data
new.csv`` applies a saved model; ``dualboost verify`` runs the verifier.

Exit status: 0 only when the run converged (its stopping rule held: ``result.success``, a
``converged*`` status) and its final certificate holds; 3 when it did not converge
(``max_iter``, ``time_limit`` or ``interrupted``: the JSON and the plot are still written, one
line on stderr says so); 2 on bad input, found before any work
starts (one line on stderr starting ``dualboost: error:``; this includes a parameter that the
formulation and the algorithm do not declare, a pairing the algorithm cannot run, an output
file that cannot be written and an output that is one of the inputs); 1 when no solver produced
an accepted solution or when a certificate failed (weak duality Theta <= P violated at a
feasible pair: the formulation's primal and dual are not a pair); 130 on Ctrl-C at any other
moment (start-up and imports included): one line, no traceback.

This module imports only the standard library at load time, so that Ctrl-C during the heavy
imports (numpy, cvxpy, scikit-learn) already lands in :func:`main`'s handler.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from .common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    PROG,
    CLIError,
    Parser,
    print_error,
)

__all__ = ["DEFAULT_NU_FRAC", "build_parser", "catalogue", "main", "plot_formats",
           "result_to_json", "to_jsonable", "train_error"]

# names kept importable from dualboost.cli, loaded on first use (PEP 562)
_LAZY = {
    "DEFAULT_NU_FRAC": "dualboost.params",
    "catalogue": "dualboost.cli.list_cmd",
    "plot_formats": "dualboost.cli.files",
    "result_to_json": "dualboost.model_io",
    "to_jsonable": "dualboost.model_io",
    "train_error": "dualboost.model_io",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dualboost.cli' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def build_parser() -> Parser:
    """The ``dualboost`` parser with its ``list``, ``fit``, ``predict`` and ``verify`` commands."""
    from .. import __version__
    from . import fit, list_cmd, predict, reproduce_cmd, verify_cmd

    parser = Parser(
        prog=PROG,
        description="Boosting as convex optimization: LPBoost, ERLPBoost and their relatives as "
                    "paired primal/dual models solved by column generation.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    list_cmd.add_parser(sub)
    fit.add_parser(sub)
    predict.add_parser(sub)
    verify_cmd.add_parser(sub)
    reproduce_cmd.add_parser(sub)
    return parser


def _run_guarded(command: Any, *args: Any) -> int:
    """Run a command; turn every expected failure into one stderr line and an exit status."""
    from ..errors import DualBoostInputError, DualityViolation, SolverFailure

    try:
        return command(*args)
    except SystemExit as exc:  # e.g. argparse inside `verify`
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except CLIError as exc:
        print_error(exc)
        return exc.code
    except DualBoostInputError as exc:
        print_error(exc)
        return EXIT_USAGE
    except (SolverFailure, DualityViolation) as exc:
        print_error(exc)
        return EXIT_FAILURE


def _dispatch(argv: list[str]) -> int:
    # `verify` owns its options, so its arguments are passed through without parsing here.
    if argv and argv[0] == "verify":
        from . import verify_cmd

        return _run_guarded(verify_cmd.run, argv[1:])
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    if args.command == "fit":
        from .fit import run
    elif args.command == "list":
        from .list_cmd import run
    elif args.command == "predict":
        from .predict import run
    elif args.command == "reproduce":
        from .reproduce_cmd import run
    else:  # unreachable: argparse accepts only the commands above
        return EXIT_USAGE
    return _run_guarded(run, args)


def _interrupted() -> int:
    """One line for Ctrl-C, with further Ctrl-C ignored while it is printed."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to hold off
        previous = None
    try:
        print(f"{PROG}: interrupted (Ctrl-C)", file=sys.stderr, flush=True)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return EXIT_INTERRUPTED


def _early_interrupt(signum: int, frame: Any) -> None:
    """Ctrl-C between the import of this module and :func:`main` in the console script (its
    wrapper runs ``from dualboost.cli import main; sys.exit(main())``): one line, 130."""
    print(f"{PROG}: interrupted (Ctrl-C)", file=sys.stderr, flush=True)
    raise SystemExit(EXIT_INTERRUPTED)


# Only in the ``dualboost`` console script: a library user importing dualboost.cli keeps
# Python's own Ctrl-C handling. main() puts Python's handler back (the fit turns Ctrl-C into
# a kept bracket, which needs the KeyboardInterrupt).
if os.path.basename(sys.argv[0] if sys.argv else "") in ("dualboost", "dualboost.exe"):
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _early_interrupt)
    except (ValueError, AttributeError):  # not the main thread, no SIGINT
        pass


#: numpy's lazily loaded submodules deferred further in the command's own process
_DEFERRED_NUMPY = ("numpy.f2py", "numpy.testing", "numpy.polynomial")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dualboost`` command; returns the exit status.

    Ctrl-C at any moment (while the libraries are imported, the data read, the run under way
    before its first certified solve, or an output written) ends with one line and status 130;
    a run with a certified solve ends with status 3 and its report instead (see ``fit``).
    """
    try:
        try:
            if signal.getsignal(signal.SIGINT) is _early_interrupt:
                signal.signal(signal.SIGINT, signal.default_int_handler)
        except ValueError:  # not the main thread
            pass
        # the command's own process: cvxpy loads on first use (dualboost/_lazy.py); a library
        # user's `import dualboost` leaves sys.modules alone
        from .._lazy import install as defer

        defer()
        # numpy submodules that scipy's array-API layer touches on import (it copies every
        # attribute of numpy) and a fit never uses: about 80 ms of start-up
        for name in _DEFERRED_NUMPY:
            defer(name)
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        return _interrupted()
