"""Outputs written atomically: a temporary file next to the target, renamed over it.

A failed or interrupted write leaves no half-written file. Shared by the command line
(:mod:`dualboost.cli.files`, which checks every output before any work starts) and the
experiments' reports (:mod:`dualboost.reproduce`), which lie below it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from .errors import OutputError


def write_atomically(path: str, option: str, write: Callable[[str], object]) -> None:
    """``write(tmp_path)`` next to ``path``, then rename: no half-written file is ever left."""
    target = Path(path)
    tmp = target.with_name(f".{target.stem}.{os.getpid()}.tmp{target.suffix}")
    try:
        write(str(tmp))
        os.replace(tmp, target)
    except OSError as exc:
        raise OutputError(f"cannot write {option} {path!r}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)


def write_json(path: str, doc: dict, option: str = "--json") -> None:
    text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
    write_atomically(path, option, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_text(path: str, text: str, option: str) -> None:
    write_atomically(path, option, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
