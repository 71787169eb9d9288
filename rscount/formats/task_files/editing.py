"""A task file changed in place of being rewritten: support rows and supervision added, a concept
annotated on every example added as a label, the pinned count set, and everything else (name,
comments, order, knowledge and expression text) left as the author wrote it, by a round-trip YAML
parse (ruamel.yaml)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from ...task.model import Mode, Task
from ...task.support import Row
from ..inputs import read_text
from .writing import comment_lines

UNFOLDED = 1 << 30  # line width: ruamel folds a quoted word after an escape (`\r`) without the
# backslash that keeps the fold from reading back as a space, so nothing it writes is folded


def _flow(row: Sequence[Any]) -> CommentedSeq:
    """A row written on one line, as task files write them; its words double-quoted, as ruamel's
    YAML 1.2 writes some plain (`[:2, a]`) that the YAML 1.1 reader of task files refuses."""
    seq = CommentedSeq([DoubleQuotedScalarString(v) if isinstance(v, str) else v for v in row])
    seq.fa.set_flow_style()
    return seq


def _extend(data: CommentedMap, key: str, new: Sequence[Row], every: Sequence[Row]) -> None:
    """Append `new` rows to the list under `key`; when `key` holds no list (absent, `exhaustive`, a
    sample or a file), it becomes the explicit list `every`."""
    if not new:
        return
    if isinstance(data.get(key), list):
        for row in new:
            data[key].append(_flow(row))
    else:
        data[key] = CommentedSeq([_flow(r) for r in every])


def _entries(supervision: list[Any]) -> list[Any]:
    """Support.supervision's entries as YAML nodes: rows on one line, {row, concepts} mappings."""
    return [
        CommentedMap([("row", _flow(e["row"])), ("concepts", _flow(e["concepts"]))])
        if isinstance(e, dict)
        else e
        for e in supervision
    ]


def edited_task_file(
    path: Path,
    task: Task,
    added: Sequence[Row],
    supervised: Sequence[Row],
    partial: Sequence[tuple[Row, str]],
    annotated: dict[str, str],
    pin: int | None,
    comments: Sequence[str],
) -> str | None:
    """The text of the task file at `path` changed to `task` (the task after the plan): `added` and
    `supervised` rows appended, a {row, concepts} supervision entry per (row, concept) of `partial`,
    `annotated` labels (label -> concept) added, the count pinned to
    `pin` (or any pin removed when None), `comments` put first; None when the file is not a YAML
    task file with concepts (or objects) and labels, or a program task file whose rows are in the
    task's order and that gains no label (an rsbench config, DIMACS)."""
    if path.suffix.lower() not in (".yaml", ".yml"):
        return None
    text = read_text(path)
    yaml = YAML()
    yaml.width = UNFOLDED
    first = re.search(r"^( *)- ", text, re.MULTILINE)  # block lists indented as the author did
    offset = len(first.group(1)) if first else 0
    yaml.indent(mapping=2, sequence=offset + 2, offset=offset)
    data = yaml.load(text)
    if not isinstance(data, CommentedMap):
        return None
    if "program" in data:  # labels come from the program; rows stay in the file's concept order
        if annotated or (task.mode == Mode.OBJECTS) != (str(data.get("mode")) == str(Mode.OBJECTS)):
            return None
    elif "labels" not in data or not {"concepts", "objects"} & set(data):
        return None
    if task.extractor is not None and ("extractor" in data or task.in_place):  # the plan's extractor
        data["extractor"] = str(task.extractor)
        if "mode" in data:
            data["mode"] = str(task.mode)
    support = task.support
    _extend(data, "support", added, [] if support.exhaustive else support.rows)
    entries: list[Any] = [_flow(r) for r in supervised]
    entries += [CommentedMap([("row", _flow(r)), ("concepts", _flow([c]))]) for r, c in partial]
    if entries and isinstance(data.get("concept_supervision"), list):
        data["concept_supervision"].extend(entries)
    elif entries:
        data["concept_supervision"] = CommentedSeq(_entries(support.supervision()))
    for label, concept in annotated.items():
        if "knowledge" in data:  # labels: declares domains; the constraint makes the label the concept
            values = next(c.values for c in task.concepts if c.name == concept)
            data["labels"][label] = _flow(values)
            if not isinstance(data["knowledge"], list):
                data["knowledge"] = CommentedSeq([data["knowledge"]])
            data["knowledge"].append(f"Eq({label}, {concept})")
        else:
            data["labels"][label] = concept
    expect = data.get("expect")
    if pin is not None:
        if not isinstance(expect, dict):
            data["expect"] = expect = CommentedMap()
        for key in [k for k in ("max_count", "min_count", "shortcuts") if k in expect]:
            del expect[key]
        expect["count"] = pin
    elif isinstance(expect, dict):
        del data["expect"]
    out = io.StringIO()
    yaml.dump(data, out)
    return comment_lines(comments) + out.getvalue()
