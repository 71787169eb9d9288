"""Reading tasks from files: rscount task files (YAML, read with the safe loader), rsbench generator
configs, and DIMACS CNF knowledge (variable i = concept c<i>).

What is read here is a task as written; whether its knowledge compiles (types, determinism of
`knowledge:` constraints) is checked by `rscount.knowledge.loading`, which every public loader
goes through.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import CapExceeded, FormatError, TaskError, TaskFileError, quote
from ..limits import CONCEPTS
from . import dimacs
from .annotations import SHOWN, Annotations, read_annotations
from .asp_programs import read_asp
from .benchmark_files import FORMATS, detect_format, read_clevr, read_kandy
from .constraints import Constraints
from .expectations import parse_expect
from .expressions import Expr, parse
from .families import cnf_expr, dimacs_task
from .inputs import load_yaml, read_text
from .model import Concept, Mode, Objects, QueryAnswers, Task, make_concept
from .program_objects import program_objects
from .programs import read_program
from .rsbench import is_generator_config, task_from_config
from .support import Support, support_from_spec

TOP_LEVEL_KEYS = {
    "name",
    "description",
    "concepts",
    "objects",
    "labels",
    "knowledge",
    "completion",
    "mode",
    "support",
    "concept_supervision",
    "expect",
    "program",
    "query",
}
DIMACS_SUFFIXES = (".cnf", ".dimacs")


def is_dimacs(path: Path, text: str) -> bool:
    """Whether a file holds DIMACS CNF: by its extension, else by its first line that is not a
    comment (a `p cnf` header)."""
    if path.suffix.lower() in DIMACS_SUFFIXES:
        return True
    if path.suffix.lower() in (".yaml", ".yml"):
        return False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("c"):
            return stripped.startswith("p cnf")
    return False


def read_task(path: str | os.PathLike[str], mode: Mode | None = None) -> Task:
    """The task a file describes (task file, rsbench config or DIMACS knowledge, exhaustive
    support), as written; every problem names the file (and field or line). `mode`: the mode it will
    be counted in, when a command line asks (a program is read as objects for the objects mode)."""
    path = Path(path)
    text = read_text(path)
    if is_dimacs(path, text):
        return dimacs_task(path.stem, dimacs.knowledge(dimacs.loads(text, str(path)), str(path)))
    data = load_yaml(text, str(path))
    try:
        if is_generator_config(data):
            return task_from_config(data, path.stem)
        return read_mapping(data, path.stem, path.parent, mode)
    except (TaskError, CapExceeded) as exc:
        raise located(exc, path) from None


def _label(name: str, spec: Any, concepts: Sequence[Concept], base: Path) -> Expr:
    where = f"labels.{name}"
    names = [c.name for c in concepts]
    if isinstance(spec, dict):
        if set(spec) != {"dimacs"}:
            raise TaskError(where, "expected an expression or {dimacs: FILE.cnf}")
        try:
            cnf = dimacs.knowledge(dimacs.load(base / str(spec["dimacs"])), str(spec["dimacs"]))
        except FormatError as exc:
            raise TaskError(where, str(exc)) from None
        non_boolean = [c.name for c in concepts if c.values != (0, 1)]
        if non_boolean:
            raise TaskError(where, f"DIMACS knowledge needs [0, 1] concepts; {non_boolean[0]} is not")
        return cnf_expr(cnf.clauses, names, f"{where} ({spec['dimacs']})")
    values = [v for c in concepts for v in c.values]
    return parse(spec, names, values, where)


def read_mapping(data: Any, default_name: str, base: Path = Path("."), mode: Mode | None = None) -> Task:
    """The task a mapping in the task-file schema states, as written (paths in it relative to `base`);
    rscount.knowledge.loading.task_from_dict also checks its knowledge."""
    if not isinstance(data, dict):
        raise TaskError("", "a task file is a YAML mapping with concepts, labels and support")
    unknown = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown:
        raise TaskError("", f"unknown field {quote(unknown[0])} (known: {', '.join(sorted(TOP_LEVEL_KEYS))})")
    if "program" in data:
        return _program_task(data, default_name, base, mode)
    if "query" in data:
        raise TaskError("query", "only used with program: (a ProbLog or DeepProbLog file)")
    if ("concepts" in data) == ("objects" in data):
        raise TaskError("", "give the concepts either as 'concepts' or as 'objects', exactly one of them")
    for key in ("concepts" if "concepts" in data else "objects", "labels"):
        if not isinstance(data.get(key), dict) or not data[key]:
            raise TaskError(key, "expected a non-empty mapping")
    objects = _objects(data["objects"]) if "objects" in data else None
    if objects is None and str(data.get("mode")) == "objects":
        raise TaskError("mode", "the objects mode needs an objects: section (objects with attributes)")
    CONCEPTS.check(len(data["concepts"]) if objects is None else objects.count * len(objects.attributes), "")
    if objects is None:
        concepts = tuple(make_concept(n, v) for n, v in data["concepts"].items())
    else:
        concepts = objects.concepts()
    support, files = _support(data, concepts, [str(n) for n in data["labels"]], base, objects)
    constraints = None
    if "knowledge" in data:
        constraints = _constraints(data, concepts)
        labels = constraints.labels()
    elif "completion" in data:
        raise TaskError("completion", "only used with knowledge: (constraints over concepts and labels)")
    else:
        labels = {str(n): _label(str(n), spec, concepts, base) for n, spec in data["labels"].items()}
    return _task(data, default_name, Knowledge(concepts, labels, objects, constraints, ()), support, files)


def _program_task(data: Mapping[str, Any], default_name: str, base: Path, mode: Mode | None) -> Task:
    """A task whose concepts and labels come from a ProbLog / DeepProbLog program (`program:`); in the
    objects mode (`mode: objects`, or `mode` from a command line), its neural predicates are the
    attributes of its inputs (rscount.task.program_objects), and a support written in the program's
    own concept order is reordered."""
    clash = sorted({"concepts", "objects", "labels", "knowledge", "completion"} & set(data))
    if clash:
        raise TaskError(clash[0], "not used with program: (the program gives the concepts and labels)")
    path = base / str(data["program"])
    reader = read_asp if path.suffix == ".lp" else read_program
    try:
        program = reader(path, read_text(path), data.get("query"))
    except FormatError as exc:
        raise TaskError("program", str(exc)) from None
    CONCEPTS.check(len(program.concepts), "program")
    knowledge = Knowledge(
        program.concepts, program.labels, None, None, program.notes, program.answers, program.evidence
    )
    written = Mode.parse(data["mode"]) if "mode" in data else None
    if Mode.OBJECTS not in (written, mode):
        support, files = _support(data, knowledge.concepts, list(knowledge.labels), base)
        return _task(data, default_name, knowledge, support, files)
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
        support, files = _support(data, knowledge.concepts, list(knowledge.labels), base, knowledge.objects)
    else:
        own, files = _support(data, program.concepts, list(program.labels), base)
        support = _renamed(own, view.names, knowledge.concepts)
    return _task({**data, "mode": str(Mode.OBJECTS)}, default_name, knowledge, support, files)


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


class Knowledge(NamedTuple):
    """What a task file's knowledge gives its task."""

    concepts: tuple[Concept, ...]
    labels: dict[str, Expr]
    objects: Objects | None
    constraints: Constraints | None
    notes: tuple[str, ...]
    answers: tuple[QueryAnswers, ...] = ()
    evidence: str | None = None


