"""Labels read as conjunctions of two-concept tests: each test's concepts and the pairs of values on
which it holds, tabulated from its values (orderings of offset integers, words), the value on
which a disjunction splits, labels reading no concept left out; other labels are none."""

from __future__ import annotations

import pytest

from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.pairwise import pairwise_labels


def task(labels: dict, values: list | None = None) -> object:
    values = values or [3, -1, 7]
    return task_from_dict({"concepts": {n: values for n in "abc"}, "labels": labels, "support": "exhaustive"})


def test_a_conjunction_is_its_tests_each_tabulated_on_value_numbers():
    (label,) = pairwise_labels(task({"y": "(a < b) & (c != b)"}))
    assert label.value == 1
    less, differ = label.tests
    assert less.concepts == (0, 1) and less.holds == {(1, 0), (1, 2), (0, 2)}  # -1 < 3 < 7
    assert differ.concepts == (1, 2) and differ.holds == {
        (u, v) for u in range(3) for v in range(3) if u != v
    }


def test_a_disjunction_splits_where_it_fails_into_negated_tests():
    (label,) = pairwise_labels(task({"y": "Eq(a, b) | Eq(b, c)"}, ["x", "y"]))
    assert label.value == 0
    assert [t.holds for t in label.tests] == [{(0, 1), (1, 0)}] * 2


def test_labels_reading_no_concept_are_left_out_and_the_others_keep_their_numbers():
    labels = pairwise_labels(task({"k": "1", "y": "a != c"}))
    assert [(x.label, x.tests[0].concepts) for x in labels] == [(1, (0, 2))]


@pytest.mark.parametrize(
    "label", ["a + b", "(a != b) & (b != a + c)", "a != 3", "((a < b) & (b < c)) | Eq(a, c)"]
)
def test_other_labels_are_none(label):
    assert pairwise_labels(task({"y": label})) is None


def test_concepts_with_other_values_are_none():
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1], "c": [0, 1, 2]},
        "labels": {"y": "a != b"},
        "support": "exhaustive",
    }
    assert pairwise_labels(task_from_dict(data)) is None
