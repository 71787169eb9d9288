"""rsbench generator configs (seed 004, appendix C) read as tasks, as written: MNLogic, MNMath,
Kand-Logic and CLEVR / CLE4EVR.

Every field of rsbench's example configs is accepted. Fields that only shape the images or the
split (val_prop, test_prop, ood_prop, prop_in_distribution, n_samples, sample_size, use_mnist,
mnist_path, ...) do not change the knowledge or the support: the task's notes list them as not used
by the count. A field rsbench does not know is refused, naming the nearest known one. The support
is `combinations_in_distribution` when given, else every concept vector (the generator draws from
all of them; the notes say so). Choices the appendix leaves open, taken here and documented in
docs/tasks.md:
- MNMath: each equation of `logic` reads its own group of `num_digits` digits (the appendix
  example: concepts [[2, 2], [3, 4]] give labels [2*2 + 2, 3 + 4] = [6, 7]); concept `<symbol>_<e>`
  is the digit of symbol in equation e, label `y<e>` the value of equation e.
- MNLogic: `combinations_in_distribution` is a string of 0/1 (or a list of them), cut into vectors
  of n_digits bits.
- Kand-Logic: primitives are objects numbered figure by figure; `symbols` name the (shape, colour)
  of each primitive of one figure, `logic` holds for each figure, and `aggregator_logic` combines
  the figures' truth values (`aggregator_symbols`). `combinations_in_distribution` lists
  "colour, shape" primitives, n_shapes * n_figures per concept vector, flat or nested as rsbench's
  example (vectors of figures of primitives).
- CLEVR / CLE4EVR: `symbols` are `<attribute>_<object>` with attributes color, shape, material and
  size (the generator samples all four for every object); the objects are those the symbols number.
  Domains default to the generator's properties.json (colors red, blue; shapes cube, star, toroid;
  materials rubber, metal; sizes large, medium, small), overridable by `colors`, `shapes`,
  `materials`, `sizes`; `combinations_in_distribution` holds scenes of "color shape material size"
  strings, one per object (flat or nested).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Sequence
from typing import Any

from ..errors import TaskError, quote
from ..limits import CONCEPTS
from ..task.expectations import parse_expect
from ..task.expressions import parse, substitute, var
from ..task.families import family
from ..task.model import Concept, Objects, Task, make_concept
from ..task.support import Support

# Fields that shape the data generation only (images, splits, sizes): accepted, not used by the count.
GENERATION = {
    "val_prop",
    "test_prop",
    "ood_prop",
    "prop_in_distribution",
    "n_samples",
    "sample_size",
    "use_mnist",
    "mnist_path",
    "seed",
    "output_path",
}
KINDS = {
    "mnlogic": {"n_digits", "xor_rule", "symbols", "logic", "combinations_in_distribution"},
    "mnmath": {"num_digits", "digit_values", "symbols", "logic", "combinations_in_distribution"},
    "kandlogic": {
        "n_shapes",
        "n_figures",
        "colors",
        "shapes",
        "symbols",
        "logic",
        "aggregator_symbols",
        "aggregator_logic",
        "combinations_in_distribution",
    },
    "clevr": {"symbols", "logic", "colors", "shapes", "materials", "sizes", "combinations_in_distribution"},
}
RSCOUNT = {"expect"}  # rscount's own fields a config may carry: its pins, judged by check and report
WHERE = "combinations_in_distribution"
MARKERS = {"mnlogic": "n_digits", "mnmath": "num_digits", "kandlogic": "n_shapes"}
TASK_KEYS = {"concepts", "objects", "labels"}  # an rscount task file has one of these
# The CLEVR generator's own domains (its clevr_config/properties.json), per attribute in symbol order.
CLEVR_DOMAINS = {
    "color": ("colors", ["red", "blue"]),
    "shape": ("shapes", ["cube", "star", "toroid"]),
    "material": ("materials", ["rubber", "metal"]),
    "size": ("sizes", ["large", "medium", "small"]),
}


def is_generator_config(data: Any) -> bool:
    """Whether parsed YAML is an rsbench generator config rather than an rscount task file."""
    if not isinstance(data, dict) or TASK_KEYS & set(data):
        return False
    return any(m in data for m in MARKERS.values()) or {"symbols", "logic"} <= set(data)


def task_from_config(data: dict[str, Any], name: str) -> Task:
    """The task an rsbench generator config describes."""
    kind = next((k for k, marker in MARKERS.items() if marker in data), "clevr")
    unknown = sorted(set(data) - KINDS[kind] - GENERATION - RSCOUNT)
    if unknown:
        known = sorted(KINDS[kind] | GENERATION | RSCOUNT)
        near = difflib.get_close_matches(str(unknown[0]), known, n=1)
        hint = f" (did you mean {quote(near[0])}?)" if near else ""
        raise TaskError("", f"unknown field {quote(unknown[0])} for an rsbench {kind} config{hint}")
    readers = {"mnlogic": _mnlogic, "mnmath": _mnmath, "kandlogic": _kandlogic, "clevr": _clevr}
    task = readers[kind](data, name)
    notes = list(task.notes)
    unused = sorted(set(data) & GENERATION)
    if unused:
        notes.append(f"not used by the count (data generation only): {', '.join(unused)}")
    if WHERE not in data:
        notes.append(
            f"no {WHERE}: the support is every concept vector, as the generator draws from all of them "
            "(a sample of them: rscount count --examples N or --fraction F)"
        )
    return dataclasses.replace(task, notes=tuple(notes), expect=parse_expect(data.get("expect")))


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TaskError(key, f"expected a positive integer, got {quote(value)}")
    return value


def _symbols(data: dict[str, Any], count: int, key: str = "symbols") -> list[str]:
    symbols = data.get(key)
    if not isinstance(symbols, list) or len(symbols) != count:
        raise TaskError(key, f"expected a list of {count} names, got {quote(symbols)}")
    names = [make_concept(s, [0, 1], key).name for s in symbols]
    if len(set(names)) != len(names):
        raise TaskError(key, f"names are not distinct: {quote(names)}")
    return names


def _digit_rows(spec: Any, width: int, where: str) -> list[list[int]]:
    """A string of digits (or a list of strings) cut into rows of `width` digits."""
    pieces = spec if isinstance(spec, list) else [spec]
    text = (
        "".join(p for p in pieces if isinstance(p, str)) if all(isinstance(p, str) for p in pieces) else None
    )
    if not isinstance(text, str) or not text.isdigit() or len(text) % width:
        raise TaskError(where, f"expected digits in groups of {width}, got {quote(spec)}")
    return [[int(ch) for ch in text[i : i + width]] for i in range(0, len(text), width)]


def _support(concepts: Sequence[Concept], rows: list[Any] | None) -> Support:
    return Support([c.name for c in concepts], [c.values for c in concepts], rows, (), WHERE)


def _mnlogic(data: dict[str, Any], name: str) -> Task:
    n = _int(data, "n_digits")
    xor_rule = data.get("xor_rule", True)
    names = _symbols(data, n) if "symbols" in data or not xor_rule else _letters(n)
    concepts = tuple(Concept(s, (0, 1)) for s in names)
    label = family("xor", names) if xor_rule else parse(data.get("logic"), names, (), "logic")
    rows = data.get("combinations_in_distribution")
    support = _support(
        concepts, None if rows is None else _digit_rows(rows, n, "combinations_in_distribution")
    )
    return Task(name, concepts, {"y": label}, support, description="rsbench MNLogic generator config")


def _mnmath(data: dict[str, Any], name: str) -> Task:
    n = _int(data, "num_digits")
    symbols = _symbols(data, n)
    values = data.get("digit_values", list(range(10)))
    logic = data.get("logic")
    if isinstance(logic, str):
        logic = [logic]
    if not isinstance(logic, list) or not logic:
        raise TaskError("logic", "expected an equation or a list of equations")
    concepts = tuple(
        make_concept(f"{s}_{e}", values, "digit_values") for e in range(1, len(logic) + 1) for s in symbols
    )
    labels = {}
    for e, equation in enumerate(logic, start=1):
        expr = parse(equation, symbols, (), f"logic[{e - 1}]")
        labels[f"y{e}"] = substitute(expr, {s: var(f"{s}_{e}") for s in symbols})
    rows = data.get("combinations_in_distribution")
    if rows is not None:
        rows = _digit_rows(rows, n * len(logic), "combinations_in_distribution")
    return Task(
        name, concepts, labels, _support(concepts, rows), description="rsbench MNMath generator config"
    )


def _kandlogic(data: dict[str, Any], name: str) -> Task:
    n, figures = _int(data, "n_shapes"), _int(data, "n_figures")
    CONCEPTS.check(2 * n * figures, "n_shapes * n_figures")
    colours = make_concept("color", data.get("colors", ["red", "yellow", "blue"]), "colors").values
    shapes = make_concept("shape", data.get("shapes", ["square", "circle", "triangle"]), "shapes").values
    symbols = _symbols(data, 2 * n)  # shape, colour of each primitive of a figure
    objects = Objects(n * figures, (("shape", tuple(shapes)), ("color", tuple(colours))))
    concepts = objects.concepts()
    values = [*shapes, *colours]
    figure_logic = parse(data.get("logic"), symbols, values, "logic")
    aggregators = _symbols(data, figures, "aggregator_symbols")  # one per figure
    per_figure = {}
    for f, agg in enumerate(aggregators):
        rename = {}
        for p in range(n):
            obj = f * n + p + 1
            rename[symbols[2 * p]] = f"shape_{obj}"
            rename[symbols[2 * p + 1]] = f"color_{obj}"
        per_figure[agg] = substitute(figure_logic, {old: var(new) for old, new in rename.items()})
    aggregate = parse(data.get("aggregator_logic"), aggregators, (), "aggregator_logic")
    label = substitute(aggregate, per_figure)
    rows = data.get("combinations_in_distribution")
    if rows is not None:
        rows = _primitive_rows(rows, n * figures)
    support = _support(concepts, rows)
    return Task(
        name, concepts, {"y": label}, support, description="rsbench Kand-Logic config", objects=objects
    )


def _letters(n: int) -> list[str]:
    """The names rsbench's MNLogic generator gives the digits under xor_rule: a, b, ..., z, aa, ab, ..."""
    names = []
    for i in range(n):
        name, q = "", i + 1
        while q:
            q, r = divmod(q - 1, 26)
            name = chr(ord("a") + r) + name
        names.append(name)
    return names


