"""dualboost: boosting as convex optimization.

Every algorithm is a pair of cvxpy models, a *primal* over the distribution d on examples and a
*dual* over the weights w on hypotheses; a column-generation engine grows them one hypothesis at
a time and certifies every solve by strong duality.

The names below are imported on first use (PEP 562): ``import dualboost`` itself is instant, so
that the ``dualboost`` command reaches its Ctrl-C handler before cvxpy and scikit-learn load.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> the submodule that defines it
_EXPORTS = {
    "boost": "engine",
    "DualBoostInputError": "errors", "DualityViolation": "errors",
    "FormulationContractError": "errors", "SolverFailure": "errors",
    "Capabilities": "formulation", "Certificate": "formulation", "Formulation": "formulation",
    "Model": "formulation", "Multipliers": "formulation",
    "soft_margin": "margins",
    "Param": "params",
    "available_formulations": "registry", "load_formulation": "registry",
    "RegularizedLPBoost": "regularized",
    "BoostResult": "result", "IterationRecord": "result",
    "DualBoostClassifier": "estimator",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value
    if not name.startswith("__"):  # a submodule (dualboost.api, ...), as after an import
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module 'dualboost' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "BoostResult", "Capabilities", "Certificate", "DualBoostInputError", "DualityViolation",
    "Formulation", "FormulationContractError", "IterationRecord", "Model", "Multipliers", "Param",
    "RegularizedLPBoost", "SolverFailure",
    "DualBoostClassifier",
    "available_formulations", "boost", "load_formulation", "soft_margin", "__version__",
]
