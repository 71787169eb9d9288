"""`auto` and `approx` at their thresholds (rscount/counting/policy.py), monkeypatched small: a task
right at a limit takes the cheaper method, one past it the next method, and every method gives the
count the brute force gives."""

from __future__ import annotations

import pathlib
import sys

import pytest

from rscount.counting import policy
from rscount.counting.plan import Plan
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings
from rscount.encoding.modes import encode
from rscount.knowledge.loading import task_from_dict
from rscount.task.families import builtin_task

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bruteforce import brute_force_count, brute_force_joint  # noqa: E402
from conftest import REPO  # noqa: E402

BOOL4 = [[0, 1]] * 4
ROWS4 = [(a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)]


def _task(concepts: str, label: str, support):
    data = {"concepts": {n: [0, 1] for n in concepts}, "labels": {"y": label}, "support": support}
    return task_from_dict(data, "t", pathlib.Path("."))


# Exhaustive 4-bit (a & b) | (c & d): no closed form, its support symmetric (the search tree
# builds the classes): 2 permutation classes, 8 solver models (each one map).
TREE = _task("abcd", "(a & b) | (c & d)", "exhaustive")
TREE_COUNT = brute_force_count(BOOL4, lambda c: int(c[0] and c[1] or c[2] and c[3]), ROWS4, set())
# Two rows of a & ~b | c: a support without symmetry (SAT lists the classes): 6 classes.
SAT_ROWS = [(0, 0, 1), (0, 1, 1)]
SAT = _task("abc", "a & ~b | c", [list(r) for r in SAT_ROWS])
SAT_COUNT = brute_force_count([[0, 1]] * 3, lambda c: int(c[0] and not c[1] or c[2]), SAT_ROWS, set())


def classes_and_models(task) -> tuple[int, int, str]:
    """Permutation classes, solver models and the class search strategy of a task."""
    problem = CountProblem.of(encode(task))
    plan = Plan(problem)
    classes = len(list(plan))
    per_model = problem.encoding.counting_view[2]
    models = policy.count_problem(problem, CountSettings("enumerate")).count // per_model
    return classes, models, plan.strategy


def auto(task, mode: str | None = None):
    return policy.count_task(task, CountSettings("auto", mode))


def test_the_tasks_are_what_the_thresholds_need():
    assert TREE_COUNT == 8 and classes_and_models(TREE) == (2, 8, "tree")
    assert SAT_COUNT == 200 and classes_and_models(SAT)[::2] == (6, "sat")


def test_auto_decomposes_at_the_class_limit(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 2)
    result = auto(TREE)
    assert result.method == "decompose" and result.count == TREE_COUNT
    assert result.details["auto"] == "at most 2 permutation classes survive"


def test_auto_enumerates_one_class_past_the_limit_when_the_tree_finds_the_classes(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_STATES", 1)  # source sets give up at once
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_MODELS", 1)
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 1)
    result = auto(TREE)
    assert result.method == "enumerate" and result.count == TREE_COUNT
    assert "more than 1 permutation classes" in result.details["auto"]
    assert "at most 1000 solver models" in result.details["auto"]


def test_auto_enumerates_at_the_model_limit(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_STATES", 1)  # source sets give up at once
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_MODELS", 1)
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 1)
    monkeypatch.setattr(policy, "AUTO_ENUMERATE_LIMIT", 8)
    result = auto(TREE)
    assert result.method == "enumerate" and result.count == TREE_COUNT


def test_auto_turns_to_approxmc_one_model_past_the_limit(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_STATES", 1)  # source sets give up at once
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_MODELS", 1)
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 1)
    monkeypatch.setattr(policy, "AUTO_ENUMERATE_LIMIT", 7)
    result = auto(TREE)
    assert result.method == "approxmc" and not result.exact
    assert "more than 7 solver models" in result.details["auto"]
    assert TREE_COUNT / 1.8 <= result.count <= TREE_COUNT * 1.8


