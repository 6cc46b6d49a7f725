"""The soft-margin LP (2.3) over a fixed column set by sifting: few examples at a time.

At an optimum of

    min_{d, gamma} gamma  s.t.  U^T d <= gamma 1,  sum(d) = 1,  0 <= d <= 1/nu      (thesis (2.3))

all but at most t + 1 of the d_n sit at a bound (0 or the cap 1/nu), and which bound is read off
the margins ``U w`` of the optimal w: the smallest margins are capped, the largest are 0 (the
inner minimization of (2.2) for fixed w). So the LP is solved on a *working set* S of examples
around that threshold with the others fixed at their bound (their contribution moves to the right
hand sides): a small LP with t + 1 rows and |S| + 1 columns. Its row duals (w, beta) price every
example at once, ``z_n = beta + (U w)_n`` (the reduced cost of d_n): a fixed d_n = 0 with
z_n < 0, or a capped one with z_n > 0, joins S and the small LP is solved again. With no violator
left, (d, w, beta, psi = max(0, -z) on the capped ones) satisfies the KKT conditions of the whole
LP: it is optimal. Each round costs one product ``U w`` (O(N t)) plus the small LP, where a
cold simplex on the whole LP pivots over rows of length N (a9a, N = 29,305, t = 78: 2.3 s cold,
under 0.1 s sifted).

This is the classical sifting (sprint) method for LPs with many more columns than rows. Within
one solve the working-set LP is one HiGHS model: entering examples are added as columns (at
d_n = 0) and the right-hand sides updated, and HiGHS continues from its basis (twonorm N = 1e4,
LPBoost, T = 100: 10.9 s with a cold model per round, 6.7 s warm). The edge rows are written
as the LP master writes them (:class:`dualboost.masters.lp_rows.EdgeRows`: a +-1 column on
its error or accuracy set, about half the nonzeros; the multipliers read back per row). The
result is not trusted on its own: the caller certifies it with the formulation's exact bracket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..run_control import current
from .highs_run import HIGHS_OPTIONS, new_highs, pivot_limit, run_optimal
from .lp_rows import EdgeRows, sparse_lines

__all__ = ["SiftedLP", "off_bounds", "sifted_soft_margin_lp"]


@dataclass
class SiftedLP:
    d: np.ndarray
    w: np.ndarray
    psi: np.ndarray
    beta: float
    #: small LPs solved, and the size of the last working set
    rounds: int
    working_set: int
    #: the examples off their bounds (0 < d_n < cap_n): the next working set's core
    support: np.ndarray | None = None
    #: simplex pivots over all rounds (the fit's work count)
    pivots: int = 0


def sifted_soft_margin_lp(U: np.ndarray, nu: float, w_start: np.ndarray | None = None,
                          tol: float = 1e-10, max_rounds: int = 100,
                          batch: int | None = None,
                          caps: np.ndarray | None = None,
                          working_start: np.ndarray | None = None,
                          first_size: int | None = None,
                          crash: bool = False,
                          max_working: int | None = None) -> SiftedLP | None:
    """Solve (2.3) on the columns U by sifting (module docstring); None when it does not settle
    (an LP status other than optimal, or ``max_rounds`` rounds), so the caller solves it whole.

    ``w_start`` (weights on the columns, e.g. a regularized master's w) places the first
    working set; uniform weights otherwise. ``caps``: per-example caps in place of 1/nu (sample
    weights, docs/theory.md "Sample weights"). ``working_start`` (example indices, e.g. the
    previous solve's ``support``) joins the first working set: a column generation master
    re-solves an LP that differs by one column, whose fractional examples are mostly the
    previous ones. ``first_size``: the first working set's size (default 2 (t + 1) + 100, room
    for the t + 1 fractional examples a vertex may have and for the ones a new column moves).
    ``crash``: start the first small LP from a basis guessed from ``w_start`` (:func:`_crash`;
    for a cold solve from a near-optimal w, e.g. a regularized master's). ``max_working``: give up
    (None) once the working set exceeds it: on a degenerate LP (optimum 0, a9a's LPBoost) the
    violators keep entering until the working set is most of the LP, and each round is then a
    warm re-solve of nearly the whole LP (a9a, t = 199: 15 rounds, 16k of 29k examples, 85 s,
    where one dual simplex solve of the whole LP took 12 s)."""
    U = np.asarray(U, dtype=float)
    N, t = U.shape
    if t == 0 or N == 0:
        return None
    cap = np.full(N, min(1.0 / nu, 1.0)) if caps is None else \
        np.minimum(np.asarray(caps, dtype=float), 1.0)
    if w_start is None or np.asarray(w_start).shape != (t,) or not np.all(np.isfinite(w_start)):
        w_start = np.full(t, 1.0 / t)
    margins = U @ np.clip(np.asarray(w_start, dtype=float), 0.0, None)
    order = np.argsort(margins, kind="stable")
    # examples capped by the inner minimum: the smallest margins whose caps sum to at most 1
    threshold = min(int(np.searchsorted(np.cumsum(cap[order]), 1.0 + 1e-12, side="right")), N)
    size = min(N, 2 * (t + 1) + 100 if first_size is None else max(int(first_size), 1))
    start = max(0, min(N - size, threshold - size // 2))
    status = np.zeros(N, dtype=np.int8)  # -1 capped, 0 at zero, 1 working
    status[order[:start]] = -1
    status[order[start:start + size]] = 1
    if working_start is not None and len(working_start):
        status[np.asarray(working_start, dtype=int)] = 1
    batch = size if batch is None else batch
    rows = EdgeRows.of(U)  # the edge rows as HiGHS is given them (sparse on +-1 columns)
    h = None
    in_model = np.zeros(0, dtype=int)  # the examples that are columns of h, in column order
    control = current()  # the run's time limit and progress hook (dualboost.run_control)
    pivots = 0.0  # the rounds' pivots, each weighted by its working set's share of N
    for rounds in range(1, max_rounds + 1):
        if control is not None:
            control.check(f"sifting round {rounds}")
        working = np.flatnonzero(status == 1)
        capped = status == -1
        n_capped = int(np.count_nonzero(capped))
        mass = 1.0 - float(cap[capped].sum())
        if mass < -1e-12 or mass > float(cap[working].sum()) + 1e-12:
            return None  # the fixed part leaves no feasible working set (cannot happen from the
            # placement above; guarded so that a wrong d is never returned)
        # the capped examples' part of each edge row moves to its bounds
        # (over all of U with zero weights off the capped set: a matrix-vector product, where
        # U[capped] copied most of U every round)
        fixed = rows.weighted_sum(U, np.where(capped, cap, 0.0)) if n_capped else np.zeros(t)
        row_lower = np.append(mass, rows.lower - fixed)
        row_upper = np.append(mass, rows.upper - fixed)
        if h is None:
            h = _working_lp(U, rows, cap, working, row_lower, row_upper)
            in_model = working
            if crash:
                _crash(h, margins[working], cap[working], mass, np.asarray(w_start, dtype=float),
                       rows.errors)
        else:
            # the entering examples become columns of the same model (at d_n = 0, whatever
            # they were: HiGHS keeps its basis and repairs it from there), the right-hand sides
            # lose the capped ones that entered
            new = np.setdiff1d(working, in_model, assume_unique=True)
            _add_examples(h, U, rows, cap, new)
            in_model = np.concatenate([in_model, new])
            h.changeRowsBounds(t + 1, np.arange(t + 1, dtype=np.int32), row_lower, row_upper)
        if not run_optimal(h, what=f"HiGHS dual simplex, sifting round {rounds} "
                                   f"({working.size} of {N} examples)"):
            return None
        pivots += int(h.getInfo().simplex_iteration_count) * in_model.size / max(N, 1)
        solution = h.getSolution()
        w, beta = rows.multipliers(np.asarray(solution.row_dual, dtype=float))
        reduced = beta + U @ w  # z_n for every example
        entering = ((status == 0) & (reduced < -tol)) | (capped & (reduced > tol))
        s = in_model.size
        if not entering.any():
            d = np.where(capped, cap, 0.0)
            values = np.asarray(solution.col_value, dtype=float)
            d[in_model] = np.clip(values[1:s + 1], 0.0, cap[in_model])
            at_cap = d >= cap * (1.0 - 1e-12)
            psi = np.where(at_cap, np.clip(-reduced, 0.0, None), 0.0)
            return SiftedLP(d=d, w=w, psi=psi, beta=beta, rounds=rounds, working_set=s,
                            support=off_bounds(d, cap), pivots=int(math.ceil(pivots)))
        # the most violated first, a batch at a time: admitting every violator of a poor first
        # guess makes the working set a large part of the whole LP
        violation = np.where(entering, np.abs(reduced), 0.0)
        count = int(np.count_nonzero(entering))
        batch = max(batch, s)  # at most doubling the working set: few rounds from a poor guess
        if count > batch:
            chosen = np.argpartition(-violation, batch - 1)[:batch]
        else:
            chosen = np.flatnonzero(entering)
        status[chosen] = 1
        if max_working is not None and int(np.count_nonzero(status == 1)) > max_working:
            return None
    return None


def off_bounds(d: np.ndarray, cap: np.ndarray | float) -> np.ndarray:
    """The examples off their bounds (0 < d_n < cap_n, up to relative round-off): an optimal
    vertex's fractional examples, the core of the next solve's working set."""
    return np.flatnonzero((d > cap * 1e-12) & (d < cap * (1.0 - 1e-12)))


def _crash(h, margins: np.ndarray, cap: np.ndarray, mass: float, w: np.ndarray,
           errors: np.ndarray) -> None:
    """A starting basis for the working-set LP guessed from a near-optimal w: the edge rows of
    the columns w weighs (w_q > 1e-3 max w) tight, the others' slacks basic; as many examples
    basic (fractional) as there are tight rows, taken around the margin threshold of w; below
    it capped, above it at zero (the inner minimum of (2.2)). The basis has the t + 1 basic
    variables a vertex needs; HiGHS repairs it where it is singular or infeasible, and the
    answer is certified by the caller either way. A regularized master's w at the output
    (P_LP^T): pima- and australian-sized runs 0.66 -> 0.56 s and 0.32 -> 0.20 s."""
    import highspy

    status = highspy.HighsBasisStatus
    tight = w > 1e-3 * float(w.max(initial=0.0))
    k = int(np.count_nonzero(tight))
    if k > margins.size:
        return
    order = np.argsort(margins, kind="stable")
    # capped from the smallest margin until the mass is spent, k basic around there
    position = int(np.searchsorted(np.cumsum(cap[order]), mass, side="right"))
    first = max(0, min(margins.size - k, position - k // 2))
    columns = np.full(margins.size + 1, status.kLower, dtype=object)
    columns[0] = status.kBasic  # delta = (1 - gamma)/2
    columns[1 + order[:first]] = status.kUpper
    columns[1 + order[first:first + k]] = status.kBasic
    # a tight edge row sits at its lower bound when written on the error set (EdgeRows)
    rows = np.where(tight, np.where(errors, status.kLower, status.kUpper),
                    status.kBasic).astype(object)
    basis = highspy.HighsBasis()
    basis.col_status = list(columns)
    basis.row_status = [status.kLower, *rows]
    basis.valid = True
    h.setBasis(basis)


def _working_lp(U: np.ndarray, rows: EdgeRows, cap: np.ndarray, working: np.ndarray,
                row_lower: np.ndarray, row_upper: np.ndarray):
    """The working-set LP as a HiGHS model: column 0 is delta = (1 - gamma)/2 (cost -2, free;
    its coefficients in the edge rows), then one column per working example (1 in row 0, its
    edge-row coefficients (:meth:`EdgeRows.coefficients`); bounds [0, cap_n])."""
    import highspy

    N, t = U.shape
    inf = highspy.kHighsInf
    h = new_highs({**HIGHS_OPTIONS, "simplex_iteration_limit": pivot_limit(N)})
    h.addRows(t + 1, row_lower, row_upper, 0, np.zeros(t + 1, dtype=np.int32),
              np.zeros(0, dtype=np.int32), np.zeros(0))
    h.addCols(1, np.array([-2.0]), np.array([-inf]), np.array([inf]), t,
              np.array([0], dtype=np.int32), np.arange(1, t + 1, dtype=np.int32),
              rows.delta_coef)
    _add_examples(h, U, rows, cap, working)
    return h


def _add_examples(h, U: np.ndarray, rows: EdgeRows, cap: np.ndarray,
                  examples: np.ndarray) -> None:
    """Columns for the given examples: 1 in row 0, their edge-row coefficients in rows 1..t
    (nonzeros only: an example is in about half the error or accuracy sets)."""
    s = examples.size
    if not s:
        return
    starts, index, values = sparse_lines(np.hstack([np.ones((s, 1)),
                                                    rows.coefficients(U[examples])]))
    h.addCols(s, np.zeros(s), np.zeros(s), cap[examples].astype(float), values.size, starts,
              index, values)
