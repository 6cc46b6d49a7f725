"""``python -m dualboost.verify``: check every formulation's math on built-in instances.

For every registered formulation (``dualboost.registry.available_formulations()``) or each one
given by ``--formulation NAME|PATH`` (repeatable), and every instance of ``--instances``
(:mod:`.instances`; ``quick`` is a fast preset), it

* checks once what the formulation declares about itself (:mod:`.declared`, block
  ``declared | schema and capabilities``): P1 its parameter schema (defaults in range, values in
  use, pinned values) and P2 its capabilities (fast-path lists, cones, strict convexity on a tie);
* solves the formulation's primal and dual models **independently** on each duality case and
  checks the catalogue rows of docs/theory.md: D1 weak duality, D2 strong duality, D3/D4 the numpy
  objectives against the models' expressions, K1 KKT recovery, K2 complementary slackness, C1-C6
  closed forms and best responses, F1 numpy fast paths of R, R*, grad R*, R1-R3 the declared
  range bound, modulus (minimized, :mod:`.modulus`) and any eta/bound the class states (the
  regularized family's R-checks), and on the weighted cases of a formulation that declares
  ``sample_weight`` W1 (the problem of the repeated rows, :mod:`.weights`);
* runs the formulation's default algorithm on each run case and checks A1 (converged), A2 (KKT
  residual at every iteration), the algorithm's own claims (``Algorithm.claims``: T2, T4, E11
  for the regularized family, L1, L5, L6 for LPBoost, S1-S7 for SoftBoost) and G1 (the output's
  soft margin against the LP over the whole hypothesis class).

What applies is decided by capabilities (``capabilities.strictly_convex``, ``closed_forms``), by
``isinstance(f, RegularizedLPBoost)``, by the names in the models (``"psi"``, ``"beta"``) and by
the algorithm's claims, never by a formulation's name. Every constant of the theory (eta, lemma
constants, iteration bounds) is computed from the declared (sigma, B) by :mod:`dualboost.theory`.
Tolerances: :func:`dualboost.verify.checks.scaled` (``tol * (1 + |magnitudes|)``), see
:mod:`dualboost.verify.checks`.

``--identities [IDS]`` runs the map of identities instead (:mod:`.identities`,
docs/formulations.md "The map of identities"): each row states that two registered formulations
are the same problem under a parameter map, and is checked on every duality case of
``--instances`` by three rows with the identity's id (I1, I2, ...): the optimal values under the
stated scale and shift, the left optimum's d optimal for the right primal, its w (normalized or
scaled as stated) optimal for the right dual. ``--identities --markdown`` prints the docs table.

Output: a table of at most 100 columns on stdout, one block per (instance, case, formulation)
headed ``== instance | case | formulation`` and the case's facts (N, t, nu, eps, eta, d0, ...),
then one line per row: ``status  id short name  value / tolerance  what the value measures``
(the measure states when the row passes, "tol" being the row's tolerance; short names in
:mod:`.names`). A FAIL row's detail is wrapped under it, an n/a row gives its reason in place of
the numbers; ``--verbose`` wraps every row's full label, detail and reference under it. The last
line is ``N passed, M failed, K not applicable`` (and ``, U undecided`` when a reference solve
could not reach the accuracy asked: such a row is printed with its solvers' statuses and is not
a failure). Progress goes to stderr, one line naming each
step (a check, a solve, the enumeration of a class, G1's whole-class LP, the boosting run, the
algorithm's claims) before it starts, plus the state of a long LP or run every few seconds. In
Python, :func:`run` returns the rows as records (dicts with the JSON rows' keys) for a notebook:
``pandas.DataFrame(dualboost.verify.run("erlpboost"))``.

Exit status: 1 when any row FAILs, 0 otherwise, 2 on bad arguments (one line on stderr).
A check that raises becomes its row's FAIL with the exception's type and text; the table and the
JSON are always written.

JSON (``--json FILE``), stable schema::

    {
      "dualboost_version": "0.1.0",
      "tol": 1e-06, "seconds": 12.3, "instances_spec": "quick",
      "cases": [                    # one per (instance, case, formulation)
        {"instance": "quick", "case": "nu=1, d0 non-uniform",
         "kind": "duality" | "run" | "declared",
         "formulation": "erlpboost", "N": 12, "t": 7, "nu": 3.5, "eps": 0.1, "eta": 24.5,
         "d0_uniform": false, "seed": 0, "caps_bind": true, "algorithm": null,
         "status": "ok" | "n/a" | "error", "reason": ""}
      ],
      "checks": [                   # every row
        {"id": "D2", "label": "strong duality: |P - Theta|, ...",
         "reference": "docs/theory.md D2; thesis (3.6), (3.10)", "value": 1.2e-09,
         "tolerance": 2.1e-06, "status": "pass" | "FAIL" | "n/a" | "undecided",
         "detail": "P = ..., Theta = ...",
         "instance": "quick", "case": "nu=3.5, ...", "formulation": "erlpboost"}
      ],
      "counts": {"pass": 120, "FAIL": 0, "n/a": 14, "undecided": 0}
    }

A formulation that passes no formulation row on any instance (every case n/a, e.g. a default
outside its range) gets a FAIL row ``coverage`` saying why: nothing checked is not passed.

Row ids are the catalogue's (P1-P2, D1-D4, K1-K3, M1, C1-C6, F1, R1-R3, W1, A1-A2, G1, and the
algorithms' T2, T4, E11, L1, L5, L6, S1-S7); four more ids are not formulation checks: ``coverage``
(above), ``solver`` (no solver
produced any solution: ``undecided`` when every solver only fell short of the accuracy asked, a
FAIL when a solver could not take the model at all), ``setup`` (the formulation cannot be built
for the case, e.g. nu = N for the binary entropy: n/a with the reason; or building it raised: FAIL)
and ``claims`` (an algorithm's claims method raised). ``value`` and ``tolerance`` are null when not
finite (the detail then says so).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
import textwrap
import time
from collections.abc import Callable

import numpy as np

from ..algorithms import algorithm_class
from ..errors import DualBoostInputError, DualityViolation, SolverFailure
from ..formulation import Formulation
from ..params import Param
from ..registry import available_formulations, load_formulation
from ..regularized import RegularizedLPBoost
from ..solvers import undecided
from .checks import (
    FAIL,
    FORMULATION_CHECK,
    NA,
    PASS,
    UNDECIDED,
    DualityChecks,
    Row,
    _err,
    full_class_lp_value,
    guarded,
    run_rows,
)
from .declared import coverage_rows, declaration_rows, pinned_params
from .identities import header_facts, run_identities
from .instances import DEFAULT_INSTANCES, Instance, instance_by_name
from .names import measure, short_name
from .weights import w1

__all__ = ["Row", "main", "run", "verify", "render"]

STOPPING = "simple"


def _version() -> str:
    # the parent package is always loaded before its subpackages: reading its version needs no
    # import (an import of the package would put the verifier in a cycle with the public API)
    return str(getattr(sys.modules.get("dualboost"), "__version__", "unknown"))


def _declared(cls: type[Formulation]) -> set[str]:
    return {p.name for p in getattr(cls, "params", ())}


def build_formulation(cls: type[Formulation], N: int, nu: float, eps: float,
                      d0: np.ndarray | None, U: np.ndarray | None = None,
                      extra: dict | None = None) -> Formulation:
    """The formulation for a case: nu, eps and d0 where declared, plus (for a standalone solve
    on U) ``cls.standalone_params(U)`` such as SoftBoost's edge bound."""
    declared = _declared(cls)
    params = {}
    if "nu" in declared:
        params["nu"] = nu
    # a declared parameter pinned at one value is checked at that value (P1 checks the rest)
    for p in pinned_params(cls):
        if p.name in declared:
            params[p.name] = p.default
    # a formulation that names the cap count otherwise (seed 002's D = 1/nu) is checked at the
    # case's nu too, through its own map (else every case would run at its default)
    from_nu = getattr(cls, "params_for_nu", None)
    if "nu" not in declared and callable(from_nu):
        params.update({k: v for k, v in from_nu(N, nu).items() if k in declared})
    if "eps" in declared:
        params["eps"] = eps
    if d0 is not None and "d0" in declared:
        params["d0"] = d0
    params.update({k: v for k, v in (extra or {}).items() if k in declared})
    if U is not None:
        function = cls.standalone_params
        signature = inspect.signature(function)
        takes_all = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
        given = {k: v for k, v in params.items() if takes_all or k in signature.parameters}
        params.update(function(U, **given) or {})
    return cls(N, **params)


