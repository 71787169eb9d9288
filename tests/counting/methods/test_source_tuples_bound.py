"""The source-tuple upper bound (methods/source_tuples/bound.py) holds: each tuple's bound is at
least its exact factor, exact where the group's rows read disjoint values, and the sum is at least
the brute force's count, on random tasks (values out of position, words, supervision); rows that
share values may all be chosen."""

from __future__ import annotations

import itertools

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies.randomtasks import (
    SETTINGS,
    Spec,
    exhaustive_supervised_specs,
    offset_specs,
    specs,
    string_specs,
    symmetric_specs,
)
from support import REPO

from rscount.counting.budget import Unsuited
from rscount.counting.engines.group_tables import LABEL_TABLE_LIMIT
from rscount.counting.methods.source_tuples.bound import FactorBound, tuple_upper_bound
from rscount.counting.methods.source_tuples.tuples import SourceTuples, TupleFactor, completed
from rscount.encoding.value_codes import Reading
from rscount.errors import TaskError
from rscount.knowledge.loading import task_from_dict

ANY = 10**9
TASKS = st.one_of(
    specs(), offset_specs(), string_specs(), symmetric_specs(exhaustive=False), exhaustive_supervised_specs()
)


def disjoint(facts: list) -> bool:
    """Whether the facts are readings that read no (source, value) twice."""
    pairs = [p for f in facts if isinstance(f, Reading) for p in f.pairs]
    return all(isinstance(f, Reading) for f in facts) and len(pairs) == len(set(pairs))


@settings(max_examples=80, **SETTINGS)
@given(TASKS)
def test_each_tuple_bound_holds_its_factor_and_the_sum_holds_the_count(spec: Spec):
    try:
        task = spec.task()
        counter = SourceTuples(task)
        bound = FactorBound(counter.coding, counter.shapes)
    except (TaskError, Unsuited):
        assume(False)
        raise
    exact = TupleFactor(counter.coding)
    for shape in counter.shapes:
        for beta in shape.tuples(range(len(task.concepts))):
            found, factor = bound(shape, beta), exact(shape, beta)
            assert found >= factor
            pi = completed(len(task.concepts), shape.targets, beta)
            if disjoint(list(counter.coding.row_facts(pi, (list(shape.labels), list(shape.targets))))):
                assert found == factor
    assert tuple_upper_bound(task, ANY)[0] >= spec.brute_force()


def test_one_row_bounds_the_count_exactly():
    task = task_from_dict(
        {
            "concepts": {"a": ["x", "y", "z"], "b": [3, 4, 5], "c": ["x", "y", "z"]},
            "labels": {"y": "a == c", "z": "b > 3"},
            "support": [["x", 5, "y"]],
            "mode": "disentangled",
        },
        "one-row",
        REPO,
    )
    count = SourceTuples(task).count()[0]
    assert tuple_upper_bound(task, ANY) == (count, 3 + 3)  # a, c interchangeable: 3 * 2 / 2


def test_a_group_too_wide_for_the_searches_label_table_is_still_bounded():
    """Three digits against two (10^5 vectors, past LABEL_TABLE_LIMIT): one row's bound is its
    closed form, where the source-tuple bound used to decline."""
    digits = list(range(10))
    task = task_from_dict(
        {
            "concepts": {f"d{i}": digits for i in range(1, 6)},
            "labels": {"y": "d1 + d2 + d3 == d4 + d5"},
            "support": [[1, 2, 3, 1, 5]],
            "mode": "disentangled",
        },
        "sum3",
        REPO,
    )
    assert LABEL_TABLE_LIMIT < 10**5
    fitting = sum(a + b + c == d + e for a, b, c, d, e in itertools.product(digits, repeat=5))
    # any of the 5! permutations; each source's shown value to a fitting vector, its 9 others anywhere
    assert tuple_upper_bound(task, ANY) == (120 * fitting * 10 ** (5 * 9), 5 * 4 * 3 * 2 // 12)


def test_rows_sharing_values_narrow_the_bound_below_disjoint_rows_alone():
    """f_a(0) + f_b(0) == 0 pins both; f_a(0) + f_b(1) == 1 then leaves f_b(1) two images, where
    disjoint rows alone would leave it four (a's 3 and b's 2 unseen values: 4^5 maps either way)."""
    task = task_from_dict(
        {
            "concepts": {"a": [0, 1, 2, 3], "b": [0, 1, 2, 3]},
            "labels": {"s": "a + b"},
            "support": [[0, 0], [0, 1]],
            "mode": "disentangled",
        },
        "two-rows",
        REPO,
    )
    counter = SourceTuples(task)
    shape = counter.shapes[0]
    beta = next(shape.tuples(range(2)))
    assert TupleFactor(counter.coding)(shape, beta) == 4**5
    assert FactorBound(counter.coding, counter.shapes)(shape, beta) == 2 * 4**5
