"""Concept vectors given apart from a task's support (a test or out-of-distribution split for the
forecast): a file (CSV or JSON lines with a column per concept, or YAML / JSON holding a list of
rows) or the rows written inline (`[[0, 1, 1], [1, 0, 0]]`), checked against the task's domains."""

from __future__ import annotations

from pathlib import Path

from ...errors import TaskError, quote
from ...task.model import Task
from ...task.support import Row, parse_row
from ..inputs import load_yaml, read_text
from . import by_suffix
from .format import RowRequest


def rows_from(spec: str, task: Task, where: str = "test") -> list[Row]:
    """The distinct concept vectors of `spec`: an existing file, else inline YAML rows; a file of a
    row format its extension names (CSV, JSON lines) must have label columns that agree with the
    knowledge."""
    path = Path(spec)
    if _is_file(path):
        row_format = by_suffix(path)
        if row_format is not None:
            found = row_format.read(path, RowRequest(task.concepts, list(task.labels), task.objects))
            found.check_labels(list(task.labels), task.label_of)
            return found.distinct
        data, source = load_yaml(read_text(path), str(path)), str(path)
    else:
        data, source = load_yaml(spec, where), where
    if isinstance(data, dict) and "support" in data:
        data = data["support"]
    if not isinstance(data, list) or not data:
        shown = quote(spec)
        raise TaskError(where, f"{shown} is neither a file nor a non-empty list of rows")
    rows = [parse_row(row, task.names, task.ground_truths, f"{source}[{n}]") for n, row in enumerate(data)]
    return list(dict.fromkeys(rows))


def _is_file(path: Path) -> bool:
    """Whether `path` names an existing file (a name too long for the system is none)."""
    try:
        return path.is_file()
    except OSError:
        return False
