"""``--algorithm NAME`` without ``--formulation`` fits the algorithm's own problem where it has
one: every registered algorithm runs on its default formulation (the general default,
erlpboost, is refused by lpboost, softboost, the stagewise baselines and corrective Binary
ERLPBoost: ``dualboost fit --algorithm lpboost`` was an error)."""

from __future__ import annotations

import numpy as np
import pytest

from dualboost.algorithms import algorithm_class, available_algorithms
from dualboost.api import run
from dualboost.registry import load_formulation


@pytest.mark.parametrize("name", available_algorithms())
def test_every_algorithm_runs_its_default_formulation(name):
    own = getattr(algorithm_class(name), "default_formulation", None) or "erlpboost"
    assert algorithm_class(name).unsupported(load_formulation(own)) is None


@pytest.mark.parametrize("name, formulation", [
    ("adaboost", "lpboost"), ("arc_gv", "lpboost"), ("lpboost", "lpboost"),
    ("softboost", "softboost"), ("corrective_binary_erlpboost", "binary_erlpboost")])
def test_fit_by_algorithm_alone(name, formulation):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=120) > 0, 1.0, -1.0)
    result = run(X, y, algorithm=name, max_iter=20, nu_frac=0.2, eps=0.05)
    assert result.formulation == formulation and result.algorithm == name
