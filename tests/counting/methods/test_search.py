"""The search method (counting/methods/search/): permutations and value maps by depth-first search
with rows checked as they fill, against the independent brute force on random tasks (integers in and
out of position, words, mixed kinds, supervision, objects), and on the dense small programs other
methods stall on."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_count, brute_force_objects
from references.oracle import Truth
from strategies.mixedtasks import object_tasks, plain_tasks
from strategies.randomtasks import (
    SETTINGS,
    exhaustive_supervised_specs,
    offset_specs,
    specs,
    string_specs,
    symmetric_specs,
)
from support import REPO

import rscount
from rscount.counting.budget import UNBOUNDED
from rscount.counting.engines import group_tables
from rscount.counting.engines.class_counts import ClassCounter
from rscount.counting.engines.class_search import permutations
from rscount.counting.methods.search import SearchedMaps, part_search
from rscount.counting.methods.search.backend import SearchBackend
from rscount.counting.problem import CountProblem
from rscount.counting.processes.alarm import AlarmRang
from rscount.counting.processes.race import Entrant, race
from rscount.counting.settings import CountSettings
from rscount.knowledge.loading import load_task
from rscount.progress import Progress
from rscount.task.expressions import free_names
from rscount.task.model import Mode


def search(task, mode: str | None = None) -> int:
    return rscount.count(task, "search", mode).count


@settings(max_examples=80, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs(), symmetric_specs(exhaustive=False)))
def test_search_counts_as_the_brute_force(spec):
    assert search(spec.task(), "disentangled") == spec.brute_force()


@settings(max_examples=30, **SETTINGS)
@given(exhaustive_supervised_specs())
def test_search_counts_exhaustive_supervised_tasks_as_the_brute_force(spec):
    assert search(spec.task(), "disentangled") == spec.brute_force()


@settings(max_examples=40, **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_search_counts_mixed_kinds_and_objects_as_the_brute_force(drawn):
    mode = "disentangled" if drawn.problem.objects is None else "objects"
    assert search(drawn.task(), mode) == Truth(drawn.problem).count


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(specs(), string_specs()))
def test_search_without_its_memo_counts_the_same(spec):
    expected = search(spec.task(), "disentangled")
    old = part_search.MEMO_ENTRIES
    part_search.MEMO_ENTRIES = 1  # at most one subtree remembered at a time
    try:
        assert search(spec.task(), "disentangled") == expected
    finally:
        part_search.MEMO_ENTRIES = old


@settings(max_examples=40, **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_search_without_label_tables_counts_as_the_brute_force(drawn):
    # labels of groups too large to tabulate (past LABEL_TABLE_LIMIT) are evaluated vector by vector
    mode = "disentangled" if drawn.problem.objects is None else "objects"
    old = group_tables.LABEL_TABLE_LIMIT
    group_tables.LABEL_TABLE_LIMIT = 0
    try:
        assert search(drawn.task(), mode) == Truth(drawn.problem).count
    finally:
        group_tables.LABEL_TABLE_LIMIT = old


@settings(max_examples=30, **SETTINGS)
@given(drawn=st.one_of(plain_tasks(), object_tasks()))
def test_search_reports_its_lower_bounds_and_the_share_of_its_tree_walked(drawn):
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    reports: list[dict] = []
    progress = Progress(enabled=False)
    progress.sink = reports.append
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(permutations, "REPORT_EVERY", 0.0)
        count = SearchBackend().count(CountProblem(drawn.task(), mode), CountSettings(), progress).count
    shares = [r["work_done"] for r in reports]
    assert shares and all(a <= b for a, b in zip(shares, shares[1:]))
    assert shares[-1] == pytest.approx(1.0)
    assert all(r["lower_bound"] <= count for r in reports)


def test_search_counts_objects_whose_support_and_knowledge_both_have_symmetries():
    # four objects, exhaustive support (any object can stand for any other) and two exchangeable pairs
    data = {
        "objects": {"count": 4, "attributes": {"d": [0, 1, 2]}},
        "labels": {"y": "Eq(d_1 + d_2, d_3 + d_4)"},
        "support": "exhaustive",
    }
    task = rscount.task_from_dict(data)
    rows = [tuple(r) for r in task.support.rows]
    expected = brute_force_objects(4, [[0, 1, 2]], lambda c: c[0] + c[1] == c[2] + c[3], rows, set())
    assert search(task, "objects") == expected


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(specs(), string_specs()), st.sampled_from(part_search.ORDERS))
def test_each_slot_order_alone_counts_the_same(spec, order):
    old = part_search.ORDERS
    part_search.ORDERS = (order,)
    try:
        assert search(spec.task(), "disentangled") == spec.brute_force()
    finally:
        part_search.ORDERS = old


@settings(max_examples=40, **SETTINGS)
@given(
    st.sampled_from([[0, 1, 2], [5, 6, 7], [-1, 3, 10]]),
    st.booleans(),
    st.data(),
)
def test_search_counts_objects_read_by_labels_over_disjoint_objects_as_the_brute_force(values, words, data):
    # y1 reads objects 1-2, y2 objects 3-4: one value map for all, each label checked on its own slots
    names = ["red", "green", "blue"] if words else values
    y1 = "Eq(d_1, d_2)" if words else f"d_1 + d_2 > {values[0] + values[1]}"
    y2 = "Eq(d_3, d_4)" if words else "Eq((d_3 * d_4) % 2, 0)"
    rows = data.draw(st.lists(st.tuples(*[st.sampled_from(names)] * 4), min_size=1, max_size=6, unique=True))
    supervised = set(data.draw(st.lists(st.sampled_from(rows), max_size=1)))
    spec = {
        "objects": {"count": 4, "attributes": {"d": names}},
        "labels": {"y1": y1, "y2": y2},
        "support": [list(r) for r in rows],
        "concept_supervision": [list(r) for r in supervised],
    }
    task = rscount.task_from_dict(spec)

    def labels(c: tuple) -> tuple[bool, bool]:
        if words:
            return c[0] == c[1], c[2] == c[3]
        return c[0] + c[1] > values[0] + values[1], (c[2] * c[3]) % 2 == 0

    assert search(task, "objects") == brute_force_objects(4, [names], labels, rows, supervised)


def _traced(fn: Callable[[], object], stop_at: int | None = None) -> int:
    """Run fn, counting the lines of rscount it executes; with `stop_at`, raise AlarmRang at that
    line the way auto's head-start alarm can stop the search at any line. Returns the lines run."""
    lines = 0
    package = os.path.dirname(rscount.__file__)

    def tracer(frame, event, arg):
        nonlocal lines
        if not frame.f_code.co_filename.startswith(package):
            return None
        if event == "line":
            lines += 1
            if lines == stop_at:
                raise AlarmRang
        return tracer

    sys.settrace(tracer)
    try:
        fn()
    except AlarmRang:
        pass
    finally:
        sys.settrace(None)
    return lines


