"""Exceptions raised by dualboost.

Every error caused by the user's input is a :class:`DualBoostInputError` (a ``ValueError``), so that
scikit-learn's estimator checks and the CLI (exit status 2, one line) treat it as bad input.
"""

#: the most characters of a file's content (or of a path) that a message quotes
ECHO_CHARS = 60


def shown(text: object, limit: int = ECHO_CHARS) -> str:
    """``repr(text)`` cut to ``limit`` characters: a message never quotes a whole line of a
    file (a "line" of a binary file can be gigabytes long)."""
    value = repr(text if isinstance(text, str) else str(text))
    return value if len(value) <= limit else value[:limit - 4] + "...'"


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
