"""The grid runner: every run of an experiment serially, on local processes or on a Dask
cluster, with one progress line per finished run (and an ETA) on stderr.

* serial: in this process, in task order;
* ``jobs=N``: a :class:`concurrent.futures.ProcessPoolExecutor` of N processes, each with one
  BLAS thread (two BLAS pools per core only fight), the data sets shipped once per process
  (the pool's initializer);
* ``scheduler=ADDRESS``: a ``dask.distributed`` cluster; each run is a task, the data sets are
  scattered once to every worker (``broadcast=True``), results are gathered as they finish
  (``as_completed``) and a failed task is retried (``retries``) before it is reported.

Whatever the executor, a run's record is ``{"key", "label", "kwargs", "result", "seconds",
"cpu_seconds", "error"}`` and the records come back in task order, so the report does not
depend on who ran what when.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from typing import Any

from .base import Task, call

#: data shipped to a local worker process by the pool's initializer
_DATA: dict | None = None

#: how often a failed Dask task is retried before it is reported as failed
DASK_RETRIES = 1


def _init_worker(data: dict) -> None:
    global _DATA
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except Exception:  # threadpoolctl missing: the environment variables above still apply
        pass
    _DATA = data


def _timed(task: Task, data: dict) -> dict:
    """Run one task; never raise (a failed run is a record with its error). ``cpu_seconds``
    is the process's CPU time over the run (one BLAS thread: about the run's wall time on a
    quiet machine, what run-time estimates use; the wall time depends on the load)."""
    tick, cpu = time.perf_counter(), time.process_time()
    try:
        result, error = call(task, data), None
    except Exception as exc:  # reported in the record and in the report
        result = None
        error = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
        if os.environ.get("DUALBOOST_REPRODUCE_DEBUG"):
            traceback.print_exc()
    return {"key": list(task.key), "label": task.label, "kwargs": task.kwargs,
            "result": result, "seconds": time.perf_counter() - tick,
            "cpu_seconds": time.process_time() - cpu, "error": error}


def _in_worker(task: Task) -> dict:
    return _timed(task, _DATA or {})


def _dask_run(task: Task, data: dict) -> dict:
    """A Dask task: raise on failure so that ``retries`` applies."""
    record = _timed(task, data)
    if record["error"] is not None:
        raise RuntimeError(record["error"])
    return record


class ProgressLine:
    """``[k/n] label: 1.2 s (elapsed 10 s, ETA 30 s)`` per finished run, on stderr."""

    def __init__(self, total: int, name: str, enabled: bool = True):
        self.total, self.name, self.enabled = total, name, enabled
        self.done = 0
        self.start = time.perf_counter()

    def __call__(self, record: dict) -> None:
        self.done += 1
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        eta = elapsed / self.done * (self.total - self.done)
        state = "FAILED " + record["error"] if record["error"] else f"{record['seconds']:.1f} s"
        print(f"dualboost reproduce {self.name}: [{self.done}/{self.total}] {record['label']}: "
              f"{state} (elapsed {_clock(elapsed)}, ETA {_clock(eta)})",
              file=sys.stderr, flush=True)


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def run_tasks(tasks: list[Task], data: dict, *, jobs: int = 1, scheduler: str | Any = None,
              progress: ProgressLine | None = None) -> list[dict]:
    """Every task's record, in task order (see the module docstring)."""
    progress = progress or ProgressLine(len(tasks), "", enabled=False)
    if scheduler is not None:
        records = _run_dask(tasks, data, scheduler, progress)
    elif jobs > 1 and len(tasks) > 1:
        records = _run_processes(tasks, data, jobs, progress)
    else:
        records = {}
        for task in tasks:
            record = _timed(task, data)
            records[task.key] = record
            progress(record)
    return [records[task.key] for task in tasks]


def _run_processes(tasks: list[Task], data: dict, jobs: int,
                   progress: ProgressLine) -> dict:
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # spawn: a fresh interpreter per worker (fork would copy the parent's BLAS threads)
    context = mp.get_context("spawn")
    records = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                             initargs=(data,)) as pool:
        futures = {pool.submit(_in_worker, task): task for task in tasks}
        for future in as_completed(futures):
            record = future.result()
            records[futures[future].key] = record
            progress(record)
    return records


def _run_dask(tasks: list[Task], data: dict, scheduler: str | Any,
              progress: ProgressLine) -> dict:
    try:
        from distributed import Client, as_completed
    except ImportError:
        from ..errors import DualBoostInputError

        raise DualBoostInputError(
            "--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    own = isinstance(scheduler, str)
    client = Client(scheduler) if own else scheduler
    try:
        shipped = client.scatter(data, broadcast=True) if data else {}
        futures = {}
        for task in tasks:
            future = client.submit(_dask_run, task, shipped, key=f"reproduce-{_slug(task)}",
                                   retries=DASK_RETRIES, pure=False)
            futures[future] = task
        records = {}
        for future in as_completed(list(futures)):
            task = futures[future]
            if future.status == "error":
                exc = future.exception()
                record = {"key": list(task.key), "label": task.label, "kwargs": task.kwargs,
                          "result": None, "seconds": 0.0, "cpu_seconds": 0.0,
                          "error": f"failed after {DASK_RETRIES} retr"
                                   f"{'y' if DASK_RETRIES == 1 else 'ies'}: {exc}"[:500]}
            else:
                record = future.result()
            records[task.key] = record
            progress(record)
        return records
    finally:
        if own:
            client.close()


def _slug(task: Task) -> str:
    import hashlib

    return hashlib.sha1(repr(task.key).encode()).hexdigest()[:16]
