"""What a task is, in a few short strings: its concepts, labels, support, supervision and mode (the
columns of `rscount list`, of reports and of the catalogue)."""

from __future__ import annotations

from typing import Any

from ..limits import number_text
from .model import Task


def describe(task: Task) -> dict[str, Any]:
    """task, concepts (with the object structure), labels, support (with its source), supervised, mode,
    and where the knowledge comes from (a program file, or the task file's expressions or constraints)."""
    if task.objects:
        n, m = task.objects.count, len(task.objects.attributes)
        concepts = f"{len(task.concepts)} ({n} object{'s' * (n != 1)} x {m} attribute{'s' * (m != 1)})"
    else:
        concepts = str(len(task.concepts))
    support = number_text(task.support.size) + (" (all)" if task.support.exhaustive else "")
    source = task.support.source
    if source:
        support += f" (from {source['examples']} examples)"
    return {
        "task": task.name,
        "concepts": concepts,
        "labels": ", ".join(task.labels),
        "support": support,
        "supervised": len(task.support.supervised) + len(task.support.partial),
        "mode": str(task.mode),
        "knowledge": _knowledge(task),
    }


def _knowledge(task: Task) -> str:
    """Where the task's labels come from: a program, constraints or expressions."""
    if task.program:
        return f"program {task.program}"
    return "constraints" if task.constraints is not None else "expressions"
