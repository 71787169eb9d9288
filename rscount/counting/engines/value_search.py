"""Value maps valid with a fixed concept permutation, counted by depth-first search over the images of
the values the support shows: each support row becomes a constraint on the slots (owner, value) it
reads, checked as soon as its last slot is assigned, slots in two orders taking turns (fail-first,
and the brute force's: rare labels first, concepts in turn); independent parts of the constraint
graph are counted apart and multiplied, and a subtree's count is memoised on the assignment of the
slots later constraints still read (its frontier), so a chain of rows costs its width, not its
length. No solver, no compilation: what a 40-line brute force does, per label group and per class.

Counts are over the seen values of the owners feeding the group (as GroupTables counts them): slots
no row reads multiply by their domain size."""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ...encoding.value_codes import ValueMapCoding
from ...errors import TaskError
from ...task.expressions import evaluate, normalise
from ..budget import TooManyNodes
from .group_tables import MISSING, Group, GroupTables

MEMO_ENTRIES = 1 << 20  # memoised subtrees kept before the memo is emptied
Slot = tuple[int, int]  # (value-map owner, value number)


class _Constraint:
    """What one support row asks of a label group: the slots it reads (one per target concept, in the
    group's target order) and either the label id the images must give, or the image each slot must
    take (a supervised row; None where that concept is not supervised)."""

    def __init__(self, slots: tuple[Slot, ...], label: int | None, fixed: tuple[int | None, ...] | None):
        self.slots = slots
        self.label = label
        self.fixed = fixed


class ValueSearch:
    """Counts, for a permutation pi and a label group, the images of the seen values of the owners
    feeding the group that keep every row's labels (and supervised values)."""

    def __init__(self, coding: ValueMapCoding, groups: Sequence[Group], tables: GroupTables) -> None:
        self.coding = coding
        self.groups = list(groups)
        self.tables = tables
        self.labels: dict[int, Callable[[tuple[int, ...]], int]] = {}
        self.ids: dict[int, dict[tuple[Any, ...], int]] = {}  # per group: evaluated label tuples numbered
        self.nodes = 0  # search nodes visited (for the details)
        self.max_nodes: int | None = None  # past this many nodes, TooManyNodes
        self.orders: dict[tuple[Any, ...], tuple[Slot, ...]] = {}  # slot orders computed, by part

    def count(self, g: int, sources: tuple[int, ...]) -> int:
        """Group g's factor when its t-th target concept reads ground-truth concept sources[t]."""
        constraints, slots, sizes = self._constraints(g, sources)
        if any(c.label == MISSING for c in constraints):
            return 0
        if any(c.label is not None and self._label(g)(()) != c.label for c in constraints if not c.slots):
            return 0  # labels that read no concept, checked at once
        constraints = [c for c in constraints if c.slots]
        total = 1
        for part, members in _components(constraints, slots):
            total *= (
                _count_part(part, members, sizes, self._label(g), self)
                if part
                else math.prod(sizes[s] for s in members)
            )
            if not total:
                return 0
        return total

    def _constraints(
        self, g: int, sources: tuple[int, ...]
    ) -> tuple[list[_Constraint], list[Slot], dict[Slot, int]]:
        """The distinct constraints the rows state on group g fed by `sources`, every slot of the
        owners feeding the group (read or not), and each slot's number of images."""
        labels, targets = self.groups[g]
        coding = self.coding
        owners = [coding.owner[s] for s in sources]
        slots = sorted({(o, v) for o in set(owners) for v in coding.seen[o]})
        into = {o: coding.sizes[j] for o, j in zip(owners, targets)}
        sizes = {slot: into[slot[0]] for slot in slots}
        found: dict[tuple[Any, ...], _Constraint] = {}
        table = self.tables.label_table(g)
        names = list(coding.task.labels)
        chosen = [names.index(n) for n in labels]
        for n, (_, idx, supervised, values) in enumerate(coding.rows()):
            read = tuple((o, idx[s]) for o, s in zip(owners, sources))
            on = tuple(idx[j] if j in supervised else None for j in targets)
            if any(x is not None for x in on):
                found.setdefault((True, read, on), _Constraint(read, None, on))
            if len(supervised) < len(idx) and labels:
                label = (
                    int(table[1][n])
                    if table is not None
                    else self._label_id(g, tuple(values[k] for k in chosen))
                )
                found.setdefault((False, read, label), _Constraint(read, label, None))
        return list(found.values()), slots, sizes

    def _label(self, g: int) -> Callable[[tuple[int, ...]], int]:
        """The label id of a tuple of target value numbers (by the group's table, else evaluated)."""
        if g not in self.labels:
            table = self.tables.label_table(g)
            targets = self.groups[g][1]
            radices = [self.coding.sizes[j] for j in targets]
            if table is not None:
                ids = table[0]

                def by_table(values: tuple[int, ...]) -> int:
                    code = 0
                    for value, radix in zip(values, radices):
                        code = code * radix + value
                    return int(ids[code])

                self.labels[g] = by_table
            else:
                self.labels[g] = self._evaluated(g)
        return self.labels[g]

    def _evaluated(self, g: int) -> Callable[[tuple[int, ...]], int]:
        """Label ids by evaluating the group's labels on each predicted vector (memoised)."""
        labels, targets = self.groups[g]
        task = self.coding.task
        concepts = task.concepts
        base = {c.name: c.values[0] for c in concepts}
        memo: dict[tuple[int, ...], int] = {}

        def evaluated(values: tuple[int, ...]) -> int:
            if values not in memo:
                assignment = dict(base)
                for j, u in zip(targets, values):
                    assignment[concepts[j].name] = concepts[j].values[u]
                try:
                    found = tuple(normalise(evaluate(task.labels[n], assignment)) for n in labels)
                except (TypeError, ValueError, ZeroDivisionError, OverflowError, TaskError):
                    memo[values] = MISSING
                else:
                    memo[values] = self._label_id(g, found)
            return memo[values]

        return evaluated

    def _label_id(self, g: int, values: tuple[Any, ...]) -> int:
        """A number for each distinct tuple of group g's label values (evaluated labels)."""
        ids = self.ids.setdefault(g, {})
        return ids.setdefault(values, len(ids))


