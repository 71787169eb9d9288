"""Task files (YAML, read with the safe loader) and the built-in task families of the CLI."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from .annotations import SHOWN, Annotations, read_annotations
from .constraints import complete
from .dimacs import read_dimacs
from .errors import RscountError
from .expect import parse_expect
from .expr import Expr, parse
from .knowledge import boolean_names, cnf_expr, family
from .rsbench import is_generator_config, task_from_config
from .support import Support, parse_row, sample_of, sample_rows
from .task import MODE_NAMES, Concept, Objects, Task, make_concept

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
}


def _sample_spec(spec: dict, where: str) -> tuple[float, int, bool]:
    """(amount, seed, whether amount is a count) of {sample: F, seed: S} or {examples: N, seed: S}."""
    keys = set(spec) - {"seed"}
    if keys not in ({"sample"}, {"examples"}):
        raise RscountError(
            f"{where}: expected {{sample: F, seed: S}} or {{examples: N, seed: S}}, got keys {sorted(spec)}"
        )
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RscountError(f"{where}.seed: expected an integer, got {seed!r}")
    if "examples" in spec:
        n = spec["examples"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise RscountError(f"{where}.examples: expected a positive integer, got {n!r}")
        return n, seed, True
    return spec["sample"], seed, False


def build_support(
    concepts: Sequence[Concept],
    spec: Any,
    supervision: Any,
    where: str = "support",
    within: Support | None = None,
) -> Support:
    """A Support from a spec: 'exhaustive', a list of rows, or a sample ({sample: F, seed: S} or
    {examples: N, seed: S}) of D, or of `within` when given; likewise for concept supervision
    (rows of the support, or a sample of them)."""
    names = [c.name for c in concepts]
    domains = [c.values for c in concepts]
    if spec == "exhaustive" or spec is None:
        rows = None
    elif isinstance(spec, list):
        rows = [parse_row(r, names, domains, f"{where}[{i}]") for i, r in enumerate(spec)]
    elif isinstance(spec, dict):
        amount, seed, is_count = _sample_spec(spec, where)
        if within is None or within.exhaustive:
            rows = sample_rows(domains, amount, seed, where, is_count)
        else:
            rows = sample_of(within.rows, amount, seed, where, is_count)
    else:
        raise RscountError(f"{where}: expected 'exhaustive', a list of rows or {{sample: F, seed: S}}")
    if rows is not None and not rows:
        raise RscountError(f"{where}: the support is empty (a count needs at least one example)")
    if supervision is None or supervision == []:
        supervised: list[tuple] = []
    elif isinstance(supervision, list):
        supervised = [
            parse_row(r, names, domains, f"concept_supervision[{i}]") for i, r in enumerate(supervision)
        ]
    elif isinstance(supervision, dict):
        amount, seed, is_count = _sample_spec(supervision, "concept_supervision")
        pool = rows if rows is not None else Support(domains).rows
        supervised = sample_of(pool, amount, seed, "concept_supervision", is_count)
    else:
        raise RscountError("concept_supervision: expected a list of rows or {sample: F, seed: S}")
    return Support(domains, rows, supervised, where)


def _label(name: str, spec: Any, concepts: Sequence[Concept], base: Path) -> Expr:
    where = f"labels.{name}"
    names = [c.name for c in concepts]
    if isinstance(spec, dict):
        if set(spec) != {"dimacs"}:
            raise RscountError(f"{where}: expected an expression or {{dimacs: FILE.cnf}}")
        cnf = read_dimacs(base / str(spec["dimacs"]))
        non_boolean = [c.name for c in concepts if c.values != (0, 1)]
        if non_boolean:
            raise RscountError(f"{where}: DIMACS knowledge needs [0, 1] concepts; {non_boolean[0]} is not")
        return cnf_expr(cnf.clauses, names, f"{where} ({spec['dimacs']})")
    values = [v for c in concepts for v in c.values]
    return parse(spec, names, values, where)


def load_task(path: str | os.PathLike) -> Task:
    """Read a YAML task file; every problem is an RscountError naming the file and field."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise RscountError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "malformed YAML"
        raise RscountError(f"{path}{line}: invalid YAML: {problem}") from None
    try:
        if is_generator_config(data):
            return task_from_config(data, path.stem)
        return task_from_dict(data, path.stem, path.parent)
    except RscountError as exc:
        raise RscountError(f"{path}: {exc}") from None


