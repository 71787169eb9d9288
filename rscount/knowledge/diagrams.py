"""A table label (a program's answers, a Python function tabulated: LookupTable) compiled through its
reduced decision diagram over the table's arguments in order, where that is smaller than the table:
NeurASP's member over 5 images is a table of 10^5 vectors per digit, compiled per support row into
10^5 clauses, whose diagram ("is the digit among the images read so far") has 2 nodes a level.

The diagram merges the rest of the table wherever two prefixes leave the same rest, and skips a
test whose children are all one node; each node is a partition of the label's values, one clause per
argument value and result value (CNFBuilder.partition), so every auxiliary stays determined."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any

import numpy as np

from ..task.expressions import LookupTable

if TYPE_CHECKING:  # circuit compiles a Lookup through this module
    from .circuit import Dom, GateAlgebra

KEPT = 32  # diagrams kept (by table), so that every row of a CNF reads one diagram


@dataclass(frozen=True)
class Diagram:
    """`levels[k][node]`: the children, one per value of argument `order[k]`, of a node of level k:
    nodes of level k + 1, or at the last level codes of `values` (level 0 has the one root).
    `clauses`: what its partitions take (each node that tests something: a clause per child's value,
    and an at-most-one over its values)."""

    values: tuple[Any, ...]
    order: tuple[int, ...]
    levels: tuple[np.ndarray, ...]
    clauses: int


_diagrams: dict[int, tuple[LookupTable, Diagram | None]] = {}


def diagram(table: LookupTable, at_most_one: Callable[[int], int]) -> Diagram | None:
    """The reduced diagram of a table that lists every vector of its domains (None otherwise), over
    the order of its arguments whose partitions take fewest clauses (`at_most_one(n)`: those of n
    values' at-most-one) of: as given, reversed, by domain size up and down (NeurASP's apply2x2
    reads its operators, 3 values, after its digits, 11)."""
    if id(table) in _diagrams:
        return _diagrams[id(table)][1]
    found = None
    if table.domains is not None and len(table) == prod(len(d) for d in table.domains):
        ids: dict[Any, int] = {}
        codes = np.array([ids.setdefault(v, len(ids)) for v in table.values()], dtype=np.int64)
        sizes = [len(d) for d in table.domains]
        given = list(range(len(sizes)))
        by_size = sorted(given, key=lambda j: sizes[j])
        orders = dict.fromkeys(tuple(o) for o in (given, given[::-1], by_size, by_size[::-1]))
        shaped = codes.reshape(sizes)
        found = min(
            (_built(tuple(ids), order, shaped, at_most_one) for order in orders), key=lambda d: d.clauses
        )
    _diagrams[id(table)] = (table, found)
    while len(_diagrams) > KEPT:
        del _diagrams[next(iter(_diagrams))]
    return found


def _built(
    values: tuple[Any, ...], order: tuple[int, ...], shaped: np.ndarray, at_most_one: Callable[[int], int]
) -> Diagram:
    """The diagram of the table `shaped` (value codes, an axis per argument) over `order`: merged
    bottom-up, then each node's values (as bits) read bottom-up for what its partition takes."""
    current = np.transpose(shaped, order).reshape(-1)
    levels = []
    for j in reversed(order):
        nodes, inverse = np.unique(current.reshape(-1, shaped.shape[j]), axis=0, return_inverse=True)
        levels.append(nodes)
        current = inverse.reshape(-1)
    clauses = 0
    below = [1 << code for code in range(len(values))]
    for level in levels:
        taken_by_node = []
        for children in level.tolist():
            taken = 0
            for child in children:
                taken |= below[child]
            taken_by_node.append(taken)
            width = taken.bit_count()
            if width > 1 and any(c != children[0] for c in children):
                clauses += sum(below[child].bit_count() for child in children)
                clauses += at_most_one(width) if width > 2 else 0
        below = taken_by_node
    return Diagram(values, order, tuple(levels[::-1]), clauses)


def lookup_dom(
    alg: GateAlgebra, args: Sequence[Dom], table: Any, at_most_one: Callable[[int], int]
) -> Dom | None:
    """The Dom of Lookup(args..., table) compiled through the table's diagram, or None where its
    partitions take no fewer clauses than the table's one (`at_most_one(n)`: the clauses of n
    values' at-most-one; then it is tabulated) or an argument takes a value outside the table's
    domains."""
    if not isinstance(table, LookupTable):
        return None
    found = diagram(table, at_most_one)
    if found is None or table.domains is None:
        return None
    width = len(found.values)
    if found.clauses >= len(table) + (at_most_one(width) if width > 2 else 0):
        return None
    domains = table.domains
    if any(v not in domain for arg, domain in zip(args, domains) for v in arg):
        return None
    below: list[Dom] = [{v: alg.true} for v in found.values]  # the nodes of the level below
    for j, level in reversed(list(zip(found.order, found.levels))):
        gates = [args[j].get(v) for v in domains[j]]
        nodes: list[Dom] = []
        for children in level.tolist():
            if all(c == children[0] for c in children):  # a test that changes nothing
                nodes.append(below[children[0]])
                continue
            terms: dict[Any, list[tuple[Any, Any]]] = {}
            for gate, child in zip(gates, children):
                if gate is not None and not alg.is_const(gate, False):
                    for value, inner in below[child].items():
                        terms.setdefault(value, []).append((gate, inner))
            nodes.append(alg.partition(terms) if terms else {})
        below = nodes
    return below[0]
