"""A program's queries with variables (rscount.task.model.QueryAnswers) decided by SAT, one solver and
a linear number of gates per query: whether two of its answers can hold for one concept vector (then
its label is the set of answers, one 0/1 label per answer, instead of one label per variable), and
whether some vector has no answer (then an exhaustive support means the vectors where the program
gives labels, listed; vectors without are never training rows, and labels keep maps off them)."""

from __future__ import annotations

import dataclasses
from itertools import product

import numpy as np

from ..errors import TaskError, short
from ..limits import number_text
from ..task.expressions import Expr, call, const
from ..task.model import NO_ANSWER, QueryAnswers, Task
from ..task.support import domain_size
from ..task.vectorized import on_all_vectors
from .circuit import FALSE, Dom
from .copies import Copies

LISTED_MAX = 1 << 20  # concept vectors an exhaustive support of a partly answered program may list


def complete_answers(task: Task) -> Task:
    """`task` with set-valued labels for its queries that can have several answers at once, and, if
    its support is exhaustive but some vector has no label, the vectors that have one as support."""
    for n, query in enumerate(task.answers):
        several = _two_answers(task, query)
        if several is not None:
            task = _set_valued(task, n, several)
    if task.support.exhaustive and (task.answers or task.evidence) and _unanswered_somewhere(task):
        task = _answered_rows(task)
    return task


def _gates(task: Task, conditions: list[Expr]) -> tuple[Copies, dict[str, Dom], list[int]]:
    """One copy of the concepts and a gate per condition (true where it holds)."""
    copies = Copies(task.concepts, {f"c{k}": c for k, c in enumerate(conditions)}, "program")
    x = copies.copy()
    return copies, x, [dom.get(1, FALSE) for dom in copies.labels(x)]


def _two_answers(task: Task, query: QueryAnswers) -> tuple[object, ...] | None:
    """A concept vector on which two answers of `query` hold, or None (read off every vector at once
    when D is small; else a sequential counter: at least two of n conditions in 2n gates)."""
    conditions = [condition for _, condition in query.answers]
    tables = on_all_vectors(conditions, task.domains, task.names)
    if tables is not None:
        several = np.flatnonzero(np.sum(tables, axis=0) >= 2) if tables else np.array([], dtype=np.int64)
        return None if not len(several) else _vector(task, int(several[0]))
    copies, x, holds = _gates(task, conditions)
    b = copies.builder
    some = two = FALSE
    for gate in holds:
        two = b.or_([two, b.and_([some, gate])])
        some = b.or_([some, gate])
    found = copies.witness(two, x)
    return None if found is None else found[0]


def _set_valued(task: Task, n: int, example: tuple[object, ...]) -> Task:
    """The task with query n's variable labels replaced by a 0/1 label per answer."""
    query = task.answers[n]
    names = [
        ",".join(f"{v}={value}" for v, value in zip(query.variables, values)) for values, _ in query.answers
    ]
    labels = {k: e for k, e in task.labels.items() if k not in query.variables}
    labels.update(
        {name: call("ITE", holds, const(1), const(0)) for name, (_, holds) in zip(names, query.answers)}
    )
    answers = list(task.answers)
    answers[n] = dataclasses.replace(query, set_labels=tuple(names))
    vector = ", ".join(f"{c.name}={v}" for c, v in zip(task.concepts, example))
    note = (
        f"query {short(query.query)} has several answers on some concept vectors (e.g. {short(vector)}): "
        f"its label is the set of answers, a 0/1 label per answer ({short(', '.join(names))})"
    )
    stale = {f"label {v} is {v} in query {short(query.query)}" for v in query.variables}
    notes = (*(n for n in task.notes if n not in stale), note)
    return dataclasses.replace(task, labels=labels, answers=tuple(answers), notes=notes)


def _unanswered_somewhere(task: Task) -> bool:
    """Whether some concept vector has no label (a query without an answer, the evidence false)."""
    missing: list[Expr] = []
    for query in task.answers:
        if query.set_labels:
            missing.append(call("Not", call("Or", *(task.labels[k] for k in query.set_labels))))
        else:
            missing.append(call("Eq", task.labels[query.variables[0]], const(NO_ANSWER)))
    if task.evidence is not None:
        missing.append(call("Not", task.labels[task.evidence]))
    tables = on_all_vectors(missing, task.domains, task.names)
    if tables is not None:
        return bool(any(column.any() for column in tables))
    copies, x, gates = _gates(task, missing)
    return copies.witness(copies.builder.or_(gates), x) is not None


def _answered_rows(task: Task) -> Task:
    """The task with the vectors that have labels as its support (an exhaustive support means these)."""
    size = domain_size(task.domains)
    if size > LISTED_MAX:
        raise TaskError(
            "support",
            f"exhaustive: the program gives no label to some of the {number_text(size)} concept vectors, and "
            f"rscount lists at most {number_text(LISTED_MAX)} to keep those it does; give the rows or a file",
        )
    every = list(product(*task.domains))
    rows = [row for row, labels in zip(every, task.labels_of(every)) if task.unanswered(row, labels) is None]
    if not rows:
        raise TaskError("support", "exhaustive: the program gives no concept vector a label")
    where = [
        w
        for w, present in (("every query has an answer", task.answers), ("the evidence holds", task.evidence))
        if present
    ]
    note = (
        f"support: the {number_text(len(rows))} of {number_text(size)} concept vectors where "
        + " and ".join(where)
        + " (the others are never training rows)"
    )
    supervised = task.support.supervision()
    return dataclasses.replace(task.with_support(rows, supervised), notes=(*task.notes, note))


def _vector(task: Task, code: int) -> tuple[object, ...]:
    """The concept vector number `code` (first concept most significant)."""
    values = []
    for concept in reversed(task.concepts):
        code, position = divmod(code, len(concept.values))
        values.append(concept.values[position])
    return tuple(reversed(values))
