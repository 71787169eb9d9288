"""The value maps of a task whose labels are all equality tests (rscount.knowledge.equalities), as
colourings: with the permutation pi fixed, a row says of the two images its values read, per
label, that they are equal (merged) or differ (an edge), and a supervised concept pins an image,
so N(pi) is the number of proper colourings of the merged graph, a component at a time, with as
many colours as the domain has values, times the free images no equality reads. The same count
with more images pinned gives forecast's marginals and explain's identities. Colourings are
counted by a forward pass over the nodes that keeps colour classes only by the later nodes they
forbid: classes that forbid nothing are interchangeable, so partial colourings that differ only in
such classes are one state (a complete graph K_n is one state per node, n isolated nodes at most
k + 1). Used by the equalities method and by the class counts of the insight commands."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ...encoding.value_codes import Reading, ValueMapCoding
from ...knowledge.equalities import Equality
from ..budget import Unsuited

MAX_STATES = 200_000  # distinct partial colourings kept after a node (a graph past it is declined)

State = tuple[int, tuple[int, ...]]  # colours in use, sorted masks of the later nodes each forbids
Image = tuple[int, int]  # (owner of a value map, value number): the image f_owner(value)
Node = TypeVar("Node", bound=Hashable)
Component = tuple[list[Image], list[tuple[Image, Image]], int]  # nodes, edges, colours


def colourings(
    nodes: Sequence[Node], edges: Sequence[tuple[Node, Node]], k: int, pins: Mapping[Node, int]
) -> int:
    """The number of maps from `nodes` to k colours giving the two ends of every edge different
    colours and each pinned node its colour (0 for an edge within a node or pins that clash)."""
    neighbours: dict[Node, set[Node]] = {v: set() for v in nodes}
    for a, b in edges:
        if a == b:
            return 0
        neighbours[a].add(b)
        neighbours[b].add(a)
    if any(pins[a] == pins[b] for a, b in edges if a in pins and b in pins):
        return 0
    order = _order([v for v in nodes if v not in pins], neighbours)
    position = {v: t for t, v in enumerate(order)}

    def later(v: Node, t: int) -> int:
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


def _order(nodes: list[Node], neighbours: dict[Node, set[Node]]) -> list[Node]:
    """The nodes in maximum-cardinality order (next: the most neighbours placed, then the most
    neighbours), which keeps the classes that still forbid something few."""
    placed: list[Node] = []
    links = dict.fromkeys(nodes, 0)
    while links:
        v = max(links, key=lambda u: (links[u], len(neighbours[u])))
        del links[v]
        placed.append(v)
        for u in neighbours[v]:
            if u in links:
                links[u] += 1
    return placed


@dataclass
class _Graph:
    """The rows' constraints with one pi: each image's representative (merged images share one),
    the pins of representatives (None: two clash, no map works), the product of the sizes of the
    free images (no equality reads them, none pinned), and the connected components of the
    representatives some equality reads (nodes, edges, colours) with their counts under the pins,
    so that a count with one more pin recounts one component."""

    root: dict[Image, Image]
    pins: dict[Image, int] | None
    free: int
    components: list[Component]
    component_of: dict[Image, int]
    counts: list[int]


class ImageColourings:
    """N(pi) of a task whose labels are the equality tests `tests`, for the seen images of `coding`
    (the unseen ones are the caller's, as ValueMapCoding.unseen_factor), with images pinned on
    request; each pi's graph is built and counted once."""

    def __init__(self, coding: ValueMapCoding, tests: list[Equality]) -> None:
        self.coding, self.tests = coding, tests
        self.graphs: dict[tuple[int, ...], _Graph] = {}

    def count(self, pi: tuple[int, ...], pinned: Iterable[tuple[Image, int]] = ()) -> int:
        """The maps of the seen images with pi, those of `pinned` sent to the value numbers given."""
        graph = self._graph(pi)
        if graph.pins is None:
            return 0
        extra: dict[Image, int] = {}
        for image, u in pinned:
            r = graph.root[image]
            if graph.pins.get(r, u) != u or extra.setdefault(r, u) != u:
                return 0
        found = graph.free
        for r in extra:  # a free image pinned: one image instead of any
            if r not in graph.component_of and r not in graph.pins:
                found //= self.coding.sizes[pi[r[0]]]
        touched = {graph.component_of[r] for r in extra if r in graph.component_of}
        for n, (nodes, edges, k) in enumerate(graph.components):
            if n in touched:
                pins = {v: extra.get(v, graph.pins.get(v)) for v in nodes}
                found *= colourings(nodes, edges, k, {v: u for v, u in pins.items() if u is not None})
            else:
                found *= graph.counts[n]
        return found

    def tally(self, pi: tuple[int, ...], owners: set[int]) -> tuple[int, dict[Image, list[int]]]:
        """The count with pi and, per seen image of the `owners`, the count with it sent to each value
        number of its target."""
        total = self.count(pi)
        fixed = {
            (o, v): [self.count(pi, [((o, v), u)]) if total else 0 for u in range(self.coding.sizes[pi[o]])]
            for o, v in self.coding.var
            if o in owners
        }
        return total, fixed

    def identities(self, pi: tuple[int, ...]) -> dict[int, int]:
        """Per owner, the count with pi and every seen value of its kept (same value number)."""
        sizes, found = self.coding.sizes, {}
        for o in set(self.coding.owner):
            kept = [((o, v), v) for p, v in self.coding.var if p == o]
            found[o] = self.count(pi, kept) if all(v < sizes[pi[o]] for _, v in kept) else 0
        return found

    def _graph(self, pi: tuple[int, ...]) -> _Graph:
        if pi in self.graphs:
            return self.graphs[pi]
        owner = self.coding.owner
        parent: dict[Image, Image] = {image: image for image in self.coding.var}

        def root(x: Image) -> Image:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        pinned: list[tuple[Image, int]] = []
        apart: list[tuple[Image, Image]] = []
        tested: set[Image] = set()
        for fact in self.coding.row_facts(pi):
            if not isinstance(fact, Reading):
                pinned += [((owner[i], v), u) for i, v, u in fact]
                continue
            for test in self.tests:
                a, b = ((owner[i], v) for i, v in (fact.pairs[j] for j in test.concepts))
                tested |= {a, b}
                if fact.values[test.label] == test.equal:
                    parent[root(a)] = root(b)
                else:
                    apart.append((a, b))
        roots = {image: root(image) for image in parent}
        pins: dict[Image, int] | None = {}
        for image, u in pinned:
            if pins is not None and pins.setdefault(roots[image], u) != u:
                pins = None
        free = 1
        for image in self.coding.var:  # an image no equality reads: anywhere in its target, unless pinned
            if image not in tested and (pins is None or image not in pins):
                free *= self.coding.sizes[pi[image[0]]]
        edges = [(roots[a], roots[b]) for a, b in apart]
        components, component_of = self._components(pi, {roots[x] for x in tested}, edges)
        base = pins or {}
        counts = [
            colourings(nodes, inside, k, {v: base[v] for v in nodes if v in base})
            for nodes, inside, k in components
        ] if pins is not None else []  # fmt: skip
        graph = self.graphs[pi] = _Graph(roots, pins, free, components, component_of, counts)
        return graph

    def _components(
        self, pi: tuple[int, ...], nodes: set[Image], edges: list[tuple[Image, Image]]
    ) -> tuple[list[Component], dict[Image, int]]:
        """The graph's connected components (nodes, edges, as many colours as the values of the
        concept their images feed), and each node's component."""
        linked: dict[Image, list[Image]] = {v: [] for v in nodes}
        for a, b in edges:
            linked[a].append(b)
            linked[b].append(a)
        component: dict[Image, int] = {}
        found: list[Component] = []
        for start in sorted(nodes):
            if start in component:
                continue
            component[start], stack, members = len(found), [start], [start]
            while stack:
                for u in linked[stack.pop()]:
                    if u not in component:
                        component[u] = len(found)
                        stack.append(u)
                        members.append(u)
            found.append((members, [], self.coding.sizes[pi[start[0]]]))
        for a, b in edges:
            found[component[a]][1].append((a, b))
        return found, component
