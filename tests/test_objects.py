"""The objects count (--mode objects): object and attribute permutations with one value map per
attribute shared by all objects, against an independent brute force and the other exact methods."""

from __future__ import annotations

import pathlib
import random
from itertools import product

from bruteforce import brute_force_count, brute_force_objects
from hypothesis import given, settings
from hypothesis import strategies as st
from randomtasks import HELPERS, SETTINGS, label_expr

from rscount import count
from rscount.counting.methods import BACKENDS
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings
from rscount.encoding.modes import encode
from rscount.insight.maps import MapSpace
from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.symmetry import attribute_swap, concept_swap, object_blocks, object_swap

OPTIONS = CountSettings()
ATTRS = "xyz"


@st.composite
def object_tasks(draw):
    """2-3 objects with 1-2 attributes of 2-3 values (at most 64 concept vectors), a random
    label over the concepts <attribute>_<object>, a random support and supervision."""
    n = draw(st.integers(2, 3))
    m = draw(st.integers(1, 2))
    sizes = draw(st.lists(st.integers(2, 3), min_size=m, max_size=m))
    while n * m > 4 or 3 ** (n * m) > 64 and 3 in sizes:
        sizes = [2] * m
        if n * m > 4:
            n = 2
    attributes = {ATTRS[a]: list(range(s)) for a, s in enumerate(sizes)}
    names = [(f"{a}_{o}", s) for o in range(1, n + 1) for a, s in zip(attributes, sizes)]
    label = draw(label_expr(names))
    rows = list(product(*(range(s) for _, s in names)))
    support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=12, unique=True))
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    data = {
        "objects": {"count": n, "attributes": attributes},
        "labels": {"y": label},
        "support": [list(r) for r in support],
        "concept_supervision": [list(r) for r in supervised],
    }
    return _drawn(data, [name for name, _ in names], support, supervised)


def _drawn(data: dict, names: list[str], support: list, supervised: list) -> tuple:
    """(task, objects, attribute domains, label by Python's eval, support, supervised set)."""
    task = task_from_dict(data, "objects", pathlib.Path("."))
    code = compile(data["labels"]["y"], "<label>", "eval")

    def label_fn(row):
        return int(eval(code, {"__builtins__": {}, **HELPERS, **dict(zip(names, row))}))

    attributes = data["objects"]["attributes"]
    return task, data["objects"]["count"], list(attributes.values()), label_fn, support, set(supervised)


@settings(max_examples=40, **SETTINGS)
@given(object_tasks())
def test_objects_count_matches_brute_force_by_every_exact_method(drawn):
    task, n, attributes, label_fn, support, supervised = drawn
    expected = brute_force_objects(n, attributes, label_fn, support, supervised)
    assert expected >= 1
    encoding = encode(task, "objects")
    assert BACKENDS["decompose"].count(CountProblem.of(encoding), OPTIONS).count == expected
    assert BACKENDS["sdd"].count(CountProblem.of(encoding), OPTIONS).count == expected
    if expected <= 5000:
        assert BACKENDS["enumerate"].count(CountProblem.of(encoding), OPTIONS).count == expected
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


# Knowledge with object and attribute symmetries (within figures, whole figures, equation sides,
# attributes with one domain), so that the objects count runs on symmetry classes.
SYMMETRIC = [
    (
        4,
        {"x": [0, 1, 2], "z": [0, 1, 2]},
        "Or(Equivalent(Eq(x_1, x_2), Eq(x_3, x_4)), Equivalent(Eq(z_1, z_2), Eq(z_3, z_4)))",
    ),
    (3, {"x": [0, 1, 2]}, "x_1 + x_2 + x_3"),
    (4, {"x": [0, 1, 2]}, "Eq(x_1 + x_2, x_3 + x_4)"),
    (4, {"x": [0, 1], "z": [0, 1]}, "And(Eq(x_1, x_4), Eq(z_1, z_4), Eq(x_2, x_3), Eq(z_2, z_3))"),
]


@st.composite
def symmetric_object_tasks(draw):
    """One of SYMMETRIC with an exhaustive (if at most 100 vectors) or random support and random
    supervision."""
    n, attributes, label = draw(st.sampled_from(SYMMETRIC))
    names = [f"{a}_{o}" for o in range(1, n + 1) for a in attributes]
    rows = list(product(*(attributes[name.split("_")[0]] for name in names)))
    exhaustive = len(rows) <= 100 and draw(st.booleans())
    support = (
        rows if exhaustive else draw(st.lists(st.sampled_from(rows), min_size=1, max_size=12, unique=True))
    )
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    data = {
        "objects": {"count": n, "attributes": attributes},
        "labels": {"y": label},
        "support": "exhaustive" if exhaustive else [list(r) for r in support],
        "concept_supervision": [list(r) for r in supervised],
    }
    return _drawn(data, names, support, supervised)


@settings(max_examples=30, **SETTINGS)
@given(symmetric_object_tasks())
def test_objects_count_on_symmetry_classes_matches_brute_force(drawn):
    task, n, attributes, label_fn, support, supervised = drawn
    expected = brute_force_objects(n, attributes, label_fn, support, supervised)
    assert BACKENDS["decompose"].count(CountProblem.of(encode(task, "objects")), OPTIONS).count == expected


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
