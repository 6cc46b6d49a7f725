"""The built-in instances the verifier runs every formulation on.

* ``breast_cancer``: scikit-learn's breast cancer data with the exact stump oracle, nu = 0.2 N;
  the LP over every distinct stump gives the certified optimum.
* ``worst_case:N``: the LPBoost lower-bound instance of thesis Thm 2.5 / Fig. 2.8 (spec §3.4),
  nu = 1, with its N/2 + 1 columns as a finite hypothesis class.
* ``random:SEED``: a random continuous U (N = 40, t = 8) for the duality checks at nu = 1 and
  nu = 5.5 (a fractional cap), and a pool of 400 random +-1 hypotheses on N = 60 examples as a
  finite class for the run checks (the thesis's own test setting, spec §5.6, at nu = 6).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..data import load_dataset, lpboost_worst_case
from ..errors import DualBoostInputError
from ..oracles import make_oracle


@dataclass
class Instance:
    name: str
    #: (column matrix for the duality checks, nu) pairs
    duality_cases: list[tuple[np.ndarray, float]]
    #: builds a fitted oracle for the run checks, or None for no run
    make_run_oracle: Callable | None
    N: int
    run_nu: float
    run_eps: float


def breast_cancer(eps: float = 0.05) -> Instance:
    data = load_dataset("breast_cancer")
    oracle = make_oracle("stumps").fit(data.X, data.y)
    # a small, fixed set of distinct stump columns for the duality checks
    columns, _ = oracle.all_columns()
    picks = np.random.default_rng(0).choice(columns.shape[1], size=12, replace=False)
    nu = 0.2 * data.N
    return Instance("breast_cancer", [(columns[:, np.sort(picks)], nu)],
                    lambda: make_oracle("stumps").fit(data.X, data.y), data.N, nu, eps)


def worst_case(N: int = 20, eps: float = 0.01) -> Instance:
    U = lpboost_worst_case(N)
    ones = np.ones(N)
    return Instance(f"worst_case:{N}", [(U, 1.0)],
                    lambda: make_oracle("finite", hypotheses=U).fit(None, ones), N, 1.0, eps)


def random_instance(seed: int = 0, eps: float = 0.1) -> Instance:
    rng = np.random.default_rng(seed)
    U = rng.uniform(-1, 1, size=(40, 8))
    pool = np.sign(rng.normal(size=(60, 400)))
    labels = np.sign(rng.normal(size=60))
    return Instance(f"random:{seed}", [(U, 1.0), (U, 5.5)],
                    lambda: make_oracle("finite", hypotheses=pool).fit(None, labels), 60, 6.0,
                    eps)


def default_instances() -> list[Instance]:
    return [random_instance(0), worst_case(20), breast_cancer()]


def instance_by_name(spec: str) -> Instance:
    """``random[:SEED]``, ``worst_case[:N]`` or ``breast_cancer``."""
    name, _, argument = spec.partition(":")
    builders = {"random": random_instance, "worst_case": worst_case,
                "breast_cancer": breast_cancer}
    if name not in builders or (argument and name == "breast_cancer"):
        raise DualBoostInputError(f"unknown instance {spec!r}; choose from random[:SEED], "
                                  "worst_case[:N], breast_cancer")
    if not argument:
        return builders[name]()
    try:
        value = int(argument)
    except ValueError:
        raise DualBoostInputError(f"instance {spec!r}: {argument!r} is not an integer") from None
    return builders[name](value)