#: the parameters a case sets itself (never varied by ``DualityCase.vary_params``)
_CASE_PARAMS = ("nu", "eps", "eta", "d0", "sample_weight", "edge_bound")


#: how far toward an end of its declared range an ``"ends"`` case moves a parameter: half way
#: (an open end is outside the range, and values near it strain every solver), far enough that
#: a range admitting values where the member's R, sigma or B break (Tsallis's q >= 1 in a
#: range (0, 2): q = 1.25) is exercised
END_FRACTION = 0.5


def off_default_params(cls: type[Formulation], N: int, weights: np.ndarray | None = None,
                       toward: str = "high") -> dict:
    """Each other numeric parameter with a plain default moved 30% of the way to an end of its
    range (Tsallis's q = 0.5 -> 0.65), to check formulas that agree only at the default; each
    other vector parameter with a derived default (seed 002's costs c, default 1) set to
    ``weights`` (the case's non-uniform d0 rescaled to mean 1), where given. ``toward`` "low" or
    "high" instead moves each numeric parameter with that end finite ``END_FRACTION`` of the
    way to it, and nothing else (the range-ends cases)."""
    if toward in ("low", "high"):
        return _near_range_ends(cls, N, toward)
    out = {}
    pinned = {p.name for p in pinned_params(cls)}
    for p in getattr(cls, "params", ()):
        if (p.kind == "vector" and weights is not None and p.name not in _CASE_PARAMS
                and p.name not in pinned and callable(p.default)):
            try:
                out[p.name] = p.validate(np.asarray(weights, dtype=float), N, {})
            except DualBoostInputError:
                pass
            continue
        if not _plain_numeric(p, pinned):
            continue
        default = float(p.default)
        high = p._bound(p.high, N)
        low = p._bound(p.low, N)
        end = high if high is not None else (low if low is not None else None)
        value = default + 0.3 * (end - default) if end is not None and end != default else \
            default * 1.3 + 0.1
        if p.kind == "int":
            value = float(round(value))
        if _accepted(p, value, N):
            out[p.name] = value
    return out


def _plain_numeric(p: Param, pinned: set[str]) -> bool:
    """A numeric parameter with a plain default that no case sets and no pin holds."""
    return p.name not in _CASE_PARAMS and p.name not in pinned and \
        p.kind in ("float", "int") and not callable(p.default) and p.default is not None


def _extreme_value_shortfall(row: Row) -> Row:
    """Near a range's end a correct model may lie beyond every solver (seed 002's exponential
    loss at T -> 0 has its optimum at d ~ exp(0.95/T)): a solve that found no finite optimum
    there is undecided, not a FAIL; every measured violation still FAILs."""
    if row.status == FAIL and "model has no finite optimum" in row.detail:
        row.status = UNDECIDED
        row.detail = ("undecided: near the end of a declared range no solver found a finite "
                      "optimum (numerics at an extreme parameter value); " + row.detail)
    return row


