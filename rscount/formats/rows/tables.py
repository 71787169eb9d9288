"""The tabular row formats (`support: {file: F}`): CSV with a header row, and JSON lines; one example
per row, columns named after concepts, optional label columns checked against the knowledge, other
columns ignored (and reported)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import AnnotationError, quote, short
from ...task.model import Concept
from ..inputs import read_text
from .annotations import Annotations, value_of
from .format import RowFormat, RowRequest


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct (json keeps the last of two silently): json.loads'
    object_pairs_hook for every JSON a row format reads."""
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
                record = json.loads(line, object_pairs_hook=unique_keys)
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
    path: Path, concepts: Sequence[Concept], label_names: Sequence[str], json_lines: bool
) -> Annotations:
    """Read an annotation file (JSON lines when `json_lines`, else CSV); every concept needs a column,
    every value must be in its domain."""
    columns, found = records(path, json_lines)
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


def _read_csv(path: Path, request: RowRequest) -> Annotations:
    return read_annotations(path, request.concepts, request.labels, json_lines=False)


def _read_json_lines(path: Path, request: RowRequest) -> Annotations:
    return read_annotations(path, request.concepts, request.labels, json_lines=True)


def _claims_json_lines(path: Path, head: str) -> bool:
    return path.suffix.lower() in JSON_LINES_FORMAT.suffixes or head.startswith("{")


CSV_FORMAT = RowFormat("csv", _read_csv, lambda path, head: True, "a CSV file", (".csv",))
JSON_LINES_FORMAT = RowFormat(
    "jsonl", _read_json_lines, _claims_json_lines, "a JSON-lines file", (".jsonl", ".ndjson")
)
