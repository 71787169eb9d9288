"""Anytime answers: what decomposition has established when a time limit stops it (a lower bound and
the classes counted) reaches the error, the JSON output and the API; the bound is sound."""

from __future__ import annotations

import json
import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_maps, brute_force_objects
from strategies.randomtasks import SETTINGS, offset_specs, specs, string_specs
from support import REPO

from rscount import TimeLimitExceeded, load_task, task_from_dict
from rscount.counting import sampling
from rscount.counting.bounds import upper_bounds
from rscount.counting.budget import Budget, Declined
from rscount.counting.methods.decompose.backend import DecomposeBackend
from rscount.counting.problem import CountProblem
from rscount.counting.processes.isolation import known_text, run_stoppable
from rscount.counting.sampling import sampled_estimates
from rscount.counting.settings import CountSettings
from rscount.progress import Progress
from rscount.task.model import Mode

# SDD-OIA with its default rules and 32 class-balanced rows (benchmarks/reach.py, sddoia-4-per-label-s1):
# over a million permutation classes, so decomposition stopped after seconds has counted some only.
SDD_OIA_32 = REPO / "tests" / "data" / "sddoia-32.yaml"
SDD_OIA_32_COUNT = 243009974877062400  # exact, by source-sets in 2 s


class Recorder(Progress):
    """A progress that keeps every report of what is known."""

    def __init__(self) -> None:
        super().__init__(enabled=False)
        self.reports: list[dict[str, object]] = []
        self.sink = self.reports.append


def reports_then_sleeps(progress: Progress) -> None:
    progress.known(lower_bound=3, classes_done=1, classes_total=None)
    progress.known(lower_bound=7, classes_done=2, classes_total=None)
    time.sleep(60)


def test_a_stopped_child_hands_over_its_last_report():
    progress = Progress(enabled=False)
    with pytest.raises(TimeLimitExceeded) as stopped:
        run_stoppable(reports_then_sleeps, progress, timeout=1, progress=progress)
    assert stopped.value.partial == {"lower_bound": 7, "classes_done": 2, "classes_total": None}
    assert "at least 7 optimal maps (2 permutation classes counted, more not yet found)" in str(stopped.value)


@settings(max_examples=40, **SETTINGS)
@given(specs(), st.booleans())
def test_decompose_reports_growing_lower_bounds_that_end_at_the_count(spec, listed_first):
    # listed_first: every class is found before any is counted (auto's class budget), and classes
    # found by SAT count at least one map per member before they are counted.
    task = spec.task()
    progress = Recorder()
    budget = Budget(max_classes=10**6) if listed_first else Budget()
    result = DecomposeBackend().count(CountProblem(task, task.mode), CountSettings(), progress, budget)
    bounds = [r["lower_bound"] for r in progress.reports]
    assert bounds == sorted(bounds) and bounds[-1] == result.count == spec.brute_force()
    done = [r["classes_done"] for r in progress.reports]
    assert done[-1] == progress.reports[-1]["classes_total"] == result.details["classes"]
    found = [r["classes_found"] for r in progress.reports]
    assert found == sorted(found) and found[-1] == result.details["classes"]
    if listed_first and result.details["search"] == "sat":  # bounds while the classes are listed
        listing = [r["classes_found"] for r in progress.reports if r["classes_done"] == 0]
        assert listing == list(range(1, result.details["classes"] + 1))
    # the permutations the classes counted hold: rising to every permutation with an optimal map
    # (those of classes that SAT found, and only those) and no further than k!
    held = [r["permutations_done"] for r in progress.reports]
    assert held == sorted(held) and {r["permutations_total"] for r in progress.reports} == {
        math.factorial(len(spec.sizes))
    }
    rows, supervised = [spec.vector(r) for r in spec.support], {spec.vector(r) for r in spec.supervised}
    optimal = {pi for pi, _ in brute_force_maps(spec.domains, spec.label, rows, supervised)}
    assert len(optimal) <= held[-1] <= math.factorial(len(spec.sizes))
    assert result.details["search"] != "sat" or held[-1] == len(optimal)


@settings(max_examples=40, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs()))
def test_every_upper_bound_reported_holds(spec):
    task = spec.task()
    progress = Recorder()
    with pytest.raises(Declined):
        upper_bounds(CountProblem(task, task.mode), CountSettings(), progress)
    exact = spec.brute_force()
    bounds = [r["upper_bound"] for r in progress.reports]
    assert all(b >= exact for b in bounds) and bounds == sorted(set(bounds), reverse=True)
    rows = [r["upper_bound_rows"] for r in progress.reports if "upper_bound_rows" in r]
    assert rows == sorted(rows)


def test_sampled_estimates_hold_the_count_until_narrow_enough():
    # MNMath's shape on 4 objects of 5 digits: objects mode, dense enough for draws to hit
    task = task_from_dict({
        "objects": {"count": 4, "attributes": {"d": [0, 1, 2, 3, 4]}},
        "labels": {"y1": "Eq(d_1 + d_2, 4)", "y2": "d_3 * d_4 > 3"},
        "support": [[0, 4, 1, 1], [2, 3, 2, 2], [1, 1, 0, 4]],
    })  # fmt: skip
    rows = [tuple(r) for r in task.support.rows]
    exact = brute_force_objects(
        4, [[0, 1, 2, 3, 4]], lambda c: (c[0] + c[1] == 4, c[2] * c[3] > 3), rows, set()
    )
    progress = Recorder()
    with pytest.raises(Declined, match="sampled estimate: done"):
        sampled_estimates(CountProblem(task, Mode.OBJECTS), progress)
    assert len(progress.reports) >= 2
    for known in progress.reports:
        assert (
            known["estimate_low"] <= exact <= known["estimate_high"] and known["estimate_confidence"] == 0.99
        )
    last = progress.reports[-1]
    assert last["estimate_high"] <= sampling.NARROW * last["estimate_low"]  # why it stopped


