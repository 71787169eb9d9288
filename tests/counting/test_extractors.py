"""The extractor's structure (task.model.Extractor): an extractor in place fixes the concept
permutation (in the objects mode the objects'), and every method that counts it agrees with the
brute force over those maps alone; the methods that sum over permutations in ways of their own
decline it by name, and so do the joint and jrs modes."""

from __future__ import annotations

import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from references.oracle import Truth
from strategies.mixedtasks import in_place_tasks
from support import REPO, assert_methods_count, backend_count, examples

import rscount
from rscount.counting.budget import Unsuited
from rscount.counting.methods import BACKENDS, IN_PLACE
from rscount.errors import InvalidSetting, NotApplicable, TaskError
from rscount.formats.task_files.writing import task_yaml
from rscount.knowledge.loading import load_task, task_from_dict

ORACLE = settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=examples(20))
COUNTED = ("decompose", "search", "sdd")


@ORACLE
@given(drawn=in_place_tasks())
def test_every_method_counting_an_extractor_in_place_gives_the_brute_forces_count(drawn):
    expected = Truth(drawn.problem).count
    assert expected >= 1
    assert_methods_count(drawn.task(), expected, COUNTED)


@ORACLE
@given(drawn=in_place_tasks())
def test_the_methods_that_sum_over_permutations_their_own_way_decline_an_extractor_in_place(drawn):
    task = drawn.task()
    for method in sorted(set(BACKENDS) - IN_PLACE):
        with pytest.raises(Unsuited, match="extractor in place"):
            backend_count(method, task, encoded=False)


def test_the_papers_figures_under_an_extractor_in_place():
    """XOR-3 seen whole, one network per bit: each bit kept or negated, an even number negated (4);
    MNAdd with all pairs, one network per digit: 1; MNAdd-EvenOdd, one shared network applied where
    each digit stands: 36 (f(a) + f(b) = a + b on its 16 pairs, 6 x 6 value maps)."""
    xor = task_from_dict(
        {
            "concepts": {c: [0, 1] for c in ("a", "b", "c")},
            "labels": {"y": "a ^ b ^ c"},
            "support": "exhaustive",
        }
    )
    assert rscount.count(xor, extractor="in-place").count == 4
    assert rscount.count(REPO / "tasks/mnadd.yaml", extractor="in-place").count == 1
    digits = {"count": 2, "attributes": {"digit": list(range(10))}}
    shared = task_from_dict(
        {"objects": digits, "labels": {"y": "digit_1 + digit_2"}, "support": "exhaustive"}
    )
    assert rscount.count(shared, extractor="shared-in-place").count == 1  # rsbench 3.1: one network per digit
    assert rscount.count(shared).count == 2  # shared: the digits' exchange
    evenodd = REPO / "tasks/mnadd-evenodd.yaml"
    assert rscount.count(evenodd, extractor="shared-in-place").count == 36
    assert rscount.count(evenodd).count == 72  # the shared extractor may exchange the digits


def test_an_extractor_in_place_never_counts_more_than_the_one_that_permutes():
    for name in ("kand-logic-2", "mnadd-half", "sdd-oia"):
        task = load_task(REPO / f"tasks/{name}.yaml")
        placed = task.with_extractor("shared-in-place" if task.objects else "in-place")
        assert 1 <= rscount.count(placed).count <= rscount.count(task).count


