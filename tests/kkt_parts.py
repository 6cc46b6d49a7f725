"""Feasibility and complementarity parts of a KKT residual, shared by the formulation tests."""

from __future__ import annotations

import numpy as np


def feasibility_and_complementarity(f, U, model) -> list[float]:
    """Violations by the solver's (d, w, psi): d on the simplex, w a distribution, psi >= 0,
    w_q > 0 only on maximal edges, and (with caps) d <= 1/nu with psi_n > 0 only at the cap."""
    d, m = model.d.value, model.multipliers()
    edges = U.T @ d
    parts = [abs(d.sum() - 1.0), -d.min(), abs(m.w.sum() - 1.0), -m.w.min(), -m.psi.min(),
             np.max(np.abs(m.w * (edges.max() - edges)))]
    if f.has_caps:
        parts += [(d - 1.0 / f.nu).max(), np.max(np.abs(m.psi * (1.0 / f.nu - d)))]
    return parts
