"""Label-group factors counted over a table of every value map of the group's concepts: with pi
fixed, a support row constrains the value maps only through the values it shows (its pattern) and
its labels, so each (pattern, labels) states one bit vector over the table, built once per task and
shared by every class; a factor is the population count of the AND of its rows' vectors (SDD-OIA's
stop/forward group, 4^9 value maps: about 0.3 ms against 7 ms for compiling its SDD)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...encoding.value_codes import ValueMapCoding
from ...errors import TaskError
from ...task.expressions import normalise
from ...task.model import Task
from ...task.vectorized import TooLarge, evaluate_shared, strides, tabulate, value_array
from .value_maps import Marginals, Tally

SPACE_LIMIT = 1 << 20  # value maps of one group a table may hold (a vector is SPACE_LIMIT / 8 bytes)
LABEL_TABLE_LIMIT = 1 << 16  # predicted vectors of a group's concepts whose labels are tabulated
# the same where the table is only summarised once per group (label_counts, determined), not searched
# or kept: a sum of three digits against two (10^5 vectors) still gets a source-tuple bound
SUMMARY_TABLE_LIMIT = 1 << 20
CACHE_BYTES = 1 << 29  # bit vectors kept before the cache is emptied
MISSING = -1  # the label id of a row whose labels no predicted vector of the group gives

Group = tuple[list[str], list[int]]
Signature = tuple[tuple[int, int], ...]  # per target of the group: (values seen at its source, |D_target|)


@dataclass
class _Layout:
    """The table of value maps for one signature: digit (j, q) is the value f gives to the q-th seen
    value of the concept feeding the group's j-th concept, in mixed radix."""

    size: int
    digits: list[list[NDArray[np.int32]]]


