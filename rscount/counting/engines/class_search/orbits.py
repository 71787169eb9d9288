"""A lower bound from the knowledge's automorphisms (rscount.knowledge.automorphisms): pi and h o pi
have the same number of optimal maps for every automorphism h, and the orbit {h o pi} has one
permutation per automorphism, so one permutation counted vouches for its whole orbit long before a
walk meets the orbit's other members (a 4x4 sudoku's identity: 128 x 4! maps from one class)."""

from __future__ import annotations

import functools

from ....knowledge.automorphisms import knowledge_automorphisms
from ....task.model import Mode
from ...problem import CountProblem


def orbit_key(group: list[tuple[int, ...]], pi: tuple[int, ...]) -> tuple[int, ...]:
    """One name for the orbit {h o pi : h in group}: its least member."""
    return min(tuple(h[t] for t in pi) for h in group)


class OrbitCredit:
    """The optimal maps of the orbits met so far, each once: a lower bound on the count. Only in the
    disentangled mode without an extractor in place, where every permutation of the concepts is
    summed over (elsewhere h o pi may not be), and only for classes of one permutation."""

    def __init__(self, problem: CountProblem, reported: bool = True) -> None:
        self.problem = problem
        # nothing to do where no bound is reported (finding the automorphisms may take SAT calls)
        self.plain = reported and problem.mode == Mode.DISENTANGLED and not problem.task.in_place
        self.met: set[tuple[int, ...]] = set()
        self.maps = 0

    @functools.cached_property
    def group(self) -> list[tuple[int, ...]]:
        """The automorphisms (found on first use)."""
        return knowledge_automorphisms(self.problem.task, self.problem.mode)

    def meet(self, pi: tuple[int, ...], size: int, models: int) -> None:
        """Credit the orbit of a class counted (pi alone, `models` maps) unless it was met before."""
        if not (self.plain and size == 1 and models) or len(self.group) == 1:
            return
        key = orbit_key(self.group, pi)
        if key not in self.met:
            self.met.add(key)
            self.maps += len(self.group) * models