def _near_range_ends(cls: type[Formulation], N: int, end: str) -> dict:
    out = {}
    pinned = {p.name for p in pinned_params(cls)}
    for p in getattr(cls, "params", ()):
        if p.kind != "float" or not _plain_numeric(p, pinned):
            continue
        bound = p._bound(p.low if end == "low" else p.high, N)
        if bound is None and end == "low" and float(p.default) > 0:
            # no lower end declared: the schema admits every value below, 0 and the negative
            # mirror of the default among them (Shen & Li's T <= 0 in a range without its low
            # end 0): the mirror is tried, and a parameter that must stay positive fails there
            if _accepted(p, -float(p.default), N):
                out[p.name] = -float(p.default)
            continue
        if bound is None or not math.isfinite(bound) or bound == float(p.default):
            continue
        if end == "low" and bound == 0 and p.low_open:
            # an open 0 is a scale's limit, not a value (seed 002's T -> 0 puts the optimum at
            # d ~ exp(1/T), beyond every solver): the default checks the scale
            continue
        value = float(p.default) + END_FRACTION * (bound - float(p.default))
        if _accepted(p, value, N):
            out[p.name] = value
    return out


def _accepted(p: Param, value: float, N: int) -> bool:
    """Whether the parameter's schema takes ``value`` (a moved value outside it is skipped)."""
    try:
        p.validate(value, N, {})
    except DualBoostInputError:
        return False
    return True


def _metadata(instance: str, case: str, kind: str, cls, f: Formulation | None, N: int, t: int,
              nu: float, eps: float, d0, seed) -> dict:
    meta = {"instance": instance, "case": case, "kind": kind,
            "formulation": getattr(cls, "name", str(cls)), "N": int(N), "t": int(t),
            "nu": float(nu), "eps": float(eps), "eta": None, "d0_uniform": None, "seed": seed,
            "caps_bind": None, "algorithm": None, "status": "ok", "reason": ""}
    if f is not None:
        eta = getattr(f, "eta", None)
        meta["eta"] = float(eta) if isinstance(eta, (int, float, np.floating)) else None
        f_d0 = getattr(f, "d0", None)
        if f_d0 is not None:
            meta["d0_uniform"] = bool(np.allclose(f_d0, 1.0 / f.N, rtol=0, atol=1e-15))
        meta["nu"] = float(getattr(f, "nu", nu))
        meta["eps"] = float(getattr(f, "eps", eps))
    return meta


def _prefix(instance: str, case: str, formulation: str = "") -> str:
    """The progress lines' name of a case: the table's block header without its '=='."""
    return " | ".join(part for part in (instance, case, formulation) if part)


#: ``--algorithm`` runs another algorithm than the default on the run cases, with this many
#: iterations at least (a corrective or Frank-Wolfe run takes many cheap ones)
OTHER_ALGORITHM_MAX_ITER = 100_000
#: the iterations of a run whose algorithm's own bound exceeds the budget (it cannot stop by its
#: rule within the budget; its per-iteration claims are checked on these)
BELOW_BOUND_MAX_ITER = 100


