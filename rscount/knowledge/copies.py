"""Several independent copies of the concepts in one CNF, so that a SAT solver can answer questions
about the knowledge: can vectors in some relation get different labels, does a swap of concepts
ever change them, is some concept vector left without a label."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pysat.solvers import Solver

from .. import sat
from ..task.expressions import Expr
from ..task.model import Concept
from .circuit import FALSE, CNFBuilder, Dom, GateAlgebra, compile_expr, exactly_one


def one_hot_inputs(
    alg: GateAlgebra, concepts: Iterable[Concept], new_var: Callable[[], Any]
) -> tuple[dict[str, Dom], list[list[Any]]]:
    """Fresh inputs per concept (one variable if it has two values, else one per value) and,
    for the latter, the indicator lists that must be exactly-one."""
    inputs: dict[str, Dom] = {}
    groups = []
    for c in concepts:
        if len(c.values) == 2:
            x = new_var()
            inputs[c.name] = {c.values[0]: alg.neg(x), c.values[1]: x}
        else:
            xs = [new_var() for _ in c.values]
            inputs[c.name] = dict(zip(c.values, xs))
            groups.append(xs)
    return inputs, groups


class Copies:
    """Several independent copies of the concepts in one CNF, to ask a SAT solver whether concept
    vectors in some relation can get different labels (or whatever `goal` says)."""

    def __init__(
        self, concepts: Sequence[Concept], labels: Mapping[str, Expr], field: str | None = None
    ) -> None:
        self.concepts = concepts
        self.label_exprs = labels
        self.field = field  # where errors in the expressions are (default: labels.<name>)
        self.builder = CNFBuilder()
        self.solver: Solver | None = None  # one incremental solver for every question asked
        self.fed = 0  # clauses of the builder it holds

    def copy(self) -> dict[str, Dom]:
        """Fresh inputs for one concept vector."""
        b = self.builder
        inputs, groups = one_hot_inputs(b, self.concepts, b.new_var)
        for xs in groups:
            b.clauses.extend(exactly_one(xs))
        return inputs

    def labels(self, inputs: dict[str, Dom]) -> list[Dom]:
        """The Dom of every label on a copy."""
        return [
            compile_expr(self.builder, e, inputs, self.field or f"labels.{n}")
            for n, e in self.label_exprs.items()
        ]

    def equal(self, a: Dom, b: Dom) -> int:
        """Gate: two Doms (of one value each) take the same value."""
        g = self.builder
        return g.or_(g.and_([a.get(v, FALSE), b.get(v, FALSE)]) for v in set(a) | set(b))

    def same_labels(self, a: list[Dom], b: list[Dom]) -> int:
        """Gate: every label agrees."""
        return self.builder.and_(self.equal(x, y) for x, y in zip(a, b))

    def witness(self, goal: int, *copies: dict[str, Dom]) -> list[tuple[Any, ...]] | None:
        """The concept vectors of `copies` in a model of `goal`, or None if `goal` is unsatisfiable
        (the clauses added since the last question are passed on, the goal is an assumption)."""
        if goal == FALSE:
            return None
        if self.solver is None:
            self.solver = sat.solver(sat.CHECK)
        solver, clauses = self.solver, self.builder.clauses
        solver.append_formula(clauses[self.fed :])
        self.fed = len(clauses)
        if not solver.solve(assumptions=[] if goal == -FALSE else [goal]):
            return None
        true = {lit for lit in solver.get_model() or [] if lit > 0}

        def holds(g: int) -> bool:
            return g in true if g > 0 else -g not in true

        return [
            tuple(next(v for v, g in inputs[c.name].items() if holds(g)) for c in self.concepts)
            for inputs in copies
        ]
