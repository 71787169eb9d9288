"""Whether knowledge given as constraints (`knowledge:`, see rscount.task.constraints) gives every
concept vector exactly one label tuple: SAT calls over the concepts, each failure shown with a
concept vector, and whether the training rows at least are determined."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..errors import TaskError
from ..task.constraints import Constraints, LabelTuple
from ..task.expressions import evaluate
from ..task.model import Concept, Task
from .circuit import FALSE
from .copies import Copies


def check_deterministic(task: Task) -> None:
    """Raise a TaskError (field 'knowledge') unless the task's constraints, with their completion
    defaults, give every concept vector exactly one label tuple."""
    if task.constraints is None:
        return
    rules, concepts = task.constraints, task.concepts
    support = None if task.support.exhaustive else task.support.rows
    order = rules.order
    copies = Copies(concepts, {str(y): e for y, e in rules.holds.items()}, "knowledge")
    x = copies.copy()
    gate = {y: dom.get(1, FALSE) for y, dom in zip(order, copies.labels(x))}
    b = copies.builder
    found = copies.witness(b.and_(-g for g in gate.values()), x)
    if found is not None:
        raise TaskError(
            "knowledge",
            f"concept vector {_show(concepts, found[0])} fits no label combination"
            + _on_support(concepts, rules, support),
        )
    for r in sorted({rules.rank(y) for y in order}):
        better = b.or_(gate[y] for y in order if rules.rank(y) < r)
        for y1, y2 in combinations([y for y in order if rules.rank(y) == r], 2):
            found = copies.witness(b.and_([gate[y1], gate[y2], -better]), x)
            if found is not None:
                hint = " (a 'completion:' default per label chooses)" if not rules.completion else ""
                raise TaskError(
                    "knowledge",
                    f"not deterministic: concept vector {_show(concepts, found[0])} can have "
                    f"{_labels(rules.names, y1)} or {_labels(rules.names, y2)}{hint}"
                    + _on_support(concepts, rules, support),
                )


def _on_support(
    concepts: Sequence[Concept], rules: Constraints, support: Sequence[tuple[Any, ...]] | None
) -> str:
    """Whether the constraints give each training row exactly one label tuple (by evaluation)."""
    if support is None:
        return ""
    bad = []
    for row in support:
        values = {c.name: v for c, v in zip(concepts, row)}
        fitting = [y for y, e in rules.holds.items() if evaluate(e, values)]
        best = min((rules.rank(y) for y in fitting), default=None)
        if sum(rules.rank(y) == best for y in fitting) != 1:
            bad.append(row)
    if not bad:
        return f"; on the {len(support)} training rows it is deterministic"
    return f"; so are {len(bad)} of the {len(support)} training rows, e.g. {_show(concepts, bad[0])}"


def _show(concepts: Sequence[Concept], row: Sequence[Any]) -> str:
    return "{" + ", ".join(f"{c.name}: {v!r}" for c, v in zip(concepts, row)) + "}"


def _labels(names: Sequence[str], y: LabelTuple) -> str:
    return ", ".join(f"{n} = {v!r}" for n, v in zip(names, y))
