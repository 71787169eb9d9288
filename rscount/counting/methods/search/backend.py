"""Exact counting by search, the way a brute force does it and no slower: concept permutations built
one concept at a time (one per class of the task's symmetries), a prefix dropped as soon as a label
group whose concepts all have their source refuses it, and each group's factor counted by
depth-first search over the images of the values the support shows (value_search.py), cached on the
sources feeding the group. No CNF is built and no solver called, so dense knowledge over few
concepts (poker hands, handwritten formulas) answers in seconds where a compiled count stalls.

In the objects mode the value maps are shared by all objects, so one search per permutation counts
every group's rows at once (each label checked as soon as its own slots are assigned); the attribute
and object permutations are built the same way."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from ....encoding.value_codes import ValueMapCoding
from ....knowledge.automorphisms import knowledge_automorphisms
from ....knowledge.splitting import split_task
from ....knowledge.symmetry_groups import Blocks, class_blocks
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, TooManyClasses, Unsuited
from ...engines.class_search.orbits import OrbitCredit, orbit_key
from ...engines.class_search.permutations import Walk, classes, permutations_summed
from ...engines.group_tables import GroupTables
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method
from .partial import PartialChecks, perfect_matching
from .value_search import Pins, ValueSearch


class SearchBackend:
    """Sum over permutation classes of value-map counts found by depth-first search."""

    method = Method.SEARCH
    exact = True
    description = "depth-first search over permutations and value maps, rows checked as they fill"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact count in the disentangled or objects mode; `progress.known` carries a lower
        bound (the sum so far, or the maps of every orbit of the knowledge's automorphisms met so
        far, where more) and the share of the permutation tree walked (`work_done`)."""
        if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise Unsuited("search counts maps (pi, f): the disentangled and objects modes")
        start = time.perf_counter()
        counter = problem.kept(Counter)
        nodes = counter.search.nodes
        counter.search.max_nodes = None if budget.max_nodes is None else nodes + budget.max_nodes
        total = classes_done = 0
        orbits = OrbitCredit(problem, progress is not None)

        def report(share: float) -> None:
            if progress:
                known = max(total, orbits.maps)
                progress.known(lower_bound=known, classes_done=classes_done, work_done=share)
                progress.update(
                    f"search: {share:.0%} of the permutations, {classes_done} classes, at least {known} maps"
                )

        walk = Walk(report)
        result = CountResult(0, True, self.method, classes=[])
        for pi, size in counter.classes(walk):
            if budget.max_classes is not None and classes_done >= budget.max_classes:
                raise TooManyClasses(f"search: more than {budget.max_classes} permutation classes")
            models = counter.models(pi)
            total += size * models
            orbits.meet(pi, size, models)
            classes_done += 1
            result.keep_class(pi, size, models)
        details: dict[str, Any] = {
            "classes": classes_done,
            "group_factors": len(counter.factors),
            "search_nodes": counter.search.nodes - nodes,
        }
        result.count, result.seconds, result.details = total, time.perf_counter() - start, details
        return result


Feeding = tuple[tuple[int, int], ...]  # (target, source) pairs of concepts


