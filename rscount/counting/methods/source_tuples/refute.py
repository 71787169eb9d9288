"""Refuting a source tuple (its factor is 0) before counting it: by what pairs of rows imply about
the images of the values they read, else a SAT solver per label group shared by its tuples
(tuples.py)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence, Set
from typing import Any

from .... import sat
from ....encoding.inputs import example_inputs
from ....encoding.value_codes import Reading, ValueMapCoding
from ....errors import InternalError
from ....knowledge.circuit import FALSE, CNFBuilder, Dom, Shared, compile_expr, exactly_one
from ...engines.group_tables import GroupTables

STAGES = (256,)  # constraints (rows) a first SAT call checks before the rest are stated
REFUTER_CLAUSES = 4_000_000  # clauses a group's Refuter holds before a fresh one replaces it (memory)

Group = tuple[list[str], list[int]]


class Refuters:
    """A Refuter per label group (by its labels), a fresh one once it holds REFUTER_CLAUSES."""

    def __init__(self, coding: ValueMapCoding) -> None:
        self.coding = coding
        self.by_labels: dict[tuple[str, ...], Refuter] = {}

    def refutes(self, labels: tuple[str, ...], pi: tuple[int, ...], group: Group) -> bool:
        """Whether no value map fits the group's rows with pi."""
        refuter = self.by_labels.get(labels)
        if refuter is None or refuter.solver.nof_clauses() > REFUTER_CLAUSES:
            if refuter is not None:
                refuter.solver.delete()
            found = determined(self.coding, group) if refuter is None else refuter.determined
            refuter = self.by_labels[labels] = Refuter(self.coding, found)
        return refuter.refutes(pi, group)


def determined(coding: ValueMapCoding, group: Group) -> Determined:
    """GroupTables.determined of a group whose facts (row_facts) are read with the group's
    concepts and labels in this order."""
    ordered = [n for n, _ in coding.group_labels(group[0])]
    return GroupTables(coding, [(ordered, list(group[1]))], summary=True).determined(0)


class Refuter:
    """One incremental SAT solver for a label group's tuples: value maps one-hot per (source, value,
    target), so the operator gates over them (a sum of two digits) are compiled once for every tuple
    reading those values, and each tuple's rows hold under a selector literal it assumes. MNMath,
    1000 uniform rows: a wrong tuple cost 0.2-0.9 s, nearly all compiling its rows anew."""

    def __init__(self, coding: ValueMapCoding, determined: Determined = frozenset()) -> None:
        self.coding = coding
        self.determined = determined
        self.b = CNFBuilder()
        self.onehot: dict[tuple[int, int, int], list[int]] = {}
        self.shared = Shared()
        self.solver = sat.solver(sat.REFUTE)

    def refutes(self, pi: tuple[int, ...], group: Group) -> bool:
        """Whether the group's rows with pi have no value map: by pairs of rows (contradictory),
        else by SAT on the first STAGES rows, then on all."""
        facts = list(self.coding.row_facts(pi, group))
        if contradictory(facts, self.determined):
            return True
        b = self.b
        selector = b.new_var()

        def code(i: int, v: int) -> list[int]:
            key = (i, v, pi[i])
            if key not in self.onehot:
                self.onehot[key] = [b.new_var() for _ in range(self.coding.sizes[pi[i]])]
                b.clauses.extend(exactly_one(self.onehot[key]))
            return self.onehot[key]

        stated = 0
        try:
            for stage in (*STAGES, None):
                for fact in facts[stated:stage]:
                    if isinstance(fact, Reading):
                        codes = [code(i, v) for i, v in fact.pairs]
                        if not state_reading(self.coding, b, group, fact, codes, self.shared, selector):
                            return True
                    else:
                        b.clauses.extend([-selector, code(i, v)[u]] for i, v, u in fact)
                    stated += 1
                self.solver.append_formula(b.clauses)
                b.clauses.clear()
                if not self.solver.solve(assumptions=[selector]):
                    if not self.solver.get_core():  # unsatisfiable without this tuple: never expected
                        raise InternalError("a source tuples refuter's clauses contradict themselves")
                    return True
                if stage is None or stated < stage:
                    return False
            return False
        finally:  # this tuple's rows are done with: switch them off for good
            b.clauses.append([-selector])
            self.solver.append_formula(b.clauses)
            b.clauses.clear()


Slot = tuple[int, int]  # (source, value number): the value whose image a value map chooses
Determined = Set[tuple[int, tuple[Any, ...]]]  # GroupTables.determined: (position, label values)


