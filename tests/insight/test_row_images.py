"""A map's images of many rows at once (rscount.insight.row_images) are the rows' images one by one
(ConceptMap.predict and the task's labels): which rows a map relabels and which concepts it moves,
on tasks whose values are words, offset integers and mixed sizes, whether or not the labels are
tabulated on D."""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies.randomtasks import SETTINGS, offset_specs, specs, string_specs

from rscount.insight.maps import ConceptMap
from rscount.insight.row_images import RowImages
from rscount.task.model import Task


@st.composite
def tasks_and_maps(draw):
    spec = draw(st.one_of(specs(), offset_specs(), string_specs()))
    task = spec.task()
    k = len(task.concepts)
    pi = tuple(draw(st.permutations(range(k))))
    f = tuple(
        tuple(draw(st.lists(st.integers(0, len(task.concepts[pi[i]].values) - 1), min_size=n, max_size=n)))
        for i, n in enumerate(len(c.values) for c in task.concepts)
    )
    return task, ConceptMap(pi, f), draw(st.booleans())


@settings(max_examples=80, **SETTINGS)
@given(tasks_and_maps())
def test_images_of_all_rows_at_once_are_the_images_row_by_row(drawn):
    task, m, tabulated = drawn
    rows = list(task.support.rows)
    if tabulated:
        found = RowImages(task, rows)
    else:
        with mock.patch.object(Task, "label_arrays", lambda self: None):
            found = RowImages(task, rows)
    images = found.images(m)
    predicted = [m.predict(task, row) for row in rows]
    wanted = task.labels_of(rows)
    relabelled = found.relabelled(images).tolist()
    assert relabelled == [a != b for a, b in zip(task.labels_of(predicted), wanted)]
    moved = found.moved(images).tolist()
    assert moved == [[u != v for u, v in zip(image, row)] for image, row in zip(predicted, rows)]
