"""LPBoost regularized by the squared Hellinger distance to d0: R* is +inf for y >= 1
(docs/theory.md, "The domain of R* and the optimal beta")."""
import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost


class HellingerLPBoost(RegularizedLPBoost):
    name = "hellinger"
    summary = "LPBoost regularized by the squared Hellinger distance sum (sqrt d - sqrt d0)^2"

    def regularizer(self, d):  # R(d) = sum (sqrt d - sqrt d0)^2 = sum d - 2 sqrt(d0 d) + d0
        return cp.sum(d) - 2 * np.sqrt(self.d0) @ cp.sqrt(d) + 1

    def conjugate(self, y):  # R*(y) = sum d0 y / (1 - y) = sum d0 / (1 - y) - 1, for y < 1
        return self.d0 @ cp.inv_pos(1 - y) - 1

    def modulus(self):  # R" = sqrt(d0) d^(-3/2)/2, sum d^(3/2)/sqrt(d0) <= 1/sqrt(nu min d0)
        return np.sqrt(self.nu * self.d0.min()) / 2

    def range_bound(self):  # sum sqrt(d0 d) >= sqrt(min d0) sum sqrt(d) >= sqrt(nu min d0)
        return 2 - 2 * np.sqrt(self.nu * self.d0.min())


FORMULATION = HellingerLPBoost
