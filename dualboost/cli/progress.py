"""The fit's progress line on stderr: a live status line on a terminal, else a plain line every
``PLAIN_EVERY`` iterations."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from ..result import IterationRecord
from .common import can_encode, fmt, print_warning

# A plain progress line every PLAIN_EVERY iterations keeps CI logs short but alive; past
# PLAIN_ALL iterations at most one line per PLAIN_SECONDS (a corrective algorithm makes 1e5
# iterations of a millisecond: 1e4 lines otherwise).
PLAIN_EVERY = 10
PLAIN_ALL = 100
PLAIN_SECONDS = 1.0


class Progress:
    """The engine's ``progress`` callback: a live status line on a terminal, else plain lines.

    On a terminal the line is a rich ``Live`` display that re-renders itself (so the elapsed time
    keeps ticking during a long master solve); elsewhere (CI, pipes, pytest) it prints one plain
    line every ``PLAIN_EVERY`` iterations so that logs stay readable.
    """

    def __init__(self, *, stopping: str, max_iter: int | None, enabled: bool = True):
        self.stopping = stopping
        self.max_iter = max_iter
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last: IterationRecord | None = None
        self.last_time: float | None = None  # when the last record arrived
        self.last_plain = -float("inf")  # when the last plain line was printed
        self.hypotheses = 0  # so far: one per solved step plus its extra columns
        self.live = None
        stream = sys.stderr
        self.interactive = (enabled and hasattr(stream, "isatty") and stream.isatty()
                            and os.environ.get("TERM") != "dumb")
        self.greek = can_encode(stream, "ΘδP")

    def __enter__(self) -> Progress:
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
            most = ("the algorithm's default" if self.max_iter is None
                    else str(self.max_iter))
            return f"starting (max {most} iterations)  {elapsed:7.1f}s"
        value = rec.delta_simple if self.stopping == "simple" else rec.delta_practical
        # The last ERLPBoost record is never solved (h^t is discarded): show P^t(d^{t-1}).
        primal = rec.primal if rec.solved else rec.primal_before
        # LPBoost's multiple pricing adds several hypotheses per master solve t
        count = f"T={self.hypotheses:<5d} " if self.hypotheses > rec.t else ""
        text = (f"t={rec.t:<5d} {count}P={fmt(primal, '.6f')}  {theta}={fmt(rec.dual, '.6f')}  "
                f"{delta}={fmt(value, '.3g')}  {elapsed:7.1f}s")
        if rec.solved:
            # which master ran and how long its solve took, so a slow solver is visible
            where = "/".join(x for x in (rec.path, rec.solver) if x) or "master"
            text += f"  [{where} {rec.master_seconds:.2f}s]"
        if self.interactive and self.last_time is not None:
            text += f"  step t={rec.t + 1}: {time.perf_counter() - self.last_time:.0f}s"
        return text

    def pulse(self, info: Any) -> None:
        """From inside a long master solve (:class:`dualboost.run_control.SolveProgress`, every
        ~2 s): a plain line, so a log shows the run is alive; a terminal's live line already
        ticks."""
        if self.enabled and not self.interactive:
            print(info.line(), file=sys.stderr, flush=True)

    def __rich__(self) -> Any:
        from rich.text import Text

        return Text(self.line())

    def __call__(self, record: IterationRecord) -> None:
        self.last = record
        self.last_time = time.perf_counter()
        if record.notice:
            # a note like a warning: shown as it comes, with or without the progress line
            if self.live is not None:
                self.live.console.print(f"note: {record.notice}", highlight=False)
            else:
                print_warning(record.notice)
        if record.solved:
            self.hypotheses += 1 + record.extra_columns
        if not self.enabled or self.interactive:
            return
        if record.t == 1 or record.t % PLAIN_EVERY == 0:
            now = time.perf_counter()
            if record.t > PLAIN_ALL and now - self.last_plain < PLAIN_SECONDS:
                return
            self.last_plain = now
            print(self.line(), file=sys.stderr, flush=True)
