"""dualboost: boosting as convex optimization.

Every algorithm is a pair of cvxpy models, a *primal* over the distribution d on examples and a
*dual* over the weights w on hypotheses; a column-generation engine grows them one hypothesis at
a time and certifies every solve by strong duality.
"""

from .engine import boost
from .errors import DualBoostInputError, FormulationContractError, SolverFailure
from .estimator import DualBoostClassifier
from .formulation import Certificate, DualModel, DualPoint, Formulation, PrimalModel
from .margins import soft_margin
from .registry import available_formulations, load_formulation
from .result import BoostResult, IterationRecord

__version__ = "0.1.0"

__all__ = [
    "BoostResult", "Certificate", "DualBoostInputError", "DualModel", "DualPoint", "Formulation",
    "FormulationContractError", "IterationRecord", "PrimalModel", "SolverFailure",
    "DualBoostClassifier",
    "available_formulations", "boost", "load_formulation", "soft_margin", "__version__",
]
