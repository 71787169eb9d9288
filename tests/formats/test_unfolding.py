"""A program's query read by resolution over symbolic concepts (rscount.formats.programs.unfolding)
gives the concepts and, on every concept vector, the labels that grounding the program gives; where
a step depends on a concept's value, the program is grounded instead."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies.randomtasks import SETTINGS

from rscount.formats.programs import problog
from rscount.formats.programs.problog import read_problog
from rscount.formats.programs.program import Program
from rscount.task.affine import affine_form
from rscount.task.expressions import evaluate

PATH = Path("knowledge.pl")
NUMBER = """
number([], Result, Result).
number([H | T], Acc, Result) :- digit(H, Nr), Acc2 is Nr + {base} * Acc, number(T, Acc2, Result).
number(X, Y) :- number(X, 0, Y).
"""
UNFOLDED = "read by resolution"


def read(text: str, query: str | list[str], unfolding: bool = True) -> Program:
    if unfolding:
        return read_problog(PATH, text, query)
    with mock.patch.object(problog, "unfold", lambda *_: None):
        return read_problog(PATH, text, query)


def unfolded(program: Program) -> bool:
    return any(UNFOLDED in note for note in program.notes)


def assert_grounding_agrees(text: str, query: str | list[str]) -> None:
    """The program read with unfolding has the concepts and, on every vector, the labels of the
    program grounded."""
    got, grounded = read(text, query), read(text, query, unfolding=False)
    assert [(c.name, c.values) for c in got.concepts] == [(c.name, c.values) for c in grounded.concepts]
    assert got.reads == grounded.reads
    assert list(got.labels) == list(grounded.labels)
    names = [c.name for c in got.concepts]
    for row in product(*(c.values for c in got.concepts)):
        at = dict(zip(names, row))
        for label, expr in got.labels.items():
            assert evaluate(expr, at) == evaluate(grounded.labels[label], at), (label, row)


def test_deepproblog_multi_digit_addition_is_the_sum_of_the_numbers_place_by_place():
    program = "nn(mnist_net, [X], Y, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(X, Y).\n" + NUMBER.format(
        base=10
    )
    program += "multi_addition(X, Y, Z) :- number(X, X2), number(Y, Y2), Z is X2 + Y2.\n"
    read_as = read(program, "multi_addition([a1, a2, a3], [b1, b2, b3], Z)")
    assert unfolded(read_as)
    assert [c.name for c in read_as.concepts] == [
        "digit_a1",
        "digit_a2",
        "digit_a3",
        "digit_b1",
        "digit_b2",
        "digit_b3",
    ]
    assert read_as.reads[0] == ("digit", ("a1",))
    places = {"1": 100, "2": 10, "3": 1}
    form = {f"digit_{n}{p}": Fraction(w) for n in "ab" for p, w in places.items()}
    assert affine_form(read_as.labels["Z"]) == (Fraction(0), form)


@st.composite
def arithmetic_programs(draw):
    """A DeepProbLog-like program: classifiers over integer values (offset, negative), numbers read
    digit by digit in a base, or lists summed, combined by +, -, products and floor divisions by
    constants; one or two queries over inputs a0, a1, ..."""
    values = draw(st.lists(st.integers(-3, 12), min_size=2, max_size=3, unique=True))
    text = f"nn(net, [X], Y, {values}) :: digit(X, Y).\n"
    text += NUMBER.format(base=draw(st.integers(2, 10)))
    text += "total([], 0).\ntotal([H | T], S) :- digit(H, D), total(T, S0), S is S0 + D.\n"
    reader = draw(st.sampled_from(["number", "total"]))
    combine = draw(
        st.sampled_from(["A + B", "A - B", "3 * A - B", "(A + B) // 2", "(A - B) mod 3", "max(A, B)", "-A"])
    )
    text += f"task(X, Y, Z) :- {reader}(X, A), {reader}(Y, B), Z is {combine}.\n"
    sizes = draw(st.lists(st.integers(1, 2), min_size=2, max_size=2))
    inputs = iter(f"a{n}" for n in range(4))
    lists = [f"[{', '.join(next(inputs) for _ in range(k))}]" for k in sizes]
    queries = [f"task({lists[0]}, {lists[1]}, Z)"]
    if draw(st.booleans()):
        queries.append(f"{reader}({lists[0]}, W)")
    return text, queries


@settings(max_examples=25, **SETTINGS)
@given(arithmetic_programs())
def test_random_arithmetic_programs_read_by_resolution_label_every_vector_as_grounding_does(drawn):
    text, queries = drawn
    assert unfolded(read(text, queries))
    assert_grounding_agrees(text, queries)


ADDITION = "nn(net, [X], Y, [0, 1, 2]) :: digit(X, Y).\n"


@pytest.mark.parametrize(
    ("rules", "query"),
    [
        ("sum(X, Y, Z) :- digit(X, 2), digit(Y, B), Z is B.", "sum(a, b, Z)"),  # a value given: a test
        ("big(X, Z) :- digit(X, D), D > 0, Z = yes.\nbig(X, no).", "big(a, Z)"),  # a comparison
        ("pick(X, Y, Z) :- digit(X, Z).\npick(X, Y, Z) :- digit(Y, Z).", "pick(a, b, Z)"),  # two answers
        ("same(X, Y) :- digit(X, D), digit(Y, D).", "same(a, b)"),  # one concept's value tests another
        ("q(X, Y, Z) :- digit(X, A), digit(Y, B), Z is 6 // (B + 1) + A.", "q(a, b, Z)"),  # a division by one
        ("0.5 :: bonus.\nsum(X, Z) :- digit(X, A), bonus, Z is A + 1.", "sum(a, Z)"),  # a probabilistic fact
        ("s(X, Z) :- digit(X, A), length([A], N), Z is A + N.", "s(a, Z)"),  # a built-in not read
    ],
)
def test_a_step_that_depends_on_a_concepts_value_leaves_the_program_to_grounding(rules, query):
    text = ADDITION + rules + "\n"
    assert not unfolded(read(text, query))
    assert_grounding_agrees(text, query)


def test_evidence_leaves_the_program_to_grounding():
    text = ADDITION + "s(X, Z) :- digit(X, A), Z is A + 1.\nevidence(digit(a, 1), false).\n"
    assert not unfolded(read(text, "s(a, Z)"))