def _items(spec: Any, per_row: int, shape: str) -> list[list[str]]:
    """`combinations_in_distribution` as rows of `per_row` strings: a flat list, or nested lists
    (vectors of figures of items, as rsbench's examples write them)."""
    if not isinstance(spec, list):
        raise TaskError(WHERE, f"expected a list of {shape!r} items, {per_row} per vector")
    flat: list[Any] = []
    stack: list[Any] = [iter(spec)]
    while stack:
        item = next(stack[-1], stack)
        if item is stack:
            stack.pop()
        elif isinstance(item, list):
            if len(stack) > 4:
                raise TaskError(WHERE, "lists nested more than four deep")
            stack.append(iter(item))
        else:
            flat.append(item)
    if not flat or len(flat) % per_row:
        raise TaskError(WHERE, f"expected {shape!r} items, {per_row} per vector, got {len(flat)}")
    return [[str(x) for x in flat[i : i + per_row]] for i in range(0, len(flat), per_row)]


def _primitive_rows(spec: Any, per_row: int) -> list[list[str]]:
    rows = []
    for items in _items(spec, per_row, "colour, shape"):
        row: list[str] = []
        for item in items:
            parts = [p.strip() for p in item.split(",")]
            if len(parts) != 2:
                raise TaskError(WHERE, f"{quote(item)} is not 'colour, shape'")
            colour, shape = parts
            row += [shape, colour]
        rows.append(row)
    return rows


