"""Exact disentangled counts summed over the tuples of sources feeding each label group
(tuples.py): no search for permutation classes on the multiplexed CNF, which
is what stalls on arithmetic over wide domains (MNMath with 200 rows: 126 s of 141)."""

from __future__ import annotations

import time

from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, Unsuited
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method
from .tuples import SourceTuples


class SourceTuplesBackend:
    """Per label group, its value maps counted for each tuple of sources, joined over disjoint ones."""

    method = Method.SOURCE_TUPLES
    exact = True
    description = "sum over the tuples of sources feeding each label group, a factor per tuple"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact disentangled count; Unsuited in other modes or when the groups have more
        source tuples than budget.max_classes; TooManyModels when a tuple's factor has more value
        maps than budget.max_models (unbounded: the SDD counts it)."""
        if problem.mode != Mode.DISENTANGLED:
            raise Unsuited("source tuples count the disentangled mode only")
        start = time.perf_counter()
        total, details = SourceTuples(problem.task, progress, budget).count()
        return CountResult(total, True, self.method, time.perf_counter() - start, details=details)
