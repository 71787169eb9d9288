"""Counts beyond 2**64: exact Python integers from every backend, never a wrapped C counter."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
from pysdd.sdd import SddManager, Vtree
from support import backend_count

from rscount.counting.settings import CountSettings
from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.sdd import model_count


def diagonal_task(b):
    """Three concepts with b values, label a == 0, support {(v, v, v)}: every value is seen."""
    data = {
        "concepts": {n: list(range(b)) for n in "abc"},
        "labels": {"y": "Eq(a, 0)"},
        "support": [[v, v, v] for v in range(b)],
    }
    return task_from_dict(data, "diagonal", Path("."))


def diagonal_count(b):
    """For each of the 3! permutations, the concept read as `a` must send 0 to 0 and every other
    value to a non-zero value, (b-1)**(b-1) maps; the other two concepts are free, b**b each."""
    return 6 * (b - 1) ** (b - 1) * b ** (2 * b)


def test_diagonal_closed_form_matches_brute_force_on_small_domains():
    from references.bruteforce import brute_force_count

    for b in (2, 3):
        support = [(v, v, v) for v in range(b)]
        count = brute_force_count([list(range(b))] * 3, lambda c: c[0] == 0, support, set())
        assert count == diagonal_count(b)


def test_sdd_count_beyond_2_64_is_exact():
    expected = diagonal_count(8)
    assert expected > 2**64
    assert backend_count("sdd", diagonal_task(8)) == expected


def one_example_count(sizes, label_fn, example):
    """Closed form for one unsupervised example: |E(c*)| * sum over pi of prod |D_pi(i)|^(|D_i|-1)."""
    same = sum(label_fn(c) == label_fn(example) for c in itertools.product(*(range(s) for s in sizes)))
    maps = sum(
        math.prod(sizes[pi[i]] ** (sizes[i] - 1) for i in range(len(sizes)))
        for pi in itertools.permutations(range(len(sizes)))
    )
    return same * maps


@pytest.mark.parametrize("method", ["sdd", "enumerate"])
def test_mixed_domain_one_example_matches_closed_form(method):
    sizes = [4, 3, 2]
    data = {
        "concepts": {n: list(range(s)) for n, s in zip("abc", sizes)},
        "labels": {"y": "(a + b + c) % 3"},
        "support": [[3, 1, 0]],
    }
    task = task_from_dict(data, "mixed", Path("."))
    expected = one_example_count(sizes, lambda c: sum(c) % 3, (3, 1, 0))
    assert backend_count(method, task) == expected


def test_approximate_count_beyond_2_64_is_a_python_int_within_epsilon():
    data = {
        "concepts": {n: list(range(12)) for n in "abc"},
        "labels": {"y": "a + b + c"},
        "support": [[1, 2, 3]],
    }
    task = task_from_dict(data, "wide", Path("."))
    exact = one_example_count([12, 12, 12], sum, (1, 2, 3))
    assert exact > 2**64
    estimate = backend_count("approxmc", task, settings=CountSettings(epsilon=0.8, seed=3))
    assert isinstance(estimate, int) and exact / 1.8 <= estimate <= exact * 1.8


def test_unseen_value_factor_is_exact_for_huge_uniform_domains():
    # 3 concepts with 12 values, one example: 3! * 12**(3*11) * |E| (the paper's one-example form).
    data = {
        "concepts": {n: list(range(12)) for n in "abc"},
        "labels": {"y": "a + b + c"},
        "support": [[1, 2, 3]],
    }
    task = task_from_dict(data, "wide", Path("."))
    expected = one_example_count([12, 12, 12], sum, (1, 2, 3))
    same_label = sum(1 for c in itertools.product(range(12), repeat=3) if sum(c) == 6)
    assert expected == 6 * 12 ** (3 * 11) * same_label  # the paper's one-example form
    assert backend_count("enumerate", task) == expected


@pytest.mark.parametrize("seed", range(5))
def test_python_sdd_model_count_agrees_with_pysdd_below_64_variables(seed):
    rng = random.Random(seed)
    n = 12
    manager = SddManager.from_vtree(
        Vtree(var_count=n, var_order=list(range(1, n + 1)), vtree_type="balanced")
    )
    root = manager.true()
    for _ in range(10):
        clause = manager.false()
        for v in rng.sample(range(1, n + 1), 3):
            clause = clause.disjoin(manager.literal(v if rng.random() < 0.5 else -v))
        root = root.conjoin(clause)
    assert model_count(manager, root) == manager.global_model_count(root)