def _components(
    constraints: list[_Constraint], slots: list[Slot]
) -> list[tuple[list[_Constraint], list[Slot]]]:
    """The constraints and slots split into parts that share no slot (a slot no constraint reads is a
    part of its own)."""
    parent = {s: s for s in slots}

    def root(s: Slot) -> Slot:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for c in constraints:
        for s in c.slots[1:]:
            parent[root(s)] = root(c.slots[0])
    parts: dict[Slot, tuple[list[_Constraint], list[Slot]]] = {}
    for s in slots:
        parts.setdefault(root(s), ([], []))[1].append(s)
    for c in constraints:
        parts[root(c.slots[0])][0].append(c)
    return list(parts.values())


class _OutOfNodes(Exception):
    """A search used up the nodes its turn allows (its memo keeps what it finished)."""


def _count_part(
    constraints: list[_Constraint],
    slots: list[Slot],
    sizes: dict[Slot, int],
    label: Callable[[tuple[int, ...]], int],
    owner: ValueSearch,
) -> int:
    """One part counted by the slot orders in turn, each allowed twice the nodes of its last turn
    (memo kept), until one finishes: no order is best on every task (fail-first stalls on rows that
    a two-valued image barely constrains; rare labels first with concepts in turn, the brute force's
    order, on others), and the turns cost at most a constant factor over the best order."""
    found = set(slots)
    shape = tuple(sorted((s, sizes[s]) for s in slots))
    orders = []
    for order in ORDERS:
        # a part's constraints are the same for every permutation feeding it the same owners (only
        # the targets' sizes differ), so an order is computed once per owners (and sizes, if read)
        key = (order.__name__, frozenset(found), shape if order in SIZED else None)
        if key not in owner.orders:
            owner.orders[key] = tuple(order(constraints, slots, sizes))
        orders.append(owner.orders[key])
    orders = list(dict.fromkeys(orders))
    searches = [_Search(constraints, list(order), sizes, label, owner) for order in orders]
    budget = FIRST_TURN
    while True:
        for search in searches:
            if owner.max_nodes is not None and owner.nodes >= owner.max_nodes:
                raise TooManyNodes(f"search: more than {owner.max_nodes} search nodes")
            try:
                return search.count(budget)
            except _OutOfNodes:
                pass
        budget *= 2


