"""The kinds of optimal maps and explain's summary, from the classes a count kept (decompose's and
the search's), against the brute force's maps, on random tasks of mixed kinds and sizes and on
knowledge symmetric in its concepts."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_maps
from references.oracle import Truth
from strategies.mixedtasks import Drawn, object_tasks, plain_tasks, predicting_tasks
from strategies.randomtasks import SETTINGS, Spec, symmetric_specs

from rscount.counting.dispatch import count_task
from rscount.counting.settings import CountSettings, Method
from rscount.insight.kinds import class_summary, kinds
from rscount.task.model import Mode


@pytest.mark.parametrize("method", [Method.DECOMPOSE, Method.SEARCH])
@settings(max_examples=30, **SETTINGS)
@given(drawn=st.one_of(plain_tasks(), object_tasks()))
def test_kinds_from_the_classes_a_count_kept_are_the_brute_force_kinds(method: Method, drawn: Drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    task = drawn.task()
    result = count_task(task, CountSettings(method=method, mode=mode))
    assert result.classes is not None
    grouped = kinds(task, mode, counted=result.classes)
    by_pi = Counter(pi for pi, _ in Truth(drawn.problem).maps)
    assert grouped.total == len(by_pi) and grouped.maps == sum(by_pi.values()) == result.count
    names = list(task.names)
    for kind in grouped.listed:
        pi = list(range(len(names)))
        for reader, read in kind["reads"].items():
            pi[names.index(read)] = names.index(reader)
        assert by_pi[tuple(pi)] == kind["maps"]


@pytest.mark.parametrize("method", [Method.DECOMPOSE, Method.SEARCH])
@settings(max_examples=30, **SETTINGS)
@given(drawn=st.one_of(plain_tasks(), object_tasks(), predicting_tasks()))
def test_summary_from_the_classes_a_count_kept_is_the_brute_force_summary(method: Method, drawn: Drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    task = drawn.task()
    result = count_task(task, CountSettings(method=method, mode=mode))
    assert result.classes is not None
    truth = Truth(drawn.problem)
    summary = class_summary(task, mode, result.classes, method == Method.SEARCH)
    assert summary["over"] == truth.count and summary["concepts"] == truth.summary()


@settings(max_examples=25, **SETTINGS)
@given(symmetric_specs(exhaustive=False))
def test_summary_of_symmetric_knowledge_averages_each_class_as_the_brute_force_sees_it(spec: Spec):
    """Knowledge symmetric in every concept: a class holds many permutations."""
    task = spec.task()
    result = count_task(task, CountSettings(method=Method.DECOMPOSE))
    assert result.classes is not None
    maps = list(brute_force_maps(spec.domains, spec.label, list(task.support.rows), set(spec.supervised)))
    domains = [tuple(d) for d in spec.domains]
    expected = [
        {
            "concept": name,
            "reads_itself": sum(pi[j] == j for pi, _ in maps),
            "keeps_meaning": sum(pi[j] == j and tuple(images[j]) == domains[j] for pi, images in maps),
        }
        for j, name in enumerate(task.names)
    ]
    summary = class_summary(task, Mode.DISENTANGLED, result.classes, False)
    assert summary["over"] == len(maps) and summary["concepts"] == expected
