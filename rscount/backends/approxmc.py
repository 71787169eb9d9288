"""Approximate projected counting with ApproxMC (pyapproxmc), with its (epsilon, delta) guarantee."""

from __future__ import annotations

import functools
import time

import pyapproxmc

from ..encoding import Encoding
from ..errors import RscountError
from . import CountOptions, CountResult


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


class ApproxMCBackend:
    """Pr[count/(1+eps) <= estimate <= (1+eps)*count] >= 1 - delta, projected on the map variables."""

    name = "approxmc"
    exact = False
    description = "ApproxMC hashing-based estimate with (epsilon, delta) guarantee (pyapproxmc)"

    def count(self, encoding: Encoding, options: CountOptions) -> CountResult:
        """Estimate the projected count; a fresh Counter per call (count() may run once per Counter)."""
        start = time.perf_counter()
        self_check()
        if options.progress:
            options.progress.update(
                f"approxmc: counting (epsilon={options.epsilon}, delta={options.delta})", force=True
            )
        counter = pyapproxmc.Counter(seed=options.seed, epsilon=options.epsilon, delta=options.delta)
        clauses, projection, factor = encoding.counting_view
        for clause in clauses:
            counter.add_clause(clause)
        cells, hashes = counter.count(projection) if projection else (1, 0)
        return CountResult(
            int(cells) * 2 ** int(hashes) * factor,
            False,
            self.name,
            time.perf_counter() - start,
            epsilon=options.epsilon,
            delta=options.delta,
            seed=options.seed,
            details={"cells": int(cells), "hashes": int(hashes), "exact_factor": factor},
        )


BACKEND = ApproxMCBackend()
