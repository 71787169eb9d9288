"""Knowledge written as a program (`program: FILE` in a task file): a reader per language, chosen by
the file's extension; a new language is a module with a ProgramReader and one line in
PROGRAM_READERS."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .neurasp import read_neurasp
from .problog import read_problog
from .program import Program

__all__ = ["Program", "ProgramReader", "PROGRAM_READERS", "read_program"]

ProgramReader = Callable[[Path, str, Any], Program]  # (path, text, the task's query:) -> Program

PROGRAM_READERS: dict[str, ProgramReader] = {".pl": read_problog, ".lp": read_neurasp}
DEFAULT_SUFFIX = ".pl"  # a program with any other extension is read as ProbLog


def read_program(path: Path, text: str, query: Any) -> Program:
    """The program of `path` (its `text`), read by the reader its extension names, for the task's
    `query:` (None when the task gives none)."""
    reader = PROGRAM_READERS.get(path.suffix, PROGRAM_READERS[DEFAULT_SUFFIX])
    return reader(path, text, query)
