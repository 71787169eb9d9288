"""The objects count (--mode objects): object and attribute permutations with one value map per
attribute shared by all objects, against an independent brute force and the other exact methods."""

from __future__ import annotations

import pathlib
from itertools import product

from bruteforce import brute_force_count, brute_force_objects
from hypothesis import given, settings
from hypothesis import strategies as st
from randomtasks import HELPERS, SETTINGS, label_expr

from rscount.backends import CountOptions, backends
from rscount.counting import build_encoding, count_task
from rscount.taskfile import task_from_dict

BACKENDS = backends()
OPTIONS = CountOptions()
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
    task = task_from_dict(data, "objects", pathlib.Path("."))
    code = compile(label, "<label>", "eval")

    def label_fn(row):
        return int(eval(code, {"__builtins__": {}, **HELPERS, **{k: v for (k, _), v in zip(names, row)}}))

    return task, n, list(attributes.values()), label_fn, support, set(supervised)


@settings(max_examples=40, **SETTINGS)
@given(object_tasks())
def test_objects_count_matches_brute_force_by_every_exact_method(drawn):
    task, n, attributes, label_fn, support, supervised = drawn
    expected = brute_force_objects(n, attributes, label_fn, support, supervised)
    assert expected >= 1
    encoding = build_encoding(task, "objects")
    assert BACKENDS["decompose"].count(encoding, OPTIONS).count == expected
    assert BACKENDS["sdd"].count(encoding, OPTIONS).count == expected
    if expected <= 5000:
        assert BACKENDS["enumerate"].count(encoding, OPTIONS).count == expected
    domains = [c.values for c in task.concepts]
    assert expected <= brute_force_count(domains, label_fn, support, supervised)  # fewer maps


def test_mnadd_counts_two_in_the_objects_mode_too():
    data = {
        "objects": {"count": 2, "attributes": {"digit": list(range(10))}},
        "labels": {"sum": "digit_1 + digit_2"},
    }
    task = task_from_dict(data, "mnadd", pathlib.Path("."))
    assert count_task(task, "objects")[0].count == 2
    assert count_task(task, "disentangled")[0].count == 2


def test_objects_mode_needs_an_objects_section(cli):
    run = cli("xor", "--bits", "3", "--mode", "objects")
    assert run.code == 2 and "objects:" in run.err
