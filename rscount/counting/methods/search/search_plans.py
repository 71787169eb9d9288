"""What value_search.py builds once per label group and set of source concepts, and reuses for
every permutation that feeds the group from the same sources in another order: the constraints the
rows state (their slots in the sources' sorted order), the independent parts they form, each part's
slot orders and, per order, the checks due at each depth. A permutation then only brings the order
in which the targets read those slots (which label tuple a check asks for), the slots' image counts
and the supervised rows' wanted images. A task whose single label group reads all k concepts has k!
permutations and one plan."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ...engines.group_tables import MISSING
from .slot_orders import Constraint, Slot

Picker = Callable[[list[int]], tuple[int, ...]]  # a list's items at some positions, as a tuple
# a label check due at a depth: the positions of the slots it reads (or their picker), the label id
# it must give and the tag of the labels it reads
Check = tuple[tuple[int, ...], int | None, int]
Direct = tuple[Picker, int | None, int]
Images = tuple[tuple[int, int], ...]  # positions and the images they must take


class Plan:
    """A part's search in one slot order: per depth, the label checks due there (a row's labels,
    read when the depth's slot is the last of its slots assigned) and the supervised rows
    due there (their positions and wanted images per target); per depth, the frontier a memo key
    reads; and, shared by every permutation, how often a depth's memo look-ups hit."""

    def __init__(self, constraints: Sequence[Constraint], order: Sequence[Slot]) -> None:
        self.order = list(order)
        position = {s: n for n, s in enumerate(self.order)}
        self.labels: list[list[Check]] = [[] for _ in self.order]
        self.direct: list[list[Direct]] = [[] for _ in self.order]
        self.supervised: list[list[tuple[tuple[int, ...], tuple[int | None, ...]]]] = [[] for _ in self.order]
        last_use = list(range(len(self.order)))
        for c in constraints:
            at = tuple(position[s] for s in c.slots)
            due = max(at)
            if c.fixed is None:
                self.labels[due].append((at, c.label, c.tag))
                self.direct[due].append((picker(at), c.label, c.tag))
            else:
                self.supervised[due].append((at, c.fixed))
            for p in at:
                last_use[p] = max(last_use[p], due)
        # frontier[n]: assigned positions (< n) still read by a constraint due at n or later
        frontier: list[list[int]] = [[] for _ in range(len(self.order) + 1)]
        for p, last in enumerate(last_use):
            for n in range(p + 1, last + 1):
                frontier[n].append(p)
        self.frontier = [picker(tuple(f)) for f in frontier]
        self.none: list[list[Images]] = [[] for _ in self.order]
        self._touching: list[list[Check]] | None = None
        self.lookups = [0] * len(self.order)
        self.hits = [0] * len(self.order)

    def touching(self) -> list[list[Check]]:
        """Per depth, the label checks of the rows that read its slot (built on first use)."""
        if self._touching is None:
            self._touching = [[] for _ in self.order]
            for checks in self.labels:
                for check in checks:
                    for p in set(check[0]):
                        self._touching[p].append(check)
        return self._touching

    def fixed(self, reading: tuple[int, ...], pins: dict[Slot, int]) -> list[list[Images]]:
        """The images the supervised rows want, per depth, when target t reads the source at sorted
        position reading[t], with the slots of `pins` held to one image each."""
        if not pins and not any(self.supervised):
            return self.none
        due: list[list[Images]] = [[] for _ in self.order]
        for n, rows in enumerate(self.supervised):
            for at, wanted in rows:
                due[n].append(tuple((at[s], w) for s, w in zip(reading, wanted) if w is not None))
        for n, slot in enumerate(self.order):
            if slot in pins:
                due[n].append(((n, pins[slot]),))
        return due


class Part:
    """Constraints that share slots (transitively), their slots, and their plans by slot order."""

    def __init__(self, constraints: list[Constraint], slots: list[Slot]) -> None:
        self.constraints = constraints
        self.slots = slots
        self.orders: dict[tuple[str, Any], tuple[Slot, ...]] = {}
        self.plans: dict[tuple[Slot, ...], Plan] = {}

    def plan(self, order: tuple[Slot, ...]) -> Plan:
        """The plan of this part in `order` (built once)."""
        if order not in self.plans:
            self.plans[order] = Plan(self.constraints, order)
        return self.plans[order]


class Skeleton:
    """The constraints of the rows for some groups fed by some sources, split into parts;
    `impossible` when some row's labels no predicted vector gives (or, `missed`, a row's labels that
    read no concept differ from what the knowledge gives)."""

    def __init__(self, constraints: list[Constraint], slots: list[Slot], missed: bool) -> None:
        self.impossible = missed or any(c.label == MISSING for c in constraints)
        self.parts = [Part(cs, members) for cs, members in components(constraints, slots)]


def components(constraints: list[Constraint], slots: list[Slot]) -> list[tuple[list[Constraint], list[Slot]]]:
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


def picker(positions: tuple[int, ...]) -> Picker:
    """The tuple of a list's items at `positions`, picked in C (operator.itemgetter)."""
    if not positions:
        return lambda values: ()
    if len(positions) == 1:
        (p,) = positions
        return lambda values: (values[p],)
    return itemgetter(*positions)