class Counter:
    """The permutation classes of a problem and N(pi) for each, with group factors cached. A count
    takes the problem's own (CountProblem.kept): what auto's head start cached (label tables, slot
    orders, group factors, each stored only once complete, so an alarm leaves nothing half made) is
    inherited by the race's forked search with the problem. It holds the task, not the problem, so
    that a problem let go frees its Counter at once (no reference cycle)."""

    def __init__(self, problem: CountProblem) -> None:
        self.task, self.mode = problem.task, problem.mode
        objects = self.mode == Mode.OBJECTS
        self.coding = ValueMapCoding(self.task, shared=objects)
        self.shared = objects
        self.groups = self.coding.label_groups()
        self.search = ValueSearch(self.coding, self.groups, GroupTables(self.coding, self.groups))
        self.factors: dict[tuple[int, tuple[int, ...], Pins], int] = {}
        self.by_orbit: dict[tuple[tuple[int, ...], Pins], int] = {}  # models() by orbit and pins

    @functools.cached_property
    def blocks(self) -> Blocks:
        """The symmetry blocks its classes are classes of (found on first use)."""
        return class_blocks(self.task, self.mode)

    def classes(self, walk: Walk | None = None) -> Iterator[tuple[tuple[int, ...], int]]:
        """One permutation per class (with its size) that every group accepts; `walk` is told the
        share of the permutations walked."""
        blocks = self.blocks
        if self.mode != Mode.OBJECTS:
            yield from classes(
                blocks["support"], blocks["knowledge"], self.viable, blocks["knowledge families"], walk,
                self.task.in_place,
            )  # fmt: skip
            return
        n = self.task.object_spec().count
        m = len(self.coding.sizes) // n
        for attrs, attr_size in classes(
            blocks["support attributes"], blocks["knowledge attributes"], lambda placed: True,
            blocks["knowledge attribute families"], walk,
        ):  # fmt: skip
            # the object maps under each attribute map walk that map's share of `walk`
            for objs, obj_size in classes(
                blocks["support objects"], blocks["knowledge objects"],
                functools.partial(self.objects_viable, attrs),
                blocks["knowledge object families"], None if walk is None else walk.nested(),
                self.task.in_place,
            ):  # fmt: skip
                yield tuple(objs[i // m] * m + attrs[i % m] for i in range(m * n)), attr_size * obj_size

    @functools.cached_property
    def orbit(self) -> list[tuple[int, ...]]:
        """The knowledge's automorphisms (predicted concepts permuted so that every label and
        supervised vector stays): pi and h o pi have the same optimal maps, with the same value maps."""
        return knowledge_automorphisms(self.task, self.mode)

    @functools.cached_property
    def checks(self) -> list[PartialChecks]:
        """The prefix checks on the task's labels and on its split labels (found on first use)."""
        checks = [PartialChecks(self.coding, whole=False)]
        split = split_task(self.task)
        if split is not None:
            checks.append(PartialChecks(ValueMapCoding(split, shared=self.shared), whole=True))
        return checks

    def viable(self, placed: list[tuple[int, int]]) -> bool:
        """Whether every group whose concepts all have a source in `placed` (pairs source, target)
        has a nonzero factor, and the prefix checks (partial.py) keep it and each way to go on."""
        return self._viable(placed, len(self.coding.sizes), lambda o, t: ((t, o),))

    def objects_viable(self, attrs: tuple[int, ...], placed: list[tuple[int, int]]) -> bool:
        """viable for a prefix of the object map (pairs source object, target object) under the
        attribute map `attrs`: the value maps shared by all objects."""
        m = len(attrs)

        def concepts(o: int, t: int) -> Feeding:
            return tuple((t * m + attrs[a], o * m + a) for a in range(m))

        return self._viable(placed, len(self.coding.sizes) // m, concepts)

    def _viable(
        self, placed: list[tuple[int, int]], units: int, concepts: Callable[[int, int], Feeding]
    ) -> bool:
        """Whether a prefix of a map of `units` (concepts, or objects) keeps every group whose concepts
        all have a source at a nonzero factor and the prefix checks, and whether the units left can
        still be matched: each target left needs a source left that the checks accept there, and
        all of them at once (a perfect matching). `concepts(o, t)` gives the (target, source) pairs
        of concepts that placing unit o at t feeds."""
        where = {j: i for o, t in placed for j, i in concepts(o, t)}
        new = frozenset(j for j, _ in concepts(*placed[-1]))
        complete = len(placed) == units
        for g, (_, targets) in enumerate(self.groups):
            whole = not new.isdisjoint(targets) and all(j in where for j in targets)
            # a complete map of shared value maps is counted by models() next, all groups at once
            if (
                whole
                and not (complete and self.shared)
                and not self._factor(g, tuple(where[j] for j in targets))
            ):
                return False
        if not all(check.viable(where, new) for check in self.checks):
            return False
        if self.task.in_place or complete:
            return True
        sources = [o for o in range(units) if o not in {o for o, _ in placed}]
        fits: list[list[int]] = []
        for t in sorted(set(range(units)) - {t for _, t in placed}):
            fits.append([])
            for o in sources:
                fed = concepts(o, t)
                trial, fresh = {**where, **dict(fed)}, frozenset(j for j, _ in fed)
                if all(check.viable(trial, fresh) for check in self.checks):
                    fits[-1].append(o)
            if not fits[-1]:
                return False
        return perfect_matching(fits)

    def models(
        self,
        pi: tuple[int, ...],
        pinned: int | None = None,
        rng: random.Random | None = None,
        pins: Pins = (),
    ) -> int:
        """N(pi): the optimal maps with permutation pi; with `pinned` = j (where pi[j] = j), those
        whose value map f_j is the identity; with `pins` ((owner, seen value number), image) sorted,
        those that send each pinned value to its image; with `rng`, an unbiased estimate of it
        instead (one random probe of each group's value search, nothing cached)."""
        coding = self.coding
        total = coding.unseen_factor(pi)
        if pinned is not None:  # its unseen ground-truth values kept too: one image each, not |D_j|
            o = coding.owner[pinned]
            total //= coding.sizes[pi[o]] ** (coding.sources[o] - len(coding.seen[o]))
            pins = tuple(sorted({**dict(pins), **{(o, v): v for v in coding.seen[o]}}.items()))
        if pinned is None and rng is None and len(self.orbit) > 1:  # h o pi counts as pi does
            key = (orbit_key(self.orbit, pi), pins)
            if key not in self.by_orbit:
                self.by_orbit[key] = self._models(pi, total, pins, None)
            return self.by_orbit[key]
        return self._models(pi, total, pins, rng)

    def _models(self, pi: tuple[int, ...], total: int, pins: Pins, rng: random.Random | None) -> int:
        """models(pi) counted: `total` (the unseen values' factor) times the groups' factors."""
        coding = self.coding
        where = {j: i for i, j in enumerate(pi)}
        if self.shared:
            return total * self.search.count_shared(pi, pins, rng)
        for g, (_, targets) in enumerate(self.groups):
            sources = tuple(where[j] for j in targets)
            owners = {coding.owner[s] for s in sources}
            held = tuple(pin for pin in pins if pin[0][0] in owners)
            if rng is None:
                total *= self._factor(g, sources, held)
            else:
                total *= self.search.count(g, sources, held, rng)
            if not total:
                return 0
        return total

    def permutations(self) -> int:
        """How many concept permutations the count sums over."""
        return permutations_summed(self.task, self.mode)

    def random_permutation(self, rng: random.Random) -> tuple[int, ...]:
        """A permutation drawn uniformly among those the count sums over (in the objects mode, an
        object and an attribute permutation lifted to the concepts; an extractor in place fixes the
        concepts', or the objects', to the identity)."""
        k = len(self.coding.sizes)
        fixed = self.task.in_place
        if self.mode != Mode.OBJECTS:
            return tuple(range(k)) if fixed else tuple(rng.sample(range(k), k))
        n = self.task.object_spec().count
        m = k // n
        objs, attrs = list(range(n)) if fixed else rng.sample(range(n), n), rng.sample(range(m), m)
        return tuple(objs[i // m] * m + attrs[i % m] for i in range(k))

    def _factor(self, g: int, sources: tuple[int, ...], pins: Pins = ()) -> int:
        """Group g's factor when its targets are fed by `sources`, with `pins` (cached)."""
        key = (g, sources, pins)
        if key not in self.factors:
            self.factors[key] = self.search.count(g, sources, pins)
        return self.factors[key]
