"""The rows of the soft-margin LP (2.3) as HiGHS is given them, shared by the LP master
(:mod:`dualboost.masters.highs_lp`), sifting (:mod:`dualboost.masters.sifting`) and the
benchmarks' sparse full LP.

The d-domain LP, thesis (2.3)::

    min_{d, gamma} gamma
    s.t. U^T d - gamma <= 0     (one row per column of U; priced by w)
         sum(d) = 1             (priced by beta)
         0 <= d <= 1/nu         (the upper bounds priced by psi)

is written with ``delta = (1 - gamma)/2`` (objective ``-2 delta``) and each +-1 column's row on
the smaller of its error set M or accuracy set C (:class:`EdgeRows`; the derivation and the
multiplier map are in :mod:`dualboost.masters.highs_lp`'s docstring and docs/theory.md)::

    sum_{n in M} d_n - delta >= 0       (the weighted error of h is at least delta)
    sum_{n in C} d_n + delta <= 1       (its weighted accuracy is at most 1 - delta)

and any other column as ``u.d + 2 delta <= 1``. This module only builds rows and reads
multipliers back; running HiGHS is :mod:`dualboost.masters.highs_run`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .highs_run import new_highs

__all__ = ["EdgeRows", "add_edge_rows", "soft_margin_model", "sparse_lines"]


@dataclass
class EdgeRows:
    """The edge rows of (2.3) in the form HiGHS is given (module docstring), one per column of
    U: row q is ``sum_n A[n, q] d_n + delta_coef[q] delta`` in ``[lower[q], upper[q]]`` (bounds
    for sum(d) = 1; infinite bounds are HiGHS's kHighsInf), A the indicator of the column's
    error set (``errors``), of its accuracy set (``accuracy``), or U itself on a column that is
    not +-1 (:meth:`coefficients`); the thesis's multipliers are read back from HiGHS's row
    duals by :meth:`multipliers`. Only the per-column forms are stored: the rows of A an LP
    needs are made from U's (an N x t copy per solve costs as much as the solve at large N)."""

    errors: np.ndarray
    accuracy: np.ndarray

    @classmethod
    def of(cls, U: np.ndarray) -> EdgeRows:
        """The forms of the columns U: +-1 columns on the smaller of their two sets."""
        N = U.shape[0]
        n_wrong = np.count_nonzero(U == -1.0, axis=0)
        sign = n_wrong + np.count_nonzero(U == 1.0, axis=0) == N
        errors = sign & (2 * n_wrong <= N)
        return cls(errors=errors, accuracy=sign & ~errors)

    def followed_by(self, other: EdgeRows) -> EdgeRows:
        """These rows, then ``other``'s (the columns of another block of U)."""
        return EdgeRows(np.concatenate([self.errors, other.errors]),
                        np.concatenate([self.accuracy, other.accuracy]))

    def coefficients(self, U_rows: np.ndarray) -> np.ndarray:
        """A's rows for the given rows of U (same columns)."""
        return np.where(self.errors, U_rows == -1.0,
                        np.where(self.accuracy, U_rows == 1.0, U_rows)).astype(float)

    def weighted_sum(self, U_rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """``weights @ A[rows]`` from ``e = weights @ U[rows]`` alone: on +-1 columns the
        indicator of u = -1 (+1) is (1 - u)/2 ((1 + u)/2)."""
        e = weights @ U_rows
        total = float(weights.sum())
        return np.where(self.errors, (total - e) / 2, np.where(self.accuracy, (total + e) / 2, e))

    @property
    def delta_coef(self) -> np.ndarray:
        return np.where(self.errors, -1.0, np.where(self.accuracy, 1.0, 2.0))

    @property
    def lower(self) -> np.ndarray:
        return np.where(self.errors, 0.0, -np.inf)

    @property
    def upper(self) -> np.ndarray:
        return np.where(self.errors, np.inf, 1.0)

    def multipliers(self, y: np.ndarray) -> tuple[np.ndarray, float]:
        """(w, beta) of (2.2) from the row duals y (row 0: sum(d); then one row per column):
        ``w_q = y_q/2`` (error row), ``-y_q/2`` (accuracy row), ``-y_q`` (other)."""
        w_factor = np.where(self.errors, 0.5, np.where(self.accuracy, -0.5, -1.0))
        beta_factor = np.where(self.errors | self.accuracy, -0.5, 0.0)
        return w_factor * y[1:], -float(y[0]) + float(beta_factor @ y[1:])


def sparse_lines(B: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, indices, values) of the nonzeros of B line by line (HiGHS's packed rows of a
    row-wise block, or packed columns of B^T)."""
    nonzero = B != 0.0
    counts = np.count_nonzero(nonzero, axis=1)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    return starts, np.nonzero(nonzero)[1].astype(np.int32), B[nonzero]


def soft_margin_model(N: int, caps: np.ndarray | float | None, options: dict):
    """A HiGHS model of (2.3) in the form of the module docstring, without its edge rows yet:
    columns d_0..d_{N-1} (bounds [0, caps_n]; [0, inf) with ``caps=None``), then
    delta = (1 - gamma)/2 (cost -2, i.e. gamma - 1; free); row 0 is sum(d) = 1 (beta)."""
    h = new_highs(options)
    costs, lower, upper = np.zeros(N + 1), np.zeros(N + 1), np.full(N + 1, np.inf)
    costs[N], lower[N] = -2.0, -np.inf
    if caps is not None:
        upper[:N] = caps
    h.addCols(N + 1, costs, lower, upper, 0, np.zeros(N + 1, dtype=np.int32),
              np.zeros(0, dtype=np.int32), np.zeros(0))
    h.addRow(1.0, 1.0, N, np.arange(N, dtype=np.int32), np.ones(N))
    return h


def add_edge_rows(h, U_new: np.ndarray) -> EdgeRows:
    """One edge row per column of U_new added to a :func:`soft_margin_model`, in the form of
    :class:`EdgeRows` (returned)."""
    rows = EdgeRows.of(U_new)
    starts, index, values = sparse_lines(np.column_stack([rows.coefficients(U_new).T,
                                                          rows.delta_coef]))
    h.addRows(U_new.shape[1], rows.lower, rows.upper, values.size, starts, index, values)
    return rows
