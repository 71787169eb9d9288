"""The decisions about a task's optimal maps (rscount.insight.decisions), against the oracle's brute
force: who may read whom, which concepts may be remapped and which values may be predicted as
others, decided by questions about all permutations at once and, forced, per permutation class
or from source-tuples' permutations; the maps listed from source tuples; a map found is optimal
(every row, encoded lazily or not); and a question with no answer says so."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, in_place_tasks, object_tasks, plain_tasks
from support import REPO, examples

from rscount.counting.budget import Unsuited
from rscount.counting.methods.source_tuples import fitting_maps
from rscount.errors import InternalError
from rscount.insight import decisions
from rscount.insight.decisions import MapSolver, identities
from rscount.insight.maps import identity_map, violation
from rscount.insight.simplest import cost, every_map, simplest_maps
from rscount.knowledge.loading import load_task
from rscount.task.model import Mode

ORACLE = settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=examples(20))


def mode_of(drawn: Drawn) -> Mode:
    return Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS


def facts(drawn: Drawn, route: str) -> dict[str, tuple[tuple[str, ...], bool, tuple[object, ...]]]:
    task = drawn.task()
    mode = mode_of(drawn)
    names = task.names
    with MapSolver(task, mode) as solver:
        found = [decisions.Identity() for _ in task.concepts]
        if route == "per class":
            decisions._by_class(solver, found)
        elif route == "by source tuples":
            decisions._by_fitting(task, found)
        else:
            found = identities(solver)
    return {
        names[j]: (
            tuple(names[i] for i in sorted(who.reads)),
            who.remapped,
            tuple(v for n, v in enumerate(task.concepts[j].values) if n in who.moved),
        )
        for j, who in enumerate(found)
        if who.reads or who.remapped or who.moved
    }


@pytest.mark.parametrize("route", ["at once", "per class"])
@ORACLE
@given(drawn=st.one_of(plain_tasks(), object_tasks(), in_place_tasks()))
def test_identities_are_the_brute_forces_by_either_route(route, drawn):
    assert facts(drawn, route) == Truth(drawn.problem).unidentified()


@ORACLE
@given(drawn=plain_tasks())
def test_identities_from_source_tuples_permutations_are_the_brute_forces(drawn):
    try:
        found = facts(drawn, "by source tuples")
    except Unsuited:  # concepts no label reads with domains of different sizes
        assume(False)
    assert found == Truth(drawn.problem).unidentified()


@ORACLE
@given(drawn=plain_tasks())
def test_the_maps_listed_from_source_tuples_are_the_brute_forces(drawn):
    """Every tuple's orbit times its group's value maps, joined, with the free concepts: each
    optimal map once (value maps as target value numbers, as fitting_maps gives them)."""
    truth = Truth(drawn.problem)
    domains = drawn.problem.domains
    try:
        listed = fitting_maps(drawn.task(), truth.count)
    except Unsuited:
        assume(False)
    wanted = [
        (pi, tuple(tuple(map(domains[t].index, images)) for t, images in zip(pi, f))) for pi, f in truth.maps
    ]
    assert sorted(listed) == sorted(wanted)


@ORACLE
@given(drawn=st.one_of(plain_tasks(), object_tasks(), in_place_tasks()))
def test_every_map_found_is_optimal_and_the_last_question_has_none(drawn):
    task = drawn.task()
    mode = mode_of(drawn)
    truth = Truth(drawn.problem)
    with MapSolver(task, mode) as solver:
        seen = []
        while (m := solver.some_map([solver.not_the_identity()])) is not None:
            assert violation(task, m) is None and m != identity_map(task)
            seen.append(m)
            solver.forbid(m)
        assert len(seen) == truth.count - 1


@ORACLE
@given(drawn=st.one_of(plain_tasks(), object_tasks()), wanted=st.integers(1, 6))
def test_the_simplest_maps_are_the_cheapest_of_the_brute_force_in_order(drawn, wanted):
    task = drawn.task()
    truth = Truth(drawn.problem)
    cheapest = sorted(truth.cost(m) for m in truth.maps if m != truth.identity)[:wanted]
    with MapSolver(task, mode_of(drawn)) as solver:
        found = simplest_maps(solver, wanted)
    assert [cost(m) for m in found] == cheapest
    assert len(set(found)) == len(found) and identity_map(task) not in found
    assert all(violation(task, m) is None for m in found)


@ORACLE
@given(drawn=st.one_of(plain_tasks(), object_tasks()))
def test_every_map_lists_the_brute_forces_maps_in_order_of_cost(drawn):
    task = drawn.task()
    truth = Truth(drawn.problem)
    with MapSolver(task, mode_of(drawn)) as solver:
        found = every_map(solver, truth.count - 1)
    assert [cost(m) for m in found] == sorted(truth.cost(m) for m in truth.maps if m != truth.identity)
    assert len(set(found)) == len(found) and all(violation(task, m) is None for m in found)


def test_every_map_says_when_the_count_promises_more_maps_than_there_are():
    task = load_task(REPO / "tasks" / "xor3.yaml")
    with MapSolver(task, Mode.DISENTANGLED) as solver, pytest.raises(InternalError, match="only 23"):
        every_map(solver, 24)