class Verifier:
    def __init__(self, tol: float, solver: str | None, stopping: str, log: Callable[[str], None],
                 algorithm: str | None = None):
        self.tol, self.solver, self.stopping, self.log = tol, solver, stopping, log
        #: None: each formulation's default algorithm; else this one (``--algorithm``)
        self.algorithm = algorithm
        self.rows: list[Row] = []
        self.cases: list[dict] = []
        self._full_lp: dict = {}
        self._columns: dict = {}

    def _add(self, rows: list[Row], instance: str, case: str, name: str) -> None:
        for row in rows:
            row.instance, row.case, row.formulation = instance, case, name
        self.rows += rows

    def _setup_failed(self, meta: dict, exc: BaseException, rows_instance, case, name) -> None:
        if isinstance(exc, DualBoostInputError):
            meta["status"], meta["reason"] = "n/a", str(exc)
            row = Row("setup", "the formulation accepts this case's parameters", "-", None,
                      None, NA, f"n/a: {exc}")
        else:
            meta["status"], meta["reason"] = "error", _err(exc)
            row = Row("setup", "building the formulation for this case", "-", None, None, FAIL,
                      f"raised {_err(exc)}")
        self._add([row], rows_instance, case, name)

    # -- what the formulation declares (once) ------------------------------------------------
    def declarations(self, cls, instances: list[Instance]) -> None:
        name = getattr(cls, "name", str(cls))
        cases = [case for instance in instances for case in instance.cases]
        sizes = tuple(sorted({int(case.U.shape[0]) for case in cases})) or (12,)
        U = cases[0].U if cases else None
        prefix = _prefix("declared", "schema and capabilities", name)
        def build(N, columns):
            return build_formulation(cls, N, 1.0, 0.1, None, U=columns)

        try:  # the block's facts: the formulation P2 builds (P1 reports a failure to build)
            shown = build(U.shape[0], U) if U is not None else None
        except Exception:  # noqa: BLE001
            shown = None
        meta = _metadata("declared", "schema and capabilities", "declared", cls, shown,
                         U.shape[0] if U is not None else 0, U.shape[1] if U is not None else 0,
                         1.0, 0.1, None, None)
        self.cases.append(meta)

        rows = declaration_rows(cls, build, U, sizes, self.solver,
                                lambda step: self.log(f"{prefix}: {step}"))
        self._add(rows, "declared", "schema and capabilities", name)

    # -- duality cases ----------------------------------------------------------------------
    def duality(self, instance: Instance, cls) -> None:
        name = getattr(cls, "name", str(cls))
        for case in instance.cases:
            N, t = case.U.shape
            weighted = case.sample_weight is not None
            if weighted and "sample_weight" not in _declared(cls):
                continue  # only for the formulations that declare the support (W1)
            if case.signed_only and not getattr(getattr(cls, "capabilities", None),
                                                "signed_weights", False):
                continue  # only for seed 001's signed w (instances.DualityCase.signed_only)
            prefix = _prefix(instance.name, case.name, name)
            self.log(f"{prefix}: building the formulation")
            extra = {"sample_weight": case.sample_weight} if weighted else {}
            if case.vary_params in ("low", "high"):
                moved = off_default_params(cls, N, toward=case.vary_params)
                if not moved:
                    continue  # no declared range end to try: the case adds nothing
                extra.update(moved)
            elif case.vary_params:
                extra.update(off_default_params(
                    cls, N, None if case.d0 is None else np.asarray(case.d0) * N))
            try:
                f = build_formulation(cls, N, case.nu, case.eps, case.d0, U=case.U, extra=extra)
            except Exception as exc:  # noqa: BLE001
                meta = _metadata(instance.name, case.name, "duality", cls, None, N, t, case.nu,
                                 case.eps, case.d0, case.seed)
                self.cases.append(meta)
                self._setup_failed(meta, exc, instance.name, case.name, name)
                continue
            meta = _metadata(instance.name, case.name, "duality", cls, f, N, t, case.nu,
                             case.eps, case.d0, case.seed)
            self.cases.append(meta)
            checks = DualityChecks(f, case.U, self.tol, self.solver,
                                   log=lambda step, prefix=prefix: self.log(f"{prefix}: {step}"),
                                   seed=case.seed or 0)
            try:
                rows = checks.rows()
            except Exception as exc:  # noqa: BLE001 - defensive: rows() guards every check
                rows = [Row("setup", "duality checks", "-", None, None, FAIL,
                            f"raised {_err(exc)}")]
            if case.vary_params in ("low", "high"):
                rows = [_extreme_value_shortfall(row) for row in rows]
            if weighted:
                def reference(N_rep, nu_rep, eps, d0_rep, U_rep, params, cls=cls):
                    return build_formulation(cls, N_rep, nu_rep, eps, d0_rep, U=U_rep,
                                             extra=params)

                self.log(f"{prefix}: W1 the repeated rows' problem")
                rows.append(guarded(
                    "W1", "sample weights: |P(weighted) - P(the repeated rows, unweighted)|",
                    "docs/theory.md W1, 'Sample weights'",
                    lambda f=f, U=case.U, checks=checks, reference=reference: w1(
                        f, U, checks.certificate, reference, self.tol, self.solver)))
            self._add(rows, instance.name, case.name, name)
            nu = meta["nu"]
            if nu > 1:
                try:
                    d = checks.primal_d()
                    meta["caps_bind"] = bool(np.any(d >= 1.0 / nu - 1e-7))
                except Exception:  # noqa: BLE001
                    pass

    # -- runs -------------------------------------------------------------------------------
    def full_lp(self, instance: Instance, run, nu: float,
                name: str = "") -> tuple[float | None, str]:
        """The whole-class LP at the nu the formulation actually uses (TotalBoost fixes 1);
        computed once per (instance, run, nu) and shared by the formulations that use it."""
        key = (instance.name, run.name, nu)
        if key not in self._full_lp:
            prefix = _prefix(instance.name, run.name, name)
            if run.all_columns is None:
                self._full_lp[key] = (None, "the oracle cannot enumerate its class")
                return self._full_lp[key]
            try:
                columns_key = (instance.name, run.name)
                if columns_key not in self._columns:
                    self.log(f"{prefix}: enumerating the hypothesis class (for G1)")
                    self._columns[columns_key] = run.all_columns()
                columns = self._columns[columns_key]
                self.log(f"{prefix}: G1's LP (2.3) over the whole class: {columns.shape[1]} "
                         f"columns, nu = {nu:g}")
                lower, upper = full_class_lp_value(
                    columns, nu, log=lambda step: self.log(f"{prefix}: G1's LP, {step}"))
                self._full_lp[key] = (lower, "")
            except Exception as exc:  # noqa: BLE001
                self._full_lp[key] = (None, f"the whole-class LP failed: {_err(exc)}")
        return self._full_lp[key]

    def _run_progress(self, prefix: str, every: float = 5.0) -> Callable:
        """A boost() progress callback that logs the iteration every ``every`` seconds."""
        last = [time.perf_counter()]

        def progress(record) -> None:
            if time.perf_counter() - last[0] >= every:
                last[0] = time.perf_counter()
                bracket = ""
                if record.primal is not None and record.dual is not None:
                    bracket = f", master bracket [{record.dual:.6g}, {record.primal:.6g}]"
                self.log(f"{prefix}: boosting run, t = {record.t}{bracket}")
        return progress

    def run(self, instance: Instance, cls) -> None:
        from ..engine import boost

        name = getattr(cls, "name", str(cls))
        for run in instance.runs:
            prefix = _prefix(instance.name, run.name, name)
            try:
                f = build_formulation(cls, run.N, run.nu, run.eps, run.d0, extra=run.params)
            except Exception as exc:  # noqa: BLE001
                meta = _metadata(instance.name, run.name, "run", cls, None, run.N, 0, run.nu,
                                 run.eps, run.d0, run.seed)
                self.cases.append(meta)
                self._setup_failed(meta, exc, instance.name, run.name, name)
                continue
            meta = _metadata(instance.name, run.name, "run", cls, f, run.N, 0, run.nu, run.eps,
                             run.d0, run.seed)
            meta["algorithm"] = self.algorithm or getattr(cls, "default_algorithm", None)
            self.cases.append(meta)
            guarantee = getattr(algorithm_class(meta["algorithm"]), "soft_margin_guarantee",
                                True) if meta["algorithm"] else True
            if getattr(f, "promises_soft_margin", True) and guarantee:
                full_lp, note = self.full_lp(instance, run, float(getattr(f, "nu", 1.0)), name)
            else:  # G1 is n/a for it (run_rows says why): the whole-class LP would go unread
                full_lp, note = None, "no soft margin promised"
            rule = (f", {self.stopping} stopping rule" if isinstance(f, RegularizedLPBoost)
                    and self.algorithm is None else "")
            self.log(f"{prefix}: boosting run ({meta['algorithm']}{rule}, max_iter "
                     f"{run.max_iter})")
            try:
                declared = {p.name for p in algorithm_class(meta["algorithm"]).params} \
                    if meta["algorithm"] else set()
                # another algorithm has its own stopping rules and many cheap iterations
                other = self.algorithm is not None
                max_iter = max(run.max_iter, OTHER_ALGORITHM_MAX_ITER) if other else run.max_iter
                bound = algorithm_class(meta["algorithm"]).stated_iteration_bound(
                    f, run.algorithm_params) if meta["algorithm"] else None
                if bound is not None and bound > max_iter:
                    # the run cannot reach its stop within the budget (A1 is not applicable):
                    # enough iterations for the per-iteration claims, not the whole budget
                    max_iter = min(max_iter, BELOW_BOUND_MAX_ITER)
                result = boost(f, run.make_oracle(), algorithm=meta["algorithm"],
                               stopping=None if other else self.stopping, solver=self.solver,
                               gap_tol=self.tol / 100,
                               max_iter=max_iter,
                               progress=self._run_progress(prefix),
                               **{k: v for k, v in run.algorithm_params.items() if k in declared})
            except DualBoostInputError as exc:
                meta["status"], meta["reason"] = "n/a", str(exc)
                self._add([Row("setup", "the default algorithm runs this formulation", "-",
                               None, None, NA, f"n/a: {exc}")], instance.name, run.name, name)
                continue
            except DualityViolation as exc:
                self._add([Row("D1", "weak duality at a master solve of the run (<= tol)",
                               "docs/theory.md D1", None, None, FAIL, str(exc))],
                          instance.name, run.name, name)
                continue
            except SolverFailure as exc:
                statuses = {a.status for a in exc.attempts}
                certificate = any("certificate" in (a.message or "") for a in exc.attempts)
                if certificate or statuses & {"infeasible", "unbounded",
                                              "infeasible_inaccurate", "unbounded_inaccurate"}:
                    row = Row("D2", "strong duality at a master solve of the run", "docs/theory.md"
                              " D2", None, None, FAIL, f"no solver closed the formulation's "
                              f"certificate at a master solve: {exc}")
                else:
                    row = Row("solver", "boosting run", "-", None, None,
                              UNDECIDED if undecided(exc) else FAIL, str(exc))
                self._add([row], instance.name, run.name, name)
                continue
            except Exception as exc:  # noqa: BLE001
                self._add([Row("A1", "converged: the boosting run", "docs/theory.md A1", None,
                               None, FAIL, f"the run raised {_err(exc)}")],
                          instance.name, run.name, name)
                continue
            meta["t"] = int(result.iterations)
            self.log(f"{prefix}: run checks (T = {result.iterations})")
            try:
                rows = run_rows(result, f, self.tol, full_lp, note,
                                log=lambda step, prefix=prefix: self.log(f"{prefix}: {step}"))
            except Exception as exc:  # noqa: BLE001
                rows = [Row("A1", "run checks", "-", None, None, FAIL, f"raised {_err(exc)}")]
            self._add(rows, instance.name, run.name, name)


