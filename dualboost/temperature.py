"""Seed 002's temperature T for its problems that are not members of the regularized family.

AdaBoost's exponential loss (2) ↔ (14) and AdaBoost-QP (41) weigh their regularizer by T in the
d-domain (``gamma + T R(d)``, seed 002's convention), i.e. eta = 1/T in the thesis's ``gamma +
R(d)/eta`` (3.6), with the uniform prior d0 = 1/N. The projected-Newton master reads ``eta``
and ``d0`` from the formulation, as it does for the family's members.
"""

from __future__ import annotations

import numpy as np


class Temperature:
    """Mixin for a :class:`~dualboost.formulation.Formulation` with a parameter ``T``: eta = 1/T,
    uniform d0, and eta reported among the parameters."""

    @property
    def eta(self) -> float:
        """1/T: the weight of the regularizer in P (the Newton master's curvature scale)."""
        return 1.0 / self.T

    @property
    def d0(self) -> np.ndarray:
        return np.full(self.N, 1.0 / self.N)

    def parameters(self) -> dict:
        return {**super().parameters(), "eta": self.eta}
