"""The equalities method (labels that test two concepts of one domain for equality): its count is
the brute force's on random tasks of words and offset integers in both modes, with supervision,
extractors in place and predicted classes; it declines other labels; Scallop's eq_2 is 2 x 10!;
the colourings of graphs whose counts are known in closed form."""

from __future__ import annotations

import dataclasses
import math
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, equality_tasks, in_place_tasks
from strategies.randomtasks import WORDS
from support import backend_count

from rscount.counting.budget import Unsuited
from rscount.counting.dispatch import count_task
from rscount.counting.engines.class_counts import ClassCounter
from rscount.counting.engines.colourings import colourings
from rscount.counting.settings import CountSettings, Method
from rscount.insight.kinds import class_summary
from rscount.knowledge.equalities import equality_labels
from rscount.knowledge.loading import task_from_dict
from rscount.task.model import Mode

BRUTE_FORCE_MAPS = 50_000  # value maps of a predicting task, the permutations left out


@st.composite
def predicting(draw) -> Drawn:
    """An equality task whose networks predict one class more than the ground truth takes, the
    same class for every concept (attribute) of a domain, so that equal domains stay equal; only
    tasks whose value maps the brute force lists in seconds (three 3-valued concepts and a fourth:
    14 million maps, a minute or two)."""
    drawn = draw(equality_tasks(max_rows=8))
    p = drawn.problem
    assume(math.prod((len(d) + 1) ** len(d) for d in p.domains) <= BRUTE_FORCE_MAPS)
    extra = {}
    for d in dict.fromkeys(p.domains):
        extra[d] = draw(
            st.sampled_from([v for v in (*WORDS, *range(-4, 8)) if v not in d and type(v) is type(d[0])])
        )
    owners = p.names if p.objects is None else [n.rsplit("_", 1)[0] for n in p.names[: len(p.names) // 2]]
    predicts = {o: [*d, extra[d]] for o, d in zip(owners, p.domains)}
    domains = tuple((*d, extra[d]) for d in p.domains)
    return Drawn(
        {**drawn.data, "predicts": predicts}, dataclasses.replace(p, domains=domains, truths=p.domains)
    )


EQUALITIES = st.one_of(equality_tasks(), in_place_tasks(equality_tasks()), predicting())
DIGITS = list(range(10))


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=100)
@given(drawn=EQUALITIES)
def test_the_equalities_count_is_the_brute_forces_on_equality_tasks(drawn: Drawn):
    task = drawn.task()
    assert equality_labels(task) is not None
    assert backend_count("equalities", task, encoded=False) == Truth(drawn.problem).count


@pytest.mark.parametrize("label", ["Eq(d1, d2)", "d1 == d2", "Not(Eq(d1, d2))", "d1 != d2"])
def test_two_digits_compared_on_every_pair_share_one_bijection(label):
    """Scallop's eq_2: whichever digit feeds which, both value maps are one bijection: 2 x 10!."""
    data = {"concepts": {"d1": DIGITS, "d2": DIGITS}, "labels": {"eq": label}, "support": "exhaustive"}
    assert backend_count("equalities", task_from_dict(data), encoded=False) == 2 * math.factorial(10)


def test_a_supervised_pair_pins_two_values_of_the_bijection_in_either_reading():
    data = {
        "concepts": {"d1": DIGITS, "d2": DIGITS},
        "labels": {"eq": "Eq(d1, d2)"},
        "support": "exhaustive",
        "concept_supervision": [[3, 4]],
    }
    # as read, f(3) = 3 and f(4) = 4; exchanged, f(4) = 3 and f(3) = 4: 8 values left either way
    assert backend_count("equalities", task_from_dict(data), encoded=False) == 2 * math.factorial(8)


def test_labels_that_are_no_equality_tests_are_declined():
    for labels in ({"y": "a < b"}, {"y": "And(Eq(a, b), Eq(b, c))"}, {"y": "Eq(a, 1)"}):
        data = {
            "concepts": {"a": [0, 1, 2], "b": [0, 1, 2], "c": [0, 1, 2]},
            "labels": labels,
            "support": "exhaustive",
        }
        task = task_from_dict(data)
        assert equality_labels(task) is None
        with pytest.raises(Unsuited, match="not an equality test"):
            backend_count("equalities", task, encoded=False)


def test_equal_names_over_different_values_are_no_equality_test():
    data = {
        "concepts": {"a": [0, 1, 2], "b": [2, 1, 0]},
        "labels": {"y": "Eq(a, b)"},
        "support": "exhaustive",
    }
    assert equality_labels(task_from_dict(data)) is None


def _brute_colourings(n: int, edges: list[tuple[int, int]], k: int, pins: dict[int, int]) -> int:
    return sum(
        all(c[a] != c[b] for a, b in edges) and all(c[v] == u for v, u in pins.items())
        for c in product(range(k), repeat=n)
    )


@settings(deadline=None, max_examples=200)
@given(
    n=st.integers(1, 7),
    k=st.integers(1, 4),
    data=st.data(),
)
def test_colourings_are_the_brute_forces_on_random_graphs(n, k, data):
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = data.draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    pins = data.draw(st.dictionaries(st.integers(0, n - 1), st.integers(0, k - 1), max_size=3))
    assert colourings(list(range(n)), edges, k, pins) == _brute_colourings(n, edges, k, pins)


@pytest.mark.parametrize("n", [1, 5, 12])
def test_colourings_of_complete_graphs_cycles_and_empty_graphs_are_their_closed_forms(n):
    k = 13
    clique = [(a, b) for a in range(n) for b in range(a + 1, n)]
    assert colourings(list(range(n)), clique, k, {}) == math.perm(k, n)
    assert colourings(list(range(n)), [], k, {}) == k**n
    if n > 2:
        cycle = [(a, (a + 1) % n) for a in range(n)]
        assert colourings(list(range(n)), cycle, k, {}) == (k - 1) ** n + (-1) ** n * (k - 1)


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=60)
@given(drawn=st.one_of(equality_tasks(), in_place_tasks(equality_tasks())))
def test_the_summary_from_the_classes_the_equalities_count_kept_is_the_brute_forces(drawn: Drawn):
    """explain's summary: per class the maps whose value map is the identity, by colourings pinned
    to it (ClassCounter.identities)."""
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    task = drawn.task()
    result = count_task(task, CountSettings(method=Method.EQUALITIES, mode=mode))
    assert result.classes is not None
    truth = Truth(drawn.problem)
    summary = class_summary(task, mode, result.classes, False)
    assert summary["over"] == truth.count and summary["concepts"] == truth.summary()


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=30)
@given(drawn=equality_tasks().filter(lambda d: d.problem.objects is None))
def test_marginals_by_colourings_are_the_brute_forces_per_permutation(drawn: Drawn):
    """forecast's marginals: per permutation and seen value, the maps sending it to each value."""
    task = drawn.task()
    counter = ClassCounter(task, Mode.DISENTANGLED)
    assert counter.colourings is not None
    maps = Truth(drawn.problem).maps
    for pi in permutations(range(len(task.concepts))):
        total, fixed = counter.tally(pi)
        images = [f for p, f in maps if p == pi]
        assert total == len(images)
        for (o, v), row in fixed.items():
            target = task.concepts[pi[o]]
            assert row == [sum(target.index[f[o][v]] == u for f in images) for u in range(len(target.values))]
