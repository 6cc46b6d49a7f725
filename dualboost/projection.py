"""Entropic (relative-entropy) projection onto the capped simplex, in the log domain.

For log-weights ``log a`` it returns the minimizer of ``KL(d, a / sum a)`` over
``{d : sum d = 1, 0 <= d <= 1/nu}``: ``d_n = min(1/nu, c a_n)`` with the scale c fixed by the
mass (seed 001 §4; thesis §3.2.5, docs/theory.md). Sorting once gives it in O(N log N): cap the
k largest entries for the smallest k whose scaled remainder stays under the cap. The log domain
matters: ERLPBoost's eta reaches thousands and ``exp(-eta s)`` overflows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class CappedProjection:
    d: np.ndarray
    #: log of the scale c of the uncapped part, ``d_n = c a_n`` there
    log_scale: float
    #: boolean mask of the examples at the cap 1/nu
    capped: np.ndarray
    #: ln d, exact where exp(ln d) underflows (``min(log_scale + log_a, ln(1/nu))``)
    log_d: np.ndarray | None = None


def log_sum_exp(x: np.ndarray) -> float:
    """log sum exp(x), shifted by the max (a tenth of scipy's logsumexp's time on 1-D arrays)."""
    top = float(x.max())
    return top + float(np.log(np.exp(x - top).sum()))


def capped_entropic_projection(log_a: np.ndarray, nu: float, rounds: int = 100,
                               cap: np.ndarray | None = None,
                               guess: float | None = None) -> CappedProjection:
    """Project ``a = exp(log_a)`` onto the capped simplex in relative entropy (see module doc).

    ``cap`` (per-example caps, sample weights: docs/theory.md "Sample weights") replaces 1/nu
    by a vector: :func:`vector_capped_entropic_projection`. ``guess``: the log-scale of a
    nearby projection (a master's previous evaluation), tried first (:func:`_guessed_projection`).

    First by fixed point in O(N) per round: scale the uncapped entries to the mass left, cap
    those that now exceed 1/nu, repeat. The capped set only grows and every entry it takes must
    be capped (the scale only rises), so it stops at the sorted method's set, usually in a few
    rounds; after ``rounds`` the O(N log N) sort of :func:`vector_capped_entropic_projection`
    (one cap for all) finishes the job. A round costs a few passes over N, the sort several
    dozen: ERLPBoost on twonorm (nu = 0.2 N) needs 33-35 rounds at N = 3e4 and 1e5, where a
    limit of 30 sent nine calls in ten to the sort (3e4: 13 -> 3 ms per call with 100). The
    exponentials are taken once, shifted by the largest entry (a round is then a masked sum, not
    N exp calls), and again, shifted by the largest uncapped entry, when the uncapped ones fall
    so far below the first shift that their sum would lose digits.
    """
    if cap is not None:
        return vector_capped_entropic_projection(log_a, cap)
    log_a = np.asarray(log_a, dtype=float)
    N = log_a.shape[0]
    log_cap = -math.log(nu)
    if guess is not None and math.isfinite(guess):
        found = _guessed_projection(log_a, nu, log_cap, float(guess))
        if found is not None:
            return found
    capped = np.zeros(N, dtype=bool)
    # a / exp(shift) with shift the largest entry (the largest free entry once the mass left
    # to the free ones gets small); exp is held off subnormal results (they cost about a
    # hundred times a normal exp), which moves entries below e^-700 of the shift by less than
    # 1e-300 of the free mass
    shift = float(log_a.max())
    free = _shifted_exp(log_a, shift)
    k = 0
    for _ in range(rounds):
        if k >= nu:
            break
        free_mass = float(free.sum())
        if not free_mass > 1e-100:
            # the free entries lie far below the capped ones: shift by the largest free one
            shift = float(np.max(log_a, where=~capped, initial=-np.inf))
            free = _shifted_exp(log_a, shift)
            free[capped] = 0.0
            free_mass = float(free.sum())
        c = math.log1p(-k / nu) - shift - math.log(free_mass)
        new = log_a > log_cap - c + 1e-12
        new &= ~capped
        if not new.any():
            d = free * math.exp(c + shift)  # = exp(c) a off the capped set, 0 on it
            np.minimum(d, 1.0 / nu, out=d)  # the 1e-12 slack of the test above
            d += capped * (1.0 / nu)
            if not abs(float(d.sum()) - 1.0) <= 1e-9:  # the floor mattered: do it exactly
                break
            log_d = np.minimum(log_a + c, log_cap)
            return CappedProjection(d=d, log_scale=c, capped=capped, log_d=log_d)
        capped |= new
        # a product with the mask, not free[new] = 0: a boolean scatter over N entries costs
        # about ten times as much (free is finite)
        np.multiply(free, ~new, out=free)
        k = int(np.count_nonzero(capped))
    return vector_capped_entropic_projection(log_a, np.full(N, 1.0 / nu))


def _guessed_projection(log_a: np.ndarray, nu: float, log_cap: float, guess: float,
                        rounds: int = 3) -> CappedProjection | None:
    """The projection from the capped set a guessed scale gives, when it is self-consistent.

    The minimizer is ``d_n = min(1/nu, c a_n)`` with sum 1, so a capped set K whose scale
    c(K) (the free mass scaled to ``1 - |K|/nu``) caps exactly K (every a_n c(K) above the cap
    in K, none outside, with the fixed point's 1e-12 slack) is the answer: the KKT conditions of
    the strictly convex projection hold. From a nearby projection's scale the set is re-read at
    its own scale until it repeats (usually at once: a dozen passes over N where the fixed point
    takes about six rounds of nine); None when it has not settled in ``rounds`` (the caller then
    runs the fixed point)."""
    shift = float(log_a.max())
    scaled = _shifted_exp(log_a, shift)
    capped = log_a > log_cap - guess + 1e-12
    for _ in range(rounds):
        k = int(np.count_nonzero(capped))
        if k >= nu:
            return None
        free = scaled * ~capped
        free_mass = float(free.sum())
        if not free_mass > 1e-100:
            return None
        c = math.log1p(-k / nu) - shift - math.log(free_mass)
        again = log_a > log_cap - c + 1e-12
        if np.array_equal(again, capped):
            break
        capped = again
    else:
        return None
    d = free * math.exp(c + shift)
    np.minimum(d, 1.0 / nu, out=d)
    d += capped * (1.0 / nu)
    if not abs(float(d.sum()) - 1.0) <= 1e-9:
        return None
    log_d = np.minimum(log_a + c, log_cap)
    return CappedProjection(d=d, log_scale=c, capped=capped, log_d=log_d)


def _shifted_exp(log_a: np.ndarray, shift: float) -> np.ndarray:
    """exp(log_a - shift) with the exponent clipped to [-700, 700] (no subnormal or infinite
    results; the callers zero or cap the clipped entries)."""
    x = log_a - shift
    np.clip(x, -700.0, 700.0, out=x)
    return np.exp(x, out=x)


def vector_capped_entropic_projection(log_a: np.ndarray, cap: np.ndarray) -> CappedProjection:
    """The projection onto ``{sum d = 1, 0 <= d <= cap}`` with per-example caps, by sorting.

    The minimizer is ``d_n = min(cap_n, c a_n)`` (stationarity of the KL divergence with the cap
    multipliers), so example n is capped iff ``ln a_n - ln cap_n > -ln c``: the capped set is a
    prefix of the examples sorted by ``ln a_n - ln cap_n`` (largest first). For each prefix k the
    scale is ``c_k = (1 - sum of its caps) / (sum of the other a_n)``; the smallest k whose
    largest uncapped entry fits under its cap is the answer. A cap of 0 (a row of weight 0) sorts
    first and gets d_n = 0."""
    log_a = np.asarray(log_a, dtype=float)
    cap = np.asarray(cap, dtype=float)
    N = log_a.shape[0]
    with np.errstate(divide="ignore"):
        log_cap = np.log(cap)
        ratio = log_a - log_cap  # +inf where cap = 0
    order = np.argsort(-ratio, kind="stable")
    sorted_log = log_a[order]
    with np.errstate(invalid="ignore"):
        # tail[k] = log sum_{i >= k} a_(i); tail[N] = -inf
        tail = np.logaddexp.accumulate(np.append(sorted_log, -np.inf)[::-1])[::-1]
    mass_left = 1.0 - np.concatenate([[0.0], np.cumsum(cap[order])])
    feasible = (mass_left > 0) & np.isfinite(tail)
    log_scale = np.full(N + 1, np.inf)
    log_scale[feasible] = np.log(mass_left[feasible]) - tail[feasible]
    largest = np.append(ratio[order], -np.inf)
    with np.errstate(invalid="ignore"):
        fits = feasible & (log_scale + largest <= 1e-12)
    k = int(np.argmax(fits)) if fits.any() else int(np.flatnonzero(feasible)[-1])
    capped = np.zeros(N, dtype=bool)
    capped[order[:k]] = True
    c = float(log_scale[k])
    log_d = np.minimum(c + log_a, log_cap)
    log_d[capped] = log_cap[capped]
    d = np.exp(log_d)
    d[capped] = cap[capped]
    return CappedProjection(d=d, log_scale=c, capped=capped, log_d=log_d)


def _active_set_projection(x: np.ndarray, cap: np.ndarray, rounds: int = 4
                           ) -> np.ndarray | None:
    """The projection's tau solved exactly on guessed active sets, or None.

    With the examples at 0 (x - tau <= 0) and at their cap (x - tau >= cap) fixed, the mass
    equation sum clip(x - tau, 0, cap) = 1 is linear in tau; when the sets read off at that tau
    are the guessed ones, tau is the root (the mass is monotone). A solver's nearly feasible d
    needs one round from tau = 0 (the bisection took 100 passes over N); None sends the caller
    to the bisection.
    """
    shifted = x  # tau = 0
    for _ in range(rounds):
        upper, lower = shifted >= cap, shifted <= 0.0
        free = ~(upper | lower)
        count = int(np.count_nonzero(free))
        if count == 0:
            return None
        tau = (float(x[free].sum()) + float(cap[upper].sum()) - 1.0) / count
        first, shifted = shifted is x, x - tau
        if np.array_equal(shifted >= cap, upper) and np.array_equal(shifted <= 0.0, lower):
            return np.clip(shifted, 0.0, cap)
        if first and abs(tau) <= 1e-15 * float(cap.max()):
            # x sums to 1 up to round-off: entries exactly at a cap flip sets on a shift of an
            # ulp and the rounds would alternate between two taus an ulp apart
            return np.clip(shifted, 0.0, cap)
    return None


def _bisection_projection(x: np.ndarray, cap, iterations: int = 100) -> np.ndarray:
    """The projection by bisection on tau over the monotone mass ``sum clip(x - tau, 0, cap)``:
    the fallback of :func:`euclidean_capped_projection` when the active sets do not settle."""
    lo, hi = x.min() - np.max(cap), x.max()  # mass(lo) >= sum(caps) >= 1 >= 0 = mass(hi)
    for _ in range(iterations):
        tau = 0.5 * (lo + hi)
        if np.clip(x - tau, 0.0, cap).sum() > 1.0:
            lo = tau
        else:
            hi = tau
    return np.clip(x - 0.5 * (lo + hi), 0.0, cap)


def euclidean_capped_projection(x: np.ndarray, nu: float, iterations: int = 100,
                                cap: np.ndarray | None = None) -> np.ndarray:
    """Euclidean projection of x onto {d : sum d = 1, 0 <= d <= 1/nu}.

    Used to turn a solver's nearly feasible d (entries like -1e-11 or 1/nu + 1e-10) into an exactly
    feasible point before it certifies an upper bound. ``d = clip(x - tau, 0, 1/nu)`` with tau
    solved exactly on the active sets (:func:`_active_set_projection`), or else found by
    bisection on the monotone mass ``sum d(tau)``. ``cap``: per-example caps instead of 1/nu
    (sample weights).
    """
    x = np.asarray(x, dtype=float)
    cap = 1.0 / nu if cap is None else np.asarray(cap, dtype=float)
    exact = _active_set_projection(x, np.broadcast_to(cap, x.shape))
    return exact if exact is not None else _bisection_projection(x, cap, iterations)
