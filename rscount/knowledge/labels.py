"""Facts about a task's labels found by compiling its knowledge: the values each label can take (a
compilation over the full domains, which is also where type errors surface: a logical operator
on a digit, a comparison of a string with a number, a possible division by zero), and the
concepts no label depends on."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import TaskError, short
from ..task.affine import affine_form, affine_values
from ..task.expressions import Expr, free_names, normalise
from ..task.model import Task
from ..task.vectorized import on_all_vectors
from .circuit import FALSE
from .copies import Copies


def label_values(task: Task) -> dict[str, tuple[Any, ...]]:
    """Per label, the values it takes on some concept vector (read off every vector at once when D is
    small, listed step by step for an affine form of integer concepts, else one SAT call per value
    the compiled knowledge could give: `a - a` takes 0 only); a TaskError naming the label if its
    knowledge is ill-typed."""
    copies = Copies(task.concepts, task.labels)
    doms = copies.labels(copies.copy())  # type errors surface here, whatever the size of D
    tables = _on_all_vectors(task)
    if tables is not None:  # a small D: the values taken, read off every vector at once
        taken = [set(map(normalise, column.tolist())) for column in tables]
        return {
            label: tuple(v for v in dom if v in values)
            for (label, dom), values in zip(zip(task.labels, doms), taken)
        }
    found = {label: _affine_values(task, expr) for label, expr in task.labels.items()}

    def takes(label: str, value: Any, gate: int) -> bool:
        known = found[label]
        return value in known if known is not None else copies.witness(gate) is not None

    return {
        label: tuple(v for v, gate in dom.items() if takes(label, v, gate))
        for label, dom in zip(task.labels, doms)
    }


def _affine_values(task: Task, expr: Expr) -> set[int] | None:
    """The values of a label written as an affine form of integer concepts (a sum of digits takes
    every value between its ends: one SAT call each would take minutes), or None."""
    form = affine_form(expr)
    return None if form is None else affine_values(form, task.names, task.domains)


def check_labels(task: Task) -> None:
    """The labels' knowledge checked as label_values checks it (a TaskError naming the label), but a
    program's labels on a tabulated D are not compiled: rscount built them from the program's answers
    (constants chosen by Boolean gates), so the compilation finds nothing the tables did not, and it
    is a third of reading a long formula program (HWF with 5 symbols: 17 -> 11 s); nor are affine
    labels of integer concepts (DeepProbLog's 3-digit addition: 15 s for nothing)."""
    if task.program is not None and _on_all_vectors(task) is not None:
        return
    if all(_affine_values(task, expr) is not None for expr in task.labels.values()):
        return  # sums and products by constants of integer concepts: well-typed on every vector
    label_values(task)


def _on_all_vectors(task: Task) -> list[Any] | None:
    """The labels' values on every concept vector (None when D is too large to tabulate); a TaskError
    naming the first label the arrays cannot evaluate (such as a product of a number and a word)."""
    errors = (TypeError, ValueError, ZeroDivisionError, OverflowError)
    try:
        return task.label_arrays()
    except errors:
        pass
    for name, expr in task.labels.items():
        try:
            on_all_vectors([expr], task.domains, task.names)
        except errors as exc:
            raise TaskError(
                f"labels.{name}", f"undefined on some concept vector: {short(str(exc))}"
            ) from None
    raise AssertionError("the labels failed together but not one by one")


def ignored_concepts(task: Task) -> list[str]:
    """Concepts no label depends on: no two vectors that differ only in them get different labels
    (read off every vector at once when D is small, else a SAT call per concept on two copies of the
    knowledge)."""
    tables = _on_all_vectors(task)
    if tables is not None:  # each label, as an array over D, constant along the concept's axis
        shape = tuple(len(c.values) for c in task.concepts)
        grids = [np.asarray(t).reshape(shape) for t in tables]
        return [
            c.name
            for n, c in enumerate(task.concepts)
            if all(np.all(grid == grid.take([0], axis=n)) for grid in grids)
        ]
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


def label_classes(task: Task) -> dict[str, tuple[Any, ...]]:
    """Per label, the classes an inference layer chooses among: the values it takes on D, and both
    0 and 1 for a label whose values are truth values (a Boolean label has 2 even when constant)."""
    return {
        name: (0, 1) if all(not isinstance(v, str) and v in (0, 1) for v in values) else values
        for name, values in label_values(task).items()
    }
