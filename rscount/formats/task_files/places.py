"""Where a task file says something: the line of a field (`expect.count`, `support[3]`), read with
ruamel.yaml's round-trip parser, which keeps every key's and item's line. That parser is pure
Python and slow on a large file, so callers run it within their time limit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

FIELD_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def field_steps(field: str) -> list[Any]:
    """The mapping keys and list indices of a field as errors name it (`support[3]` -> support, 3)."""
    return [name or int(index) for name, index in FIELD_STEP.findall(field)]


def key_line(path: Path, steps: Sequence[Any]) -> int | None:
    """The 1-based line of the deepest of `steps` (mapping keys, list indices) found in the YAML
    file at `path` (None when the file does not parse or has none of them)."""
    try:
        node = YAML().load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError, RecursionError):
        return None
    line = None
    for step in steps:
        if isinstance(node, CommentedMap) and step in node and node.lc.key(step) is not None:
            line = node.lc.key(step)[0]
        elif isinstance(node, CommentedSeq) and isinstance(step, int) and 0 <= step < len(node):
            line = node.lc.item(step)[0]
        else:
            break
        node = node[step]
    return None if line is None else int(line) + 1
