"""rsbench generator configs (seed 004, appendix C) read as tasks: MNLogic, MNMath and Kand-Logic.

Keys that only shape the images or the split (use_mnist, prop_in_distribution, val_prop,
test_prop, ...) do not change the knowledge or the support and are ignored. The support is
`combinations_in_distribution` when given, else every concept vector. Choices the appendix leaves
open, taken here and documented in docs/tasks.md:
- MNMath: each equation of `logic` reads its own group of `num_digits` digits (the appendix
  example: concepts [[2, 2], [3, 4]] give labels [2*2 + 2, 3 + 4] = [6, 7]); concept `<symbol>_<e>`
  is the digit of symbol in equation e, label `y<e>` the value of equation e.
- MNLogic: `combinations_in_distribution` is a string of 0/1 (or a list of them), cut into vectors
  of n_digits bits.
- Kand-Logic: primitives are objects numbered figure by figure; `symbols` name the (shape, colour)
  of each primitive of one figure, `logic` holds for each figure, and `aggregator_logic` combines
  the figures' truth values (`aggregator_symbols`). `combinations_in_distribution` lists
  "colour, shape" primitives, n_shapes * n_figures per concept vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import TaskError, quote
from ..limits import CONCEPTS
from .expressions import parse, substitute, var
from .families import family
from .model import Concept, Objects, Task, make_concept
from .support import Support

IGNORED = {"use_mnist", "prop_in_distribution", "val_prop", "test_prop", "seed", "n_samples", "output_path"}
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
}
WHERE = "combinations_in_distribution"
MARKERS = {"mnlogic": "n_digits", "mnmath": "num_digits", "kandlogic": "n_shapes"}


def is_generator_config(data: Any) -> bool:
    """Whether parsed YAML is an rsbench generator config rather than an rscount task file."""
    return isinstance(data, dict) and "concepts" not in data and any(m in data for m in MARKERS.values())


def task_from_config(data: dict[str, Any], name: str) -> Task:
    """The task an rsbench generator config describes."""
    kind = next(k for k, marker in MARKERS.items() if marker in data)
    unknown = sorted(set(data) - KINDS[kind] - IGNORED)
    if unknown:
        raise TaskError("", f"unknown field {quote(unknown[0])} for an rsbench {kind} config")
    return {"mnlogic": _mnlogic, "mnmath": _mnmath, "kandlogic": _kandlogic}[kind](data, name)


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
    text = "".join(spec) if isinstance(spec, list) else spec
    if not isinstance(text, str) or not text.isdigit() or len(text) % width:
        raise TaskError(where, f"expected digits in groups of {width}, got {quote(spec)}")
    return [[int(ch) for ch in text[i : i + width]] for i in range(0, len(text), width)]


def _support(concepts: Sequence[Concept], rows: list[Any] | None) -> Support:
    return Support([c.name for c in concepts], [c.values for c in concepts], rows, (), WHERE)


def _mnlogic(data: dict[str, Any], name: str) -> Task:
    n = _int(data, "n_digits")
    names = _symbols(data, n)
    concepts = tuple(Concept(s, (0, 1)) for s in names)
    xor_rule = data.get("xor_rule", True)
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


def _primitive_rows(spec: Any, per_row: int) -> list[list[str]]:
    if not isinstance(spec, list) or len(spec) % per_row:
        raise TaskError(WHERE, f"expected 'colour, shape' items, {per_row} per vector")
    rows = []
    for start in range(0, len(spec), per_row):
        row: list[str] = []
        for item in spec[start : start + per_row]:
            parts = [p.strip() for p in str(item).split(",")]
            if len(parts) != 2:
                raise TaskError(WHERE, f"{quote(item)} is not 'colour, shape'")
            colour, shape = parts
            row += [shape, colour]
        rows.append(row)
    return rows
