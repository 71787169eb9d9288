"""Concept supervision of some concepts of a row (`concept_supervision: [{row: [...], concepts: [c1]}]`):
the predicted concepts listed must equal the row's there, the row's labels are still kept. Every
exact method, mode and insight that reads supervision agrees with a brute force that checks exactly
that, on random tasks (symmetric knowledge included, where symmetry classes must respect it)."""

from __future__ import annotations

import contextlib
import pathlib
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import (
    brute_force_count,
    brute_force_joint,
    brute_force_maps,
    brute_force_object_maps,
)
from references.forecast import assert_matches, reference
from references.jrs import brute_force_jrs
from strategies.randomtasks import SETTINGS, specs, symmetric_specs
from support import examples

from rscount import count
from rscount.errors import NotApplicable, RscountError
from rscount.formats.task_files.writing import task_yaml
from rscount.insight.forecast import forecast
from rscount.insight.maps import MapSpace, violation
from rscount.knowledge.loading import task_from_dict


@st.composite
def with_partial(draw, base):
    """(spec, partial {vector: concept positions}, task): a random task with one to three support
    vectors supervised on a random proper subset of their concepts."""
    spec = draw(base)
    k = len(spec.sizes)
    support = [spec.vector(r) for r in spec.support]
    partial: dict[tuple, set[int]] = {}
    for row in draw(st.lists(st.sampled_from(support), min_size=1, max_size=3, unique=True)):
        chosen = draw(st.sets(st.integers(0, k - 1), min_size=1, max_size=k - 1)) if k > 1 else set()
        if chosen:
            partial[row] = chosen
    supervised = {spec.vector(r) for r in spec.supervised}
    partial = {r: c for r, c in partial.items() if r not in supervised}
    entries = [list(spec.vector(r)) for r in spec.supervised]
    entries += [{"row": list(r), "concepts": [spec.names[j] for j in sorted(c)]} for r, c in partial.items()]
    data = {
        "concepts": dict(zip(spec.names, spec.domains)),
        "labels": dict(spec.labels),
        "support": "exhaustive" if spec.exhaustive else [list(r) for r in support],
        "concept_supervision": entries,
    }
    return spec, partial, task_from_dict(data, "partial", pathlib.Path("."))


@settings(max_examples=examples(20), **SETTINGS)
@given(st.one_of(with_partial(specs(max_rows=6)), with_partial(symmetric_specs(exhaustive=False))))
def test_every_exact_method_counts_partial_supervision_like_the_brute_force(drawn):
    spec, partial, task = drawn
    domains, label_fn, support, supervised = spec._reference()
    expected = brute_force_count(domains, label_fn, list(task.support.rows), supervised, partial)
    for method in ("decompose", "sdd", "enumerate"):
        assert count(task, method, "disentangled").count == expected, method
    if len({len(c.values) for c in task.concepts}) == 1:  # source-sets needs one domain size
        assert count(task, "source-sets", "disentangled").count == expected
    with contextlib.suppress(NotApplicable):  # unread concepts with domains of different sizes
        assert count(task, "source-tuples", "disentangled").count == expected
    assert count(task, "exact", "disentangled").count == expected


@settings(max_examples=25, **SETTINGS)
@given(
    st.one_of(with_partial(specs(max_rows=4, shape=(2, 2))), with_partial(specs(max_rows=4, shape=(3, 2))))
)
def test_the_joint_count_keeps_the_supervised_concepts_of_each_vector(drawn):
    """Small concept spaces: the brute force tries all |D|^|D| maps alpha."""
    spec, partial, task = drawn
    domains, label_fn, _, supervised = spec._reference()
    expected = brute_force_joint(domains, label_fn, list(task.support.rows), supervised, partial)
    assert count(task, "exact", "joint").count == expected


@settings(max_examples=15, **SETTINGS)
@given(with_partial(specs(max_rows=4, max_space=8)))
def test_the_jrs_count_lists_only_maps_that_keep_the_supervised_concepts(drawn):
    _, _, task = drawn
    pairs, intended, _ = brute_force_jrs(task)
    result = count(task, mode="jrs")
    assert (result.count, result.details["intended"]) == (pairs, intended)


