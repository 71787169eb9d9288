"""GitHub workflow commands for a report (`rscount report --github-annotations`): one `::error` line
per task that did not pass, placed on the task file's line a reviewer should look at (a failed pin:
its `expect:` entry; an invalid file: the line or field the error names; a limit: the file's
first line; rscount.report.batch finds them within the task's time limit), so that a pull request
shows it beside the task file's diff. Text from the task is escaped as the runner reads it back
(rscount.sinks)."""

from __future__ import annotations

from collections.abc import Sequence

from ..insight.judging import Judgement, Status
from ..sinks import annotation_data, annotation_property
from .text import report_verdict

TITLES = {
    Status.FAILED: "rscount: expectation failed",
    Status.INVALID: "rscount: invalid task file",
    Status.LIMIT: "rscount: limit",
}


def workflow_commands(entries: Sequence[Judgement]) -> list[str]:
    """The `::error file=...,line=...,title=...::message` lines of every task that failed the report."""
    return [
        f"::error file={annotation_property(_file(e))},line={_line(e)},"
        f"title={annotation_property(TITLES[e.status])}::"
        f"{annotation_data(_message(e))}"
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
    if e.failure is not None and e.failure.line is not None:
        return e.failure.line
    return e.line or 1
