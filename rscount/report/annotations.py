"""GitHub workflow commands for a report (`rscount report --github-annotations`): one `::error` line
per task that did not pass, placed on the task file's line a reviewer should look at (a failed pin:
its `expect:` entry; an invalid file: the line or field the error names; a limit: the file's
first line), so that a pull request shows it beside the task file's diff."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from ..insight.judging import Judgement, Status
from .text import report_verdict

TITLES = {
    Status.FAILED: "rscount: expectation failed",
    Status.INVALID: "rscount: invalid task file",
    Status.LIMIT: "rscount: limit",
}
FIELD_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def workflow_commands(entries: Sequence[Judgement]) -> list[str]:
    """The `::error file=...,line=...,title=...::message` lines of every task that failed the report."""
    return [
        f"::error file={_property(_file(e))},line={_line(e)},"
        f"title={_property(TITLES[e.status])}::"
        f"{_data(_message(e))}"
        for e in entries
        if e.status.fails
    ]


def _file(e: Judgement) -> str:
    """The file the annotation is on: where the error is (a program), else the task file."""
    where = e.failure.path if e.failure is not None else None
    return where or e.path or e.name


def _message(e: Judgement) -> str:
    if e.failure is not None:
        return e.failure.message
    return "; ".join(o.message for o in e.outcomes if o.failed) or report_verdict(e)


def _line(e: Judgement) -> int:
    """The 1-based line of the annotation's file it goes on (1 when nothing more precise)."""
    task_file = Path(e.path or e.name)
    if e.failure is None:  # a failed pin: its line under expect:
        failed = [o.expectation for o in e.outcomes if o.failed]
        return _key_line(task_file, ["expect", *failed[:1]]) or 1
    if e.failure.limit:
        return 1
    if e.failure.line is not None:
        return e.failure.line
    if e.failure.field and e.failure.path is None:
        steps: list[Any] = [name or int(index) for name, index in FIELD_STEP.findall(e.failure.field)]
        return _key_line(task_file, steps) or 1
    return 1


def _key_line(path: Path, steps: Sequence[Any]) -> int | None:
    """The line of the deepest of `steps` (mapping keys, list indices) found in the YAML file."""
    try:
        node = YAML().load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError):
        return None
    line = None
    for step in steps:
        if isinstance(node, CommentedMap) and step in node:
            line = node.lc.key(step)[0]
        elif isinstance(node, CommentedSeq) and isinstance(step, int) and 0 <= step < len(node):
            line = node.lc.item(step)[0]
        else:
            break
        node = node[step]
    return None if line is None else int(line) + 1


def _data(text: str) -> str:
    """A command's message escaped as GitHub reads it back (%, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A command's property value escaped (also ':' and ',', which separate properties)."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")
