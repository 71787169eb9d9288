"""Exact counting of tasks whose labels each test two concepts of one domain for equality
(forms.py). With the permutation pi fixed, a row says of the two images its values read, per
label, that they are equal (merged) or differ (an edge), and a supervised concept pins an image:
N(pi) is the number of proper colourings of the merged graph, a component at a time, with as many
colours as the domain has values (colourings.py), times the free images of the values no
equality reads. Scallop's eq_2 (two digits, all 100 pairs): the two value maps one bijection,
2 x 10! in milliseconds, where a solver enumerates or a compiler blows up on the bijection."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Hashable

from ....encoding.value_codes import Reading, ValueMapCoding
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, Unsuited
from ...engines.permutations import concept_permutations
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method
from .colourings import colourings
from .forms import Equality, equality_labels

Image = tuple[int, int]  # (owner of a value map, value number): the image f_owner(value)


class EqualitiesBackend:
    """Sum over concept permutations of the colourings the rows' equalities allow."""

    method = Method.EQUALITIES
    exact = True
    description = "equality labels: per concept permutation, the proper colourings of the images"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact count, or Unsuited for a label that is no equality test, a mode other than the
        disentangled and objects ones, too many permutations or a graph with too many states."""
        start = time.perf_counter()
        if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise Unsuited("the equalities method counts the disentangled and objects modes")
        tests = equality_labels(problem.task)
        if tests is None:
            raise Unsuited("a label is not an equality test of two concepts with the same values")
        coding = ValueMapCoding(problem.task, shared=problem.mode == Mode.OBJECTS)
        total, summed, nonzero = 0, 0, 0
        for pi in concept_permutations(problem.task, problem.mode):
            if progress and summed % 100 == 0:
                progress.update(f"permutation {summed + 1}")
            found = _colourings(coding, tests, pi)
            summed += 1
            if found:
                total += found * coding.unseen_factor(pi)
                nonzero += 1
        details = {"permutations": summed, "nonzero": nonzero}
        return CountResult(total, True, self.method, time.perf_counter() - start, details=details)


def _colourings(coding: ValueMapCoding, tests: list[Equality], pi: tuple[int, ...]) -> int:
    """N(pi) for the seen images: merged where a row's label says equal, apart where it says they
    differ, pinned where a concept is supervised; each image no equality reads is free."""
    owner = coding.owner
    parent: dict[Image, Image] = {image: image for image in coding.var}

    def root(x: Image) -> Image:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    pinned: list[tuple[Image, int]] = []
    apart: list[tuple[Image, Image]] = []
    tested: set[Image] = set()
    for fact in coding.row_facts(pi):
        if not isinstance(fact, Reading):
            pinned += [((owner[i], v), u) for i, v, u in fact]
            continue
        for test in tests:
            a, b = ((owner[i], v) for i, v in (fact.pairs[j] for j in test.concepts))
            tested |= {a, b}
            if fact.values[test.label] == test.equal:
                parent[root(a)] = root(b)
            else:
                apart.append((a, b))
    pins: dict[Image, int] = {}
    for image, u in pinned:
        if pins.setdefault(root(image), u) != u:
            return 0
    found = 1
    for image in coding.var:  # an image no equality reads: anywhere in its target, unless pinned
        if image not in tested and root(image) == image and image not in pins:
            found *= coding.sizes[pi[image[0]]]
    return found * _components(
        coding, pi, {root(x) for x in tested}, [(root(a), root(b)) for a, b in apart], pins
    )


def _components(
    coding: ValueMapCoding,
    pi: tuple[int, ...],
    nodes: set[Image],
    edges: list[tuple[Image, Image]],
    pins: dict[Image, int],
) -> int:
    """The product over the graph's connected components of their colourings, each with as many
    colours as the values of the concept its images feed."""
    linked: dict[Image, list[Image]] = {v: [] for v in nodes}
    for a, b in edges:
        linked[a].append(b)
        linked[b].append(a)
    component: dict[Image, Image] = {}  # node -> the first node of its component
    for start in sorted(nodes):
        if start not in component:
            component[start], stack = start, [start]
            while stack:
                for u in linked[stack.pop()]:
                    if u not in component:
                        component[u] = start
                        stack.append(u)
    members: dict[Image, list[Hashable]] = defaultdict(list)
    for v, first in component.items():
        members[first].append(v)
    inside: dict[Image, list[tuple[Hashable, Hashable]]] = defaultdict(list)
    for a, b in edges:
        inside[component[a]].append((a, b))
    found = 1
    for first, nodes_of in members.items():
        k = coding.sizes[pi[first[0]]]
        found *= colourings(nodes_of, inside[first], k, {v: pins[v] for v in nodes_of if v in pins})
        if not found:
            return 0
    return found
