"""dualboost: boosting as convex optimization.

Every algorithm is a pair of cvxpy models, a *primal* over the distribution d on examples and a
*dual* over the weights w on hypotheses; a column-generation engine grows them one hypothesis at
a time and certifies every solve by strong duality.
"""

from .engine import boost
from .errors import DualBoostInputError, DualityViolation, FormulationContractError, SolverFailure
from .formulation import Capabilities, Certificate, Formulation, Model, Multipliers
from .margins import soft_margin
from .params import Param
from .registry import available_formulations, load_formulation
from .regularized import RegularizedLPBoost
from .result import BoostResult, IterationRecord

__version__ = "0.1.0"


def __getattr__(name: str):
    # the estimator imports scikit-learn: only when asked for (PEP 562)
    if name == "DualBoostClassifier":
        from .estimator import DualBoostClassifier

        return DualBoostClassifier
    raise AttributeError(f"module 'dualboost' has no attribute {name!r}")

__all__ = [
    "BoostResult", "Capabilities", "Certificate", "DualBoostInputError", "DualityViolation",
    "Formulation", "FormulationContractError", "IterationRecord", "Model", "Multipliers", "Param",
    "RegularizedLPBoost", "SolverFailure",
    "DualBoostClassifier",
    "available_formulations", "boost", "load_formulation", "soft_margin", "__version__",
]
