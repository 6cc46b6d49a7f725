"""The squared Hellinger member with its optional conjugate_domain(): R* is finite for y < 1."""
import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost


class Hell(RegularizedLPBoost):
    name = "hell_user"

    def regularizer(self, d):
        return cp.sum(d) - 2 * np.sqrt(self.d0) @ cp.sqrt(d) + 1

    def conjugate(self, y):
        return self.d0 @ cp.inv_pos(1 - y) - 1

    def conjugate_domain(self):
        return 1.0

    def modulus(self):
        return np.sqrt(self.nu * self.d0.min()) / 2

    def range_bound(self):
        return 2 - 2 * np.sqrt(self.nu * self.d0.min())


FORMULATION = Hell
