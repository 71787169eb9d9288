"""Every optimal map listed from the search method's counts with values pinned (insight/maps.py's
searched_maps) against the brute force: concepts of mixed kinds (words, offset integers, Booleans),
mixed sizes, supervision, objects, and knowledge symmetric in its concepts (classes with many
members, moved over their class)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_maps
from references.oracle import Truth
from strategies.mixedtasks import Drawn, object_tasks, plain_tasks
from strategies.randomtasks import SETTINGS, Spec, symmetric_specs

from rscount.counting.budget import TooManyNodes
from rscount.counting.dispatch import count_task
from rscount.counting.settings import CountSettings, Method
from rscount.insight.maps import ConceptMap, searched_maps
from rscount.knowledge.loading import task_from_dict
from rscount.task.model import Mode


def as_values(m: ConceptMap, domains) -> tuple:
    """A map as the brute force writes it: pi and, per concept, the values its values become."""
    return m.pi, tuple(tuple(domains[m.pi[i]][u] for u in images) for i, images in enumerate(m.f))


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_searched_maps_are_the_brute_force_maps_each_once(drawn: Drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    listed = [as_values(m, drawn.problem.domains) for m in searched_maps(drawn.task(), mode, 10**7)]
    assert len(listed) == len(set(listed))
    assert set(listed) == set(Truth(drawn.problem).maps)


@pytest.mark.parametrize("method", [Method.DECOMPOSE, Method.SEARCH])
@settings(max_examples=30, **SETTINGS)
@given(drawn=st.one_of(plain_tasks(), object_tasks()))
def test_classes_a_count_keeps_list_the_brute_force_maps(method: Method, drawn: Drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    task = drawn.task()
    result = count_task(task, CountSettings(method=method, mode=mode))
    assert result.classes is not None
    listed = [as_values(m, drawn.problem.domains) for m in searched_maps(task, mode, 10**7, result.classes)]
    assert len(listed) == len(set(listed)) == result.count
    assert set(listed) == set(Truth(drawn.problem).maps)


@settings(max_examples=25, **SETTINGS)
@given(symmetric_specs(exhaustive=False))
def test_searched_maps_of_symmetric_knowledge_walk_each_class_whole(spec: Spec):
    task = spec.task()
    listed = [as_values(m, spec.domains) for m in searched_maps(task, Mode.DISENTANGLED, 10**7)]
    expected = brute_force_maps(spec.domains, spec.label, list(task.support.rows), set(spec.supervised))
    assert len(listed) == len(set(listed))
    assert set(listed) == set(expected)


def test_searched_maps_stop_at_their_node_budget():
    task = task_from_dict(
        {
            "concepts": {c: list(range(4)) for c in "abc"},
            "labels": {"y": "a + b + c"},
            "support": "exhaustive",
        }
    )
    with pytest.raises(TooManyNodes):
        searched_maps(task, Mode.DISENTANGLED, 5)


@pytest.mark.parametrize("values", [list(range(3)), ["ant", "bee", "cat"], [3, 5, 7]])
def test_classes_of_one_value_keeping_map_each_are_listed_without_searching(values):
    """Knowledge that sees only which values occur (each a label) leaves the position permutations,
    one map each that keeps every value: listed from the count's classes within one search node,
    as the brute force lists them."""
    labels = {f"has_{n}": " or ".join(f"{c} == {v!r}" for c in "abc") for n, v in enumerate(values)}
    task = task_from_dict({"concepts": {c: values for c in "abc"}, "labels": labels, "support": "exhaustive"})
    result = count_task(task, CountSettings(method=Method.SEARCH, mode=Mode.DISENTANGLED))
    assert result.count == 6 and result.classes is not None
    listed = [as_values(m, [values] * 3) for m in searched_maps(task, Mode.DISENTANGLED, 1, result.classes)]
    rows = list(task.support.rows)
    expected = brute_force_maps([values] * 3, lambda r: tuple(v in r for v in values), rows, set())
    assert sorted(listed, key=repr) == sorted(expected, key=repr)
