"""Whether knowledge given as constraints (`knowledge:`, see rscount.task.constraints) gives every
concept vector exactly one label tuple: SAT calls over the concepts, each failure shown with a
concept vector, and whether the training rows at least are determined."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..errors import TaskError, short
from ..task.constraints import Constraints, LabelTuple
from ..task.expressions import evaluate, free_names
from ..task.model import Concept, Task
from .circuit import FALSE
from .copies import Copies

MESSAGE_BUDGET = 380  # characters of the refusal, so that the line with its file name stays short


def check_deterministic(task: Task) -> None:
    """Raise a TaskError (field 'knowledge') unless the task's constraints, with their completion
    defaults, give every concept vector exactly one label tuple. The message tells contradictory
    knowledge (a vector no label tuple fits: the formulas that clash are named) from open knowledge
    (a vector several tuples fit: they are listed, with the labels left open and the formulas that
    mention them), and says how the training rows fare, with examples of their own; it is made
    more compact, level by level, until it fits MESSAGE_BUDGET."""
    if task.constraints is None:
        return
    rules, concepts = task.constraints, task.concepts
    order = rules.order
    copies = Copies(concepts, {str(y): e for y, e in rules.holds.items()}, "knowledge")
    x = copies.copy()
    gate = {y: dom.get(1, FALSE) for y, dom in zip(order, copies.labels(x))}
    b = copies.builder
    contradictory = copies.witness(b.and_(-g for g in gate.values()), x)
    open_found = None
    for r in sorted({rules.rank(y) for y in order}):
        better = b.or_(gate[y] for y in order if rules.rank(y) < r)
        tied = [y for y in order if rules.rank(y) == r]
        for y1, y2 in combinations(tied, 2):
            open_found = copies.witness(b.and_([gate[y1], gate[y2], -better]), x)
            if open_found is not None:
                break
        if open_found is not None:
            break
    if contradictory is None and open_found is None:
        return
    message = ""
    for level in range(4):
        shown, problems = [], []
        if contradictory is not None:
            shown.append(contradictory[0])
            problems.append(
                f"contradictory: concept vector {_show(concepts, contradictory[0], level)} fits no label "
                f"combination ({_clash(rules, concepts, contradictory[0], level)})"
            )
        if open_found is not None:
            shown.append(open_found[0])
            problems.append(f"not deterministic: {_open(rules, concepts, open_found[0], level)}")
        message = "; ".join(problems) + _on_support(task, rules, shown, level)
        if len(message) <= MESSAGE_BUDGET:
            break
    raise TaskError("knowledge", message)


def _fitting(rules: Constraints, concepts: Sequence[Concept], row: Sequence[Any]) -> list[LabelTuple]:
    """The label tuples the constraints allow for a concept vector, most preferred first."""
    values = {c.name: v for c, v in zip(concepts, row)}
    return [y for y, e in rules.holds.items() if evaluate(e, values)]


def _formula(rules: Constraints, i: int, level: int) -> str:
    """`knowledge[i] FORMULA` (the formula cut short from level 1 on, left out from level 2 on)."""
    text = str(rules.formulas[i])
    return f"knowledge[{i}]" if level >= 2 else f"knowledge[{i}] {text if level == 0 else short(text)}"


def _clash(rules: Constraints, concepts: Sequence[Concept], row: Sequence[Any], level: int) -> str:
    """The fewest formulas that no label tuple satisfies together on `row`, as text."""
    values = {c.name: v for c, v in zip(concepts, row)}
    meets = [
        [bool(evaluate(f, {**values, **dict(zip(rules.names, y))})) for f in rules.formulas]
        for y in rules.order
    ]
    for size in range(1, len(rules.formulas) + 1):
        for chosen in combinations(range(len(rules.formulas)), size):
            if not any(all(m[i] for i in chosen) for m in meets):
                named = ", ".join(_formula(rules, i, level) for i in chosen)
                return f"{'it violates' if size == 1 else 'these clash:'} {named}"
    return "the formulas together exclude every label combination"  # unreachable: all of them clash


def _open(rules: Constraints, concepts: Sequence[Concept], row: Sequence[Any], level: int) -> str:
    """A vector several most-preferred label tuples fit: them (all at level 0), the labels that
    differ among them and the formulas that mention those labels."""
    fitting = _fitting(rules, concepts, row)
    best = min(rules.rank(y) for y in fitting)
    tied = [y for y in fitting if rules.rank(y) == best]
    loose = [n for k, n in enumerate(rules.names) if len({y[k] for y in tied}) > 1]
    mention = [_formula(rules, i, level) for i, f in enumerate(rules.formulas) if set(loose) & free_names(f)]
    why = (
        f"formulas mentioning {', '.join(loose)}: {'; '.join(mention)}"
        if mention
        else "no formula mentions it"
    )
    hint = " (a 'completion:' default per label chooses)" if not rules.completion else ""
    listed = tied if level == 0 else tied[: 3 if level < 3 else 2]
    tuples = " or ".join(f"({_labels(rules.names, y)})" for y in listed)
    if len(listed) < len(tied):
        tuples += f" or ... ({len(tied)} in all)"
    vector = _show(concepts, row, level)
    return f"concept vector {vector} can have {tuples}: {', '.join(loose)} left open ({why}){hint}"


def _on_support(task: Task, rules: Constraints, shown: Sequence[Sequence[Any]], level: int) -> str:
    """How the training rows fare under the constraints: contradictory and open ones counted, each
    with an example other than the vectors already shown (none from level 2 on; by evaluation)."""
    if task.support.exhaustive:
        return ""
    support, concepts = task.support.rows, task.concepts
    contradictory, open_rows = [], []
    for row in support:
        fitting = _fitting(rules, concepts, row)
        if not fitting:
            contradictory.append(row)
            continue
        best = min(rules.rank(y) for y in fitting)
        if sum(rules.rank(y) == best for y in fitting) != 1:
            open_rows.append(row)
    if not contradictory and not open_rows:
        return f"; on the {len(support)} training rows it is deterministic"
    parts = []
    for kind, rows in (("contradictory", contradictory), ("open", open_rows)):
        if rows:
            other = next((r for r in rows if r not in shown), None)
            example = f", e.g. {_show(concepts, other, level)}" if other is not None and level < 2 else ""
            parts.append(f"{len(rows)} {kind}{example}")
    return f"; of the {len(support)} training rows: " + ", ".join(parts)


def _show(concepts: Sequence[Concept], row: Sequence[Any], level: int = 0) -> str:
    """A concept vector: {name: value, ...}, or from level 1 on its values in concept order."""
    if level == 0:
        return "{" + ", ".join(f"{c.name}: {v!r}" for c, v in zip(concepts, row)) + "}"
    return short(repr(list(row)))


def _labels(names: Sequence[str], y: LabelTuple) -> str:
    return ", ".join(f"{n} = {v!r}" for n, v in zip(names, y))