def _task(
    data: Mapping[str, Any],
    default_name: str,
    knowledge: Knowledge,
    support: Support,
    files: list[Annotations],
) -> Task:
    """The task of a task file's mapping, given its concepts, labels, objects, constraints and notes;
    annotation files whose label cells contradict the knowledge are refused."""
    concepts, labels, objects, constraints, notes, answers, evidence = knowledge
    task = Task(
        str(data.get("name", default_name)),
        concepts,
        labels,
        support,
        str(data.get("description", "")),
        objects,
        Mode.parse(data["mode"]) if "mode" in data else None,  # type: ignore[arg-type]
        parse_expect(data.get("expect")),
        constraints,
        notes,
        str(data["program"]) if "program" in data else None,
        answers,
        evidence,
    )
    for data_file in files:
        wrong = data_file.contradictions(list(task.labels), task.label_of)
        if wrong:
            more = f"; and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
            problem = f"{len(wrong)} label cells contradict the knowledge: " + "; ".join(wrong[:SHOWN]) + more
            raise TaskError("", f"{data_file.path}: {problem}")
    return task


def _annotation_file(
    key: str,
    spec: Mapping[str, Any],
    concepts: Sequence[Concept],
    label_names: list[str],
    objects: Objects | None,
    base: Path,
) -> Annotations:
    """The annotation file of `{file: PATH, format: F, task: N}` (format detected when omitted)."""
    extra = sorted(set(spec) - {"file", "format", "task"})
    if extra:
        raise TaskError(key, f"unknown key {quote(extra[0])} (known: file, format, task)")
    path = base / str(spec["file"])
    kind = spec.get("format") or detect_format(path, read_text(path))
    if kind not in FORMATS:
        raise TaskError(f"{key}.format", f"{quote(kind)} is not one of {', '.join(FORMATS)}")
    if "task" in spec and kind != "kandy":
        raise TaskError(f"{key}.task", "selects the rows of one task_id of a KANDY annotations.csv only")
    if kind in ("csv", "jsonl"):
        return read_annotations(path, concepts, label_names, kind == "jsonl")
    if objects is None:
        raise TaskError(key, f"a {kind} file describes objects: the task needs an objects: section")
    if kind == "clevr":
        return read_clevr(path, objects)
    if len(label_names) != 1:
        raise TaskError(key, "a KANDY annotations.csv gives one label: the task needs exactly one")
    return read_kandy(path, objects, label_names[0], spec.get("task"))


