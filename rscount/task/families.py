"""Built-in task families: XOR, AND, OR and random l-CNF knowledge over Boolean concepts c1..cN (the
rsbench MNLogic family), and knowledge given as a DIMACS CNF (variable i is concept c<i>)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .. import sat
from ..cnf import Cnf
from ..errors import InvalidSetting, TaskError
from ..limits import CONCEPTS
from .expressions import Expr, call, var
from .model import Concept, Task
from .support import support_from_spec

FAMILIES = {"xor": "Xor", "and": "And", "or": "Or"}


def boolean_names(n: int) -> list[str]:
    """Concept names c1..cn of the built-in Boolean families."""
    if n < 1:
        raise InvalidSetting("bits", f"need at least 1 concept, got {n}")
    CONCEPTS.check(n, "bits")
    return [f"c{i}" for i in range(1, n + 1)]


def family(kind: str, names: Sequence[str]) -> Expr:
    """y <-> xor / and / or of the concepts."""
    args = [var(n) for n in names]
    return call(FAMILIES[kind], *args) if len(args) > 1 else args[0]


def cnf_expr(clauses: Sequence[Sequence[int]], names: Sequence[str], where: str) -> Expr:
    """The expression 'the CNF holds', variable i = concept i."""
    for clause in clauses:
        for lit in clause:
            if abs(lit) > len(names):
                raise TaskError(
                    where, f"variable {abs(lit)} has no concept (the task has {len(names)} concepts)"
                )

    def literal(lit: int) -> Expr:
        return var(names[lit - 1]) if lit > 0 else call("Not", var(names[-lit - 1]))

    return call("And", *(call("Or", *map(literal, c)) for c in clauses))


def random_cnf(n: int, m: int, length: int, seed: int) -> list[list[int]]:
    """A random l-CNF as in MNLogic: m clauses of `length` literals over n variables.

    No clause is a tautology (x and not x); the formula is resampled until it is satisfiable, so
    the label is not constant (a CNF of non-tautological clauses is never valid).
    """
    if m < 1:
        raise InvalidSetting("clauses", f"must be at least 1, not {m}")
    if length < 1:
        raise InvalidSetting("length", f"must be at least 1, not {length}")
    if length > n:
        raise InvalidSetting("length", f"{length} exceeds the {n} bits")
    rng = random.Random(seed)
    for _ in range(1000):
        clauses: list[list[int]] = []
        while len(clauses) < m:
            clause = [rng.choice((1, -1)) * rng.randint(1, n) for _ in range(length)]
            if not any(-lit in clause for lit in clause):
                clauses.append(clause)
        with sat.solver(sat.CHECK, clauses) as solver:
            if solver.solve():
                return clauses
    raise InvalidSetting("seed", f"no satisfiable {length}-CNF with {m} clauses found for seed {seed}")


def boolean_task(
    name: str, bits: int, label: Expr, support: Any = "exhaustive", supervision: Any = None
) -> Task:
    """A task over Boolean concepts c1..c<bits> with the one label `y` = `label`; support and
    supervision as task-file specs."""
    names = boolean_names(bits)
    concepts = tuple(Concept(n, (0, 1)) for n in names)
    built = support_from_spec(names, [c.values for c in concepts], support, supervision)
    return Task(name, concepts, {"y": label}, built)


def builtin_task(
    kind: str,
    bits: int,
    support: Any = "exhaustive",
    supervision: Any = None,
    clauses: Sequence[Sequence[int]] | None = None,
    name: str | None = None,
) -> Task:
    """The xor/and/or family over c1..c<bits>, or with `clauses` CNF knowledge (kind 'random' or
    'cnf'); named e.g. `xor3` unless `name` is given."""
    name = name or f"{kind}{bits}"
    if clauses is not None:
        return cnf_task(name, clauses, bits, support, supervision)
    return boolean_task(name, bits, family(kind, boolean_names(bits)), support, supervision)


def cnf_task(
    name: str,
    clauses: Sequence[Sequence[int]],
    bits: int,
    support: Any = "exhaustive",
    supervision: Any = None,
) -> Task:
    """Knowledge 'the CNF holds' over c1..c<bits> (variable i = concept c<i>)."""
    return boolean_task(name, bits, cnf_expr(clauses, boolean_names(bits), name), support, supervision)


def dimacs_task(name: str, cnf: Cnf, support: Any = "exhaustive", supervision: Any = None) -> Task:
    """Knowledge from a DIMACS CNF: one concept per declared variable."""
    return cnf_task(name, cnf.clauses, cnf.num_vars, support, supervision)
