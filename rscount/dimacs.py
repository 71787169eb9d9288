"""DIMACS CNF: writing encodings (with projection and variable meanings) and strict reading."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import RscountError


@dataclass
class Dimacs:
    """A CNF as read from or written to a DIMACS file."""

    num_vars: int
    clauses: list[list[int]]
    projection: list[int] | None = None
    names: dict[int, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)


def format_dimacs(cnf: Dimacs, ind: bool = False) -> str:
    """The DIMACS text: comments, `c p show` (or `c ind`) projection, meanings, header and clauses."""
    out = [f"c {line}" for line in cnf.comments]
    if cnf.projection is not None:
        out.append(f"c {'ind' if ind else 'p show'} {' '.join(map(str, cnf.projection))} 0")
    out.extend(f"c var {v} = {name}" for v, name in sorted(cnf.names.items()))
    out.append(f"p cnf {cnf.num_vars} {len(cnf.clauses)}")
    out.extend(" ".join(map(str, clause)) + " 0" for clause in cnf.clauses)
    return "\n".join(out) + "\n"


def write_dimacs(cnf: Dimacs, path: str | os.PathLike, ind: bool = False, force: bool = False) -> None:
    """Write `cnf` to `path`; an existing file is kept unless `force` (never overwrite silently)."""
    target = Path(path)
    if target.exists() and not force:
        raise RscountError(f"{target}: file exists (pass --force to overwrite it)")
    try:
        target.write_text(format_dimacs(cnf, ind))
    except OSError as exc:
        raise RscountError(f"{target}: cannot write: {exc.strerror}") from None


def _ints(tokens: Iterable[str], where: str) -> list[int]:
    try:
        return [int(t) for t in tokens]
    except ValueError:
        bad = next(t for t in tokens if not t.lstrip("-").isdigit())
        raise RscountError(f"{where}: {bad!r} is not an integer") from None


def parse_dimacs(text: str, source: str = "<dimacs>") -> Dimacs:
    """Parse DIMACS text; any malformation is an error naming `source` and the line number."""
    header: tuple[int, int] | None = None
    clauses: list[list[int]] = []
    current: list[int] = []
    projection: list[int] | None = None
    names: dict[int, str] = {}
    comments: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{source}:{number}"
        line = raw.strip()
        if not line or line == "%":
            continue
        if line.startswith("c"):
            body = line[1:].strip()
            for key in ("p show", "ind"):
                if body.startswith(key + " ") or body == key:
                    values = _ints(body[len(key) :].split(), where)
                    if not values or values[-1] != 0 or 0 in values[:-1]:
                        raise RscountError(f"{where}: projection line must be variables ending in 0")
                    projection = (projection or []) + values[:-1]
                    break
            else:
                if body.startswith("var ") and " = " in body:
                    number_text, name = body[4:].split(" = ", 1)
                    names[_ints([number_text.strip()], where)[0]] = name
                else:
                    comments.append(body)
            continue
        if line.startswith("p"):
            parts = line.split()
            if header is not None:
                raise RscountError(f"{where}: second 'p' header line")
            if len(parts) != 4 or parts[1] != "cnf":
                raise RscountError(f"{where}: header must be 'p cnf VARIABLES CLAUSES'")
            nv, nc = _ints(parts[2:], where)
            if nv < 0 or nc < 0:
                raise RscountError(f"{where}: negative numbers in the header")
            header = (nv, nc)
            continue
        if header is None:
            raise RscountError(f"{where}: clause before the 'p cnf' header")
        for lit in _ints(line.split(), where):
            if lit == 0:
                clauses.append(current)
                current = []
            elif abs(lit) > header[0]:
                raise RscountError(f"{where}: literal {lit} exceeds the {header[0]} declared variables")
            else:
                current.append(lit)
    end = f"{source}:{len(text.splitlines())}"
    if header is None:
        raise RscountError(f"{source}: no 'p cnf' header line")
    if current:
        raise RscountError(f"{end}: last clause is not terminated by 0")
    if len(clauses) != header[1]:
        raise RscountError(f"{end}: header declares {header[1]} clauses but the file has {len(clauses)}")
    for v in projection or []:
        if not 0 < v <= header[0]:
            raise RscountError(f"{source}: projection variable {v} is outside 1..{header[0]}")
    return Dimacs(header[0], clauses, projection, names, comments)


def read_dimacs(path: str | os.PathLike) -> Dimacs:
    """Read and validate a DIMACS file."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise RscountError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RscountError(f"{path}: not a text file") from None
    return parse_dimacs(text, str(path))
