"""The CNF a knowledge expression compiles to over one-hot concept values: for every input exactly
one model, whose result variable is the expression's value (the partitions, equalities and
at-most-one ladders the CNFBuilder states keep every auxiliary determined, so counting over all
variables counts inputs)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from strategies.randomtasks import NAMES, SETTINGS, label_expr

from rscount.encoding.inputs import example_inputs
from rscount.knowledge.circuit import PAIRWISE, CNFBuilder, compile_expr
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
            values = [
                v
                for v, g in dom.items()
                if g == b.true or (g != b.false and (g in true if g > 0 else -g not in true))
            ]
            found.setdefault(vector, []).extend(values)
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
