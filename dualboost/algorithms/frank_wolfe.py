"""Frank-Wolfe on the smoothed soft margin (``fw``) and MLPBoost (``mlpboost``), seed 003.

The problem (seed 003 §3.3; thesis (3.6)/(3.10) over the whole class): with the relative entropy
``Delta(d) = sum_n d_n ln(d_n / d0_n)`` on the capped simplex ``{sum d = 1, 0 <= d <= cap}``
(``cap = 1/nu``, or the per-example caps of sample weights) and the smoothing weight eta,

    D(w) = min_d  d.(U w) + (1/eta) Delta(d)          (the smoothed soft margin, maximized over
                                                       w on the simplex over all hypotheses)
    S(w) = min_d  d.(U w)                             (the soft margin (2.2): AvgMin_nu)
    S(w) <= D(w) <= S(w) + B/eta,   B = max_n ln(cap_n / d0_n)  (= ln(N/nu) for uniform d0)

D is concave and eta-smooth w.r.t. the sup norm of the margins (Delta is 1-strongly convex in l1,
Pinsker), its gradient is ``U^T d(w)`` with ``d(w)`` the capped entropic projection of
``d0 exp(-eta U w)`` (:mod:`dualboost.projection`, O(N log N)), so maximizing it over the simplex
is a Frank-Wolfe problem whose linear step is the weak learner: the hypothesis of largest edge
under d(w) (seed 003 §3.3.2). At weights w with margins z = U w and d = d(w):

* the FW gap ``g = u.d - d.z`` (u the oracle's column) bounds the smoothed sub-optimality:
  ``D* - D(w) <= g`` (seed 001 Lemma 11), and ``P(d) = u.d + Delta(d)/eta >= D*``;
* every oracle edge ``u.d`` is at a capped d, so it bounds the best soft margin g* over the class
  from above (weak duality of (2.2)/(2.3)); with the soft margin of the current weights this is a
  certified bracket ``S(w) <= g* <= min_tau edge_tau`` at every step (recorded as
  ``margin_lower``/``margin_upper``; their difference is ``certified_gap``; the FW gap and the
  step's numbers are in ``diagnostics``).

The steps (``step``), from w_k with FW direction ``a = u - z`` in margin space, ``L = ||a||_inf``:

* ``classic``: ``lambda = 2/(k + 2)`` (k = 1 at the first iterate, w_1 = e_{j_1}).
* ``short``: ``lambda = clip(g / (eta L^2), 0, 1)``, the maximizer of the descent lemma's
  quadratic ``lambda g - eta lambda^2 L^2 / 2`` (seed 003 Alg. 4; seed 001 Figure 1; C-ERLPBoost).
* ``line_search``: the exact maximizer of ``D(w + lambda (e_j - w))`` over [0, 1]. D is concave
  along the segment with slope ``s(lambda) = d(lambda).a``, non-increasing; the root of s is
  found by Newton steps safeguarded by the bracket (``s' = -eta Var_free(a)`` on the uncapped
  examples), each step one projection.
* ``pairwise``: the weight moves from the away atom (the active hypothesis of smallest edge)
  to the FW atom, ``w + lambda (e_j - e_away)`` with lambda in [0, w_away] by the same exact
  line search (seed 003 Alg. 3). A pairwise step that is truncated at w_away can make little
  progress (an interior one too: its segment is not the FW direction), and plain pairwise FW
  has no iteration bound of this form; so a pairwise step is taken only when its progress is at
  least the short step's guaranteed progress ``q = lambda_s g - eta lambda_s^2 L^2 / 2``, else
  the FW line-search step is (``fw-safeguard``; it gains at least q). Measured on breast
  cancer, nu = 0.05 N, eps = 0.01: 623 of 4769 steps fell back, and with the short step as the
  fallback the run had not stopped after 5000.

**The authors' line-search error** (seed 003 §3.2.2's line search as coded in the authors' crate
``miniboosts``, ``src/common/frank_wolfe.rs``, functions ``line_search`` and
``blended_pairwise``): their distribution is ``d ∝ exp(-eta margin)``, so the slope
``d(lambda).A v`` is the derivative of the smoothed soft margin along v, positive where the
optimum lies to the right. Their bisection moves the *upper* end of the bracket when the slope is
positive and takes the full step when the slope at the end is ``<= 0``: both reversed, so the
search runs to an end of the interval (0 or the full step), not to the maximizer; the full-step
test also evaluates d at the margins ``A (e_h - w)`` of the direction instead of those of the
end point ``A e_h``. Here the bracket keeps ``s(lo) > 0 > s(hi)``, the full step is taken only
when ``s(lambda_max) >= 0`` and no step when ``s(0) <= 0``; claim FW2 checks the slope's sign
at every line-search step of a run (a variant with the reversed update fails it: tests).

``mlpboost`` (seed 003 Algorithm 2): the FW step (``step``; default pairwise, MLPB (PFW), the
faster of the paper's two on german: benchmarks/README.md) and
LPBoost's secondary step, the LP (2.3) over the hypotheses kept so far (HiGHS, warm-started from
the previous basis: :class:`dualboost.masters.highs_lp.HighsLPMaster`); the iterate is the
better of the two by D (an "LP update" when the LP wins). The LP is re-solved only when the set
of kept hypotheses grew.

Stopping (``stopping``): ``certified`` (default) stops when ``min_tau edge_tau - S(w) <= eps``,
so the output's soft margin is certified within eps of the best over the class; ``source`` is
seed 003 §3.3.1's rule ``min_tau edge_tau - D(w) <= eps/2``, whose guarantee S(w) >= g* - eps
needs ``B/eta <= eps/2`` (the default eta). Since ``min edge - S(w) <= g - Delta(d)/eta + B/eta``,
the certified rule fires once ``g <= delta = eps - B/eta`` (eps/2 at the default eta) and the
source rule once ``g <= eps/2``.

**Iteration bound** (claim FW4; docs/frank_wolfe.md). For the short step, the line search, the
safeguarded pairwise step and MLPBoost every step gains at least ``q >= g^2 / (8 eta)`` (L <= 2,
eta >= 1), and with ``D* - D(w_1) <= 2 <= 4 eta`` seed 001 Lemma 20 gives
``D* - D(w_k) <= 8 eta / (k + 1)``; if the stop has not fired during K steps (every g > delta),
the second half of them gains ``> (K/2) delta^2 / (8 eta)`` but at most ``8 eta / (K/2 + 1)``,
so ``K < 16 eta / delta`` (seed 001 §3.7's corrected argument; at the default eta and the certified
rule ``32 eta / eps = 64 B / eps^2``). For the classic step Jaggi's (2013) Theorem 2 with the
curvature constant ``C <= 4 eta`` gives a gap ``<= 27 C / (4 (K + 2))`` within K steps, so
``K < 27 eta / delta``.

Each step costs one oracle call, one capped entropic projection and one soft margin (a sort),
O(N log N); the line search adds a projection per Newton step, ``pairwise`` the edges of the
active hypotheses (O(N k)); ``mlpboost`` adds its warm LP solve. The margins ``z = U w`` are
kept incrementally (recomputed every ``REFRESH`` steps against drift). A hypothesis the oracle
returns again is not added a second time (``Algorithm.new_column``; ``diagnostics["reused"]``):
the output keeps each distinct column once.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..errors import DualBoostInputError
from ..margins import soft_margin
from ..params import Param
from ..projection import log_sum_exp, vector_capped_entropic_projection
from ..result import IterationRecord
from .base import Algorithm, Claim, Output

#: the margins z = U w are recomputed from the weights every this many steps (round-off of the
#: incremental updates, O(N k) each time)
REFRESH = 200

#: the line search stops once the slope d(lambda).a is within this of 0 (relative to ||a||_inf)
SLOPE_TOL = 1e-11

#: the step rules and the constant c of their iteration bound K < c eta / delta (module doc)
STEP_RULES = ("classic", "short", "line_search", "pairwise")
BOUND_FACTOR = {"classic": 27.0, "short": 16.0, "line_search": 16.0, "pairwise": 16.0}

STOPPING_RULES = ("certified", "source")


def _choice(values: tuple[str, ...]):
    def check(value, N, resolved):
        return None if value in values else f"must be one of {values}, got {value!r}"
    return check


def _step_param(default: str) -> Param:
    return Param("step", "Frank-Wolfe step: classic 2/(k+2), short (the descent lemma's "
                 "maximizer, seed 003 Alg. 4), line_search (exact, on the smoothed objective), "
                 "pairwise (away atom to FW atom, exact line search, seed 003 Alg. 3)",
                 kind="str", default=default, check=_choice(STEP_RULES))


FW_STOPPING = Param("stopping", "certified: stop when min edge - soft margin(w) <= eps (a "
                    "certified bracket); source: seed 003 §3.3.1's min edge - D(w) <= eps/2",
                    kind="str", default="certified", check=_choice(STOPPING_RULES))

FW_ETA = Param("eta", "smoothing weight of the smoothed soft margin (1/eta) Delta(d, d0); with "
               "erlpboost it is the formulation's eta", low=0, low_open=True,
               default_text="the formulation's eta (erlpboost), else max(2 B/eps, 1/2), B = "
                            "ln(N/nu)")


#: the default max_iter of fw and mlpboost (FrankWolfe.default_max_iter)
FW_MAX_ITER = 20_000


@dataclass
class SmoothedPoint:
    """d(w), the smoothed value D(w) and Delta(d) at margins z (see the module docstring)."""

    d: np.ndarray
    free: np.ndarray  # the examples below their cap
    value: float
    entropy: float


class SmoothedSoftMargin:
    """The smoothed soft margin at one eta: d(z) by the capped entropic projection of
    ``d0 exp(-eta z)``, ``D = d.z + Delta(d)/eta``, and the exact line search along a direction.

    The projection is ``d_n = min(cap_n, s a_n)`` with the scale s fixed by ``sum d = 1``
    (:mod:`dualboost.projection`). The mass ``m(s) = sum_n min(cap_n, s a_n)`` is concave,
    piecewise linear and increasing in s, so Newton's method on ``m(s) = 1`` converges from any
    start (from the right it first jumps left of the root, from the left it increases
    monotonically) and ends exactly once the capped set stops changing; started from the scale
    of the previous call (the margins move little between calls), it takes one to three O(N)
    passes where the sort costs O(N log N). A pass that would leave s > 0 (too many entries
    capped at the start) hands over to the sort (:func:`vector_capped_entropic_projection`)."""

    def __init__(self, eta: float, nu: float, has_caps: bool, caps: np.ndarray | None,
                 d0: np.ndarray):
        self.eta = float(eta)
        N = len(d0)
        self.d0 = np.asarray(d0, dtype=float)
        self.log_d0 = np.log(self.d0)
        if not has_caps:
            cap = np.ones(N)  # no cap block: d <= 1 is implied by the simplex
        else:
            cap = np.full(N, 1.0 / float(nu)) if caps is None else np.asarray(caps, float)
        self.cap = np.minimum(cap, 1.0)
        #: the common cap when all are equal (no sample weights), else None
        self.cap_value = float(self.cap[0]) if np.all(self.cap == self.cap[0]) else None
        with np.errstate(divide="ignore"):
            self.log_cap = np.log(self.cap)
        self.log_scale: float | None = None  # ln s of the last projection (the warm start)
        self.evaluations = 0

    def project(self, log_a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(d, ln d, free mask) of the capped entropic projection of exp(log_a)."""
        c = self.log_scale if self.log_scale is not None else -log_sum_exp(log_a)
        for _ in range(60):
            x = log_a + c
            np.minimum(x, self.log_cap, out=x)
            np.maximum(x, -700.0, out=x)  # no subnormal exp (their mass is below 1e-300)
            capped = x >= self.log_cap
            e = np.exp(x)  # = the cap on the capped entries (x was clipped there)
            # plain sums and counts: numpy's masked reductions (sum(where=)) are several times
            # slower than a full pass (a9a: 0.27 ms each)
            total = float(e.sum())
            capped_mass = (np.count_nonzero(capped) * self.cap_value if self.cap_value
                           else float(self.cap[capped].sum()))
            free_mass = total - capped_mass
            if abs(total - 1.0) <= 1e-13 and free_mass > 0:
                # the last piece: rescale the free part to the exact mass left
                scale = (1.0 - capped_mass) / free_mass
                d = np.where(capped, self.cap, e * scale)
                log_d = np.where(capped, self.log_cap, x + math.log(scale))
                self.log_scale = c + math.log(scale)
                return d, log_d, ~capped
            ratio = 1.0 + (1.0 - total) / free_mass if free_mass > 0 else -1.0
            if not ratio > 0:
                break
            c += math.log(ratio)
        proj = vector_capped_entropic_projection(log_a, self.cap)
        self.log_scale = proj.log_scale if math.isfinite(proj.log_scale) else None
        return proj.d, proj.log_d, ~proj.capped

    def at(self, z: np.ndarray) -> SmoothedPoint:
        self.evaluations += 1
        d, log_d, free = self.project(self.log_d0 - self.eta * z)
        entropy = max(float(d @ (log_d - self.log_d0)), 0.0)  # Delta >= 0 (round-off at d0)
        return SmoothedPoint(d=d, free=free, value=float(d @ z) + entropy / self.eta,
                             entropy=entropy)

    def _newton(self, lam: float, s: float, point: SmoothedPoint, a: np.ndarray) -> float:
        """lam - s / s'(lam) with ``s' = -eta (sum_free d a^2 - (sum_free d a)^2 / sum_free d)``
        (the capped examples fixed, the free mass constant); nan when s' = 0."""
        free = point.free.astype(float)  # dot products with a 0/1 vector (BLAS), see project
        da = point.d * a
        mass = float(point.d @ free)
        first = float(da @ free)
        var = float((da * a) @ free) - (first * first / mass if mass > 0 else 0.0)
        return lam + s / (self.eta * var) if var > 0 else math.nan

    def line_search(self, z: np.ndarray, a: np.ndarray, lam_max: float, start: SmoothedPoint
                    ) -> tuple[float, SmoothedPoint]:
        """The maximizer of D(z + lambda a) over [0, lam_max] and its point.

        The slope ``s(lambda) = d(lambda).a`` is non-increasing (D is concave along the line):
        no step when s(0) <= 0, the full step when s(lam_max) >= 0, else the root of s inside,
        by Newton steps (:meth:`_newton`) from lambda = 0, kept inside the bracket
        ``s(lo) > 0 > s(hi)`` (the end lam_max is evaluated when a step passes it, the
        bisection point is taken when a step leaves a closed bracket). The authors' crate moves
        the bracket the other way (module docstring)."""
        scale = max(float(np.abs(a).max()), 1e-300)
        s0 = float(start.d @ a)
        if s0 <= SLOPE_TOL * scale:
            return 0.0, start
        lo, hi, closed = 0.0, lam_max, False  # closed: s(hi) < 0 is known
        lam = self._newton(0.0, s0, start, a)
        if not 0.0 < lam < lam_max:
            lam = lam_max
        point = start
        for _ in range(100):
            point = self.at(z + lam * a)
            s = float(point.d @ a)
            if lam >= lam_max and s >= 0.0:
                return lam_max, point
            if abs(s) <= SLOPE_TOL * scale:
                break
            if s > 0:
                lo = lam
            else:
                hi, closed = lam, True
            if hi - lo <= 4 * np.finfo(float).eps * max(hi, 1e-300):
                break
            nxt = self._newton(lam, s, point, a)
            if not lo < nxt < hi:
                nxt = 0.5 * (lo + hi) if closed else hi
            lam = nxt
        return lam, point


