"""Exact counting of the disentangled maps of a task whose labels are conjunctions of two-concept
tests: find a model of the pair CNF, add its whole orbit under the task's symmetries to the count
and block it, repeat until the solver proves none is left. Only an orbit's least members are looked
for (breaking.py), so a 4x4 sudoku whose 3072 maps are one orbit is a model and one refutation of a
space up to 3072 times smaller."""

from __future__ import annotations

import time

from .... import sat
from ....encoding.pair_images import PairEncoding, pair_encoding
from ....knowledge.pairwise import pairwise_labels
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, TooManyModels, Unsuited
from ...problem import CountProblem
from ...result import CountResult
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
        if problem.mode != Mode.DISENTANGLED:
            raise Unsuited("the pairwise method counts the disentangled mode")
        labels = pairwise_labels(problem.task)
        if labels is None:
            raise Unsuited("a label is not a conjunction of tests of two concepts sharing one domain")
        enc = pair_encoding(problem.task, labels, problem.task.in_place)
        symmetries = Symmetries.of(problem.task, labels)
        found, orbits, blocked = 0, 0, 0
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
                found, orbits = found + len(orbit) * enc.free, orbits + 1
                if progress:
                    progress.update(f"pairwise: {found} maps found ({orbits} orbits)")
                    progress.known(lower_bound=found)
        result = CountResult(found, True, self.method, time.perf_counter() - start)
        result.details = {
            "orbits": orbits,
            "symmetries": len(symmetries.places) * len(symmetries.values),
            "variables": enc.top,
            "clauses": len(enc.clauses),
        }
        return result


def _decoded(enc: PairEncoding, model: list[int]) -> Map:
    """The map (pi, f) a solver model states."""
    true = {x for x in model if x > 0}
    pi = tuple(next(p for p, x in enumerate(row) if x in true) for row in enc.place)
    images = {iu: next(a for a, x in enumerate(xs) if x in true) for iu, xs in enc.image.items()}
    return pi, images


def _orbit(
    found: Map, symmetries: Symmetries
) -> set[tuple[tuple[int, ...], tuple[tuple[tuple[int, int], int], ...]]]:
    """Every map (h o pi, s o f) for the symmetries h, s (each once)."""
    pi, images = found
    return {
        (tuple(h[p] for p in pi), tuple((iu, s[a]) for iu, a in images.items()))
        for h in symmetries.places
        for s in symmetries.values
    }


def _literals(
    enc: PairEncoding, member: tuple[tuple[int, ...], tuple[tuple[tuple[int, int], int], ...]]
) -> list[int]:
    """The variables true in the map `member` (its placements and images)."""
    pi, images = member
    return [enc.place[i][p] for i, p in enumerate(pi)] + [enc.image[iu][a] for iu, a in images]
