"""The decisions about a task's optimal maps (rscount.insight.decisions), against the oracle's brute
force: who may read whom, which concepts may be remapped and which values may be predicted as
others, decided by questions about all permutations at once and, forced, per permutation class; a
map found is optimal (every row, encoded lazily or not); and a question with no answer says so."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, object_tasks, plain_tasks

from rscount.insight import decisions
from rscount.insight.decisions import MapSolver, identities
from rscount.insight.maps import identity_map, violation
from rscount.task.model import Mode

ORACLE = settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=40)


def facts(drawn: Drawn, per_class: bool) -> dict[str, tuple[tuple[str, ...], bool, tuple[object, ...]]]:
    task = drawn.task()
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    names = task.names
    with MapSolver(task, mode) as solver:
        if per_class:
            found = [decisions.Identity() for _ in task.concepts]
            decisions._by_class(solver, found)
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


@pytest.mark.parametrize("per_class", [False, True], ids=["at once", "per class"])
@ORACLE
@given(drawn=st.one_of(plain_tasks(), object_tasks()))
def test_identities_are_the_brute_forces_by_either_route(per_class, drawn):
    assert facts(drawn, per_class) == Truth(drawn.problem).unidentified()


@ORACLE
@given(drawn=st.one_of(plain_tasks(), object_tasks()))
def test_every_map_found_is_optimal_and_the_last_question_has_none(drawn):
    task = drawn.task()
    mode = Mode.DISENTANGLED if drawn.problem.objects is None else Mode.OBJECTS
    truth = Truth(drawn.problem)
    with MapSolver(task, mode) as solver:
        seen = []
        while (m := solver.some_map([solver.not_the_identity()])) is not None:
            assert violation(task, m) is None and m != identity_map(task)
            seen.append(m)
            solver.forbid(m)
        assert len(seen) == truth.count - 1