def test_the_text_gives_the_sampled_interval_beside_the_certain_bounds():
    known = {"lower_bound": 64, "classes_done": 1, "estimate": 900, "estimate_low": 800,
             "estimate_high": 1000, "estimate_draws": 4096, "estimate_confidence": 0.99}  # fmt: skip
    assert known_text(known) == (
        "at least 64 optimal maps (1 permutation classes counted, more not yet found); 4096 uniformly drawn "
        "maps put the count between 800 and 1000 with probability at least 99% (estimate 900)"
    )


def test_the_text_says_the_upper_bound_sums_over_source_tuples():
    known = {"lower_bound": 64, "classes_done": 1, "upper_bound": 10**70, "upper_bound_tuples": 420}
    assert known_text(known).endswith(
        "; the upper bound sums over 420 source tuples the value maps that some of their rows allow)"
    )


def test_source_tuples_stopped_in_its_first_tuple_says_where_its_lower_bound_comes_from():
    known = {"lower_bound": 16, "tuples_done": 0, "tuples_total": 420}
    assert known_text(known) == (
        "at least 16 optimal maps (none of 420 source tuples of the first label group summed yet: "
        "the identity map, the maps the knowledge's symmetries make of it, and their images of "
        "values no row shows)"
    )


def test_a_search_stopped_says_the_share_of_its_permutation_tree_it_walked():
    known = {"lower_bound": 24, "classes_done": 2, "work_done": 0.4}
    assert known_text(known) == (
        "at least 24 optimal maps (2 permutation classes counted, more not yet found, "
        "40% of the permutation tree walked)"
    )


def test_a_search_stopped_while_listing_says_how_many_classes_it_found():
    known = {"lower_bound": 192, "classes_done": 0, "classes_found": 3}
    assert known_text(known) == "at least 192 optimal maps (3 permutation classes found so far, none counted)"


def test_a_count_stopped_with_the_maps_it_found_and_no_classes_says_so():
    # the pairwise method keeps the maps it finds: a lower bound without permutation classes
    assert known_text({"lower_bound": 3072}) == (
        "at least 3072 optimal maps (the maps found so far; the search for more did not finish)"
    )


def test_decompose_stopped_while_counting_as_it_lists_says_how_many_it_counted_and_their_share():
    known = {"lower_bound": 500, "classes_done": 2, "classes_found": 3, "classes_total": None,
             "permutations_done": 999, "permutations_total": 1000}  # fmt: skip
    assert known_text(known) == (
        "at least 500 optimal maps (3 permutation classes found so far, 2 counted; the classes counted "
        "hold 99% of the concept permutations)"
    )


def test_json_output_at_the_time_limit_says_what_is_known(cli):
    run = cli("count", SDD_OIA_32, "--method", "decompose", "--timeout", "8", "--json")
    assert run.code == 3 and "time limit of 8 s; at least" in run.err
    record = json.loads(run.out)
    assert record["exact"] is False and record["classes_total"] is None
    assert 0 < record["lower_bound"] <= SDD_OIA_32_COUNT and record["classes_done"] >= 1


def test_the_api_time_limit_carries_the_lower_bound():
    import rscount

    with pytest.raises(TimeLimitExceeded) as stopped:
        rscount.count(load_task(SDD_OIA_32), method="decompose", timeout=8)
    assert 0 < stopped.value.partial["lower_bound"] <= SDD_OIA_32_COUNT


@pytest.mark.parametrize("mode", ["disentangled", "objects"])
def test_the_first_upper_bound_is_every_map_and_exact_when_every_map_keeps_the_labels(mode):
    # labels that every vector gives the same value: every map is optimal, so the count is the
    # number of maps: 3! object (or concept) permutations, 2! attribute ones in the objects mode
    task = task_from_dict({
        "objects": {"count": 3, "attributes": {"s": ["x", "y", "z"], "t": [5, 6, 7]}},
        "labels": {"y": "Eq(s_1, s_1)"},
        "support": [["x", 5, "y", 6, "z", 7]],
        "mode": mode,
    })  # fmt: skip
    progress = Recorder()
    with pytest.raises(Declined):
        upper_bounds(CountProblem(task, task.mode), CountSettings(), progress)
    first = progress.reports[0]
    assert first["upper_bound_rows"] == 0
    maps = 6 * 2 * 27**2 if mode == "objects" else 720 * 27**6
    assert (
        first["upper_bound"]
        == maps
        == DecomposeBackend().count(CountProblem(task, task.mode), CountSettings()).count
    )
    assert known_text({"lower_bound": 1, "classes_done": 1, **first}).endswith(
        "the upper bound is the number of maps there are, optimal or not)"
    )
