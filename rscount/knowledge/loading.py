"""Tasks as the public API and the commands load them: read (rscount.formats.task_files), then their
knowledge checked: it compiles over the full domains (label types) and, when given as
constraints, gives every concept vector exactly one label tuple."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import CapExceeded, TaskError
from ..formats import task_files
from ..task.model import Mode, Task
from .answers import complete_answers
from .constraints import check_deterministic
from .labels import check_labels


def checked(task: Task) -> Task:
    """`task` once its knowledge is checked (a TaskError naming the field otherwise), with a program's
    queries decided (rscount.knowledge.answers)."""
    task = complete_answers(task)
    check_deterministic(task)
    check_labels(task)
    return task


def load_task(path: str | os.PathLike[str], mode: Mode | str | None = None) -> Task:
    """Read a task file (YAML task, rsbench generator config, or DIMACS knowledge) and check its
    knowledge; every problem is an error naming the file (and field or line). `mode`: the mode it
    will be counted in, when not the file's own (a program is then read for it)."""
    task = task_files.read_task(path, None if mode is None else Mode.parse(mode))
    try:
        return checked(task)
    except (TaskError, CapExceeded) as exc:
        raise task_files.located(exc, path) from None


def task_from_dict(data: Any, name: str = "task", base: str | os.PathLike[str] = ".") -> Task:
    """A task from a mapping in the task-file schema (paths in it relative to `base`), checked."""
    return checked(task_files.read_mapping(data, name, Path(base)))
