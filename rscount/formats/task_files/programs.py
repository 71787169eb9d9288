"""A task file whose knowledge is a program (`program: FILE`, `query:`): its concepts and labels come
from the program's reader (rscount.formats.programs), its support from the task file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import FormatError, TaskError
from ...limits import CONCEPTS
from ...task.model import Concept, Mode, Task, make_concept
from ...task.support import Support
from ..inputs import read_text
from ..programs import read_program
from ..programs.knowledge_base import knowledge_base_labels
from ..programs.objects import program_objects
from .assembly import Knowledge, assemble, written_mode
from .supports import read_support


def program_task(data: Mapping[str, Any], default_name: str, base: Path, mode: Mode | None) -> Task:
    """A task whose concepts and labels come from a ProbLog / DeepProbLog program (`program:`), or
    whose labels come from a deterministic knowledge base (`program:` with `concepts:`); in the
    objects mode (`mode: objects`, or `mode` from a command line), its neural predicates are the
    attributes of its inputs (rscount.formats.programs.objects), and a support written in the program's
    own concept order is reordered."""
    clash = sorted({"objects", "labels", "knowledge", "completion"} & set(data))
    if clash:
        raise TaskError(clash[0], "not used with program: (the program gives the concepts and labels)")
    path = base / str(data["program"])
    try:
        if "concepts" in data:  # a deterministic knowledge base whose query names the concepts
            if not isinstance(data["concepts"], dict) or not data["concepts"]:
                raise TaskError("concepts", "expected a non-empty mapping")
            CONCEPTS.check(len(data["concepts"]), "concepts")
            declared = [make_concept(n, v) for n, v in data["concepts"].items()]
            program = knowledge_base_labels(path, read_text(path), data.get("query"), declared)
        else:
            program = read_program(path, read_text(path), data.get("query"))
    except FormatError as exc:
        raise TaskError.from_file("program", exc, str(data["program"])) from None
    CONCEPTS.check(len(program.concepts), "program")
    knowledge = Knowledge(
        program.concepts, program.labels, None, None, program.notes, program.answers, program.evidence
    )
    written = written_mode(data)
    if Mode.OBJECTS not in (written, mode):
        support, files = read_support(data, knowledge.concepts, list(knowledge.labels), base)
        return assemble(data, default_name, knowledge, support, files)
    view = program_objects(program)
    notes = tuple(n for n in program.notes if not n.startswith("concept ")) + view.notes
    knowledge = knowledge._replace(
        concepts=view.objects.concepts(),
        labels=view.labels,
        objects=view.objects,
        notes=notes,
        answers=view.answers,
    )
    if written == Mode.OBJECTS:
        support, files = read_support(
            data, knowledge.concepts, list(knowledge.labels), base, knowledge.objects
        )
    else:
        own, files = read_support(data, program.concepts, list(program.labels), base)
        support = _renamed(own, view.names, knowledge.concepts)
    return assemble({**data, "mode": str(Mode.OBJECTS)}, default_name, knowledge, support, files)


def _renamed(support: Support, names: Mapping[str, str], concepts: Sequence[Concept]) -> Support:
    """`support` (over a program's own concepts) over `concepts`, its columns renamed by `names`."""
    order = [c.name for c in concepts]
    where = [support.names.index(old) for old in sorted(names, key=lambda old: order.index(names[old]))]

    def row(values: Sequence[Any]) -> list[Any]:
        return [values[i] for i in where]

    supervised = [
        {"row": row(e["row"]), "concepts": [names[c] for c in e["concepts"]]}
        if isinstance(e, dict)
        else row(e)
        for e in support.supervision()
    ]
    rows = support.given_rows()
    return Support(
        order,
        [c.values for c in concepts],
        None if rows is None else [row(r) for r in rows],
        supervised,
        source=support.source,
    )
