"""Affine forms of concepts: the form read off an expression computes what the expression does, and
the values it takes over integer domains are those a listing of every vector finds; a label that is
such a form over a space too large to list gets its values without a SAT call per value."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from rscount.knowledge.labels import label_values
from rscount.knowledge.loading import task_from_dict
from rscount.task.affine import affine_form, affine_values
from rscount.task.expressions import evaluate, parse

DOMAINS = st.lists(st.lists(st.integers(-5, 9), min_size=1, max_size=4, unique=True), min_size=1, max_size=3)


@settings(deadline=None, max_examples=100)
@given(domains=DOMAINS, data=st.data())
def test_an_affine_forms_values_are_those_of_every_vector(domains, data):
    names = [f"c{i}" for i in range(len(domains))]
    terms = [f"({data.draw(st.integers(-4, 4))}) * {n}" for n in names]
    text = " + ".join([f"({data.draw(st.integers(-3, 3))})", *terms, f"{names[0]} - {names[-1]}"])
    expr = parse(text, names, [v for d in domains for v in d], "labels.y")
    form = affine_form(expr)
    assert form is not None
    every = {evaluate(expr, dict(zip(names, row))) for row in product(*domains)}
    assert affine_values(form, names, domains) == every


def test_an_expression_that_is_no_affine_form_is_said_to_be_none():
    for text in ("a * b", "a // 2", "Max(a, b)", "ITE(a > 0, a, b)"):
        assert affine_form(parse(text, ["a", "b"], [0, 1, 2], "labels.y")) is None, text


def test_a_sum_of_eight_digits_gets_its_values_without_listing_them():
    weights = [1000, 100, 10, 1] * 2
    data = {
        "objects": {"count": 8, "attributes": {"d": list(range(10))}},
        "labels": {"s": " + ".join(f"{w} * d_{n}" for n, w in enumerate(weights, 1))},
        "support": [[1, 2, 3, 4, 5, 6, 7, 8]],
    }
    assert label_values(task_from_dict(data))["s"] == tuple(range(19999))