def contradictory(
    facts: Sequence[Reading | tuple[tuple[int, int, int], ...]], determined: Determined = frozenset()
) -> bool:
    """Whether no value map fits the facts, by what pairs of rows imply without search: a value
    supervised to two images; two readings of the same values (up to values shown to share an
    image) with different labels; two readings that differ at one position only, whose values
    there must then get different images (different labels) or the same one (the same labels L,
    where (position, L) is `determined`), until a value would need both. MNMath, 1000 uniform rows:
    204 of y1's 210 tuples fail on the first pair, 3 more by their images (each 12-34 s of SAT)."""
    images: dict[Slot, int] = {}
    readings: list[Reading] = []
    for fact in facts:
        if isinstance(fact, Reading):
            readings.append(fact)
        elif any(images.setdefault((i, v), u) != u for i, v, u in fact):
            return True
    return _Images(images).contradict(readings, determined)


class _Images:
    """Values known to share an image (a union-find of slots), values known to differ, and the
    images supervision fixes."""

    def __init__(self, fixed: dict[Slot, int]) -> None:
        self.fixed = fixed
        self.parent: dict[Slot, Slot] = {}
        self.differ: set[tuple[Slot, Slot]] = set()

    def find(self, slot: Slot) -> Slot:
        """The slot standing for the values that share `slot`'s image."""
        while (up := self.parent.get(slot, slot)) != slot:
            self.parent[slot] = self.parent.get(up, up)
            slot = up
        return slot

    def merge(self, slots: Iterable[Slot]) -> bool:
        """Give the slots one image; whether two of them were apart (_Clash where supervision gave
        them different images)."""
        found = sorted({self.find(s) for s in slots})
        for other in found[1:]:
            self.parent[other] = found[0]
            image = self.fixed.get(other)
            if image is not None and self.fixed.setdefault(found[0], image) != image:
                raise _Clash
        return len(found) > 1

    def contradict(self, readings: list[Reading], determined: Determined) -> bool:
        """Whether the readings force a value to two images (see contradictory), deducing to a
        fixed point: a round merges slots or ends."""
        try:
            width = len(readings[0].pairs) if readings else 0
            while True:
                labels: dict[tuple[Slot, ...], tuple[Any, ...]] = {}
                for r in readings:
                    if labels.setdefault(tuple(map(self.find, r.pairs)), r.values) != r.values:
                        return True
                merged = False
                for t in range(width):
                    merged |= self._compare(readings, t, determined)
                for a, b in self.differ:
                    a, b = self.find(a), self.find(b)
                    if a == b or (a in self.fixed and self.fixed.get(b) == self.fixed[a]):
                        return True
                if not merged:
                    return False
        except _Clash:
            return True

    def _compare(self, readings: list[Reading], t: int, determined: Determined) -> bool:
        """Readings alike but at position t: their values at t get one image (labels L with (t, L)
        determined) or different ones (different labels); whether slots were merged."""
        alike: dict[tuple[Slot, ...], dict[tuple[Any, ...], set[Slot]]] = {}
        for r in readings:
            rest = tuple(self.find(s) for n, s in enumerate(r.pairs) if n != t)
            alike.setdefault(rest, {}).setdefault(r.values, set()).add(self.find(r.pairs[t]))
        merged = False
        for by_labels in alike.values():
            for one, two in itertools.combinations(by_labels.values(), 2):
                self.differ.update(itertools.product(one, two))
            for values, slots in by_labels.items():
                if (t, values) in determined:
                    merged |= self.merge(slots)
        return merged


class _Clash(Exception):
    """Two values that must differ get one image, or one value two."""


def state_reading(
    coding: ValueMapCoding,
    b: CNFBuilder,
    group: Group,
    fact: Reading,
    codes: Sequence[list[int]],
    shared: Shared,
    selector: int | None = None,
) -> bool:
    """Compile a Reading's labels into `b` over the one-hot codes of its sources' values (in the
    group's concept order), operator gates shared through `shared` with the other rows, the labels
    asserted (under `selector` if given); False when no value map gives them."""
    inputs = example_inputs(b, [coding.task.concepts[j] for j in group[1]], lambda t, u: codes[t][u])
    memo: dict[int, Dom] = {}
    for (label, expr), value in zip(coding.group_labels(group[0]), fact.values):
        gate = compile_expr(b, expr, inputs, f"labels.{label}", memo, shared).get(value, FALSE)
        if gate == FALSE:
            return False
        b.add([gate] if selector is None else [-selector, gate])
    return True
