"""Every statement rscount makes about a task, against the oracle (tests/references/oracle.py: the
optimal maps listed by brute force, values compared as values) on random tasks whose concepts are words,
offset or negative integers and Booleans in either order, in domains of mixed sizes (and networks
predicting more classes than the ground truth takes): the count in each mode,
explain (unseen values, the maps shown, `involves`, unidentified concepts, the summary), check's
verdict, forecast's exact fractions, advise's plans, and the joint reasoning shortcuts.
`pytest --slow` runs ten times as many examples."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from references.oracle import Truth, after_steps, cheaper_plan, jrs
from strategies.mixedtasks import (
    Drawn,
    in_place_tasks,
    object_tasks,
    pairwise_tasks,
    plain_tasks,
    predicting_tasks,
)
from support import examples

import rscount
from rscount.counting.methods.search import loose_concepts
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings, Method
from rscount.insight.explain import Explanation, explain
from rscount.task.model import Mode

LISTED = 2000  # optimal maps the pairwise count lists in a test
ORACLE = settings(deadline=None, suppress_health_check=list(HealthCheck), print_blob=True, max_examples=1)


def mode_of(drawn: Drawn) -> str:
    return "disentangled" if drawn.problem.objects is None else "objects"


def assert_explain(drawn: Drawn, truth: Truth, explained: Explanation | None = None) -> None:
    """explain's statements (`explained`: one made already, else rscount.explain's)."""
    found = (explained or rscount.explain(drawn.task(), mode_of(drawn), show=50)).to_dict()
    assert found["count"] == truth.count and found["shortcuts"] == truth.count - 1
    assert found["unseen_values"] == truth.unseen_values()
    optimal = set(truth.maps)
    shown = [truth.map_of_entries(m["concepts"]) for m in found["maps"]]
    assert len(set(shown)) == len(shown) == min(50, truth.count - 1)
    for m, record in zip(shown, found["maps"]):
        assert m in optimal and m != truth.identity, record["text"]
        assert record["involves"] == truth.involves(m), record["text"]
    assert found["unidentified"] == {
        name: {"reads": list(reads), "remapped": remapped, "moved": list(moved)}
        for name, (reads, remapped, moved) in truth.unidentified().items()
    }
    assert_kinds(drawn, truth, found["kinds"])
    summary = found["summary"]
    if summary["exact"]:
        assert summary["over"] == truth.count and summary["concepts"] == truth.summary()


def assert_kinds(drawn: Drawn, truth: Truth, kinds: dict | None) -> None:
    """explain's kinds: the optimal maps grouped by their permutation, each with its maps, the
    largest first."""
    if truth.count == 1:
        assert kinds is None
        return
    by_pi = Counter(pi for pi, _ in truth.maps)
    assert kinds is not None and kinds["total"] == len(by_pi) and kinds["maps"] == truth.count
    names = list(drawn.problem.names)
    listed = []
    for kind in kinds["listed"]:
        pi = list(range(len(names)))
        for reader, read in kind["reads"].items():
            pi[names.index(read)] = names.index(reader)
        listed.append((tuple(pi), kind["maps"]))
    assert len(set(listed)) == len(listed) == min(len(by_pi), 50)
    assert all(by_pi[pi] == maps for pi, maps in listed)
    assert [maps for _, maps in listed] == sorted(by_pi.values(), reverse=True)[: len(listed)]


def assert_check(drawn: Drawn, truth: Truth) -> None:
    report = rscount.check(drawn.task(), mode=mode_of(drawn), timeout=None)
    assert report.result is not None and report.result.count == truth.count
    assert report.status == ("free" if truth.count == 1 else "shortcuts")
    unidentified = {name: (u.reads, u.remapped, u.moved) for name, u in (report.unidentified or {}).items()}
    assert unidentified == truth.unidentified()
    kept = report.to_dict()["identified_values"]
    problem = drawn.problem
    for name, values in zip(problem.names, problem.sources):
        moved = truth.unidentified().get(name, ((), False, ()))[2]
        assert kept[name] == [v for v in values if v not in moved], name


def assert_forecast(drawn: Drawn, truth: Truth, test: list[tuple]) -> None:
    found = rscount.forecast(drawn.task(), mode_of(drawn), test=[list(r) for r in test])
    assert found.count == truth.count
    assert found.reads == truth.reads()
    for name, by_value in truth.values().items():
        assert set(found.values[name]) == set(by_value)
        for v, images in by_value.items():
            stated = {w: p for w, p in found.values[name][v].items() if p}
            assert stated == {w: Fraction(n, truth.count) for w, n in images.items()}, (name, v)
    rows = (
        list(product(*drawn.problem.sources))
        if drawn.data["support"] == "exhaustive"
        else drawn.problem.support
    )
    assert found.accuracy == truth.accuracy(rows)
    assert found.test is not None
    assert found.test["accuracy"] == truth.accuracy(test)
    assert found.test["label_accuracy"] == truth.label_accuracy(test)


@settings(ORACLE, max_examples=examples(25))
@given(st.one_of(plain_tasks(), object_tasks(), in_place_tasks(), predicting_tasks()), st.data())
def test_explain_check_and_forecast_say_what_the_optimal_maps_imply(drawn: Drawn, data) -> None:
    truth = Truth(drawn.problem)
    assert rscount.count(drawn.task(), mode=mode_of(drawn)).count == truth.count
    assert_explain(drawn, truth)
    assert_check(drawn, truth)
    every = list(product(*drawn.problem.sources))  # ground-truth vectors
    test = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=4, unique=True))
    assert_forecast(drawn, truth, test)


@settings(ORACLE, max_examples=examples(30))
@given(st.one_of(pairwise_tasks(), in_place_tasks(pairwise_tasks())))
def test_explain_from_the_maps_the_pairwise_count_lists_says_what_they_imply(drawn: Drawn) -> None:
    truth = Truth(drawn.problem)
    if truth.count > LISTED:
        reject()
    pairwise = CountSettings(method=Method.PAIRWISE)
    assert_explain(drawn, truth, explain(drawn.task(), Mode.DISENTANGLED, show=50, settings=pairwise))


@settings(ORACLE, max_examples=examples(40))
@given(st.one_of(plain_tasks(), in_place_tasks(plain_tasks()), predicting_tasks(plain_tasks())))
def test_identification_by_search_names_the_concepts_the_optimal_maps_do_not_keep(drawn: Drawn) -> None:
    """check's route where the CNF is too large (a program on ten thousand rows): per concept, what
    it may read and whether its values may move, from counts with its value map pinned."""
    task = drawn.task()
    names = task.names
    loose = loose_concepts(CountProblem(task, task.mode), None, None)
    found = {names[j]: (tuple(names[i] for i in sorted(u.readers)), u.remapped) for j, u in loose.items()}
    truth = Truth(drawn.problem).unidentified()
    assert found == {name: (reads, remapped) for name, (reads, remapped, _) in truth.items()}


@settings(ORACLE, max_examples=examples(30))
@given(plain_tasks(max_space=12))
def test_the_joint_count_and_check_follow_from_the_label_classes(drawn: Drawn) -> None:
    expected = Truth(drawn.problem).joint_count()
    assert rscount.count(drawn.task(), mode="joint").count == expected
    report = rscount.check(drawn.task(), mode="joint", timeout=None)
    assert report.status == ("free" if expected == 1 else "shortcuts")


@settings(ORACLE, max_examples=examples(30))
@given(st.one_of(plain_tasks(max_space=12), object_tasks(max_rows=8)))
def test_joint_reasoning_shortcuts_count_and_intended_pairs_are_the_brute_forces(drawn: Drawn) -> None:
    pairs, intended, loose = jrs(drawn.problem)
    result = rscount.count(drawn.task(), mode="jrs")
    assert (result.count, result.details["intended"]) == (pairs, intended)
    report = rscount.check(drawn.task(), mode="jrs", timeout=None)
    verdict = "not jointly identifiable" if loose else "identifiable up to relabelling values"
    assert any(verdict in f.message for f in report.findings)
    explained = rscount.explain(drawn.task(), "jrs").to_dict()
    assert explained["count"] == pairs and sorted(explained["unidentified"]) == sorted(loose)


KINDS = ["add", "supervise", "annotate", "annotate-one"]
SMALL = plain_tasks(max_space=6, max_rows=3, n_concepts=(2, 2))


@settings(ORACLE, max_examples=examples(15))
@given(
    st.one_of(SMALL, in_place_tasks(SMALL), predicting_tasks(SMALL)),
    st.sampled_from([(1, 1, 1, 1), (2, 1, 3, 1)]),
)
def test_a_plan_counts_as_the_brute_force_after_its_steps_and_minimal_means_minimal(
    drawn: Drawn, prices
) -> None:
    costs = dict(zip(KINDS, prices))
    advice = rscount.advise(drawn.task(), actions=KINDS, costs=costs, jobs=1)
    truth = Truth(drawn.problem)
    assert advice.start["count"] == truth.count
    steps = [(s["action"], _step_target(drawn, s)) for s in advice.plan]
    after = drawn.problem
    for n in range(len(steps)):
        done = after_steps(drawn.problem, steps[: n + 1])
        assert done is not None
        after = done
        assert advice.plan[n]["count"] == Truth(after).count
    assert advice.final_count == Truth(after).count
    if advice.minimal:
        cost = sum(s["cost"] for s in advice.plan)
        assert cheaper_plan(drawn.problem, KINDS, costs, cost, advice.target) is None


def _step_target(drawn: Drawn, step: dict):
    """A step of advise's JSON as the oracle writes it: a row, a concept, or (row, concept)."""
    row = None if step["row"] is None else tuple(step["row"])
    if step["action"] == "annotate":
        return step["concept"]
    if step["action"] == "annotate-one":
        return row, step["concept"]
    return row


def test_explain_lists_only_unseen_values_on_word_and_offset_domains():
    offsets = {"a": [1, 2, 3], "b": [1, 2, 3]}
    task = rscount.task_from_dict(
        {"concepts": offsets, "labels": {"s": "a + b"}, "support": [[1, 1], [3, 3], [2, 3]]}, "offset"
    )
    assert rscount.explain(task).unseen_values == {"b": [2]}
    coins = rscount.task_from_dict(
        {"concepts": {"a": ["heads", "tails"], "b": ["heads", "tails"]}, "labels": {"y": "Eq(a, b)"},
         "support": "exhaustive"},
        "coins",
    )  # fmt: skip
    assert rscount.explain(coins).unseen_values == {}
