"""DualBoostClassifierCV: nu / N chosen by cross-validation (issue 31)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone

from dualboost.estimator_cv import DualBoostClassifierCV


def test_nu_is_chosen_by_cross_validation():
    rng = np.random.default_rng(0)
    N = 200
    X = rng.normal(size=(N, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, 0)
    flip = rng.random(N) < 0.1
    y[flip] = 1 - y[flip]
    clf = DualBoostClassifierCV(nu_fracs=[0.05, 0.3], cv=3, eps=0.05)
    clf.fit(X, y)
    assert clf.nu_frac_ in (0.05, 0.3)
    assert clf.scores_.shape == (2,)
    assert clf.scores_[[0.05, 0.3].index(clf.nu_frac_)] == pytest.approx(clf.scores_.max())
    assert list(clf.cv_results_["param_nu_frac"]) == [0.05, 0.3]
    assert clf.best_estimator_.nu_frac == clf.nu_frac_
    assert set(clf.predict(X)) <= {0, 1} and clf.score(X, y) > 0.7
    assert clone(clf).get_params()["nu_fracs"] == [0.05, 0.3]


def test_bad_nu_fracs():
    with pytest.raises(ValueError, match="nu_fracs"):
        DualBoostClassifierCV(nu_fracs=[0.0, 2.0]).fit(np.zeros((4, 1)), [0, 1, 0, 1])
