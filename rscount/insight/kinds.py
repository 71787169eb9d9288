"""Kinds of optimal maps: the maps grouped by what each predicted concept reads (their concept
permutation; in the objects mode an object and an attribute permutation), with how many maps each
kind holds. The classes of permutations the counts walk give them: every member h_out pi h_in of
a class holds the maps of its representative pi, as many (rscount.knowledge.symmetry_groups)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..counting.budget import Budget, Declined
from ..counting.engines.class_counts import ClassCounter
from ..counting.engines.class_search.search import all_classes
from ..counting.engines.value_maps import Tally
from ..counting.methods.search import SearchedMaps
from ..counting.problem import CountProblem
from ..counting.result import CountedClasses
from ..errors import InternalError
from ..knowledge.symmetry_groups import Blocks, ConceptGroup, class_blocks, symmetry_groups
from ..progress import Progress
from ..task.model import Mode, Task
from .maps import ConceptMap

# Search nodes for the classes' marginals by pinned counts, else the decomposition: NeurASP's apply2x2
# on 100 rows takes 10.8 million (14 s) where the decomposition takes 119 s; of the library's tasks
# the search counts, all but three tally within 1.1 million and those three are listed instead.
MARGINAL_NODES = 20_000_000
KINDS_LISTED = 50  # kinds listed one by one (the largest first); the others are only counted

Tallies = list[tuple[tuple[int, ...], int, Tally]]


def class_tallies(
    task: Task,
    mode: Mode,
    progress: Progress | None,
    by_search: bool,
    marginals: bool = True,
    counted: CountedClasses | None = None,
) -> tuple[Tallies, Blocks]:
    """Per permutation class (representative, size), its maps' tally (with `marginals`, the maps
    per image of each seen value; else the count alone), and the symmetry blocks of the classes:
    `by_search` (the search method counted the task), by its counts with values pinned while they
    take at most MARGINAL_NODES search nodes (a program over ten thousand rows: seconds); else by
    the decomposition (SAT-pruned classes, value maps by SDD or tables). The classes a count kept
    (`counted`) are not looked for again, and give the counts alone as they are."""
    if counted is not None and not marginals:
        return [(rep, size, (n, {})) for rep, size, n in counted], class_blocks(task, mode)
    kept = None if counted is None else [(rep, size) for rep, size, _ in counted]
    if by_search:
        try:
            searched = SearchedMaps(CountProblem(task, mode), Budget(max_nodes=MARGINAL_NODES), kept)
            tally = searched.tally if marginals else lambda rep: (searched.counter.models(rep), {})
            return [(rep, size, tally(rep)) for rep, size in searched.classes], searched.blocks
        except Declined:
            pass
    if kept is None:
        classes, blocks = all_classes(CountProblem(task, mode, progress), progress)
    else:
        classes, blocks = kept, class_blocks(task, mode)
    counter = ClassCounter(task, mode)
    tallies = []
    for number, (rep, size) in enumerate(classes, start=1):
        if progress:
            progress.update(f"permutation class {number}/{len(classes)}")
        tallies.append((rep, size, counter.tally(rep, marginals)))
    return tallies, blocks


def class_summary(task: Task, mode: Mode, counted: CountedClasses, by_search: bool) -> dict[str, Any]:
    """explain's summary, exact, from the classes a count kept: per predicted concept j, the optimal
    maps in which it reads itself, and those in which it also keeps every value. A uniformly drawn
    member h_out . rep . h_in of a class has pi(j) = j when h_in(j) = s (uniform on j's orbit) and
    h_out moves rep(s) to j (uniform on rep(s)'s orbit); its f_j is rep's f_s (ClassCounter.identities,
    or `by_search`, counts with f_s pinned while they take at most MARGINAL_NODES search nodes)."""
    h_in, h_out = symmetry_groups(task, mode, class_blocks(task, mode))
    inputs, outputs = h_in.orbits(), h_out.orbits()
    reads = [Fraction(0)] * len(task.concepts)
    keeps = [Fraction(0)] * len(task.concepts)
    maps = 0
    for (rep, size, n), kept in zip(counted, _identities(task, mode, counted, by_search)):
        maps += size * n
        for j, orbit in enumerate(inputs):
            for s in orbit:
                if j in outputs[rep[s]]:
                    share = Fraction(size, len(orbit) * len(outputs[rep[s]]))
                    reads[j] += share * n
                    keeps[j] += share * kept[s]
    if any(x.denominator != 1 for x in (*reads, *keeps)):
        raise InternalError(f"explain: the summary of {task.name} counts a fraction of a map")
    rows = [
        {"concept": c.name, "reads_itself": int(r), "keeps_meaning": int(k)}
        for c, r, k in zip(task.concepts, reads, keeps)
    ]
    return {"exact": True, "over": maps, "concepts": rows}


def _identities(task: Task, mode: Mode, counted: CountedClasses, by_search: bool) -> list[list[int]]:
    """Per class, its representative's identities: by search within MARGINAL_NODES where the
    search counted the task (the decomposition's engines may not finish where it did), else by
    ClassCounter."""
    if by_search:
        try:
            classes = [(rep, size) for rep, size, _ in counted]
            searched = SearchedMaps(CountProblem(task, mode), Budget(max_nodes=MARGINAL_NODES), classes)
            return [searched.identities(rep) for rep, _ in classes]
        except Declined:
            pass
    counter = ClassCounter(task, mode)
    return [counter.identities(rep) for rep, _, _ in counted]


@dataclass(frozen=True)
class Kinds:
    """The kinds of a task's optimal maps: how many there are (`total`), the maps of every kind
    summed (`maps`, the count), and up to KINDS_LISTED of them, the largest first, each as what its
    predicted concepts read and how many maps it holds."""

    total: int
    maps: int
    listed: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: total, maps and the kinds listed ({"reads", "objects", "attributes",
        "maps"}: see kinds)."""
        return {"total": self.total, "maps": self.maps, "listed": self.listed}


def kinds(
    task: Task,
    mode: Mode,
    by_search: bool = False,
    progress: Progress | None = None,
    counted: CountedClasses | None = None,
) -> Kinds:
    """The kinds of the optimal maps of `task` in `mode` (disentangled or objects), from the
    permutation classes and each class's count (those a count kept, `counted`, when given)."""
    tallies, blocks = class_tallies(task, mode, progress, by_search, marginals=False, counted=counted)
    h_in, h_out = symmetry_groups(task, mode, blocks)
    total = maps = 0
    found: list[tuple[int, tuple[int, ...]]] = []
    for rep, size, (count, _) in tallies:
        if not count:
            continue
        total += size
        maps += size * count
        if len(found) < KINDS_LISTED:
            found += [(count, pi) for pi in _members(rep, size, h_in, h_out, KINDS_LISTED - len(found))]
    found.sort(key=lambda kind: (-kind[0], kind[1]))
    return Kinds(total, maps, [_described(task, mode, pi, count) for count, pi in found])


def listed_kinds(task: Task, mode: Mode, maps: Sequence[ConceptMap]) -> Kinds:
    """The kinds of optimal maps listed whole (every one, the intended map included)."""
    tally = Counter(m.pi for m in maps)
    found = sorted(((n, pi) for pi, n in tally.items()), key=lambda kind: (-kind[0], kind[1]))
    return Kinds(len(tally), len(maps), [_described(task, mode, pi, n) for n, pi in found[:KINDS_LISTED]])


def _members(
    rep: tuple[int, ...], size: int, h_in: ConceptGroup, h_out: ConceptGroup, most: int
) -> list[tuple[int, ...]]:
    """Up to `most` of the `size` permutations h_out rep h_in of rep's class, by closing rep under
    the groups' generators on either side."""
    outer, inner = h_out.generators(), h_in.generators()
    seen = {rep}
    frontier = [rep]
    while frontier and len(seen) < min(size, most):
        pi = frontier.pop()
        for g in outer:
            frontier += _new(seen, tuple(g[t] for t in pi))
        for g in inner:
            frontier += _new(seen, tuple(pi[g[i]] for i in range(len(pi))))
    if len(seen) > size:
        raise InternalError(f"a permutation class of size {size} has {len(seen)} members")
    return sorted(seen)[:most]


def _new(seen: set[tuple[int, ...]], pi: tuple[int, ...]) -> list[tuple[int, ...]]:
    if pi in seen:
        return []
    seen.add(pi)
    return [pi]


def _inverse(names: Sequence[str], perm: Sequence[int]) -> dict[str, str]:
    """Each item that reads another under `perm` (item i feeds perm[i]), in order: reader -> read."""
    read = {j: i for i, j in enumerate(perm)}
    return {names[j]: names[read[j]] for j in range(len(perm)) if read[j] != j}


def _described(task: Task, mode: Mode, pi: Sequence[int], count: int) -> dict[str, Any]:
    """A kind as JSON: `reads` (predicted concept -> the ground-truth one it reads, where another),
    in the objects mode also `objects` and `attributes` (the same of objects, numbered from 1, and
    of attributes), and its number of maps."""
    names = task.names
    out: dict[str, Any] = {"reads": _inverse(names, pi)}
    if mode == Mode.OBJECTS:
        spec = task.object_spec()
        m = len(spec.attributes)
        out["objects"] = _inverse(
            [str(o + 1) for o in range(spec.count)], [pi[o * m] // m for o in range(spec.count)]
        )
        out["attributes"] = _inverse([name for name, _ in spec.attributes], [pi[a] % m for a in range(m)])
    out["maps"] = count
    return out
