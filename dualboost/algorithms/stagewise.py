"""Stagewise baselines: AdaBoost (seed 002 (7)) and Arc-Gv ((8), with clipping).

Shen & Li's Algorithm 1 (seed 002 (7), (8); thesis Ch. 1 for AdaBoost): start from d^0 (uniform,
or the prior / normalized sample weights), and at every round t

1. take the hypothesis of largest edge r_t = u^t . d^(t-1) (u^t = y h_t(x), entries in [-1, 1]);
2. give it the weight alpha_t that minimizes ``Z(alpha) = sum_n d_n exp(-alpha (u_n - rho_t))``:

   * AdaBoost (7): rho_t = 0; for +-1 hypotheses alpha_t = (1/2) ln((1 + r_t)/(1 - r_t));
   * Arc-Gv (8): rho_t the minimum normalized margin of the combination so far (rho_1 = 0),
     clipped into (-1, 1); for +-1 hypotheses alpha_t = (1/2) ln((1 + r_t)/(1 - r_t)) -
     (1/2) ln((1 + rho_t)/(1 - rho_t)); then alpha_t is clipped into [0, 1].

   For real-valued hypotheses there is no closed form: alpha_t is the root of the monotone
   ``Z'(alpha) / Z(alpha) = 0``, i.e. ``sum_n d_n v_n exp(-alpha v_n) = 0`` with v = u - rho_t,
   found by a safeguarded Newton method (:func:`line_search`; O(N) per step, in the log domain;
   Newton on the convex ln Z, bisection when a step leaves the bracket). The
   +-1 closed forms are this root (the derivation is one line of algebra), so both cases are
   one step. When no v_n is negative the root is at infinity: Arc-Gv clips it to 1, AdaBoost
   caps it at ALPHA_MAX (the new hypothesis then dominates the normalized combination);
3. ``d_n <- d_n exp(-alpha_t u_n)``, normalized (kept as ln d: no underflow over many rounds).

Every round is O(N) numpy: the edge, the line search, the update of d and of the margins
F = sum_q alpha_q u^q, the minimum margin, the soft margin (a partition, not a sort), and a
hash of the column to recognize a hypothesis chosen again (AdaBoost picks the same stump many
times; it keeps one column per round, and the LP below gets each distinct column once).

These are not convex programs, so there is no master to certify. Instead every round reports
what the totally corrective algorithms would do with the same columns: the record's ``dual`` is
the soft margin (2.2) at the formulation's nu of the normalized weights w_t = alpha / sum(alpha)
(the LP dual (2.2) at w_t, with psi optimal), and its ``primal`` and ``lp_value`` the certified
optimum P_LP^t of the LP (2.3) over the distinct columns seen so far (the LPBoost master on
HiGHS, warm-started from the previous basis: one row per new column,
:class:`dualboost.masters.highs_lp.HighsLPMaster`). Their difference ``duality_gap`` =
P_LP^t - softmargin(w_t) >= 0 (weak duality) is what a totally corrective reweighting of the
same hypotheses would gain. The LP is re-solved only when a new distinct column has arrived (a
round that re-picks a hypothesis keeps the previous value, still the LP over the same columns),
and then every ``lp_every`` rounds at most; by default (``lp_every = 0``) whenever the LP's
re-solves so far plus one more (as long as the last) take no more time than the rest of the run
(the rounds and the oracle), so the bracket about doubles the run's time at most (a re-solve
much longer than the last, and the output's final one, can exceed that). Why not every round: a
round is O(N) plus the oracle, while a re-solve adds a row to a warm dual simplex basis whose
pivots are O(N t) each, and a degenerate LP (optimum 0, as on a9a at nu = 0.1 N) needs many
(benchmarks/stagewise.py, benchmarks/README.md: on a9a a re-solve every round made 200 AdaBoost
rounds about ten times slower). Between re-solves a record's ``primal`` is None. The output
always carries P_LP^T of its columns.

Stopping:

* ``max_iter`` rounds or the time limit (the loop's), the usual stop of a stagewise method;
* at nu = 1 without sample weights (the hard margin), the certified stop of LPBoost's
  Algorithm 2.1 applied to the stagewise weights: ``min_q r_q - softmargin(w_t) <= eps``.
  Each r_q is the best edge under a distribution d^(q-1), an upper bound on the best margin g
  over the whole class (weak duality of (2.2)/(2.3) at nu = 1, where every distribution is
  feasible), so the output then has softmargin(w) >= g - eps (status ``converged``). At nu > 1
  the stagewise d^(q-1) violate the caps d <= 1/nu, their edges bound nothing, and the run
  stops by max_iter or the time limit only (status ``max_iter`` / ``time_limit``);
* when the step is 0 (no hypothesis has a positive edge r_t - rho_t under d^(t-1); for Arc-Gv
  at nu = 1 exactly when the combination's minimum margin reached the best edge, i.e. the LP
  optimum) the run cannot move and stops with status ``converged``; the diagnostics then judge
  the guarantee as for any run (an AdaBoost stop at r_t <= 0 is reported ``converged_vacuous``).

The record's ``edge`` is r_t at nu = 1 and NaN at nu > 1 (an uncapped d^(t-1)'s edge is no bound
on g there, and the guarantee diagnostics and the plot read the edges as bounds);
``delta_simple`` is the stop's ``min_q r_q - softmargin(w_t)`` at nu = 1, else NaN.

Only formulations whose primal value is the LP (2.3) (``lpboost``) run these algorithms: the
reported bracket is that LP's. Its ``nu`` (and sample weights) set the soft margin reported.
"""

