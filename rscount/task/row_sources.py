"""Concept vectors given apart from a task's support (a test or out-of-distribution split for the
forecast): a file (CSV or JSON lines with a column per concept, or YAML / JSON holding a list of
rows) or the rows written inline (`[[0, 1, 1], [1, 0, 0]]`), checked against the task's domains."""

from __future__ import annotations

from pathlib import Path

from ..errors import AnnotationError, TaskError, quote
from .annotations import read_annotations
from .inputs import load_yaml, read_text
from .model import Task
from .support import Row, parse_row

TABLE_SUFFIXES = (".csv", ".jsonl", ".ndjson")


def rows_from(spec: str, task: Task, where: str = "test") -> list[Row]:
    """The distinct concept vectors of `spec`: an existing file, else inline YAML rows; a CSV or JSON
    lines file's label columns must agree with the knowledge (the first disagreement is named)."""
    path = Path(spec)
    if _is_file(path):
        if path.suffix.lower() in TABLE_SUFFIXES:
            found = read_annotations(path, task.concepts, list(task.labels))
            wrong = found.contradictions(list(task.labels), task.label_of)
            if wrong:
                raise AnnotationError(str(path), f"labels disagree with the knowledge: {wrong[0]}")
            return found.distinct
        data, source = load_yaml(read_text(path), str(path)), str(path)
    else:
        data, source = load_yaml(spec, where), where
    if isinstance(data, dict) and "support" in data:
        data = data["support"]
    if not isinstance(data, list) or not data:
        shown = quote(spec)
        raise TaskError(where, f"{shown} is neither a file nor a non-empty list of rows")
    rows = [parse_row(row, task.names, task.domains, f"{source}[{n}]") for n, row in enumerate(data)]
    return list(dict.fromkeys(rows))


def _is_file(path: Path) -> bool:
    """Whether `path` names an existing file (a name too long for the system is none)."""
    try:
        return path.is_file()
    except OSError:
        return False
