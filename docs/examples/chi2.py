"""LPBoost regularized by the chi^2-divergence to d0 (docs/theory.md, "What a member declares")."""
import cvxpy as cp

from dualboost.regularized import RegularizedLPBoost


class Chi2LPBoost(RegularizedLPBoost):
    name = "chi2"
    summary = "LPBoost regularized by the chi^2-divergence sum (d - d0)^2 / d0"

    def regularizer(self, d):  # R(d) = sum (d - d0)^2 / d0
        return cp.sum(cp.multiply(1 / self.d0, cp.square(d - self.d0)))

    def conjugate(self, y):  # sup over d >= 0, at d = d0 pos(1 + y/2)
        return self.d0 @ cp.square(cp.pos(1 + y / 2)) - 1

    def modulus(self):  # R'' = 2/d0 and 1 / sum(d0/2) = 2
        return 2.0

    def range_bound(self):  # sum d^2/d0 <= (1/nu) sum d / d0 <= 1 / (nu min d0)
        return 1 / (self.nu * self.d0.min()) - 1


FORMULATION = Chi2LPBoost
