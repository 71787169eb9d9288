"""Permutation classes found by SAT with lex-leader clauses (engines/class_search/enumeration.py):
the same weighted sum as the prefix tree, eager or lazy in support rows, and the brute force."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from strategies.randomtasks import SETTINGS, specs
from support import backend_result

from rscount.counting.engines.class_counts import ClassCounter
from rscount.counting.engines.class_search import enumeration as class_enumeration
from rscount.counting.engines.class_search.search import ClassSearch
from rscount.counting.problem import CountProblem
from rscount.knowledge.loading import task_from_dict


def weighted_sum(plan: ClassSearch) -> tuple[int, list[tuple[tuple[int, ...], int]]]:
    """sum over the plan's classes of class size times N(pi), and the classes."""
    counter = ClassCounter(plan.problem.task, plan.problem.mode)
    classes = list(plan)
    return sum(size * counter.count(pi) for pi, size in classes), classes


def sampled(spec):
    """The spec's task when its support has no symmetry of its own (the SAT strategy applies)."""
    task = spec.task()
    plan = ClassSearch(CountProblem(task, task.mode))
    return plan if plan.strategy == "sat" else None


@settings(max_examples=60, **SETTINGS)
@given(specs())
def test_sat_classes_weigh_like_the_prefix_tree_and_the_brute_force(spec):
    plan = sampled(spec)
    if plan is None:
        return
    by_sat, classes = weighted_sum(plan)
    assert all(size == classes[0][1] for _, size in classes)  # H_out acts freely
    tree = ClassSearch(plan.problem)
    tree.strategy = "tree"
    assert by_sat == weighted_sum(tree)[0] == spec.brute_force()


@pytest.mark.parametrize("by_table", [False, True], ids=["sat-check", "table-check"])
@settings(max_examples=60, **SETTINGS)
@given(specs())
def test_the_lazy_row_search_finds_exactly_the_eager_leaders(by_table, spec):
    plan = sampled(spec)
    if plan is None:
        return
    eager = set(plan)
    check = ClassCounter(plan.problem.task, plan.problem.mode).check if by_table else None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(class_enumeration, "LAZY_ROWS", 0)
        patch.setattr(class_enumeration, "LAZY_CHECKED_ROWS", 0)
        patch.setattr(class_enumeration, "FIRST_ROWS", 1)
        lazy = list(ClassSearch(plan.problem, check=check))
    assert len(lazy) == len(set(lazy)) and set(lazy) == eager


@settings(max_examples=60, **SETTINGS)
@given(specs())
def test_rows_a_table_names_against_a_permutation_refute_it_alone(spec):
    task = spec.task()
    problem = CountProblem(task, task.mode)
    counter = ClassCounter(problem.task, problem.mode)
    for pi in itertools.islice(itertools.permutations(range(len(task.concepts))), 24):
        verdict = counter.check(pi)
        if verdict is True:
            assert counter.count(pi) > 0
        elif verdict:
            alone = task.with_support(verdict)
            assert ClassCounter(alone, alone.mode).count(pi) == 0
            assert counter.count(pi) == 0


def test_lex_leaders_keep_one_permutation_per_orbit():
    # y = a + b == c + d on a sampled support: H_out swaps a, b; c, d; and the two sides.
    task = task_from_dict(
        {
            "concepts": {n: [0, 1, 2] for n in "abcd"},
            "labels": {"y": "a + b == c + d"},
            "support": [[0, 1, 2, 0], [2, 2, 1, 0], [1, 0, 0, 1], [0, 0, 0, 0], [2, 1, 0, 2]],
        }
    )
    plan = ClassSearch(CountProblem(task, task.mode))
    assert plan.strategy == "sat"
    outputs, families = plan.blocks["knowledge"], plan.blocks["knowledge families"]
    assert class_enumeration.orbit_size(outputs, families) == 8
    total, classes = weighted_sum(plan)
    assert all(size == 8 for _, size in classes)
    tree = ClassSearch(plan.problem)
    tree.strategy = "tree"
    assert total == weighted_sum(tree)[0] and total > 0
    assert len(classes) * 8 <= math.factorial(4)


@settings(max_examples=60, **SETTINGS)
@given(specs())
def test_decompose_with_the_lazy_table_checked_search_agrees_with_the_brute_force(spec):
    task = spec.task()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(class_enumeration, "LAZY_CHECKED_ROWS", 0)
        patch.setattr(class_enumeration, "FIRST_ROWS", 1)
        result = backend_result("decompose", task, encoded=False)
    assert result.count == spec.brute_force()
