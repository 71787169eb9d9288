"""The map variables of an encoding (P, F, R, V, A), numbered in the encoding's CNF builder, each
with its meaning: the meanings become the DIMACS `c var` lines and the projection."""

from __future__ import annotations

from collections.abc import Sequence

from ..cnf import Cnf
from ..knowledge.circuit import CNFBuilder


class MapPool:
    """Hands out map variables of one CNFBuilder and remembers what each means."""

    def __init__(self, builder: CNFBuilder) -> None:
        self.builder = builder
        self.meanings: dict[int, str] = {}

    def new(self, meaning: str) -> int:
        """A fresh map variable."""
        x = self.builder.new_var()
        self.meanings[x] = meaning
        return x

    def matrix(self, kind: str, rows: Sequence[str], columns: Sequence[str]) -> list[list[int]]:
        """A variable `kind row -> column` per pair, row-major (e.g. P a -> b)."""
        return [[self.new(f"{kind} {r} -> {c}") for c in columns] for r in rows]

    def value_map(self, what: str, binary: bool, width: int) -> list[int]:
        """The literals of "`what` maps to value number u" (u = 0..width-1; binary: [-x, x])."""
        if binary:
            x = self.new(f"F {what} -> #1")
            return [-x, x]
        return [self.new(f"F {what} -> #{u}") for u in range(width)]

    def dimacs(self, clauses: list[list[int]], comments: list[str]) -> Cnf:
        """The CNF over the builder's variables, projected on the map variables."""
        return Cnf(self.builder.num_vars, clauses, sorted(self.meanings), dict(self.meanings), comments)
