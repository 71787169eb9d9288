"""Search probes (counting/probes.py, part_search.probe_part): a probe's expectation, worked out
exactly over every choice it can make, is the brute force's count on random tasks of every kind and
in both modes; the permutations drawn are those the count sums over; the reported lower bounds hold,
and the sampled estimate hands over to probes where uniform draws find no optimal map."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import object_tasks, plain_tasks
from strategies.randomtasks import SETTINGS, offset_specs, specs, string_specs

from rscount import task_from_dict
from rscount.counting import probes, sampling
from rscount.counting.budget import Declined
from rscount.counting.methods.search.backend import Counter
from rscount.counting.probes import best_lower_bound, markov_lower_bound, probed_lower_bounds
from rscount.counting.problem import CountProblem
from rscount.counting.processes.isolation import known_text
from rscount.progress import Progress
from rscount.task.model import Mode


class Scripted(random.Random):
    """Choices read from a script (0 past its end), each recorded with its number of options, so
    that a caller can walk every sequence of choices a probe can make."""

    def __init__(self, script: list[int]) -> None:
        super().__init__(0)
        self.script = script
        self.made: list[int] = []
        self.options: list[int] = []

    def randrange(self, stop, *args, **kwargs):  # type: ignore[override]
        choice = self.script[len(self.made)] if len(self.made) < len(self.script) else 0
        self.made.append(choice)
        self.options.append(stop)
        return choice


def expectation(run) -> Fraction:
    """E[run(rng)] when every choice is uniform, summed over all sequences of choices."""
    total, script = Fraction(0), []
    while True:
        rng = Scripted(script)
        total += Fraction(run(rng), math.prod(rng.options))
        last = len(rng.made) - 1
        while last >= 0 and rng.made[last] + 1 == rng.options[last]:
            last -= 1
        if last < 0:
            return total
        script = [*rng.made[:last], rng.made[last] + 1]


def probed_expectation(task, mode: Mode) -> Fraction:
    """The expected probe of N(pi), summed over every permutation the count sums over."""
    counter = Counter(CountProblem(task, mode))
    k = len(counter.coding.sizes)
    if mode == Mode.OBJECTS:
        n = task.object_spec().count
        m = k // n
        lifted = {
            tuple(objs[i // m] * m + attrs[i % m] for i in range(k))
            for objs in permutations(range(n))
            for attrs in permutations(range(m))
        }
    else:
        lifted = set(permutations(range(k)))
    assert len(lifted) == counter.permutations()
    return sum((expectation(lambda rng, pi=pi: counter.models(pi, rng=rng)) for pi in lifted), Fraction(0))


@settings(max_examples=40, **SETTINGS)
@given(
    st.one_of(
        specs(boolean=True, max_rows=6),
        offset_specs(shape=(3, 2)),
        string_specs(shape=(2, 3)),
        specs(shape=(3, 2, 2), max_rows=5),
    )
)
def test_a_probes_expectation_is_the_brute_force_count(spec):
    assert probed_expectation(spec.task(), Mode.DISENTANGLED) == spec.brute_force()


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(plain_tasks(max_space=12, max_rows=8), object_tasks(max_rows=8)))
def test_a_probes_expectation_is_the_count_of_mixed_kinds_and_objects(drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    assert probed_expectation(drawn.task(), mode) == Truth(drawn.problem).count


OBJECTS = {
    "objects": {"count": 3, "attributes": {"colour": ["red", "blue"], "size": [10, 20, 30]}},
    "labels": {"y": "Eq(colour_1, colour_2)"},
    "support": [["red", 10, "red", 20, "blue", 30]],
}


@pytest.mark.parametrize("mode", [Mode.DISENTANGLED, Mode.OBJECTS])
def test_probes_draw_every_permutation_the_count_sums_over(mode):
    counter = Counter(CountProblem(task_from_dict(OBJECTS), mode))
    rng = random.Random(1)
    drawn = {counter.random_permutation(rng) for _ in range(20 * counter.permutations())}
    assert len(drawn) == counter.permutations() == (math.factorial(6) if mode == Mode.DISENTANGLED else 12)
    assert all(sorted(pi) == list(range(6)) for pi in drawn)


def test_the_markov_bound_divides_the_least_mean_by_the_root_of_one_over_delta():
    # two streams of 4 probes, means 5 and 10; delta 0.01: c = 10, so at least 0.5 -> 0
    assert markov_lower_bound([20, 40], 4, 0.01) == 0
    assert markov_lower_bound([400, 800], 4, 0.01) == 9  # 100 / 10, rounded down past c's rounding
    assert markov_lower_bound([100] * 10, 1, 0.01) == 63  # c = 100^(1/10), about 1.585


def test_the_best_lower_bound_merges_streams_where_few_probes_survive():
    # one stream of ten kept a probe: only T = 1 (mean 10^4, c = 4 / 0.01 = 400) gives a bound
    assert best_lower_bound([0] * 9 + [10**5], 1, 0.01) == 24  # 25, less c rounded up
    # every stream alike: T = 10 (c = 400^(1/10), about 1.82) gives the best
    assert best_lower_bound([100] * 10, 1, 0.01) == 54


def reports_of(task, mode: Mode, patch) -> list[dict]:
    """Every report of the probes until MAX_PROBES (patched small) stops them."""
    patch.setattr(probes, "MAX_PROBES", 640)
    seen: list[dict] = []
    reports = Progress(enabled=False)
    reports.sink = lambda known: seen.append(dict(known))
    with pytest.raises(Declined):
        probed_lower_bounds(CountProblem(task, mode), reports, {"estimate_draws": 1})
    return seen


@settings(max_examples=25, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs()))
def test_the_probes_lower_bounds_hold_the_brute_force_count(spec):
    exact = spec.brute_force()
    with pytest.MonkeyPatch.context() as patch:
        seen = reports_of(spec.task(), Mode.DISENTANGLED, patch)
    assert [r["estimate_probes"] for r in seen] == [160, 320, 640]
    assert all(r["estimate_at_least"] <= exact and r["estimate_draws"] == 1 for r in seen)


SUMS = {  # sums of digits 0-2: 35520 optimal maps (the backtracking brute force) of 24 * 3^12
    "concepts": {f"d{i}": [0, 1, 2] for i in range(1, 5)},
    "labels": {"y": "d1 + d2 == d3 + d4"},
    "support": [
        [0, 1, 1, 0],
        [2, 1, 2, 1],
        [2, 0, 1, 1],
        [1, 2, 0, 2],
        [2, 2, 1, 0],
        [0, 0, 1, 0],
        [1, 1, 2, 2],
    ],
}
SUMS_COUNT = 35520


def test_the_sampled_estimate_hands_over_to_probes_where_no_draw_keeps_every_row(monkeypatch):
    monkeypatch.setattr(sampling, "BATCH_CELLS", 1)  # one draw in the first batch: it keeps no row
    monkeypatch.setattr(probes, "MAX_PROBES", 640)
    seen: list[dict] = []
    reports = Progress(enabled=False)
    reports.sink = lambda known: seen.append(dict(known))
    with pytest.raises(Declined):
        sampling.sampled_estimates(CountProblem(task_from_dict(SUMS), Mode.DISENTANGLED), reports)
    assert seen[0]["estimate_draws"] == 1 and seen[0]["estimate"] == 0 and "estimate_probes" not in seen[0]
    assert [r["estimate_probes"] for r in seen[1:]] == [160, 320, 640]
    assert all(r["estimate_draws"] == 1 and 0 < r["estimate_at_least"] <= SUMS_COUNT for r in seen[1:])
    assert 0.5 * SUMS_COUNT <= seen[-1]["estimate_probe_mean"] <= 2 * SUMS_COUNT


def test_the_stopped_counts_text_gives_the_probes_bound_and_mean():
    known = {
        "lower_bound": 64,
        "classes_found": 1,
        "estimate": 0,
        "estimate_low": 0,
        "estimate_high": 10**20,
        "estimate_draws": 6553,
        "estimate_confidence": 0.99,
        "estimate_at_least": 12345,
        "estimate_probe_mean": 67890,
        "estimate_probes": 160,
    }
    assert known_text(known).endswith(
        "6553 uniformly drawn maps put the count between 0 and 100000000000000000000 with probability "
        "at least 99% (estimate 0); 160 random search probes put it at least 12345 with probability at "
        "least 99% (their mean, unbiased but with no bound on its error: 67890)"
    )
    assert known_text({**known, "estimate_at_least": 0}).endswith(
        "160 random search probes have a mean of 67890 (unbiased but with no bound on its error; too "
        "few kept every row for a lower bound)"
    )
