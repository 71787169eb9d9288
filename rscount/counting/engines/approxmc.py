"""ApproxMC (pyapproxmc, pinned to 4.1.24 in pyproject.toml), the one place rscount calls it, with
its (epsilon, delta) guarantee: Pr[count/(1+eps) <= estimate <= (1+eps)*count] >= 1 - delta.

pyapproxmc 4.3.0 to 4.4.0 miscount tiny XORs (x1 xor x2 as 1 model): every estimate first passes
`self_check`. A Counter's count() may run once, so each estimate uses a fresh one; without a
projection, variables in no clause would be missing from the count, so one is always given.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pyapproxmc

from ... import sat
from ...errors import RscountError


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
        with sat.solver(sat.CHECK, clauses) as solver:
            return (1 if solver.solve() else 0), 0
    counter = pyapproxmc.Counter(seed=seed, epsilon=epsilon, delta=delta)
    for clause in clauses:
        counter.add_clause(list(clause))
    cells, hashes = counter.count(list(projection))
    return int(cells), int(hashes)
