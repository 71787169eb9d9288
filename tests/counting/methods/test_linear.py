"""The linear method (labels that are affine forms of integer concepts): its count is the brute
force's on random tasks of offset and negative integers in mixed sizes, in both modes, with
supervision, extractors in place and predicted classes; it declines other labels; and it answers
the library's addition tasks with the counts they pin."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from references.oracle import Truth
from strategies.mixedtasks import Drawn, affine_tasks, in_place_tasks, predicting_tasks
from support import REPO, backend_count

from rscount.counting.budget import Unsuited
from rscount.counting.methods.linear import affine_labels
from rscount.knowledge.loading import load_task, task_from_dict

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
