"""Invariants of a task's knowledge that closed forms rest on: labels that depend only on how many
Boolean concepts are true, and labels that are an injective function of the sum of the concepts.
Each is established by SAT on copies of the knowledge (or read off the labels tabulated on a small
D), never assumed from a task's name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..task.expressions import call, var
from ..task.model import Task
from ..task.vectorized import all_vectors
from .circuit import CNFBuilder, Dom, compile_expr
from .copies import Copies


class Undetermined(Exception):
    """A property of the knowledge that could not be established (the reason is the message)."""


def symmetric_counts(task: Task) -> list[tuple[Any, ...]]:
    """For knowledge over concepts that all have the same two values and whose labels depend only on
    how many concepts take the second value, the label tuple g[m] for m = 0..k; checked by SAT
    (invariance under a transposition and a cycle of the concepts, which generate every permutation)."""
    concepts = task.concepts
    values = concepts[0].values
    if len(values) != 2 or any(c.values != values for c in concepts):
        raise Undetermined("the concepts do not all have the same two values")
    k = len(concepts)
    names = task.names
    if k > 1:
        copies = Copies(task.concepts, task.labels)
        x = copies.copy()
        base = copies.labels(x)
        swap = [1, 0, *range(2, k)]
        cycle = [*range(1, k), 0]
        for what, order in (("swapping two concepts", swap), ("rotating the concepts", cycle)):
            moved = copies.labels({names[i]: x[names[j]] for i, j in enumerate(order)})
            found = copies.witness(-copies.same_labels(base, moved), x)
            if found is not None:
                raise Undetermined(f"the labels are not symmetric: {what} changes them at {list(found[0])}")
    return [task.label_of((values[1],) * m + (values[0],) * (k - m)) for m in range(k + 1)]


def injective_in_sum(task: Task) -> None:
    """Check (on the labels tabulated on D where D is small, else by SAT on two copies of the
    concepts) that every concept value is an integer and the labels are an injective function of
    the sum of the concepts; raise Undetermined if not."""
    for c in task.concepts:
        if not all(isinstance(v, int) for v in c.values):
            raise Undetermined(f"concept {c.name} has non-integer values")
    tables = task.label_arrays()
    if tables is not None:  # a small D: read off every vector at once, no circuits
        _injective_on_all_vectors(task, tables)
        return
    copies = Copies(task.concepts, task.labels)
    x, y = copies.copy(), copies.copy()
    total = _sum_dom(copies.builder, task.names)
    same_sum = copies.equal(total(x), total(y))
    same_labels = copies.same_labels(copies.labels(x), copies.labels(y))
    b = copies.builder
    found = copies.witness(b.and_([same_sum, -same_labels]), x, y)
    if found is not None:
        first, second = (list(row) for row in found)
        raise Undetermined(f"the labels are not a function of the sum of the concepts ({first} and {second})")
    found = copies.witness(b.and_([-same_sum, same_labels]), x, y)
    if found is not None:
        first, second = (list(row) for row in found)
        raise Undetermined(
            f"the labels do not tell all sums apart ({first} and {second} get the same labels)"
        )


def _injective_on_all_vectors(task: Task, tables: list[Any]) -> None:
    """injective_in_sum on the labels tabulated on D (`tables`, as Task.label_arrays gives them)."""
    columns, size = all_vectors(task.domains, task.names)
    sums = np.sum([columns[name] for name in task.names], axis=0).tolist()
    labels = list(zip(*(table.tolist() for table in tables))) if tables else [()] * size

    def vector(n: int) -> list[Any]:
        return [columns[name][n].item() for name in task.names]

    of_sum: dict[Any, tuple[tuple[Any, ...], int]] = {}
    for n, (total, found) in enumerate(zip(sums, labels)):  # first: a function of the sum at all
        first = of_sum.setdefault(total, (found, n))
        if first[0] != found:
            pair = f"{vector(first[1])} and {vector(n)}"
            raise Undetermined(f"the labels are not a function of the sum of the concepts ({pair})")
    of_labels: dict[tuple[Any, ...], tuple[Any, int]] = {}
    for n, (total, found) in enumerate(zip(sums, labels)):  # then: one that tells the sums apart
        other = of_labels.setdefault(found, (total, n))
        if other[0] != total:
            pair = f"{vector(other[1])} and {vector(n)}"
            raise Undetermined(f"the labels do not tell all sums apart ({pair} get the same labels)")


def _sum_dom(b: CNFBuilder, names: list[str]) -> Callable[[dict[str, Dom]], Dom]:
    expr = call("Add", *(var(n) for n in names)) if len(names) > 1 else var(names[0])
    return lambda inputs: compile_expr(b, expr, inputs, "sum of the concepts")
