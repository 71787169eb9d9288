"""Exact counting of the disentangled maps of a task whose labels are conjunctions of two-concept
tests: find a model of the pair CNF, add its whole orbit under the task's symmetries to the count
and block it, repeat until the solver proves none is left. Only an orbit's least members are looked
for (breaking.py), so a 4x4 sudoku whose 3072 maps are one orbit is a model and one refutation of a
space up to 3072 times smaller."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

from .... import sat
from ....encoding.pair_images import PairEncoding, pair_encoding
from ....knowledge.pairwise import pairwise_labels
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, TooManyModels, Unsuited
from ...problem import CountProblem
from ...result import MAPS_KEPT, CountResult, Listed
from ...settings import CountSettings, Method
from .breaking import least_members
from .symmetries import Symmetries

BLOCKED_MAX = 200_000  # orbit members blocked in all (a clause each); past it the method declines

Map = tuple[tuple[int, ...], dict[tuple[int, int], int]]  # pi, and the image of each value seen


class PairwiseBackend:
    """Orbits of the pair CNF's models, listed by SAT until none is left."""

    method = Method.PAIRWISE
    exact = True
    description = "two-concept tests: the pair CNF's models listed an orbit of symmetries at a time"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact count; Unsuited outside the disentangled mode or for a label that is no
        conjunction of two-concept tests, TooManyModels past budget.max_models orbits."""
        start = time.perf_counter()
        listing = _Listing(problem)
        found, orbits = 0, 0
        maps: Listed | None = []  # None once past MAPS_KEPT
        for orbit in listing.orbits(budget):
            found, orbits = found + len(orbit) * listing.enc.free, orbits + 1
            if maps is not None and found <= MAPS_KEPT:
                maps += listing.expanded(orbit)
            else:
                maps = None
            if progress:
                progress.update(f"pairwise: {found} maps found ({orbits} orbits)")
                progress.known(lower_bound=found)
        result = CountResult(found, True, self.method, time.perf_counter() - start)
        result.maps = maps
        symmetries = listing.symmetries
        result.details = {
            "orbits": orbits,
            "symmetries": len(symmetries.places) * len(symmetries.values),
            "variables": listing.enc.top,
            "clauses": len(listing.enc.clauses),
        }
        return result


def optimal_maps(problem: CountProblem, most: int) -> Listed:
    """Every optimal map (pi, f) of a task of two-concept tests, f as value numbers (the images of
    values no row shows in every way); Unsuited when the method does not apply, TooManyModels when
    there are more than `most`."""
    listing = _Listing(problem)
    found: Listed = []
    for orbit in listing.orbits(Budget(max_models=most)):
        if len(found) + len(orbit) * listing.enc.free > most:
            raise TooManyModels(f"more than {most} optimal maps")
        found += listing.expanded(orbit)
    return found


Member = tuple[tuple[int, ...], tuple[tuple[tuple[int, int], int], ...]]  # pi, (value seen, image)s


class _Listing:
    """A task's pair CNF, its symmetries, and the orbits of its models, one at a time."""

    def __init__(self, problem: CountProblem) -> None:
        if problem.mode != Mode.DISENTANGLED:
            raise Unsuited("the pairwise method counts the disentangled mode")
        labels = pairwise_labels(problem.task)
        if labels is None:
            raise Unsuited("a label is not a conjunction of tests of two concepts sharing one domain")
        self.enc = pair_encoding(problem.task, labels, problem.task.in_place)
        self.symmetries = Symmetries.of(problem.task, labels)
        k, d = len(problem.task.concepts), self.enc.values
        self.unseen = [(i, u) for i in range(k) for u in range(d) if (i, u) not in self.enc.image]

    def expanded(self, orbit: set[Member]) -> Listed:
        """The optimal maps of an orbit, f as value numbers, with the images of values no row shows
        taken in every way (the method's `free` factor)."""
        k, d = len(self.enc.place), self.enc.values
        maps = []
        for pi, images in sorted(orbit):
            seen = dict(images)
            for free in itertools.product(range(d), repeat=len(self.unseen)):
                image = {**seen, **dict(zip(self.unseen, free))}
                maps.append((pi, tuple(tuple(image[i, u] for u in range(d)) for i in range(k))))
        return maps

    def orbits(self, budget: Budget) -> Iterator[set[Member]]:
        """Each orbit of optimal maps once (TooManyModels past budget.max_models orbits, or past
        BLOCKED_MAX maps blocked)."""
        enc, symmetries = self.enc, self.symmetries
        orbits, blocked = 0, 0
        with sat.solver(sat.CHECK, enc.clauses + least_members(enc, symmetries)) as solver:
            for model in sat.projected_models(solver, enc.projection, one_hot=True):
                if budget.max_models is not None and orbits == budget.max_models:
                    raise TooManyModels(f"more than {budget.max_models} orbits of solver models")
                pi, images = _decoded(enc, model)
                orbit = _orbit((pi, images), symmetries)
                blocked += len(orbit)
                if blocked > BLOCKED_MAX:
                    raise TooManyModels(f"more than {BLOCKED_MAX} maps blocked one by one")
                own = (pi, tuple(images.items()))  # blocked by the enumeration itself
                for member in orbit - {own}:
                    solver.add_clause([-x for x in _literals(enc, member)])
                orbits += 1
                yield orbit


def _decoded(enc: PairEncoding, model: list[int]) -> Map:
    """The map (pi, f) a solver model states."""
    true = {x for x in model if x > 0}
    pi = tuple(next(p for p, x in enumerate(row) if x in true) for row in enc.place)
    images = {iu: next(a for a, x in enumerate(xs) if x in true) for iu, xs in enc.image.items()}
    return pi, images


def _orbit(found: Map, symmetries: Symmetries) -> set[Member]:
    """Every map (h o pi, s o f) for the symmetries h, s (each once)."""
    pi, images = found
    return {
        (tuple(h[p] for p in pi), tuple((iu, s[a]) for iu, a in images.items()))
        for h in symmetries.places
        for s in symmetries.values
    }


def _literals(enc: PairEncoding, member: Member) -> list[int]:
    """The variables true in the map `member` (its placements and images)."""
    pi, images = member
    return [enc.place[i][p] for i, p in enumerate(pi)] + [enc.image[iu][a] for iu, a in images]
