"""Knowledge written as a program (`program: FILE` in a task file): a reader per language, chosen by
the file's extension; a new language is a module with a ProgramReader and one line in
PROGRAM_READERS."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...errors import FormatError, RscountError, short
from .neurasp import read_neurasp
from .problog import read_problog
from .program import Program, error_line
from .scallop import read_scallop

__all__ = [
    "Program",
    "ProgramKey",
    "ProgramReader",
    "PROGRAM_READERS",
    "keep_programs",
    "programs_kept",
    "read_program",
]

ProgramReader = Callable[[Path, str, Any], Program]  # (path, text, the task's query:) -> Program

PROGRAM_READERS: dict[str, ProgramReader] = {".pl": read_problog, ".lp": read_neurasp, ".scl": read_scallop}
DEFAULT_SUFFIX = ".pl"  # a program with any other extension is read as ProbLog


ProgramKey = tuple[Path, str, "str | None"]  # a program file read: its path, its text, the task's query
KEPT_MAX = 2  # programs read that are kept (a command reads one task, advise reads it again)
_kept: dict[ProgramKey, Program] = {}


def read_program(path: Path, text: str, query: Any) -> Program:
    """The program of `path` (its `text`), read by the reader its extension names, for the task's
    `query:` (None when the task gives none). An exception of the reader's library (problog's
    arithmetic overflowing, a malformed term it does not check) is the program's FormatError. The
    last programs read are kept: advise reads its task's program again to verify a plan, which
    for a program's labels over 10^5 concept vectors takes as long as a count."""
    if query is not None and not isinstance(query, str):
        return _read(path, text, query)
    key = (path, text, query)
    if key not in _kept:
        program = _read(path, text, query)
        keep_programs([(key, program)])
    return _kept[key]


def programs_kept() -> list[tuple[ProgramKey, Program]]:
    """The programs read and kept (for a process that reads a task for another to keep them)."""
    return list(_kept.items())


def keep_programs(read: list[tuple[ProgramKey, Program]]) -> None:
    """Keep programs read (the last KEPT_MAX of them)."""
    for key, program in read:
        _kept.pop(key, None)
        _kept[key] = program
    while len(_kept) > KEPT_MAX:
        del _kept[next(iter(_kept))]


def _read(path: Path, text: str, query: Any) -> Program:
    """read_program without keeping the result."""
    reader = PROGRAM_READERS.get(path.suffix, PROGRAM_READERS[DEFAULT_SUFFIX])
    try:
        return reader(path, text, query)
    except (RscountError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - a program from a stranger must not end in a traceback
        first = str(exc).splitlines()[0] if str(exc) else ""
        why = f"{type(exc).__name__}: {short(first)}" if first else type(exc).__name__
        raise FormatError(str(path), f"cannot be read ({why})", error_line(exc)) from None
