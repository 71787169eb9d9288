"""A label group's rows as CNF stamped from one template: every row that reads a group states the same
relation ("the labels take these values") on other inputs, so the knowledge is compiled once per
group and label values, over one numbered input per concept value, and each row copies its clauses
with the inputs renamed and fresh auxiliaries. Compiling per row instead (tabulating each operator
again) took 92 s of kand-logic-2's 134 s with every permutation counted apart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..knowledge.circuit import FALSE, CNFBuilder, compile_expr
from ..task.expressions import Expr
from ..task.model import Concept
from .inputs import example_inputs


class Template:
    """A CNF over numbered inputs and auxiliaries, stamped into a builder with the inputs renamed
    and fresh auxiliaries."""

    def __init__(self, b: CNFBuilder, gates: list[int], inputs: int) -> None:
        for gate in gates:
            b.add([gate])
        self.inputs = inputs
        self.auxiliaries = b.num_vars - inputs
        # Clauses of one length as one array each: a stamp renames them and numpy makes the lists
        # (slicing a flat list clause by clause: 24 s of 98 s profiled on MNMath's source tuples, when they
        # stamped templates, then 13 s).
        lengths = sorted({len(c) for c in b.clauses})
        blocks = [np.array([c for c in b.clauses if len(c) == n], dtype=np.int64) for n in lengths]
        self.blocks = [(np.sign(block), np.abs(block)) for block in blocks]

    def stamp(self, b: CNFBuilder, inputs: list[int]) -> None:
        """Add the clauses to `b` with input n renamed inputs[n] (a literal: it may be negative)."""
        names = np.empty(self.inputs + self.auxiliaries + 1, dtype=np.int64)
        names[1 : self.inputs + 1] = inputs
        names[self.inputs + 1 :] = np.arange(b.num_vars + 1, b.num_vars + self.auxiliaries + 1)
        b.num_vars += self.auxiliaries
        for signs, variables in self.blocks:
            b.clauses.extend((signs * names[variables]).tolist())


def label_template(
    concepts: Sequence[Concept], labels: Sequence[tuple[str, Expr]], values: Sequence[Any]
) -> Template | None:
    """The CNF of "the labels take `values`" over one input per value of each concept, in order
    (concept 0's values first; a two-valued concept reads only its second input, its first value
    being the negation), or None when no input gives them."""
    b = CNFBuilder()
    inputs = [[b.new_var() for _ in c.values] for c in concepts]
    doms = example_inputs(b, concepts, lambda t, u: inputs[t][u])
    memo: dict[int, Any] = {}
    gates = [
        compile_expr(b, expr, doms, f"labels.{label}", memo).get(value, FALSE)
        for (label, expr), value in zip(labels, values)
    ]
    return None if FALSE in gates else Template(b, gates, sum(map(len, inputs)))
