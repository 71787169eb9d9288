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

import math
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ...encoding.value_codes import ValueMapCoding
from ...errors import TaskError
from ...task.expressions import evaluate, normalise
from ..budget import TooManyNodes
from .group_tables import MISSING, Group, GroupTables
from .slot_orders import ORDERS, SIZED, Constraint, Slot

MEMO_ENTRIES = 1 << 20  # memoised subtrees kept before the memo is emptied
MEMO_TRIAL = 1024  # look-ups at a depth before a depth that never hit stops memoising
Picker = Callable[[list[int]], tuple[int, ...]]  # a list's items at some positions, as a tuple


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
        self.spent: dict[str, tuple[int, int]] = {}  # per slot order: parts it finished, their nodes
        self.parts = 0  # parts counted

    def cost(self, order: str) -> tuple[float, str]:
        """An order's mean nodes per part it finished (untried orders first), for the turn order."""
        parts, nodes = self.spent.get(order, (0, 0))
        return (nodes / parts if parts else -1.0, order)

    def finished(self, order: str, nodes: int) -> None:
        """Record that `order` finished a part in `nodes` search nodes."""
        parts, spent = self.spent.get(order, (0, 0))
        self.spent[order] = (parts + 1, spent + nodes)

    def count(self, g: int, sources: tuple[int, ...], pinned: int | None = None) -> int:
        """Group g's factor when its t-th target concept reads ground-truth concept sources[t]; with
        `pinned` (a source feeding its own concept), only the maps that keep its seen values."""
        constraints, slots, sizes = self._constraints(g, sources)
        if pinned is not None:
            owner = self.coding.owner[pinned]
            constraints += [Constraint(((owner, v),), None, (v,)) for v in sorted(self.coding.seen[owner])]
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
    ) -> tuple[list[Constraint], list[Slot], dict[Slot, int]]:
        """The distinct constraints the rows state on group g fed by `sources`, every slot of the
        owners feeding the group (read or not), and each slot's number of images."""
        labels, targets = self.groups[g]
        coding = self.coding
        owners = [coding.owner[s] for s in sources]
        slots = sorted({(o, v) for o in set(owners) for v in coding.seen[o]})
        into = {o: coding.sizes[j] for o, j in zip(owners, targets)}
        sizes = {slot: into[slot[0]] for slot in slots}
        found: dict[tuple[Any, ...], Constraint] = {}
        table = self.tables.label_table(g)
        names = list(coding.task.labels)
        chosen = [names.index(n) for n in labels]
        for n, (_, idx, supervised, values) in enumerate(coding.rows()):
            read = tuple((o, idx[s]) for o, s in zip(owners, sources))
            on = tuple(idx[j] if j in supervised else None for j in targets)
            if any(x is not None for x in on):
                found.setdefault((True, read, on), Constraint(read, None, on))
            if len(supervised) < len(idx) and labels:
                label = (
                    int(table[1][n])
                    if table is not None
                    else self._label_id(g, tuple(values[k] for k in chosen))
                )
                found.setdefault((False, read, label), Constraint(read, label, None))
        return list(found.values()), slots, sizes

    def _label(self, g: int) -> Callable[[tuple[int, ...]], int]:
        """The label id of a tuple of target value numbers (by the group's table, else evaluated)."""
        if g not in self.labels:
            table = self.tables.label_table(g)
            targets = self.groups[g][1]
            radices = [self.coding.sizes[j] for j in targets]
            if table is not None:
                ids = table[0]
                known: dict[tuple[int, ...], int] = {}  # the tuples looked up so far

                def by_table(values: tuple[int, ...]) -> int:
                    found = known.get(values)
                    if found is None:
                        code = 0
                        for value, radix in zip(values, radices):
                            code = code * radix + value
                        found = known[values] = int(ids[code])
                    return found

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
    constraints: list[Constraint], slots: list[Slot]
) -> list[tuple[list[Constraint], list[Slot]]]:
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
    parts: dict[Slot, tuple[list[Constraint], list[Slot]]] = {}
    for s in slots:
        parts.setdefault(root(s), ([], []))[1].append(s)
    for c in constraints:
        parts[root(c.slots[0])][0].append(c)
    return list(parts.values())


class _OutOfNodes(Exception):
    """A search used up the nodes its turn allows (it keeps its place for its next turn)."""


