"""A certified upper bound on the disentangled count: the sum over source tuples of tuples.py with
each factor bounded instead of counted. A value map that fits a group's rows is determined by its
images on the values some chosen rows read and on the others, and its images on one row's values are
among those giving the row's labels, as many as the group's label table has vectors for them: so the
factor is at most the product of those numbers over the chosen rows times every image of the values
none of them reads (whether or not chosen rows share values), exact where the rows read disjoint
values. Rows are chosen greedily, the most constraining first, while one narrows the product; the
factor is 0 when rows contradict each other (refute.contradictory). MNMath, 40 uniform rows:
6.5e78 against 3.5e84 from one row's closed form."""

from __future__ import annotations

import heapq
import math
from typing import Any

from ....encoding.value_codes import Reading, ValueMapCoding
from ....task.model import Task
from ...budget import Budget, Unsuited
from ...engines.group_tables import GroupTables
from .refute import Determined, contradictory
from .tuples import GroupShape, SourceTuples, completed


class FactorBound:
    """An upper bound of each tuple's factor (see the module), exact when the group's rows read
    pairwise disjoint values."""

    def __init__(self, coding: ValueMapCoding, shapes: list[GroupShape]) -> None:
        self.coding = coding
        ordered = [[n for n, _ in coding.group_labels(list(s.labels))] for s in shapes]
        groups = [(labels, list(s.targets)) for labels, s in zip(ordered, shapes)]
        tables = GroupTables(coding, groups, summary=True)
        self.counts: dict[tuple[str, ...], dict[tuple[Any, ...], int]] = {}
        self.determined: dict[tuple[str, ...], Determined] = {}
        for g, shape in enumerate(shapes):
            counts = tables.label_counts(g)
            if counts is None:
                raise Unsuited("a label group too large to tabulate")
            self.counts[shape.labels] = counts
            self.determined[shape.labels] = tables.determined(g)

    def __call__(self, shape: GroupShape, beta: tuple[int, ...]) -> int:
        """At least the factor of `shape`'s group when beta[n] feeds shape.targets[n]."""
        coding = self.coding
        pi = completed(len(coding.sizes), shape.targets, beta)
        facts = list(coding.row_facts(pi, (list(shape.labels), list(shape.targets))))
        if contradictory(facts, self.determined[shape.labels]):
            return 0
        counts = self.counts[shape.labels]
        # (the images it allows, the values it reads): supervised values allow one image each
        rows: list[tuple[int, tuple[tuple[int, int], ...]]] = []
        for fact in facts:
            if isinstance(fact, Reading):
                rows.append((counts.get(fact.values, 0), fact.pairs))
            else:
                rows.extend((1, ((i, v),)) for i, v, _ in fact)
        bound, read = self._cover(rows, pi)
        free = [pi[s] for s in beta for v in coding.seen[s] if (s, v) not in read]
        unseen = [(pi[s], coding.sizes[s] - len(coding.seen[s])) for s in beta]
        images = math.prod(coding.sizes[t] for t in free) * math.prod(coding.sizes[t] ** n for t, n in unseen)
        return bound * int(images)

    def _cover(
        self, rows: list[tuple[int, tuple[tuple[int, int], ...]]], pi: tuple[int, ...]
    ) -> tuple[int, set[tuple[int, int]]]:
        """The product of the images the chosen rows allow, and the values they read: greedily the
        row that narrows the bound most (its images over those of the values it reads first), while
        one narrows it; lazily, as a row's ratio only grows as values are read."""

        def ratio(allowed: int, pairs: tuple[tuple[int, int], ...]) -> float:
            if allowed == 0:
                return -math.inf
            fresh = [self.coding.sizes[pi[i]] for i, v in set(pairs) if (i, v) not in read]
            return math.log(allowed) - sum(math.log(d) for d in fresh)

        read: set[tuple[int, int]] = set()
        heap = [(ratio(allowed, pairs), n) for n, (allowed, pairs) in enumerate(rows)]
        heapq.heapify(heap)
        bound = 1
        while heap and heap[0][0] < 0:
            _, n = heapq.heappop(heap)
            allowed, pairs = rows[n]
            now = ratio(allowed, pairs)
            if heap and now > heap[0][0]:  # read since: its turn may have passed
                heapq.heappush(heap, (now, n))
            elif now < 0:
                bound *= allowed
                read.update(pairs)
        return bound, read


def tuple_upper_bound(task: Task, max_tuples: int) -> tuple[int, int]:
    """The bound on `task`'s disentangled count and the source tuples summed for it; Unsuited where
    source-tuples does not apply or the groups have more than `max_tuples` tuples."""
    counter = SourceTuples(task, budget=Budget(max_classes=max_tuples), factor=FactorBound)
    total, details = counter.count()
    return total, details["source_tuples"]
