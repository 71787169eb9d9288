"""DIMACS CNF, read strictly and written with its projection and variable meanings: `loads`/`load`
read (knowledge given as DIMACS), `dumps`/`dump` write (the encodings rscount emits).

Every malformation is a DimacsError naming the file and line: PySDD's C reader calls exit(1) on
a malformed file, so nothing reaches a solver library unchecked."""

from __future__ import annotations

import os
import re

from ..cnf import Cnf
from ..errors import DimacsError, quote
from ..limits import CLAUSES, CONCEPTS
from ..outputs import write_output
from .inputs import read_text

SUFFIXES = (".cnf", ".dimacs")  # the extensions that name a DIMACS file


def dumps(cnf: Cnf, ind: bool = False) -> str:
    """The DIMACS text: comments, `c p show` (or `c ind`) projection, meanings, header and clauses."""
    out = [f"c {line}" for line in cnf.comments]
    if cnf.projection is not None:
        out.append(f"c {'ind' if ind else 'p show'} {' '.join(map(str, cnf.projection))} 0")
    out.extend(f"c var {v} = {name}" for v, name in sorted(cnf.names.items()))
    out.append(f"p cnf {cnf.num_vars} {len(cnf.clauses)}")
    out.extend(" ".join(map(str, clause)) + " 0" for clause in cnf.clauses)
    return "\n".join(out) + "\n"


def dump(cnf: Cnf, path: str | os.PathLike[str], ind: bool = False, overwrite: bool = False) -> None:
    """Write `cnf` to `path` (the output 'emit'); an existing file is kept unless `overwrite`."""
    write_output(path, dumps(cnf, ind), "emit", overwrite)


def _ints(tokens: list[str], source: str, line: int) -> list[int]:
    values = []
    for token in tokens:
        try:
            values.append(int(token))
        except ValueError:
            raise DimacsError(source, f"{quote(token)} is not an integer", line) from None
    return values


def loads(text: str, source: str = "<dimacs>") -> Cnf:
    """Parse DIMACS text; any malformation is an error naming `source` and the line number."""
    header: tuple[int, int] | None = None
    clauses: list[list[int]] = []
    current: list[int] = []
    projection: list[int] | None = None
    names: dict[int, str] = {}
    comments: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line == "%":
            continue
        if line.startswith("c"):
            body = line[1:].strip()
            for key in ("p show", "ind"):
                if body.startswith(key + " ") or body == key:
                    values = _ints(body[len(key) :].split(), source, number)
                    if not values or values[-1] != 0 or 0 in values[:-1]:
                        raise DimacsError(source, "projection line must be variables ending in 0", number)
                    projection = (projection or []) + values[:-1]
                    break
            else:
                if body.startswith("var ") and " = " in body:
                    number_text, name = body[4:].split(" = ", 1)
                    names[_ints([number_text.strip()], source, number)[0]] = name
                else:
                    comments.append(body)
            continue
        if line.startswith("p"):
            parts = line.split()
            if header is not None:
                raise DimacsError(source, "second 'p' header line", number)
            if len(parts) != 4 or parts[1] != "cnf":
                raise DimacsError(source, "header must be 'p cnf VARIABLES CLAUSES'", number)
            nv, nc = _ints(parts[2:], source, number)
            if nv < 0 or nc < 0:
                raise DimacsError(source, "negative numbers in the header", number)
            if nv == 0:
                raise DimacsError(source, "no variables declared (each variable is a concept)", number)
            CONCEPTS.check(nv, f"{source}:{number}: variables (each a concept)")
            CLAUSES.check(nc, f"{source}:{number}")
            header = (nv, nc)
            continue
        if header is None:
            raise DimacsError(source, "clause before the 'p cnf' header", number)
        for lit in _ints(line.split(), source, number):
            if lit == 0:
                clauses.append(current)
                current = []
                CLAUSES.check(len(clauses), f"{source}:{number}")
            elif abs(lit) > header[0]:
                raise DimacsError(source, f"literal {lit} exceeds the {header[0]} declared variables", number)
            else:
                current.append(lit)
    end = len(text.splitlines())
    if header is None:
        raise DimacsError(source, "no 'p cnf' header line")
    if current:
        raise DimacsError(source, "last clause is not terminated by 0", end)
    if len(clauses) != header[1]:
        raise DimacsError(source, f"header declares {header[1]} clauses but the file has {len(clauses)}", end)
    for v in projection or []:
        if not 0 < v <= header[0]:
            raise DimacsError(source, f"projection variable {v} is outside 1..{header[0]}")
    return Cnf(header[0], clauses, projection, names, comments)


def load(path: str | os.PathLike[str]) -> Cnf:
    """Read and validate a DIMACS file."""
    return loads(read_text(path), str(path))


EMITTED = re.compile(r"rscount \S+: optimal concept maps of task (.+)")  # encoding.concept_maps' header


def knowledge(cnf: Cnf, source: str) -> Cnf:
    """`cnf` read as knowledge (variable i = concept i); an encoding that `--emit` wrote is refused,
    saying what it is: its variables are map variables, not concepts."""
    found = EMITTED.fullmatch(cnf.comments[0]) if cnf.comments else None
    if found:
        raise DimacsError(
            source,
            f"this is the encoding `rscount --emit` wrote of task {found[1]}, not knowledge: its models "
            "projected on the 'c p show' variables are that task's optimal maps; count the task itself, "
            "or give this file to a projected model counter (GANAK, ApproxMC)",
        )
    return cnf
