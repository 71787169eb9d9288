"""The value maps of a fixed concept permutation, coded in binary over their own variables: with pi
fixed, a predicted concept is the value map of one ground-truth concept, so the constraints on f
need no multiplexer, and `ValueMapCoding.constraints` states them over any gate algebra (SDD nodes
for exact counting, CNF for ApproxMC)."""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ..knowledge.circuit import GateAlgebra, compile_expr
from ..knowledge.labels import label_groups
from ..task.model import Task
from .inputs import example_inputs
from .templates import Template, label_template


def conjoin_order(rows: tuple[tuple[Any, ...], ...]) -> list[tuple[Any, ...]]:
    """Support rows in the order that brings in the fewest new (concept, value) pairs at each step,
    ties in file order (greedy; on MNAdd-EvenOdd the SDD then peaks at 10518 nodes against 722998
    in file order). A heap with an entry per score change finds each next row."""
    holders: dict[tuple[int, object], list[int]] = defaultdict(list)
    for n, row in enumerate(rows):
        for pair in enumerate(row):
            holders[pair].append(n)
    new = [len(row) for row in rows]
    heap = [(new[n], n) for n in range(len(rows))]
    done = [False] * len(rows)
    order = []
    while heap:
        score, n = heapq.heappop(heap)
        if done[n] or score != new[n]:  # taken, or a stale entry (a newer one has its score)
            continue
        done[n] = True
        order.append(rows[n])
        for pair in enumerate(rows[n]):
            for m in holders.pop(pair, ()):
                new[m] -= 1
                if not done[m]:
                    heapq.heappush(heap, (new[m], m))
    return order


class Reading(NamedTuple):
    """One row's constraint on a label group: the (source, value number) whose value map gives each
    of the group's concepts, and the row's values of the group's labels."""

    pairs: tuple[tuple[int, int], ...]
    values: tuple[Any, ...]


