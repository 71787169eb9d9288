"""Exact counting by decomposition over the concept permutation (see rscount/permutations.py):
one permutation per symmetry class that SAT pruning keeps, its value maps counted by an SDD over
the value-map code variables alone, with big-integer model counts."""

from __future__ import annotations

import time

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
        sdds = ValueMapSdds(ValueMapCoding(encoding.task, shared=encoding.mode == "objects"))
        coding = sdds.coding
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
                        free = coding.num_vars - coding.group_vars(pi, group)
                        factors[key] = sdds.count(pi, group) >> free
                    models *= factors[key]
                    if not models:
                        break
            else:
                models = sdds.count(pi) * coding.unseen_factor(pi)
            nonzero += models > 0
            total += models * size
            if options.progress:
                options.progress.update(f"decompose: permutation class {number}/{len(classes)}, {total} maps")
        details = {"blocks": blocks, "classes": len(classes), "nonzero": nonzero}
        if len(groups) > 1:
            details["label_groups"] = len(groups)
            details["group_factors_counted"] = len(factors)
        return CountResult(total, True, self.name, time.perf_counter() - start, details=details)


class ValueMapSdds:
    """One SDD manager over the value-map codes of a task (variables 1..n of `coding`), and the SDD
    of the value maps that are valid with a given concept permutation."""

    def __init__(self, coding: ValueMapCoding) -> None:
        self.coding = coding
        n = coding.num_vars
        # Measured: automatic minimisation costs far more than it saves on these small managers
        # (MNAdd, 100 examples: 185 s with it, 0.6 s without); callers collect garbage themselves.
        self.manager = SddManager.from_vtree(
            Vtree(var_count=n, var_order=list(range(1, n + 1)), vtree_type="balanced")
        )
        self.alg = SddAlgebra(self.manager)
        self._codes: dict[tuple[int, int, int], SddNode] = {}

    def _code(self, i: int, v: int, u: int) -> SddNode:
        if (i, v, u) not in self._codes:
            gate = self.coding.code(self.alg, self.manager.literal, i, v, u)
            gate.ref()
            self._codes[i, v, u] = gate
        return self._codes[i, v, u]

    def compile(self, pi: tuple[int, ...], group: tuple[list[str], list[int]] | None = None) -> SddNode:
        """The SDD (referenced: the caller dereferences it) of the value maps valid with `pi`, or
        with a `group` of ValueMapCoding.label_groups only that group's constraints."""
        root = self.manager.true()
        root.ref()
        for gate in self.coding.constraints(self.alg, self._code, pi, group):
            new = root & gate
            new.ref()
            root.deref()
            root = new
            self.alg.release()
            if root.is_false():
                break
        return root

    def count(self, pi: tuple[int, ...], group: tuple[list[str], list[int]] | None = None) -> int:
        """Models, over all code variables, of `compile(pi, group)`; garbage is collected after."""
        root = self.compile(pi, group)
        models = model_count(self.manager, root)
        root.deref()
        self.manager.garbage_collect()
        return models


BACKEND = DecomposeBackend()
