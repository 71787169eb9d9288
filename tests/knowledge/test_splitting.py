"""Labels split by the value a row gives them (rscount.knowledge.splitting): the parts hold exactly
where the label takes its splitting value, on random connectives over words, offset integers and
bits; the split task keeps exactly the rows where every split label takes it."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.splitting import parts, split_task
from rscount.task.expressions import Expr, call, const, evaluate, var

DOMAINS = {"a": (0, 1), "b": (0, 1), "d": (7, 8, 9), "w": ("red", "blue")}
ATOMS = [
    var("a"),
    var("b"),
    call("Eq", var("d"), const(8)),
    call("Ne", var("w"), const("red")),
    call("Lt", var("d"), const(9)),
]


def _formulas(depth: int) -> st.SearchStrategy[Expr]:
    if depth == 0:
        return st.sampled_from(ATOMS)
    sub = _formulas(depth - 1)
    return (
        st.sampled_from(ATOMS)
        | st.builds(lambda xs: call("And", *xs), st.lists(sub, min_size=2, max_size=3))
        | st.builds(lambda xs: call("Or", *xs), st.lists(sub, min_size=2, max_size=3))
        | st.builds(lambda x: call("Not", x), sub)
        | st.builds(lambda x, y: call("Implies", x, y), sub, sub)
    )


def _assignments():
    for values in itertools.product(*DOMAINS.values()):
        yield dict(zip(DOMAINS, values))


@settings(max_examples=200, deadline=None)
@given(_formulas(3), st.sampled_from([0, 1]))
def test_the_parts_all_hold_exactly_where_the_formula_takes_the_value(formula, value):
    split = parts(formula, value)
    for assignment in _assignments():
        holds = all(evaluate(p, assignment) == 1 for p in split)
        assert holds == (evaluate(formula, assignment) == value)


def test_a_sudoku_like_task_keeps_its_valid_rows_with_one_label_per_inequality():
    cells = {f"c{k}": [1, 2] for k in range(4)}
    pairs = [("c0", "c1"), ("c2", "c3"), ("c0", "c2"), ("c1", "c3")]
    rows = [[1, 2, 2, 1], [2, 1, 1, 2], [1, 1, 2, 2], [1, 2, 1, 2]]
    task = task_from_dict(
        {
            "concepts": cells,
            "labels": {"valid": " & ".join(f"({a} != {b})" for a, b in pairs), "first": "c0 == 1"},
            "support": rows,
        }
    )
    split = split_task(task)
    assert split is not None
    assert [list(r) for r in split.support.rows] == rows[:2]
    assert set(split.labels) == {f"valid#{k}" for k in range(4)}  # `first` reads one concept: no parts


@pytest.mark.parametrize(
    "label",
    [
        "a ^ b",  # no connective that splits
        "(a & b) | (~a & ~b)",  # false: each disjunct false, but each reads both concepts
    ],
)
def test_a_task_whose_labels_have_no_smaller_parts_has_no_split_task(label):
    concepts = {"a": [0, 1], "b": [0, 1]}
    task = task_from_dict({"concepts": concepts, "labels": {"y": label}, "support": "exhaustive"})
    assert split_task(task) is None
