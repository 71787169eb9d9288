"""Exact counting by decomposition over the concept permutation (see rscount/permutations.py):
one permutation per symmetry class that SAT pruning keeps, its value maps counted by an SDD over
the value-map code variables alone, with big-integer model counts."""

from __future__ import annotations

import time
from collections.abc import Iterator

from pysdd.sdd import SddManager, SddNode, Vtree

from ..encoding import Encoding
from ..permutations import ValueMapCoding, plan
from . import CountOptions, CountResult
from .sdd import SddAlgebra, model_count


class DecomposeBackend:
    """Sum over permutation classes of per-permutation SDD counts, weighted by class size."""

    name = "decompose"
    exact = True
    description = "sum over concept permutations up to symmetry, SAT-pruned, SDD per permutation"

    def count(self, encoding: Encoding, options: CountOptions, max_classes: int | None = None) -> CountResult:
        """Exact count of the disentangled encoding. With `max_classes`, raise TooManyClasses before
        counting anything if more permutation classes than that survive the pruning."""
        start = time.perf_counter()
        classes, blocks = plan(encoding, options, max_classes)
        coding = ValueMapCoding(encoding.task, shared=encoding.mode == "objects")
        n = coding.num_vars
        # Measured: automatic minimisation costs far more than it saves on these small managers
        # (MNAdd, 100 examples: 185 s with it, 0.6 s without); garbage is collected after each pi.
        manager = SddManager.from_vtree(
            Vtree(var_count=n, var_order=list(range(1, n + 1)), vtree_type="balanced")
        )
        alg = SddAlgebra(manager)
        codes: dict[tuple[int, int, int], SddNode] = {}

        def code(i: int, v: int, u: int) -> SddNode:
            if (i, v, u) not in codes:
                gate = coding.code(alg, manager.literal, i, v, u)
                gate.ref()
                codes[i, v, u] = gate
            return codes[i, v, u]

        def count(gates: Iterator[SddNode]) -> int:
            """Models over all n variables of the conjunction of `gates`."""
            root = manager.true()
            root.ref()
            for gate in gates:
                new = root & gate
                new.ref()
                root.deref()
                root = new
                alg.release()
                if root.is_false():
                    break
            models = model_count(manager, root)
            root.deref()
            manager.garbage_collect()
            return models

        # Value maps per concept: N(pi) is a product over label groups, and a group's factor only
        # depends on which concepts feed its concepts, so factors are cached across classes
        # (SDD-OIA ambulance rules, 3285 classes: 41 s without, see docs/performance.md).
        groups = coding.label_groups() if encoding.mode == "disentangled" else []
        factors: dict[tuple[int, tuple[int, ...]], int] = {}
        total = nonzero = 0
        for number, (pi, size) in enumerate(classes, start=1):
            if len(groups) > 1:
                where = {j: i for i, j in enumerate(pi)}
                models = coding.unseen_factor(pi)
                for g, group in enumerate(groups):
                    key = (g, tuple(where[j] for j in group[1]))
                    if key not in factors:
                        factors[key] = count(coding.constraints(alg, code, pi, group)) >> (
                            n - coding.group_vars(pi, group)
                        )
                    models *= factors[key]
                    if not models:
                        break
            else:
                models = count(coding.constraints(alg, code, pi)) * coding.unseen_factor(pi)
            nonzero += models > 0
            total += models * size
            if options.progress:
                options.progress.update(f"decompose: permutation class {number}/{len(classes)}, {total} maps")
        details = {"blocks": blocks, "classes": len(classes), "nonzero": nonzero}
        if len(groups) > 1:
            details["label_groups"] = len(groups)
            details["group_factors_counted"] = len(factors)
        return CountResult(total, True, self.name, time.perf_counter() - start, details=details)


BACKEND = DecomposeBackend()
