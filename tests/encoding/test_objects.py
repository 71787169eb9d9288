"""The objects count (--mode objects): object and attribute permutations with one value map per
attribute shared by all objects, against an independent brute force and the other exact methods."""

from __future__ import annotations

import pathlib
import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_count, brute_force_objects
from strategies.objecttasks import SYMMETRIC, object_tasks, symmetric_object_tasks
from strategies.randomtasks import SETTINGS
from support import backend_count, examples

from rscount import count
from rscount.encoding.modes import encode
from rscount.insight.maps import MapSpace
from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.symmetry import attribute_swap, concept_swap, object_blocks, object_swap


@settings(max_examples=40, **SETTINGS)
@given(object_tasks())
def test_objects_count_matches_brute_force_by_every_exact_method(drawn):
    task, n, attributes, label_fn, support, supervised = drawn
    expected = brute_force_objects(n, attributes, label_fn, support, supervised)
    assert expected >= 1
    encoding = encode(task, "objects")
    assert backend_count("decompose", encoding) == expected
    assert backend_count("sdd", encoding) == expected
    if expected <= 5000:
        assert backend_count("enumerate", encoding) == expected
    domains = [c.values for c in task.concepts]
    assert expected <= brute_force_count(domains, label_fn, support, supervised)  # fewer maps


def test_mnadd_counts_two_in_the_objects_mode_too():
    data = {
        "objects": {"count": 2, "attributes": {"digit": list(range(10))}},
        "labels": {"sum": "digit_1 + digit_2"},
    }
    task = task_from_dict(data, "mnadd", pathlib.Path("."))
    assert count(task, mode="objects").count == 2
    assert count(task, mode="disentangled").count == 2


def test_objects_mode_needs_an_objects_section(cli):
    run = cli("xor", "--bits", "3", "--mode", "objects")
    assert run.code == 2 and "objects:" in run.err


@settings(max_examples=examples(15), **SETTINGS)
@given(symmetric_object_tasks())
def test_objects_count_on_symmetry_classes_matches_brute_force(drawn):
    task, n, attributes, label_fn, support, supervised = drawn
    expected = brute_force_objects(n, attributes, label_fn, support, supervised)
    assert backend_count("decompose", task, "objects") == expected


def test_object_and_attribute_symmetries_found_are_real():
    n, attributes, label = SYMMETRIC[0]
    data = {"objects": {"count": n, "attributes": attributes}, "labels": {"y": label}}
    task = task_from_dict(data, "figures", pathlib.Path("."))
    blocks = object_blocks(task)
    assert blocks["knowledge objects"] == [[0, 1], [2, 3]]
    assert blocks["knowledge object families"] == [[0, 1]]
    assert blocks["knowledge attributes"] == [[0, 1]]
    assert blocks["support objects"] == blocks["knowledge objects"]  # exhaustive support
    m = len(attributes)
    swaps = [object_swap(task, 0, 1), object_swap(task, 2, 3), attribute_swap(task, 0, 1)]
    swaps.append(concept_swap(n * m, [(a, 2 * m + a) for a in range(2 * m)]))  # figure 1 <-> figure 2
    for row in product((0, 1, 2), repeat=n * m):
        for swap in swaps:
            assert task.label_of(tuple(row[j] for j in swap)) == task.label_of(row)


def test_supervision_breaks_the_object_symmetries_it_does_not_respect():
    n, attributes, label = SYMMETRIC[0]
    data = {
        "objects": {"count": n, "attributes": attributes},
        "labels": {"y": label},
        "support": [[0, 0, 1, 1, 0, 1, 0, 1], [1, 1, 1, 1, 0, 0, 2, 2]],
        "concept_supervision": [[0, 0, 1, 1, 0, 1, 0, 1]],
    }
    blocks = object_blocks(task_from_dict(data, "figures", pathlib.Path(".")))
    # The supervised row has objects (0, 0), (1, 1), (0, 1), (0, 1): only objects 3 and 4 may swap,
    # and x and z differ in object 3.
    assert blocks["knowledge objects"] == [[0], [1], [2, 3]]
    assert blocks["knowledge attributes"] == [[0], [1]]


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(object_tasks(), symmetric_object_tasks()))
def test_map_space_lists_as_many_distinct_objects_maps_as_the_brute_force_each_keeping_every_label(drawn):
    """Every map listed (orbits under object and attribute symmetries walked) is an objects map,
    (rho, V) with value maps shared by the objects, that keeps every label and supervised vector;
    all distinct and as many as the brute force finds, so they are exactly its maps."""
    task, n, attributes, label_fn, support, supervised = drawn
    space = MapSpace(task, "objects")
    maps = list(space.maps())
    assert (
        space.count
        == len(set(maps))
        == len(maps)
        == brute_force_objects(n, attributes, label_fn, support, supervised)
    )
    m = len(attributes)
    for cm in maps:
        rho, v = [cm.pi[o * m] // m for o in range(n)], [cm.pi[a] % m for a in range(m)]
        assert cm.pi == tuple(rho[o] * m + v[a] for o in range(n) for a in range(m))
        assert all(cm.f[o * m + a] == cm.f[a] for o in range(n) for a in range(m))
        for row in support:
            pred = [0] * len(row)
            for i, j in enumerate(cm.pi):
                pred[j] = cm.f[i][row[i]]  # values are 0..size-1, so value numbers
            assert label_fn(tuple(pred)) == label_fn(row)
            assert row not in supervised or tuple(pred) == row
    sample = space.sample(random.Random(7))
    assert sample in set(maps)
