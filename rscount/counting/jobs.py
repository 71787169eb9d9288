"""One count as a self-contained, picklable job, run in a child process that its time limit stops:
what the API, `check`, `report`, `advise` and `sweep` hand to this process, a local process pool or
Dask workers (rscount.counting.processes.parallel)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..errors import LimitReached, RscountError, TimeLimitExceeded
from ..knowledge.loading import load_task
from ..progress import Progress
from ..task.model import Task
from . import auto
from .dispatch import count_task
from .problem import CountProblem
from .processes.isolation import run_stoppable
from .result import CountedClasses, CountResult, Listed
from .settings import DEFAULT_SETTINGS, CountSettings, Method

T = TypeVar("T")


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


def within(settings: CountSettings, what: str, fn: Callable[..., T], *args: Any) -> tuple[T, CountSettings]:
    """fn(*args) run within the settings' limits (in a child process when there are any), and the
    settings for the rest of the same job (the time left)."""
    if not settings.limited:
        return fn(*args), settings
    start = time.monotonic()
    result = run_stoppable(fn, *args, **settings.limits(), what=what)
    return result, settings.after(time.monotonic() - start)


def load_within(path: str | os.PathLike[str], settings: CountSettings) -> tuple[Task, CountSettings]:
    """The task file at `path`, read and checked within the settings' limits (a hostile file can
    ask for minutes of work or gigabytes before any count starts), and the settings for the rest
    of the job."""
    return within(settings, f"reading {Path(path).name}", load_task, path, settings.mode)


@dataclass(frozen=True)
class CountJob:
    """Count `task` as `settings` say (the time limit applies to this job alone)."""

    task: Task
    settings: CountSettings


@dataclass(frozen=True)
class CountOutcome:
    """The count (None when it failed: `error` says why and `limit` whether a time or memory limit
    stopped it), whether it is exact, the method used and the wall-clock seconds; from a count by
    classes, its classes and search nodes, and from a method that lists its maps, the maps (listing
    them afterwards need not walk them again)."""

    count: int | None
    exact: bool
    method: Method
    seconds: float
    error: str | None = None
    limit: bool = False
    classes: CountedClasses | None = None
    nodes: int = 0
    maps: Listed | None = None

    @classmethod
    def of(cls, result: CountResult, seconds: float) -> CountOutcome:
        """The outcome of a count that answered."""
        nodes = result.details.get("search_nodes", 0)
        return cls(
            result.count,
            result.exact,
            result.method,
            seconds,
            classes=result.classes,
            nodes=nodes if isinstance(nodes, int) else 0,
            maps=result.maps,
        )


def run_count(job: CountJob) -> CountOutcome:
    """Run one job: auto's head start in this process (bounded in work and time), else in a child
    process; user errors and limits come back in the outcome, not as exceptions, so one failed count
    does not lose the others of a batch (advise and sweep make thousands of small counts, and a
    fork of a large process costs milliseconds)."""
    start = time.perf_counter()
    settings = job.settings
    if settings.left() == 0:  # the command's deadline passed while the job waited its turn
        stopped = TimeLimitExceeded(settings.timeout or 0, job.task.name)
        return CountOutcome(None, False, settings.method, 0.0, str(stopped), True)
    quick = _head_start(job.task, settings)
    if quick is not None:
        return CountOutcome.of(quick, time.perf_counter() - start)
    settings = settings.after(time.perf_counter() - start)
    if _tries_head_start(settings):  # the child need not try it again
        settings = settings.replace(head_start=False)
    try:
        result = run_stoppable(count_task, job.task, settings, **settings.limits(), what=job.task.name)
    except RscountError as exc:
        seconds = time.perf_counter() - start
        return CountOutcome(None, False, settings.method, seconds, str(exc), isinstance(exc, LimitReached))
    return CountOutcome.of(result, time.perf_counter() - start)


def _head_start(task: Task, settings: CountSettings) -> CountResult | None:
    """auto's head start for `task` in this process, or None (another method, a cross-check asked
    for, no answer within its bounds, or an error the child process will report)."""
    if not _tries_head_start(settings):
        return None
    try:
        return auto.head_start(CountProblem(task, settings.mode_for(task)), settings)
    except RscountError:
        return None


def _tries_head_start(settings: CountSettings) -> bool:
    """Whether run_count tries auto's head start before forking (auto without a cross-check)."""
    return settings.method == Method.AUTO and settings.head_start and not settings.cross_check
