"""Knowledge as constraints: non-deterministic or contradictory knowledge is refused with the
offending concept vector; completion defaults make it a function, checked vector by vector."""

from __future__ import annotations

import pathlib
from itertools import product

import pytest
import yaml

from rscount import count
from rscount.errors import RscountError
from rscount.knowledge.loading import load_task, task_from_dict

CONCEPTS = {"ped": [0, 1], "red": [0, 1], "green": [0, 1]}


def task(knowledge, labels=None, completion=None):
    data = {"concepts": CONCEPTS, "labels": labels or {"stop": [0, 1]}, "knowledge": knowledge}
    if completion is not None:
        data["completion"] = completion
    return task_from_dict(data, "rule", pathlib.Path("."))


def test_an_implication_without_completion_is_refused_with_an_open_vector():
    with pytest.raises(RscountError, match=r"not deterministic: concept vector \{ped: 0, red: 0"):
        task(["Implies(ped | red, stop)"])


def test_contradictory_knowledge_is_refused_with_the_vector_that_has_no_label():
    with pytest.raises(RscountError, match=r"\{ped: 1, red: 1, green: \d\} fits no label"):
        task(["Implies(ped, stop)", "Implies(red, ~stop)"], completion={"stop": 0})


def test_completion_defaults_apply_in_the_order_given():
    rules = ["Implies(ped | red, stop)", "Implies(stop, ~go)", "Implies(green & ~stop, go)"]
    t = task(rules, labels={"stop": [0, 1], "go": [0, 1]}, completion={"stop": 0, "go": 0})
    for ped, red, green in product((0, 1), repeat=3):
        stop = int(ped or red)
        go = int(green and not stop)
        assert t.label_of((ped, red, green)) == (stop, go)


def test_completed_knowledge_counts_like_the_same_labels_written_as_expressions(tmp_path):
    rules = ["Implies(ped | red, stop)"]
    completed = task(rules, completion={"stop": 0})
    written = task_from_dict({"concepts": CONCEPTS, "labels": {"stop": "ped | red"}}, "w", pathlib.Path("."))
    assert count(completed, "exact").count == count(written, "exact").count


def test_a_deterministic_constraint_needs_no_completion():
    t = task(["Equivalent(stop, ped | red)"])
    assert [t.label_of(r) for r in product((0, 1), repeat=3)] == [
        (int(p or r),) for p, r, _ in product((0, 1), repeat=3)
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"completion": {"stop": 2}}, "completion.stop: 2 is not one of"),
        ({"completion": {"halt": 0}}, "completion.halt: not a label"),
        ({"knowledge": []}, "knowledge: expected a formula"),
        ({"labels": {"ped": [0, 1]}}, "cannot share its name"),
    ],
)
def test_malformed_constraint_sections_name_the_field(tmp_path, extra, message):
    data = {"concepts": CONCEPTS, "labels": {"stop": [0, 1]}, "knowledge": ["Equivalent(stop, ped)"], **extra}
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(RscountError, match=message):
        load_task(path)


def test_cli_reports_non_deterministic_knowledge_in_one_line(cli, tmp_path):
    path = tmp_path / "rule.yaml"
    path.write_text(
        yaml.safe_dump({"concepts": CONCEPTS, "labels": {"stop": [0, 1]}, "knowledge": "Implies(ped, stop)"})
    )
    run = cli("count", path)
    assert run.code == 2 and run.err.count("\n") == 1 and "not deterministic" in run.err


def test_open_knowledge_lists_every_label_combination_a_vector_allows_and_the_labels_left_open():
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1]},
        "labels": {"y": [0, 1], "z": [0, 1]},
        "knowledge": ["Implies(a, y)", "Implies(b, z)"],
        "support": [[1, 1], [0, 1]],
    }
    with pytest.raises(RscountError) as caught:
        task_from_dict(data, "open", pathlib.Path("."))
    message = str(caught.value)
    assert "contradictory" not in message and "fits no label" not in message
    # (0, 0) allows all four pairs; both labels are open there, each mentioned by one formula
    assert (
        "{a: 0, b: 0} can have (y = 0, z = 0) or (y = 0, z = 1) or (y = 1, z = 0) or (y = 1, z = 1)"
        in message
    )
    assert (
        "y, z left open (formulas mentioning y, z: knowledge[0] Implies(a, y); knowledge[1] Implies(b, z))"
        in (message)
    )
    # the training row (0, 1) leaves y open; (1, 1) is determined
    assert "of the 2 training rows: 1 open, e.g. {a: 0, b: 1}" in message


def test_contradictory_and_open_knowledge_are_told_apart_and_the_clashing_formulas_named():
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1]},
        "labels": {"y": [0, 1], "z": [0, 1]},
        "knowledge": ["Implies(a, y)", "Implies(b, z)", "Implies(a & b, ~y)"],
        "completion": {"y": 0},
        "support": [[1, 0], [0, 1], [1, 1]],
    }
    with pytest.raises(RscountError) as caught:
        task_from_dict(data, "clash", pathlib.Path("."))
    message = str(caught.value)
    assert "contradictory: concept vector {a: 1, b: 1} fits no label combination (these clash: " in message
    assert "knowledge[0] Implies(a, y), knowledge[2] Implies(And(a, b), Not(y))" in message
    assert (
        "not deterministic: concept vector {a: 0, b: 0} can have (y = 0, z = 0) or (y = 0, z = 1)" in message
    )
    # training rows: (1, 1) contradictory (already shown, so no example), (1, 0) open (z), (0, 1) fine
    assert "of the 3 training rows: 1 contradictory, 1 open, e.g. {a: 1, b: 0}" in message