from __future__ import annotations

import math
import time

import numpy as np
from scipy.special import logsumexp

from ..margins import lp_slacks, soft_margin
from ..params import Param
from ..result import IterationRecord
from .base import Algorithm, Output

__all__ = ["AdaBoost", "ArcGv", "line_search", "fast_soft_margin"]

#: AdaBoost's step when the line search's root is at infinity (no example has u_n < 0): the new
#: hypothesis dominates the normalized combination (1e-6 relative weight left to the others
#: after a typical run's sum(alpha) of a few hundred at most)
ALPHA_MAX = 1e8

#: lp_every = 0 (auto): the LP's re-solves may take this share of the run's other time
LP_SHARE = 1.0

LP_EVERY = Param(
    "lp_every", "re-solve the LP (2.3) over the distinct columns seen so far (the certified "
    "bracket beside the stagewise soft margin) when a new column arrived, at most every this "
    "many rounds; 0: as often as keeps the LP's time within the rounds' own time (at most "
    "doubles the run)", kind="int", default=0, low=0)


def _is_pm_one(u: np.ndarray) -> bool:
    return bool(np.all(np.abs(u) == 1.0))


def line_search(u: np.ndarray, log_d: np.ndarray, rho: float = 0.0) -> float:
    """alpha minimizing ``sum_n d_n exp(-alpha (u_n - rho))`` over alpha >= 0 (d = exp(log_d),
    normalized or not): 0 when the shifted edge ``d.(u - rho)`` is <= 0, ``inf`` when no
    ``u_n - rho`` is negative (where d_n > 0), the closed form of seed 002 (7)/(8) for +-1
    columns with |rho| < 1, else the root of the decreasing ``g(alpha) = sum d v exp(-alpha v)``
    by Newton's method on ln Z in a bisection bracket. O(N) numpy per step, stable in the log
    domain."""
    u = np.asarray(u, dtype=float)
    v = u - rho
    weights = np.exp(log_d - log_d.max())  # d up to a positive factor
    edge = float(weights @ v)
    if not edge > 0.0:
        return 0.0
    if not np.any((v < 0.0) & (weights > 0.0)):
        return math.inf
    if _is_pm_one(u) and -1.0 < rho < 1.0:
        r = float(weights @ u) / float(weights.sum())
        if r >= 1.0:
            return math.inf
        return 0.5 * (math.log1p(r) - math.log1p(-r)) - 0.5 * (math.log1p(rho) - math.log1p(-rho))
    # Newton on the convex phi(alpha) = ln sum d e^{-alpha v}: phi' = -E_p[v], phi'' = Var_p[v]
    # (p = the softmax of ln d - alpha v), safeguarded by a bracket [low, high] of the root of
    # E_p[v]; about 5-8 passes over the examples instead of Brent's ~40
    def moments(alpha: float) -> tuple[float, float]:
        exponent = log_d - alpha * v
        p = np.exp(exponent - exponent.max())
        p /= p.sum()
        mean = float(p @ v)
        return mean, float(p @ (v - mean) ** 2)

    low, high = 0.0, 1.0
    mean, var = moments(high)
    while mean > 0.0:
        low, high = high, 2.0 * high
        if high > ALPHA_MAX:
            return math.inf
        mean, var = moments(high)
    alpha = 0.5 * (low + high)
    scale = float(np.abs(v).max())
    for _ in range(100):
        mean, var = moments(alpha)
        if abs(mean) <= 1e-15 * scale:
            break  # the root within round-off
        if mean > 0.0:
            low = alpha
        else:
            high = alpha
        if high - low <= 1e-15 * max(1.0, high):
            break
        step = alpha + mean / var if var > 0.0 else math.nan
        # a Newton step that leaves the bracket is replaced by bisection
        alpha = step if low < step < high else 0.5 * (low + high)
    return float(alpha)


