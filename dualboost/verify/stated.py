"""Rows for the identities a formulation states at its optimum (seed 002 §3.3, §3.5: margins).

A formulation may define ``optimum_identities(U, w, d)``: at an optimal pair (the independent
primal solve's d and the solver's multipliers w of the edge rows, so that the identities test the
pair, not a map applied to itself) it returns a list of :class:`Identity` (both sides of an exact
identity, e.g. AdaBoost-QP's ``var(rho) = N^2 T^2 var(u~)``, the seed's (26) for (41)). Each
becomes a verifier row: it passes when ``|lhs - rhs| <= tol (1 + |lhs| + |rhs|)`` with the
tolerance 100 tol given by the caller (they carry the solver's accuracy).

Kept separate from :mod:`.checks` so that other seeds' identities (AdaBoost-l1's E1-E9) can state
theirs the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Identity", "identity_rows"]


@dataclass(frozen=True)
class Identity:
    """One exact identity at an optimum: ``lhs == rhs`` (numbers or arrays)."""

    id: str
    label: str
    reference: str
    lhs: float | np.ndarray
    rhs: float | np.ndarray


def identity_rows(identities, tol: float):
    """(id, label, reference, value, tolerance, ok, detail) per identity."""
    out = []
    for item in identities:
        lhs = np.atleast_1d(np.asarray(item.lhs, dtype=float))
        rhs = np.atleast_1d(np.asarray(item.rhs, dtype=float))
        diff = float(np.max(np.abs(lhs - rhs), initial=0.0))
        magnitude = float(max(np.max(np.abs(lhs), initial=0.0), np.max(np.abs(rhs),
                                                                        initial=0.0)))
        tolerance = tol * (1.0 + 2.0 * magnitude)
        detail = (f"lhs {lhs[0]:.10g}, rhs {rhs[0]:.10g}" if lhs.size == 1 else
                  f"{lhs.size} entries, largest |lhs| {magnitude:.4g}")
        out.append((item.id, item.label, item.reference, diff, tolerance,
                    bool(np.isfinite(diff) and diff <= tolerance), detail))
    return out
