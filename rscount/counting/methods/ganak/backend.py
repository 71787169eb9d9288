"""GANAK (rscount.counting.engines.ganak) on the core CNF, projected on the map variables, times
the exact factor of unseen values and free map variables."""

from __future__ import annotations

import time

from ....progress import Progress
from ...budget import UNBOUNDED, Budget
from ...engines.ganak import GUARANTEE, count
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method


class GanakBackend:
    """GANAK's exact projected count of the core CNF, times the unseen factor."""

    method = Method.GANAK
    exact = True
    description = "GANAK's projected count of the whole CNF (pyganak; probabilistic component cache)"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """Count the core CNF's models on the map variables with GANAK (seeded by the settings)."""
        start = time.perf_counter()
        if progress:
            progress.update("ganak: counting the whole CNF", force=True)
        clauses, projection, factor = problem.encoding.counting_view
        models = count(clauses, projection, settings.seed)
        return CountResult(
            models * factor,
            True,
            self.method,
            time.perf_counter() - start,
            details={"projected_models": models, "exact_factor": factor, "guarantee": GUARANTEE},
        )
