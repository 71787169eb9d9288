"""What each predicted concept may read on the support, for counts summed over source sets
(residual_tables.py): a *reading* is a constant, or a source concept s with a value map
that is not constant on the values s shows; a concept's column over the support rows is then that
map applied to s's column. Under a map, a concept reads exactly one of them."""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import NDArray

from ....encoding.value_codes import ValueMapCoding
from ....task.model import Task
from ...budget import Unsuited
from ...engines.group_tables import GroupTables
from .modular import primes_above

READING_LIMIT = 4096  # readings a concept chooses among (d constants and the value maps of sources)
MAX_CONCEPTS = 62  # source sets are bit masks in an int64

Group = tuple[list[str], list[int]]


class Readings:
    """The readings of a disentangled task whose concepts share one domain size d, the rows and
    their value numbers, the label groups with their label tables, and the primes counts are kept
    modulo (enough for k! times every value map on the values shown, a bound on the count).
    Unsuited when the domains differ, a group's labels cannot be tabulated or the readings
    are too many (digits 0-9: 10^10 value maps per source)."""

    def __init__(self, task: Task) -> None:
        self.task = task
        k = self.k = len(task.concepts)
        sizes = {len(c.values) for c in task.concepts}
        if len(sizes) != 1:
            raise Unsuited("source sets need one domain size for all concepts")
        if k > MAX_CONCEPTS:
            raise Unsuited(f"source sets handle at most {MAX_CONCEPTS} concepts")
        d = self.d = sizes.pop()
        self.coding = ValueMapCoding(task)
        self.seen = [sorted(s) for s in self.coding.seen]
        per_concept = d + sum(d ** len(s) - d for s in self.seen if len(s) > 1)
        if per_concept > READING_LIMIT:
            raise Unsuited(f"source sets: {per_concept} readings per concept (at most {READING_LIMIT})")
        self.groups: list[Group] = self.coding.label_groups()
        self.tables = GroupTables(self.coding, self.groups)
        for g, (labels, _) in enumerate(self.groups):
            if labels and self.tables.label_table(g) is None:
                raise Unsuited(f"source sets: the labels {', '.join(labels)} cannot be tabulated")
        rows = self.coding.rows()
        self.values = np.array([idx for _, idx, _, _ in rows], dtype=np.int64).reshape(len(rows), k)
        self.supervised = [on for _, _, on, _ in rows]
        # Rows whose labels still constrain the map (a row supervised whole keeps them by itself).
        self.plain = np.array([r for r, on in enumerate(self.supervised) if len(on) < k], dtype=np.int64)
        self.source, self.column = self._readings()
        self.primes = primes_above(math.factorial(k) * math.prod(d ** len(s) for s in self.seen))

    def _readings(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Every reading: its source (-1 for a constant) and its column of value numbers."""
        d, n = self.d, len(self.values)
        source = [-1] * d
        columns = [np.full(n, c, dtype=np.int64) for c in range(d)]
        for s, shown in enumerate(self.seen):
            if len(shown) < 2:
                continue
            for phi in itertools.product(range(d), repeat=len(shown)):
                if len(set(phi)) > 1:
                    lookup = np.zeros(d, dtype=np.int64)
                    lookup[shown] = phi
                    source.append(s)
                    columns.append(lookup[self.values[:, s]])
        return np.array(source, dtype=np.int64), np.array(columns, dtype=np.int64)

    def allowed(self, t: int) -> NDArray[np.int64]:
        """The readings concept t may take: those matching it on every row that supervises it."""
        rows = [r for r, on in enumerate(self.supervised) if t in on]
        ok = (self.column[:, rows] == self.values[rows, t]).all(axis=1)
        return np.flatnonzero(ok)

    def intended(self, t: int) -> int:
        """The reading the intended map gives concept t (its own column)."""
        own = (self.column == self.values[:, t]).all(axis=1) & ((self.source == t) | (self.source < 0))
        return int(np.flatnonzero(own)[0])

    def free(self, g: int) -> bool:
        """Whether group g is one concept that no label reads and no row supervises: it takes any
        map from the source it gets, so it only weights the join."""
        labels, targets = self.groups[g]
        return not labels and not any(targets[0] in on for on in self.supervised)

    @property
    def unseen(self) -> int:
        """The choices of every value map on the values no row shows."""
        return math.prod(self.d ** (self.d - len(s)) for s in self.seen)
