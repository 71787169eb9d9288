"""Concept values that are not their positions: words, and integers in any order (negative ones
too). Every backend, the closed forms and the joint count against the brute force, which works on
the values themselves (randomtasks.Spec.vector)."""

from __future__ import annotations

import contextlib
import pathlib
from itertools import product

import pytest
from hypothesis import event, given, settings
from references.bruteforce import brute_force_count, brute_force_objects
from strategies.randomtasks import SETTINGS, Spec, offset_specs, string_specs
from support import backend_count, examples

import rscount
from rscount.counting.budget import Unsuited
from rscount.counting.methods.closed_form.forms import closed_form, joint
from rscount.errors import TaskError
from rscount.knowledge.loading import task_from_dict

ENUMERATE_MAX = 5000


def defined(spec: Spec) -> bool:
    """Whether Python evaluates the labels on every concept vector; where it cannot (a modulo by
    zero, negative values reaching `a % (b + 1)`), rscount must refuse the task."""
    try:
        for vector in product(*spec.domains):
            spec.label(vector)
    except ZeroDivisionError:
        with pytest.raises(TaskError, match="undefined"):
            spec.task()
        event("labels undefined somewhere: refused")
        return False
    return True


def check_against_brute_force(spec: Spec) -> None:
    if not defined(spec):
        return
    task = spec.task()
    for vector in product(*spec.domains):
        assert task.label_of(vector) == spec.label(vector), vector
    expected = spec.brute_force()
    assert backend_count("sdd", task) == expected
    assert backend_count("decompose", task) == expected
    if expected <= ENUMERATE_MAX:
        assert backend_count("enumerate", task) == expected
    with contextlib.suppress(Unsuited):  # no closed form applies
        form = closed_form(task, "disentangled")
        assert form.count == expected, form.name
    assert rscount.count(task).count == expected


@settings(max_examples=examples(30), **SETTINGS)
@given(offset_specs(boolean=False, max_space=18))
def test_integer_values_out_of_position_count_as_the_brute_force(spec: Spec) -> None:
    check_against_brute_force(spec)


@settings(max_examples=30, **SETTINGS)
@given(offset_specs(boolean=False, max_rows=1, max_space=12))
def test_one_example_with_integer_values_out_of_position(spec: Spec) -> None:
    check_against_brute_force(spec)


@settings(max_examples=examples(30), **SETTINGS)
@given(string_specs())
def test_word_values_count_as_the_brute_force(spec: Spec) -> None:
    check_against_brute_force(spec)


@settings(max_examples=30, **SETTINGS)
@given(offset_specs(shape=(3, 2)))
def test_joint_count_with_integer_values_out_of_position(spec: Spec) -> None:
    if not defined(spec):
        return
    expected = spec.brute_force_joint()
    assert joint(spec.task()).count == expected
    assert backend_count("sdd", spec.task(), "joint") == expected


@settings(max_examples=30, **SETTINGS)
@given(string_specs(shape=(3, 2)))
def test_joint_count_with_word_values(spec: Spec) -> None:
    expected = spec.brute_force_joint()
    assert joint(spec.task()).count == expected
    assert backend_count("sdd", spec.task(), "joint") == expected


def make(concepts: dict, labels: dict, support, supervision=(), **extra):
    data = {"concepts": concepts, "labels": labels, "support": support}
    data["concept_supervision"] = [list(r) for r in supervision]
    data.update(extra)
    return task_from_dict(data, "t", pathlib.Path("."))


def test_a_colour_and_a_shape_named_by_words():
    domains = [["blue", "red", "green"], ["ball", "cube"]]
    rows = [("red", "cube"), ("blue", "ball"), ("green", "cube")]

    def label(c: tuple) -> int:
        return int(c[0] == "red") + int(c[1] == "cube")

    task = make({"colour": domains[0], "shape": domains[1]}, {"y": "Eq(colour, red) + Eq(shape, cube)"},
                [list(r) for r in rows], supervision=[("blue", "ball")])  # fmt: skip
    expected = brute_force_count(domains, label, rows, {("blue", "ball")})
    # (blue, ball) supervised: the identity with green sent to green or blue, or the two concepts
    # swapped (red -> cube, blue -> ball, green -> ball; shape: ball -> blue, cube -> red)
    assert expected == 3
    for method in ("sdd", "decompose", "enumerate"):
        assert rscount.count(task, method).count == expected, method


def test_reversed_boolean_domains_are_values_not_positions():
    domains = [[1, 0], [1, 0], [0, 1]]
    rows = [(1, 0, 1), (0, 0, 0)]
    task = make(dict(zip("abc", domains)), {"y": "a & ~b | c"}, [list(r) for r in rows])
    expected = brute_force_count(domains, lambda c: int(c[0] and not c[1] or c[2]), rows, set())
    for method in ("sdd", "decompose", "enumerate"):
        assert rscount.count(task, method).count == expected, method


def test_objects_with_word_attributes_count_as_the_brute_force():
    colours = ["green", "red", "blue"]
    rows = [("red", "red"), ("red", "green"), ("blue", "blue")]
    data = {
        "objects": {"count": 2, "attributes": {"colour": colours}},
        "labels": {"same": "colour_1 == colour_2"},
        "support": [list(r) for r in rows],
    }
    task = task_from_dict(data, "t", pathlib.Path("."))
    expected = brute_force_objects(2, [colours], lambda c: int(c[0] == c[1]), rows, set())
    assert rscount.count(task).count == expected
    assert rscount.count(task, "sdd").count == expected
