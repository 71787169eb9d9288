"""The Python API for training code: load a task file, count its reasoning shortcuts, check it.

import rscount
task = rscount.load_task("tasks/xor3.yaml")
result = rscount.count(task)            # result.count == 24, result.exact, result.method, ...
report = rscount.check(task)            # report.verdict, report.unidentified, report.findings
"""

from __future__ import annotations

import os
from dataclasses import replace

from .backends import CountOptions, CountResult
from .batch import Settings
from .counting import count_task, run_stoppable
from .task import Task
from .taskcheck import CheckReport
from .taskcheck import check as check_task
from .taskfile import load_task

__all__ = ["load_task", "count", "check"]


def _task(task: Task | str | os.PathLike) -> Task:
    return task if isinstance(task, Task) else load_task(task)


def count(
    task: Task | str | os.PathLike,
    method: str = "auto",
    mode: str | None = None,
    epsilon: float = 0.8,
    delta: float = 0.2,
    seed: int = 1,
    timeout: float | None = None,
) -> CountResult:
    """Count the optimal concept maps of a task (or task file) as `rscount count` does; with a
    `timeout`, the count runs in a child process that is stopped after that many seconds."""
    task = _task(task)
    options = CountOptions(epsilon=epsilon, delta=delta, seed=seed)
    if timeout is None:
        return count_task(task, mode or task.mode, method, options)[0]
    return run_stoppable(_count, task, mode or task.mode, method, options, timeout=timeout)


def _count(task: Task, mode: str, method: str, options: CountOptions) -> CountResult:
    return count_task(task, mode, method, options)[0]


def check(
    task: Task | str | os.PathLike, method: str = "auto", timeout: float | None = 300, **settings: object
) -> CheckReport:
    """The pre-training design check of a task (or task file): findings, count, verdict and the
    concepts whose meaning is not identified (settings as for `count`)."""
    return check_task(_task(task), replace(Settings(), method=method, timeout=timeout, **settings))
