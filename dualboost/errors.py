"""Exceptions raised by dualboost.

Every error caused by the user's input is a :class:`DualBoostInputError` (a ``ValueError``), so that
scikit-learn's estimator checks and the CLI (exit status 2, one line) treat it as bad input.
"""


class DualBoostInputError(ValueError):
    """The data, a parameter or a formulation file does not satisfy dualboost's contract."""


class FormulationContractError(DualBoostInputError):
    """A formulation class or file lacks part of the contract in :mod:`dualboost.formulation`."""


class OutputError(DualBoostInputError):
    """An output file cannot be written (the command line: exit status 2, one line, like any
    other output that its checks reject before the run)."""


class SolverFailure(RuntimeError):
    """No solver in the policy produced an accepted solution (see ``attempts`` for each try)."""

    def __init__(self, message: str, attempts: list | None = None):
        super().__init__(message)
        self.attempts = attempts or []


class DualityViolation(RuntimeError):
    """A feasible primal/dual pair with Theta > P: the formulation's models are not a pair.

    This blames the formulation, not the solvers: weak duality holds for any correct Lagrangian
    dual, whatever the solver's accuracy, because both values are evaluated at exactly feasible
    points.
    """

    def __init__(self, message: str, certificate=None):
        super().__init__(message)
        self.certificate = certificate
