"""One count as a self-contained, picklable job: what `parallel.run_jobs` hands to local processes or
Dask workers for advise and sweep. Each job counts in a child process that its time limit stops."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .backends import CountOptions, CountResult
from .counting import count_task, run_stoppable
from .errors import RscountError
from .task import Task


@dataclass(frozen=True)
class CountJob:
    """Count `task` in `mode` with `method` (ApproxMC settings included), stopped after `timeout` s."""

    task: Task
    mode: str
    method: str = "auto"
    epsilon: float = 0.8
    delta: float = 0.2
    seed: int = 1
    timeout: float | None = None


@dataclass(frozen=True)
class CountOutcome:
    """The count (None when it failed: `error` says why, e.g. the time limit), whether it is exact,
    the method used and the wall-clock seconds."""

    count: int | None
    exact: bool
    method: str
    seconds: float
    error: str | None = None


def _count(job: CountJob) -> CountResult:
    options = CountOptions(epsilon=job.epsilon, delta=job.delta, seed=job.seed)
    return count_task(job.task, job.mode, job.method, options)[0]


def run_count(job: CountJob) -> CountOutcome:
    """Run one job; user errors and time limits come back in the outcome, not as exceptions, so one
    failed count does not lose the others of a batch."""
    start = time.perf_counter()
    try:
        result = run_stoppable(_count, job, timeout=job.timeout)
    except RscountError as exc:
        return CountOutcome(None, False, job.method, time.perf_counter() - start, str(exc))
    return CountOutcome(result.count, result.exact, result.method, time.perf_counter() - start)
