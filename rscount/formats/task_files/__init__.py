"""Reading a task from a file: the task-file formats below are tried in their declared order, and
the first that claims a file reads it (a DIMACS file by its extension or `p cnf` header, an rsbench
generator config by its keys, else an rscount task file). A new format is a TaskFormat and one line
in TASK_FORMATS."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ...errors import CapExceeded, TaskError, TaskFileError
from ...task.families import dimacs_task
from ...task.model import Mode, Task
from .. import dimacs
from ..inputs import load_yaml, read_text
from ..rsbench import is_generator_config, task_from_config
from .mapping import read_mapping

__all__ = ["TaskSource", "TaskFormat", "TASK_FORMATS", "read_task", "read_mapping", "located", "files_read"]


@dataclass
class TaskSource:
    """A file a task is read from: its path and text, and its YAML data once a format asks for it."""

    path: Path
    text: str

    @cached_property
    def data(self) -> Any:
        """The file's YAML document (rscount.formats.inputs.load_yaml: its caps and errors)."""
        return load_yaml(self.text, str(self.path))


@dataclass(frozen=True)
class TaskFormat:
    """A task-file format: whether it `claims` a source, and how it reads one (for a mode a command
    line asks, or None); `located`: its TaskErrors name a field, located here in the file read (a
    reader whose errors name their file and line already says False)."""

    name: str
    claims: Callable[[TaskSource], bool]
    read: Callable[[TaskSource, Mode | None], Task]
    located: bool = True


def _is_dimacs(source: TaskSource) -> bool:
    """By the extension, else by the first line that is not a comment (a `p cnf` header)."""
    suffix = source.path.suffix.lower()
    if suffix in dimacs.SUFFIXES:
        return True
    if suffix in (".yaml", ".yml"):
        return False
    for line in source.text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("c"):
            return stripped.startswith("p cnf")
    return False


def _read_dimacs(source: TaskSource, mode: Mode | None) -> Task:
    knowledge = dimacs.knowledge(dimacs.loads(source.text, str(source.path)), str(source.path))
    return dimacs_task(source.path.stem, knowledge)


def _read_config(source: TaskSource, mode: Mode | None) -> Task:
    return task_from_config(source.data, source.path.stem)


def _read_task_file(source: TaskSource, mode: Mode | None) -> Task:
    return read_mapping(source.data, source.path.stem, source.path.parent, mode)


TASK_FORMATS: tuple[TaskFormat, ...] = (
    TaskFormat("dimacs", _is_dimacs, _read_dimacs, located=False),
    TaskFormat("rsbench config", lambda source: is_generator_config(source.data), _read_config),
    TaskFormat("task file", lambda source: True, _read_task_file),
)


def read_task(path: str | os.PathLike[str], mode: Mode | None = None) -> Task:
    """The task a file describes, as written, read by the first format of TASK_FORMATS that claims
    it; every problem names the file (and field or line). `mode`: the mode it will be counted in,
    when a command line asks (a program is read as objects for the objects mode)."""
    source = TaskSource(Path(path), read_text(path))
    task_format = next(f for f in TASK_FORMATS if f.claims(source))  # the last claims every file
    if not task_format.located:
        return task_format.read(source, mode)
    try:
        return task_format.read(source, mode)
    except (TaskError, CapExceeded) as exc:
        raise located(exc, source.path) from None


def located(error: TaskError | CapExceeded, path: str | os.PathLike[str]) -> TaskFileError | CapExceeded:
    """An error of the task read from `path` (a TaskError, or a cap a field exceeded), located in
    that file."""
    return error if isinstance(error, TaskFileError) else error.in_file(str(path))


def files_read(task: Task, path: str | os.PathLike[str]) -> list[Path]:
    """The files a task read from `path` came from: that file, its program and its support file."""
    found = [Path(path)]
    if task.program is not None:
        found.append(Path(path).parent / task.program)
    if task.support.source:
        found.append(Path(task.support.source["file"]))
    return found
