"""The value maps valid with a fixed concept permutation as an SDD over the value-map codes
(rscount.encoding.value_codes), counted with big integers; shared by the exact decomposition and
the map sampler (rscount.insight.maps)."""

from __future__ import annotations

from pysdd.sdd import SddManager, SddNode, Vtree

from ..encoding.value_codes import ValueMapCoding
from ..knowledge.sdd import SddAlgebra, model_count


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
