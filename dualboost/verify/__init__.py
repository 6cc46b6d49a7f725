"""``python -m dualboost.verify``: check strong duality and the theory on built-in instances.

For every registered formulation (or the one given by ``--formulation NAME|PATH``) and every
built-in instance (:mod:`.instances`) it runs the duality checks and a boosting run with its
theory checks (:mod:`.checks`), prints a table, writes JSON with ``--json FILE`` and exits 1 when
any check fails (0 otherwise; "n/a" rows are listed with their reason and never count as passed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from rich.console import Console
from rich.table import Table

from ..engine import boost
from ..errors import DualBoostInputError, SolverFailure
from ..formulation import Formulation
from ..registry import available_formulations, load_formulation
from .checks import Check, duality_checks, run_checks
from .instances import Instance, instance_by_name

__all__ = ["Check", "main", "verify"]


def full_class_optimum(instance: Instance) -> float | None:
    """The LP (2.3) over every hypothesis of the instance's class, solved directly."""
    from formulations.lpboost import LPBoost

    if instance.make_run_oracle is None:
        return None
    try:
        columns, _ = instance.make_run_oracle().all_columns()
    except NotImplementedError:
        return None
    lp = LPBoost(instance.N, nu=instance.run_nu, eps=instance.run_eps)
    return lp.solve_primal(columns, 1e-9)[1].dual_value


def verify(formulations: list[type[Formulation]], instances: list[Instance], tol: float = 1e-6,
           solver: str | None = None, stopping: str = "simple",
           log=None) -> list[Check]:
    """Run every check; ``log(message)`` receives progress lines."""
    checks: list[Check] = []
    optima: dict[str, float | None] = {}
    for instance in instances:
        for cls in formulations:
            for U, nu in instance.duality_cases:
                f = cls(U.shape[0], nu=nu, eps=instance.run_eps)
                if log:
                    log(f"{instance.name}: {cls.name} duality checks (nu = {nu:g})")
                try:
                    checks += duality_checks(f, U, instance.name, tol, solver)
                except SolverFailure as exc:
                    checks.append(Check(instance.name, cls.name, nu, "solve primal and dual",
                                        "-", None, tol, "FAIL", str(exc)))
            if instance.make_run_oracle is None:
                continue
            f = cls(instance.N, nu=instance.run_nu, eps=instance.run_eps)
            if log:
                log(f"{instance.name}: {cls.name} boosting run (nu = {f.nu:g}, eps = {f.eps:g})")
            if instance.name not in optima:
                optima[instance.name] = full_class_optimum(instance)
            try:
                result = boost(f, instance.make_run_oracle(), stopping=stopping, solver=solver,
                               gap_tol=tol / 100)
            except SolverFailure as exc:
                checks.append(Check(instance.name, cls.name, f.nu, "boosting run", "-", None,
                                    tol, "FAIL", str(exc)))
                continue
            checks += run_checks(result, f, instance.name, tol, optima[instance.name], stopping)
            if instance.name.startswith("worst_case") and f.theory == "lp":
                half = instance.N / 2
                checks.append(Check(
                    instance.name, cls.name, f.nu, f"LPBoost needs >= N/2 = {half:g} iterations",
                    "thesis Thm 2.5", float(result.iterations), None,
                    "pass" if result.iterations >= half else "FAIL",
                    f"T = {result.iterations}"))
    return checks


def render(checks: list[Check], console: Console) -> None:
    table = Table(title="dualboost verify", show_lines=False)
    for column in ("instance", "formulation", "nu", "check", "reference", "value", "tol",
                   "status"):
        table.add_column(column, overflow="fold", no_wrap=column not in ("check", "reference"))
    styles = {"pass": "green", "FAIL": "bold red", "n/a": "yellow"}
    for c in checks:
        value = "" if c.value is None else f"{c.value:.3g}"
        tolerance = "" if c.tolerance is None else f"{c.tolerance:.1g}"
        table.add_row(c.instance, c.formulation, f"{c.nu:g}", c.check, c.reference, value,
                      tolerance, f"[{styles[c.status]}]{c.status}[/]")
    console.print(table)
    for c in checks:
        if c.status != "pass" and c.detail:
            console.print(f"[{styles[c.status]}]{c.status}[/] {c.instance} {c.formulation} "
                          f"{c.check}: {c.detail}")
    counts = {s: sum(c.status == s for c in checks) for s in styles}
    console.print(f"{counts['pass']} passed, {counts['FAIL']} failed, "
                  f"{counts['n/a']} not applicable")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dualboost.verify",
        description="Check strong duality, KKT recovery, closed forms and the iteration-bound "
                    "lemmas of every formulation on built-in instances.")
    parser.add_argument("--formulation", action="append", metavar="NAME|PATH",
                        help="a registered name or a .py file (repeatable; default: all of "
                             f"{', '.join(available_formulations())})")
    parser.add_argument("--tol", type=float, default=1e-6,
                        help="tolerance of every numeric comparison (default 1e-6)")
    parser.add_argument("--solver", help="force one solver (e.g. ECOS, CLARABEL, HIGHS)")
    parser.add_argument("--stopping", choices=("simple", "practical"), default="simple",
                        help="ERLPBoost stopping rule of the boosting runs (default simple: "
                             "Lemmas 3.8-3.9 and Thm 3.10 are stated for it)")
    parser.add_argument("--instances", default="random,worst_case,breast_cancer",
                        help="comma-separated list of random[:SEED], worst_case[:N] (N even, "
                             "default 20), breast_cancer")
    parser.add_argument("--json", metavar="FILE", help="write every check as JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    # a log file or CI page has no width: give the table room instead of folding every cell
    console = Console(width=None if sys.stdout.isatty() else 170)
    errors = Console(stderr=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if not (args.tol > 0):
            raise DualBoostInputError(f"--tol must be positive, got {args.tol:g}")
        names = args.formulation or available_formulations()
        formulations = [load_formulation(name) for name in names]
        instances = [instance_by_name(s.strip()) for s in args.instances.split(",")
                     if s.strip()]
        if args.solver:
            from ..solvers import solver_order
            solver_order("lp", args.solver)
    except DualBoostInputError as exc:
        errors.print(f"python -m dualboost.verify: error: {exc}", markup=False, highlight=False)
        return 2
    start = time.perf_counter()
    checks = verify(formulations, instances, tol=args.tol,
                    solver=args.solver, stopping=args.stopping,
                    log=lambda m: errors.print(f"[dim]{time.perf_counter() - start:6.1f}s[/] {m}"))
    render(checks, console)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"tol": args.tol, "seconds": time.perf_counter() - start,
                       "checks": [c.to_dict() for c in checks]}, handle, indent=2,
                      allow_nan=False)
    return 1 if any(c.status == "FAIL" for c in checks) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
