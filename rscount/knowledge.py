"""Knowledge bases: built-in families (XOR, AND, OR, random l-CNF) and CNF knowledge from DIMACS."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .errors import RscountError
from .expr import Expr, call, var


def boolean_names(n: int) -> list[str]:
    """Concept names c1..cn of the built-in Boolean families."""
    if n < 1:
        raise RscountError(f"need at least 1 concept (--bits or DIMACS variables), got {n}")
    return [f"c{i}" for i in range(1, n + 1)]


def family(kind: str, names: Sequence[str]) -> Expr:
    """y <-> xor / and / or of the concepts."""
    ops = {"xor": "Xor", "and": "And", "or": "Or"}
    args = [var(n) for n in names]
    return call(ops[kind], *args) if len(args) > 1 else args[0]


def cnf_expr(clauses: Sequence[Sequence[int]], names: Sequence[str], where: str) -> Expr:
    """The expression 'the CNF holds', variable i = concept i."""
    for clause in clauses:
        for lit in clause:
            if abs(lit) > len(names):
                raise RscountError(
                    f"{where}: variable {abs(lit)} has no concept (the task has {len(names)} concepts)"
                )

    def literal(lit: int) -> Expr:
        return var(names[lit - 1]) if lit > 0 else call("Not", var(names[-lit - 1]))

    return call("And", *(call("Or", *map(literal, c)) for c in clauses))


def random_cnf(n: int, m: int, length: int, seed: int) -> list[list[int]]:
    """A random l-CNF as in MNLogic: m clauses of `length` literals over n variables.

    No clause is a tautology (x and not x); the formula is resampled until it is satisfiable, so
    the label is not constant (a CNF of non-tautological clauses is never valid).
    """
    from pysat.solvers import Solver

    if m < 1 or length < 1:
        raise RscountError("random: --clauses and --length must be at least 1")
    if length > n:
        raise RscountError(f"random: --length {length} exceeds --bits {n}")
    rng = random.Random(seed)
    for _ in range(1000):
        clauses = []
        while len(clauses) < m:
            clause = [rng.choice((1, -1)) * rng.randint(1, n) for _ in range(length)]
            if not any(-lit in clause for lit in clause):
                clauses.append(clause)
        with Solver(name="cadical153", bootstrap_with=clauses) as solver:
            if solver.solve():
                return clauses
    raise RscountError(f"random: no satisfiable {length}-CNF with {m} clauses found for seed {seed}")
