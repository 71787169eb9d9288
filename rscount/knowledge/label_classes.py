"""The sizes of a task's label classes, |E(y)| = the number of concept vectors whose label tuple is
y, which the closed forms rest on: tabulated on small concept spaces, model-counted by SDD beyond."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product
from typing import Any

from pysdd.sdd import SddManager, Vtree

from ..task.model import Task
from ..task.support import all_rows, domain_size
from ..task.vectorized import evaluate_shared
from .circuit import compile_expr, exactly_one
from .copies import one_hot_inputs
from .invariants import Undetermined
from .labels import label_groups, label_values
from .sdd import SddAlgebra, clauses_node, model_count

ENUMERATE_MAX = 1 << 14  # concept spaces up to this size are tabulated; larger ones model-counted
MAX_LABEL_TUPLES = 4096


def class_sizes(task: Task, wanted: Iterable[tuple[Any, ...]] | None = None) -> dict[tuple[Any, ...], int]:
    """|E(y)| = number of concept vectors whose label tuple is y, for each y in `wanted` (None: every
    label tuple that occurs). Small concept spaces are tabulated, larger ones model-counted by SDD."""
    domains = [c.values for c in task.concepts]
    wanted = None if wanted is None else set(wanted)
    if domain_size(domains) <= ENUMERATE_MAX:
        sizes = Counter(task.label_of(row) for row in all_rows(domains))
        return {y: n for y, n in sizes.items() if wanted is None or y in wanted}
    groups = label_groups(task)
    if all(domain_size([domains[j] for j in concepts]) <= ENUMERATE_MAX for _, concepts in groups):
        return _grouped_class_sizes(task, groups, wanted)
    if wanted is None:
        combos = 1
        for values in label_values(task).values():
            combos *= len(values)
        if combos > MAX_LABEL_TUPLES:
            raise Undetermined(
                f"the labels have {combos} value combinations, more than the {MAX_LABEL_TUPLES} "
                "whose classes rscount model-counts one by one"
            )
        wanted = set(product(*label_values(task).values()))
    return _sdd_class_sizes(task, wanted)


def _sdd_class_sizes(task: Task, wanted: set[tuple[Any, ...]]) -> dict[tuple[Any, ...], int]:
    width = sum(1 if len(c.values) == 2 else len(c.values) for c in task.concepts)
    manager = SddManager.from_vtree(
        Vtree(var_count=width, var_order=list(range(1, width + 1)), vtree_type="balanced")
    )
    alg = SddAlgebra(manager)
    numbers = iter(range(1, width + 1))
    inputs, groups = one_hot_inputs(alg, task.concepts, lambda: manager.literal(next(numbers)))
    base = clauses_node(alg, (clause for xs in groups for clause in exactly_one(xs, alg.neg)))
    doms = [compile_expr(alg, e, inputs, f"labels.{n}") for n, e in task.labels.items()]
    sizes = {}
    for y in wanted:
        node = alg.and_([base, *(dom.get(v, alg.false) for dom, v in zip(doms, y))])
        n = model_count(manager, node)
        if n:
            sizes[y] = n
    return sizes


def _grouped_class_sizes(
    task: Task, groups: list[tuple[list[str], list[int]]], wanted: set[tuple[Any, ...]] | None
) -> dict[tuple[Any, ...], int]:
    """class_sizes when every label group's concepts span a small space: a group's labels depend on
    its concepts alone and the groups share none, so |E(y)| is the product of the groups' class sizes
    (a group without labels contributes its whole space)."""
    names = list(task.labels)
    per_group = []
    for labels, concepts in groups:
        space = list(product(*(task.concepts[j].values for j in concepts)))
        base = {c.name: c.values[0] for c in task.concepts}
        exprs = [task.labels[n] for n in labels]
        counts: Counter[tuple[Any, ...]] = Counter()
        for row in space:
            assignment = {**base, **{task.concepts[j].name: v for j, v in zip(concepts, row)}}
            counts[tuple(evaluate_shared(exprs, assignment))] += 1
        per_group.append(([names.index(n) for n in labels], counts))
    found: dict[tuple[Any, ...], int] = {}
    for parts in product(*(counts.items() for _, counts in per_group)):
        y: list[Any] = [None] * len(names)
        size = 1
        for (where, _), (values, n) in zip(per_group, parts):
            for k, value in zip(where, values):
                y[k] = value
            size *= n
        if wanted is None or tuple(y) in wanted:
            found[tuple(y)] = size
    return found
