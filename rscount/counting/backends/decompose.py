"""Exact counting by decomposition over the concept permutation (see rscount.counting.plan): one
permutation per symmetry class that SAT pruning keeps, its value maps counted by an SDD over the
value-map code variables alone, with big-integer model counts."""

from __future__ import annotations

import time
from typing import Any

from ...encoding.model import Encoding
from ...encoding.value_codes import ValueMapCoding
from ...progress import Progress
from ...task.model import Mode
from ..budget import UNBOUNDED, Budget
from ..plan import plan
from ..result import CountResult
from ..settings import CountSettings, Method
from ..value_maps import ValueMapSdds


class DecomposeBackend:
    """Sum over permutation classes of per-permutation SDD counts, weighted by class size."""

    method = Method.DECOMPOSE
    exact = True
    description = "sum over concept permutations up to symmetry, SAT-pruned, SDD per permutation"

    def count(
        self,
        encoding: Encoding,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """Exact count of the disentangled or objects encoding; TooManyClasses before counting
        anything if more permutation classes than budget.max_classes survive the pruning."""
        start = time.perf_counter()
        classes, blocks = plan(encoding, progress, budget)
        sdds = ValueMapSdds(ValueMapCoding(encoding.task, shared=encoding.mode == Mode.OBJECTS))
        coding = sdds.coding
        # Value maps per concept: N(pi) is a product over label groups, and a group's factor only
        # depends on which concepts feed its concepts, so factors are cached across classes
        # (SDD-OIA ambulance rules, 3285 classes: 41 s without, see docs/performance.md).
        groups = coding.label_groups() if encoding.mode == Mode.DISENTANGLED else []
        factors: dict[tuple[int, tuple[int, ...]], int] = {}
        total = nonzero = 0
        for number, (pi, size) in enumerate(classes, start=1):
            if len(groups) > 1:
                where = {j: i for i, j in enumerate(pi)}
                models = coding.unseen_factor(pi)
                for g, group in enumerate(groups):
                    key = (g, tuple(where[j] for j in group[1]))
                    if key not in factors:
                        free = coding.num_vars - coding.group_vars(pi, group)
                        factors[key] = sdds.count(pi, group) >> free
                    models *= factors[key]
                    if not models:
                        break
            else:
                models = sdds.count(pi) * coding.unseen_factor(pi)
            nonzero += models > 0
            total += models * size
            if progress:
                progress.update(f"decompose: permutation class {number}/{len(classes)}, {total} maps")
        details: dict[str, Any] = {"blocks": blocks, "classes": len(classes), "nonzero": nonzero}
        if len(groups) > 1:
            details["label_groups"] = len(groups)
            details["group_factors_counted"] = len(factors)
        return CountResult(total, True, self.method, time.perf_counter() - start, details=details)
