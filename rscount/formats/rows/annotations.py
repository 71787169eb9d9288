"""The rows an annotation file gives a task (one per example, with its line) and the label cells it
states beside them, which must agree with the knowledge."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import AnnotationError, quote, short
from ...task.model import Concept

SHOWN = 3  # contradicting rows named in a one-line error


@dataclass
class Annotations:
    """The examples of an annotation file: concept vectors and given labels, with their line numbers."""

    path: Path
    lines: list[int]
    rows: list[tuple[Any, ...]]
    labels: dict[str, list[str]]  # label column -> its cells as text, one per example
    ignored: list[str]

    @property
    def distinct(self) -> list[tuple[Any, ...]]:
        """The distinct concept vectors, in order of first appearance."""
        return list(dict.fromkeys(self.rows))

    def summary(self) -> dict[str, Any]:
        """What the file contributed: examples, distinct vectors, checked and ignored columns."""
        return {
            "file": str(self.path),
            "examples": len(self.rows),
            "distinct": len(self.distinct),
            "label_columns": list(self.labels),
            "ignored_columns": self.ignored,
        }

    def check_labels(self, names: Sequence[str], label_of: Callable[[Any], Sequence[Any]]) -> None:
        """Refuse the file when a label cell differs from the label the knowledge gives its row
        (`names`: the task's labels in order, `label_of`: a row's label tuple), naming the first few."""
        wrong = self._contradictions(names, label_of)
        if wrong:
            more = f"; and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
            problem = f"{len(wrong)} label cells contradict the knowledge: " + "; ".join(wrong[:SHOWN]) + more
            raise AnnotationError(str(self.path), problem)

    def _contradictions(self, names: Sequence[str], label_of: Callable[[Any], Sequence[Any]]) -> list[str]:
        """Every example whose label cell differs from the knowledge's label, as 'line N: ...'."""
        found = []
        positions = {name: n for n, name in enumerate(names)}
        for n, (line, row) in enumerate(zip(self.lines, self.rows)):
            expected = label_of(row)
            for label, cells in self.labels.items():
                want = expected[positions[label]]
                if not _same(cells[n], want):
                    given = short(cells[n])
                    found.append(f"line {line}: {label} = {given} but the knowledge gives {quote(want)}")
        return found


def _same(cell: str, value: Any) -> bool:
    text = cell.strip()
    if value in (0, 1) and text.lower() in ("true", "false"):
        return (text.lower() == "true") == bool(value)
    return text == str(value)


def value_of(cell: Any, concept: Concept, path: Path, line: int | None) -> Any:
    """The domain value a cell names (by its text, so CSV's '3' is 3; true/false for Booleans)."""
    if isinstance(cell, bool):
        if concept.values != (0, 1):
            domain = list(concept.values)
            raise AnnotationError(
                str(path),
                f"{concept.name} is {str(cell).lower()}, but its domain {quote(domain)} is not Boolean",
                line,
            )
        cell = int(cell)
    text = str(cell).strip()
    if concept.values == (0, 1) and text.lower() in ("true", "false"):
        return int(text.lower() == "true")
    for value in concept.values:
        if str(value) == text:
            return value
    domain = list(concept.values)
    raise AnnotationError(
        str(path), f"value {quote(cell)} of {concept.name} is outside its domain {quote(domain)}", line
    )