def fast_soft_margin(z: np.ndarray, nu: float, sample_weight: np.ndarray | None) -> float:
    """The soft margin (2.2) of margins z, the average of the nu smallest, by a partition (O(N))
    instead of a sort; with sample weights :func:`dualboost.margins.soft_margin`."""
    N = z.shape[0]
    k = min(int(math.floor(nu + 1e-12)), N)
    if sample_weight is not None or k >= N:
        return soft_margin(z, nu, sample_weight)
    part = np.partition(z, k)  # part[k] is the (k+1)-th smallest, the k smallest before it
    rest = 1.0 - k / nu
    return float(part[:k].sum() / nu + (rest * part[k] if rest > 0 else 0.0))


def _class_of(formulation) -> type:
    return formulation if isinstance(formulation, type) else type(formulation)


def _smoothing_setup(formulation) -> tuple[np.ndarray, float]:
    """(d0, B) of the smoothed problem: the formulation's prior (erlpboost) or the uniform one
    (the sample weights' s / sum s), and B = max_n ln(cap_n / d0_n)."""
    f = formulation
    N = f.N
    d0 = getattr(f, "d0", None)
    if d0 is None:
        weights = getattr(f, "sample_weight", None)
        d0 = np.full(N, 1.0 / N) if weights is None else weights / weights.sum()
    d0 = np.asarray(d0, dtype=float)
    caps = f.cap_vector if f.cap_vector is not None else np.full(N, 1.0 / float(f.nu))
    B = float(np.max(np.log(np.minimum(caps, 1.0) / d0)))
    return d0, max(B, 0.0)