@settings(max_examples=20, **SETTINGS)
@given(with_partial(specs(max_rows=5, max_space=18)), st.data())
def test_forecast_and_every_listed_map_respect_partial_supervision(drawn, data):
    spec, partial, task = drawn
    domains, label_fn, _, supervised = spec._reference()
    rows = list(task.support.rows)
    test = [data.draw(st.sampled_from(list(product(*task.domains))))]
    maps = list(brute_force_maps(domains, label_fn, rows, supervised, partial))
    assert_matches(forecast(task, test=test), reference(domains, label_fn, maps, rows, test), task.names)
    listed = list(MapSpace(task).maps())
    assert len(listed) == len(maps) and all(violation(task, m) is None for m in listed)


def test_objects_mode_keeps_the_supervised_attribute_of_one_object():
    data = {
        "objects": {"count": 2, "attributes": {"x": [0, 1, 2]}},
        "labels": {"y": "x_1 + x_2"},
        "support": [[0, 1], [2, 2], [1, 0]],
        "concept_supervision": [{"row": [0, 1], "concepts": ["x_1"]}],
    }
    task = task_from_dict(data, "sum", pathlib.Path("."))
    rows = [(0, 1), (2, 2), (1, 0)]
    expected = sum(1 for _ in brute_force_object_maps(2, [[0, 1, 2]], sum, rows, set(), {(0, 1): {0}}))
    assert count(task, "exact", "objects").count == expected
    assert count(task, "exact", "objects").count < count(task.with_supervision([]), "exact", "objects").count


def test_a_row_supervised_on_every_concept_is_supervised_whole():
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1]},
        "labels": {"y": "a ^ b"},
        "support": [[0, 1]],
        "concept_supervision": [{"row": [0, 1], "concepts": ["a"]}, {"row": [0, 1], "concepts": ["b"]}],
    }
    task = task_from_dict(data, "x", pathlib.Path("."))
    assert task.support.supervised == {(0, 1)} and not task.support.partial
    assert count(task, "exact").count == brute_force_count(
        [[0, 1]] * 2, lambda c: c[0] ^ c[1], [(0, 1)], {(0, 1)}
    )


def test_written_task_files_keep_partial_supervision():
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1], "c": [0, 1]},
        "labels": {"y": "a ^ b ^ c"},
        "support": [[0, 1, 1], [1, 1, 0]],
        "concept_supervision": [{"row": [0, 1, 1], "concepts": ["c", "a"]}],
    }
    task = task_from_dict(data, "x", pathlib.Path("."))
    import yaml

    again = task_from_dict(yaml.safe_load(task_yaml(task, [])), "x", pathlib.Path("."))
    assert again.support.partial == task.support.partial == {(0, 1, 1): frozenset({0, 2})}
    assert count(again, "exact").count == count(task, "exact").count
    fraction = forecast(task).accuracy["a"]
    assert isinstance(fraction, Fraction) and fraction < 1


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"row": [0, 1, 1], "concepts": []}, "concept_supervision[0].concepts: expected a non-empty list"),
        ({"row": [0, 1, 1], "concepts": ["d"]}, "concept_supervision[0].concepts: unknown concept 'd'"),
        ({"row": [0, 1, 1], "concept": ["a"]}, "concept_supervision[0]: unknown key 'concept'"),
        ({"row": [0, 2, 1], "concepts": ["a"]}, "concept_supervision[0].row: value 2 of b"),
        ({"row": [1, 1, 1], "concepts": ["a"]}, "row [1, 1, 1] is not in the support"),
    ],
)
def test_malformed_partial_supervision_is_refused_naming_the_entry(entry, message):
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1], "c": [0, 1]},
        "labels": {"y": "a ^ b ^ c"},
        "support": [[0, 1, 1]],
        "concept_supervision": [entry],
    }
    with pytest.raises(RscountError, match=message.replace("[", r"\[").replace("]", r"\]")):
        task_from_dict(data, "x", pathlib.Path("."))
