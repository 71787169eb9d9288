"""KANDY's `annotations.csv` (columns filename, task_id, label, supervised, symbol; seed 001), for tasks
with `objects:`: the `symbol` cell is a tree such as
`stack([diag_ul_lr([{"shape": ..., "color": ...}, ...]), {...}])`, parsed here as data (never
evaluated); its leaves, left to right, are the task's objects. Operators are skipped, except that a
task whose objects have a `link` attribute gets each object's relation to the next: the operator of
their group when the two are adjacent children of one group and the operator is a `link` value (a
`_reduce_bb` variant counts as its base operator), else `none`. `task: N` keeps the rows of one
task_id; a row whose `supervised` cell is 0 has no label in training, so it constrains no map and is
left out. The `label` cell is checked against the knowledge.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from ...errors import AnnotationError, quote, short
from ...limits import DEPTH
from .annotations import Annotations
from .format import RowFormat, RowRequest
from .objects import object_row
from .tables import records

Slot = tuple[int, int, str | None]
KANDY_COLUMNS = ("filename", "task_id", "label", "supervised", "symbol")
TOKEN = re.compile(
    r'\s*(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<string>"(?:[^"\\]|\\.)*"|\'[^\']*\')'
    r"|(?P<number>-?[0-9]+(?:\.[0-9]+)?)|(?P<punct>[()\[\]{},:]))"
)


def _tokens(text: str, where: str) -> list[tuple[str, str]]:
    tokens, position = [], 0
    while position < len(text.rstrip()):
        found = TOKEN.match(text, position)
        if not found or found.end() == position:
            raise ValueError(f"{where}: unexpected {quote(text[position : position + 20])}")
        kind = found.lastgroup or ""
        tokens.append((kind, found.group(kind)))
        position = found.end()
    return tokens


def symbol_leaves(text: str) -> list[dict[str, Any]]:
    """The leaves (attribute mappings) of a KANDY symbol tree, left to right; operators skipped."""
    return symbol_tree(text)[0]


def symbol_tree(text: str) -> tuple[list[dict[str, Any]], list[str | None]]:
    """The leaves of a KANDY symbol tree, left to right, and for each leaf the operator joining it to
    the next leaf when the two are adjacent children of one operator's list (else None). A small
    recursive-descent reader over a token list: names, strings, numbers, (), [], {}."""
    tokens = _tokens(text, "symbol")
    leaves: list[dict[str, Any]] = []
    slots: list[Slot | None] = []  # per leaf: (list number, position in it, the list's operator)
    lists = itertools.count()
    position = 0

    def take(expected: str | None = None) -> tuple[str, str]:
        nonlocal position
        if position >= len(tokens):
            raise ValueError("symbol: ends too early")
        kind, value = tokens[position]
        if expected is not None and value != expected:
            raise ValueError(f"symbol: expected {expected!r}, got {quote(value)}")
        position += 1
        return kind, value

    def peek() -> str | None:
        return tokens[position][1] if position < len(tokens) else None

    def items(close: str, depth: int, mapping: bool, operator: str | None = None) -> Any:
        found: dict[str, Any] = {}
        listed: list[Any] = []
        number = next(lists)
        while peek() != close:
            if mapping:
                key = term(depth)
                take(":")
                if not isinstance(key, str):
                    raise ValueError("symbol: a mapping key is not a string")
                found[key] = term(depth)
            elif close == ")":  # an operator's arguments: a list among them is its children
                listed.append(term(depth, operator=operator))
            else:
                listed.append(term(depth, (number, len(listed), operator)))
            if peek() == ",":
                take(",")
            elif peek() != close:
                raise ValueError(f"symbol: expected ',' or {close!r}, got {quote(peek())}")
        take(close)
        return found if mapping else listed

    def term(depth: int, slot: Slot | None = None, operator: str | None = None) -> Any:
        if depth > DEPTH.value:
            raise ValueError("symbol: nested too deeply")
        kind, value = take()
        if kind == "string":
            return value[1:-1]
        if kind == "number":
            return value
        if kind == "name":
            if peek() == "(":
                take("(")
                items(")", depth + 1, False, value)  # an operator: its arguments' leaves are recorded
            return value
        if value == "[":
            return items("]", depth + 1, False, operator)
        if value == "{":
            leaf = items("}", depth + 1, True)
            leaves.append(leaf)
            slots.append(slot)
            return leaf
        raise ValueError(f"symbol: unexpected {quote(value)}")

    term(0)
    if position != len(tokens):
        raise ValueError(f"symbol: unexpected {quote(tokens[position][1])} after the tree")
    links: list[str | None] = []
    for here, after in zip(slots, [*slots[1:], None]):
        adjacent = here and after and here[0] == after[0] and after[1] == here[1] + 1
        links.append(here[2] if here and adjacent else None)
    return leaves, links


def _read_kandy(path: Path, request: RowRequest) -> Annotations:
    """The rows of one task of a KANDY annotations.csv (all rows when `request.task_id` is None)."""
    objects, task_id, (label,) = request.objects, request.task_id, request.labels
    assert objects is not None  # the registry reads it for tasks with objects only
    header, found = records(path, json_lines=False)
    missing = [c for c in KANDY_COLUMNS if c not in header]
    if missing:
        raise AnnotationError(
            str(path),
            f"no column {quote(missing[0])} (a KANDY annotations.csv has {', '.join(KANDY_COLUMNS)})",
            1,
        )
    lines, rows, labels = [], [], []
    for line, record in found:
        if task_id is not None and record["task_id"].strip() != str(task_id):
            continue
        if record["supervised"].strip().lower() in ("0", "false"):
            continue
        try:
            leaves, links = symbol_tree(record["symbol"])
        except (ValueError, RecursionError) as exc:
            raise AnnotationError(str(path), short(str(exc)), line) from None
        rows.append(object_row(objects, leaves, path, line, "the symbol", links))
        lines.append(line)
        labels.append(record["label"].strip())
    if not rows:
        which = "" if task_id is None else f" of task {quote(task_id)}"
        raise AnnotationError(str(path), f"no labelled rows{which} (the support would be empty)")
    return Annotations(
        path, lines, rows, {label: labels}, [c for c in header if c not in ("label", "symbol")]
    )


def _claims(path: Path, head: str) -> bool:
    first = head.splitlines()[0] if head else ""
    return [c.strip() for c in first.split(",")] == list(KANDY_COLUMNS)


KANDY_FORMAT = RowFormat(
    "kandy", _read_kandy, _claims, "a KANDY annotations.csv", objects=True, selects_task=True, one_label=True
)
