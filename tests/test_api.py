"""The Python API (`import rscount`): load a task, count it, check it, as the CLI does."""

from __future__ import annotations

import pytest
from support import REPO

import rscount
from rscount.errors import RscountError

XOR3 = REPO / "tasks" / "xor3.yaml"


def test_count_returns_the_count_how_it_was_found_and_the_shortcuts():
    task = rscount.load_task(XOR3)
    result = rscount.count(task)
    assert (result.count, result.exact, result.method, result.shortcuts) == (24, True, "closed-form", 23)
    assert result.seconds >= 0


def test_count_takes_a_path_a_method_and_a_time_limit():
    result = rscount.count(str(REPO / "tasks" / "mnadd-half.yaml"), method="exact", timeout=120)
    assert (result.count, result.method) == (720000000000, "decompose")
    approx = rscount.count(XOR3, method="approxmc", seed=3, epsilon=0.5)
    assert (approx.exact, approx.epsilon, approx.seed) == (False, 0.5, 3)
    assert 24 / 1.5 <= approx.count <= 24 * 1.5


def test_count_stops_at_its_time_limit_with_a_user_error(tmp_path):
    names = [f"c{i}" for i in range(1, 10)]
    path = tmp_path / "xor9.yaml"
    path.write_text(
        "concepts: {" + ", ".join(f"{n}: [0, 1]" for n in names) + "}\n"
        f"labels:\n  y: Xor({', '.join(names)})\n"
    )
    with pytest.raises(RscountError, match="time limit"):
        rscount.count(path, method="sdd", timeout=0.5)


def test_check_returns_its_status_and_the_unidentified_concepts_as_data():
    report = rscount.check(XOR3)  # which pins its count with expect: {count: 24}
    assert report.valid and not report.free_of_shortcuts and report.status == rscount.Status.PASSED
    assert report.unidentified == {
        "c1": rscount.Unidentified(("c2", "c3"), True, (0, 1)),
        "c2": rscount.Unidentified(("c1", "c3"), True, (0, 1)),
        "c3": rscount.Unidentified(("c1", "c2"), True, (0, 1)),
    }
    assert report.to_dict()["unidentified"]["c1"] == {
        "reads": ["c2", "c3"],
        "remapped": True,
        "moved": [0, 1],
    }


def test_a_training_pipeline_changes_the_support_and_keeps_the_pin():
    task = rscount.load_task(XOR3)
    one = task.with_support([[0, 1, 1]])
    assert rscount.count(one, method="exact").count == 192 and one.expect == task.expect
    supervised = one.with_supervision([[0, 1, 1]])
    assert rscount.count(supervised, method="exact").count == 3 * 2 * 2**3  # 3! * 2^(3 * 1), the row fixed
    assert supervised.support.supervised == {(0, 1, 1)}


@pytest.mark.parametrize(
    ("rows", "field", "problem"),
    [
        ([[0, 1, 10]], "support[0]", "value 10 of c3 is outside its domain [0, 1]"),
        ([[0, 1]], "support[0]", "expected 3 values (one per concept), got 2"),
        ([{"c1": 0, "c2": 1, "c9": 1}], "support[0]", "unknown concept 'c9'"),
        ([], "support", "the support is empty"),
    ],
)
def test_bad_rows_from_a_pipeline_are_named_errors(rows, field, problem):
    task = rscount.load_task(XOR3)
    with pytest.raises(rscount.TaskError) as caught:
        task.with_support(rows)
    assert caught.value.field == field and problem in caught.value.problem


def test_supervising_a_row_outside_the_support_is_a_named_error():
    task = rscount.load_task(XOR3).with_support([[0, 1, 1]])
    with pytest.raises(rscount.TaskError, match=r"row \[1, 1, 1\] is not in the support"):
        task.with_supervision([[1, 1, 1]])


def test_tasks_from_mappings_explain_advise_and_sweep():
    data = {"concepts": {"a": [0, 1], "b": [0, 1]}, "labels": {"y": "a ^ b"}, "support": [[0, 1]]}
    task = rscount.task_from_dict(data, "xor2")
    assert rscount.count(task).count == 2 * 2**2 * 2  # k! * b^(k(b-1)) * |E(c*)|
    explained = rscount.explain(task, show=3)
    assert explained.count == 16 and len(explained.maps) == 3
    assert explained.to_dict()["mode"] == "disentangled"
    advice = rscount.advise(task, jobs=1)
    assert advice.final_count == 1 and advice.verified["count"] == 1
    swept = rscount.sweep(rscount.task_from_dict({**data, "support": "exhaustive"}, "x"), [0.5], [1, 2])
    assert [r["fraction"] for r in swept.rows] == [0.5, 1.0, 0.5, 1.0] and swept.to_dict()["task"] == "x"


def test_load_task_raises_a_user_error_naming_the_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("concepts: [")
    with pytest.raises(RscountError, match="bad.yaml:1: invalid YAML"):
        rscount.load_task(path)


@pytest.mark.parametrize("call", [rscount.count, rscount.check, rscount.explain, rscount.forecast])
def test_an_unknown_mode_is_the_typed_error_naming_the_modes(call):
    with pytest.raises(rscount.UnknownMode, match="disentangled, joint, objects, jrs"):
        call(REPO / "tasks" / "xor3.yaml", mode="bogus")