def _clevr(data: dict[str, Any], name: str) -> Task:
    symbols = data.get("symbols")
    if not isinstance(symbols, list) or not symbols:
        raise TaskError("symbols", f"expected a list of <attribute>_<object> names, got {quote(symbols)}")
    count = 0
    for symbol in symbols:
        found = re.fullmatch(r"(color|shape|material|size)_([1-9][0-9]{0,3})", str(symbol))
        if not found:
            expected = "<attribute>_<object> (color, shape, material, size)"
            raise TaskError("symbols", f"{quote(symbol)} is not {expected}")
        count = max(count, int(found.group(2)))
    CONCEPTS.check(4 * count, "objects * 4 attributes")
    attributes = []
    for attribute, (key, default) in CLEVR_DOMAINS.items():
        attributes.append((attribute, make_concept(attribute, data.get(key, default), key).values))
    objects = Objects(count, tuple(attributes))
    concepts = objects.concepts()
    values = [v for _, domain in attributes for v in domain]
    label = parse(data.get("logic"), [c.name for c in concepts], values, "logic")
    rows = data.get(WHERE)
    if rows is not None:
        rows = [
            [word for item in scene for word in _clevr_object(item)]
            for scene in _items(rows, count, "color shape material size")
        ]
    notes = [
        "domains: "
        + "; ".join(
            f"{a} {', '.join(map(str, d))}" + ("" if CLEVR_DOMAINS[a][0] in data else " (the generator's)")
            for a, d in attributes
        )
    ]
    return Task(
        name,
        concepts,
        {"y": label},
        _support(concepts, rows),
        description="rsbench CLEVR / CLE4EVR generator config",
        objects=objects,
        notes=tuple(notes),
    )


def _clevr_object(item: str) -> list[str]:
    words = re.findall(r"[^\s,]+", item)
    if len(words) != 4:
        raise TaskError(WHERE, f"{quote(item)} is not 'color shape material size'")
    return words
