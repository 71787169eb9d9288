"""The CNF a knowledge expression compiles to over one-hot concept values: for every input exactly
one model, whose result variable is the expression's value (the partitions, equalities and
at-most-one ladders the CNFBuilder states keep every auxiliary determined, so counting over all
variables counts inputs)."""

from __future__ import annotations

from itertools import product
from math import prod

from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from strategies.randomtasks import NAMES, SETTINGS, label_expr

from rscount.encoding.inputs import example_inputs
from rscount.knowledge.circuit import PAIRWISE, CNFBuilder, Dom, Shared, compile_expr
from rscount.task.expressions import evaluate, parse
from rscount.task.model import Concept


def models_per_input(text: str, sizes: list[int]) -> dict[tuple[int, ...], list[object]]:
    """Per input vector, the values whose result gate is true in each model of the CNF."""
    names = list(NAMES[: len(sizes)])
    concepts = [Concept(n, tuple(range(s))) for n, s in zip(names, sizes)]
    b = CNFBuilder()
    onehot = [[b.new_var() for _ in range(s)] for s in sizes]
    for lits in onehot:
        b.clauses.append(lits)
        b.at_most_one(lits)
    dom = compile_expr(b, parse(text, names), example_inputs(b, concepts, lambda j, u: onehot[j][u]), "test")
    found: dict[tuple[int, ...], list[object]] = {}
    with Solver(name="minisat22", bootstrap_with=b.clauses) as solver:
        for model in solver.enum_models():
            true = set(x for x in model if x > 0)
            vector = tuple(next(u for u, x in enumerate(lits) if x in true) for lits in onehot)
            found.setdefault(vector, []).extend(true_values(dom, true, b))
    return found


def check(text: str, sizes: list[int]) -> None:
    found = models_per_input(text, sizes)
    names = NAMES[: len(sizes)]
    for vector in product(*(range(s) for s in sizes)):
        value = evaluate(parse(text, list(names)), dict(zip(names, vector)))
        assert found.get(vector) == [value], (text, vector)


@settings(max_examples=80, **SETTINGS)
@given(
    st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3).flatmap(
        lambda sizes: st.tuples(st.just(sizes), label_expr(list(zip(NAMES, sizes))))
    )
)
def test_every_input_has_one_model_with_the_expressions_value(drawn):
    sizes, text = drawn
    check(text, sizes)


def test_results_with_more_values_than_pairwise_at_most_one_states_keep_one_model_per_input():
    assert PAIRWISE < 12 * 12
    check("a * 12 + b", [12, 12])
    check("(a * 12 + b) == (b * 12 + a)", [12, 12])


def test_orderings_of_wide_numbers_keep_one_model_per_input_with_the_comparisons_value():
    """Ladder-encoded <, <=, >, >= between results with many values, negative ones
    and values that only one side takes."""
    for op in ("<", "<=", ">", ">="):
        check(f"a * 12 - b {op} b * 7 - a * 3", [12, 12])
        check(f"a - 3 {op} (b - 7) * 2", [7, 5])
        check(f"a * a {op} b + 3", [6, 4])


def true_values(dom: Dom, true: set[int], b: CNFBuilder) -> list[object]:
    """The values whose gate a model (its true variables) makes true."""
    return [
        v
        for v, g in dom.items()
        if g == b.true or (g != b.false and (g in true if g > 0 else -g not in true))
    ]


@settings(max_examples=60, **SETTINGS)
@given(
    st.lists(st.sampled_from([2, 3]), min_size=1, max_size=3).flatmap(
        lambda sizes: st.tuples(
            st.just(sizes),
            label_expr(list(zip(NAMES, sizes))),
            st.lists(
                st.lists(st.integers(0, 1), min_size=len(sizes), max_size=len(sizes)), min_size=2, max_size=4
            ),
        )
    )
)
def test_rows_compiled_with_shared_gates_keep_one_model_per_input_and_each_rows_value(drawn):
    # each concept has two one-hot blocks; a row reads one of them per concept, so rows share some
    # inputs and not others, and a shared gate must serve exactly the rows with its inputs
    sizes, text, rows = drawn
    names = list(NAMES[: len(sizes)])
    concepts = [Concept(n, tuple(range(s))) for n, s in zip(names, sizes)]
    expr = parse(text, names)
    b = CNFBuilder()
    blocks = [[[b.new_var() for _ in range(s)] for _ in range(2)] for s in sizes]
    for pair in blocks:
        for lits in pair:
            b.clauses.append(lits)
            b.at_most_one(lits)
    shared = Shared()
    inputs = [example_inputs(b, concepts, lambda j, u, row=row: blocks[j][row[j]][u]) for row in rows]
    doms = [compile_expr(b, expr, read, "test", None, shared) for read in inputs]
    seen: set[tuple[tuple[int, int], ...]] = set()
    with Solver(name="minisat22", bootstrap_with=b.clauses) as solver:
        for model in solver.enum_models():
            true = {x for x in model if x > 0}
            vector = tuple(
                tuple(next(u for u, x in enumerate(lits) if x in true) for lits in pair) for pair in blocks
            )
            assert vector not in seen  # one model per input
            seen.add(vector)
            for row, dom in zip(rows, doms):
                value = evaluate(expr, {n: vector[j][row[j]] for j, n in enumerate(names)})
                assert true_values(dom, true, b) == [value], (text, row, vector)
    assert len(seen) == prod(s * s for s in sizes)
