"""What a row format is to the registry (rscount.formats.rows): a name, a reader, how its files are
recognised, and what it needs of the task reading it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...task.model import Concept, Objects
from .annotations import Annotations


@dataclass(frozen=True)
class RowRequest:
    """What a reader is told of the task its rows are for: the concepts (each row is a vector over
    them), the label names (label columns are checked), the objects, and a KANDY task_id to keep."""

    concepts: Sequence[Concept]
    labels: Sequence[str]
    objects: Objects | None = None
    task_id: Any = None


@dataclass(frozen=True)
class RowFormat:
    """A row format: `read(path, request)` gives its annotations; `claims(path, head)` says whether a
    file whose text starts with `head` is in it; `suffixes` name it by extension. `title` names it in
    messages; `objects` (rows are objects' attributes), `selects_task` (reads `task:`) and
    `one_label` (gives exactly one label) are what a task needs to read it."""

    name: str
    read: Callable[[Path, RowRequest], Annotations]
    claims: Callable[[Path, str], bool]
    title: str
    suffixes: tuple[str, ...] = ()
    objects: bool = False
    selects_task: bool = False
    one_label: bool = False
