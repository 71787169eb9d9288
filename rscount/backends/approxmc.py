"""Approximate projected counting with ApproxMC (pyapproxmc), with its (epsilon, delta) guarantee."""

from __future__ import annotations

import time

import pyapproxmc

from ..encoding import Encoding
from . import CountOptions, CountResult


class ApproxMCBackend:
    """Pr[count/(1+eps) <= estimate <= (1+eps)*count] >= 1 - delta, projected on the map variables."""

    name = "approxmc"
    exact = False
    description = "ApproxMC hashing-based estimate with (epsilon, delta) guarantee (pyapproxmc)"

    def count(self, encoding: Encoding, options: CountOptions) -> CountResult:
        """Estimate the projected count; a fresh Counter per call (count() may run once per Counter)."""
        start = time.perf_counter()
        if options.progress:
            options.progress.update(
                f"approxmc: counting (epsilon={options.epsilon}, delta={options.delta})", force=True
            )
        counter = pyapproxmc.Counter(seed=options.seed, epsilon=options.epsilon, delta=options.delta)
        for clause in encoding.cnf.clauses:
            counter.add_clause(clause)
        projection, free = encoding.split_projection()
        cells, hashes = counter.count(projection) if projection else (1, 0)
        return CountResult(
            int(cells) * 2 ** (int(hashes) + free),
            False,
            self.name,
            time.perf_counter() - start,
            epsilon=options.epsilon,
            delta=options.delta,
            seed=options.seed,
            details={"cells": int(cells), "hashes": int(hashes), "free_map_variables": free},
        )


BACKEND = ApproxMCBackend()
