"""Exact counting by enumerating the projected models with a SAT solver (small tasks only)."""

from __future__ import annotations

import time

from pysat.solvers import Solver

from ..encoding import Encoding
from . import CountOptions, CountResult


class EnumerateBackend:
    """Find a model, block its projection, repeat: each optimal map is found exactly once."""

    name = "enumerate"
    exact = True
    description = "SAT enumeration with blocking clauses (python-sat, CaDiCaL); for small counts"

    def count(self, encoding: Encoding, options: CountOptions) -> CountResult:
        """Count by enumeration; the time goes linearly with the count."""
        start = time.perf_counter()
        found = self.count_up_to(encoding, None, options)
        assert found is not None
        return CountResult(found, True, self.name, time.perf_counter() - start)

    def count_up_to(self, encoding: Encoding, limit: int | None, options: CountOptions) -> int | None:
        """The exact count if the solver needs at most `limit` models for it (None: no limit), else
        None. Unseen values and free map variables multiply each model, so a count far above the
        limit can still come out of a few models."""
        clauses, projection, per_model = encoding.counting_view
        models = 0
        with Solver(name="cadical153", bootstrap_with=clauses) as solver:
            while solver.solve():
                if limit is not None and models == limit:
                    return None
                models += 1
                if not projection:
                    break
                model = solver.get_model()
                solver.add_clause([-model[v - 1] for v in projection])
                if options.progress:
                    options.progress.update(f"enumerate: {models * per_model} maps found")
        return models * per_model


BACKEND = EnumerateBackend()
