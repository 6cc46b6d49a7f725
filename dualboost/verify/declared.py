"""Checks of what a formulation declares about itself, once per formulation (docs/theory.md P1, P2).

* **P1 parameter schema**: every declared default lies in its declared range (resolved at the
  instances' N, a default that depends on other parameters included); each value the instance
  holds is the resolved one (no ``_check`` or ``__init__`` that changes it afterwards) and is what
  ``parameters()`` reports (the JSON of a run); a pinned parameter (``Formulation.pinned``, or a
  declared one whose range is a single value: TotalBoost's nu = 1) is held at that value and any
  other value is refused.
* **P2 declared capabilities**: every name in ``capabilities.closed_forms`` (``fast_paths`` in the
  regularized family) is a method the class really overrides (a listed but missing fast path
  makes the fast master rest on the derived one, silently); overrides not listed are named (the
  duality rows compare them all the same); the cones the models need (cvxpy's canonicalization)
  are among the declared ``cones`` (the solver policy picks solvers from them); and
  ``strictly_convex = True`` is tested on an instance with a tie: a hard example duplicated, the
  primal objective perturbed by +-eps (d_k - d_copy). A strictly convex primal moves its unique
  d by O(eps) (so the move shrinks with eps); a primal with a face of optima (an LP: any split of
  the tied mass is optimal) jumps between the ends of the face at any eps > 0.
"""

from __future__ import annotations

from collections.abc import Callable

import cvxpy as cp
import numpy as np

from ..errors import DualBoostInputError
from ..formulation import Formulation
from ..params import Param
from ..regularized import RegularizedLPBoost, declared_cones
from ..solvers import needed_cones
from .checks import FAIL, NA, Row, guarded, not_applicable, verifier_order

__all__ = ["declaration_rows", "pinned_params", "FAST_PATH_NAMES"]

#: methods a class may override with a hand-written fast path, and the row that compares each
FAST_PATH_NAMES = {
    "primal_objective": "D4", "dual_objective": "D3", "d_from_dual": "C1/C2",
    "optimal_beta": "C3", "best_response": "C4", "regularizer_value": "F1",
    "conjugate_value": "F1", "conjugate_gradient": "F1", "regularizer_gradient": "F1",
}


def pinned_params(cls: type[Formulation]) -> list[Param]:
    """The parameters fixed at one value: ``cls.pinned`` and declared ones of range {default}."""
    out = list(getattr(cls, "pinned", ()))
    for p in getattr(cls, "params", ()):
        if p.kind in ("float", "int") and p.low is not None and p.low == p.high:
            out.append(p)
    return out


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-12, atol=1e-15))


def p1(cls: type[Formulation], sizes: tuple[int, ...]):
    """The schema's defaults, the values in use and the pinned values (module docstring)."""
    checked, problems = 0, []
    for N in sizes:
        try:
            f = cls(N)
        except DualBoostInputError as exc:
            problems.append(f"N = {N}: the defaults are refused by the schema: {exc}")
            continue
        for key, value in f.values.items():
            checked += 1
            if not _same(getattr(f, key, None), value):
                problems.append(f"N = {N}: {key} resolves to {value!r} but the instance uses "
                                f"{getattr(f, key, None)!r}")
        reported = f.parameters()
        for key, value in list(f.values.items()) + [(p.name, getattr(f, p.name, None))
                                                    for p in getattr(cls, "pinned", ())]:
            shown = reported.get(key)
            if isinstance(value, np.ndarray) and shown == "uniform":
                shown = np.full(N, 1.0 / N)
            if not _same(shown, value if not isinstance(value, np.ndarray) else value):
                problems.append(f"N = {N}: parameters() reports {key} = {shown!r}, the instance "
                                f"uses {value!r}")
        for p in pinned_params(cls):
            checked += 1
            if not _same(getattr(f, p.name, None), p.default):
                problems.append(f"N = {N}: {p.name} is pinned at {p.default:g} but the instance "
                                f"uses {getattr(f, p.name, None)!r}")
            other = float(p.default) + 1.0 if float(p.default) + 1.0 <= N else \
                float(p.default) / 2.0
            try:
                cls(N, **{p.name: other})
            except DualBoostInputError:
                pass
            except Exception as exc:  # noqa: BLE001 - a crash is not a refusal
                problems.append(f"N = {N}: {p.name} = {other:g} raised {type(exc).__name__}, "
                                "not the input error")
            else:
                problems.append(f"N = {N}: {p.name} is pinned at {p.default:g} but {p.name} = "
                                f"{other:g} is accepted")
    pins = ", ".join(f"{p.name} = {p.default:g}" for p in pinned_params(cls))
    detail = (f"defaults resolved at N = {', '.join(map(str, sizes))}; {checked} values compared"
              + (f"; pinned: {pins}" if pins else ""))
    if problems:
        return float(len(problems)), 0.0, False, "; ".join(problems[:4]) + "; " + detail
    return 0.0, 0.0, True, detail


