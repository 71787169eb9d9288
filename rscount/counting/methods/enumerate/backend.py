"""Exact counting by enumerating the projected models with a SAT solver (small counts only)."""

from __future__ import annotations

import time

from .... import sat
from ....progress import Progress
from ...budget import UNBOUNDED, Budget, TooManyModels
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method


class EnumerateBackend:
    """Find a model, block its projection, repeat: each optimal map is found exactly once. Unseen
    values and free map variables multiply each model, so a count far above the budget of models
    can still come out of a few of them."""

    method = Method.ENUMERATE
    exact = True
    description = "SAT enumeration with blocking clauses (python-sat, CaDiCaL); for small counts"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """Count by enumeration; TooManyModels once more than budget.max_models are needed."""
        start = time.perf_counter()
        clauses, projection, per_model = problem.encoding.counting_view
        models = 0
        with sat.solver(sat.CHECK, clauses) as solver:
            for _ in sat.projected_models(solver, projection):
                if budget.max_models is not None and models == budget.max_models:
                    raise TooManyModels(f"more than {budget.max_models} solver models")
                models += 1
                if progress:
                    progress.update(f"enumerate: {models * per_model} maps found")
        return CountResult(models * per_model, True, self.method, time.perf_counter() - start)
