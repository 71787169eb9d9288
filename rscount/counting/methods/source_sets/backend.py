"""Exact disentangled counts summed over the source sets feeding each label group
(residual_tables.py): no walk over permutation classes, so tasks with millions of them (SDD-OIA with
32 rows) count in seconds."""

from __future__ import annotations

import time

from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, Unsuited
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method
from .reading_search import MODEL_LIMIT
from .residual_tables import STATE_LIMIT, SourceSets


class SourceSetsBackend:
    """A residual table per label group over its concepts' readings, joined over disjoint source sets."""

    method = Method.SOURCE_SETS
    exact = True
    description = "sum over the source sets each label group reads, one residual table per group, joined"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact disentangled count; Unsuited in other modes or when the concepts' domains
        differ in size; TooManyModels when a group's residual table passes budget.max_states and the SAT
        listing of its readings budget.max_models."""
        if problem.mode != Mode.DISENTANGLED:
            raise Unsuited("source sets count the disentangled mode only")
        start = time.perf_counter()
        limits = (budget.max_states or STATE_LIMIT, budget.max_models or MODEL_LIMIT)
        counter = SourceSets(problem.task, progress, *limits)
        total, details = counter.count()
        return CountResult(total, True, self.method, time.perf_counter() - start, details=details)
