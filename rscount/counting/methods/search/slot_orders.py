"""The orders in which value_search.py assigns a part's slots (no order is best on every task, so
the search runs two in turns), and the constraints they order: what each support row asks of a
label group."""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

Slot = tuple[int, int]  # (value-map owner, value number)


class Constraint:
    """What one support row asks of a label group: the slots it reads (one per target concept, in the
    group's target order) and either the label id the images must give, or the image each slot must
    take (a supervised row; None where that concept is not supervised). `tag` says which label
    function gives the label id (where a search checks several groups' rows at once)."""

    def __init__(
        self, slots: tuple[Slot, ...], label: int | None, fixed: tuple[int | None, ...] | None, tag: int = 0
    ):
        self.slots = slots
        self.label = label
        self.fixed = fixed
        self.tag = tag


def fail_first(constraints: list[Constraint], slots: list[Slot], sizes: dict[Slot, int]) -> list[Slot]:
    """Slots fail-first: repeatedly the constraint with the fewest branches left to complete it (the
    product of its unplaced slots' image counts; ties: the earlier), its slots appended."""
    return _greedy(
        constraints, slots, sizes, lambda n, unplaced, branches, turn, owners: (branches, n), False
    )


def rare_first(constraints: list[Constraint], slots: list[Slot], sizes: dict[Slot, int]) -> list[Slot]:
    """Slots as the naive brute force orders them (tests/references/bruteforce.py rows_order):
    repeatedly the constraint with the fewest unplaced slots, then the rarest label (supervised rows
    first), then the one whose owners have the fewest slots placed (so the concepts' values come in
    turn), then the one whose unplaced slots' owners come first, then the earlier."""
    rarity = Counter((c.tag, c.label) for c in constraints)

    def key(n: int, unplaced: int, branches: int, turn: int, owners: list[int]) -> tuple[Any, ...]:
        c = constraints[n]
        return (unplaced, 0 if c.label is None else rarity[c.tag, c.label], turn, owners, n)

    return _greedy(constraints, slots, sizes, key, True)


def _greedy(
    constraints: list[Constraint],
    slots: list[Slot],
    sizes: dict[Slot, int],
    key: Callable[[int, int, int, int, list[int]], tuple[Any, ...]],
    by_owners: bool,
) -> list[Slot]:
    """Slots in the order a greedy choice of constraints places them: the constraint of least key
    (from its index, unplaced slots, branches left, its turn: the most slots placed of an owner of
    its unplaced slots, and those owners, sorted) has its slots appended, in slot order. A heap with
    an entry per change finds each next one; keys that grow as other constraints' slots are placed
    are refreshed when popped; the turn and owners are worked out only for a key that reads them
    (`by_owners`)."""
    holders: dict[Slot, list[int]] = {}
    distinct = [sorted(set(c.slots)) for c in constraints]
    for n, own in enumerate(distinct):
        for slot in own:
            holders.setdefault(slot, []).append(n)
    unplaced = [len(own) for own in distinct]
    branches = [math.prod(sizes[s] for s in own) for own in distinct]
    per_owner: Counter[int] = Counter()
    placed: dict[Slot, None] = {}

    def key_now(n: int) -> tuple[Any, ...]:
        if not by_owners:
            return key(n, unplaced[n], branches[n], 0, [])
        owners = sorted(s[0] for s in distinct[n] if s not in placed)
        return key(n, unplaced[n], branches[n], max(per_owner[o] for o in owners), owners)

    heap = [(key_now(n), n) for n in range(len(constraints))]
    heapq.heapify(heap)
    while heap and len(placed) < len(holders):  # past it, only stale entries are left
        old, n = heapq.heappop(heap)
        if not unplaced[n]:
            continue
        now = key_now(n)
        if now != old:  # stale: pushed again with what it is now
            heapq.heappush(heap, (now, n))
            continue
        for slot in distinct[n]:
            if slot in placed:
                continue
            placed[slot] = None
            per_owner[slot[0]] += 1
            for m in holders[slot]:
                unplaced[m] -= 1
                branches[m] //= sizes[slot]
                if unplaced[m]:
                    heapq.heappush(heap, (key_now(m), m))
    for slot in slots:
        placed.setdefault(slot, None)
    return list(placed)


ORDERS = (rare_first, fail_first)  # untried, the brute force's order leads
SIZED = (fail_first,)  # the orders that read the slots' image counts
