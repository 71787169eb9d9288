"""The lower bound from the knowledge's automorphisms (engines/class_search/orbits.py): every bound
the search and decompose methods report while counting is at most the count, on knowledge that is
a graph's inequalities (automorphisms that swap no two concepts alone, a sudoku's kind) with
supports drawn several ways (the count checked by the other method); and one class counted vouches
for its whole orbit."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rscount.counting.engines.class_search import permutations
from rscount.counting.engines.class_search.orbits import OrbitCredit
from rscount.counting.methods.decompose.backend import DecomposeBackend
from rscount.counting.methods.search.backend import Counter, SearchBackend
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings
from rscount.knowledge.loading import task_from_dict
from rscount.progress import Progress
from rscount.task.model import Mode

CYCLE = [(j, (j + 1) % 5) for j in range(5)]  # a 5-cycle: 10 automorphisms, no swap among them


class _Bounds(Progress):
    """Keeps every lower bound a count reports."""

    def __init__(self) -> None:
        super().__init__(enabled=False)
        self.bounds: list[int] = []

    def known(self, **state: object) -> None:
        if isinstance(state.get("lower_bound"), int):
            self.bounds.append(state["lower_bound"])  # type: ignore[arg-type]


def _cycle_task(values: list, rows: list) -> object:
    label = " & ".join(f"(c{a} != c{b})" for a, b in CYCLE)
    concepts = {f"c{j}": values for j in range(5)}
    return task_from_dict({"concepts": concepts, "labels": {"valid": label}, "support": rows})


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
@pytest.mark.parametrize(
    ("backend", "other"), [(SearchBackend(), DecomposeBackend()), (DecomposeBackend(), SearchBackend())]
)
def test_every_lower_bound_reported_is_at_most_the_count(backend, other, data, monkeypatch):
    monkeypatch.setattr(permutations, "REPORT_EVERY", 0.0)  # the search reports at every subtree walked
    values = data.draw(st.sampled_from([[0, 1, 2], ["r", "g", "b"], [4, 6, 9]]), label="values")
    every = list(itertools.product(values, repeat=5))
    rows = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=3, unique=True), label="rows")
    task = _cycle_task(values, [list(r) for r in rows])
    progress = _Bounds()
    count = backend.count(CountProblem(task, Mode.DISENTANGLED), CountSettings(), progress).count
    assert count == other.count(CountProblem(task, Mode.DISENTANGLED), CountSettings()).count
    assert progress.bounds and all(b <= count for b in progress.bounds)


def test_one_class_counted_vouches_for_its_orbit_once():
    task = _cycle_task([0, 1, 2], [[0, 1, 0, 1, 2], [0, 1, 2, 0, 1], [1, 1, 0, 2, 2]])
    problem = CountProblem(task, Mode.DISENTANGLED)
    credit = OrbitCredit(problem)
    assert len(credit.group) == 10
    identity = tuple(range(5))
    models = problem.kept(Counter).models(identity)
    credit.meet(identity, 1, models)
    credit.meet(credit.group[3], 1, models)  # h o identity: the same orbit
    credit.meet((1, 0, 2, 3, 4), 2, 5)  # a class of two permutations vouches for nothing
    assert models > 0 and credit.maps == 10 * models
    assert credit.maps <= DecomposeBackend().count(problem, CountSettings()).count
