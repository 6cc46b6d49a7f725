"""Result objects of a boosting run, in the style of ``scipy.optimize.OptimizeResult``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

#: a score within this of 0 is a tie (LP weights carry about 1e-10 of rounding); the one
#: tolerance of every label rule (model_io.is_tie, the estimator, predict)
TIE_TOLERANCE = 1e-9

#: the stopping rule held and the guarantee means something (see BoostResult.status)
CONVERGED = "converged"
#: the stopping rule held but the guarantee softmargin(w) >= g - eps_eff is empty
#: (eps_eff >= gamma_hat; dualboost.guarantee)
CONVERGED_VACUOUS = "converged_vacuous"
#: the stopping rule held but the combined hypothesis is 0 within round-off on most training
#: examples (its predictions there are noise; dualboost.guarantee)
CONVERGED_DEGENERATE = "converged_degenerate"
#: every status whose run stopped by its own rule
CONVERGED_STATUSES = (CONVERGED, CONVERGED_VACUOUS, CONVERGED_DEGENERATE)
#: a stagewise baseline (AdaBoost, Arc-Gv) that ran the rounds it was given: its planned end
#: (it has no certified stop at nu > 1), finished, not "not converged"
ROUNDS_COMPLETED = "rounds_completed"
#: every status of a finished run (``success`` is True exactly for these; exit status 0)
FINISHED_STATUSES = CONVERGED_STATUSES + (ROUNDS_COMPLETED,)


@dataclass
class IterationRecord:
    """One pass of the column-generation loop (thesis Algorithms 2.1 and 3.2).

    ``primal_before`` is P^t(d^{t-1}) (the new column against the old distribution),
    ``primal`` and ``dual`` bracket the master optimum at t:
    P^t(d^t) >= optimum >= Theta^t(w^t, psi^t).
    For ERLPBoost ``delta_simple`` is delta^t and ``delta_practical`` is delta~^t (thesis §3.2.1-2);
    for LPBoost both hold min_q u^q.d^{q-1} - P_LP^t (Alg. 2.1 step c, with the certified lower
    bound Theta^t in place of P_LP^t). The last record of an ERLPBoost run has ``solved=False``:
    its hypothesis is the discarded h^{T+1}. For LPBoost with dual smoothing, ``edge`` is taken
    at the pricing point (a capped distribution near d^{t-1}; docs/theory.md L5), and
    ``extra_columns`` hypotheses were added beside h^t (multiple pricing).
    """

    t: int
    edge: float
    primal_before: float
    delta_simple: float
    delta_practical: float
    oracle_seconds: float
    solved: bool = False
    primal: float | None = None
    dual: float | None = None
    duality_gap: float | None = None
    kkt_residual: float | None = None
    kkt_w_difference: float | None = None
    #: "verified" (the master's multipliers satisfy the active-set system at d) or "recovered"
    #: (solved for from d alone, thesis §3.2.4)
    kkt_source: str | None = None
    solver: str | None = None
    status: str | None = None
    #: which master solver ran: "reference" (cvxpy) or a fast path's name
    path: str | None = None
    #: model building, solving and certifying; the KKT recovery is timed apart
    master_seconds: float = 0.0
    kkt_seconds: float = 0.0
    attempts: list = field(default_factory=list)
    #: P_LP^t, the soft-margin LP (2.3) over the t columns so far (recorded by SoftBoost, whose
    #: termination it decides; None where an algorithm does not compute it)
    lp_value: float | None = None
    #: columns added beside u^t before this solve (LPBoost's ``pricing="multiple"``: the
    #: oracle's other candidates whose edge under d^(t-1) exceeded Theta^(t-1) + eps)
    extra_columns: int = 0
    #: a note for the user raised at this step (the CLI prints it as it comes): a slow run's
    #: projected distance to its stop (docs/theory.md, "Stopping early")
    notice: str | None = None
    #: d^t, the master's distribution, for algorithms whose run claims need the whole sequence
    #: (SoftBoost's Bregman-Pythagoras checks, thesis (3.5)); None otherwise
    d: np.ndarray | None = None
    #: the certified dual point of the master at t (w, psi, beta), recorded with ``d``
    point: dict | None = None
    #: the certified bracket on g, the soft-margin optimum (2.2)/(2.3) over the whole class,
    #: recorded by the corrective algorithms at every iteration: ``margin_lower`` the soft
    #: margin (2.2) of the current weights, ``margin_upper`` the smallest best edge so far
    #: (each best edge at a capped d is >= g), ``certified_gap`` their difference (None where
    #: an algorithm does not record it)
    margin_lower: float | None = None
    margin_upper: float | None = None
    certified_gap: float | None = None
    #: an algorithm's own per-iteration quantities that its claims check (e.g. the
    #: Frank-Wolfe gap, the step size and its scale of the corrective algorithms)
    diagnostics: dict | None = None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class BoostResult:
    """What :func:`dualboost.engine.boost` returns.

    ``weights`` are the final hypothesis weights w^T (for ERLPBoost the dual variables of the
    regularized problem at T, not a re-solved LP), ``hypotheses`` the T selected hypotheses,
    ``columns`` their N x T column matrix, ``d`` the final distribution. ``lp_value`` is P_LP^T,
    the soft-margin LP (2.3) over the selected hypotheses, on which the thesis states the
    guarantee g - P_LP^T <= eps; ``soft_margin`` is the value (2.2) of the returned weights.

    ``status``: ``"converged"`` (the stopping rule held), ``"max_iter"``, ``"time_limit"``,
    ``"interrupted"``; :func:`dualboost.api.run` refines a ``"converged"`` run that is
    certified but useless to ``"converged_degenerate"`` (the combined hypothesis vanishes within
    round-off on most training examples) or ``"converged_vacuous"`` (the parameters make the
    guarantee empty), appending the reason and the remedy to ``message``
    (:mod:`dualboost.guarantee`, :mod:`dualboost.diagnostics`). ``success`` is True for the
    three ``converged*`` statuses (:data:`CONVERGED_STATUSES`): the run stopped by its rule.
    """

    formulation: str
    parameters: dict
    weights: np.ndarray
    hypotheses: list
    columns: np.ndarray
    d: np.ndarray
    psi: np.ndarray
    beta: float
    history: list[IterationRecord]
    success: bool
    status: str
    message: str
    primal_objective: float
    dual_objective: float
    soft_margin: float
    lp_value: float | None
    seconds: float
    master_seconds: float
    oracle_seconds: float
    stopping: str
    kkt_seconds: float = 0.0
    #: the algorithm that produced the run (see dualboost.algorithms)
    algorithm: str = ""
    #: the algorithm's resolved declared parameters (e.g. {"stopping": "practical"})
    algorithm_parameters: dict = field(default_factory=dict)
    #: the final dual point, keyed by constraint name (w, psi, beta, ...)
    point: dict = field(default_factory=dict)
    #: diagnostics with a stable code: {"code": ..., "message": ...}
    warnings: list = field(default_factory=list)
    #: the last certified bracket width on the soft-margin optimum (IterationRecord's
    #: ``certified_gap``) for algorithms that report one at every step, else None
    certified_gap: float | None = None
    #: the label a tie (a score within TIE_TOLERANCE of 0) goes to: the training majority class,
    #: -1 on an even split (the rule of ``dualboost predict`` and the estimator; set by
    #: :func:`dualboost.api.run` from the training labels)
    tie_label: float = -1.0
    #: whether the oracle was exact (its best edges maximal over the whole class); False: the
    #: certificates hold over the hypotheses found, and no whole-class statement is made
    #: (:func:`dualboost.engine.label_relative`, docs/theory.md "Heuristic oracles")
    oracle_exact: bool = True
    #: for an exact oracle whose class is a restricted one (``hist_stumps``: stumps at the
    #: quantile bin edges), the class the certificates cover; None: the oracle's own class
    certificate_class: str | None = None

    @property
    def certificate_scope(self) -> str:
        """``"whole class"`` (exact oracle), ``"whole class: <class>"`` for an exact oracle over
        a restricted class (``hist_stumps``: the binned stumps), or ``"hypotheses found"``
        (heuristic oracle)."""
        if not self.oracle_exact:
            return "hypotheses found"
        return f"whole class: {self.certificate_class}" if self.certificate_class else \
            "whole class"

    @property
    def iterations(self) -> int:
        """T, the number of hypotheses in the output."""
        return len(self.hypotheses)

    @property
    def converged(self) -> bool:
        """The run stopped by its own rule (any of :data:`CONVERGED_STATUSES`)."""
        return self.status in CONVERGED_STATUSES

    @property
    def duality_gap(self) -> float:
        return self.primal_objective - self.dual_objective

    @property
    def master_paths(self) -> dict[str, int]:
        """How many master solves each path took: {"highs-warm": 57, "reference": 1, ...}
        ("reference" is the cvxpy model through the solver policy)."""
        counts: dict[str, int] = {}
        for r in self.history:
            if r.solved and r.path:
                counts[r.path] = counts.get(r.path, 0) + 1
        return counts

    @property
    def solver(self) -> str | None:
        solved = [r.solver for r in self.history if r.solved]
        return solved[-1] if solved else None

    def decision_function(self, X) -> np.ndarray:
        """f_w(x) = sum_q w_q h^q(x), the combined hypothesis (values in [-1, 1])."""
        from .oracles.base import combined_scores

        return combined_scores(self.weights, self.hypotheses, X)

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}: the sign of f_w(x); a tie (|f_w(x)| <= TIE_TOLERANCE) goes to
        ``tie_label``, the training majority class (the rule of ``dualboost predict``)."""
        scores = self.decision_function(X)
        labels = np.where(scores > 0, 1.0, -1.0)
        labels[np.abs(scores) <= TIE_TOLERANCE] = self.tie_label
        return labels

    def __repr__(self) -> str:
        return (f"BoostResult({self.formulation}, status={self.status!r}, T={self.iterations}, "
                f"P={self.primal_objective:.6g}, Theta={self.dual_objective:.6g}, "
                f"soft_margin={self.soft_margin:.6g})")