def fast_soft_margin(margins: np.ndarray, nu: float,
                     sample_weight: np.ndarray | None = None) -> float:
    """The soft margin (2.2) at nu: the average of the nu smallest margins (the fractional part
    of nu weighting the next), by a partition (O(N)); with sample weights the sorted rule of
    :func:`dualboost.margins.soft_margin`."""
    margins = np.asarray(margins, dtype=float)
    if sample_weight is not None:
        return soft_margin(margins, nu, sample_weight)
    n = margins.size
    k = min(int(math.floor(nu + 1e-12)), n)
    if k >= n:
        return float(margins.mean())
    part = np.partition(margins, k)  # the k smallest first, the (k+1)-th at index k
    return float((part[:k].sum() + (nu - k) * part[k]) / nu)


class _Stagewise(Algorithm):
    """The round of Algorithm 1 (module docstring); subclasses give the shift rho_t and clip."""

    params = (LP_EVERY,)
    clip_high: float = math.inf

    @classmethod
    def unsupported(cls, formulation):
        f = formulation if isinstance(formulation, type) else type(formulation)
        if f.capabilities.primal_form != "lp":
            return ("a stagewise baseline reports its soft margin against the soft-margin LP "
                    "(thesis (2.3)) over its columns; use a formulation whose primal is that LP "
                    "(lpboost)")
        return None

    #: max_iter rounds is the usual stop of a stagewise method (ROUNDS_COMPLETED, finished)
    rounds_are_the_plan = True

    def __init__(self, formulation, **kwargs):
        super().__init__(formulation, **kwargs)
        self.started = time.perf_counter()
        f = self.formulation
        self.nu = float(getattr(f, "nu", 1.0))
        self.sample_weight = getattr(f, "sample_weight", None)
        with np.errstate(divide="ignore"):
            self.log_d = np.log(self.d)
        self.alphas: list[float] = []
        self.F = np.zeros(self.N)  # sum_q alpha_q u^q (unnormalized margins)
        self.min_edge = math.inf
        # the LP (2.3) over the distinct columns: one HiGHS model kept across the run
        self.master = f.fast_master() if self.master_choice == "auto" else None
        self.distinct: dict[bytes, int] = {}
        self.D = np.empty((self.N, 0))
        self._distinct_buffer = np.empty((self.N, 16), order="F")
        self.lp_cert = None
        self.lp_columns = 0  # distinct columns in the last LP solve
        self.last_lp_round = 0
        self.lp_seconds = self.last_lp_seconds = 0.0
        # the certified whole-class stop exists at the hard margin without caps only
        self.certified_stop = self.nu == 1.0 and self.sample_weight is None

    # -- the shift of the line search ---------------------------------------------------------
    def shift(self, t: int) -> float:
        return 0.0

    # -- the LP over the distinct columns ------------------------------------------------------
    def _add_distinct(self, u: np.ndarray) -> None:
        key = u.tobytes()
        if key in self.distinct:
            return
        k = self.D.shape[1]
        if self._distinct_buffer.shape[1] <= k:
            grown = np.empty((self.N, 2 * self._distinct_buffer.shape[1]), order="F")
            grown[:, :k] = self.D
            self._distinct_buffer = grown
        self._distinct_buffer[:, k] = u
        self.D = self._distinct_buffer[:, :k + 1]
        self.distinct[key] = k

    def _solve_lp(self, record: IterationRecord | None = None) -> None:
        """P_LP over the distinct columns (the warm HiGHS master, else the reference path)."""
        f = self.formulation
        D = self.D
        tick = time.perf_counter()
        if self.master is not None:
            solved = self.master.solve(D, self.gap_tol)
            cert = solved.certificate
            path, solver, status = (solved.path or self.master.path, solved.solver,
                                    solved.status)
        else:
            _, cert, solve_record = f.solve_primal(D, self.gap_tol, solver=self.solver)
            path, solver, status = "reference", solve_record.solver, solve_record.status
        self.lp_cert, self.lp_columns = cert, D.shape[1]
        seconds = time.perf_counter() - tick
        self.lp_seconds += seconds
        self.last_lp_seconds = seconds
        if record is not None:
            record.path, record.solver, record.status = path, solver, status
            record.master_seconds += seconds

    def _lp_due(self, t: int) -> bool:
        if self.D.shape[1] <= self.lp_columns:
            return False  # no new column: the last LP is still the LP over these columns
        if self.lp_cert is None:
            return True
        if self.lp_every > 0:
            return t - self.last_lp_round >= self.lp_every
        # auto: the LP's time so far plus the next re-solve's (predicted by the last one's)
        # within LP_SHARE of the rest of the run's time (rounds and oracle)
        elapsed = time.perf_counter() - self.started
        return self.lp_seconds + self.last_lp_seconds <= LP_SHARE * (elapsed - self.lp_seconds)

    # -- one round -----------------------------------------------------------------------------
    def weights(self) -> np.ndarray:
        alphas = np.asarray(self.alphas, dtype=float)
        total = float(alphas.sum())
        if total > 0:
            return alphas / total
        return np.full(alphas.size, 1.0 / alphas.size) if alphas.size else alphas

    def normalized_margins(self) -> np.ndarray:
        total = float(np.sum(self.alphas))
        if total > 0:
            return self.F / total
        # all steps 0 so far: the uniform combination of the columns
        return self.U.mean(axis=1) if self.U.shape[1] else np.zeros(self.N)

    def step(self, t, u, may_solve):
        tick = time.perf_counter()
        u = np.asarray(u, dtype=float)
        edge = float(u @ self.d)
        # the record's edge is read as an upper bound on the best soft margin g (the guarantee
        # diagnostics, the plot's running minimum): true at nu = 1 only, where every
        # distribution is feasible; at nu > 1 (or with sample weights' caps) it is not recorded
        record = IterationRecord(t=t, edge=edge if self.certified_stop else math.nan,
                                 primal_before=math.nan, delta_simple=math.nan,
                                 delta_practical=math.nan, oracle_seconds=0.0)
        if not may_solve:
            return record
        self.min_edge = min(self.min_edge, edge)
        rho = self.shift(t)
        alpha = min(line_search(u, self.log_d, rho), self.clip_high, ALPHA_MAX)
        # the round is kept (one column per round, repeats included): its hypothesis joins the
        # output with weight alpha (possibly 0 when the run cannot move)
        self.U = self.extended(u)
        self.alphas.append(alpha)
        self._add_distinct(u)
        if alpha > 0.0:
            self.F += alpha * u
            self.log_d = self.log_d - alpha * u
            self.log_d -= logsumexp(self.log_d)
            self.d = np.exp(self.log_d)
        margins = self.normalized_margins()
        margin = fast_soft_margin(margins, self.nu, self.sample_weight)
        record.master_seconds = time.perf_counter() - tick
        if self._lp_due(t):
            self._solve_lp(record)
            self.last_lp_round = t
        else:
            record.path = "stagewise"
        record.solved = True
        record.dual = margin
        if self.lp_cert is not None and self.lp_columns == self.D.shape[1]:
            # the LP over exactly the columns seen so far: a certified bracket of its optimum
            record.primal = record.lp_value = float(self.lp_cert.primal_value)
            record.duality_gap = record.primal - margin
        if self.certified_stop:  # the stop's quantity (LPBoost's Alg. 2.1 rule)
            record.delta_simple = record.delta_practical = self.min_edge - margin
        self._check_stop(t, alpha, rho, margin)
        return record

    def _check_stop(self, t: int, alpha: float, rho: float, margin: float) -> None:
        eps = float(getattr(self.formulation, "eps", 0.01))
        if self.certified_stop and self.min_edge - margin <= eps:
            self.done, self.status = True, "converged"
            self.message = (f"min_q r_q - soft margin = {self.min_edge - margin:.3g} <= eps = "
                            f"{eps:g} (nu = 1: every r_q bounds the best margin g, so the "
                            f"output's margin is >= g - eps); T = {t}")
        elif alpha <= 0.0:
            self.done, self.status = True, "converged"
            self.message = (f"round {t}: the best hypothesis has no positive edge r_t - rho_t "
                            f"= {float(self.U[:, -1] @ self.d) - rho:.3g} under d^(t-1), so "
                            f"the step {self.equation} is 0 and the run cannot move; T = {t}")

    def output(self) -> Output:
        if self.U.shape[1] == 0:
            raise RuntimeError("the stagewise run took no round")
        if self.lp_cert is None or self.lp_columns < self.D.shape[1]:
            self._solve_lp()  # the final columns' P_LP^T (the output always carries it)
        w = self.weights()
        margins = self.normalized_margins()
        caps = self.formulation.cap_vector
        margin = fast_soft_margin(margins, self.nu, self.sample_weight)
        psi = lp_slacks(margins, self.nu, caps) if (self.nu > 1 or caps is not None) \
            else np.zeros(self.N)
        point = {"w": w, "psi": psi, "beta": -margin}
        lp_value = float(self.lp_cert.primal_value)
        total = float(np.sum(self.alphas))
        self.message = (f"{self.message}; sum of the stagewise weights 1^T alpha = "
                        f"{total:.6g} (Shen & Li's T = 1/1^T alpha = "
                        f"{(1.0 / total if total > 0 else math.inf):.3g}); soft margin "
                        f"{margin:.6g} vs P_LP^T = {lp_value:.6g} over the same "
                        f"{self.D.shape[1]} distinct hypotheses")
        return Output(weights=w, point=point, d=self.d, primal_objective=lp_value,
                      dual_objective=margin, lp_value=lp_value, kept=self.U.shape[1],
                      stopping="stagewise")

    @property
    def equation(self) -> str:
        return "(7)"