def verify(formulations: list, instances: list[Instance], tol: float = 1e-6,
           solver: str | None = None, stopping: str = STOPPING,
           log: Callable[[str], None] | None = None,
           algorithm: str | None = None,
           stated_identities: bool = False,
           jobs: int | None = 1) -> tuple[list[Row], list[dict]]:
    """Run every check; returns (rows, per-case metadata). ``log(message)`` gets progress.
    ``algorithm`` runs that algorithm on the run cases instead of each default one.
    ``stated_identities`` (a member verified on its own, ``--formulation``): also the rows of
    the map of identities that name the member (:func:`.identities.identities_of`), with the
    class under test in place of the registered one of its name, so that a pin or a parameter
    map the member contradicts fails an identity row (docs/formulations.md).
    ``jobs``: the formulations are shared among that many forked processes (None: one per
    core, at most :data:`MAX_JOBS`, when there are at least :data:`PARALLEL_FROM` of them);
    the rows and cases come back in the serial order, so the table and the JSON are the same."""
    verifier = Verifier(tol, solver, stopping, log or (lambda message: None), algorithm)
    jobs = _jobs(jobs, len(formulations))
    if jobs > 1:
        verifier.rows, verifier.cases = _parallel_core(formulations, instances, jobs, (
            tol, solver, stopping, log, algorithm))
    else:
        _core(verifier, formulations, instances)
    if stated_identities:
        from .identities import identities_of

        classes = {getattr(cls, "name", ""): cls for cls in formulations}
        stated = {}  # each identity once, however many of its sides are under test
        for name, cls in classes.items():
            for identity in identities_of(name, cls):
                if identity.left == name:  # the left member's version carries its pins
                    stated[identity.id] = identity
                else:
                    stated.setdefault(identity.id, identity)
        if stated:
            rows, cases = run_identities(instances, tol=tol, solver=solver,
                                         log=log or (lambda message: None),
                                         rows=list(stated.values()), classes=classes)
            for row in rows:
                row.reference = f"docs/theory.md {row.id}; {row.reference}"
            verifier.rows += rows
            verifier.cases += cases
    names = list(dict.fromkeys(getattr(cls, "name", str(cls)) for cls in formulations))
    verifier.rows += coverage_rows(verifier.rows, names,
                                   lambda check: bool(FORMULATION_CHECK.match(check)))
    return verifier.rows, verifier.cases


