"""The linear method (labels that are affine forms of integer concepts): its count is the brute
force's on random tasks of offset and negative integers in mixed sizes, in both modes, with
supervision, extractors in place and predicted classes; it declines other labels; and it answers
the library's addition tasks with the counts they pin."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, affine_tasks, in_place_tasks, predicting_tasks
from support import REPO, backend_count, examples

from rscount.counting.budget import Unsuited
from rscount.counting.methods.linear import affine_labels, optimal_maps
from rscount.counting.methods.linear import backend as linear_backend
from rscount.counting.methods.linear.backend import LinearBackend
from rscount.counting.methods.linear.system import integer_solutions, reduced_mod_p, solutions, spanning_rows
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings, Method
from rscount.insight.simplest import Counted, listed_shortcuts
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.progress import Progress
from rscount.task.model import Mode

AFFINE = st.one_of(affine_tasks(), in_place_tasks(affine_tasks()), predicting_tasks(affine_tasks(max_rows=8)))


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=80)
@given(drawn=AFFINE)
def test_the_linear_count_is_the_brute_forces_on_affine_tasks(drawn: Drawn):
    task = drawn.task()
    assert affine_labels(task) is not None
    assert backend_count("linear", task, encoded=False) == Truth(drawn.problem).count


@pytest.mark.parametrize(
    "name",
    ["mnadd", "mnadd-half", "mnadd-evenodd", "mnadd-half-predicted", "mnadd-evenodd-bears",
     "mnadd-half-deepproblog", "mnadd-half-shared"],
)  # fmt: skip
def test_the_linear_method_gives_the_library_additions_their_pinned_counts(name):
    task = load_task(REPO / f"tasks/{name}.yaml")
    assert backend_count("linear", task, encoded=False) == task.expect["count"]


def test_a_label_that_is_no_affine_form_is_declined():
    task = task_from_dict(
        {"concepts": {"a": [0, 1, 2], "b": [0, 1, 2]}, "labels": {"y": "a * b"}, "support": "exhaustive"}
    )
    assert affine_labels(task) is None
    with pytest.raises(Unsuited, match="not an affine form"):
        backend_count("linear", task, encoded=False)


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=60)
@given(drawn=AFFINE)
def test_the_linear_method_lists_the_brute_forces_optimal_maps(drawn: Drawn):
    task = drawn.task()
    truth = Truth(drawn.problem)
    mode = "objects" if task.objects else "disentangled"
    listed = optimal_maps(CountProblem(task, Mode(mode)), truth.count + 1)
    as_values = {
        (pi, tuple(tuple(task.concepts[pi[i]].values[u] for u in f[i]) for i in range(len(pi))))
        for pi, f in listed
    }
    assert len(listed) == truth.count and as_values == set(truth.maps)


def test_check_names_the_digits_two_three_digit_numbers_may_exchange():
    """Two 3-digit numbers, one digit network, 100 random rows: the 7 shortcuts exchange digits of
    equal weight, listed by the linear method (the SAT route does not answer on this CNF)."""
    rng = random.Random(5)
    rows = [[rng.randrange(10) for _ in range(6)] for _ in range(100)]
    weights = [100, 10, 1, 100, 10, 1]
    data = {
        "objects": {"count": 6, "attributes": {"d": list(range(10))}},
        "labels": {"s": " + ".join(f"{w} * d_{n}" for n, w in enumerate(weights, 1))},
        "support": rows,
    }
    task = task_from_dict(data)
    listed = listed_shortcuts(task, Mode.OBJECTS, Counted(7, method=Method.LINEAR))
    assert listed is not None and len(listed) == 7
    reads = {frozenset((i, j) for i, j in enumerate(m.pi) if i != j) for m in listed}
    assert set().union(*reads) == {(0, 3), (3, 0), (1, 4), (4, 1), (2, 5), (5, 2)}
    assert all(m.f == tuple(tuple(range(10)) for _ in range(6)) for m in listed)


@settings(deadline=None, max_examples=60)
@given(
    unknowns=st.integers(1, 5),
    independent=st.integers(1, 4),
    combined=st.integers(0, 6),
    seed=st.integers(0, 10**6),
)
def test_the_spanning_equations_leave_every_solution_as_the_whole_system(
    unknowns, independent, combined, seed
):
    """Equations that are combinations of others (as a support's rows are of the rows that span
    them) may be left out of the reduction: the solutions are the same, each checked on every row."""
    rng = random.Random(seed)
    base = np.array([[rng.randint(-3, 3) for _ in range(unknowns + 1)] for _ in range(independent)])
    mixes = np.array([[rng.randint(-2, 2) for _ in range(independent)] for _ in range(combined)])
    rows = np.concatenate([base, mixes @ base]) if combined else base
    order = rng.sample(range(len(rows)), len(rows))
    rows = rows[order].astype(np.int64)
    matrix, rhs = rows[:, :-1], rows[:, -1]
    domains = [rng.sample(range(-3, 6), rng.randint(1, 4)) for _ in range(unknowns)]
    spanning = spanning_rows(rows)
    assert len(spanning) <= independent
    spanned, full = reduced_mod_p(matrix[spanning], rhs[spanning]), reduced_mod_p(matrix, rhs)
    assert (spanned is None) == (full is None)  # one row space modulo P: one reduced form
    assert spanned is None or [(c, list(r)) for c, r in spanned] == [(c, list(r)) for c, r in full]
    whole = {tuple(x) for x in solutions(matrix, rhs, domains, 10**6)}
    assert {tuple(x) for x in solutions(matrix, rhs, domains, 10**6, spanning)} == whole
    assert integer_solutions(matrix, rhs, domains, 10**6, spanning) == integer_solutions(
        matrix, rhs, domains, 10**6
    )


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=examples(20))
@given(drawn=affine_tasks())
def test_the_linear_count_reports_lower_bounds_and_the_classes_counted(drawn: Drawn, monkeypatch):
    """What a limit states and the race's expected time: every report's bound holds."""
    reports: list[dict] = []
    progress = Progress(enabled=False)
    progress.sink = reports.append
    monkeypatch.setattr(linear_backend, "REPORT_EVERY", 1)
    try:
        task = drawn.task()
        mode = Mode.OBJECTS if task.objects else Mode.DISENTANGLED
        count = LinearBackend().count(CountProblem(task, mode), CountSettings(), progress).count
    except Unsuited:
        reject()
    assert reports and all(1 <= r["lower_bound"] <= count for r in reports)
    assert [r["classes_done"] for r in reports] == list(range(len(reports)))
    assert all(r["classes_total"] == len(reports) for r in reports)
