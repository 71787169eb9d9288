"""The count summed over source sets (method source-sets) agrees with the brute force on random small
tasks and with decomposition by permutation on larger ones with several label groups, whether the
groups are tabulated by the residual tables or by SAT enumeration of their readings; its parts
(the label-table residuals, the modular arithmetic, the check of hashed states) are right on their
own."""

from __future__ import annotations

import math
import random
from itertools import product
from unittest import mock

import numpy as np
import pytest
from hypothesis import assume, event, given, reject, settings
from hypothesis import strategies as st
from strategies.randomtasks import (
    SETTINGS,
    Spec,
    exhaustive_supervised_specs,
    grouped_specs,
    offset_specs,
    specs,
    wide_tasks,
)
from support import REPO, backend_count, backend_result

import rscount
from rscount.counting.budget import Budget, TooManyModels, Unsuited
from rscount.counting.methods.source_sets import residual_tables as source_sets
from rscount.counting.methods.source_sets.modular import primes_above, recombine
from rscount.counting.methods.source_sets.residuals import reading_order, residuals
from rscount.errors import TaskError
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.task.families import builtin_task, random_cnf

SDD_OIA_32 = REPO / "tests" / "data" / "sddoia-32.yaml"
# Exact; equal to decomposition's sum over its permutation classes (docs/performance.md).
SDD_OIA_32_COUNT = 243009974877062400


def counted(task, method: str = "source-sets") -> int:
    return backend_count(method, task, encoded=False)


def both_ways(task) -> int:
    """The source-set count with every group tabulated by residuals, and by SAT; equal (where the SAT
    listing stays within its model limit: some random 3-CNF have more readings than that)."""
    with mock.patch.object(source_sets, "RESIDUAL_CONCEPTS", len(task.concepts)):
        by_residuals = counted(task)
    with mock.patch.object(source_sets, "RESIDUAL_CONCEPTS", 0):
        try:
            assert counted(task) == by_residuals
        except TooManyModels:
            event("readings over the SAT listing's limit: counted by residuals only")
    return by_residuals


UNIFORM = st.sampled_from([(2, 2), (2, 2, 2), (2, 2, 2, 2), (3, 3), (3, 3, 3)])


@settings(max_examples=80, **SETTINGS)
@given(UNIFORM.flatmap(lambda shape: st.one_of(specs(shape=shape), offset_specs(shape=shape))))
def test_source_sets_agree_with_the_brute_force(spec: Spec):
    try:
        task = spec.task()
    except TaskError:  # labels undefined on some values (a modulo by zero): refused, as it should be
        assume(False)
    assert both_ways(task) == spec.brute_force()


@settings(max_examples=30, **SETTINGS)
@given(UNIFORM.flatmap(lambda shape: exhaustive_supervised_specs(shape=shape)))
def test_source_sets_keep_supervised_vectors_of_exhaustive_supports(spec: Spec):
    assert both_ways(spec.task()) == spec.brute_force()


@settings(max_examples=40, **SETTINGS)
@given(grouped_specs())
def test_label_groups_joined_over_disjoint_sources_give_the_brute_force_count(spec: Spec):
    assert both_ways(spec.task()) == spec.brute_force()


@settings(max_examples=40, **SETTINGS)
@given(wide_tasks())
def test_source_sets_agree_with_decomposition_on_wider_tasks(task):
    assert both_ways(task) == counted(task, "decompose")


@settings(max_examples=8, **SETTINGS)
@given(st.integers(7, 8), st.integers(6, 12), st.sampled_from([0.2, 0.5]), st.integers(1, 10**6))
def test_random_cnf_counts_agree_with_decomposition(bits, clauses, fraction, seed):
    rng = random.Random(seed)
    rows = sorted(rng.sample(list(product((0, 1), repeat=bits)), max(1, int(fraction * 2**bits))))
    task = builtin_task("random", bits, [list(r) for r in rows], clauses=random_cnf(bits, clauses, 3, seed))
    try:
        found = both_ways(task)
    except TooManyModels:  # source-sets declines past its listing budget (8 bits, 12 clauses, seed 360)
        reject()
    assert found == counted(task, "decompose")


