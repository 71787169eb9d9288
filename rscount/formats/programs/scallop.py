"""Scallop programs (`.scl`: Datalog with `rel`, aggregates, stratified negation and provenance
semirings) are not read: rscount refuses them by name, at their first rule, saying what to write
instead, rather than letting the ProbLog reader fail on Scallop's syntax further on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import FormatError
from .program import Program


def read_scallop(path: Path, text: str, query: Any) -> Program:
    """Always a FormatError at the program's first `rel` (or `type`, `query`) declaration."""
    line = next(
        (
            n
            for n, row in enumerate(text.splitlines(), 1)
            if row.lstrip().startswith(("rel ", "type ", "query "))
        ),
        None,
    )
    raise FormatError(
        str(path),
        "Scallop programs are not read: write its rules as labels: expressions over concepts: (a rule "
        "rel sum(a + b) = d1(a), d2(b) is the label d1 + d2), or as a ProbLog program "
        "(sum(Z) :- d1(A), d2(B), Z is A + B)",
        line,
    )
