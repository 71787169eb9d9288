"""Networks that predict more classes than the ground truth takes (`predicts:`): value maps send
ground-truth values into the wider domain, and every method that counts them agrees with the
brute force over those maps; the others, and the joint and jrs modes, decline them by name."""

from __future__ import annotations

import os
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from references.oracle import Truth
from strategies.mixedtasks import predicting_tasks
from support import REPO, assert_methods_count, backend_count, examples

import rscount
from rscount.counting.budget import Unsuited
from rscount.counting.methods import BACKENDS, WIDENED
from rscount.errors import NotApplicable, TaskError
from rscount.formats.task_files.writing import task_yaml
from rscount.knowledge.loading import load_task, task_from_dict

ORACLE = settings(
    deadline=None,
    suppress_health_check=list(HealthCheck),
    max_examples=int(os.environ.get("PREDICTS_EXAMPLES", examples(30))),
)


@ORACLE
@given(drawn=predicting_tasks())
def test_every_method_counting_predicted_classes_gives_the_brute_forces_count(drawn):
    task = drawn.task()
    assert task.predicts_more
    expected = Truth(drawn.problem).count
    assert expected >= 1
    assert_methods_count(task, expected, ("decompose", "search", "sdd", "ganak"))


@ORACLE
@given(drawn=predicting_tasks())
def test_the_methods_that_do_not_count_predicted_classes_decline_them(drawn):
    task = drawn.task()
    for method in sorted(set(BACKENDS) - WIDENED):
        with pytest.raises(Unsuited):
            backend_count(method, task, encoded=False)


def test_the_papers_figures_with_the_networks_classes():
    """MNAdd-Half with ground-truth digits 0-4 predicted as 0-9: 72, the seed's 72 x 10^10 without
    the factor of the five digits training never shows; MNAdd-EvenOdd shared in place: BEARS' 49
    with classes 0-40, 36 with 10 classes."""
    predicted = rscount.count(REPO / "tasks/mnadd-half-predicted.yaml").count
    assert predicted == 72
    assert rscount.count(REPO / "tasks/mnadd-half.yaml").count == predicted * 10**10
    assert rscount.count(REPO / "tasks/mnadd-evenodd-bears.yaml").count == 49
    ten = load_task(REPO / "tasks/mnadd-evenodd.yaml").with_extractor("shared-in-place")
    assert rscount.count(ten).count == 36


def test_a_class_no_ground_truth_takes_is_no_value_of_the_statements(cli):
    report = cli("check", REPO / "tasks/mnadd-half-predicted.yaml", "--json").json()
    assert report["identified_values"] == {"d1": [0, 1], "d2": [0, 1]}
    explained = cli("explain", REPO / "tasks/mnadd-half-predicted.yaml", "--json").json()
    for shown in explained["maps"]:
        for entry in shown["concepts"]:
            assert [v for v, _ in entry["values"]] == [0, 1, 2, 3, 4]
    assert explained["unseen_values"] == {}


def test_a_task_file_states_the_classes_and_writing_it_keeps_them(tmp_path: pathlib.Path, cli):
    task = load_task(REPO / "tasks/mnadd-evenodd-bears.yaml")
    assert task.predicted_classes() == {"digit": tuple(range(41))}
    assert task.ground_truths[0] == tuple(range(10))
    written = tmp_path / "written.yaml"
    written.write_text(task_yaml(task, ["written back"]))
    again = load_task(written)
    assert again.predicted_classes() == task.predicted_classes() and again.in_place
    assert rscount.count(again).count == 49
    record = cli("count", written, "--json").json()
    assert record["predicts"] == {"digit": 41}


BASE = {"concepts": {"a": [1, 2], "b": [1, 2]}, "labels": {"y": "a + b"}, "support": [[1, 1], [2, 1]]}


@pytest.mark.parametrize(
    ("given", "field", "problem"),
    [
        ({"predicts": {"a": [1, 3]}}, "predicts.a", "leaves out the ground-truth value 2"),
        ({"predicts": {"c": [1, 2, 3]}}, "predicts", "unknown concept or attribute"),
        ({"predicts": [1, 2, 3]}, "predicts", "expected a mapping"),
        ({"predicts": {"a": [1, 2, 3]}, "support": [[3, 1]]}, "support[0]", "outside its domain"),
        ({"predicts": {"a": [1, 2, 3]}, "labels": {"y": "Xor(a - 1, b - 1)"}}, "labels.y", "can be 2"),
    ],
)
def test_a_task_file_whose_classes_do_not_fit_is_refused_naming_the_field(given, field, problem):
    with pytest.raises(TaskError, match=problem) as error:
        task_from_dict({**BASE, **given})
    assert error.value.field == field


@pytest.mark.parametrize("mode", ["joint", "jrs"])
def test_the_joint_and_jrs_modes_refuse_predicted_classes_saying_why(mode):
    with pytest.raises(NotApplicable, match="predicts:"):
        rscount.count(REPO / "tasks/mnadd-half-predicted.yaml", mode=mode)