def test_auto_counts_sat_found_classes_past_the_limit_as_it_finds_them(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_STATES", 1)  # source sets give up at once
    monkeypatch.setattr(policy, "AUTO_SOURCE_SET_MODELS", 1)
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 5)
    result = auto(SAT)
    assert result.method == "decompose" and result.count == SAT_COUNT
    assert (
        result.details["auto"]
        == "more than 5 permutation classes survive pruning (source sets: more than 1 readings of a label "
        "group), found by SAT: counted as found"
    )
    assert result.details["counted_while_found"] is True


def test_auto_sums_over_source_sets_past_the_class_limit(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 5)
    result = auto(SAT)
    assert result.method == "source-sets" and result.count == SAT_COUNT and result.exact
    assert result.details["auto"] == (
        "more than 5 permutation classes survive pruning: summed over source sets instead"
    )


def test_auto_decomposes_sat_found_classes_at_the_limit_before_counting(monkeypatch):
    monkeypatch.setattr(policy, "AUTO_DECOMPOSE_MAX_CLASSES", 6)
    result = auto(SAT)
    assert result.method == "decompose" and result.count == SAT_COUNT
    assert result.details["auto"] == "at most 6 permutation classes survive"
    assert "counted_while_found" not in result.details


@pytest.mark.parametrize(("limit", "method"), [(4, "enumerate"), (3, "sdd")])
def test_auto_in_the_joint_mode_enumerates_up_to_the_limit_then_uses_sdd(monkeypatch, limit, method):
    task = builtin_task("xor", 2, support=[[0, 0], [0, 1]])
    expected = brute_force_joint([[0, 1], [0, 1]], lambda c: sum(c) % 2, [(0, 0), (0, 1)], set())
    problem = CountProblem.of(encode(task, "joint"))
    assert expected == 64 and expected // problem.encoding.counting_view[2] == 4  # solver models
    monkeypatch.setattr(policy, "AUTO_ENUMERATE_LIMIT", limit)
    result = policy.count_problem(problem, CountSettings("auto", "joint"))
    assert result.method == method and result.count == expected and result.exact
    why = {"enumerate": f"the joint mode; at most {limit} solver models, enumerated"}
    assert result.details["auto"] == why.get(method, f"more than {limit} models; the joint CNF by SDD")


def test_approx_estimates_per_class_at_its_class_limit(monkeypatch):
    monkeypatch.setattr(policy, "APPROX_DECOMPOSE_MAX_CLASSES", 6)
    result = policy.count_task(SAT, CountSettings("approx"))
    assert result.method == "decompose-approx" and not result.exact
    assert result.details["auto"] == "few permutation classes: ApproxMC per class"
    assert SAT_COUNT / 1.8 <= result.count <= SAT_COUNT * 1.8


def test_approx_uses_one_approxmc_call_one_class_past_its_limit(monkeypatch):
    monkeypatch.setattr(policy, "APPROX_DECOMPOSE_MAX_CLASSES", 5)
    result = policy.count_task(SAT, CountSettings("approx"))
    assert result.method == "approxmc" and not result.exact
    assert result.details["auto"].startswith("more than 5 permutation classes survive pruning")
    assert SAT_COUNT / 1.8 <= result.count <= SAT_COUNT * 1.8


def test_the_thresholds_are_the_ones_the_documentation_states():
    readme = " ".join((REPO / "README.md").read_text().split())
    performance = " ".join((REPO / "docs" / "performance.md").read_text().split())
    assert f"when at most {policy.AUTO_DECOMPOSE_MAX_CLASSES} permutation classes survive" in readme
    assert f"when at most {policy.AUTO_ENUMERATE_LIMIT} solver models are needed" in readme
    approx = policy.APPROX_DECOMPOSE_MAX_CLASSES
    assert f"`decompose-approx` if at most {approx} classes survive" in performance


def test_approx_in_the_joint_mode_runs_approxmc_on_the_joint_cnf():
    task = builtin_task("xor", 2, support=[[0, 0], [0, 1]])
    result = policy.count_task(task, CountSettings("approx", "joint"))
    assert result.method == "approxmc" and result.details["auto"] == "the joint CNF by ApproxMC"
    assert 64 / 1.8 <= result.count <= 64 * 1.8
