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

__all__ = ["Param", "NU", "EPS", "ETA", "D0", "resolve_params", "parse_param_text"]


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


def resolve_params(schema: Sequence[Param], N: int, given: Mapping[str, Any],
                   owner: str = "formulation") -> dict[str, Any]:
    """Validate ``given`` against ``schema`` and fill the defaults, in declaration order.

    An unknown name is an error that lists the declared ones: a parameter the formulation does
    not use is never silently ignored.
    """
    names = [p.name for p in schema]
    unknown = [k for k in given if k not in names]
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

NU = Param("nu", "capping: d_n <= 1/nu; a count in [1, N] (thesis convention; 1 = hard margin)",
           default=1.0, low=1, high="N")
EPS = Param("eps", "target accuracy epsilon of the stopping rule", default=0.01, low=0,
            low_open=True)
ETA = Param("eta", "regularization weight: the primal adds (1/eta) R(d)", low=0, low_open=True,
            default_text="theory: max(2 B / eps, sigma / 2), docs/theory.md (T1)")


def _d0_default(N: int, values: Mapping[str, Any]) -> np.ndarray:
    return np.full(N, 1.0 / N)


def _d0_check(d0: np.ndarray, N: int, values: Mapping[str, Any]) -> str | None:
    nu = values.get("nu") or 1.0
    if np.any(d0 <= 0) or abs(d0.sum() - 1) > 1e-9:
        return "must be a strictly positive distribution on the N examples"
    if np.any(d0 > 1.0 / nu + 1e-12):
        return f"must satisfy the caps d0 <= 1/nu = {1.0 / nu:g}"
    return None


D0 = Param("d0", "prior distribution on the examples (strictly positive, sums to 1, <= 1/nu)",
           kind="vector", default=_d0_default, check=_d0_check, default_text="uniform 1/N")
