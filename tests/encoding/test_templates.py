"""A label template stamped on fresh one-hot inputs has, as its models over those inputs, exactly the
concept vectors whose labels take the template's values (checked against evaluation on every vector,
values that are words, offset integers and mixed sizes), and two stamps into one builder do not
share auxiliaries."""

from __future__ import annotations

import itertools

import pytest

from rscount import sat
from rscount.encoding.templates import label_template
from rscount.knowledge.circuit import CNFBuilder, exactly_one
from rscount.knowledge.loading import task_from_dict

TASK = {
    "concepts": {"a": [3, 4, 5], "b": [-1, 1], "c": ["red", "green", "blue", "grey"]},
    "labels": {"sum": "a + b", "warm": "Eq(c, red) | (a > 4)"},
    "support": "exhaustive",
}


def stamped_models(template, concepts, copies: int) -> set[tuple[tuple, ...]]:
    """The models of the template stamped on `copies` fresh copies of the inputs, as tuples of
    concept vectors (by value), one per copy."""
    b = CNFBuilder()
    inputs = []
    for _ in range(copies):
        lits = [[b.new_var() for _ in c.values] for c in concepts]
        for group in lits:
            b.clauses.extend(exactly_one(group))
        template.stamp(b, [x for group in lits for x in group])
        inputs.append(lits)
    projection = [x for lits in inputs for group in lits for x in group]
    found = set()
    with sat.solver(sat.CHECK, b.clauses) as solver:
        for model in sat.projected_models(solver, projection, one_hot=True):
            found.add(
                tuple(
                    tuple(
                        c.values[next(u for u, x in enumerate(g) if model[x - 1] > 0)]
                        for c, g in zip(concepts, lits)
                    )
                    for lits in inputs
                )
            )
    return found


@pytest.mark.parametrize("labels", [["sum"], ["warm"], ["sum", "warm"]])
def test_a_template_holds_exactly_on_the_vectors_whose_labels_take_its_values(labels: list[str]) -> None:
    task = task_from_dict(TASK)
    chosen = [(n, task.labels[n]) for n in labels]
    positions = [list(task.labels).index(n) for n in labels]
    vectors = list(itertools.product(*(c.values for c in task.concepts)))
    outcomes = {tuple(task.label_of(v)[p] for p in positions) for v in vectors}
    for values in sorted(outcomes, key=repr):
        template = label_template(task.concepts, chosen, values)
        assert template is not None
        expected = {v for v in vectors if tuple(task.label_of(v)[p] for p in positions) == values}
        assert stamped_models(template, task.concepts, 1) == {(v,) for v in expected}, values


def test_labels_no_vector_gives_have_no_template() -> None:
    task = task_from_dict(TASK)
    assert label_template(task.concepts, [("sum", task.labels["sum"])], (99,)) is None


def test_two_stamps_constrain_their_own_inputs_only() -> None:
    task = task_from_dict(TASK)
    template = label_template(task.concepts, [("warm", task.labels["warm"])], (True,))
    assert template is not None
    vectors = itertools.product(*TASK["concepts"].values())
    warm = {(a, b, c) for a, b, c in vectors if c == "red" or a > 4}
    assert stamped_models(template, task.concepts, 2) == set(itertools.product(warm, warm))
