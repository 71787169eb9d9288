"""The kinds of optimal maps grouped from the classes a count kept (decompose's and the search's)
against the brute force's maps grouped by permutation, on random tasks of mixed kinds and sizes."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, object_tasks, plain_tasks
from strategies.randomtasks import SETTINGS

from rscount.counting.dispatch import count_task
from rscount.counting.settings import CountSettings, Method
from rscount.insight.kinds import kinds
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
