"""3/2-power Bregman divergence to d0, written from the docs."""
import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost


class Power32(RegularizedLPBoost):
    name = "power32_user"

    def regularizer(self, d):
        r0 = np.sqrt(self.d0)
        return cp.sum(cp.power(d, 1.5)) - 1.5 * r0 @ d + 0.5 * np.sum(self.d0 ** 1.5)

    def conjugate(self, y):
        a = y + 1.5 * np.sqrt(self.d0)
        return 4 / 27 * cp.sum(cp.power(cp.pos(a), 3)) - 0.5 * np.sum(self.d0 ** 1.5)

    def modulus(self):
        return 3 / (4 * np.sqrt(self.N))

    def range_bound(self):
        return self.nu ** -0.5 - 1.5 * np.sqrt(self.d0).min() + 0.5 * np.sum(self.d0 ** 1.5)


FORMULATION = Power32