def _base_of(cls: type[Formulation]) -> type:
    return RegularizedLPBoost if issubclass(cls, RegularizedLPBoost) else Formulation


def _overrides(cls: type[Formulation], name: str) -> bool:
    base = _base_of(cls)
    mine, theirs = getattr(cls, name, None), getattr(base, name, None)
    return mine is not None and mine is not theirs


def p2_lists(cls: type[Formulation]):
    """The declared fast-path list against the methods the class overrides."""
    listed = tuple(cls.capabilities.closed_forms)
    missing = [name for name in listed if not callable(getattr(cls, name, None))
               or not _overrides(cls, name)]
    unlisted = [name for name in FAST_PATH_NAMES if name not in listed
                and _overrides(cls, name) and name != "primal_objective"
                and not (issubclass(cls, RegularizedLPBoost) and name == "dual_objective")]
    detail = f"listed: {', '.join(listed) or 'none'}"
    if unlisted:
        detail += ("; overridden but not listed (compared all the same by " + ", ".join(
            f"{n} {FAST_PATH_NAMES[n]}" for n in unlisted) + ")")
    if missing:
        return float(len(missing)), 0.0, False, (
            f"listed as fast paths but not written by the class (the derived version runs in "
            f"their place): {', '.join(missing)}; " + detail)
    return 0.0, 0.0, True, detail


def p2_cones(f: Formulation, U: np.ndarray):
    needed = set()
    for model in (f.primal(U), f.dual(U)):
        needed |= needed_cones(model.problem)
    if isinstance(f, RegularizedLPBoost) and declared_cones(type(f)) is None:
        return not_applicable(
            f"no cones declared: the solver policy reads them off the models "
            f"({', '.join(sorted(needed)) or 'lp'}), nothing to compare")
    declared = set(f.capabilities.cones)
    # a power cone may be written with second-order cones (cvxpy's approx form) and vice versa
    missing = needed - declared - ({"pow"} if "soc" in declared and needed == {"pow"} else set())
    if "soc" in missing and "pow" in declared:
        missing.discard("soc")
    detail = f"declared {sorted(declared)}, the models need {sorted(needed) or ['lp']}"
    return float(len(missing)), 0.0, not missing, (
        detail + (f": {', '.join(sorted(missing))} missing (the solver policy would pick "
                  "solvers that cannot take the model)" if missing else ""))


def _tie_spread(f: Formulation, U: np.ndarray, k: int, eps: float, order: list[str]) -> float:
    """|(d_k - d_copy) at +eps minus at -eps| for the primal with objective +-eps (d_k - d_c)."""
    from ..solvers import solve

    values = []
    for sign in (1.0, -1.0):
        model = f.primal(U)
        d = model.variables["d"]
        c = np.zeros(U.shape[0])
        c[k], c[-1] = 1.0, -1.0
        problem = cp.Problem(cp.Minimize(model.problem.objective.expr + sign * eps * (c @ d)),
                             model.problem.constraints)
        # an inaccurate optimum (~1e-6) is plenty for spreads of 1e-4 and more
        solve(problem, f.capabilities.solver_kind, order=order,
              certify=lambda d=d: d.value is not None and bool(np.all(np.isfinite(d.value))))
        values.append(float(d.value[k] - d.value[-1]))
    return abs(values[0] - values[1])


