"""The value maps valid with a fixed concept permutation, counted with one value fixed: N(pi) and,
for every value v a ground-truth concept (its value-map owner o) shows, the maps with f_o(v) = u.

In the disentangled mode N(pi) is the product of the label groups' factors (ClassCounter), and a
value map only enters its group's factor, so a marginal is the group's marginal times the other
factors; a group's marginals come from its table (GroupTables.marginals), else as in the objects
mode from all value maps (ValueMapCounter.marginals: SAT enumeration when few, else the SDD
conditioned on each value), cached on the concepts feeding the group as the factors are."""

from __future__ import annotations

import math

from ..encoding.value_codes import ValueMapCoding
from ..task.model import Mode, Task
from .group_tables import GroupTables
from .value_maps import ValueMapCounter

Marginals = dict[tuple[int, int], list[int]]  # (owner o, value number v) -> maps with f_o(v) = u, per u


class ClassMarginals:
    """N(pi) and its marginals for the permutations of one task, values no support row shows
    included in N (each maps anywhere, so their marginals are N / |D_pi(o)|)."""

    def __init__(self, task: Task, mode: Mode) -> None:
        self.coding = ValueMapCoding(task, shared=mode == Mode.OBJECTS)
        self.counter = ValueMapCounter(self.coding)
        self.groups = self.coding.label_groups() if mode == Mode.DISENTANGLED else []
        self.tables = GroupTables(self.coding, self.groups) if self.groups else None
        self._cache: dict[tuple[int, tuple[int, ...]], tuple[int, Marginals]] = {}

    def of(self, pi: tuple[int, ...]) -> tuple[int, Marginals]:
        """N(pi), and per seen (owner, value number) the maps with pi that send it to each value."""
        unseen = self.coding.unseen_factor(pi)
        if not self.groups:
            total, fixed = self.counter.marginals(pi, set(self.coding.owner))
            return total * unseen, {key: [n * unseen for n in row] for key, row in fixed.items()}
        parts = [self._group(g, pi) for g in range(len(self.groups))]
        total = unseen * math.prod(factor for factor, _ in parts)
        if not total:
            return 0, {}
        return total, {
            key: [n * (total // factor) for n in row] for factor, fixed in parts for key, row in fixed.items()
        }

    def _group(self, g: int, pi: tuple[int, ...]) -> tuple[int, Marginals]:
        """Group g's factor with pi and the marginals of the value maps feeding it, over the values
        the support shows."""
        where = {j: i for i, j in enumerate(pi)}
        sources = tuple(where[j] for j in self.groups[g][1])
        key = (g, sources)
        if key not in self._cache:
            assert self.tables is not None
            found = self.tables.marginals(g, pi)
            if found is None:
                free = self.coding.num_vars - self.coding.group_vars(pi, self.groups[g])
                total, fixed = self.counter.marginals(pi, sources, self.groups[g])
                found = total >> free, {k: [n >> free for n in row] for k, row in fixed.items()}
            self._cache[key] = found
        return self._cache[key]
