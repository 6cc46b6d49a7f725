import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost


class DoubledEntropy(RegularizedLPBoost):
    name = "doubled_entropy"

    def regularizer(self, d):        # R(d) = 2 sum d ln(d / d0)
        return 2 * (-cp.sum(cp.entr(d)) - np.log(self.d0) @ d)

    def conjugate(self, y):          # R*(y) = sup_d y.d - R(d) = 2 sum d0 exp(y/2 - 1)
        return 2 * (self.d0 @ cp.exp(y / 2 - 1))

    def modulus(self):               # sigma (Pinsker, doubled)
        return 2.0

    def range_bound(self):           # B = 2 ln(1 / (nu min d0))
        return 2 * np.log(1 / (self.nu * self.d0.min()))
