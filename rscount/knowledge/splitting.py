"""Labels split by the value a row gives them: where a conjunction holds, each of its parts holds;
where a disjunction fails, each of its parts fails (through Not and Implies too). A map that keeps
such a label on such a row keeps every part there, so the parts are labels of their own on those
rows, each reading fewer concepts: a search checks them as soon as their concepts are placed,
before the whole label's are (a sudoku's validity is 56 inequalities of two cells each on the
valid grids; Kandinsky's pattern, false, is each of its figure patterns false)."""

from __future__ import annotations

import dataclasses

from ..task.expressions import Expr, call, free_names
from ..task.model import Task

SPLIT_POLARITY = {"And": 1, "Or": 0, "Implies": 0}  # the value on which a label's parts are all fixed


def parts(expr: Expr, value: int) -> list[Expr]:
    """Expressions that each hold (evaluate to 1) wherever `expr` evaluates to `value` (0 or 1), and
    together exactly there: the conjuncts of a true conjunction, the negated disjuncts of a false
    disjunction, recursively; else `expr` itself (negated for 0)."""
    if expr.op == "Not":
        return parts(expr.args[0], 1 - value)
    if SPLIT_POLARITY.get(expr.op) == value:
        if expr.op == "Implies":  # false: the premise holds, the conclusion fails
            return parts(expr.args[0], 1) + parts(expr.args[1], 0)
        return [p for a in expr.args for p in parts(a, value)]
    return [expr] if value else [call("Not", expr)]


def split_task(task: Task) -> Task | None:
    """The task whose labels are the parts of its labels that read fewer concepts than their label
    (`label#k`), on the rows where every label that has such parts takes the value that splits it
    (a conjunction, a disjunction, an implication, under negations); None where no label has such
    parts or no row is left. Every map that keeps `task`'s labels keeps these, so a prefix no map of
    it extends has no optimal map: the split task only prunes, earlier than the whole labels can."""
    polarity: dict[str, int] = {}
    smaller: dict[str, list[Expr]] = {}
    for name, expr in task.labels.items():
        read = free_names(expr)
        for value in (1, 0):
            found = [p for p in parts(expr, value) if free_names(p) < read]
            if found:
                polarity[name], smaller[name] = value, found
                break
    if not polarity:
        return None
    rows = task.support.rows
    names = list(task.labels)
    kept = [
        row
        for row, values in zip(rows, task.labels_of(rows))
        if all(n not in polarity or v == polarity[n] for n, v in zip(names, values))
    ]
    if not kept:
        return None
    labels = {f"{name}#{k}": p for name, found in smaller.items() for k, p in enumerate(found)}
    split = dataclasses.replace(task, labels=labels, answers=(), evidence=None, expect={})
    return split.with_support(kept)
