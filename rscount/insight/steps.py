"""The steps a plan of `rscount advise` is made of: add a concept vector to the support (labelled by
the knowledge), concept-supervise a support row, annotate one concept on every example (written as
an extra label equal to the concept: keeping it on every support row is exactly "predicted d1
equals d1 on every example"), annotate one concept on one example (a `{row, concepts}` entry of the
supervision), and how a task changes under them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..task.expressions import Expr, var
from ..task.model import Task

SUPERVISE, ADD, ANNOTATE, ANNOTATE_ONE = "supervise", "add", "annotate", "annotate-one"
ACTIONS = (SUPERVISE, ADD, ANNOTATE, ANNOTATE_ONE)


@dataclass(frozen=True)
class Step:
    """One change of the task: supervise or add `row`, annotate `concept` on every example, or
    annotate `concept` on the example `row` only (supervise that concept there)."""

    action: str
    row: tuple[Any, ...] | None = None
    concept: str | None = None


def addable(task: Task, rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows a plan may add: those the knowledge gives a label (a program's evidence holds and
    its queries have answers there; a support row without a label is refused)."""
    labels = task.labels_of(list(rows))
    return [r for r, lab in zip(rows, labels) if task.unanswered(r, lab) is None]


def annotation_label(task: Task, concept: str) -> str:
    """The label name that stands for "concept annotated on every example" (not clashing)."""
    name = f"{concept}_annotated"
    while name in task.labels:
        name += "_"
    return name


def apply_steps(task: Task, steps: Sequence[Step]) -> Task:
    """`task` with `steps` applied (a new Task; `task` is left as it is)."""
    support = task.support
    rows: list[Any] | None = None if support.exhaustive else list(support.rows)
    supervised: list[Any] = support.supervision()
    labels: dict[str, Expr | str] = {}
    for step in steps:
        if step.action == ADD and rows is not None:
            rows.append(step.row)
        elif step.action == SUPERVISE:
            supervised.append(step.row)
        elif step.action == ANNOTATE_ONE and step.row is not None:
            supervised.append({"row": list(step.row), "concepts": [step.concept]})
        elif step.concept is not None:
            labels[annotation_label(task, step.concept)] = var(step.concept)
    return task.with_support(rows, supervised).with_labels(labels)


def step_text(task: Task, step: Step) -> str:
    """A step as a person reads it: `add example d1=5, d2=6 (sum=11)`."""
    if step.action == ANNOTATE or step.row is None:
        return f"annotate concept {step.concept} on every training example"
    row = ", ".join(f"{n}={v}" for n, v in zip(task.names, step.row))
    if step.action == ANNOTATE_ONE:
        return f"annotate concept {step.concept} on example {row}"
    if step.action == SUPERVISE:
        return f"concept-supervise example {row}"
    labels = ", ".join(f"{n}={v}" for n, v in zip(task.labels, task.label_of(step.row)))
    return f"add example {row} ({labels})"
