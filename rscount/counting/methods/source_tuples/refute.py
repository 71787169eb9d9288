"""Refuting a source tuple (its factor is 0) before counting it: two rows that read the same source
values with different labels, else a SAT solver per label group shared by its tuples (tuples.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .... import sat
from ....encoding.inputs import example_inputs
from ....encoding.value_codes import Reading, ValueMapCoding
from ....knowledge.circuit import FALSE, CNFBuilder, Dom, Shared, compile_expr, exactly_one

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
            refuter = self.by_labels[labels] = Refuter(self.coding)
        return refuter.refutes(pi, group)


class Refuter:
    """One incremental SAT solver for a label group's tuples: value maps one-hot per (source, value,
    target), so the operator gates over them (a sum of two digits) are compiled once for every tuple
    reading those values, and each tuple's rows hold under a selector literal it assumes. MNMath,
    1000 uniform rows: a wrong tuple cost 0.2-0.9 s, nearly all compiling its rows anew."""

    def __init__(self, coding: ValueMapCoding) -> None:
        self.coding = coding
        self.b = CNFBuilder()
        self.onehot: dict[tuple[int, int, int], list[int]] = {}
        self.shared = Shared()
        self.solver = sat.solver(sat.REFUTE)

    def refutes(self, pi: tuple[int, ...], group: Group) -> bool:
        """Whether the group's rows with pi have no value map: two rows reading the same source
        values with different labels, else by SAT on the first STAGES rows, then on all."""
        facts = list(self.coding.row_facts(pi, group))
        if contradictory(facts):
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
                        raise RuntimeError("a source tuples refuter's clauses contradict themselves")
                    return True
                if stage is None or stated < stage:
                    return False
            return False
        finally:  # this tuple's rows are done with: switch them off for good
            b.clauses.append([-selector])
            self.solver.append_formula(b.clauses)
            b.clauses.clear()


def contradictory(facts: Sequence[Reading | tuple[tuple[int, int, int], ...]]) -> bool:
    """Whether two facts disagree on what the same source values become: readings of the same
    values with different labels, or a value supervised to two values (no value map gives both).
    MNMath, 1000 uniform rows: 207 of a group's 210 tuples fail so, before any CNF is built."""
    labels: dict[tuple[tuple[int, int], ...], tuple[Any, ...]] = {}
    images: dict[tuple[int, int], int] = {}
    for fact in facts:
        if isinstance(fact, Reading):
            if labels.setdefault(fact.pairs, fact.values) != fact.values:
                return True
        elif any(images.setdefault((i, v), u) != u for i, v, u in fact):
            return True
    return False


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
