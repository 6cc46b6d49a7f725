"""Every file a command reads or writes: checked once before any work starts, then written
atomically.

The rules, the same for every command (``dualboost fit``, ``predict``, ``reproduce`` and the
verifier, ``python -m dualboost.verify``):

* an output (``--json``, ``--plot``, ``--out``) must be writable: not a directory, in an
  existing writable directory, a plot with an extension the plotting backend writes;
* no output may be an input (``--data``, ``--test``, ``--formulation`` file, ``--model``,
  ``--hypotheses``, a ``.npy`` parameter): the same path after resolving symlinks and ``..``, or
  the same file under another name (a hard link); two outputs may not be one file either.

A violation is :class:`~dualboost.errors.OutputError` (exit 2 with one line) before anything is
loaded or written. Outputs are written atomically (a temporary file next to the target, renamed
over it), so a failed or interrupted write leaves no half-written file. This module lies below
the command line, the experiments' reports and the verifier, which all use it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
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


#: an output: (option, path, kind) with kind "plot" for a figure (its extension is checked)
Output = tuple[str, str, str]
#: an input: (option, path)
Input = tuple[str, str]


def plot_formats() -> dict[str, str]:
    """Extensions the plotting backend (matplotlib's Agg canvas) can write, with their names."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    return dict(FigureCanvasAgg(Figure()).get_supported_filetypes())


def same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file: equal after resolving symlinks, ``..`` and
    the working directory, or one inode under two names (a hard link)."""
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, ValueError):  # ValueError: a NUL byte in a path
        return False


def check_output_target(path: str, option: str, *, plot: bool = False) -> None:
    """Fail before a long run, not after it, when an output file cannot be written."""
    if not path or "\0" in path:
        raise OutputError(f"{option} needs a file name, got {path!r}")
    target = Path(path)
    if target.is_dir() or path.endswith(os.sep):
        raise OutputError(f"{option} {path!r} is a directory; give a file name")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        raise OutputError(f"{option} {path!r}: directory {str(parent)!r} {what}")
    if not os.access(parent, os.W_OK):
        raise OutputError(f"{option} {path!r}: directory {str(parent)!r} is not writable")
    if target.exists() and not target.is_file():  # a device (/dev/null), a fifo, a socket
        raise OutputError(f"{option} {path!r} exists and is not a regular file; give a file name "
                       "(the file is replaced as a whole)")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"{option} {path!r}: the file exists and is not writable")
    if plot:
        formats = plot_formats()
        ext = target.suffix.lower().lstrip(".")
        if ext not in formats:
            what = f"extension '.{ext}'" if ext else "no extension"
            raise OutputError(f"{option} {path!r} has {what}; the plotting backend writes "
                           f"{', '.join('.' + e for e in sorted(formats))}")


def check_files(inputs: Iterable[Input], outputs: Iterable[Output]) -> None:
    """The rules of the module docstring, for one command's inputs and outputs (None paths are
    options that were not given)."""
    outputs = [(option, path, kind) for option, path, kind in outputs if path is not None]
    for option, path, kind in outputs:
        check_output_target(path, option, plot=kind == "plot")
    check_not_inputs(inputs, outputs)


def check_not_inputs(inputs: Iterable[Input], outputs: Iterable[Output]) -> None:
    """No output is an input, and no two outputs are one file (see the module docstring)."""
    outputs = [(option, path, kind) for option, path, kind in outputs if path is not None]
    inputs = [(option, path) for option, path in inputs if path is not None]
    for option, path, _ in outputs:
        for source, given in inputs:
            if same_file(path, given):
                same = "" if path == given else f" (it resolves to {given!r})"
                raise OutputError(f"{option} {path!r} is the {source} file{same}: writing it would "
                               f"overwrite that input; choose another output file")
    for i, (option, path, _) in enumerate(outputs):
        for other, second, _ in outputs[i + 1:]:
            if same_file(path, second):
                raise OutputError(f"{option} and {other} name the same file {path!r}; give "
                               "each output its own file")


def existing(option: str, spec: str | None) -> list[Input]:
    """``[(option, spec)]`` when ``spec`` names an existing path (a file input), else ``[]``
    (not given, or a built-in data set such as ``breast_cancer``)."""
    if spec is None:
        return []
    try:
        if os.path.exists(spec):
            return [(option, spec)]
        if any(c in spec for c in "*?["):  # a glob of Parquet parts: each part is an input
            import glob

            return [(option, p) for p in sorted(glob.glob(os.path.expanduser(spec)))]
        return []
    except (OSError, ValueError):
        return []
