"""Supports read from the concept annotations of a real training split (`support: {file: F}`): CSV
with a header row, or JSON lines; one example per row, columns named after concepts, optional label
columns checked against the knowledge, other columns ignored (and reported)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AnnotationError, quote, short
from .inputs import read_text
from .model import Concept

JSON_LINES = (".jsonl", ".ndjson")
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

    def contradictions(self, names: Sequence[str], label_of: Any) -> list[str]:
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


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct (json keeps the last of two silently)."""
    keys = [k for k, _ in pairs]
    twice = [k for n, k in enumerate(keys) if k in keys[:n]]
    if twice:
        raise ValueError(f"key {quote(twice[0])} appears twice")
    return dict(pairs)


def records(path: Path, json_lines: bool) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    """(column names, [(line number, record)]) of a CSV or JSON-lines file; blank rows skipped,
    duplicate columns and ragged rows refused with their line."""
    text = read_text(path)
    if json_lines:
        records, columns = [], {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line, object_pairs_hook=_unique_keys)
            except (ValueError, RecursionError) as exc:
                why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc) or "nested too deeply"
                raise AnnotationError(str(path), f"invalid JSON: {why}", number) from None
            if not isinstance(record, dict):
                raise AnnotationError(str(path), "expected a JSON object per line", number)
            columns.update(dict.fromkeys(record))
            records.append((number, record))
        return list(columns), records
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if not header:
        raise AnnotationError(str(path), "empty file (expected a header row naming the concepts)")
    header = [h.strip() for h in header]
    twice = [h for n, h in enumerate(header) if h in header[:n]]
    if twice:
        raise AnnotationError(str(path), f"column {quote(twice[0])} appears twice in the header", 1)
    records = []
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        number = reader.line_num
        if len(row) != len(header):
            raise AnnotationError(str(path), f"{len(row)} cells, but the header has {len(header)}", number)
        records.append((number, dict(zip(header, row))))
    return header, records


def read_annotations(
    path: Path, concepts: Sequence[Concept], label_names: Sequence[str], json_lines: bool | None = None
) -> Annotations:
    """Read an annotation file (JSON lines when `json_lines`, by extension when None); every concept
    needs a column, every value must be in its domain."""
    columns, found = records(path, path.suffix.lower() in JSON_LINES if json_lines is None else json_lines)
    missing = [c.name for c in concepts if c.name not in columns]
    if missing:
        raise AnnotationError(
            str(path),
            f"no column for concept {quote(missing[0])} (columns: {short(', '.join(columns))})",
        )
    if not found:
        raise AnnotationError(str(path), "no examples (the support would be empty)")
    label_columns = [name for name in label_names if name in columns]
    lines, rows = [], []
    labels: dict[str, list[str]] = {name: [] for name in label_columns}
    for number, record in found:
        absent = [c.name for c in concepts if record.get(c.name) in (None, "")]
        if absent:
            raise AnnotationError(str(path), f"no value for concept {quote(absent[0])}", number)
        rows.append(tuple(value_of(record[c.name], c, path, number) for c in concepts))
        lines.append(number)
        for name in label_columns:
            labels[name].append(str(int(record[name]) if isinstance(record[name], bool) else record[name]))
    known = {c.name for c in concepts} | set(label_columns)
    ignored = [c for c in columns if c not in known]
    return Annotations(path, lines, rows, labels, ignored)