#: the most processes a default run forks, and the fewest formulations that make it fork
MAX_JOBS = 4
PARALLEL_FROM = 4


def _jobs(jobs: int | None, n_formulations: int) -> int:
    import multiprocessing
    import os

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1  # the classes (a user's file among them) reach the workers by fork only
    if jobs is None:
        if n_formulations < PARALLEL_FROM:
            return 1
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
            (os.cpu_count() or 1)
        jobs = min(cores, MAX_JOBS)
    return max(1, min(int(jobs), n_formulations))


def _core(verifier: Verifier, formulations: list, instances: list[Instance]) -> None:
    for cls in formulations:
        verifier.declarations(cls, instances)
    for instance in instances:
        for cls in formulations:
            verifier.duality(instance, cls)
            verifier.run(instance, cls)


#: what a forked worker reads (set by the parent just before the fork)
_FORKED: dict = {}


def _worker(indices: list[int]) -> tuple[list[Row], list[dict]]:
    formulations, instances, settings = _FORKED["args"]
    verifier = Verifier(*settings[:3], settings[3] or (lambda message: None), settings[4])
    verifier._columns = dict(_FORKED["columns"])  # the parent's arrays, shared copy-on-write
    _core(verifier, [formulations[i] for i in indices], instances)
    return verifier.rows, verifier.cases


def _parallel_core(formulations: list, instances: list[Instance], jobs: int,
                   settings: tuple) -> tuple[list[Row], list[dict]]:
    """:func:`_core` with the formulations dealt round-robin to ``jobs`` forked processes, and
    the rows and cases put back in the serial order: the declarations of every formulation,
    then per instance every formulation's cases (a stable sort keeps each block's order)."""
    import multiprocessing

    _FORKED["args"] = (formulations, instances, settings)
    # the enumerated classes (G1's columns: 569 x 30,264 stumps on breast cancer) once, before
    # the fork, instead of once per worker
    _FORKED["columns"] = {(instance.name, run.name): run.all_columns()
                          for instance in instances for run in instance.runs
                          if run.all_columns is not None}
    groups = [list(range(j, len(formulations), jobs)) for j in range(jobs)]
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_worker, groups)
    finally:
        _FORKED.clear()
    position = {getattr(cls, "name", str(cls)): i for i, cls in enumerate(formulations)}
    place = {instance.name: i for i, instance in enumerate(instances)}

    def key(instance: str, formulation: str) -> tuple:
        where = position.get(formulation, len(position))
        return (0, where) if instance == "declared" else (1, place.get(instance, 0), where)

    rows = sorted((row for part_rows, _ in parts for row in part_rows),
                  key=lambda row: key(row.instance, row.formulation))
    cases = sorted((case for _, part_cases in parts for case in part_cases),
                   key=lambda case: key(case["instance"], case["formulation"]))
    return rows, cases


# -- output ---------------------------------------------------------------------------------

def _number(value: float | None) -> str:
    if value is None:
        return "-"
    if not math.isfinite(value):
        return str(value)
    return f"{value:.3g}" if abs(value) < 1e5 else f"{value:.3e}"


#: the table's width (every line of the default rendering fits in it)
WIDTH = 100
_STATUS, _CHECK, _VALUE, _TOL = 7, 30, 10, 9
MEASURE_HEADER = "what the value measures, pass rule"


def _wrap(text: str, width: int, indent: str) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False) or [indent.rstrip()]


def _fit(text: str, width: int) -> str:  # one line: cut with '...'
    return text if len(text) <= width else text[:max(width - 3, 0)].rstrip() + "..."


def legend(verbose: bool = False, width: int = WIDTH) -> list[str]:
    """The lines that say once what the columns mean."""
    text = ("One block per instance | case | formulation. A row: status, check id and short "
            "name, value / tolerance (the row's measured value and the bound it is compared "
            "with; '-' = none), then what the value measures and when the row passes "
            "(tol = the row's tolerance; docs/theory.md explains every id). ")
    text += ("Under every row: its full label, detail and reference." if verbose else
             "Details are printed under FAIL rows, an n/a row gives its reason in place of the "
             "numbers; "
             "--verbose prints every row's full label, detail and reference.")
    return _wrap(text, width, "")


def _block_header(key: tuple, m: dict, width: int) -> list[str]:
    lines = _wrap(f"== {key[0]} | {key[1]} | {key[2]}", width, "")
    lines[1:] = ["   " + line for line in lines[1:]]
    facts = [f"{k}={m[k]:g}" if isinstance(m.get(k), float) else f"{k}={m[k]}"
             for k in ("N", "t", "nu", "eps", "eta", "seed") if m.get(k) is not None]
    if m.get("d0_uniform") is not None:
        facts.append("d0 " + ("uniform" if m["d0_uniform"] else "non-uniform"))
    if m.get("caps_bind") is not None:
        facts.append("caps bind" if m["caps_bind"] else "caps do not bind")
    if m.get("algorithm"):
        facts.append(f"algorithm {m['algorithm']}")
    if facts:
        lines += _wrap(", ".join(facts), width, "   ")
    if m.get("kind") == "identity":  # the two sides with their mapped parameters
        for fact in header_facts(m):
            lines += _wrap(fact, width, "   ")
    return lines


