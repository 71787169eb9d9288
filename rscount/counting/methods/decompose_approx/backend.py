"""Approximate counting by decomposition over the concept permutation (the class search of
rscount.counting.engines.class_search): ApproxMC on each kept permutation class's value-map CNF
(no multiplexers, projection on the value-map codes), weighted by the exact class sizes.

Guarantee: each class is estimated with tolerance epsilon and confidence 1 - delta/m (m classes),
so by the union bound every estimate, and hence their weighted sum, is within a factor 1 + epsilon
of the exact value with probability >= 1 - delta: the same (epsilon, delta) as one ApproxMC call.
"""

from __future__ import annotations

import time

from ....encoding.value_codes import ValueMapCoding
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget
from ...engines.approxmc import estimate
from ...engines.class_search.search import all_classes
from ...engines.value_maps import class_cnf
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method


def _class_estimate(
    coding: ValueMapCoding, pi: tuple[int, ...], settings: CountSettings, delta: float
) -> int:
    """ApproxMC estimate of the value maps valid with pi."""
    b = class_cnf(coding, pi)
    if b is None:
        return 0
    used = {abs(lit) for clause in b.clauses for lit in clause}
    projection = [x for x in range(1, coding.num_vars + 1) if x in used]
    free = coding.num_vars - len(projection)
    cells, hashes = estimate(b.clauses, projection, settings.epsilon, delta, settings.seed)
    return int(cells * 2**hashes * 2**free * coding.unseen_factor(pi))


class DecomposeApproxBackend:
    """Sum over permutation classes of per-permutation ApproxMC estimates."""

    method = Method.DECOMPOSE_APPROX
    exact = False
    description = "sum over concept permutations up to symmetry, SAT-pruned, ApproxMC per permutation"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """Estimate with the (epsilon, delta) guarantee of the settings for the whole sum;
        TooManyClasses if more classes than budget.max_classes survive the pruning."""
        start = time.perf_counter()
        classes, blocks = all_classes(problem, progress, budget)
        coding = ValueMapCoding(problem.task, shared=problem.mode == Mode.OBJECTS)
        delta = settings.delta / max(1, len(classes))
        total = 0
        for number, (pi, size) in enumerate(classes, start=1):
            total += size * _class_estimate(coding, pi, settings, delta)
            if progress:
                progress.update(f"decompose-approx: permutation class {number}/{len(classes)}")
        details = {"blocks": blocks, "classes": len(classes), "delta_per_class": delta}
        seconds = time.perf_counter() - start
        return CountResult(
            total,
            False,
            self.method,
            seconds,
            settings.epsilon,
            settings.delta,
            settings.seed,
            details=details,
        )
