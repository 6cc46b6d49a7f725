"""Parameter schemas: a formulation (or algorithm) declares its parameters once.

Validation, ``dualboost fit --param name=value``, the estimator's keyword arguments, ``dualboost
list`` and the verifier all read the same :class:`Param` objects, so a parameter cannot be
accepted in one place and ignored in another.

A default may depend on N and on the parameters already resolved (``eta`` depends on ``nu`` and
``eps``): give a callable ``default(N, values) -> value``. Parameters are resolved in the order
they are declared.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import DualBoostInputError

__all__ = ["DEFAULT_NU_FRAC", "Param", "pinned", "NU", "EPS", "ETA", "D0", "SAMPLE_WEIGHT",
           "resolve_params", "parse_param_text", "sample_weight_unsupported"]


@dataclass(frozen=True)
class Param:
    """One declared parameter.

    ``kind`` is ``"float"``, ``"int"``, ``"vector"`` (a length-N array) or ``"str"``. ``low`` and
    ``high`` bound a number (``"N"`` stands for the number of examples); ``low_open`` /
    ``high_open`` make the bound strict. ``check(value, N, values)`` returns an error message or
    None, for conditions the bounds cannot state.
    """

    name: str
    doc: str
    kind: str = "float"
    default: Any = None
    low: float | str | None = None
    high: float | str | None = None
    low_open: bool = False
    high_open: bool = False
    check: Callable[[Any, int, Mapping[str, Any]], str | None] | None = None
    #: shown by ``dualboost list``; "theory" for a default derived from other parameters
    default_text: str | None = None

    def range_text(self) -> str:
        if self.low is None and self.high is None:
            return ""
        left = "(" if self.low_open or self.low is None else "["
        right = ")" if self.high_open or self.high is None else "]"
        low = "-inf" if self.low is None else f"{self.low}"
        high = "inf" if self.high is None else f"{self.high}"
        return f"{left}{low}, {high}{right}"

    def describe_default(self) -> str:
        if self.default_text is not None:
            return self.default_text
        if callable(self.default):
            return "derived"
        return "required" if self.default is None else f"{self.default}"

    def _bound(self, bound: float | str | None, N: int) -> float | None:
        if bound == "N":
            return float(N)
        return None if bound is None else float(bound)

    def validate(self, value: Any, N: int, values: Mapping[str, Any]) -> Any:
        """The value converted to its kind, or :class:`DualBoostInputError` naming the rule."""
        if self.kind == "vector":
            array = np.asarray(value, dtype=float)
            if array.shape != (N,) or not np.all(np.isfinite(array)):
                raise DualBoostInputError(
                    f"{self.name} must be a finite vector of length N = {N}, got shape "
                    f"{array.shape}")
            value = array
        elif self.kind == "str":
            value = str(value)
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer,
                                                                 np.floating)):
                raise DualBoostInputError(f"{self.name} must be a number, got {value!r}")
            if self.kind == "int":
                if float(value) != int(value):
                    raise DualBoostInputError(f"{self.name} must be an integer, got {value!r}")
                value = int(value)
            else:
                value = float(value)
            if not math.isfinite(value):
                raise DualBoostInputError(f"{self.name} must be finite, got {value!r}")
            low, high = self._bound(self.low, N), self._bound(self.high, N)
            below = low is not None and (value < low or (self.low_open and value == low))
            above = high is not None and (value > high or (self.high_open and value == high))
            if below or above:
                where = self.range_text().replace("N", f"N = {N}") if self.high == "N" else \
                    self.range_text()
                raise DualBoostInputError(f"{self.name} must lie in {where}, got {value:g}"
                                          + (f" ({self.doc})" if self.doc else ""))
        if self.check is not None:
            message = self.check(value, N, values)
            if message:
                raise DualBoostInputError(f"{self.name} {message}")
        return value


def pinned(base: Param, value: float) -> Param:
    """``base`` fixed at ``value`` (a formulation's ``pinned``: TotalBoost's nu = 1)."""
    return Param(base.name, f"{base.doc}; fixed at {value:g} here", default=value, low=value,
                 high=value, default_text=f"{value:g} (fixed)")


def resolve_params(schema: Sequence[Param], N: int, given: Mapping[str, Any],
                   owner: str = "formulation") -> dict[str, Any]:
    """Validate ``given`` against ``schema`` and fill the defaults, in declaration order.

    An unknown name is an error that lists the declared ones: a parameter the formulation does
    not use is never silently ignored.
    """
    names = [p.name for p in schema]
    unknown = [k for k in given if k not in names]
    if "sample_weight" in unknown:
        raise DualBoostInputError(sample_weight_unsupported(owner))
    if unknown:
        raise DualBoostInputError(
            f"{owner} does not take parameter{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(map(repr, unknown))}; its parameters are: {', '.join(names) or 'none'}")
    values: dict[str, Any] = {}
    for p in schema:
        raw = given.get(p.name)
        if raw is None:
            raw = p.default(N, values) if callable(p.default) else p.default
            if raw is None:
                values[p.name] = None
                continue
        values[p.name] = p.validate(raw, N, values)
    return values


def parse_param_text(text: str) -> tuple[str, Any]:
    """``"name=value"`` from the command line: a number where it parses as one, else text."""
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise DualBoostInputError(f"--param expects name=value, got {text!r}")
    raw = raw.strip()
    try:
        value: Any = int(raw)
    except ValueError:
        try:
            value = float(raw)
        except ValueError:
            value = raw
    return name, value


# --- the parameters shared by the thesis's formulations ----------------------------------------

#: nu = max(1, DEFAULT_NU_FRAC * N): the default of ``dualboost fit`` and of
#: ``DualBoostClassifier(nu_frac=0.1)`` when a formulation declares nu and none is given; what
#: ``dualboost list`` and the CLI help show. A starting point, not a recommendation: choose nu by
#: cross-validation (docs/choosing_nu.md).
DEFAULT_NU_FRAC = 0.1

NU = Param("nu", "capping: d_n <= 1/nu; a count in [1, N] (thesis convention; 1 = hard margin). "
           f"dualboost fit and DualBoostClassifier use max(1, {DEFAULT_NU_FRAC:g} N) unless "
           "given; a formulation built directly in Python (or api.run without nu) takes 1",
           default=1.0, low=1, high="N", default_text=f"max(1, {DEFAULT_NU_FRAC:g} N)")
EPS = Param("eps", "target accuracy epsilon of the stopping rule", default=0.01, low=0,
            low_open=True)
ETA = Param("eta", "regularization weight: the primal adds (1/eta) R(d)", low=0, low_open=True,
            default_text="theory: max(2 B / eps, sigma / 2), docs/theory.md (T1)")


def _d0_default(N: int, values: Mapping[str, Any]) -> np.ndarray:
    weights = values.get("sample_weight")
    if weights is not None:  # the repeated rows' uniform prior, aggregated (docs/theory.md)
        return weights / weights.sum()
    return np.full(N, 1.0 / N)


def _d0_check(d0: np.ndarray, N: int, values: Mapping[str, Any]) -> str | None:
    nu = values.get("nu") or 1.0
    if np.any(d0 <= 0) or abs(d0.sum() - 1) > 1e-9:
        return "must be a strictly positive distribution on the N examples"
    weights = values.get("sample_weight")
    if weights is not None:
        if np.any(d0 > example_caps(N, nu, weights) + 1e-12):
            return "must satisfy the caps d0_n <= s_n N / (nu sum s) of sample_weight s"
    elif np.any(d0 > 1.0 / nu + 1e-12):
        return f"must satisfy the caps d0 <= 1/nu = {1.0 / nu:g}"
    return None


def example_caps(N: int, nu: float, sample_weight: np.ndarray | None) -> np.ndarray:
    """The caps of the N examples: ``1/nu`` each, or with weights s ``s_n N / (nu sum s)``.

    With weights, nu is a count in [1, N] of the total weight rescaled to N (nu / N is the
    fraction of the total weight): for integer weights these are the caps of the repeated rows
    (``d_n <= s_n / nu'`` with ``nu' = nu sum(s) / N``), aggregated (docs/theory.md, "Sample
    weights")."""
    if sample_weight is None:
        return np.full(N, 1.0 / nu)
    s = np.asarray(sample_weight, dtype=float)
    return s * (N / (nu * float(s.sum())))


def _weight_check(positive: bool):
    def check(s: np.ndarray, N: int, values: Mapping[str, Any]) -> str | None:
        if np.any(s < 0) or not s.sum() > 0:
            return "must be non-negative with a positive sum"
        if positive and np.any(s == 0):
            return ("must be positive here (a row of weight 0 would have prior d0_n = 0): drop "
                    "the rows of weight 0, as DualBoostClassifier.fit does")
        return None
    return check


SAMPLE_WEIGHT_DOC = ("per-example weights s_n >= 0 meaning repeated rows: caps d_n <= "
                     "s_n N / (nu sum s), nu/N a fraction of the total weight (docs/theory.md, "
                     "'Sample weights')")
#: sample weights where a row of weight 0 is allowed (its cap is 0, so d_n = 0: LPBoost)
SAMPLE_WEIGHT = Param("sample_weight", SAMPLE_WEIGHT_DOC, kind="vector", default=None,
                      check=_weight_check(False), default_text="none (unit weights)")
#: sample weights that must be positive (the relative entropy's prior d0 = s / sum s)
SAMPLE_WEIGHT_POSITIVE = Param("sample_weight", SAMPLE_WEIGHT_DOC + "; positive",
                               kind="vector", default=None, check=_weight_check(True),
                               default_text="none (unit weights)")


def sample_weight_unsupported(owner: str) -> str:
    """The error for ``sample_weight`` on a formulation that does not declare it."""
    return (f"{owner} does not support general sample_weight: its weighted problem is not the "
            "same problem with per-example caps and a prior (docs/theory.md, 'Sample "
            "weights'); use integer weights, which DualBoostClassifier applies by repeating "
            "rows, or a formulation that declares sample_weight (lpboost, erlpboost)")


D0 = Param("d0", "prior distribution on the examples (strictly positive, sums to 1, <= 1/nu)",
           kind="vector", default=_d0_default, check=_d0_check,
           default_text="uniform 1/N (s / sum s with sample_weight s)")