class GroupTables:
    """Factors of the label groups of a disentangled task (value maps not shared), or None where a
    group's table would exceed SPACE_LIMIT or its labels cannot be tabulated: the caller then counts
    that factor another way."""

    def __init__(self, coding: ValueMapCoding, groups: list[Group], summary: bool = False) -> None:
        """`summary`: the tables are only summarised (label_counts, determined), so wider groups are
        tabulated (SUMMARY_TABLE_LIMIT instead of LABEL_TABLE_LIMIT)."""
        self.coding = coding
        self.groups = groups
        self.summary = summary
        self._label_tables: dict[int, tuple[NDArray[np.int32], NDArray[np.int64]] | None] = {}
        self._layouts: dict[Signature, _Layout] = {}
        self._vectors: dict[tuple[Any, ...], NDArray[np.uint8]] = {}
        self._bytes = 0

    @cached_property
    def _rows(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
        """Per row and concept: the position of the row's value among the values the concept shows,
        its value number, and whether that (predicted) concept is supervised on the row."""
        rows = self.coding.rows()
        positions = [{v: q for q, v in enumerate(sorted(seen))} for seen in self.coding.seen]
        shape = (len(rows), len(self.coding.sizes))
        pattern = np.array([[positions[i][v] for i, v in enumerate(idx)] for _, idx, _, _ in rows])
        value = np.array([idx for _, idx, _, _ in rows])
        on = np.array([[j in sup for j in range(shape[1])] for _, _, sup, _ in rows], dtype=bool)
        return (
            pattern.reshape(shape).astype(np.int64),
            value.reshape(shape).astype(np.int64),
            on.reshape(shape),
        )

    def label_table(self, g: int) -> tuple[NDArray[np.int32], NDArray[np.int64]] | None:
        """The label ids of group g (see _label_table) and the id of every row's labels, or None."""
        if g not in self._label_tables:
            table, ids = self._label_table(self.groups[g])
            found = None
            if table is not None:
                names = list(self.coding.task.labels)
                chosen = [names.index(n) for n in self.groups[g][0]]
                rows = self.coding.rows()
                labels = [ids.get(tuple(values[n] for n in chosen), MISSING) for *_, values in rows]
                found = table, np.array(labels, dtype=np.int64)
            self._label_tables[g] = found
        return self._label_tables[g]

    def label_counts(self, g: int) -> dict[tuple[Any, ...], int] | None:
        """How many vectors of group g's concepts (value numbers) give each tuple of its label values
        (in the group's label order), or None where its labels are not tabulated."""
        table, ids = self._label_table(self.groups[g])
        if table is None:
            return None
        counts = np.bincount(table, minlength=len(ids))
        return {labels: int(counts[i]) for labels, i in ids.items()}

    def determined(self, g: int) -> set[tuple[int, tuple[Any, ...]]]:
        """The pairs (position t in the group's concepts, label values L) where the other concepts'
        values leave at most one value at t giving L (a sum's summand once the sum is known); empty
        where the labels are not tabulated."""
        table, ids = self._label_table(self.groups[g])
        if table is None:
            return set()
        shape = [len(self.coding.task.concepts[j].values) for j in self.groups[g][1]]
        found = set(range(len(ids)))
        by_id = {i: labels for labels, i in ids.items()}
        result: set[tuple[int, tuple[Any, ...]]] = set()
        for t in range(len(shape)):
            lined = np.sort(np.moveaxis(table.reshape(shape), t, -1).reshape(-1, shape[t]), axis=1)
            twice = set(np.unique(lined[:, 1:][lined[:, 1:] == lined[:, :-1]]).tolist())
            result.update((t, by_id[i]) for i in found - twice)
        return result

    def _label_table(self, group: Group) -> tuple[NDArray[np.int32] | None, dict[tuple[Any, ...], int]]:
        """The id of the group's label values for every vector of its concepts' value numbers
        (mixed radix, first concept most significant), and the ids; None when too large or a label
        is undefined somewhere (ids empty then)."""
        task = self.coding.task
        labels, targets = group
        domains = [task.concepts[j].values for j in targets]
        size = math.prod(len(d) for d in domains)
        # a table read off the task's labels on all of D costs no evaluation: summary-sized
        read = task.tabulated_labels() is not None
        if size > (SUMMARY_TABLE_LIMIT if self.summary or read else LABEL_TABLE_LIMIT):
            return None, {}
        exprs = [task.labels[n] for n in labels]
        codes = np.arange(size, dtype=np.int64)
        try:
            columns = {c.name: _column([c.values[0]], np.zeros(size, dtype=np.int64)) for c in task.concepts}
            stride = size
            for j, domain in zip(targets, domains):
                stride //= len(domain)
                columns[task.concepts[j].name] = _column(domain, (codes // stride) % len(domain))
            values = _read_off(task, labels, targets, size) or tabulate(exprs, columns, size)
        except TooLarge:  # Python's integers, vector by vector (the others at their first value)
            fixed = [c.values[0] for c in task.concepts]
            rows = (_placed(fixed, targets, vector) for vector in itertools.product(*domains))
            names = [c.name for c in task.concepts]
            try:
                values = [
                    np.array(v, dtype=object)
                    for v in zip(*(evaluate_shared(exprs, dict(zip(names, r))) for r in rows))
                ]
            except (TypeError, ValueError, ZeroDivisionError, OverflowError, TaskError):
                return None, {}
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, TaskError):
            return None, {}
        ids: dict[tuple[Any, ...], int] = {}
        tuples = zip(*(a.tolist() for a in values)) if values else ((),) * size
        table = np.fromiter(
            (ids.setdefault(tuple(map(normalise, v)), len(ids)) for v in tuples), dtype=np.int32, count=size
        )
        return table, ids

    def _layout(self, signature: Signature) -> _Layout:
        if signature not in self._layouts:
            size = math.prod(radix**seen for seen, radix in signature)
            index = np.arange(size, dtype=np.int64)
            digits, stride = [], size
            for seen, radix in signature:
                own = []
                for _ in range(seen):
                    stride //= radix
                    own.append(((index // stride) % radix).astype(np.int32))
                digits.append(own)
            if len(self._layouts) > 64:
                self._layouts.clear()
            self._layouts[signature] = _Layout(size, digits)
        return self._layouts[signature]

    def tally(self, g: int, pi: tuple[int, ...], marginals: bool = False) -> Tally | None:
        """The value maps of the concepts feeding group g that satisfy its rows with pi (over the
        values the support shows) and, with `marginals`, per concept s feeding the group and value
        number v it shows, those with f_s(v) = each value number of the concept s feeds; None when
        this group is not counted by table."""
        found = self._valid(g, pi)
        if found is None:
            return None
        layout, valid = found
        if not marginals:
            return layout.size if valid is None else int(np.bitwise_count(valid).sum(dtype=np.int64)), {}
        where = {j: i for i, j in enumerate(pi)}
        bits = None if valid is None else np.unpackbits(valid, count=layout.size).astype(bool)
        fixed: Marginals = {}
        for digits, j in zip(layout.digits, self.groups[g][1]):
            for v, column in zip(sorted(self.coding.seen[where[j]]), digits):
                chosen = column if bits is None else column[bits]
                fixed[where[j], v] = np.bincount(chosen, minlength=self.coding.sizes[j]).tolist()
        total = layout.size if bits is None else int(bits.sum())
        return total, fixed

    def identities(self, g: int, pi: tuple[int, ...]) -> dict[int, int] | None:
        """Per concept s feeding group g, the value maps `tally` counts whose f_s sends every value
        the support shows to the same value number; None when this group is not counted by table."""
        found = self._valid(g, pi)
        if found is None:
            return None
        layout, valid = found
        where = {j: i for i, j in enumerate(pi)}
        bits = (
            np.ones(layout.size, bool)
            if valid is None
            else np.unpackbits(valid, count=layout.size).astype(bool)
        )
        kept = {}
        for digits, j in zip(layout.digits, self.groups[g][1]):
            keep = bits.copy()
            for v, column in zip(sorted(self.coding.seen[where[j]]), digits):
                keep &= column == v
            kept[where[j]] = int(keep.sum())
        return kept

    def _valid(self, g: int, pi: tuple[int, ...]) -> tuple[_Layout, NDArray[np.uint8] | None] | None:
        """The layout of group g's value maps with pi and the packed bits of the valid ones (None:
        all are), or None when this group is not counted by table."""
        found = self._constraints(g, pi)
        if found is None:
            return None
        layout, vectors = found
        acc: NDArray[np.uint8] | None = None
        for n, (_, vector) in enumerate(vectors, start=1):
            acc = vector().copy() if acc is None else np.bitwise_and(acc, vector(), out=acc)
            if n & (n - 1) == 0 and not acc.any():  # looked at after 1, 2, 4, 8... rows: a test
                break  # after each took a quarter of a count where every class has maps
        return layout, acc

    def covers(self, g: int) -> bool:
        """Whether group g is counted by table whichever concepts feed it."""
        most = max(len(seen) for seen in self.coding.seen)
        space = math.prod(self.coding.sizes[j] ** most for j in self.groups[g][1])
        return space <= SPACE_LIMIT and self.label_table(g) is not None

    def refuting_rows(self, g: int, pi: tuple[int, ...]) -> list[int] | None:
        """A few rows (numbers in coding.rows()) whose constraints on group g admit no value map
        together with pi, chosen greedily (each the one leaving fewest maps), or None when the
        group is not counted by table or some value map works."""
        found = self._constraints(g, pi)
        if found is None:
            return None
        rows = [row for row, _ in found[1]]
        stack = np.stack([vector() for _, vector in found[1]])
        acc = np.bitwise_and.reduce(stack, axis=0)
        if acc.any():
            return None
        chosen: list[int] = []
        acc = np.full_like(acc, 255)
        while acc.any():
            n = int(np.bitwise_count(stack & acc).sum(axis=1, dtype=np.int64).argmin())
            chosen.append(rows[n])
            acc &= stack[n]
        return chosen

    def _constraints(
        self, g: int, pi: tuple[int, ...]
    ) -> tuple[_Layout, list[tuple[int, Callable[[], NDArray[np.uint8]]]]] | None:
        """The layout of group g's value maps with pi and, per distinct constraint its rows state,
        one row stating it (its number in coding.rows()) and the packed bits of the value maps
        satisfying it (computed when called); None when the group is not counted by table."""
        targets = self.groups[g][1]
        where = {j: i for i, j in enumerate(pi)}
        sources = [where[j] for j in targets]
        sizes = self.coding.sizes
        signature = tuple((len(self.coding.seen[s]), sizes[j]) for s, j in zip(sources, targets))
        if math.prod(radix**seen for seen, radix in signature) > SPACE_LIMIT:
            return None
        labels = self.label_table(g)
        if labels is None:
            return None
        layout = self._layout(signature)
        table = labels[0]
        keys = self._row_keys(labels[1], sources, targets)
        return layout, [
            (row, partial(self._vector, (g, signature, key), table, layout)) for key, row in keys.items()
        ]

    def _row_keys(
        self, labels: NDArray[np.int64], sources: list[int], targets: list[int]
    ) -> dict[tuple[Any, ...], int]:
        """One key per distinct constraint the rows state on the group, with the first row stating
        it: (False, pattern, label id) for a row not supervised whole, (True, pattern, target
        values) for a row with supervised concepts among the group's (-1 for the group's concepts
        not supervised there)."""
        all_patterns, all_values, on = self._rows
        pattern = all_patterns[:, sources]
        keys: dict[tuple[Any, ...], int] = {}
        plain = np.flatnonzero(~on.all(axis=1))
        for n, row, label in zip(plain.tolist(), pattern[plain].tolist(), labels[plain].tolist()):
            keys.setdefault((False, tuple(row), label), n)
        here = on[:, targets]
        fixed = np.flatnonzero(here.any(axis=1))
        if len(fixed):
            values = np.where(here, all_values[:, targets], -1)[fixed]
            for n, row, target in zip(fixed.tolist(), pattern[fixed].tolist(), values.tolist()):
                keys.setdefault((True, tuple(row), tuple(target)), n)
        return keys

    def _vector(
        self, full: tuple[int, Signature, tuple[Any, ...]], table: NDArray[np.int32], layout: _Layout
    ) -> NDArray[np.uint8]:
        """The packed bits, over the layout's value maps, of those that satisfy one row key of a
        group (`full`: group, signature, key), its label table given."""
        if full not in self._vectors:
            _, signature, (supervised, row, last) = full
            if supervised:
                match = np.ones(layout.size, dtype=bool)
                for j, (q, target) in enumerate(zip(row, last)):
                    if target >= 0:
                        match &= layout.digits[j][q] == target
            elif last == MISSING:
                match = np.zeros(layout.size, dtype=bool)
            else:
                code = np.zeros(layout.size, dtype=np.int32)
                for j, q in enumerate(row):
                    code *= signature[j][1]
                    code += layout.digits[j][q]
                match = table[code] == last
            vector = np.packbits(match)
            if self._bytes + vector.nbytes > CACHE_BYTES:
                self._vectors.clear()
                self._bytes = 0
            self._vectors[full] = vector
            self._bytes += vector.nbytes
        return self._vectors[full]


def _column(domain: Sequence[Any], positions: NDArray[np.int64]) -> NDArray[Any]:
    """The values at `positions` of a domain (ints as int64, words as objects; TooLarge past them)."""
    return value_array(domain)[positions]


def _placed(fixed: Sequence[Any], targets: Sequence[int], vector: Sequence[Any]) -> list[Any]:
    """`fixed` with the values of `vector` at the positions `targets`."""
    row = list(fixed)
    for j, value in zip(targets, vector):
        row[j] = value
    return row


def _read_off(task: Task, labels: list[str], targets: list[int], size: int) -> list[NDArray[Any]] | None:
    """The group's label values on every vector of its concepts (the others at their first value),
    read off the task's labels on all of D where they were computed already (else None)."""
    tabulated = task.tabulated_labels()
    if tabulated is None or not labels:
        return None
    codes = np.arange(size, dtype=np.int64)
    index = np.zeros(size, dtype=np.int64)
    sizes = [len(c.values) for c in task.concepts]
    places = strides(sizes)
    stride = size
    for j in targets:
        stride //= sizes[j]
        index += (codes // stride) % sizes[j] * places[j]
    names = list(task.labels)
    return [tabulated[names.index(n)][index] for n in labels]