def render(rows: list[Row], cases: list[dict], write: Callable[[str], None],
           width: int = WIDTH, verbose: bool = False) -> None:
    """The table: one block per (instance, case, formulation) with a header line naming them,
    then one line per row, ``status  id short name  value / tolerance  what the value measures``
    (every line at most ``width`` characters). The detail of a FAIL row is wrapped under it, an
    n/a row gives its reason inline; ``verbose`` wraps every row's full label, detail and
    reference under it. Ends with the summary line ``N passed, M failed, K not applicable``."""
    measure_width = width - _STATUS - _CHECK - (_VALUE + 3 + _TOL) - 2
    indent = " " * _STATUS
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        groups.setdefault((row.instance, row.case, row.formulation), []).append(row)
    meta = {(c["instance"], c["case"], c["formulation"]): c for c in cases}
    if groups:
        for line in legend(verbose, width):
            write(line)
    for key, group in groups.items():
        write("")
        for line in _block_header(key, meta.get(key, {}), width):
            write(line)
        write(f"{'status':<{_STATUS}}{'check':<{_CHECK}}{'value':>{_VALUE}} / "
              f"{'tolerance':<{_TOL}}  {MEASURE_HEADER}")
        previous = None
        for row in group:
            check = _fit(f"{row.id:<3} {short_name(row.id, row.label)}".rstrip(), _CHECK - 1)
            what = measure(row.id, row.label, measure_width)
            start = f"{row.status:<{_STATUS}}{check:<{_CHECK}}"
            if row.status == NA and not verbose and row.detail:
                # the reason is an n/a row's content: in the columns of the numbers when the
                # row has none, else in the last column
                what = row.detail[5:] if row.detail.startswith("n/a: ") else row.detail
            if not (row.status == NA and not verbose and row.value is None
                    and row.tolerance is None):
                start += (f"{_number(row.value):>{_VALUE}} / {_number(row.tolerance):<{_TOL}}"
                          "  ")
            room = max(width - len(start), 12)
            what_lines = _wrap(what, room, "")
            write((start + what_lines[0]).rstrip())
            for line in what_lines[1:]:
                write(" " * len(start) + line)
            if verbose:
                for text in (row.label, row.detail, row.reference):
                    if text and text != "-":
                        for line in _wrap(text, width - _STATUS, indent):
                            write(line)
            elif row.status == FAIL and row.detail:
                text = "same as above" if row.detail == previous else row.detail
                for line in _wrap(text, width - _STATUS, indent):
                    write(line)
                previous = row.detail
    counts = count(rows)
    write("")
    write(f"{counts[PASS]} passed, {counts[FAIL]} failed, {counts[NA]} not applicable"
          + (f", {counts[UNDECIDED]} undecided (no solver reached the accuracy on a reference "
             "model: not a formulation failure)" if counts[UNDECIDED] else ""))