class AdaBoost(_Stagewise):
    """Stagewise AdaBoost, seed 002 (7) / Algorithm 1 (thesis Ch. 1): the exact line search of
    the exponential loss at every round (closed form for +-1 hypotheses)."""

    name = "adaboost"
    summary = "stagewise AdaBoost (7), line search; its soft margin vs the LP over its columns"
    reference = "Shen & Li (7), Algorithm 1"
    #: what ``dualboost fit --algorithm adaboost`` fits without --formulation: the soft-margin
    #: LP its soft margin is reported against (erlpboost, the general default, it cannot run)
    default_formulation = "lpboost"


class ArcGv(_Stagewise):
    """Arc-Gv, seed 002 (8) / Algorithm 1: AdaBoost's line search shifted by the minimum
    normalized margin rho_t of the combination so far (rho_1 = 0), the step clipped into
    [0, 1]; it converges to the hard-margin LP (20) optimum (Breiman)."""

    name = "arc_gv"
    summary = "Arc-Gv (8): AdaBoost shifted by the minimum margin, step clipped into [0, 1]"
    reference = "Shen & Li (8), Algorithm 1"
    clip_high = 1.0
    #: what ``dualboost fit --algorithm arc_gv`` fits without --formulation (see AdaBoost)
    default_formulation = "lpboost"

    def shift(self, t: int) -> float:
        if not self.alphas or float(np.sum(self.alphas)) <= 0.0:
            return 0.0
        # the minimum normalized margin, clipped into (-1, 1): at +-1 the closed form's
        # ln((1 + rho)/(1 - rho)) is infinite (seed 002 Algorithm 1, (7), (8), implementation note)
        rho = float(self.normalized_margins().min())
        return min(max(rho, -1.0 + 1e-12), 1.0 - 1e-12)

    @property
    def equation(self) -> str:
        return "(8)"
