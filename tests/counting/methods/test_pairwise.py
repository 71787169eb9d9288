"""The pairwise method (labels that are conjunctions of two-concept tests): its count is the brute
force's on random tasks of words and offset integers, with orderings, disjunctions, supervision and
extractors in place; on 4x4 sudokus it agrees with decompose where decompose counts (the
identity placement alone), and counts what no other method does (every placement: 128 x 4! maps); it
declines other labels and modes."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, in_place_tasks, pairwise_tasks
from support import backend_count, backend_result

from rscount.counting.budget import Budget, TooManyModels, Unsuited
from rscount.counting.methods.pairwise import optimal_maps, symmetries
from rscount.counting.problem import CountProblem
from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.pairwise import pairwise_labels
from rscount.task.model import Mode, Task

LISTED = 2000  # optimal maps listed one by one in a test
ORBITS = Budget(max_models=300)  # the random tasks with few rows have up to 4! x 3^9 maps
PAIRWISE = st.one_of(pairwise_tasks(), in_place_tasks(pairwise_tasks()))
CELLS = [(r, c) for r in range(4) for c in range(4)]
NEIGHBOURS = [
    (a, b)
    for a, b in itertools.combinations(range(16), 2)
    if CELLS[a][0] == CELLS[b][0] or CELLS[a][1] == CELLS[b][1]
    or (CELLS[a][0] // 2, CELLS[a][1] // 2) == (CELLS[b][0] // 2, CELLS[b][1] // 2)
]  # fmt: skip


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=120)
@given(drawn=PAIRWISE)
def test_the_pairwise_count_is_the_brute_forces_on_tasks_of_two_concept_tests(drawn: Drawn):
    task = drawn.task()
    assert pairwise_labels(task) is not None
    assert listed(task) == Truth(drawn.problem).count


def listed(task: Task) -> int:
    """The method's count within ORBITS (a task with more maps than it lists is left out)."""
    try:
        return backend_count("pairwise", task, budget=ORBITS, encoded=False)
    except TooManyModels:
        reject()


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=40)
@given(drawn=pairwise_tasks())
def test_the_count_is_the_same_without_symmetries(drawn: Drawn, monkeypatch):
    task = drawn.task()
    with monkeypatch.context() as patch:
        patch.setattr(symmetries, "ORBIT_MAX", 0)  # no values' group
        patch.setattr(
            symmetries, "knowledge_automorphisms", lambda task, mode: [tuple(range(len(task.concepts)))]
        )
        plain = listed(task)
    assert plain == listed(task) == Truth(drawn.problem).count


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=60)
@given(drawn=PAIRWISE)
def test_the_maps_the_count_keeps_and_lists_are_the_brute_forces(drawn: Drawn):
    task = drawn.task()
    truth = Truth(drawn.problem)
    if truth.count > LISTED:
        reject()
    try:
        result = backend_result("pairwise", task, budget=ORBITS, encoded=False)
    except TooManyModels:
        reject()
    listed = optimal_maps(CountProblem(task, Mode.DISENTANGLED), truth.count)
    for maps in (result.maps, listed):
        assert maps is not None
        as_values = {
            (pi, tuple(tuple(task.concepts[pi[i]].values[u] for u in f[i]) for i in range(len(pi))))
            for pi, f in maps
        }
        assert len(maps) == truth.count and as_values == set(truth.maps)
    if truth.count > 1:
        with pytest.raises(TooManyModels, match="more than"):
            optimal_maps(CountProblem(task, Mode.DISENTANGLED), truth.count - 1)


def sudoku(puzzles: int, seed: int, extractor: str | None = None) -> dict:
    """A ViSudo-PC-like task: distinct 4x4 grids of values 1-4, about half valid, the others a valid
    grid with one or two cells replaced or swapped; labelled valid or not."""
    rng = random.Random(seed)
    grids = _valid_grids()
    rows: set[tuple[int, ...]] = set()
    while len(rows) < puzzles:
        grid = list(rng.choice(grids))
        if rng.random() < 0.5:
            for _ in range(rng.choice([1, 2])):
                if rng.random() < 0.5:
                    cell = rng.randrange(16)
                    grid[cell] = rng.choice([v for v in range(1, 5) if v != grid[cell]])
                else:
                    a, b = rng.sample(range(16), 2)
                    grid[a], grid[b] = grid[b], grid[a]
        rows.add(tuple(grid))
    names = [f"cell_{r}{c}" for r, c in CELLS]
    data = {
        "concepts": {n: [1, 2, 3, 4] for n in names},
        "labels": {"valid": " & ".join(f"({names[a]} != {names[b]})" for a, b in NEIGHBOURS)},
        "support": [list(r) for r in sorted(rows)],
    }
    return data | ({"extractor": extractor} if extractor else {})


