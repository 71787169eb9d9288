"""Exit codes and error messages: the only place that knows which flag sets each library setting
and which exit code each kind of error gets."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from ..errors import (
    InternalError,
    InvalidSetting,
    LimitReached,
    OutputError,
    OutputExists,
    RscountError,
    cut_path,
)


class Exit(IntEnum):
    """rscount's exit codes (docs/ci.md)."""

    OK = 0  # no shortcuts, every expectation holds, or the command did what was asked
    SHORTCUTS = 1  # shortcuts found (check, report with --fail-on-shortcuts) or a failed expectation
    INVALID = 2  # invalid input: a task, a file, a flag, an output path
    LIMIT = 3  # a time or memory limit was reached
    INTERNAL = 4  # rscount failed: a bug or a solver library's crash (please report it)
    INTERRUPTED = 130
    BROKEN_PIPE = 141


WORST = (Exit.INVALID, Exit.LIMIT, Exit.SHORTCUTS, Exit.OK)  # an invalid task first: no count helps it


def worst(codes: Iterable[Exit]) -> Exit:
    """The exit code of several tasks: the worst of theirs, in the order 2, 3, 1, 0 (docs/ci.md)."""
    return min(codes, key=WORST.index, default=Exit.OK)


# Settings whose flag is not simply --<setting with dashes>, and outputs named after their flag.
FLAGS = {"emit": "emit", "emit_task": "emit-task"}


def flag(setting: str) -> str:
    """The command-line flag of a library setting or output name."""
    return "--" + FLAGS.get(setting, setting.replace("_", "-"))


def message(error: RscountError) -> str:
    """The one line the CLI prints for a library error (after `rscount: error: `)."""
    if isinstance(error, OutputExists):
        where = f"{flag(error.output)} {cut_path(error.path)}" if error.output else cut_path(error.path)
        return f"{where}: exists; pass --force to overwrite it"
    if isinstance(error, OutputError):
        where = f"{flag(error.output)} {cut_path(error.path)}" if error.output else cut_path(error.path)
        return f"{where}: {error.problem}"
    if isinstance(error, InvalidSetting):
        return f"{flag(error.setting)}: {error.problem}"
    text = str(error)
    if error.remedies:
        text += f" ({', '.join(flag(r) for r in error.remedies)})"
    return text


def exit_code(error: RscountError) -> Exit:
    """The exit code of a library error."""
    if isinstance(error, InternalError):
        return Exit.INTERNAL
    return Exit.LIMIT if isinstance(error, LimitReached) else Exit.INVALID
