"""The permutation decomposition: its classes partition the permutations, the symmetries it uses
are real ones, and it counts what the other exact methods count."""

from __future__ import annotations

import math
from itertools import permutations, product

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from randomtasks import SETTINGS, Spec, specs, symmetric_specs

from rscount.analysis import interchangeable_blocks, support_blocks
from rscount.backends import CountOptions, backends
from rscount.encoding import encode
from rscount.knowledge import random_cnf
from rscount.permutations import TooManyClasses, classes, conjoin_order
from rscount.taskfile import builtin_task, load_task

DECOMPOSE = backends()["decompose"]


def partition(k: int, cuts: list[int]) -> list[list[int]]:
    """Blocks of 0..k-1 cut at the given positions."""
    edges = [0, *sorted(set(c for c in cuts if 0 < c < k)), k]
    return [list(range(a, b)) for a, b in zip(edges, edges[1:])]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.lists(st.integers(1, 5), max_size=4), st.lists(st.integers(1, 5), max_size=4))
def test_classes_cover_every_permutation_once(k, in_cuts, out_cuts):
    inputs, outputs = partition(k, in_cuts), partition(k, out_cuts)
    found = list(classes(inputs, outputs, lambda placed: True))
    assert sum(size for _, size in found) == math.factorial(k)
    block_in = {i: a for a, b in enumerate(inputs) for i in b}
    block_out = {j: b for b, m in enumerate(outputs) for j in m}

    def signature(pi):
        return sorted((block_in[i], block_out[j]) for i, j in enumerate(pi))

    seen = {tuple(signature(pi)): size for pi, size in found}
    assert len(seen) == len(found)  # one representative per class
    members = {}
    for pi in permutations(range(k)):
        key = tuple(signature(pi))
        members[key] = members.get(key, 0) + 1
    assert members == seen  # sizes are the true class sizes


def test_swaps_found_are_symmetries_of_the_knowledge():
    task = builtin_task("random", 6, clauses=[[1, 2, 3], [-4, 5, 6], [1, -2, -3]])
    blocks = interchangeable_blocks(task)
    assert sorted(map(sorted, blocks)) == [[0], [1, 2], [3], [4, 5]]
    for block in blocks:
        for i, j in zip(block, block[1:]):
            for row in product((0, 1), repeat=6):
                swapped = list(row)
                swapped[i], swapped[j] = row[j], row[i]
                assert task.label_of(row) == task.label_of(tuple(swapped))


def test_support_swaps_keep_the_support_and_its_labels():
    task = builtin_task("xor", 4, support=[[0, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]])
    blocks = support_blocks(task, interchangeable_blocks(task))
    assert sorted(map(sorted, blocks)) == [[0, 1], [2, 3]]
    rows = set(task.support.rows)
    for block in blocks:
        for i, j in zip(block, block[1:]):
            for row in rows:
                swapped = list(row)
                swapped[i], swapped[j] = row[j], row[i]
                assert tuple(swapped) in rows


def test_conjoin_order_is_a_permutation_of_the_rows():
    rows = tuple(product(range(3), repeat=3))
    order = conjoin_order(rows)
    assert sorted(order) == sorted(rows) and order[0] == rows[0]


@pytest.mark.parametrize("k", [4, 6, 8])
def test_exhaustive_xor_without_closed_form(k):
    result = DECOMPOSE.count(encode(builtin_task("xor", k)), CountOptions())
    assert result.count == math.factorial(k) * 2 ** (k - 1) and result.details["classes"] == 1


def test_random_cnf_with_half_the_support_agrees_with_sdd():
    task = builtin_task("random", 6, {"sample": 0.5, "seed": 3}, clauses=random_cnf(6, 4, 3, 3))
    encoding = encode(task)
    assert (
        DECOMPOSE.count(encoding, CountOptions()).count
        == backends()["sdd"].count(encoding, CountOptions()).count
    )


def test_class_limit_stops_before_counting():
    task = builtin_task("random", 7, {"examples": 2, "seed": 1}, clauses=random_cnf(7, 6, 3, 1))
    with pytest.raises(TooManyClasses):
        DECOMPOSE.count(encode(task), CountOptions(), max_classes=3)


def test_bundled_categorical_tasks():
    assert DECOMPOSE.count(encode(load_task(REPO / "tasks/mnadd.yaml")), CountOptions()).count == 2
    half = DECOMPOSE.count(encode(load_task(REPO / "tasks/mnadd-half.yaml")), CountOptions())
    assert half.count == 72 * 10**10


@settings(max_examples=80, **SETTINGS)
@given(symmetric_specs(exhaustive=False))
def test_symmetric_knowledge_with_random_support_and_supervision(spec: Spec):
    assert DECOMPOSE.count(encode(spec.task()), CountOptions()).count == spec.brute_force()


@settings(max_examples=25, **SETTINGS)
@given(specs(max_space=12))
def test_per_class_approxmc_is_within_epsilon(spec: Spec):
    exact = spec.brute_force()
    result = backends()["decompose-approx"].count(encode(spec.task()), CountOptions(epsilon=0.8, delta=0.2))
    assert not result.exact and result.delta == 0.2
    assert exact / 1.8 <= result.count <= exact * 1.8


def test_approx_uses_per_class_approxmc_on_exhaustive_xor(cli):
    record = cli("xor", "--bits", "10", "--approx", "--json").json()
    assert record["method"] == "decompose-approx" and not record["exact"]
    exact = math.factorial(10) * 2**9
    assert exact / 1.8 <= record["count"] <= exact * 1.8 and record["epsilon"] == 0.8