class ValueMapCoding:
    """Variables 1..n coding the value maps of the values the support shows: f_i(v) in binary,
    `bits` variables per seen value, instead of one-hot, which needs no exactly-one constraints
    (MNAdd-EvenOdd by SDD: 5.6 s one-hot, 0.24 s binary). Codes beyond |D_pi(i)| are excluded."""

    def __init__(self, task: Task, shared: bool = False) -> None:
        self.task = task
        self.sizes = [len(c.values) for c in task.concepts]
        # Ground-truth values per concept: its first values, fewer than `sizes` when its network
        # predicts classes no ground truth takes (the sources of no map).
        self.sources = [len(d) for d in task.ground_truths]
        self.bits = max(1, (max(self.sizes) - 1).bit_length())
        # The value map of concept i is the one of owner[i]: itself, or (objects mode, concepts
        # object-major) the concept of the first object with the same attribute.
        m = len(task.objects.attributes) if shared and task.objects else len(self.sizes)
        self.owner = [i % m for i in range(len(self.sizes))]
        rows = task.support.rows
        self.seen: list[set[int]] = [set() for _ in range(m)]
        for i, c in enumerate(task.concepts):
            self.seen[self.owner[i]].update(c.index[r[i]] for r in rows)
        self.var: dict[tuple[int, int], list[int]] = {}
        for o, values in enumerate(self.seen):
            for v in sorted(values):
                start = len(self.var) * self.bits + 1
                self.var[o, v] = list(range(start, start + self.bits))
        self.num_vars = len(self.var) * self.bits
        self.order = conjoin_order(rows)
        self.labels = task.shared_labels
        # Per row of `order`: value numbers, supervised or not, label values; the same for every pi.
        self._rows: list[tuple[tuple[Any, ...], list[int], frozenset[int], tuple[Any, ...]]] | None = None
        self._templates: dict[tuple[Any, ...], Template | None] = {}

    def code(self, alg: GateAlgebra, literal: Callable[[int], Any], i: int, v: int, u: int) -> Any:
        """Gate of f_i(value number v) = value number u of the concept i feeds."""
        return alg.and_(literal(x if u >> b & 1 else -x) for b, x in enumerate(self.var[self.owner[i], v]))

    def unseen_factor(self, pi: tuple[int, ...]) -> int:
        """Choices of f for the ground-truth values no support row shows: each maps anywhere in
        D_pi(i) (a predicted class no ground truth takes is the source of no map)."""
        return math.prod(
            self.sizes[pi[o]] ** (self.sources[o] - len(seen)) for o, seen in enumerate(self.seen)
        )

    def label_groups(self) -> list[tuple[list[str], list[int]]]:
        """The task's label groups (rscount.knowledge.labels.label_groups): with value maps per
        concept (not shared), the constraints of different groups bind different value maps (those
        of the concepts that feed the group's concepts), so N(pi) is the product of the groups'."""
        return label_groups(self.task)

    def constraints(
        self,
        alg: GateAlgebra,
        code: Callable[[int, int, int], Any],
        pi: tuple[int, ...],
        group: tuple[list[str], list[int]] | None = None,
    ) -> Iterator[Any]:
        """Gates whose conjunction holds exactly for the value maps valid with pi (`code(i, v, u)`
        is the gate of f_i(v) = u): `ranges`, then the gates of `row_facts`."""
        task, k = self.task, len(pi)
        labels, targets = group if group is not None else (list(task.labels), list(range(k)))
        yield from self.ranges(alg, code, pi, targets)
        exprs = self.group_labels(labels)
        concepts = [task.concepts[j] for j in targets]
        for fact in self.row_facts(pi, group):
            if not isinstance(fact, Reading):
                yield alg.and_(code(i, v, u) for i, v, u in fact)
                continue
            inputs = example_inputs(alg, concepts, lambda t, u: code(*fact.pairs[t], u))  # noqa: B023
            memo: dict[int, Any] = {}
            for (label, expr), value in zip(exprs, fact.values):
                yield compile_expr(alg, expr, inputs, f"labels.{label}", memo).get(value, alg.false)

    def ranges(
        self, alg: GateAlgebra, code: Callable[[int, int, int], Any], pi: tuple[int, ...], targets: list[int]
    ) -> Iterator[Any]:
        """Gates keeping the codes of the value maps that feed the concepts `targets` inside the
        domains they map into."""
        owners = {self.owner[i] for i, j in enumerate(pi) if j in targets}
        for o, v in self.var:
            if o in owners and self.sizes[pi[o]] < 1 << self.bits:
                yield alg.or_(code(o, v, u) for u in range(self.sizes[pi[o]]))

    def template(self, group: tuple[list[str], list[int]], values: tuple[Any, ...]) -> Template | None:
        """The CNF template of a Reading of `group` (rscount.encoding.templates): "the group's labels
        take `values`" over one input per value of each of its concepts; None when none gives them."""
        key = (tuple(group[0]), tuple(group[1]), values)
        if key not in self._templates:
            concepts = [self.task.concepts[j] for j in group[1]]
            self._templates[key] = label_template(concepts, self.group_labels(group[0]), values)
        return self._templates[key]

    def group_labels(self, labels: list[str]) -> list[tuple[str, Any]]:
        """The (name, expression) of the task's labels in `labels`, in the task's order: the order of
        Reading.values."""
        return [(n, e) for n, e in self.labels.items() if n in labels]

    def row_facts(
        self, pi: tuple[int, ...], group: tuple[list[str], list[int]] | None = None
    ) -> Iterator[tuple[tuple[int, int, int], ...] | Reading]:
        """What the rows in `order` say about the value maps with pi: per row its supervised sources
        as (source, value number, target value number) triples (if any) and, unless supervised
        whole, a Reading. With a `group` of label_groups, only the sources that feed the group's
        concepts and only its labels (value maps not shared). Rows that agree on those say the same,
        said once (SDD-OIA's stop/forward group: 128 rows, fewer distinct)."""
        task, k = self.task, len(pi)
        where = [0] * k
        for i, j in enumerate(pi):
            where[j] = i
        labels, targets = group if group is not None else (list(task.labels), list(range(k)))
        sources = sorted(where[j] for j in targets)
        positions = [list(task.labels).index(n) for n, _ in self.group_labels(labels)]
        stated: set[Any] = set()
        for row, idx, on, values in self.rows():
            fixed = tuple((i, idx[i], task.concepts[pi[i]].index[row[pi[i]]]) for i in sources if pi[i] in on)
            if fixed and fixed not in stated:
                stated.add(fixed)
                yield fixed
            if len(on) == k or not positions:  # supervised whole: its labels are kept
                continue
            reading = Reading(
                tuple((where[j], idx[where[j]]) for j in targets), tuple(values[n] for n in positions)
            )
            if reading not in stated:
                stated.add(reading)
                yield reading

    def rows(self) -> list[tuple[tuple[Any, ...], list[int], frozenset[int], tuple[Any, ...]]]:
        """The support rows in `order` with their value numbers, the concepts supervised on them
        (all, some or none) and their label values, computed once (SDD-OIA, 64 rows: a third of the
        time per class). Kept only once whole: work an alarm stops (auto's head start) must leave
        no partial list for the race's processes to inherit (it once dropped rows, and constraints)."""
        if self._rows is None:
            task = self.task
            self._rows = [
                (
                    row,
                    [c.index[value] for c, value in zip(task.concepts, row)],
                    task.support.supervised_on(row),
                    labels,
                )
                for row, labels in zip(self.order, task.labels_of(self.order))
            ]
        return self._rows

    def group_vars(self, pi: tuple[int, ...], group: tuple[list[str], list[int]]) -> int:
        """How many code variables the constraints of `group` can mention (value maps not shared)."""
        where = {j: i for i, j in enumerate(pi)}
        return sum(len(self.seen[where[j]]) for j in group[1]) * self.bits
