"""Training supports: exhaustive, explicit rows, or seeded samples, plus concept supervision."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Any

from .errors import RscountError


def domain_size(domains: Sequence[Sequence[Any]]) -> int:
    """|D|: the number of concept vectors."""
    return math.prod(len(d) for d in domains)


def decode(index: int, domains: Sequence[Sequence[Any]]) -> tuple:
    """The concept vector with mixed-radix `index` (first concept most significant)."""
    row = []
    for dom in reversed(domains):
        index, r = divmod(index, len(dom))
        row.append(dom[r])
    return tuple(reversed(row))


def all_rows(domains: Sequence[Sequence[Any]]) -> Iterator[tuple]:
    """Every concept vector, in mixed-radix order."""
    for i in range(domain_size(domains)):
        yield decode(i, domains)


def sample_size(amount: float, total: int, where: str, count: bool = False) -> int:
    """How many of `total` items a sample amount means: F <= 1 a fraction, F > 1 (or `count`) a count."""
    if isinstance(amount, bool) or not isinstance(amount, int | float) or not amount > 0:
        raise RscountError(f"{where}: sample amount must be a positive number, got {amount!r}")
    if amount <= 1 and not count:
        return max(1, round(amount * total)) if total else 0
    if amount != int(amount):
        raise RscountError(f"{where}: a sample count above 1 must be a whole number, got {amount}")
    if amount > total:
        raise RscountError(f"{where}: asked for {int(amount)} items but only {total} exist")
    return int(amount)


class Support:
    """The distinct concept vectors seen in training, and which of them are concept-supervised.

    An exhaustive support is kept symbolic (its rows are generated only when needed).
    """

    def __init__(
        self,
        domains: Sequence[Sequence[Any]],
        rows: Sequence[Sequence[Any]] | None = None,
        supervised: Sequence[Sequence[Any]] = (),
        where: str = "support",
    ) -> None:
        self.domains = [tuple(d) for d in domains]
        self.exhaustive = rows is None
        if rows is not None:
            seen: dict[tuple, None] = {}
            for row in rows:
                seen.setdefault(tuple(row), None)
            if not seen:
                raise RscountError(f"{where}: the support is empty (a count needs at least one example)")
            self._rows: tuple[tuple, ...] | None = tuple(seen)
        else:
            self._rows = None
        sup = {tuple(r): None for r in supervised}
        if not self.exhaustive:
            members = set(self._rows)
            for r in sup:
                if r not in members:
                    raise RscountError(f"concept_supervision: row {list(r)} is not in the support")
        self.supervised = frozenset(sup)
        self.source: dict[str, Any] | None = None  # an annotation file's summary (support: {file: F})

    @cached_property
    def rows(self) -> tuple[tuple, ...]:
        """The support's rows, in order."""
        return self._rows if self._rows is not None else tuple(all_rows(self.domains))

    @property
    def size(self) -> int:
        """Number of distinct concept vectors in the support."""
        return domain_size(self.domains) if self.exhaustive else len(self._rows)


def sample_rows(
    domains: Sequence[Sequence[Any]], amount: float, seed: int, where: str, count: bool = False
) -> list[tuple]:
    """A uniform sample of distinct concept vectors (no enumeration of D, so D may be huge)."""
    total = domain_size(domains)
    n = sample_size(amount, total, where, count)
    picks = sorted(random.Random(seed).sample(range(total), n))
    return [decode(i, domains) for i in picks]


def sample_of(
    rows: Sequence[tuple], amount: float, seed: int, where: str, count: bool = False
) -> list[tuple]:
    """A uniform sample of distinct items of `rows`, kept in their order."""
    n = sample_size(amount, len(rows), where, count)
    picks = sorted(random.Random(seed).sample(range(len(rows)), n))
    return [rows[i] for i in picks]


def parse_row(row: Any, names: Sequence[str], domains: Sequence[Sequence[Any]], where: str) -> tuple:
    """A row given as a list in concept order or a mapping name -> value, checked against the domains."""
    if isinstance(row, dict):
        unknown = [k for k in row if k not in names]
        if unknown:
            raise RscountError(f"{where}: unknown concept {unknown[0]!r}")
        missing = [n for n in names if n not in row]
        if missing:
            raise RscountError(f"{where}: no value for concept {missing[0]!r}")
        values = [row[n] for n in names]
    elif isinstance(row, list | tuple):
        if len(row) != len(names):
            raise RscountError(f"{where}: expected {len(names)} values (one per concept), got {len(row)}")
        values = list(row)
    else:
        raise RscountError(f"{where}: a row is a list of values or a mapping concept -> value")
    out = []
    for name, dom, value in zip(names, domains, values):
        value = int(value) if isinstance(value, bool) else value
        if value not in dom:
            raise RscountError(f"{where}: value {value!r} of {name} is outside its domain {list(dom)}")
        out.append(dom[dom.index(value)])
    return tuple(out)