def default_smoothing_eta(eps: float, B: float) -> float:
    """eta = max(2 B / eps, 1/2): seed 003's 2 ln(N/nu)/eps (thesis §3.2.5), at least 1/2."""
    return max(2.0 * B / eps, 0.5)


class FrankWolfeAlgorithm(Algorithm):
    """Frank-Wolfe on the smoothed soft margin (module docstring)."""

    name = "fw"
    summary = ("Frank-Wolfe on the smoothed soft margin (classic, short, line_search, pairwise "
               "steps); certified bracket at every step, stop when it is <= eps")
    reference = "seed 003 Algorithms 2-4 (Frank-Wolfe boosting); seed 001 Figure 1"
    params = (_step_param("pairwise"), FW_STOPPING, FW_ETA)
    #: whether the LP secondary step runs (MLPBoost)
    secondary = False

    @classmethod
    def unsupported(cls, formulation):
        from ..registry import shipped

        klass = _class_of(formulation)
        if klass.name not in ("erlpboost", "lpboost") or \
                not issubclass(klass, (shipped("erlpboost"), shipped("lpboost"))):
            return ("it runs the smoothed soft margin of erlpboost (its eta) or of lpboost (eta "
                    "= 2 ln(N/nu)/eps); other formulations have another problem")
        return None

    def __init__(self, formulation, *, guarantee_check: bool = True, **kwargs):
        super().__init__(formulation, **kwargs)
        #: stop early when the eps-guarantee is certified empty or weak (_check_guarantee)
        self.guarantee_check = bool(guarantee_check)
        self.last_step_seconds = 0.0
        #: work so far and the last step's (totally_corrective.solve_work: a step passes over
        #: the N x t columns once, MLPBoost's LP counts as a solve reporting no iterations)
        self.work = self.last_work = 0.0
        # the base class sets each parameter as an attribute: "step" would hide the method
        self.step_rule = self.values["step"]
        del self.step
        f = formulation
        self.started = time.perf_counter()
        self.d0, self.B = _smoothing_setup(f)
        self.eps = float(f.eps)
        f_eta = getattr(f, "eta", None)
        if f_eta is not None:
            if self.eta is not None and abs(float(self.eta) - float(f_eta)) > 1e-12 * f_eta:
                raise DualBoostInputError(
                    f"algorithm {self.name!r}: eta = {self.eta:g} differs from the "
                    f"formulation's eta = {f_eta:g}; give eta once")
            eta = float(f_eta)
        else:
            eta = float(self.eta) if self.eta is not None else \
                default_smoothing_eta(self.eps, self.B)
        # values["eta"] stays as given (None: the default), the claims recompute the default
        self.eta = eta
        nu = float(getattr(f, "nu", 1.0))
        self.nu = nu
        self.sample_weight = getattr(f, "sample_weight", None)
        has_caps = bool(getattr(f, "has_caps", nu > 1))
        self.smoothed = SmoothedSoftMargin(eta, nu, has_caps, f.cap_vector, self.d0)
        self.w = np.zeros(0)
        self.z = np.zeros(self.N)
        self.point: SmoothedPoint | None = None
        self.d = self.d0.copy()
        self.entropy_d = 0.0  # Delta(d) of the current pricing d (d0: 0)
        self.lower = -math.inf  # S(w)
        self.min_edge = math.inf  # min_tau edge_tau (upper bound on g*)
        self.min_upper = math.inf  # min_tau P(d_tau) (upper bound on D*)
        self.k = 0  # index of the current iterate w_k (0: none yet)
        self._index: dict[bytes, list[int]] = {}
        self._lp = None  # (value, w, D, point, kept) of the LP secondary step
        self._lp_master = None

    # -- columns -------------------------------------------------------------------------------
    def _column(self, u: np.ndarray) -> tuple[int, bool]:
        """The index of u among the kept columns, adding it if new (returns (index, new))."""
        key = u.tobytes()
        for j in self._index.get(key, ()):
            if np.array_equal(self.U[:, j], u):
                return j, False
        self.U = self.extended(u)
        j = self.U.shape[1] - 1
        self._index.setdefault(key, []).append(j)
        self.w = np.append(self.w, 0.0)
        return j, True

    # -- one iteration -------------------------------------------------------------------------
    def _stop_statistic(self) -> float:
        if self.stopping == "certified":
            return self.min_edge - self.lower
        return self.min_edge - self.point.value

    def _stop_threshold(self) -> float:
        return self.eps if self.stopping == "certified" else self.eps / 2

    def step(self, t, u, may_solve):
        edge = float(u @ self.d)
        upper_smoothed = edge + self.entropy_d / self.eta  # P(d) over the whole class
        self.min_edge = min(self.min_edge, edge)
        self.min_upper = min(self.min_upper, upper_smoothed)
        record = IterationRecord(t=t, edge=edge, primal_before=upper_smoothed,
                                 delta_simple=math.nan, delta_practical=math.nan,
                                 oracle_seconds=0.0)
        if self.k == 0:
            if not may_solve:
                return record
            tick = time.perf_counter()
            j, _ = self._column(u)
            self.w[j] = 1.0
            self.z = u.copy()
            self._accept(self.smoothed.at(self.z))
            self.k = 1
            record.diagnostics = {"kind": "first", "after": self.point.value, "eta": self.eta}
            self._finish(record, tick, j, True)
            self._certified_stop(t)
            return record
        gap = edge - float(self.d @ self.z)  # the FW gap at w_k
        record.diagnostics = {"gap": gap}
        statistic = self._stop_statistic()
        record.delta_simple = record.delta_practical = statistic
        self._bracket(record)
        if statistic <= self._stop_threshold():
            self._converged(t, statistic, discarded=True)
            return record
        if not may_solve or self._check_guarantee(t):
            return record
        tick = time.perf_counter()
        j, new = self._column(u)
        info = self._fw_step(j, u, gap)
        if self.secondary:
            self._secondary(info)
        self.k += 1
        if self.k % REFRESH == 0:
            self.z = self.U @ self.w
            self._accept(self.smoothed.at(self.z))
        record.diagnostics = info
        self._finish(record, tick, j, new)
        self._certified_stop(t)
        return record

    def default_max_iter(self) -> int:
        """FW_MAX_ITER: a Frank-Wolfe step is one O(N t) pass (no master solve), and its
        certified gap falls like 1/k (german at its defaults: 0.0115 > eps = 0.01 after the
        general default's 1,000 steps)."""
        return FW_MAX_ITER

    def _check_guarantee(self, t: int) -> bool:
        """The early stop of LPBoost and ERLPBoost (docs/theory.md, "Stopping early"), due as
        :func:`~dualboost.algorithms.totally_corrective.guarantee_check_due` says: the stop
        promises softmargin(w) >= g - eps and g <= min edge, so min edge <= eps (empty) or
        < 2 eps (less than g/2) is certain however long the run goes on. On a noisy N = 1e4
        set (nu = 0.1 N, eps = 0.01) MLPBoost ran 134 s (FW 23 s) to a converged_vacuous stop.
        Before step t's update (h^t discarded); True when it stopped the run."""
        from .totally_corrective import broken_promise, guarantee_check_due, guarantee_verdict

        elapsed = time.perf_counter() - self.started
        if not (self.guarantee_check and self.stopping == "certified"
                and guarantee_check_due(self.work, self.k, self.last_work)):
            return False
        verdict = guarantee_verdict(self.min_edge, self.eps)
        if verdict is None:
            return False
        promise = broken_promise(verdict, self.min_edge, self.eps, bound_name="min edge")
        self.done, self.status = True, verdict
        self.message = (
            f"stopped early before step {t} ({elapsed:.1f} s, {self.k} steps, T = "
            f"{self.U.shape[1]}): the best soft margin g over all hypotheses is certified <= "
            f"min edge = {self.min_edge:.3g}, so the guarantee of the stop, soft margin >= g - "
            f"eps with eps = {self.eps:g}, {promise}; more iterations cannot change that "
            f"(docs/theory.md, 'Stopping early'). Remedies: a larger nu (g grows with nu), or "
            f"eps <= {self.min_edge / 4:.2g} (add a --time-limit); --no-early-stop "
            f"(run(..., guarantee_check=False)) runs on to the certified rule")
        return True

    def _certified_stop(self, t: int) -> None:
        """The certified rule after a step: the bracket may already certify eps with the best
        edge so far (no further oracle call needed)."""
        if self.stopping == "certified" and \
                self._stop_statistic() <= self._stop_threshold():
            self._converged(t, self._stop_statistic(), discarded=False)

    def _accept(self, point: SmoothedPoint) -> None:
        self.point = point
        self.d = point.d
        self.entropy_d = point.entropy
        self.lower = fast_soft_margin(self.z, self.nu, self.sample_weight)

    def _bracket(self, record: IterationRecord) -> None:
        record.margin_lower, record.margin_upper = self.lower, self.min_edge
        record.certified_gap = self.min_edge - self.lower
        record.primal, record.dual = self.min_upper, self.point.value

    def _finish(self, record: IterationRecord, tick: float, j: int, new: bool) -> IterationRecord:
        record.master_seconds = self.last_step_seconds = time.perf_counter() - tick
        from .totally_corrective import solve_work

        resolved = "lp_seconds" in (record.diagnostics or {})  # MLPBoost's LP was re-solved
        self.last_work = (solve_work(self.U.size, 1)
                          + (solve_work(self.U.size, None) if resolved else 0.0))
        self.work += self.last_work
        record.solved = True
        self.new_column = new  # the loop keeps no second hypothesis for a column held already
        if not new:
            record.diagnostics["reused"] = j
        record.path = "frank-wolfe" + ("+lp" if self.secondary else "")
        statistic = self._stop_statistic()
        record.delta_simple = record.delta_practical = statistic
        self._bracket(record)
        return record

    def _converged(self, t: int, statistic: float, discarded: bool) -> None:
        self.done, self.status = True, "converged"
        rule = ("min edge - soft margin(w)" if self.stopping == "certified"
                else "min edge - D(w)")
        self.message = (f"{rule} = {statistic:.3g} <= {self._stop_threshold():g} after "
                        f"{self.k - 1} Frank-Wolfe steps; T = {self.U.shape[1]} hypotheses"
                        + (f" (h^{t} discarded)" if discarded else ""))

    def _fw_step(self, j: int, u: np.ndarray, gap: float) -> dict:
        """Move w_k -> w_{k+1} by the step rule; returns the step's numbers (diagnostics)."""
        eta, before = self.eta, self.point.value
        a = u - self.z  # the FW direction in margin space, A (e_j - w)
        L = float(np.abs(a).max())
        lam_short = min(max(gap / (eta * L * L), 0.0), 1.0) if L > 0 else 0.0
        guaranteed = lam_short * gap - 0.5 * eta * lam_short ** 2 * L * L
        info = {"gap": gap, "curvature": L, "k": self.k, "before": before,
                "guaranteed": guaranteed}
        rule = self.step_rule
        if rule == "pairwise":
            taken = self._pairwise(j, u, info)
            if taken:
                return info
            rule = "line_search"
            info["kind"] = "fw-safeguard"
        if rule == "line_search":
            lam, point = self.smoothed.line_search(self.z, a, 1.0, self.point)
            info.setdefault("kind", "line_search")
            info["lam_max"] = 1.0
        else:
            lam = 2.0 / (self.k + 2.0) if rule == "classic" else lam_short
            info.setdefault("kind", rule)
            point = None
        self.w *= (1.0 - lam)
        self.w[j] += lam
        self.z = self.z + lam * a
        if point is None:
            point = self.smoothed.at(self.z)
        self._accept(point)
        info["step"], info["after"] = lam, point.value
        info["slope_after"] = float(point.d @ a)
        return info

    def _pairwise(self, j: int, u: np.ndarray, info: dict) -> bool:
        """A pairwise step from the away atom to column j, if it gains at least the short
        step's guarantee (module docstring); False leaves the state untouched."""
        active = np.flatnonzero(self.w > 0)
        active = active[active != j]
        if active.size == 0:
            return False
        edges = self.U[:, active].T @ self.d
        away = int(active[np.argmin(edges)])
        lam_max = float(self.w[away])
        a = u - self.U[:, away]
        if not np.any(a):
            return False
        lam, point = self.smoothed.line_search(self.z, a, lam_max, self.point)
        if point.value - self.point.value < info["guaranteed"]:
            info["pairwise_rejected"] = point.value - self.point.value
            return False
        drop = lam >= lam_max
        self.w[j] += lam
        self.w[away] = 0.0 if drop else self.w[away] - lam
        self.z = self.z + lam * a
        self._accept(point)
        info.update(kind="drop" if drop else "pairwise", step=lam, lam_max=lam_max,
                    away=away, after=point.value, slope_after=float(point.d @ a))
        return True

    # -- MLPBoost's secondary step ------------------------------------------------------------
    def _secondary(self, info: dict) -> None:
        """LPBoost's step (seed 003 Alg. 6): the LP (2.3) over the kept columns; its w replaces
        the FW iterate when its smoothed value is larger."""
        kept = self.U.shape[1]
        if self._lp is None or self._lp[4] != kept:
            tick = time.perf_counter()
            value, w_lp = self._solve_lp()
            z_lp = self.U @ w_lp
            point = self.smoothed.at(z_lp)
            self._lp = (value, w_lp, point.value, (point, z_lp), kept)
            info["lp_seconds"] = time.perf_counter() - tick
        value, w_lp, d_value, (point, z_lp), _ = self._lp
        info["candidate"] = self.point.value  # the FW iterate's D
        info["lp_smoothed"] = d_value
        if d_value > self.point.value:
            self.w = w_lp.copy()
            self.z = z_lp.copy()
            self._accept(point)
            # the FW candidate's step stays recorded (claim FW2 checks it): fw_kind, step
            info["fw_kind"], info["kind"], info["after"] = info["kind"], "lp", d_value

    def _solve_lp(self) -> tuple[float, np.ndarray]:
        from ..registry import shipped

        if self._lp_master is None:
            lp = shipped("lpboost")(self.N, nu=self.nu, sample_weight=self.sample_weight)
            self._lp_formulation = lp
            self._lp_master = lp.fast_master() if self.master_choice == "auto" else False
        U = self.U
        if self._lp_master:
            cert = self._lp_master.solve(U, self.gap_tol).certificate
        else:
            _, cert, _ = self._lp_formulation.solve_primal(U, self.gap_tol, solver=self.solver)
        w = np.clip(np.asarray(cert.w, dtype=float), 0.0, None)
        return float(cert.dual_value), w / w.sum()

    # -- output ----------------------------------------------------------------------------
    def output(self):
        from .totally_corrective import (
            REPORT_LP_FRACTION,
            REPORT_LP_MIN_SECONDS,
            restricted_lp_value,
        )

        f = self.formulation
        w = np.clip(self.w, 0.0, None)
        w = w / w.sum()
        cert = f.best_response(self.U, w)
        smoothed_problem = getattr(f, "eta", None) is not None
        # the formulation's optimum over the whole class is bracketed by the dual value at w and
        # the best certified upper bound seen: P(d_tau) (smoothed) or the smallest best edge (LP)
        primal = self.min_upper if smoothed_problem else self.min_edge
        lp_value = None
        if self._lp is not None and self._lp[4] == self.U.shape[1]:
            lp_value = self._lp[0]
        else:
            fit = time.perf_counter() - self.started
            budget = max(REPORT_LP_FRACTION * fit, REPORT_LP_MIN_SECONDS)
            if self.time_left is not None:  # the run's time limit holds here too (run_loop)
                budget = min(budget, self.time_left)
            lp_value = restricted_lp_value(self.U, self.nu, self.solver, w, self.sample_weight,
                                           time_limit=None if self.solver else budget)
        return Output(weights=w, point=cert.point, d=cert.d,
                      primal_objective=float(primal), dual_objective=float(cert.dual_value),
                      lp_value=lp_value, kept=self.U.shape[1], stopping=self.stopping)

    # -- claims -----------------------------------------------------------------------------
    @classmethod
    def claims(cls, result, formulation, tol):
        """FW1-FW5 (docs/frank_wolfe.md), every constant recomputed from the formulation."""
        return frank_wolfe_claims(cls, result, formulation, tol)


