"""The task model: ordered finite-domain concepts, labels computed by knowledge, a training support."""

from __future__ import annotations

import keyword
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .circuit import CNFBuilder, compile_expr, normalise
from .errors import RscountError
from .expr import OPS, Expr, evaluate, free_names
from .support import Support

MODE_NAMES = ("disentangled", "joint", "objects")


@dataclass(frozen=True)
class Concept:
    """A ground-truth concept: a name and its ordered, distinct values (0/1 for Booleans)."""

    name: str
    values: tuple

    @cached_property
    def index(self) -> dict[Any, int]:
        """Position of each value in the domain."""
        return {v: i for i, v in enumerate(self.values)}


def make_concept(name: Any, values: Any, where: str = "concepts") -> Concept:
    """Validate a concept name and domain (identifier, not an operator name, >= 1 distinct value)."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name in OPS:
        raise RscountError(f"{where}: concept name {name!r} is not a usable identifier")
    if not isinstance(values, list | tuple) or not values:
        raise RscountError(f"{where}.{name}: expected a non-empty list of values")
    vals = tuple(normalise(v) for v in values)
    for v in vals:
        if not isinstance(v, int | str):
            raise RscountError(f"{where}.{name}: value {v!r} is not an integer or a string")
    if len(set(vals)) != len(vals):
        raise RscountError(f"{where}.{name}: values are not distinct")
    return Concept(name, vals)


@dataclass(frozen=True)
class Objects:
    """Several objects with the same attributes: concept `<attribute>_<object>` (objects from 1),
    object by object, each object's attributes in the order given."""

    count: int
    attributes: tuple[tuple[str, tuple], ...]

    def concepts(self) -> tuple[Concept, ...]:
        """The concepts of all objects, object-major."""
        return tuple(
            Concept(f"{name}_{n}", values)
            for n in range(1, self.count + 1)
            for name, values in self.attributes
        )


@dataclass
class Task:
    """A learning task: concepts, knowledge (label name -> expression) and training support."""

    name: str
    concepts: tuple[Concept, ...]
    labels: dict[str, Expr]
    support: Support
    description: str = ""
    objects: Objects | None = None
    mode: str = "disentangled"  # the counting mode the task file asks for (--mode overrides it)
    expect: dict[str, int] = field(default_factory=dict)  # expectations on the count (`expect:`)
    label_values: dict[str, tuple] = field(init=False, repr=False)  # values each label can take

    def __post_init__(self) -> None:
        names = [c.name for c in self.concepts]
        if len(set(names)) != len(names):
            raise RscountError(f"{self.name}: concept names are not distinct")
        if not self.labels:
            raise RscountError(f"{self.name}: the task has no labels")
        for label, expr in self.labels.items():
            unknown = free_names(expr) - set(names)
            if unknown:
                raise RscountError(f"labels.{label}: unknown concept {sorted(unknown)[0]!r}")
        self._check_knowledge()

    def _check_knowledge(self) -> None:
        """Compile every label once over the full domains: type errors (a logical operator on a
        digit, a comparison of a string with a number, a possible division by zero) surface here,
        and the values each label can take are recorded."""
        scratch = CNFBuilder()
        inputs = {c.name: {v: scratch.new_var() for v in c.values} for c in self.concepts}
        self.label_values = {
            label: tuple(compile_expr(scratch, expr, inputs, f"labels.{label}"))
            for label, expr in self.labels.items()
        }

    @property
    def names(self) -> list[str]:
        """Concept names in order."""
        return [c.name for c in self.concepts]

    def label_of(self, row: Sequence[Any]) -> tuple:
        """The label values the knowledge gives to one concept vector."""
        assignment: Mapping[str, Any] = dict(zip(self.names, row))
        return tuple(normalise(evaluate(e, assignment)) for e in self.labels.values())
