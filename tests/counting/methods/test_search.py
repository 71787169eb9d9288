"""The search method (counting/methods/search/): permutations and value maps by depth-first search
with rows checked as they fill, against the independent brute force on random tasks (integers in and
out of position, words, mixed kinds, supervision, objects), and on the dense small programs other
methods stall on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_objects
from references.oracle import Truth
from strategies.mixedtasks import object_tasks, plain_tasks
from strategies.randomtasks import (
    SETTINGS,
    exhaustive_supervised_specs,
    offset_specs,
    specs,
    string_specs,
    symmetric_specs,
)

import rscount
from rscount.counting.engines import value_search


def search(task, mode: str | None = None) -> int:
    return rscount.count(task, "search", mode).count


@settings(max_examples=80, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs(), symmetric_specs(exhaustive=False)))
def test_search_counts_as_the_brute_force(spec):
    assert search(spec.task(), "disentangled") == spec.brute_force()


@settings(max_examples=30, **SETTINGS)
@given(exhaustive_supervised_specs())
def test_search_counts_exhaustive_supervised_tasks_as_the_brute_force(spec):
    assert search(spec.task(), "disentangled") == spec.brute_force()


@settings(max_examples=40, **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_search_counts_mixed_kinds_and_objects_as_the_brute_force(drawn):
    mode = "disentangled" if drawn.problem.objects is None else "objects"
    assert search(drawn.task(), mode) == Truth(drawn.problem).count


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(specs(), string_specs()))
def test_search_without_its_memo_counts_the_same(spec):
    expected = search(spec.task(), "disentangled")
    old = value_search.MEMO_ENTRIES
    value_search.MEMO_ENTRIES = 1  # at most one subtree remembered at a time
    try:
        assert search(spec.task(), "disentangled") == expected
    finally:
        value_search.MEMO_ENTRIES = old


def test_search_counts_objects_whose_support_and_knowledge_both_have_symmetries():
    # four objects, exhaustive support (any object can stand for any other) and two exchangeable pairs
    data = {
        "objects": {"count": 4, "attributes": {"d": [0, 1, 2]}},
        "labels": {"y": "Eq(d_1 + d_2, d_3 + d_4)"},
        "support": "exhaustive",
    }
    task = rscount.task_from_dict(data)
    rows = [tuple(r) for r in task.support.rows]
    expected = brute_force_objects(4, [[0, 1, 2]], lambda c: c[0] + c[1] == c[2] + c[3], rows, set())
    assert search(task, "objects") == expected


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(specs(), string_specs()), st.sampled_from(value_search.ORDERS))
def test_each_slot_order_alone_counts_the_same(spec, order):
    old = value_search.ORDERS
    value_search.ORDERS = (order,)
    try:
        assert search(spec.task(), "disentangled") == spec.brute_force()
    finally:
        value_search.ORDERS = old
