"""The last step of reading a task file: its parts (knowledge, support, the annotation files read)
made one Task, with the label cells of those files checked against the knowledge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...errors import FormatError, TaskError
from ...task.constraints import Constraints
from ...task.expectations import parse_expect
from ...task.expressions import Expr
from ...task.model import Concept, Extractor, Mode, Objects, QueryAnswers, Task
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
    mode, in_place = _mode(data, objects)
    task = Task(
        str(data.get("name", default_name)),
        concepts,
        labels,
        support,
        description=str(data.get("description", "")),
        objects=objects,
        mode=mode,  # type: ignore[arg-type]
        in_place=in_place,
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


def written_mode(data: Mapping[str, Any]) -> Mode | None:
    """The mode a task file asks for: `mode:`, else the one whose maps `extractor:` learns (None:
    the task's default)."""
    if "mode" in data:
        return Mode.parse(data["mode"])
    return Extractor.parse(data["extractor"]).mode if "extractor" in data else None


def _mode(data: Mapping[str, Any], objects: Objects | None) -> tuple[Mode | None, bool]:
    """The task's mode (None: its default) and whether its extractor is in place, from `mode:` and
    `extractor:`; an extractor learns the maps of one mode, which `mode:` may not contradict."""
    mode = written_mode(data)
    if "extractor" not in data:
        return mode, False
    extractor = Extractor.parse(data["extractor"])
    if extractor.mode == Mode.OBJECTS and objects is None:
        raise TaskError("extractor", f"{extractor} needs an objects: section (objects with attributes)")
    contradiction = extractor.contradicts(mode)
    if contradiction:
        raise TaskError("extractor", f"{contradiction} (mode:)")
    return mode, extractor.in_place