class MLPBoostAlgorithm(FrankWolfeAlgorithm):
    """MLPBoost (seed 003 Algorithm 2): a Frank-Wolfe step and LPBoost's LP over the kept
    hypotheses (warm-started HiGHS), the better by the smoothed objective (module docstring)."""

    name = "mlpboost"
    summary = ("MLPBoost: a Frank-Wolfe step and the LP over the kept hypotheses, the better by "
               "the smoothed soft margin; certified bracket at every step")
    reference = "seed 003 Algorithm 2 (MLPBoost) with Algorithm 6"
    params = (_step_param("pairwise"), FW_STOPPING, FW_ETA)
    secondary = True


# -- the claims ---------------------------------------------------------------------------------

def _expected_eta(result, formulation) -> tuple[float, float, np.ndarray]:
    """(eta, B, d0) of the run's smoothed problem, from the formulation and the run's declared
    parameters (the formulation's eta; else the given eta, else the theory's default)."""
    d0, B = _smoothing_setup(formulation)
    f_eta = getattr(formulation, "eta", None)
    if f_eta is not None:
        return float(f_eta), B, d0
    from ..theory import default_eta

    given = (result.algorithm_parameters or {}).get("eta")
    # the theory's eta = max(2 B / eps, sigma / 2) with sigma = 1 (Pinsker), computed apart
    # from the algorithm's own default
    eta = float(given) if given is not None else default_eta(float(formulation.eps), B, 1.0)
    return eta, B, d0


