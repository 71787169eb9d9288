"""`rscount report --update-pins`: rewrite a task file's pinned count (`expect: {count: N}` or
`{shortcuts: N}`) in place for an intended change, touching nothing but the pinned number, so the
file's comments, order and layout stay as they were.

The number's position comes from a round-trip YAML parse (ruamel.yaml keeps line and column of
every value); the file is then read back to confirm that only the pin changed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML

from ..errors import TaskFileError
from ..formats.inputs import read_text
from ..outputs import write_output

PINS = ("count", "shortcuts")  # bounds (max_count, min_count) are design choices, never rewritten


def pinned(expect: dict[str, Any], count: int, intended: int) -> dict[str, int]:
    """The pins of `expect` rewritten for an exact `count` whose intended part is `intended` (1 map,
    or the intended pairs in the jrs mode), only the pins it has."""
    wanted = {"count": count, "shortcuts": count - intended}
    return {key: wanted[key] for key in PINS if key in expect}


def positions(mapping: Any, key: str, path: Path) -> tuple[int, int]:
    """The line and column (from 0) of `key`'s value in a round-trip-parsed YAML mapping; a
    TaskFileError when the value is not written there (it comes through a merge key `<<:`)."""
    place = mapping.lc.value(key)  # None for a key a merge key brings in
    if place is None:
        why = "the pin comes from a YAML merge key, not written here: edit it by hand"
        raise TaskFileError(str(path), f"expect.{key}", why)
    line, column = place
    return int(line), int(column)


def update_pins(path: Path, count: int, intended: int) -> dict[str, tuple[int, int]]:
    """Set the pins of the task file at `path` to match the exact `count` (intended part
    `intended`); returns each changed pin as (old, new) (nothing when the file pins nothing or
    already matches)."""
    text = read_text(path)
    data = YAML().load(text)
    expect: Any = data.get("expect") if isinstance(data, dict) else None
    if not isinstance(expect, dict):
        return {}
    lines = text.splitlines(keepends=True)
    changed: dict[str, tuple[int, int]] = {}
    for key, new in pinned(dict(expect), count, intended).items():
        if expect[key] == new:
            continue
        line, column = positions(expect, key, path)
        number = re.match(r"\d+", lines[line][column:])
        if number is None or int(number.group()) != expect[key]:
            raise TaskFileError(
                str(path), f"expect.{key}", "the pinned number is not written as a plain integer"
            )
        lines[line] = lines[line][:column] + str(new) + lines[line][column + len(number.group()) :]
        changed[key] = (expect[key], new)
    if not changed:
        return {}
    updated = "".join(lines)
    before, after = yaml.safe_load(text), yaml.safe_load(updated)
    before["expect"].update({key: new for key, (_, new) in changed.items()})
    if before != after:
        raise TaskFileError(str(path), "expect", "could not rewrite the pin without changing anything else")
    write_output(path, updated, "task file", overwrite=True)
    return changed
