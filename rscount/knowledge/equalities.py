"""Which labels are equality tests, read off their values rather than their syntax (an expression
`Eq(a, b)`, `a != b`, or a program's table): a label reading exactly two concepts with the same
values, constant on the pairs that agree and constant, otherwise, on those that differ."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..task.expressions import free_names
from ..task.model import Task

MAX_VALUES = 100  # a domain past this is not tabulated pair by pair (auto asks at every count)


@dataclass(frozen=True)
class Equality:
    """Label number `label` (in the task's order) tests concepts `concepts` for equality: it takes
    `equal` where they agree and another value where they differ."""

    label: int
    concepts: tuple[int, int]
    equal: Any


def equality_labels(task: Task) -> list[Equality] | None:
    """The task's labels as equality tests (a label reading no concept is kept by every map and
    left out); None when some label is none, or none is one."""
    index = {c.name: j for j, c in enumerate(task.concepts)}
    base = [c.values[0] for c in task.concepts]
    found = []
    for n, expr in enumerate(task.labels.values()):
        read = sorted(index[name] for name in free_names(expr) if name in index)
        if not read:
            continue
        if len(read) != 2:
            return None
        x, y = read
        values = task.concepts[x].values
        if values != task.concepts[y].values or len(values) > MAX_VALUES:
            return None
        vectors = []
        for u in values:
            for v in values:
                vectors.append(tuple(u if j == x else v if j == y else b for j, b in enumerate(base)))
        taken = [labels[n] for labels in task.labels_of(vectors)]
        d = len(values)
        agree = {taken[a * d + a] for a in range(d)}
        differ = {taken[a * d + b] for a in range(d) for b in range(d) if a != b}
        if len(agree) != 1 or len(differ) > 1 or agree == differ:
            return None
        found.append(Equality(n, (x, y), agree.pop()))
    return found or None