def _count_part(
    constraints: list[Constraint],
    slots: list[Slot],
    sizes: dict[Slot, int],
    label: Callable[[tuple[int, ...]], int],
    owner: ValueSearch,
) -> int:
    """One part counted by the slot orders in turns, each turn resuming that order's search with
    twice the nodes of its last, until one finishes: no order is best on every task (fail-first
    stalls on rows that a two-valued image barely constrains; rare labels first with concepts in
    turn, the brute force's order, on others). The order that needed the fewest nodes per part so
    far leads (every EXPLORE-th part, another does); the others join after its first turn, with 1/LEAD
    of its turns, so a part costs at most the leader's nodes and 1/LEAD more, or about LEAD + 1 times
    what a better order needs. A part the leader's first turn finishes never computes the others."""
    found = frozenset(slots)
    shape = tuple(sorted((s, sizes[s]) for s in slots))
    ranked = sorted(ORDERS, key=lambda order: owner.cost(order.__name__))
    owner.parts += 1
    if owner.parts % EXPLORE == 0:  # now and then another order leads, to measure it
        ranked = ranked[1:] + ranked[:1]
    searches: list[tuple[_Search, str]] = []

    def join(order: Callable[[list[Constraint], list[Slot], dict[Slot, int]], list[Slot]]) -> None:
        """The order's search joins the turns (unless another order gave the same slot order)."""
        # a part's constraints are the same for every permutation feeding it the same owners (only
        # the targets' sizes differ), so an order is computed once per owners (and sizes, if read)
        key = (order.__name__, found, shape if order in SIZED else None)
        if key not in owner.orders:
            owner.orders[key] = tuple(order(constraints, slots, sizes))
        if all(search.order != list(owner.orders[key]) for search, _ in searches):
            searches.append(
                (_Search(constraints, list(owner.orders[key]), sizes, label, owner), order.__name__)
            )

    join(ranked[0])  # the others join if its first turn does not finish the part
    budget = FIRST_TURN
    while True:
        for turn, (search, name) in enumerate(searches):
            if owner.max_nodes is not None and owner.nodes >= owner.max_nodes:
                raise TooManyNodes(f"search: more than {owner.max_nodes} search nodes")
            try:
                total = search.count(budget if turn == 0 else budget // LEAD)
            except _OutOfNodes:
                continue
            owner.finished(name, search.used)
            return total
        if budget == FIRST_TURN:
            for order in ranked[1:]:
                join(order)
        budget *= 2


class _Search:
    """The depth-first count of one independent part, slots in a given order."""

    def __init__(
        self,
        constraints: list[Constraint],
        order: list[Slot],
        sizes: dict[Slot, int],
        label: Callable[[tuple[int, ...]], int],
        owner: ValueSearch,
    ) -> None:
        self.order = order
        position = {s: n for n, s in enumerate(self.order)}
        self.sizes = [sizes[s] for s in self.order]
        self.due: list[list[tuple[Picker, int | None, tuple[tuple[int, int], ...] | None]]]
        self.due = [[] for _ in self.order]
        last_use = list(range(len(self.order)))
        for c in constraints:
            at = tuple(position[s] for s in c.slots)
            fixed = None if c.fixed is None else tuple((p, w) for p, w in zip(at, c.fixed) if w is not None)
            due = max(at)
            self.due[due].append((_picker(at), c.label, fixed))
            for p in at:
                if last_use[p] < due:
                    last_use[p] = due
        # frontier[n]: assigned positions (< n) still read by a constraint due at n or later
        frontier: list[list[int]] = [[] for _ in range(len(self.order) + 1)]
        for p, last in enumerate(last_use):
            for n in range(p + 1, last + 1):
                frontier[n].append(p)
        self.frontier = [_picker(tuple(f)) for f in frontier]
        # memoising at a depth pays only where its frontiers repeat: a depth whose first MEMO_TRIAL
        # look-ups found nothing is no longer memoised (its keys cost more than they save)
        self.lookups = [0] * len(self.order)
        self.hits = [0] * len(self.order)
        self.label = label
        self.owner = owner
        self.image = [0] * len(self.order)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.used = 0  # search nodes of all its turns
        # where the search stands between turns: depth and whether that node is yet to be entered;
        # per depth, the last image tried, the subtrees' sum so far and the node's memo key
        self.at = (0, True)
        self.tried = [0] * len(self.order)
        self.totals = [0] * len(self.order)
        self.keys: list[tuple[int, tuple[int, ...]] | None] = [None] * len(self.order)

    def count(self, nodes: int) -> int:
        """The part's count, or _OutOfNodes after `nodes` more search nodes (or at the owner's cap);
        a later call resumes where this one stopped."""
        owner = self.owner
        limit = owner.nodes + nodes if owner.max_nodes is None else min(owner.nodes + nodes, owner.max_nodes)
        before = owner.nodes
        try:
            return self._run(limit)
        finally:
            self.used += owner.nodes - before

    def _run(self, limit: int) -> int:
        """Depth-first, iteratively: at depth n, `entering` a node (memo look-up, then its first
        image) or trying the next image of slot n; `totals[n]` sums the finished subtrees under it."""
        owner, image, label, memo = self.owner, self.image, self.label, self.memo
        sizes, due, tried, totals, keys = self.sizes, self.due, self.tried, self.totals, self.keys
        depth = len(self.order)
        n, entering = self.at
        while True:
            if entering:
                found: int | None = None
                if n == depth:
                    found = 1
                else:
                    key = None
                    if self.lookups[n] < MEMO_TRIAL or self.hits[n] > 0:
                        key = (n, self.frontier[n](image))
                        self.lookups[n] += 1
                        found = memo.get(key)
                        if found is not None:
                            self.hits[n] += 1
                    if found is None:
                        if owner.nodes >= limit:
                            self.at = (n, True)
                            raise _OutOfNodes
                        owner.nodes += 1
                        keys[n], totals[n], tried[n] = key, 0, -1
                        entering = False
                        continue
            else:
                u, size = tried[n] + 1, sizes[n]
                while u < size:
                    image[n] = u
                    for read, want, fixed in due[n]:
                        if fixed is not None:
                            if any(image[p] != w for p, w in fixed):
                                break
                        elif label(read(image)) != want:
                            break
                    else:
                        break
                    u += 1
                tried[n] = u
                if u < size:
                    n, entering = n + 1, True
                    continue
                found = totals[n]
                done = keys[n]
                if done is not None:
                    if len(memo) >= MEMO_ENTRIES:
                        memo.clear()
                    memo[done] = found
            if n == 0:
                return found
            n, entering = n - 1, False
            totals[n] += found


def _picker(positions: tuple[int, ...]) -> Picker:
    """The tuple of a list's items at `positions`, picked in C (operator.itemgetter)."""
    if not positions:
        return lambda values: ()
    if len(positions) == 1:
        (p,) = positions
        return lambda values: (values[p],)
    return itemgetter(*positions)


FIRST_TURN = 4096  # search nodes of each order's first turn
LEAD = 4  # the leading order's turns are this many times the others'
EXPLORE = 8  # every this many parts, the order that goes first is not the cheapest so far
