"""The sampled estimate (counting/sampling.py): uniform maps scored on every row at once; its
interval holds the exact count (brute force) on random tasks of every kind, in both modes, and the
Kullback-Leibler interval is Hoeffding's."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import object_tasks, plain_tasks
from strategies.randomtasks import SETTINGS, offset_specs, specs, string_specs

from rscount.counting.problem import CountProblem
from rscount.counting.sampling import MapSampler, kl_interval
from rscount.task.model import Mode

DRAWS = 20_000


def sampled(task, mode: Mode, delta: float, draws: int = DRAWS):
    sampler = MapSampler(CountProblem(task, mode))
    scores = sampler.scores(np.random.default_rng(7), draws)
    assert ((scores >= 0) & (scores <= 1)).all()
    return sampler, sampler.interval(float(scores.sum()), draws, delta)


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs()))
def test_the_sampled_interval_holds_the_brute_force_count(spec):
    exact = spec.brute_force()
    sampler, found = sampled(spec.task(), Mode.DISENTANGLED, 1e-9)
    assert found.low <= exact <= found.high
    # and it says something: at a density of at least 1/4, the interval is within a factor of 2
    if exact * 4 >= sampler.space:
        assert found.high <= 2 * exact and found.low * 2 >= exact


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_the_sampled_interval_holds_the_count_of_mixed_kinds_and_objects(drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    exact = Truth(drawn.problem).count
    sampler, found = sampled(drawn.task(), mode, 1e-9)
    assert found.low <= exact <= found.high
    if exact * 4 >= sampler.space:
        assert found.high <= 2 * exact and found.low * 2 >= exact


def test_the_map_space_is_every_permutation_with_its_value_maps():
    # objects mode, 2 objects of attributes with 2 and 3 values: 2! objects, 2! attribute orders,
    # value maps 2^2 * 3^3 (each attribute to its own) or 3^2 * 2^3 (swapped): the larger is w_max
    from rscount import task_from_dict

    task = task_from_dict({
        "objects": {"count": 2, "attributes": {"a": [0, 1], "b": ["x", "y", "z"]}},
        "labels": {"y": "Eq(a_1, a_2)"},
        "support": [[0, "x", 1, "y"]],
    })  # fmt: skip
    sampler = MapSampler(CountProblem(task, Mode.OBJECTS))
    assert sampler.w_max == max(2**2 * 3**3, 3**2 * 2**3)
    assert sampler.space == 2 * 2 * sampler.w_max


def test_the_kl_interval_is_where_hoeffdings_bound_allows_the_mean():
    draws, budget = 1000, math.log(2 / 0.01)
    low, high = kl_interval(0.3, draws, budget)
    assert 0.25 < low < 0.3 < high < 0.35
    # no hit: the upper end is about budget / draws (the rule of three's form)
    low, high = kl_interval(0.0, draws, budget)
    assert low == 0 and math.isclose(high, 1 - math.exp(-budget / draws), rel_tol=1e-6)
    # the bound is symmetric under exchanging hits and misses
    low, high = kl_interval(0.9, draws, budget)
    low2, high2 = kl_interval(0.1, draws, budget)
    assert math.isclose(low, 1 - high2, rel_tol=1e-9) and math.isclose(high, 1 - low2, rel_tol=1e-9)


def test_scores_stay_finite_where_a_domain_has_hundreds_of_values():
    # 400^400 value maps overflow a float: the weights are taken in logarithms
    from rscount import task_from_dict

    task = task_from_dict({
        "concepts": {"a": [0, 1], "b": list(range(400))},
        "labels": {"y": "b > 200"},
        "support": [[0, 5], [1, 300]],
    })  # fmt: skip
    sampler = MapSampler(CountProblem(task, Mode.DISENTANGLED))
    scores = sampler.scores(np.random.default_rng(0), 2000)
    assert np.isfinite(scores).all() and ((scores >= 0) & (scores <= 1)).all() and scores.max() > 0