def count(rows: list[Row]) -> dict:
    return {s: sum(r.status == s for r in rows) for s in (PASS, FAIL, NA, UNDECIDED)}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit status 2 (raised to main)
        raise DualBoostInputError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m dualboost.verify",
        description="Check every formulation's primal/dual pair, closed forms, declared "
                    "constants and its algorithm's claims on built-in instances (docs/theory.md).")
    parser.add_argument("--formulation", action="append", metavar="NAME|PATH",
                        help="a registered name or a .py file (repeatable; default: every "
                             "registered formulation)")
    parser.add_argument("--instances", default=DEFAULT_INSTANCES,
                        help="comma-separated: quick, random[:SEED], worst_case[:N] (N even), "
                             f"breast_cancer (default {DEFAULT_INSTANCES})")
    parser.add_argument("--tol", type=float, default=1e-6,
                        help="relative tolerance of every comparison (default 1e-6)")
    parser.add_argument("--solver", help="force one solver (e.g. ECOS, CLARABEL, HIGHS)")
    parser.add_argument("--stopping", choices=("simple", "practical"), default=STOPPING,
                        help="stopping rule of the regularized runs (default simple)")
    parser.add_argument("--identities", nargs="?", const="all", metavar="IDS",
                        help="check the map of identities between formulations instead "
                             "(docs/formulations.md, 'The map of identities'): every row, or "
                             "the comma-separated ids given (e.g. I1,I3)")
    parser.add_argument("--markdown", action="store_true",
                        help="with --identities: print the identities' table of "
                             "docs/formulations.md (checks nothing)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="processes the formulations are shared among (default: one per "
                             f"core, at most {MAX_JOBS}, when {PARALLEL_FROM} or more "
                             "formulations are checked; 1: one process); the output is the same")
    parser.add_argument("--algorithm", metavar="NAME",
                        help="run this algorithm on the run cases instead of each "
                             "formulation's default (its claims are checked; a formulation it "
                             "cannot run is n/a), e.g. fw, mlpboost")
    parser.add_argument("--json", metavar="FILE", help="write every row as JSON")
    parser.add_argument("--verbose", action="store_true",
                        help="the long form: every row's full label, detail and reference "
                             "under it (default: short names, details of FAIL rows only)")
    return parser


def _resolve(formulations, instances, tol: float, solver: str | None,
             stopping: str) -> tuple[list, list[Instance]]:
    """Check the arguments shared by main() and run(); DualBoostInputError on a bad one."""
    if not (isinstance(tol, (int, float)) and tol > 0 and math.isfinite(tol)):
        raise DualBoostInputError(f"tol must be a positive number, got {tol!r}")
    if stopping not in ("simple", "practical"):
        raise DualBoostInputError(f"stopping must be 'simple' or 'practical', got {stopping!r}")
    if formulations is None:
        formulations = available_formulations()
    elif isinstance(formulations, (str, type)):
        formulations = [formulations]
    classes = [f if isinstance(f, type) else load_formulation(str(f)) for f in formulations]
    if isinstance(instances, str):
        instances = [instance_by_name(s.strip()) for s in instances.split(",") if s.strip()]
    elif isinstance(instances, Instance):
        instances = [instances]
    instances = list(instances)
    if not instances:
        raise DualBoostInputError("--instances names no instance")
    if solver:
        from ..solvers import solver_order
        solver_order("lp", solver)
    return classes, instances


def _identity_ids(spec: str | None, formulations) -> list[str] | None:
    """The ids of ``--identities [IDS]`` (None: every row), checked; DualBoostInputError on an
    unknown id or on ``--formulation`` with it (the identities name their formulations)."""
    if spec is None:
        return None
    if formulations:
        raise DualBoostInputError("--identities checks the formulations its rows name; it "
                                  "takes no --formulation")
    if spec == "all":
        return None
    from .identities import identity_by_id

    ids = [part.strip() for part in spec.split(",") if part.strip()]
    for identity_id in ids:
        identity_by_id(identity_id)
    return ids or None


def run(formulations=None, instances="quick", tol: float = 1e-6, solver: str | None = None,
        stopping: str = STOPPING, log: Callable[[str], None] | None = None,
        identities: str | None = None) -> list[dict]:
    """The verifier's rows as records, for a notebook: one dict per row of the table, with the
    keys of the JSON ``checks`` rows (see the module docstring), so that
    ``pandas.DataFrame(run())`` or ``{k: [r[k] for r in records] for k in records[0]}`` gives
    the table.

    ``formulations``: None (every registered formulation), a name, a ``.py`` path or a
    Formulation class, or a list of them (as ``--formulation``); ``instances``: a spec string
    as ``--instances`` ("quick", "random:3,worst_case:20", ...) or Instance objects; ``tol``,
    ``solver``, ``stopping`` as in ``python -m dualboost.verify``; ``log(message)`` gets the
    progress lines (default: silent). ``identities`` ("all" or ids such as "I1,I6", as
    ``--identities``) runs the map of identities instead (``formulations`` must then be None).
    Raises DualBoostInputError on a bad argument.
    """
    classes, instance_list = _resolve(formulations, instances, tol, solver, stopping)
    if identities is not None:
        selected = _identity_ids(identities, formulations)
        rows, _ = run_identities(instance_list, tol=tol, solver=solver, log=log, select=selected)
        return [row.to_dict() for row in rows]
    rows, _ = verify(classes, instance_list, tol=tol, solver=solver, stopping=stopping, log=log,
                     stated_identities=formulations is not None)
    return [row.to_dict() for row in rows]


def main(argv: list[str] | None = None) -> int:
    out = sys.stdout
    err = sys.stderr
    try:
        args = build_parser().parse_args(argv)
        if not (args.tol > 0 and math.isfinite(args.tol)):
            raise DualBoostInputError(f"--tol must be a positive number, got {args.tol:g}")
        formulations, instances = _resolve(args.formulation, args.instances, args.tol,
                                           args.solver, args.stopping)
        selected = _identity_ids(args.identities, args.formulation)
        if args.algorithm is not None:
            algorithm_class(args.algorithm)  # an unknown name: one line, exit status 2
        if args.markdown and args.identities is None:
            raise DualBoostInputError("--markdown prints the identities' table: give it with "
                                      "--identities")
        # the output rules of every command (dualboost.outputs): --json writable, and not a
        # --formulation file, before any check runs
        from ..outputs import check_files, existing

        check_files([item for spec in args.formulation or []
                     for item in existing("--formulation", spec)],
                    [("--json", args.json, "json")])
    except DualBoostInputError as exc:
        print(f"python -m dualboost.verify: error: {str(exc).splitlines()[0]}", file=err)
        return 2
    if args.markdown:
        from .identities import IDENTITIES, markdown_table

        chosen = [r for r in IDENTITIES if selected is None or r.id in selected]
        print(markdown_table(chosen), file=out)
        return 0
    start = time.perf_counter()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - start:6.1f}s] {message}", file=err, flush=True)

    rows: list[Row] = []
    cases: list[dict] = []
    try:
        if args.identities is not None:
            rows, cases = run_identities(instances, tol=args.tol, solver=args.solver, log=log,
                                         select=selected)
        else:
            rows, cases = verify(formulations, instances, tol=args.tol, solver=args.solver,
                                 stopping=args.stopping, log=log, algorithm=args.algorithm,
                                 stated_identities=args.formulation is not None,
                                 jobs=args.jobs)
    except Exception as exc:  # noqa: BLE001 - never crash: report it as a FAIL row
        rows.append(Row("setup", "the verifier itself", "-", None, None, FAIL,
                        f"raised {_err(exc)}"))
    finally:
        try:
            render(rows, cases, lambda line: print(line, file=out), verbose=args.verbose)
        finally:
            if args.json:
                report = {"dualboost_version": _version(), "tol": args.tol,
                          "seconds": time.perf_counter() - start,
                          "instances_spec": args.instances, "cases": cases,
                          "checks": [r.to_dict() for r in rows], "counts": count(rows)}
                with open(args.json, "w") as handle:
                    json.dump(report, handle, indent=1, allow_nan=False, default=_jsonable)
    return 1 if any(r.status == FAIL for r in rows) else 0


def _jsonable(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    return str(value)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
