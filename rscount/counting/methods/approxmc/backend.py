"""Approximate projected counting of the whole CNF with ApproxMC (rscount.counting.engines.approxmc:
the pinned version, its self-check and its guarantee), times the exact factor of unseen values."""

from __future__ import annotations

import time

from ....progress import Progress
from ...budget import UNBOUNDED, Budget
from ...engines.approxmc import estimate
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method


class ApproxMCBackend:
    """ApproxMC on the core CNF, projected on the map variables, times the exact unseen factor."""

    method = Method.APPROXMC
    exact = False
    description = "ApproxMC hashing-based estimate with (epsilon, delta) guarantee (pyapproxmc)"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """Estimate the projected count with the settings' epsilon, delta and seed."""
        start = time.perf_counter()
        if progress:
            progress.update(
                f"approxmc: counting (epsilon={settings.epsilon}, delta={settings.delta})", force=True
            )
        clauses, projection, factor = problem.encoding.counting_view
        cells, hashes = estimate(clauses, projection, settings.epsilon, settings.delta, settings.seed)
        return CountResult(
            cells * 2**hashes * factor,
            False,
            self.method,
            time.perf_counter() - start,
            epsilon=settings.epsilon,
            delta=settings.delta,
            seed=settings.seed,
            details={"cells": cells, "hashes": hashes, "exact_factor": factor},
        )