def task_from_dict(data: Any, default_name: str, base: Path) -> Task:
    """Build a Task from parsed YAML data (paths in it are relative to `base`)."""
    if not isinstance(data, dict):
        raise RscountError("a task file is a YAML mapping with concepts, labels and support")
    unknown = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown:
        raise RscountError(f"unknown field {unknown[0]!r} (known: {', '.join(sorted(TOP_LEVEL_KEYS))})")
    if ("concepts" in data) == ("objects" in data):
        raise RscountError("give the concepts either as 'concepts' or as 'objects', exactly one of them")
    for key in ("concepts" if "concepts" in data else "objects", "labels"):
        if not isinstance(data.get(key), dict) or not data[key]:
            raise RscountError(f"{key}: expected a non-empty mapping")
    objects = _objects(data["objects"]) if "objects" in data else None
    if objects is None:
        concepts = tuple(make_concept(n, v) for n, v in data["concepts"].items())
    else:
        concepts = objects.concepts()
    label_names = [str(n) for n in data["labels"]]
    files: dict[str, Annotations] = {}
    specs = []
    for key, default in (("support", "exhaustive"), ("concept_supervision", None)):
        spec = data.get(key, default)
        if isinstance(spec, dict) and "file" in spec:
            if set(spec) != {"file"}:
                raise RscountError(f"{key}: expected {{file: PATH}} alone, got keys {sorted(spec)}")
            files[key] = read_annotations(base / str(spec["file"]), concepts, label_names)
            spec = files[key].distinct
        specs.append(spec)
    support = build_support(concepts, *specs)
    if "support" in files:
        support.source = files["support"].summary()
    if "knowledge" in data:
        labels = _constraint_labels(data, concepts, support)
    elif "completion" in data:
        raise RscountError("completion: only used with knowledge: (constraints over concepts and labels)")
    else:
        labels = {str(n): _label(str(n), spec, concepts, base) for n, spec in data["labels"].items()}
    name = str(data.get("name", default_name))
    description = str(data.get("description", ""))
    mode = data.get("mode", "disentangled")
    if mode not in MODE_NAMES:
        raise RscountError(f"mode: {mode!r} is not one of {', '.join(MODE_NAMES)}")
    expect = parse_expect(data.get("expect"))
    task = Task(name, concepts, labels, support, description, objects, mode, expect)
    for data_file in files.values():
        wrong = data_file.contradictions(list(labels), task.label_of)
        if wrong:
            more = f"; and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
            raise RscountError(
                f"{data_file.path}: {len(wrong)} label cells contradict the knowledge: "
                + "; ".join(wrong[:SHOWN])
                + more
            )
    return task


def _constraint_labels(data: dict, concepts: Sequence[Concept], support: Support) -> dict[str, Expr]:
    """Labels defined by `knowledge:` (a list of formulas over concepts and labels, whose label
    domains `labels:` declares), checked deterministic, with optional `completion:` defaults."""
    domains = {}
    for name, values in data["labels"].items():
        label = make_concept(name, values, "labels")  # with knowledge:, labels: declares domains
        if label.name in {c.name for c in concepts}:
            raise RscountError(f"labels.{name}: a label cannot share its name with a concept")
        domains[label.name] = label.values
    formulas = data["knowledge"]
    if isinstance(formulas, str):
        formulas = [formulas]
    if not isinstance(formulas, list) or not formulas:
        raise RscountError("knowledge: expected a formula or a non-empty list of formulas")
    names = [c.name for c in concepts] + list(domains)
    values = [v for c in concepts for v in c.values] + [v for d in domains.values() for v in d]
    parsed = [parse(f, names, values, f"knowledge[{i}]") for i, f in enumerate(formulas)]
    completion = data.get("completion") or {}
    if not isinstance(completion, dict):
        raise RscountError("completion: expected a mapping label -> default value")
    for name, value in completion.items():
        if name not in domains:
            raise RscountError(f"completion.{name}: not a label")
        if value not in domains[name]:
            raise RscountError(f"completion.{name}: {value!r} is not one of {list(domains[name])}")
    return complete(concepts, parsed, domains, completion, None if support.exhaustive else support.rows)


def _objects(spec: dict) -> Objects:
    """The `objects:` section: {count: N, attributes: {attribute: [values]}}."""
    if set(spec) != {"count", "attributes"}:
        raise RscountError(f"objects: expected keys count and attributes, got {sorted(spec)}")
    count = spec["count"]
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RscountError(f"objects.count: expected a positive integer, got {count!r}")
    attributes = spec["attributes"]
    if not isinstance(attributes, dict) or not attributes:
        raise RscountError("objects.attributes: expected a non-empty mapping attribute -> values")
    made = tuple(make_concept(n, v, "objects.attributes") for n, v in attributes.items())
    return Objects(count, tuple((a.name, a.values) for a in made))


def builtin_task(
    kind: str,
    bits: int,
    support: Any = "exhaustive",
    supervision: Any = None,
    clauses: Sequence[Sequence[int]] | None = None,
    name: str | None = None,
) -> Task:
    """xor/and/or over c1..cN, or CNF knowledge (`clauses`), as the CLI's built-in commands build."""
    names = boolean_names(bits)
    concepts = tuple(Concept(n, (0, 1)) for n in names)
    expr = family(kind, names) if clauses is None else cnf_expr(clauses, names, name or kind)
    support_ = build_support(concepts, support, supervision, "--fraction/--examples")
    return Task(name or f"{kind}{bits}", concepts, {"y": expr}, support_)
