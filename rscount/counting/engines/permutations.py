"""Every concept permutation a count sums over, one by one, for the methods that solve each on its
own (linear, equalities): k! in the disentangled mode, (objects) x (attributes) in the objects
mode, the identity alone with an extractor in place; capped, as each costs a solve."""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import permutations

from ...task.model import Mode, Task
from ..budget import Unsuited

MAX_PERMUTATIONS = 50_000  # permutations summed over one by one


def concept_permutations(task: Task, mode: Mode) -> Iterator[tuple[int, ...]]:
    """Every concept permutation `mode` and the extractor allow (ground-truth i feeds pi[i]);
    Unsuited past MAX_PERMUTATIONS."""
    k = len(task.concepts)
    if mode == Mode.DISENTANGLED:
        if task.in_place:
            yield tuple(range(k))
            return
        _cap(math.factorial(k))
        yield from permutations(range(k))
        return
    spec = task.object_spec()
    n, m = spec.count, len(spec.attributes)
    objects = [tuple(range(n))] if task.in_place else list(permutations(range(n)))
    _cap(len(objects) * math.factorial(m))
    for r in objects:
        for v in permutations(range(m)):
            yield tuple(r[o] * m + v[a] for o in range(n) for a in range(m))


def _cap(size: int) -> None:
    if size > MAX_PERMUTATIONS:
        raise Unsuited(f"{size} concept permutations, more than the {MAX_PERMUTATIONS} summed one by one")
