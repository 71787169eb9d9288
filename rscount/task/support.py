"""Training supports: exhaustive, explicit rows, or seeded samples, plus concept supervision."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any

from ..errors import TaskError, quote
from ..limits import ROWS, number_text

Row = tuple[Any, ...]  # one concept vector, in concept order


def domain_size(domains: Sequence[Sequence[Any]]) -> int:
    """|D|: the number of concept vectors."""
    return math.prod(len(d) for d in domains)


def decode(index: int, domains: Sequence[Sequence[Any]]) -> Row:
    """The concept vector with mixed-radix `index` (first concept most significant)."""
    row = []
    for dom in reversed(domains):
        index, r = divmod(index, len(dom))
        row.append(dom[r])
    return tuple(reversed(row))


def all_rows(domains: Sequence[Sequence[Any]]) -> Iterator[Row]:
    """Every concept vector, in mixed-radix order."""
    for i in range(domain_size(domains)):
        yield decode(i, domains)


def sample_size(amount: float, total: int, where: str, count: bool = False) -> int:
    """How many of `total` items a sample amount means: F <= 1 a fraction, F > 1 (or `count`) a count."""
    if isinstance(amount, bool) or not isinstance(amount, int | float) or not 0 < amount < math.inf:
        raise TaskError(where, f"sample amount must be a positive number, got {quote(amount)}")
    if amount <= 1 and not count:
        return max(1, round(amount * total)) if total else 0
    if amount != int(amount):
        raise TaskError(where, f"a sample count above 1 must be a whole number, got {amount}")
    if amount > total:
        raise TaskError(where, f"asked for {int(amount)} items but only {number_text(total)} exist")
    ROWS.check(int(amount), where)
    return int(amount)


class Support:
    """The distinct concept vectors seen in training, and which of them are concept-supervised.

    Rows are checked against the domains (a row of the wrong length or with a value outside its
    domain is a TaskError naming `where`). An exhaustive support (rows None) is kept symbolic: its
    rows are generated only when needed.
    """

    def __init__(
        self,
        names: Sequence[str],
        domains: Sequence[Sequence[Any]],
        rows: Iterable[Any] | None = None,
        supervised: Iterable[Any] = (),
        where: str = "support",
        source: Mapping[str, Any] | None = None,
    ) -> None:
        self.names = list(names)
        self.domains = [tuple(d) for d in domains]
        self.exhaustive = rows is None
        self._rows: tuple[Row, ...] | None = None
        if rows is not None:
            if isinstance(rows, Sequence):
                ROWS.check(len(rows), where)
            seen: dict[Row, None] = {}
            for n, row in enumerate(rows):
                seen.setdefault(parse_row(row, self.names, self.domains, f"{where}[{n}]"), None)
            if not seen:
                raise TaskError(where, "the support is empty (a count needs at least one example)")
            self._rows = tuple(seen)
        chosen: dict[Row, set[int]] = {}
        for n, entry in enumerate(supervised):
            where_n = f"concept_supervision[{n}]"
            row, concepts = self._entry(entry, where_n)
            chosen.setdefault(row, set()).update(concepts)
        if self._rows is not None:
            members = set(self._rows)
            for r in chosen:
                if r not in members:
                    raise TaskError("concept_supervision", f"row {list(r)} is not in the support")
        every = set(range(len(self.names)))
        self.supervised = frozenset(r for r, c in chosen.items() if c == every)
        # Rows supervised on some concepts only: the predicted concepts listed must equal the row's.
        self.partial = {r: frozenset(c) for r, c in chosen.items() if c != every}
        self.source = dict(source) if source else None  # an annotation file's summary (support: {file: F})

    def _entry(self, entry: Any, where: str) -> tuple[Row, set[int]]:
        """A concept_supervision entry: a row (all its concepts supervised), or {row: ROW, concepts:
        [NAMES]} (those concepts only) as (row, concept positions)."""
        if isinstance(entry, dict) and "row" in entry:
            unknown = sorted(set(entry) - {"row", "concepts"}, key=str)
            if unknown:
                raise TaskError(where, f"unknown key {quote(unknown[0])} (known: row, concepts)")
            names = entry.get("concepts")
            if not isinstance(names, list) or not names:
                raise TaskError(f"{where}.concepts", "expected a non-empty list of concept names")
            missing = [c for c in names if c not in self.names]
            if missing:
                raise TaskError(f"{where}.concepts", f"unknown concept {quote(missing[0])}")
            return parse_row(entry["row"], self.names, self.domains, f"{where}.row"), {
                self.names.index(c) for c in names
            }
        return parse_row(entry, self.names, self.domains, where), set(range(len(self.names)))

    def supervision(self) -> list[Any]:
        """The supervision as the constructor takes it: whole rows, then {row, concepts} entries."""
        entries: list[Any] = sorted(self.supervised, key=str)
        entries += [
            {"row": list(r), "concepts": [self.names[i] for i in sorted(c)]}
            for r, c in sorted(self.partial.items(), key=lambda rc: str(rc[0]))
        ]
        return entries

    def supervised_on(self, row: Row) -> frozenset[int]:
        """The concepts (positions) supervised on `row`: all, some, or none."""
        if row in self.supervised:
            return frozenset(range(len(self.names)))
        return self.partial.get(row, frozenset())

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        """The support's rows, in order (an exhaustive support's only within the ROWS cap)."""
        if self._rows is not None:
            return self._rows
        ROWS.check(domain_size(self.domains), "support (exhaustive)")
        return tuple(all_rows(self.domains))

    @property
    def size(self) -> int:
        """Number of distinct concept vectors in the support."""
        return domain_size(self.domains) if self._rows is None else len(self._rows)

    def given_rows(self) -> tuple[Row, ...] | None:
        """The explicit rows, or None for an exhaustive support (as the constructor takes them)."""
        return self._rows


def sample_rows(
    domains: Sequence[Sequence[Any]], amount: float, seed: int, where: str, count: bool = False
) -> list[Row]:
    """A uniform sample of distinct concept vectors (no enumeration of D, so D may be huge)."""
    total = domain_size(domains)
    n = sample_size(amount, total, where, count)
    rng = random.Random(seed)
    if total <= sys.maxsize:
        picks = sorted(rng.sample(range(total), n))
    else:  # range() cannot hold so many: draw indices until n are distinct (n is far below total)
        drawn: set[int] = set()
        while len(drawn) < n:
            drawn.add(rng.randrange(total))
        picks = sorted(drawn)
    return [decode(i, domains) for i in picks]


def sample_of(rows: Sequence[Row], amount: float, seed: int, where: str, count: bool = False) -> list[Row]:
    """A uniform sample of distinct items of `rows`, kept in their order."""
    n = sample_size(amount, len(rows), where, count)
    picks = sorted(random.Random(seed).sample(range(len(rows)), n))
    return [rows[i] for i in picks]


def parse_row(row: Any, names: Sequence[str], domains: Sequence[Sequence[Any]], where: str) -> Row:
    """A row given as a list in concept order or a mapping name -> value, checked against the domains."""
    if isinstance(row, dict):
        unknown = [k for k in row if k not in names]
        if unknown:
            raise TaskError(where, f"unknown concept {quote(unknown[0])}")
        missing = [n for n in names if n not in row]
        if missing:
            raise TaskError(where, f"no value for concept {quote(missing[0])}")
        values = [row[n] for n in names]
    elif isinstance(row, list | tuple):
        if len(row) != len(names):
            raise TaskError(where, f"expected {len(names)} values (one per concept), got {len(row)}")
        values = list(row)
    else:
        raise TaskError(where, "a row is a list of values or a mapping concept -> value")
    out = []
    for name, dom, value in zip(names, domains, values):
        if isinstance(value, bool):
            if tuple(dom) != (0, 1):
                raise TaskError(
                    where, f"{name} is {str(value).lower()}, but its domain {quote(list(dom))} is not Boolean"
                )
            value = int(value)
        if value not in dom:
            raise TaskError(where, f"value {quote(value)} of {name} is outside its domain {quote(list(dom))}")
        out.append(dom[dom.index(value)])
    return tuple(out)


def _sample_spec(spec: Mapping[str, Any], where: str) -> tuple[float, int, bool]:
    """(amount, seed, whether amount is a count) of {sample: F, seed: S} or {examples: N, seed: S}."""
    keys = set(spec) - {"seed"}
    if keys not in ({"sample"}, {"examples"}):
        raise TaskError(
            where, f"expected {{sample: F, seed: S}} or {{examples: N, seed: S}}, got keys {sorted(spec)}"
        )
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TaskError(f"{where}.seed", f"expected an integer, got {quote(seed)}")
    if "examples" in spec:
        n = spec["examples"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise TaskError(f"{where}.examples", f"expected a positive integer, got {quote(n)}")
        return n, seed, True
    return spec["sample"], seed, False


def support_from_spec(
    names: Sequence[str],
    domains: Sequence[Sequence[Any]],
    spec: Any,
    supervision: Any,
    where: str = "support",
    within: Support | None = None,
) -> Support:
    """A Support from a spec: 'exhaustive', a list of rows, or a sample ({sample: F, seed: S} or
    {examples: N, seed: S}) of D, or of `within` when given; likewise for concept supervision
    (rows of the support, or a sample of them)."""
    rows: list[Any] | None
    if spec == "exhaustive" or spec is None:
        rows = None
    elif isinstance(spec, list):
        rows = spec
    elif isinstance(spec, dict):
        amount, seed, is_count = _sample_spec(spec, where)
        if within is None or within.exhaustive:
            rows = sample_rows(domains, amount, seed, where, is_count)
        else:
            rows = sample_of(within.rows, amount, seed, where, is_count)
    else:
        raise TaskError(where, "expected 'exhaustive', a list of rows or {sample: F, seed: S}")
    if rows is not None and not rows:
        raise TaskError(where, "the support is empty (a count needs at least one example)")
    support = Support(names, domains, rows, (), where)
    if supervision is None or supervision == []:
        return support
    if isinstance(supervision, list):
        supervised: list[Any] = supervision
    elif isinstance(supervision, dict):
        amount, seed, is_count = _sample_spec(supervision, "concept_supervision")
        supervised = sample_of(support.rows, amount, seed, "concept_supervision", is_count)
    else:
        raise TaskError("concept_supervision", "expected a list of rows or {sample: F, seed: S}")
    return Support(names, domains, support.given_rows(), supervised, where)
