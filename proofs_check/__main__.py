"""``python -m proofs_check``: run all checks, print a table, exit 1 if any fails."""

from __future__ import annotations

import sys

from . import run_all


def main() -> int:
    """Print the results table; return 0 if every check passed, else 1."""
    timings: dict[str, float] = {}
    results = run_all(timings)
    n_fail = sum(not r.passed for r in results)
    try:
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is a dependency, plain text fallback
        for r in results:
            status = "PASS" if r.passed else "FAIL"
            print(f"{status}  {r.name:40s} {r.reference:45s} {r.detail}")
    else:
        table = Table(title="dualboost proofs_check (Glocer 2009; seed 001 for sss_*)",
                      show_lines=True)
        table.add_column("", no_wrap=True)
        table.add_column("check", style="bold")
        table.add_column("thesis reference")
        table.add_column("detail")
        table.add_column("s", justify="right")
        for r in results:
            status = "[green]PASS[/green]" if r.passed else "[red]FAIL[/red]"
            table.add_row(status, escape(r.name), escape(r.reference), escape(r.detail),
                          f"{timings.get(r.name, 0):.1f}")
        Console(width=max(160, Console().width)).print(table)
    print(f"{len(results) - n_fail}/{len(results)} checks passed")
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
