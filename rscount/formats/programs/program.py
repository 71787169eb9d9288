"""What a program file gives a task, whichever language it is written in (rscount.formats.programs
registers the readers): concepts, labels, queries' answers, notes."""

from __future__ import annotations

import dataclasses
import keyword
import re

from ...task.expressions import OPS, Expr
from ...task.model import Concept, QueryAnswers

Reads = tuple[str, tuple[str, ...]]
NAME_CHARS = 60  # a concept or label name made from a longer atom is cut there


@dataclasses.dataclass(frozen=True)
class Program:
    """What a program file gives a task: its concepts and labels, its queries with variables and
    their answers, notes on what each concept and label stands for and what was left out, and per
    concept the (predicate, inputs) it reads when it is a disjunction p(inputs, V)."""

    concepts: tuple[Concept, ...]
    labels: dict[str, Expr]
    answers: tuple[QueryAnswers, ...]
    notes: tuple[str, ...]
    reads: tuple[Reads | None, ...]
    evidence: str | None  # the label that is the program's evidence, if it has some


def safe_name(text: str) -> str:
    """A concept or label name made from a program's text: an identifier, cut at NAME_CHARS."""
    base = re.sub(r"\W+", "_", text).strip("_")[:NAME_CHARS] or "c"
    if base[0].isdigit() or keyword.iskeyword(base) or base in OPS:
        base = f"c_{base}"
    return base


def error_line(error: BaseException) -> int | None:
    """The program's line an exception of a reader's library places the error on, when it gives one
    (problog's (file, line, column) location)."""
    location = getattr(error, "location", None)
    if isinstance(location, tuple) and len(location) == 3 and isinstance(location[1], int):
        return location[1]
    return None
