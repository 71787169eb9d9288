"""What a program file gives a task, whichever language it is written in (rscount.formats.programs
registers the readers): concepts, labels, queries' answers, notes."""

from __future__ import annotations

import dataclasses
import keyword
import re
from typing import Any

from ...errors import short
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


class Naming:
    """The concepts and labels a program reader names: each name unique, made from the program's text
    (a note says what a name stands for where it is not that text)."""

    def __init__(self) -> None:
        self.concepts: dict[Any, tuple[str, tuple[Any, ...], Reads | None]] = {}  # name, values, reads
        self.names: set[str] = set()
        self.domains: dict[str, tuple[Any, ...]] = {}  # concept name -> values
        self.notes: list[str] = []
        self.as_written: list[str] = []  # concepts whose name is the program's text (no note of their own)

    def concept(
        self,
        key: Any,
        text: str,
        values: tuple[Any, ...],
        reads: Reads | None = None,
        named: str | None = None,
    ) -> str:
        """The concept of `key` (its name made from `named`, else from `text`, which notes show)."""
        if key not in self.concepts:
            name = self.name(named or text)
            self.concepts[key] = (name, values, reads)
            self.domains[name] = values
            if name != text:
                self.notes.append(f"concept {name} is {short(text)}")
            else:
                self.as_written.append(name)
        return self.concepts[key][0]

    def name(self, text: str) -> str:
        """A name made from `text`, unused so far."""
        base = safe_name(text)
        name, n = base, 2
        while name in self.names:
            name, n = f"{base}_{n}", n + 1
        self.names.add(name)
        return name

    def named(self) -> tuple[tuple[Concept, ...], tuple[Reads | None, ...], tuple[str, ...]]:
        """The concepts named, in the order they were met, what each reads, and the notes."""
        concepts = tuple(Concept(name, values) for name, values, _ in self.concepts.values())
        notes = list(self.notes)
        if self.as_written:
            notes.append(f"concepts named as in the program: {', '.join(self.as_written)}")
        return concepts, tuple(r for _, _, r in self.concepts.values()), tuple(notes)


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
