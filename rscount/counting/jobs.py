"""One count as a self-contained, picklable job, run in a child process that its time limit stops:
what the API, `check`, `report`, `advise` and `sweep` hand to this process, a local process pool or
Dask workers (rscount.counting.parallel)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import LimitReached, RscountError
from ..knowledge.loading import load_task
from ..progress import Progress
from ..task.model import Task
from .isolation import run_stoppable
from .policy import count_task
from .result import CountResult
from .settings import DEFAULT_SETTINGS, CountSettings, Method


def count(
    task: Task, settings: CountSettings = DEFAULT_SETTINGS, progress: Progress | None = None
) -> CountResult:
    """Count `task` as `settings` say; with a time limit, in a child process stopped at the limit
    (TimeLimitExceeded, whose `partial` holds what was established: lower_bound, classes_done,
    classes_total when decomposition had counted some classes)."""
    if not settings.limited:
        return count_task(task, settings, progress)
    progress = progress or Progress(enabled=False)
    return run_stoppable(
        count_task, task, settings, progress, **settings.limits(), what=task.name, progress=progress
    )


def load_within(path: str | os.PathLike[str], settings: CountSettings) -> tuple[Task, CountSettings]:
    """The task file at `path`, read and checked within the settings' limits (a hostile file can
    ask for minutes of work or gigabytes before any count starts), and the settings for the rest
    of the job (the time left)."""
    if not settings.limited:
        return load_task(path), settings
    start = time.monotonic()
    task = run_stoppable(load_task, path, **settings.limits(), what=f"reading {Path(path).name}")
    return task, settings.after(time.monotonic() - start)


@dataclass(frozen=True)
class CountJob:
    """Count `task` as `settings` say (the time limit applies to this job alone)."""

    task: Task
    settings: CountSettings


@dataclass(frozen=True)
class CountOutcome:
    """The count (None when it failed: `error` says why and `limit` whether a time or memory limit
    stopped it), whether it is exact, the method used and the wall-clock seconds."""

    count: int | None
    exact: bool
    method: Method
    seconds: float
    error: str | None = None
    limit: bool = False


def run_count(job: CountJob) -> CountOutcome:
    """Run one job in a child process; user errors and limits come back in the outcome, not as
    exceptions, so one failed count does not lose the others of a batch."""
    start = time.perf_counter()
    settings = job.settings
    try:
        result = run_stoppable(count_task, job.task, settings, **settings.limits(), what=job.task.name)
    except RscountError as exc:
        seconds = time.perf_counter() - start
        return CountOutcome(None, False, settings.method, seconds, str(exc), isinstance(exc, LimitReached))
    return CountOutcome(result.count, result.exact, result.method, time.perf_counter() - start)