def _valid_grids() -> list[tuple[int, ...]]:
    """The 288 valid 4x4 sudoku grids."""
    found = []

    def fill(grid: list[int]) -> None:
        if len(grid) == 16:
            found.append(tuple(grid))
            return
        cell = len(grid)
        for v in range(1, 5):
            if all(grid[a] != v for a, b in NEIGHBOURS if b == cell):
                fill([*grid, v])

    fill([])
    return found


def test_there_are_288_valid_grids():
    assert len(_valid_grids()) == 288


@pytest.mark.parametrize("puzzles,seed,maps", [(30, 4, 384), (200, 1, 24)])
def test_a_sudoku_in_place_counts_as_decompose_counts_it(puzzles, seed, maps):
    """30 puzzles leave value maps other than one permutation shared by every cell."""
    task = task_from_dict(sudoku(puzzles, seed, "in-place"))
    assert (
        backend_count("pairwise", task, encoded=False)
        == backend_count("decompose", task, encoded=False)
        == maps
    )


def test_a_sudoku_with_every_placement_has_its_symmetries_maps_only():
    """1000 puzzles: the 128 automorphisms of the sudoku's cells times the 4! value maps, found as
    one orbit and a refutation."""
    result = backend_result("pairwise", task_from_dict(sudoku(1000, 3)), encoded=False)
    assert (result.count, result.details["orbits"], result.details["symmetries"]) == (3072, 1, 3072)


def test_colourings_of_a_cycle_count_as_search_counts_them():
    """Five concepts in a cycle, adjacent ones different, on 10 of its 30 proper colourings with 3
    values and 10 random vectors (120 maps: two orbits under the cycle's 10 symmetries x 3!)."""
    names = "abcde"
    rng = random.Random(5)
    proper = [r for r in itertools.product(range(3), repeat=5) if all(r[i] != r[i - 1] for i in range(5))]
    rows = set(rng.sample(proper, 10)) | {tuple(rng.randrange(3) for _ in names) for _ in range(10)}
    data = {
        "concepts": {n: [0, 1, 2] for n in names},
        "labels": {"proper": " & ".join(f"({a} != {b})" for a, b in zip(names, names[1:] + names[0]))},
        "support": [list(r) for r in sorted(rows)],
    }
    task = task_from_dict(data)
    result = backend_result("pairwise", task, encoded=False)
    assert (result.count, result.details["orbits"]) == (backend_count("search", task, encoded=False), 2)


@pytest.mark.parametrize(
    "labels",
    [{"y": "a + b"}, {"y": "(a != b) & (a != b + c)"}, {"y": "((a != b) & (b != c)) | (a == c)"}],
)
def test_labels_that_are_no_two_concept_tests_are_declined(labels):
    task = task_from_dict(
        {"concepts": {n: [0, 1, 2] for n in "abc"}, "labels": labels, "support": "exhaustive"}
    )
    assert pairwise_labels(task) is None
    with pytest.raises(Unsuited):
        backend_count("pairwise", task, encoded=False)


def test_the_objects_mode_is_declined():
    data = {"objects": {"count": 2, "attributes": {"d": [0, 1, 2]}}, "labels": {"y": "d_1 != d_2"}}
    with pytest.raises(Unsuited):
        backend_count("pairwise", task_from_dict(data | {"support": "exhaustive"}), encoded=False)


def test_past_its_budget_of_orbits_it_declines():
    task = task_from_dict(
        {"concepts": {n: [0, 1, 2] for n in "abc"}, "labels": {"y": "a < b"}, "support": [[0, 1, 2]]}
    )
    with pytest.raises(TooManyModels):
        backend_count("pairwise", task, budget=Budget(max_models=1), encoded=False)
