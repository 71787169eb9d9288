"""A program's concepts as objects (`program:` with `mode: objects`): in DeepProbLog one network per
neural predicate classifies every input, which is what the objects mode counts (one value map per
attribute shared by all objects). Each input is an object, each predicate an attribute, and concept
`digit(a)` becomes `digit_1` (objects and attributes in the order grounding reaches them)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...errors import TaskError, quote
from ...task.expressions import Expr, call, var
from ...task.model import Concept, Objects, QueryAnswers
from .program import Program


@dataclass(frozen=True)
class ProgramObjects:
    """The objects a program's concepts form, and its labels and constraints over their concepts."""

    objects: Objects
    labels: dict[str, Expr]
    answers: tuple[QueryAnswers, ...]
    notes: tuple[str, ...]
    names: dict[
        str, str
    ]  # each concept's name in the program's own view -> its name as an object's attribute


def program_objects(program: Program) -> ProgramObjects:
    """The objects view of `program`; a TaskError when a concept is not one predicate applied to one
    input, an input lacks a predicate, or a predicate's values differ between inputs."""
    inputs: list[str] = []
    attributes: dict[str, tuple[Any, ...]] = {}
    place: dict[tuple[str, str], Concept] = {}
    for concept, reads in zip(program.concepts, program.reads):
        if reads is None or len(reads[1]) != 1:
            raise TaskError(
                "mode", f"objects mode: concept {concept.name} is not one predicate of one input, p(x, Value)"
            )
        predicate, (item,) = reads
        inputs += [item] if item not in inputs else []
        if attributes.setdefault(predicate, concept.values) != concept.values:
            raise TaskError(
                "mode", f"objects mode: {quote(predicate)} has different values for different inputs"
            )
        place[predicate, item] = concept
    names: dict[str, str] = {}
    for n, item in enumerate(inputs, 1):
        for predicate in attributes:
            if (predicate, item) not in place:
                raise TaskError("mode", f"objects mode: the queries never read {predicate}({item})")
            names[place[predicate, item].name] = f"{predicate}_{n}"
    objects = Objects(len(inputs), tuple(attributes.items()))
    renamed = _Renaming(names)
    labels = {label: renamed(e) for label, e in program.labels.items()}
    answers = tuple(
        replace(q, answers=tuple((values, renamed(holds)) for values, holds in q.answers))
        for q in program.answers
    )
    notes = tuple(f"object {n} is input {item}" for n, item in enumerate(inputs, 1))
    return ProgramObjects(objects, labels, answers, notes, names)


class _Renaming:
    """Concept references renamed throughout an expression DAG (shared nodes renamed once)."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.memo: dict[int, Expr] = {}

    def __call__(self, expr: Expr) -> Expr:
        if id(expr) not in self.memo:
            if expr.op == "var":
                self.memo[id(expr)] = var(self.names.get(expr.args[0], expr.args[0]))
            elif expr.op == "const":
                self.memo[id(expr)] = expr
            else:
                self.memo[id(expr)] = call(
                    expr.op, *(self(a) if isinstance(a, Expr) else a for a in expr.args)
                )
        return self.memo[id(expr)]
