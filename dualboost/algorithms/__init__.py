"""Algorithms: each owns its state, master step, stopping rule and output; one loop runs them.

``ALGORITHMS`` maps a name to its class. A formulation names its default
(``Formulation.default_algorithm``); ``dualboost fit --algorithm NAME`` picks another, and
:meth:`Algorithm.unsupported` says in one line why a pairing cannot work.
"""

from __future__ import annotations

from ..errors import DualBoostInputError
from .base import Algorithm, Claim, Output, run_loop
from .totally_corrective import LPBoostAlgorithm, RegularizedAlgorithm

ALGORITHMS: dict[str, type[Algorithm]] = {
    LPBoostAlgorithm.name: LPBoostAlgorithm,
    RegularizedAlgorithm.name: RegularizedAlgorithm,
}


def register(cls: type[Algorithm]) -> type[Algorithm]:
    ALGORITHMS[cls.name] = cls
    return cls


def algorithm_class(name: str) -> type[Algorithm]:
    _load_optional()
    if name not in ALGORITHMS:
        raise DualBoostInputError(
            f"unknown algorithm {name!r}; available: {', '.join(sorted(ALGORITHMS))}")
    return ALGORITHMS[name]


def available_algorithms() -> list[str]:
    _load_optional()
    return sorted(ALGORITHMS)


def _load_optional() -> None:
    """Algorithms in their own modules register themselves on import."""
    try:
        from . import softboost  # noqa: F401
    except ImportError:
        pass


__all__ = ["ALGORITHMS", "Algorithm", "Claim", "Output", "algorithm_class",
           "available_algorithms", "register", "run_loop"]