def _stopped_and_resumed(task: Callable[[], rscount.Task], mode: Mode, offset: int) -> set[int]:
    """The counts of search on fresh copies of a task, each stopped at one of about 40 lines spread
    over a whole count and then counted to the end on the same problem."""

    def run(problem: CountProblem) -> Callable[[], object]:
        return lambda: SearchBackend().count(problem, CountSettings(), None, UNBOUNDED)

    lines = _traced(run(CountProblem(task(), mode)))
    counts = set()
    for stop_at in range(1 + offset, lines, max(1, lines // 40)):
        problem = CountProblem(task(), mode)
        _traced(run(problem), stop_at)
        counts.add(run(problem)().count)
    return counts


# auto's head start searches in this process until an alarm; the race's processes inherit what it
# built (a half-built list of rows once made mnadd-n2 count 400000 maps instead of 4)
@settings(max_examples=20, **SETTINGS)
@given(st.one_of(specs(), string_specs(), exhaustive_supervised_specs()), st.integers(0, 40))
def test_a_search_stopped_at_any_line_leaves_nothing_that_changes_the_next_count(spec, offset):
    assert _stopped_and_resumed(spec.task, Mode.DISENTANGLED, offset) <= {spec.brute_force()}


@settings(max_examples=10, **SETTINGS)
@given(object_tasks(), st.integers(0, 40))
def test_an_objects_search_stopped_at_any_line_leaves_nothing_that_changes_the_next_count(drawn, offset):
    assert _stopped_and_resumed(drawn.task, Mode.OBJECTS, offset) <= {Truth(drawn.problem).count}


def test_a_raced_search_inherits_what_a_count_of_the_same_problem_cached_before_the_fork():
    # auto's head start counts in this process, then the race forks: its search holds the same
    # problem, so the group factors cached on the way are not searched for again
    def raced(problem: CountProblem) -> dict:
        run = Entrant("search", lambda reports: SearchBackend().count(problem, CountSettings(), reports))
        return race([run], 1).result.details

    problem = CountProblem(load_task(REPO / "tasks" / "mnadd-n2.yaml"), Mode.DISENTANGLED)
    here = SearchBackend().count(problem, CountSettings(), None, UNBOUNDED)
    assert here.details["search_nodes"] > 0
    assert raced(problem)["search_nodes"] == 0
    assert raced(CountProblem(problem.task, problem.mode))["search_nodes"] == here.details["search_nodes"]


@settings(max_examples=40, **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_pinned_counts_tally_each_class_as_the_class_counter(drawn):
    """SearchedMaps.tally (one count per seen value and image, that value pinned) against the
    decomposition's marginals (ClassCounter.tally) on every permutation class with maps."""
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    task = drawn.task()
    searched = SearchedMaps(CountProblem(task, mode), UNBOUNDED)
    decomposition = ClassCounter(task, mode)
    assert sum(size * searched.tally(pi)[0] for pi, size in searched.classes) == Truth(drawn.problem).count
    for pi, _ in searched.classes:
        total, fixed = searched.tally(pi)
        expected_total, expected = decomposition.tally(pi)
        assert total == expected_total
        assert fixed == expected


def _apply(row: tuple) -> tuple:
    """Labels in the manner of NeurASP's apply2x2: the first digit itself, and a result the operators
    make of both digits (one label group, whose first label reads one concept)."""
    d0, d1, o0, o1 = row
    return d0, (d0 + d1 if o0 == 0 else d0 * d1) + (d1 if o1 else 0)


@settings(max_examples=12, **SETTINGS)
@given(st.data())
def test_labels_reading_part_of_a_group_prune_its_prefixes_and_the_count_is_the_brute_forces(data):
    domains = [(7, 8, 9), (7, 8, 9), (0, 1), (0, 1)]
    every = list(itertools.product(*domains))
    rows = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=12, unique=True), label="rows")
    names = ["d0", "d1", "o0", "o1"]
    task = rscount.task_from_dict(
        {
            "concepts": dict(zip(names, map(list, domains))),
            "labels": {
                "first": lambda d0, d1, o0, o1: _apply((d0, d1, o0, o1))[0],
                "result": lambda d0, d1, o0, o1: _apply((d0, d1, o0, o1))[1],
            },
            "support": [list(r) for r in rows],
        }
    )
    assert free_names(task.labels["first"]) == {"d0"}  # the table reads the concept it depends on
    assert search(task) == brute_force_count(domains, _apply, rows, set())


def _latin(row: tuple) -> int:
    """A 2x2 grid (cells in reading order) whose rows and columns hold different values."""
    return int(row[0] != row[1] and row[2] != row[3] and row[0] != row[2] and row[1] != row[3])


@pytest.mark.parametrize(("mode", "size"), [("objects", 3), ("disentangled", 2)])  # brute forces in seconds
@settings(max_examples=15, **SETTINGS)
@given(data=st.data())
def test_grids_labelled_by_inequalities_count_as_the_brute_force(mode, size, data):
    values = data.draw(st.sampled_from([(0, 1, 2), (5, 6, 7), ("r", "g", "b")]), label="values")[:size]
    every = list(itertools.product(values, repeat=4))
    rows = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=10, unique=True), label="rows")
    label = " & ".join(f"(cell_{a} != cell_{b})" for a, b in [(1, 2), (3, 4), (1, 3), (2, 4)])
    objects = {"objects": {"count": 4, "attributes": {"cell": list(values)}}, "labels": {"valid": label}}
    task = rscount.task_from_dict({**objects, "support": [list(r) for r in rows]})
    expected = (
        brute_force_objects(4, [values], _latin, rows, set())
        if mode == "objects"
        else brute_force_count([values] * 4, _latin, rows, set())
    )
    assert search(task, mode) == expected
