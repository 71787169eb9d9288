"""A table label compiled through its decision diagram (rscount.knowledge.diagrams): for every input
exactly one model of the CNF, whose result gate is the table's value, on tables of words and offset
integers over domains of mixed sizes; the diagram is taken only where it is smaller than the table."""

from __future__ import annotations

import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from strategies.randomtasks import SETTINGS
from test_circuit import true_values

from rscount.encoding.inputs import example_inputs
from rscount.knowledge.circuit import CNFBuilder, at_most_one_clauses, compile_expr
from rscount.knowledge.diagrams import diagram, lookup_dom
from rscount.task.expressions import Expr, LookupTable
from rscount.task.functions import lookup
from rscount.task.model import Concept

VALUES = [["a", "b"], [3, 4, 5], [-1, 0, 1, 2], ["x", "y", "z", 7, 8]]


def one_model_per_input(expr: Expr, concepts: list[Concept], table: dict) -> None:
    """Every input vector has exactly one model, whose result gate is the table's value."""
    b = CNFBuilder()
    onehot = [[b.new_var() for _ in c.values] for c in concepts]
    for lits in onehot:
        b.clauses.append(lits)
        b.at_most_one(lits)
    dom = compile_expr(b, expr, example_inputs(b, concepts, lambda j, u: onehot[j][u]), "test")
    seen = set()
    with Solver(name="minisat22", bootstrap_with=b.clauses) as solver:
        for model in solver.enum_models():
            true = {x for x in model if x > 0}
            row = tuple(
                c.values[next(u for u, x in enumerate(lits) if x in true)]
                for c, lits in zip(concepts, onehot)
            )
            assert row not in seen
            seen.add(row)
            assert true_values(dom, true, b) == [table[row]], row
    assert len(seen) == len(table)


@st.composite
def tables(draw):
    """Concepts over VALUES' domains, and a table of every vector: a random one, or one with the
    structure of a program's answer (whether some concept shows a value, a count of values shown,
    a value read from a position)."""
    domains = draw(st.lists(st.sampled_from(VALUES), min_size=1, max_size=4))
    concepts = [Concept(f"c{n}", tuple(d)) for n, d in enumerate(domains)]
    rows = list(product(*domains))
    kind = draw(st.sampled_from(["random", "shows", "count", "position"]))
    if kind == "random":
        outputs = draw(st.lists(st.sampled_from(["p", "q", 10, 11]), min_size=len(rows), max_size=len(rows)))
        table = dict(zip(rows, outputs))
    elif kind == "shows":
        shown = draw(st.sampled_from([v for d in domains for v in d]))
        table = {r: int(shown in r) for r in rows}
    elif kind == "count":
        table = {r: sum(v in (1, "a", "x", 4) for v in r) for r in rows}
    else:
        at = draw(st.integers(0, len(domains) - 1))
        table = {r: f"is {r[at]}" for r in rows}
    return concepts, table


@settings(max_examples=60, **SETTINGS)
@given(tables())
def test_a_table_through_its_diagram_keeps_one_model_per_input_with_the_tables_value(drawn):
    concepts, table = drawn
    expr = lookup([c.name for c in concepts], [c.values for c in concepts], table)
    one_model_per_input(expr, concepts, table)


def test_a_membership_table_takes_its_diagram_and_a_random_one_is_tabulated():
    concepts = [Concept(f"d{n}", tuple(range(10))) for n in range(4)]
    rows = list(product(range(10), repeat=4))
    member = LookupTable({r: int(3 in r) for r in rows}, [c.values for c in concepts])
    found = diagram(member, at_most_one_clauses)
    assert found is not None and [len(level) for level in found.levels] == [1, 2, 2, 2]
    inputs = [{v: v + 1 for v in range(10)}] * 4
    assert lookup_dom(CNFBuilder(), inputs, member, at_most_one_clauses) is not None
    rng = random.Random(1)
    scrambled = LookupTable({r: rng.randrange(7) for r in rows}, [c.values for c in concepts])
    assert lookup_dom(CNFBuilder(), inputs, scrambled, at_most_one_clauses) is None
