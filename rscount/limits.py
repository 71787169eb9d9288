"""Caps on what a task may ask for, checked before anything is allocated: task files come from
other people, and a three-line file can declare 10^11 DIMACS variables or a number with a billion
digits. Each cap has a default that the seed tasks stay far below, and an environment variable
that raises it (docs/security.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import CapExceeded


@dataclass(frozen=True)
class Cap:
    """A named cap: `what` it bounds (for messages), its default, and the variable that sets it."""

    name: str
    what: str
    default: int

    @property
    def variable(self) -> str:
        """The environment variable that overrides the default."""
        return f"RSCOUNT_MAX_{self.name.upper()}"

    @property
    def value(self) -> int:
        """The cap in force: the environment's value when it is a positive integer, else the default."""
        text = os.environ.get(self.variable, "")
        return int(text) if text.isdigit() and int(text) > 0 else self.default

    def check(self, amount: int, where: str) -> None:
        """CapExceeded naming `where` when `amount` exceeds the cap."""
        if amount > self.value:
            raise CapExceeded(where, f"{number_text(amount)} {self.what}", self.value, self.variable)


def number_text(n: int, max_digits: int = 900) -> str:
    """`n` in full, or its number of digits when it has more than `max_digits` (Python refuses ints
    of over 4300 digits, and nobody reads them in a message)."""
    digits = len(str(abs(n))) if abs(n).bit_length() <= 14_000 else int(abs(n).bit_length() * 0.30103) + 1
    return str(n) if digits <= max_digits else f"a {digits}-digit number"


CONCEPTS = Cap("concepts", "concepts", 10_000)
VALUES = Cap("values", "values in one concept's domain", 1_000)
ROWS = Cap("rows", "support rows", 5_000_000)
CLAUSES = Cap("clauses", "DIMACS clauses", 5_000_000)
DEPTH = Cap("depth", "levels of nesting in an expression", 200)
POWER_BITS = Cap("power_bits", "bits in the result of a power", 4_096)
YAML_NODES = Cap("yaml_nodes", "YAML nodes once aliases are expanded", 1_000_000)
YAML_DEPTH = Cap("yaml_depth", "levels of nesting in a YAML document", 200)
FUNCTION_VECTORS = Cap(
    "function_vectors", "concept vectors to tabulate a Python function's label on", 1_000_000
)