def _support(
    data: Mapping[str, Any],
    concepts: Sequence[Concept],
    label_names: list[str],
    base: Path,
    objects: Objects | None = None,
) -> tuple[Support, list[Annotations]]:
    """The support and supervision sections, and the annotation files they read."""
    files: dict[str, Annotations] = {}
    specs = []
    for key, default in (("support", "exhaustive"), ("concept_supervision", None)):
        spec = data.get(key, default)
        if isinstance(spec, dict) and "file" in spec:
            try:
                files[key] = _annotation_file(key, spec, concepts, label_names, objects, base)
            except FormatError as exc:
                raise TaskError(key, str(exc)) from None
            spec = files[key].distinct
        specs.append(spec)
    names, domains = [c.name for c in concepts], [c.values for c in concepts]
    support = support_from_spec(names, domains, *specs)
    if "support" in files:
        source = files["support"].summary()
        support = Support(names, domains, support.given_rows(), support.supervision(), source=source)
    return support, list(files.values())


def _constraints(data: Mapping[str, Any], concepts: Sequence[Concept]) -> Constraints:
    """The `knowledge:` constraints over concepts and labels, with the label domains `labels:`
    declares and the optional `completion:` defaults."""
    domains = {}
    for name, values in data["labels"].items():
        label = make_concept(name, values, "labels")  # with knowledge:, labels: declares domains
        if label.name in {c.name for c in concepts}:
            raise TaskError(f"labels.{name}", "a label cannot share its name with a concept")
        domains[label.name] = label.values
    formulas = data["knowledge"]
    if isinstance(formulas, str):
        formulas = [formulas]
    if not isinstance(formulas, list) or not formulas:
        raise TaskError("knowledge", "expected a formula or a non-empty list of formulas")
    names = [c.name for c in concepts] + list(domains)
    values = [v for c in concepts for v in c.values] + [v for d in domains.values() for v in d]
    parsed = tuple(parse(f, names, values, f"knowledge[{i}]") for i, f in enumerate(formulas))
    completion = data.get("completion") or {}
    if not isinstance(completion, dict):
        raise TaskError("completion", "expected a mapping label -> default value")
    for name, value in completion.items():
        if name not in domains:
            raise TaskError(f"completion.{name}", "not a label")
        if value not in domains[name]:
            raise TaskError(
                f"completion.{name}", f"{quote(value)} is not one of {quote(list(domains[name]))}"
            )
    return Constraints(parsed, domains, completion)


def _objects(spec: Any) -> Objects:
    """The `objects:` section: {count: N, attributes: {attribute: [values]}}."""
    if not isinstance(spec, dict) or set(spec) != {"count", "attributes"}:
        keys = sorted(spec) if isinstance(spec, dict) else type(spec).__name__
        raise TaskError("objects", f"expected keys count and attributes, got {keys}")
    count = spec["count"]
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise TaskError("objects.count", f"expected a positive integer, got {quote(count)}")
    CONCEPTS.check(count, "objects.count")
    attributes = spec["attributes"]
    if not isinstance(attributes, dict) or not attributes:
        raise TaskError("objects.attributes", "expected a non-empty mapping attribute -> values")
    made = tuple(make_concept(n, v, "objects.attributes") for n, v in attributes.items())
    return Objects(count, tuple((a.name, a.values) for a in made))


def located(error: TaskError | CapExceeded, path: str | os.PathLike[str]) -> TaskFileError | CapExceeded:
    """An error of the task read from `path` (a TaskError, or a cap a field exceeded), located in
    that file."""
    return error if isinstance(error, TaskFileError) else error.in_file(str(path))
