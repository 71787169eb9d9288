"""The last step of reading a task file: its parts (knowledge, support, the annotation files read)
made one Task, with the label cells of those files checked against the knowledge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...errors import FormatError, TaskError
from ...task.constraints import Constraints
from ...task.expectations import parse_expect
from ...task.expressions import Expr
from ...task.model import Concept, Mode, Objects, QueryAnswers, Task
from ...task.support import Support
from ..rows import Annotations


class Knowledge(NamedTuple):
    """What a task file's knowledge gives its task."""

    concepts: tuple[Concept, ...]
    labels: dict[str, Expr]
    objects: Objects | None
    constraints: Constraints | None
    notes: tuple[str, ...]
    answers: tuple[QueryAnswers, ...] = ()
    evidence: str | None = None


def assemble(
    data: Mapping[str, Any],
    default_name: str,
    knowledge: Knowledge,
    support: Support,
    files: list[Annotations],
) -> Task:
    """The task of a task file's mapping, given its knowledge and support; annotation files whose
    label cells contradict the knowledge are refused."""
    concepts, labels, objects, constraints, notes, answers, evidence = knowledge
    task = Task(
        str(data.get("name", default_name)),
        concepts,
        labels,
        support,
        description=str(data.get("description", "")),
        objects=objects,
        mode=Mode.parse(data["mode"]) if "mode" in data else None,  # type: ignore[arg-type]
        expect=parse_expect(data.get("expect")),
        constraints=constraints,
        notes=notes,
        program=str(data["program"]) if "program" in data else None,
        answers=answers,
        evidence=evidence,
    )
    for data_file in files:
        try:
            data_file.check_labels(list(task.labels), task.label_of)
        except FormatError as exc:
            raise TaskError.from_file("", exc) from None
    return task
