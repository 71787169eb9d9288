"""The symmetries of a pairwise task's optimal maps: concept permutations h that keep every label
(rscount.knowledge.automorphisms; (pi, f) -> (h o pi, f)) and permutations s of the shared values
that keep every test ((pi, f) -> (pi, s o f)). Both fix nothing a supervised row pins, so a task
with supervision is given the identity alone."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ....knowledge.automorphisms import knowledge_automorphisms
from ....knowledge.pairwise import PairwiseLabel
from ....task.model import Mode, Task

Perm = tuple[int, ...]
ORBIT_MAX = 4096  # members of an orbit listed and blocked per model; past it the values' group is left out
VALUE_PERMUTATIONS_MAX = 720  # value permutations tried (6 values; more: the identity alone)


@dataclass(frozen=True)
class Symmetries:
    """`places`: permutations of the concepts read (h[p]: what p becomes); `values`: of the values."""

    places: list[Perm]
    values: list[Perm]

    @classmethod
    def of(cls, task: Task, labels: list[PairwiseLabel]) -> Symmetries:
        """The symmetries used for `task` (the identities only with supervision or in place)."""
        k, d = len(task.concepts), len(task.concepts[0].values)
        support = task.support
        if task.in_place or support.supervised or support.partial:
            return cls([tuple(range(k))], [tuple(range(d))])
        places = knowledge_automorphisms(task, Mode.DISENTANGLED)
        values = [tuple(range(d))]
        if math.factorial(d) <= VALUE_PERMUTATIONS_MAX and len(places) * math.factorial(d) <= ORBIT_MAX:
            tables = {test.holds for label in labels for test in label.tests}
            values = [
                s
                for s in itertools.permutations(range(d))
                if all({(s[a], s[b]) for a, b in holds} == holds for holds in tables)
            ]
        return cls(places, values)
