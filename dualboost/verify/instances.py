"""The built-in instances the verifier runs every formulation on.

An :class:`Instance` holds *duality cases* (a column matrix U with a cap nu and a prior d0: the
formulation's primal and dual are solved independently on it, docs/theory.md D1-R3) and *runs* (a
finite or enumerable hypothesis class with nu, eps and d0: a boosting run with the formulation's
default algorithm, A1-A2, the algorithm's claims and G1).

Presets (``--instances``):

* ``quick``: N = 12 examples; U has 5 random continuous columns, a duplicate column and a
  constant column, two hard examples (every hypothesis is wrong on them) with a small prior
  weight, and a non-uniform d0; cases nu = 1 and nu = 3.5 (the caps bind at the optimum); one
  tiny boosting run on a pool of 24 random +-1 hypotheses (nu = 2, eps = 0.2, non-uniform d0);
  the nu = 3.5 case builds a formulation's other numeric parameters (Tsallis's q) off their
  defaults; for the formulations that declare ``sample_weight``, a case nu = 3.3 with integer
  weights in {1, 2, 3} and the default prior (check W1 against the repeated rows); for the
  formulations with signed weights (seed 001's l1 ball, ``capabilities.signed_weights``), whose
  class holds every column's negation, a case nu = 3.5 on 6 columns without the constant one
  (separable with a small margin, caps binding, other parameters off default).
  About 1-3 s per formulation.
* ``random[:SEED]``: N = 40, 8 random continuous columns plus a duplicate and a constant column;
  cases nu = 1 (uniform d0), nu = 5.5 (non-uniform d0, binding caps) and nu = N (the capped
  simplex is one point), and nu = 5.3 with integer sample weights (as quick's); runs: a pool
  of 400 random +-1 hypotheses on N = 60 (nu = 6, eps = 0.1,
  the thesis's own test setting) and a small-N, large-eps run (N = 10, eps = 0.5) where the
  iteration bound is within reach.
* ``worst_case[:N]``: the LPBoost lower-bound instance of thesis Thm 2.5 / Fig. 2.8 (N even,
  default 20), nu = 1, with its N/2 + 1 columns as a finite class (LPBoost needs >= N/2
  iterations there, docs/theory.md L6).
* ``breast_cancer``: scikit-learn's breast cancer data; 12 distinct stump columns for the duality
  case (nu = 0.2 N) and the exact stump oracle for the run; the LP (2.3) over every distinct stump
  is solved once for G1 and shared by all formulations.

The default set is ``random,worst_case,breast_cancer``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..data import load_dataset, lpboost_worst_case
from ..errors import DualBoostInputError
from ..oracles import make_oracle

__all__ = ["DualityCase", "Instance", "RunCase", "default_instances", "instance_by_name",
           "DEFAULT_INSTANCES"]

DEFAULT_INSTANCES = "random,worst_case,breast_cancer"


@dataclass
class DualityCase:
    """A column matrix with its cap and prior (d0 None: uniform)."""

    name: str
    U: np.ndarray
    nu: float
    d0: np.ndarray | None = None
    seed: int | None = None
    eps: float = 0.1
    #: the instance is built so that some d_n = 1/nu at the optimum (recorded in the metadata)
    caps_should_bind: bool = False
    #: integer sample weights (run only for formulations that declare sample_weight; check W1
    #: compares with the repeated rows); d0 None: the default prior s / sum s
    sample_weight: np.ndarray | None = None
    #: build with each extra numeric parameter (Tsallis's q) off its default: a formula that
    #: agrees only at the default (q/(1-q) = (1-q)/q at q = 1/2) is caught elsewhere; "low" or
    #: "high": each float parameter near that end of its declared range (the case runs only
    #: for formulations that declare such an end), so a range wider than the math is caught
    vary_params: bool | str = False
    #: run only for formulations with signed weights (``capabilities.signed_weights``, seed
    #: 001's l1 ball): their class has every column's negation, so the instances' constant
    #: column -0.95 would fix every margin at 0.95 and hide the rest of the model
    signed_only: bool = False


def _signed_columns(seed: int, N: int = 12) -> np.ndarray:
    """Columns without a constant one, separable with a small margin by a signed w, two hard
    examples on which the caps bind at nu = 3.5 (drawn from their own generator)."""
    rng = np.random.default_rng(seed + 102)
    U = rng.uniform(-1, 1, size=(N, 6))
    U[:, :3] = np.clip(U[:, :3] + 0.6, -1, 1)
    U[:2] = rng.uniform(-0.5, -0.2, size=(2, 6))
    U[:2, 0] = 0.15
    return U


@dataclass
class RunCase:
    """A boosting run: a fitted-oracle factory, the parameters, and (for G1) the whole class."""

    name: str
    make_oracle: Callable
    N: int
    nu: float
    eps: float
    d0: np.ndarray | None = None
    seed: int | None = None
    max_iter: int = 500
    #: the columns of the whole hypothesis class (for G1), or None
    all_columns: Callable[[], np.ndarray] | None = None
    #: extra formulation parameters for this run (e.g. a small eta)
    params: dict = field(default_factory=dict)
    #: algorithm parameters, passed to the algorithms that declare them (e.g. LPBoost's pricing)
    algorithm_params: dict = field(default_factory=dict)


@dataclass
class Instance:
    name: str
    cases: list[DualityCase]
    runs: list[RunCase]


def _nonuniform(rng: np.random.Generator, N: int, low: float = 0.5, high: float = 1.5):
    d0 = rng.uniform(low, high, size=N)
    return d0 / d0.sum()


def _with_duplicate_and_constant(U: np.ndarray, constant: float) -> np.ndarray:
    return np.column_stack([U, U[:, 0], np.full(U.shape[0], constant)])


def _finite_run(name, pool, labels, nu, eps, d0=None, seed=None, max_iter=500, params=None,
                algorithm_params=None):
    def oracle():
        return make_oracle("finite", hypotheses=pool).fit(None, labels)

    def columns():
        return oracle().all_columns()[0]

    return RunCase(name, oracle, pool.shape[0], nu, eps, d0, seed, max_iter, columns,
                   dict(params or {}), dict(algorithm_params or {}))


def quick_instance(seed: int = 0) -> Instance:
    rng = np.random.default_rng(seed)
    N = 12
    U = rng.uniform(-1, 1, size=(N, 5))
    U[:2] = rng.uniform(-0.95, -0.7, size=(2, 5))  # two hard examples: the caps bind on them
    U = _with_duplicate_and_constant(U, -0.95)
    d0 = _nonuniform(rng, N)
    d0[:2] *= 0.5  # hard examples with a small prior
    d0 /= d0.sum()
    pool = np.sign(rng.normal(size=(N, 24)))
    pool[pool == 0] = 1.0
    labels = np.sign(rng.normal(size=N))
    labels[labels == 0] = 1.0
    run_d0 = _nonuniform(rng, N)
    weights = rng.integers(1, 4, N).astype(float)
    cases = [DualityCase("nu=1, d0 non-uniform", U, 1.0, d0, seed),
             DualityCase("nu=3.5, d0 non-uniform, caps bind, other parameters off default",
                         U, 3.5, d0, seed, caps_should_bind=True, vary_params=True),
             # nu' = nu sum(s)/N = 6.6 is not an integer: the weighted soft margin's rho is
             # unique (at an integer the caps sum to 1 exactly and rho is a whole interval)
             DualityCase("nu=3.3, integer sample weights, default d0", U, 3.3, None, seed,
                         caps_should_bind=True, sample_weight=weights),
             DualityCase("nu=3.5, no constant column (signed w only), caps bind, other "
                         "parameters off default", _signed_columns(seed), 3.5, d0, seed,
                         caps_should_bind=True, vary_params=True, signed_only=True)]
    # one example must carry most of d: the hard margin's optimum balances the edges of
    # [U, -U] at d_0 ~ 0.8, so a map that caps d at 1/2 (nu' = 2 for nu = 1) changes the answer
    cases += declared_facts_cases(U, 3.5, d0, seed)
    runs = [_finite_run("run: 24-hypothesis pool, nu=2, eps=0.2, d0 non-uniform", pool,
                        labels, 2.0, 0.2, run_d0, seed, max_iter=60)]
    return Instance(f"quick:{seed}" if seed else "quick", cases, runs)


#: one example carries ~0.8 of the optimal d of the hard margin over [U, -U] (the edges of the
#: signed class balance there), so a map that caps d at 1/2 (nu' = 2 for nu = 1) changes it
CONCENTRATED = np.array([[0.2, 0.25, 0.22], [-1.0, -0.9, -0.95], [-1.0, -1.0, -0.9],
                         [-0.9, -1.0, -1.0]])


def declared_facts_cases(U: np.ndarray, nu: float, d0: np.ndarray, seed: int) -> list:
    """The cases that test what a member declares rather than its pair (docs/theory.md,
    "Ranges" and "I1-I36"): the concentrated signed case, and every float parameter half way to
    the low and the high end of its declared range (run only where there is such an end)."""
    return [DualityCase("nu=1, one example carries most of d (a cap 1/nu' < 1 would bind; "
                        "signed w only)", CONCENTRATED, 1.0, None, seed, signed_only=True)] + [
        DualityCase(f"nu={nu:g}, d0 non-uniform, parameters near the {end} ends of their "
                    "ranges", U, nu, d0, seed, caps_should_bind=True, vary_params=end)
        for end in ("low", "high")]


def random_instance(seed: int = 0) -> Instance:
    rng = np.random.default_rng(seed)
    N = 40
    U = rng.uniform(-1, 1, size=(N, 8))
    U[:3] = rng.uniform(-0.9, -0.75, size=(3, 8))
    U = _with_duplicate_and_constant(U, -0.95)
    d0 = _nonuniform(rng, N, 0.2, 1.8)
    cases = [DualityCase("nu=1, d0 uniform", U, 1.0, None, seed),
             DualityCase("nu=5.5, d0 non-uniform, caps bind, other parameters off default",
                         U, 5.5, d0, seed, caps_should_bind=True, vary_params=True),
             DualityCase(f"nu=N={N}, d0 uniform", U, float(N), None, seed),
             DualityCase("nu=5.3, integer sample weights, default d0", U, 5.3, None, seed,
                         caps_should_bind=True)]
    pool = np.sign(rng.normal(size=(60, 400)))
    pool[pool == 0] = 1.0
    labels = np.sign(rng.normal(size=60))
    labels[labels == 0] = 1.0
    small = np.sign(rng.normal(size=(10, 40)))
    small[small == 0] = 1.0
    small_labels = np.ones(10)
    cases[-1].sample_weight = rng.integers(1, 4, N).astype(float)  # drawn last: same U, pools
    cases += declared_facts_cases(U, 5.5, d0, seed)
    runs = [_finite_run("run: 400-hypothesis pool, N=60, nu=6, eps=0.1", pool, labels, 6.0,
                        0.1, None, seed),
            _finite_run("run: 40-hypothesis pool, N=10, nu=1, eps=0.5 (bound within reach)",
                        small, small_labels, 1.0, 0.5, None, seed)]
    return Instance(f"random:{seed}", cases, runs)


def worst_case(N: int = 20, eps: float = 0.01) -> Instance:
    U = lpboost_worst_case(N)
    ones = np.ones(N)
    # LPBoost as printed (Alg. 2.1: one column per solve, the oracle at d^(t-1)), which is what
    # Thm 2.5 is about (docs/theory.md L6); the other algorithms ignore these parameters
    runs = [_finite_run(f"run: Thm 2.5 instance, nu=1, eps={eps:g}", U, ones, 1.0, eps,
                        algorithm_params={"pricing": "single", "smoothing": 0.0})]
    return Instance(f"worst_case:{N}", [DualityCase("nu=1, d0 uniform", U, 1.0)], runs)


_BREAST_CANCER_COLUMNS: dict[str, np.ndarray] = {}


def breast_cancer(eps: float = 0.05) -> Instance:
    data = load_dataset("breast_cancer")

    def oracle():
        return make_oracle("stumps").fit(data.X, data.y)

    def columns():
        # the whole distinct stump class, built once per process and shared by formulations
        if "all" not in _BREAST_CANCER_COLUMNS:
            _BREAST_CANCER_COLUMNS["all"] = oracle().all_columns()[0]
        return _BREAST_CANCER_COLUMNS["all"]

    picks = np.sort(np.random.default_rng(0).choice(columns().shape[1], size=12, replace=False))
    nu = 0.2 * data.N
    case = DualityCase(f"12 stump columns, nu=0.2N={nu:g}", columns()[:, picks], nu, None, 0,
                       eps)
    run = RunCase(f"run: exact stumps, nu={nu:g}, eps={eps:g}", oracle, data.N, nu, eps,
                  all_columns=columns)
    return Instance("breast_cancer", [case], [run])


def default_instances() -> list[Instance]:
    return [instance_by_name(s) for s in DEFAULT_INSTANCES.split(",")]


def instance_by_name(spec: str) -> Instance:
    """``quick``, ``random[:SEED]``, ``worst_case[:N]`` or ``breast_cancer``."""
    name, _, argument = spec.partition(":")
    builders = {"quick": quick_instance, "random": random_instance, "worst_case": worst_case,
                "breast_cancer": breast_cancer}
    if name not in builders or (argument and name == "breast_cancer"):
        raise DualBoostInputError(f"unknown instance {spec!r}; choose from quick, random[:SEED], "
                                  "worst_case[:N], breast_cancer")
    if not argument:
        return builders[name]()
    try:
        value = int(argument)
    except ValueError:
        raise DualBoostInputError(f"instance {spec!r}: {argument!r} is not an integer") from None
    return builders[name](value)
