"""Tsallis relative entropy of order q = 3/2 (q > 1), relative to d0, from docs/theory.md."""
import cvxpy as cp
import numpy as np

from dualboost.regularized import RegularizedLPBoost

q = 1.5


class TsallisG(RegularizedLPBoost):
    name = "tsallis_g"

    def regularizer(self, d):
        return (cp.sum(cp.power(d, q, approx=False)) - (q * self.d0 ** (q - 1)) @ d) / (q - 1) \
            + float(np.sum(self.d0 ** q))

    def conjugate(self, y):
        g = self.d0 ** (q - 1) + (q - 1) / q * y
        return cp.sum(cp.power(cp.pos(g), q / (q - 1), approx=False)) - float(np.sum(self.d0 ** q))

    def modulus(self):  # R'' = q d^(q-2); 1/sum(d^(2-q)/q) >= q / sqrt(N)
        return q / np.sqrt(self.N)

    def range_bound(self):
        return float(self.nu ** (1 - q) - q * np.min(self.d0 ** (q - 1))
                     + (q - 1) * np.sum(self.d0 ** q)) / (q - 1)


FORMULATION = TsallisG
