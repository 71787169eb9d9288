"""The CNF container every stage shares: a formula with its projection, variable meanings and
comments, as DIMACS writes them (rscount.formats.dimacs reads and writes it; the encodings build it)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Cnf:
    """A CNF over variables 1..num_vars: clauses, the variables a count is projected on (None: all),
    what each variable means and free comments."""

    num_vars: int
    clauses: list[list[int]]
    projection: list[int] | None = None
    names: dict[int, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
