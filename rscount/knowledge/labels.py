"""Facts about a task's labels found by compiling its knowledge: the values each label can take (a
compilation over the full domains, which is also where type errors surface: a logical operator
on a digit, a comparison of a string with a number, a possible division by zero), and the
concepts no label depends on."""

from __future__ import annotations

from typing import Any

from ..task.expressions import Expr, free_names, normalise
from ..task.model import Task
from ..task.vectorized import on_all_vectors
from .circuit import FALSE
from .copies import Copies


def label_values(task: Task) -> dict[str, tuple[Any, ...]]:
    """Per label, the values it takes on some concept vector (read off every vector at once when D is
    small, else one SAT call per value the compiled knowledge could give: `a - a` takes 0 only); a
    TaskError naming the label if its knowledge is ill-typed."""
    copies = Copies(task.concepts, task.labels)
    doms = copies.labels(copies.copy())  # type errors surface here, whatever the size of D
    tables = on_all_vectors(list(task.labels.values()), task.domains, task.names)
    if tables is not None:  # a small D: the values taken, read off every vector at once
        taken = [set(map(normalise, column.tolist())) for column in tables]
        return {
            label: tuple(v for v in dom if v in values)
            for (label, dom), values in zip(zip(task.labels, doms), taken)
        }
    return {
        label: tuple(v for v, gate in dom.items() if copies.witness(gate) is not None)
        for label, dom in zip(task.labels, doms)
    }


def ignored_concepts(task: Task) -> list[str]:
    """Concepts no label depends on: no two vectors that differ only in them get different labels
    (a SAT call per concept on two copies of the knowledge)."""
    ignored = []
    for n, concept in enumerate(task.concepts):
        copies = Copies(task.concepts, task.labels)
        x, y = copies.copy(), copies.copy()
        same = [copies.equal(x[c.name], y[c.name]) for m, c in enumerate(task.concepts) if m != n]
        goal = copies.builder.and_([*same, -copies.same_labels(copies.labels(x), copies.labels(y))])
        if goal == FALSE or copies.witness(goal, x, y) is None:
            ignored.append(concept.name)
    return ignored


def label_groups(task: Task) -> list[tuple[list[str], list[int]]]:
    """(labels, concepts they read, by number): labels joined when they read a common concept;
    every concept no label reads is a group of its own without labels. Value maps per concept bind
    different groups through different maps, so counts factor over the groups."""
    index = {c.name: j for j, c in enumerate(task.concepts)}
    groups: list[tuple[list[str], set[int]]] = []
    for label, expr in task.labels.items():
        read = {index[name] for name in free_names(expr)}
        joined = [g for g in groups if g[1] & read]
        labels = [name for g in joined for name in g[0]] + [label]
        concepts = read.union(*(g[1] for g in joined))
        groups = [g for g in groups if g not in joined] + [(labels, concepts)]
    read = set().union(*(g[1] for g in groups))
    unread: list[tuple[list[str], set[int]]] = [([], {j}) for j in range(len(task.concepts)) if j not in read]
    return [(labels, sorted(concepts)) for labels, concepts in groups + unread]


TRUTH_OPS = {"And", "Or", "Not", "Xor", "Implies", "Equivalent", "Eq", "Ne", "Lt", "Le", "Gt", "Ge"}


def is_truth(expr: Expr, task: Task) -> bool:
    """Whether an expression is a truth value by its form (a logical operator or a comparison, a
    Boolean concept, an if-then-else of truth values, 0 or 1), whatever values it takes on D."""
    if expr.op in TRUTH_OPS:
        return True
    if expr.op == "const":
        return expr.args[0] in (0, 1) and not isinstance(expr.args[0], str)
    if expr.op == "var":
        return set(next(c.values for c in task.concepts if c.name == expr.args[0])) == {0, 1}
    if expr.op == "ITE":
        return is_truth(expr.args[1], task) and is_truth(expr.args[2], task)
    return False


def label_classes(task: Task) -> dict[str, tuple[Any, ...]]:
    """Per label, the classes an inference layer chooses among: 0 and 1 for a truth-valued label
    (even one constant on D), else the values it takes on D."""
    values = label_values(task)
    return {name: (0, 1) if is_truth(expr, task) else values[name] for name, expr in task.labels.items()}