class _Search:
    """The depth-first count of one independent part, slots in a given order."""

    def __init__(
        self,
        constraints: list[_Constraint],
        order: list[Slot],
        sizes: dict[Slot, int],
        label: Callable[[tuple[int, ...]], int],
        owner: ValueSearch,
    ) -> None:
        self.order = order
        position = {s: n for n, s in enumerate(self.order)}
        self.sizes = [sizes[s] for s in self.order]
        self.due: list[list[tuple[tuple[int, ...], int | None, tuple[int | None, ...] | None]]] = [
            [] for _ in self.order
        ]
        last_use = [-1] * len(self.order)
        for c in constraints:
            at = tuple(position[s] for s in c.slots)
            self.due[max(at)].append((at, c.label, c.fixed))
            for p in at:
                last_use[p] = max(last_use[p], max(at))
        # frontier[n]: assigned positions (< n) still read by a constraint due at n or later
        self.frontier = [tuple(p for p in range(n) if last_use[p] >= n) for n in range(len(self.order) + 1)]
        self.label = label
        self.owner = owner
        self.image = [0] * len(self.order)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.limit = 0

    def count(self, nodes: int) -> int:
        """The part's count, or _OutOfNodes after `nodes` new search nodes (or at the owner's cap)."""
        cap = self.owner.max_nodes
        self.limit = self.owner.nodes + nodes if cap is None else min(self.owner.nodes + nodes, cap)
        return self._count(0)

    def _count(self, n: int) -> int:
        if n == len(self.order):
            return 1
        key = (n, tuple(self.image[p] for p in self.frontier[n]))
        if key in self.memo:
            return self.memo[key]
        self.owner.nodes += 1
        if self.owner.nodes > self.limit:
            raise _OutOfNodes
        total = 0
        image = self.image
        for u in range(self.sizes[n]):
            image[n] = u
            for at, label, fixed in self.due[n]:
                if fixed is not None:
                    if any(want is not None and image[p] != want for p, want in zip(at, fixed)):
                        break
                elif self.label(tuple(image[p] for p in at)) != label:
                    break
            else:
                total += self._count(n + 1)
        if len(self.memo) >= MEMO_ENTRIES:
            self.memo.clear()
        self.memo[key] = total
        return total


def _fail_first(constraints: list[_Constraint], slots: list[Slot], sizes: dict[Slot, int]) -> list[Slot]:
    """Slots fail-first: repeatedly the constraint with the fewest branches left to complete it (the
    product of its unplaced slots' image counts; ties: the earlier), its slots appended."""
    return _greedy(constraints, slots, sizes, lambda n, unplaced, branches, turn: (branches, n))


def _rare_first(constraints: list[_Constraint], slots: list[Slot], sizes: dict[Slot, int]) -> list[Slot]:
    """Slots as the brute force orders them: repeatedly the constraint with the fewest unplaced slots,
    then the rarest label (supervised rows first), then the one whose owners have the fewest slots
    placed (so the concepts' values come in turn), then the earlier."""
    rarity = Counter(c.label for c in constraints)

    def key(n: int, unplaced: int, branches: int, turn: int) -> tuple[int, ...]:
        label = constraints[n].label
        return (unplaced, 0 if label is None else rarity[label], turn, n)

    return _greedy(constraints, slots, sizes, key)


def _greedy(
    constraints: list[_Constraint],
    slots: list[Slot],
    sizes: dict[Slot, int],
    key: Callable[[int, int, int, int], tuple[int, ...]],
) -> list[Slot]:
    """Slots in the order a greedy choice of constraints places them: the constraint of least key
    (from its index, unplaced slots, branches left, and its turn: the most slots placed of an owner
    of its unplaced slots) has its slots appended. A heap with an entry per change finds each next
    one; keys that grow as other constraints' slots are placed are refreshed when popped."""
    holders: dict[Slot, list[int]] = {}
    for n, c in enumerate(constraints):
        for slot in set(c.slots):
            holders.setdefault(slot, []).append(n)
    unplaced = [len(set(c.slots)) for c in constraints]
    branches = [math.prod(sizes[s] for s in set(c.slots)) for c in constraints]
    per_owner: Counter[int] = Counter()
    placed: dict[Slot, None] = {}

    def turn(n: int) -> int:
        return max(per_owner[s[0]] for s in constraints[n].slots if s not in placed)

    heap = [(key(n, unplaced[n], branches[n], 0), n) for n in range(len(constraints))]
    heapq.heapify(heap)
    while heap:
        old, n = heapq.heappop(heap)
        if not unplaced[n]:
            continue
        now = key(n, unplaced[n], branches[n], turn(n))
        if now != old:  # stale: pushed again with what it is now
            heapq.heappush(heap, (now, n))
            continue
        for slot in constraints[n].slots:
            if slot in placed:
                continue
            placed[slot] = None
            per_owner[slot[0]] += 1
            for m in holders[slot]:
                unplaced[m] -= 1
                branches[m] //= sizes[slot]
                if unplaced[m]:
                    heapq.heappush(heap, (key(m, unplaced[m], branches[m], turn(m)), m))
    for slot in slots:
        placed.setdefault(slot, None)
    return list(placed)


ORDERS = (_fail_first, _rare_first)
SIZED = (_fail_first,)  # the orders that read the slots' image counts
FIRST_TURN = 4096  # search nodes of each order's first turn
