"""BLAS threads during a fit (dualboost/threads.py): one by default, the user's choice honoured."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from dualboost import threads
from dualboost.api import run
from dualboost.errors import DualBoostInputError


def _blas_threads() -> dict[str, int]:
    """Threads of each loaded BLAS library (some builds are single-threaded: always 1)."""
    return {p["filepath"]: int(p["num_threads"]) for p in threadpool_info()
            if p.get("user_api") == "blas"}


def _threads_during_fit(**kwargs) -> set[int]:
    """The BLAS thread counts seen by the progress callback during a small ERLPBoost fit, of
    the libraries running more than one thread before it."""
    multi = {path for path, n in _blas_threads().items() if n > 1}
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1.0, -1.0)
    seen: set[int] = set()
    run(X, y, nu_frac=0.2, eps=0.1, kkt=False,
        progress=lambda record: seen.update(n for path, n in _blas_threads().items()
                                            if path in multi), **kwargs)
    assert seen, "the progress callback never ran"
    return seen


@pytest.fixture
def no_thread_variables(monkeypatch):
    for name in threads.THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def two_blas_threads(no_thread_variables):
    """BLAS at two threads around the test, as OpenBLAS's default on a 2-core machine."""
    if threads._cores() < 2:
        pytest.skip("one core: the default is already one BLAS thread")
    with threadpool_limits(limits=threads._cores(), user_api="blas"):
        if max(_blas_threads().values(), default=1) < 2:
            pytest.skip("the BLAS library does not run more than one thread here")
        yield


def test_default_fit_runs_one_blas_thread_and_restores(two_blas_threads):
    before = _blas_threads()
    assert _threads_during_fit() == {1}
    assert _blas_threads() == before  # restored after the fit


def test_explicit_blas_threads_is_used(two_blas_threads):
    assert _threads_during_fit(blas_threads=2) == {2}


def test_environment_variable_is_left_alone(two_blas_threads, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    assert threads.user_chose_threads()
    assert _threads_during_fit() == {2}


def test_enclosing_threadpool_limits_is_left_alone(two_blas_threads):
    with threadpool_limits(limits=1, user_api="blas"):
        assert threads.user_chose_threads()
    assert not threads.user_chose_threads()


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_blas_threads_is_an_input_error(bad):
    with pytest.raises(DualBoostInputError, match="blas_threads"):
        _threads_during_fit(blas_threads=bad)