def test_sdd_oia_with_over_a_million_classes_counts_in_seconds():
    result = rscount.count(load_task(SDD_OIA_32), "auto", timeout=120)
    assert result.method == "source-sets" and result.exact
    assert result.count == SDD_OIA_32_COUNT


def test_random_3cnf_on_14_bits_with_half_the_vectors_counts_by_sat_in_seconds():
    task = builtin_task("random", 14, {"sample": 0.5, "seed": 1}, clauses=random_cnf(14, 16, 3, 1))
    result = backend_result("source-sets", task, encoded=False)
    assert result.details["tabulated_by"] == ["sat"] and result.count == 4  # benchmarks/reach.md


def test_bundled_sdd_oia_counts_as_decomposition_pinned_it():
    task = load_task(REPO / "tasks" / "sdd-oia-ambulance.yaml")
    assert counted(task) == task.expect["count"]


def test_states_merged_by_hash_are_checked_row_by_row(monkeypatch):
    # Every state hashes alike: the check must notice and merge states exactly instead.
    spec_task = task_from_dict(
        {
            "concepts": {n: [0, 1] for n in "abcde"},
            "labels": {"y": "(a & b) | c", "z": "d ^ e"},
            "support": [[0, 1, 1, 0, 1], [1, 1, 0, 1, 1], [0, 0, 0, 0, 1], [1, 0, 1, 1, 0]],
        },
        "collide",
        REPO,
    )
    expected = counted(spec_task, "decompose")
    monkeypatch.setattr(source_sets, "_hash_weights", lambda n: np.zeros(n, dtype=np.uint64))
    assert counted(spec_task) == expected


def test_mixed_domain_sizes_and_the_objects_mode_are_not_applicable():
    mixed = task_from_dict(
        {"concepts": {"a": [0, 1], "b": [0, 1, 2]}, "labels": {"y": "a + b"}, "support": [[1, 2]]}, "m", REPO
    )
    with pytest.raises(Unsuited, match="one domain size"):
        counted(mixed)
    objects = load_task(REPO / "tasks" / "mnmath.yaml")
    with pytest.raises(Unsuited, match="disentangled"):
        counted(objects)
    with pytest.raises(Unsuited, match="readings per concept"):  # digits 0-9: 10^10 maps each
        counted(load_task(REPO / "tasks" / "mnadd.yaml"))


def test_past_its_state_budget_a_residual_table_hands_over_to_sat_and_that_to_its_model_budget():
    task = load_task(SDD_OIA_32)
    with pytest.raises(TooManyModels):
        backend_count("source-sets", task, budget=Budget(max_states=10, max_models=100), encoded=False)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**60), st.integers(1, 10**60))
def test_residues_modulo_enough_primes_give_the_number_back(value, slack):
    primes = primes_above(value + slack)
    assert math.prod(primes.tolist()) > value + slack
    assert recombine(np.array([value % int(p) for p in primes]), primes) == value


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 3), st.integers(1, 4), st.integers(0, 2**32))
def test_residuals_say_which_labels_the_remaining_values_can_still_give(d, m, seed):
    rng = random.Random(seed)
    m = min(m, 3) if d == 3 else m
    table = np.array([rng.randrange(3) for _ in range(d**m)], dtype=np.int32)
    labels = sorted(set(table.tolist()))
    order = reading_order(table, d, m, labels)
    assert sorted(order) == list(range(m))
    res = residuals(table, d, labels, order)

    def label(values: tuple[int, ...]) -> int:  # values in reading order
        placed = [0] * m
        for position, value in zip(order, values):
            placed[position] = value
        return int(table[sum(v * d ** (m - 1 - i) for i, v in enumerate(placed))])

    for y in labels:
        for values in product(range(d), repeat=m):
            state = res.start[y]
            for n in range(m + 1):
                completions = [label(values[:n] + rest) for rest in product(range(d), repeat=m - n)]
                assert res.dead[state] == (y not in completions)
                assert res.free[state] == all(c == y for c in completions)
                if n < m:
                    state = res.trans[state, values[n]]
