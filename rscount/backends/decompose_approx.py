"""Approximate counting by decomposition over the concept permutation (rscount/permutations.py):
ApproxMC on each kept permutation class's value-map CNF (no multiplexers, projection on the
value-map codes), weighted by the exact class sizes.

Guarantee: each class is estimated with tolerance epsilon and confidence 1 - delta/m (m classes),
so by the union bound every estimate, and hence their weighted sum, is within a factor 1 + epsilon
of the exact value with probability >= 1 - delta: the same (epsilon, delta) as one ApproxMC call.
"""

from __future__ import annotations

import time

import pyapproxmc

from ..circuit import FALSE, CNFBuilder
from ..encoding import Encoding
from ..permutations import ValueMapCoding, plan
from . import CountOptions, CountResult
from .approxmc import self_check


def _class_estimate(coding: ValueMapCoding, pi: tuple[int, ...], options: CountOptions, delta: float) -> int:
    """ApproxMC estimate of the value maps valid with pi."""
    b = CNFBuilder()
    for _ in range(coding.num_vars):
        b.new_var()
    codes: dict[tuple[int, int, int], int] = {}

    def code(i: int, v: int, u: int) -> int:
        if (i, v, u) not in codes:
            codes[i, v, u] = coding.code(b, lambda x: x, i, v, u)
        return codes[i, v, u]

    for gate in coding.constraints(b, code, pi):
        if gate == FALSE:
            return 0
        b.add([gate])
    used = {abs(lit) for clause in b.clauses for lit in clause}
    projection = [x for x in range(1, coding.num_vars + 1) if x in used]
    free = coding.num_vars - len(projection)
    counter = pyapproxmc.Counter(seed=options.seed, epsilon=options.epsilon, delta=delta)
    for clause in b.clauses:
        counter.add_clause(clause)
    cells, hashes = counter.count(projection) if projection else (1, 0)
    return int(cells) * 2 ** int(hashes) * 2**free * coding.unseen_factor(pi)


class DecomposeApproxBackend:
    """Sum over permutation classes of per-permutation ApproxMC estimates."""

    name = "decompose-approx"
    exact = False
    description = "sum over concept permutations up to symmetry, SAT-pruned, ApproxMC per permutation"

    def count(self, encoding: Encoding, options: CountOptions, max_classes: int | None = None) -> CountResult:
        """Estimate with the (epsilon, delta) guarantee of `options` for the whole sum."""
        start = time.perf_counter()
        self_check()
        classes, blocks = plan(encoding, options, max_classes)
        coding = ValueMapCoding(encoding.task, shared=encoding.mode == "objects")
        delta = options.delta / max(1, len(classes))
        total = 0
        for number, (pi, size) in enumerate(classes, start=1):
            total += size * _class_estimate(coding, pi, options, delta)
            if options.progress:
                options.progress.update(f"decompose-approx: permutation class {number}/{len(classes)}")
        details = {"blocks": blocks, "classes": len(classes), "delta_per_class": delta}
        seconds = time.perf_counter() - start
        return CountResult(
            total, False, self.name, seconds, options.epsilon, options.delta, options.seed, details=details
        )


BACKEND = DecomposeApproxBackend()
