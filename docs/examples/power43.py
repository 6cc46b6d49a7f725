"""LPBoost regularized by the 4/3-power divergence to d0 (docs/walkthrough_swap_regularizer.md)."""
import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost


class PowerLPBoost(RegularizedLPBoost):
    name = "power43"
    summary = "LPBoost regularized by the Bregman divergence of (3/4) d^(4/3)"
    equations = "thesis (3.6), (3.12), (3.13) with R = sum 3/4 d^(4/3) - d0^(1/3) d + 1/4 d0^(4/3)"

    def regularizer(self, d):
        c0 = np.cbrt(self.d0)
        return cp.sum(3 / 4 * cp.power(d, 4 / 3) - cp.multiply(c0, d) + c0**4 / 4)

    def conjugate(self, y):  # sup over d >= 0 of y.d - R(d), at d = pos(d0^(1/3) + y)^3
        c0 = np.cbrt(self.d0)
        return cp.sum(cp.power(cp.pos(c0 + y), 4) / 4 - c0**4 / 4)

    def modulus(self):  # R'' = d^(-2/3)/3 and sum d^(2/3) <= N^(1/3)
        return 1 / (3 * np.cbrt(self.N))

    def range_bound(self):  # sum d^(4/3) <= nu^(-1/3), sum d0^(1/3) d >= min d0^(1/3)
        c0 = np.cbrt(self.d0)
        return 3 / 4 / np.cbrt(self.nu) - c0.min() + np.sum(c0**4) / 4


FORMULATION = PowerLPBoost
