"""Which concepts the optimal maps keep, found by search instead of SAT (check's question for tasks
whose knowledge is too large a CNF, e.g. a program's labels on ten thousand rows): every concept
permutation pi with optimal maps is visited (prefixes dropped as search drops them), and for each
concept j, whether some optimal map moves it (pi(j) != j, and which concepts then feed j) or keeps
pi(j) = j but remaps its values (fewer maps with f_j the identity than without)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ....task.model import Mode
from ...budget import TooManyClasses, Unsuited
from ...problem import CountProblem
from .backend import Counter


@dataclass(frozen=True)
class Loose:
    """How concept j may lose its meaning: the other concepts that may feed it, and whether its
    values may be remapped while it reads its own."""

    readers: frozenset[int]
    remapped: bool


def loose_concepts(
    problem: CountProblem, max_permutations: int | None, max_nodes: int | None
) -> dict[int, Loose]:
    """The concepts some optimal map does not keep (disentangled mode), by concept index; past
    `max_permutations` permutation prefixes or `max_nodes` search nodes (None: no bound),
    OverBudget."""
    if problem.mode != Mode.DISENTANGLED:
        raise Unsuited("identification by search: the disentangled mode")
    counter = Counter(problem)
    counter.search.max_nodes = max_nodes
    k = len(problem.task.concepts)
    readers: dict[int, set[int]] = {j: set() for j in range(k)}
    remapped: set[int] = set()
    for pi in _permutations(counter, k, max_permutations):
        models = counter.models(pi)
        if not models:
            continue
        for i, j in enumerate(pi):
            if i != j:
                readers[j].add(i)
        for j in range(k):
            if pi[j] == j and j not in remapped and counter.models(pi, pinned=j) < models:
                remapped.add(j)
    return {j: Loose(frozenset(readers[j]), j in remapped) for j in range(k) if readers[j] or j in remapped}


def _permutations(counter: Counter, k: int, most: int | None) -> Iterator[tuple[int, ...]]:
    """Every permutation (pi[i]: the concept source i feeds) whose groups all accept it, built
    source by source with a prefix dropped once a whole group refuses it (the identity alone with
    an extractor in place)."""
    visited = 0
    placed: list[tuple[int, int]] = []
    free = set(range(k))

    def extend() -> Iterator[tuple[int, ...]]:
        nonlocal visited
        if len(placed) == k:
            yield tuple(j for _, j in placed)
            return
        for j in [len(placed)] if counter.task.in_place else sorted(free):
            visited += 1
            if most is not None and visited > most:
                raise TooManyClasses(f"identification by search: more than {most} permutation prefixes")
            placed.append((len(placed), j))
            free.discard(j)
            if counter.viable(placed):
                yield from extend()
            placed.pop()
            free.add(j)

    yield from extend()
