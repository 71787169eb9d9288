"""Facts about a task's labels found by compiling its knowledge: the values each label can take (a
compilation over the full domains, which is also where type errors surface: a logical operator
on a digit, a comparison of a string with a number, a possible division by zero), and the
concepts no label depends on."""

from __future__ import annotations

from typing import Any

from ..task.model import Task
from .circuit import FALSE
from .copies import Copies


def label_values(task: Task) -> dict[str, tuple[Any, ...]]:
    """Per label, the values it takes on some concept vector (one SAT call per value the compiled
    knowledge could give: `a - a` takes 0 only); a TaskError naming the label if its knowledge is
    ill-typed."""
    copies = Copies(task.concepts, task.labels)
    doms = copies.labels(copies.copy())
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
