"""How many BLAS threads a fit uses: one, unless the user said otherwise.

A fit's BLAS work is many small or memory-bound products (the Newton master's matrix-vector
products with U and its t x t Cholesky factorizations, the KKT check's least squares, the
oracle's reductions); HiGHS does not use BLAS. Measured on a 2-core machine (a9a, ERLPBoost,
nu/N = 0.3, eps = 0.001, benchmarks/README.md "Concurrent fits"): alone, OpenBLAS's default of
one thread per core gained at most a few percent over one thread, while two fits at once took
15.4 s each with the default against 4.5 s with one thread: OpenBLAS threads spin-wait for
each other, and with more threads than free cores (two fits, ``GridSearchCV(n_jobs=...)``, any
busy machine) each product waits for a descheduled thread.

So :func:`blas_limit` runs a fit with one BLAS thread, except where the user chose:

* ``blas_threads=K`` given to :func:`dualboost.api.run`: K threads (``None``: the policy below);
* one of :data:`THREAD_VARIABLES` set in the environment (``OMP_NUM_THREADS=4 dualboost fit``):
  left alone, the libraries read it themselves;
* a BLAS library already running fewer threads than the machine has cores (an enclosing
  ``threadpoolctl.threadpool_limits(...)``): left alone.

What a user's own thread count costs depends on the machine: ``OPENBLAS_NUM_THREADS=2`` on a
2-core AMD EPYC made the a9a fit 4.5x slower alone (6.85 s against 1.51 s) while each product
was no slower; numpy and scipy each load their own OpenBLAS, and the worker that one library's
product leaves spinning takes the core from the next product in the other
(benchmarks/README.md, "Concurrent fits and BLAS threads"). It is honoured all the
same: an explicit setting is the user's call.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from .errors import DualBoostInputError

__all__ = ["THREAD_VARIABLES", "blas_limit", "user_chose_threads"]

#: environment variables by which a user sets the BLAS/OpenMP thread count
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _blas_pools() -> list[dict]:
    """The loaded BLAS libraries (threadpoolctl; numpy's and scipy's OpenBLAS are separate
    libraries, and scipy's is loaded first so that it is limited too)."""
    import scipy.linalg  # noqa: F401  (loads scipy's BLAS)
    from threadpoolctl import threadpool_info

    return [p for p in threadpool_info() if p.get("user_api") == "blas"]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def user_chose_threads() -> bool:
    """Whether the user set the BLAS thread count: an environment variable of
    :data:`THREAD_VARIABLES`, or a BLAS library already limited below the number of cores."""
    if any(os.environ.get(name, "").strip() for name in THREAD_VARIABLES):
        return True
    pools = _blas_pools()
    return bool(pools) and max(int(p["num_threads"]) for p in pools) < _cores()


@contextlib.contextmanager
def blas_limit(blas_threads: int | None = None) -> Iterator[None]:
    """Run the body with ``blas_threads`` BLAS threads, or by the policy of the module docstring
    when None (one thread unless the user chose)."""
    if blas_threads is not None:
        if isinstance(blas_threads, bool) or not isinstance(blas_threads, int) \
                or blas_threads < 1:
            raise DualBoostInputError(
                f"blas_threads must be a positive integer or None, got {blas_threads!r}")
        limit = blas_threads
    elif user_chose_threads():
        yield
        return
    else:
        limit = 1
    if all(int(p["num_threads"]) == limit for p in _blas_pools()):
        yield  # already so: nothing to set or restore
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=limit, user_api="blas"):
        yield