def p2_strict(cls: type[Formulation], build: Callable, U: np.ndarray, solver: str | None):
    """Uniqueness of d on an instance with a tie (module docstring)."""
    if not cls.capabilities.strictly_convex:
        return not_applicable("not declared strictly convex")
    N = U.shape[0]
    f = build(N, U)
    order = verifier_order(f.capabilities.solver_kind, solver)
    # the hardest example (largest weight at the optimum) is duplicated
    model, cert, _ = f.solve_primal(U, 1e-7, order=order)
    k = int(np.argmax(np.asarray(cert.d, dtype=float)))
    tied = np.vstack([U, U[k]])
    g = build(N + 1, tied)
    big, small = 1e-3, 1e-4
    spread_big = _tie_spread(g, tied, k, big, order)
    spread_small = _tie_spread(g, tied, k, small, order)
    detail = (f"example {k} (d_k = {cert.d[k]:.3g}) duplicated, objective +-e (d_k - d_copy): "
              f"d_k - d_copy moves by {spread_big:.3g} at e = {big:g} and {spread_small:.3g} at "
              f"e = {small:g}")
    unique = spread_small <= 1e-6 or spread_small <= 0.5 * spread_big
    if not unique:
        detail = ("declared strictly_convex, but the optimal d is not unique (the move does not "
                  "shrink with e: the optimum is a face); " + detail)
    return spread_small, 0.5 * spread_big, unique, detail


def declaration_rows(cls: type[Formulation], build: Callable, U: np.ndarray | None,
                     sizes: tuple[int, ...], solver: str | None,
                     log: Callable[[str], None]) -> list[Row]:
    """P1 and P2 rows of one formulation; ``build(N, U)`` builds it for a standalone solve at
    nu = 1 on the columns U (None: no column matrix, P2's model checks are n/a)."""
    rows = []
    log("P1 parameter schema")
    rows.append(guarded("P1", "parameter schema: defaults in range, values in use, pinned values",
                        "docs/theory.md P1", lambda: p1(cls, sizes)))
    log("P2 declared capabilities")
    rows.append(guarded("P2", "capabilities: fast-path list vs the methods the class writes",
                        "docs/theory.md P2", lambda: p2_lists(cls)))
    if U is None:
        return rows

    def cones():
        return p2_cones(build(U.shape[0], U), U)

    rows.append(guarded("P2", "capabilities: the cones the models need are declared",
                        "docs/theory.md P2", cones))
    rows.append(guarded("P2", "capabilities: strictly convex = d unique on a tie instance",
                        "docs/theory.md P2", lambda: p2_strict(cls, build, U, solver)))
    if issubclass(cls, RegularizedLPBoost) and callable(getattr(cls, "conjugate_domain", None)):
        rows.append(guarded("P2", "capabilities: declared conjugate_domain() contains grad "
                            "R(d0) and lies where R* is finite",
                            "docs/theory.md P2, 'The domain of R* and the optimal beta'",
                            lambda: p2_conjugate_domain(build(U.shape[0], U))))
    return rows


def p2_conjugate_domain(f: RegularizedLPBoost):
    """The declared domain bound of R* against the one found on R* itself (per coordinate, the
    largest y where R*'s term is finite; it must contain grad R(d0)): the derived numerics
    refuse a contradiction with a FormulationMathError that names the coordinate."""
    from ..regularized import DerivedNumerics, FormulationMathError
    from ..separable import NotSeparable

    try:
        numerics = DerivedNumerics(f)
    except FormulationMathError as exc:
        return 1.0, 0.0, False, str(exc)
    except NotSeparable as exc:
        return not_applicable(f"R* is not separable, the domain is not compiled ({exc})")
    declared = np.broadcast_to(np.asarray(f.conjugate_domain(), dtype=float), (f.N,))
    return 0.0, 0.0, True, (f"declared bound {float(np.min(declared)):.6g}.."
                            f"{float(np.max(declared)):.6g}; R* finite up to at least "
                            f"{float(np.min(numerics.upper)):.6g} and grad R(d0) inside")


def coverage_rows(rows: list[Row], names: list[str], is_formulation_check: Callable) -> list[Row]:
    """A FAIL row for each formulation that got no passing formulation row: nothing checked is
    not passed (e.g. a default outside the schema makes every case n/a)."""
    out = []
    for name in names:
        mine = [r for r in rows if r.formulation == name]
        # the math must have been checked on an instance: the declarations alone do not count
        passed = [r for r in mine if r.status == "pass" and is_formulation_check(r.id)
                  and r.instance != "declared"]
        if passed:
            continue
        reasons = sorted({r.detail.removeprefix("n/a: ")[:160] for r in mine
                          if r.status in (NA, FAIL) and r.detail})
        out.append(Row("coverage", "nothing checked is not passed: no formulation row passed "
                       "on an instance",
                       "docs/theory.md P1", None, None, FAIL,
                       f"formulation {name!r} passed no check on these instances"
                       + (": " + "; ".join(reasons[:3]) if reasons else ""),
                       formulation=name, instance="all", case="coverage"))
    return out
