"""``dualboost verify ...``: the verifier (:mod:`dualboost.verify`), which owns its options.

Its arguments are handed over untouched; the front end only applies the output rules of
:mod:`dualboost.cli.files` first, so that ``--json`` in a missing directory (or naming a
``--formulation`` file) is exit 2 before any check runs.
"""

from __future__ import annotations

from typing import Any

from .common import EXIT_FAILURE, EXIT_OK, CLIError
from .files import check_files, existing


def add_parser(sub: Any) -> None:
    # Only listed so that `dualboost --help` shows it; main() passes its arguments through.
    sub.add_parser("verify", add_help=False,
                   help="check strong duality / KKT of the formulations "
                        "(see 'dualboost verify --help')")


def _check_outputs(verify: Any, argv: list[str]) -> None:
    """The output rules for the verifier's ``--json``, when its parser accepts ``argv`` (a
    usage error or ``--help`` is left to the verifier, which reports it its own way)."""
    build = getattr(verify, "build_parser", None)
    if not callable(build) or any(a == "-h" or a.startswith("--h") for a in argv):
        return  # --help: printed once, by the verifier
    try:
        args = build().parse_args(argv)
    except (Exception, SystemExit):  # noqa: BLE001 - the verifier reports it itself
        return
    inputs = [item for spec in getattr(args, "formulation", None) or []
              for item in existing("--formulation", spec)]
    check_files(inputs, [("--json", getattr(args, "json", None), "json")])


def run(argv: list[str]) -> int:
    # Imported only here: the verifier is optional for `fit` and may pull in heavier modules.
    try:
        from .. import verify
    except ImportError as exc:
        raise CLIError(f"the verify command is not available: {exc}", EXIT_FAILURE) from None
    entry = getattr(verify, "main", None)
    if not callable(entry):
        raise CLIError("the verify command is not available: dualboost.verify has no main()",
                       EXIT_FAILURE)
    _check_outputs(verify, argv)
    code = entry(argv)
    return EXIT_OK if code is None else int(code)
