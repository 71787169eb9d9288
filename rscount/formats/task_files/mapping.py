"""The rscount task file's schema (YAML): concepts or objects, labels as expressions (or DIMACS, or
`knowledge:` constraints), a program (rscount.formats.task_files.programs), support, supervision,
mode and expectations, read as written.

Whether its knowledge compiles (types, determinism of `knowledge:` constraints) is checked by
`rscount.knowledge.loading`, which every public loader goes through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import FormatError, TaskError, quote
from ...limits import CONCEPTS
from ...task.constraints import Constraints
from ...task.expressions import Expr, parse
from ...task.families import cnf_expr
from ...task.functions import tabulated
from ...task.model import Concept, Mode, Objects, Task, make_concept
from .. import dimacs
from .assembly import Knowledge, assemble
from .programs import program_task
from .supports import read_support

TOP_LEVEL_KEYS = {
    "name",
    "description",
    "concepts",
    "objects",
    "labels",
    "knowledge",
    "completion",
    "mode",
    "extractor",
    "predicts",
    "support",
    "concept_supervision",
    "expect",
    "program",
    "query",
}


def _label(name: str, spec: Any, concepts: Sequence[Concept], base: Path) -> Expr:
    where = f"labels.{name}"
    names = [c.name for c in concepts]
    if callable(spec):  # a Python function, from the API's task_from_dict: YAML makes none
        return tabulated(spec, concepts, where)
    if isinstance(spec, dict):
        if set(spec) != {"dimacs"}:
            raise TaskError(where, "expected an expression or {dimacs: FILE.cnf}")
        try:
            cnf = dimacs.knowledge(dimacs.load(base / str(spec["dimacs"])), str(spec["dimacs"]))
        except FormatError as exc:
            raise TaskError.from_file(where, exc) from None
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
        if "predicts" in data:
            raise TaskError(
                "predicts", "a program's classes are its own (its nn declarations): write them there"
            )
        return program_task(data, default_name, base, mode)
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
    support_objects = objects  # the data's objects: annotation files are read over their values
    if objects is None:
        truths = tuple(make_concept(n, v) for n, v in data["concepts"].items())
        classes = _predicts(data.get("predicts"), [(c.name, c.values) for c in truths])
        concepts = tuple(Concept(c.name, classes.get(c.name, c.values)) for c in truths)
    else:
        truths = objects.concepts()
        classes = _predicts(data.get("predicts"), objects.attributes)
        objects = Objects(objects.count, tuple((n, classes.get(n, v)) for n, v in objects.attributes))
        concepts = objects.concepts()
    support, files = read_support(data, truths, [str(n) for n in data["labels"]], base, support_objects)
    constraints = None
    if "knowledge" in data:
        constraints = _constraints(data, concepts)
        labels = constraints.labels()
    elif "completion" in data:
        raise TaskError("completion", "only used with knowledge: (constraints over concepts and labels)")
    else:
        labels = {str(n): _label(str(n), spec, concepts, base) for n, spec in data["labels"].items()}
    return assemble(data, default_name, Knowledge(concepts, labels, objects, constraints, ()), support, files)


def _predicts(spec: Any, owners: Sequence[tuple[str, tuple[Any, ...]]]) -> dict[str, tuple[Any, ...]]:
    """`predicts:` {concept or attribute: [classes]}, the classes its network predicts (every
    ground-truth value among them), as the widened values: the ground truth's, then the others."""
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        raise TaskError(
            "predicts", "expected a mapping concept (or attribute) -> the classes its network predicts"
        )
    known = dict(owners)
    widened = {}
    for name, values in spec.items():
        if name not in known:
            raise TaskError("predicts", f"unknown concept or attribute {quote(name)}")
        classes = make_concept(name, values, "predicts").values
        missing = [v for v in known[name] if v not in classes]
        if missing:
            raise TaskError(
                f"predicts.{name}",
                f"leaves out the ground-truth value {quote(missing[0])}: the network predicts every value",
            )
        widened[name] = known[name] + tuple(v for v in classes if v not in known[name])
    return widened


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