def _smoothed_value(U, w, formulation, eta: float) -> float:
    """D(w) by the relative-entropy formulation's own best response (thesis (3.14) with the
    exact psi and beta (3.16)): an evaluation independent of this module's bookkeeping."""
    from ..registry import shipped

    ERLPBoost = shipped("erlpboost")
    f = formulation
    if getattr(f, "eta", None) is None or not isinstance(f, ERLPBoost):
        f = ERLPBoost(f.N, nu=float(getattr(f, "nu", 1.0)), eps=float(f.eps), eta=eta,
                      sample_weight=getattr(f, "sample_weight", None))
    return float(f.best_response(U, w).dual_value)


def frank_wolfe_claims(cls, result, formulation, tol: float) -> list[Claim]:
    f = formulation
    out: list[Claim] = []
    eta, B, _ = _expected_eta(result, f)
    eps = float(f.eps)
    params = result.algorithm_parameters or {}
    rule = params.get("step", "short")
    stopping = params.get("stopping", "certified")
    records = [r for r in result.history if r.solved]
    steps = [r for r in records if r.diagnostics and r.diagnostics.get("kind") != "first"]
    ref = "docs/frank_wolfe.md"

    # FW1: the recorded smoothed value of the output equals D(w^T) recomputed at the run's eta
    label = "smoothed value: |D(w^T) recorded - D(w^T) recomputed at eta| (thesis (3.14))"
    if not records or result.columns.shape[1] == 0:
        out.append(Claim("FW1", label, f"{ref} FW1", None, None, "no step was taken"))
    else:
        w = np.clip(np.asarray(result.weights, dtype=float), 0.0, None)
        recomputed = _smoothed_value(result.columns, w / w.sum(), f, eta)
        recorded = float(records[-1].dual)
        value = abs(recorded - recomputed)
        slack = tol * (1.0 + abs(recomputed))
        out.append(Claim("FW1", label, f"{ref} FW1; seed 003 §1.4", value, value <= slack,
                         f"recorded {recorded:.10g}, recomputed {recomputed:.10g} (eta = "
                         f"{eta:.6g})", slack))

    # FW2: each step is its rule's step (classic, short), or a line search's maximizer
    label = "step rule: max violation (classic 2/(k+2), short clip(g/(eta L^2)), line search " \
            "slope sign)"
    worst, checked = 0.0, 0
    for r in steps:
        s = r.diagnostics
        kind = s.get("kind")
        if kind == "lp":  # MLPBoost took the LP's weights: check the FW candidate's step
            kind = s.get("fw_kind")
        lam = float(s["step"])
        checked += 1
        if kind == "classic":
            worst = max(worst, abs(lam - 2.0 / (s["k"] + 2.0)))
        elif kind == "short":
            L, g = float(s["curvature"]), float(s["gap"])
            expected = min(max(g / (eta * L * L), 0.0), 1.0) if L > 0 else 0.0
            worst = max(worst, abs(lam - expected))
        else:  # an exact line search: s(lam) = 0 inside, >= 0 at the end, <= 0 at 0
            slope = float(s["slope_after"])
            lam_max = float(s["lam_max"])
            if lam >= lam_max:
                worst = max(worst, -slope)
            elif lam <= 0.0:
                worst = max(worst, slope)
            else:
                worst = max(worst, abs(slope))
    if checked == 0:
        out.append(Claim("FW2", label, f"{ref} FW2", None, None, "no Frank-Wolfe step"))
    else:
        out.append(Claim("FW2", label, f"{ref} FW2; seed 003 §1.6, Alg. 3-4", worst,
                         worst <= tol, f"over {checked} steps ({rule})", tol))

    # FW3: progress at least the descent lemma's guarantee q (all rules but classic)
    label = "progress: min_t (D(w_{t+1}) - D(w_t) - q_t), q_t the short step's guarantee"
    if rule == "classic" and not cls.secondary:
        out.append(Claim("FW3", label, f"{ref} FW3", None, None,
                         "the classic step has no per-step guarantee"))
    elif not steps:
        out.append(Claim("FW3", label, f"{ref} FW3", None, None, "no Frank-Wolfe step"))
    else:
        worst = math.inf
        for r in steps:
            s = r.diagnostics
            if rule == "classic":  # MLPBoost with classic steps: the LP may only add
                gain = float(s["after"]) - float(s.get("candidate", s["after"]))
                worst = min(worst, gain)
                continue
            L, g = float(s["curvature"]), float(s["gap"])
            lam = min(max(g / (eta * L * L), 0.0), 1.0) if L > 0 else 0.0
            q = lam * g - 0.5 * eta * lam * lam * L * L
            worst = min(worst, float(s["after"]) - float(s["before"]) - q)
        slack = tol * (1.0 + max(abs(float(r.dual)) for r in steps))
        out.append(Claim("FW3", label, f"{ref} FW3; seed 001 Eq. (10), Lemma 12", worst,
                         worst >= -slack, f"over {len(steps)} steps, eta = {eta:.6g}", slack))

    # FW4: the iteration bound K < c eta / delta
    delta = eps - B / eta if stopping == "certified" else eps / 2
    factor = BOUND_FACTOR.get(rule, 16.0)
    K = len(steps)
    label = f"iteration bound: Frank-Wolfe steps K < {factor:g} eta / delta"
    if eta < 1.0 or not delta > 0:
        out.append(Claim("FW4", label, f"{ref} FW4", float(K), None,
                         f"eta = {eta:.4g}, delta = eps - B/eta = {delta:.3g}: the bound needs "
                         "eta >= 1 and delta > 0"))
    else:
        bound = factor * eta / delta
        if result.success:
            ok = K < bound
        else:
            ok = False if K >= bound else None
        out.append(Claim("FW4", f"{label} = {bound:.6g}", f"{ref} FW4; seed 001 Thm 9 / §3.7"
                         + ("; Jaggi (2013) Thm 2" if rule == "classic" else ""), float(K), ok,
                         f"eta = {eta:.6g}, B = {B:.6g}, eps = {eps:g}, delta = {delta:.6g} "
                         f"({stopping} rule), status {result.status}", None))

    # FW5: the certificate: soft margin(w^T) >= min edge - eps, and the recorded bracket
    label = "certificate: soft margin(w^T) - (min edge - eps) (>= 0)"
    if not records or result.columns.shape[1] == 0:
        out.append(Claim("FW5", label, f"{ref} FW5", None, None, "no step was taken"))
    elif stopping == "source" and B / eta > eps / 2 * (1 + 1e-12):
        out.append(Claim("FW5", label, f"{ref} FW5", None, None,
                         f"the source rule certifies eps only when B/eta <= eps/2 (B/eta = "
                         f"{B / eta:.3g}): use the certified rule"))
    else:
        w = np.clip(np.asarray(result.weights, dtype=float), 0.0, None)
        margin = soft_margin(result.columns @ (w / w.sum()), float(getattr(f, "nu", 1.0)),
                             getattr(f, "sample_weight", None))
        min_edge = min(r.edge for r in result.history)
        recorded = records[-1].margin_lower
        mismatch = abs(margin - recorded) if recorded is not None else math.inf
        value = margin - (min_edge - eps)
        if mismatch > tol:
            ok, detail = False, (f"the recorded lower bound {recorded} is not the soft margin "
                                 f"{margin:.10g} of the output")
        else:
            ok = value >= -tol if result.success else None
            detail = (f"soft margin {margin:.8g}, min edge {min_edge:.8g}, eps {eps:g}"
                      if ok is not None else f"the run did not stop ({result.status})")
        out.append(Claim("FW5", label, f"{ref} FW5; seed 003 §3.3.1; seed 001 §3.7", value, ok,
                         detail, tol))
    return out
