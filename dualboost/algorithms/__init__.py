"""Algorithms: each owns its state, master step, stopping rule and output; one loop runs them.

``ALGORITHMS`` maps a name to its class. A formulation names its default
(``Formulation.default_algorithm``); ``dualboost fit --algorithm NAME`` picks another, and
:meth:`Algorithm.unsupported` says in one line why a pairing cannot work.
"""

from __future__ import annotations

from ..errors import DualBoostInputError
from .base import Algorithm, Claim, Output, run_loop
from .corrective import CorrectiveBinaryERLPBoost, CorrectiveERLPBoost, SSSAlgorithm
from .frank_wolfe import FrankWolfeAlgorithm, MLPBoostAlgorithm
from .shen_li_cg import AdaBoostCG, LogitBoostCG
from .softboost import SoftBoostAlgorithm
from .stagewise import AdaBoost, ArcGv
from .totally_corrective import LPBoostAlgorithm, RegularizedAlgorithm

# the package lists its algorithms (the modules do not import the package back)
ALGORITHMS: dict[str, type[Algorithm]] = {
    cls.name: cls for cls in (LPBoostAlgorithm, RegularizedAlgorithm, SoftBoostAlgorithm,
                              AdaBoost, ArcGv, FrankWolfeAlgorithm, MLPBoostAlgorithm,
                              AdaBoostCG, LogitBoostCG,
                              SSSAlgorithm, CorrectiveERLPBoost, CorrectiveBinaryERLPBoost)
}


def register(cls: type[Algorithm]) -> type[Algorithm]:
    """Add an algorithm of your own (a class decorator), e.g. from a notebook."""
    ALGORITHMS[cls.name] = cls
    return cls


def algorithm_class(name: str) -> type[Algorithm]:
    if name not in ALGORITHMS:
        raise DualBoostInputError(
            f"unknown algorithm {name!r}; available: {', '.join(sorted(ALGORITHMS))}")
    return ALGORITHMS[name]


def available_algorithms() -> list[str]:
    return sorted(ALGORITHMS)


__all__ = ["ALGORITHMS", "Algorithm", "Claim", "Output", "algorithm_class",
           "available_algorithms", "register", "run_loop"]
