"""The command line's file rules (:mod:`dualboost.outputs`, where they live: the verifier and
the experiments' reports use them too): every file a command reads or writes is checked once
before any work starts, and outputs are written atomically."""

from __future__ import annotations

from ..outputs import (
    Input,
    Output,
    check_files,
    check_not_inputs,
    check_output_target,
    existing,
    plot_formats,
    same_file,
    write_atomically,
    write_json,
    write_text,
)

__all__ = ["Input", "Output", "check_files", "check_not_inputs", "check_output_target",
           "existing", "plot_formats", "same_file", "write_atomically", "write_json",
           "write_text"]
