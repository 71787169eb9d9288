"""Approximate projected counting with ApproxMC (pyapproxmc, pinned to 4.1.24 in pyproject.toml),
with its (epsilon, delta) guarantee: Pr[count/(1+eps) <= estimate <= (1+eps)*count] >= 1 - delta.

pyapproxmc 4.3.0 to 4.4.0 miscount tiny XORs (x1 xor x2 as 1 model): every estimate first passes
`self_check`. A Counter's count() may run once, so each estimate uses a fresh one; without a
projection, variables in no clause would be missing from the count, so one is always given.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence

import pyapproxmc
from pysat.solvers import Solver

from ...errors import RscountError
from ...progress import Progress
from ..budget import UNBOUNDED, Budget
from ..problem import CountProblem
from ..result import CountResult
from ..settings import CountSettings, Method


@functools.cache
def self_check() -> None:
    """Refuse a pyapproxmc that miscounts x1 xor x2 (2 models): 4.3.0 to 4.4.0 answer 1.
    Once per process (a failure raises, so it is not cached and every count refuses)."""
    counter = pyapproxmc.Counter(seed=1, epsilon=0.8, delta=0.2)
    counter.add_clause([1, 2])
    counter.add_clause([-1, -2])
    cells, hashes = counter.count([1, 2])
    if cells * 2**hashes != 2:
        raise RscountError(
            "the installed pyapproxmc counts 'x1 xor x2' as "
            f"{cells * 2**hashes} (not 2); install pyapproxmc==4.1.24 as pyproject.toml pins it"
        )


def estimate(
    clauses: Sequence[Sequence[int]], projection: Sequence[int], epsilon: float, delta: float, seed: int
) -> tuple[int, int]:
    """ApproxMC's (cells, hashes) for the models of `clauses` projected on `projection` (the
    estimate is cells * 2**hashes), with the guarantee of (epsilon, delta); the one place rscount
    calls ApproxMC. An empty projection counts 1 if the clauses are satisfiable, else 0."""
    self_check()
    if not projection:
        with Solver(name="cadical153", bootstrap_with=clauses) as solver:
            return (1 if solver.solve() else 0), 0
    counter = pyapproxmc.Counter(seed=seed, epsilon=epsilon, delta=delta)
    for clause in clauses:
        counter.add_clause(list(clause))
    cells, hashes = counter.count(list(projection))
    return int(cells), int(hashes)


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