def test_a_task_file_states_its_extractor_and_writing_it_keeps_it(tmp_path: pathlib.Path):
    data = {
        "objects": {"count": 2, "attributes": {"digit": [0, 1, 2]}},
        "labels": {"s": "digit_1 + digit_2"},
        "support": [[0, 1], [1, 2], [2, 2]],
        "extractor": "shared-in-place",
    }
    task = task_from_dict(data)
    assert task.in_place and str(task.extractor) == "shared-in-place"
    written = tmp_path / "written.yaml"
    written.write_text(task_yaml(task, ["written back"]))
    again = load_task(written)
    assert again.in_place and again.mode == task.mode
    assert rscount.count(again).count == rscount.count(task).count


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        ({"extractor": "sideways"}, "is not one of"),
        ({"extractor": "shared"}, "needs an objects: section"),
        ({"extractor": "in-place", "mode": "objects"}, "not the objects mode"),
    ],
)
def test_a_task_file_with_an_extractor_it_cannot_have_is_refused_naming_the_field(given, problem):
    data = {"concepts": {"a": [0, 1], "b": [0, 1]}, "labels": {"y": "a | b"}, "support": "exhaustive"}
    if given.get("mode") == "objects":
        data = {"objects": {"count": 2, "attributes": {"a": [0, 1]}}, "labels": {"y": "a_1 | a_2"}}
        data["support"] = "exhaustive"
    with pytest.raises(TaskError, match=problem) as error:
        task_from_dict({**data, **given})
    assert error.value.field == "extractor"


@pytest.mark.parametrize("mode", ["joint", "jrs"])
def test_the_joint_and_jrs_modes_refuse_an_extractor_in_place_saying_why(mode):
    task = load_task(REPO / "tasks/mnadd-half.yaml").with_extractor("in-place")
    with pytest.raises(NotApplicable, match="fixes the concept permutation"):
        rscount.count(task, mode=mode)


def test_the_api_refuses_an_extractor_its_mode_contradicts():
    with pytest.raises(InvalidSetting, match="learns the maps of the objects mode"):
        rscount.count(REPO / "tasks/mnadd-evenodd.yaml", mode="disentangled", extractor="shared")


def test_the_command_line_counts_and_reports_the_extractor_it_is_given(cli):
    evenodd = REPO / "tasks/mnadd-evenodd.yaml"
    run = cli("count", evenodd, "--extractor", "shared-in-place", "--json")
    assert run.code == 0 and run.json()["count"] == 36 and run.json()["extractor"] == "shared-in-place"
    assert cli("count", evenodd, "--json").json()["extractor"] == "shared"
    text = cli("explain", evenodd, "--extractor", "shared-in-place").out
    assert "(objects count, shared-in-place extractor): 36 optimal maps" in text
    assert cli("xor", "--bits", "3", "--extractor", "in-place", "--json").json()["count"] == 4


def test_the_command_line_refuses_an_extractor_its_mode_contradicts(cli):
    run = cli("count", REPO / "tasks/mnadd-evenodd.yaml", "--mode", "disentangled", "--extractor", "shared")
    assert run.code == 2 and "--extractor" in run.err and "learns the maps of the objects mode" in run.err
    run = cli("count", REPO / "tasks/mnadd.yaml", "--extractor", "shared")
    assert run.code == 2 and "needs a task with an objects: section" in run.err


def test_advise_writes_the_extractor_it_planned_for_into_the_task_file(tmp_path: pathlib.Path):
    source = tmp_path / "evenodd.yaml"
    source.write_text((REPO / "tasks/mnadd-evenodd.yaml").read_text())
    out = tmp_path / "fixed.yaml"
    advice = rscount.advise(source, extractor="shared-in-place", emit=out)
    assert advice.start["count"] == 36 and advice.final_count == 1 and advice.verified is not None
    fixed = load_task(out)
    assert str(fixed.extractor) == "shared-in-place" and rscount.count(fixed).count == 1


def test_mnadd_half_shared_in_place_keeps_digits_0_and_1_in_every_map(cli):
    """BEARS' README on MNIST-Half: "two digits (0 and 1) are not affected by reasoning shortcuts,
    while 2, 3, and 4 can be predicted differently"; the library's task pins its 3 maps."""
    report = cli("check", REPO / "tasks/mnadd-half-shared.yaml", "--json").json()
    assert report["result"]["count"] == 3
    assert report["identified_values"] == {"digit_1": [0, 1], "digit_2": [0, 1], "digit": [0, 1]}
    assert report["unidentified"]["digit_1"]["moved"] == [2, 3, 4]
