"""Proper colourings of a graph with k colours, some nodes precoloured, counted exactly by a
forward pass over the nodes that keeps colour classes only by what they still forbid: a class no
later node neighbours is like any other unused-by-constraint class, so partial colourings that
differ only in such classes are one state (a complete graph K_n is one state per node, n
isolated nodes at most k + 1)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence

from ...budget import Unsuited

MAX_STATES = 200_000  # distinct partial colourings kept after a node (a graph past it is declined)

State = tuple[int, tuple[int, ...]]  # colours in use, sorted masks of the later nodes each forbids


def colourings(
    nodes: Sequence[Hashable], edges: Sequence[tuple[Hashable, Hashable]], k: int, pins: dict[Hashable, int]
) -> int:
    """The number of maps from `nodes` to k colours giving the two ends of every edge different
    colours and each pinned node its colour (0 for an edge within a node or pins that clash)."""
    neighbours: dict[Hashable, set[Hashable]] = {v: set() for v in nodes}
    for a, b in edges:
        if a == b:
            return 0
        neighbours[a].add(b)
        neighbours[b].add(a)
    if any(pins[a] == pins[b] for a, b in edges if a in pins and b in pins):
        return 0
    order = _order([v for v in nodes if v not in pins], neighbours)
    position = {v: t for t, v in enumerate(order)}

    def later(v: Hashable, t: int) -> int:
        """The mask of v's neighbours placed after position t."""
        return sum(1 << position[u] for u in neighbours[v] if u in position and position[u] > t)

    forbids: dict[int, int] = defaultdict(int)
    for v, colour in pins.items():
        forbids[colour] |= later(v, -1)
    used = k if pins else 0  # pinned colours are named: every class is one colour, no new one opens
    states: dict[State, int] = {(used, tuple(sorted(m for m in forbids.values() if m))): 1}
    for t, v in enumerate(order):
        bit, mine = 1 << t, later(v, t)
        step: dict[State, int] = defaultdict(int)
        for (j, masks), ways in states.items():
            kept = [m & ~bit for m in masks]
            rest = [m for m in kept if m]
            if j < k:  # a new colour, any of the k - j unused
                step[j + 1, _sorted(rest, mine)] += ways * (k - j)
            if j > len(masks):  # a class that forbids nothing: any of them
                step[j, _sorted(rest, mine)] += ways * (j - len(masks))
            for m, same in Counter(masks).items():
                if not m & bit:  # a class that forbids later nodes but not v
                    others = list(rest)
                    others.remove(m)
                    step[j, _sorted(others, m | mine)] += ways * same
        if len(step) > MAX_STATES:
            raise Unsuited(f"more than {MAX_STATES} partial colourings of the equalities' graph")
        states = step
    return sum(states.values())


def _sorted(masks: list[int], new: int) -> tuple[int, ...]:
    return tuple(sorted([*masks, new] if new else masks))


def _order(nodes: list[Hashable], neighbours: dict[Hashable, set[Hashable]]) -> list[Hashable]:
    """The nodes in maximum-cardinality order (next: the most neighbours placed, then the most
    neighbours), which keeps the classes that still forbid something few."""
    placed: list[Hashable] = []
    links = dict.fromkeys(nodes, 0)
    while links:
        v = max(links, key=lambda u: (links[u], len(neighbours[u])))
        del links[v]
        placed.append(v)
        for u in neighbours[v]:
            if u in links:
                links[u] += 1
    return placed
