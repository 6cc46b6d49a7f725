"""What every ``dualboost`` command shares: exit statuses, one-line errors and warnings, the
argument parser class and the argument types.

Imports only the standard library (and :mod:`dualboost.errors`), so that ``dualboost`` reaches
:func:`dualboost.cli.main`, where Ctrl-C is caught, before any heavy import.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, NoReturn

from ..errors import DualBoostInputError

PROG = "dualboost"
ERROR_PREFIX = f"{PROG}: error: "
EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_NOT_CONVERGED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

#: the longest error line the CLI prints: a safety net behind the library's own rule of quoting
#: at most a short excerpt of a file (dualboost.data.shown), so that no message can echo a
#: 2 GB "line" of a binary file
MAX_LINE = 1000


class CLIError(Exception):
    """A problem found by the CLI itself (not by the library); reported like bad input."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


def one_line(message: object, limit: int = MAX_LINE) -> str:
    """``message`` as one line of at most ``limit`` characters (whitespace collapsed)."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def print_error(message: object) -> None:
    print(ERROR_PREFIX + one_line(message), file=sys.stderr, flush=True)


def print_warning(message: object) -> None:
    print(f"{PROG}: warning: {one_line(message, 4 * MAX_LINE)}", file=sys.stderr, flush=True)


def print_note(message: object) -> None:
    """An informational line on stderr (not an error, not a warning)."""
    print(f"{PROG}: {one_line(message)}", file=sys.stderr, flush=True)


def describe_exception(exc: BaseException) -> str:
    """A library error as its message; anything else with its type name, on one line."""
    text = one_line(exc)
    return text if isinstance(exc, DualBoostInputError) else f"{type(exc).__name__}: {text}"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors, so every usage error looks like every input error."""

    def error(self, message: str) -> NoReturn:
        print_error(message + f"; see '{self.prog} --help'")
        raise SystemExit(EXIT_USAGE)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def index_base(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"expected 0 or 1, got {text!r}")
    return int(text)


def fmt(value: float | None, spec: str = ".6g") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return format(value, spec)


def can_encode(stream: Any, text: str) -> bool:
    """Whether ``stream`` can print ``text``; Greek letters fall back to ASCII names if not."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
