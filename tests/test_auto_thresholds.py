"""`auto` and `approx` at their thresholds (the tables of rscount/counting/auto.py), with budgets set
small: a task right at a limit takes the cheaper method, one past it the next step, and every method
gives the count the brute force gives."""

from __future__ import annotations

import dataclasses
import pathlib
import sys

import pytest

from rscount.counting import auto, dispatch
from rscount.counting.budget import Budget
from rscount.counting.engines.class_search.search import ClassSearch
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings, Method
from rscount.encoding.modes import encode
from rscount.knowledge.loading import task_from_dict
from rscount.task.families import builtin_task
from rscount.task.model import Mode

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
SETS_GIVE_UP = {"max_states": 1, "max_models": 1}  # source sets give up at once


def budgets(monkeypatch, table: str, method: Method, **bounds: int) -> None:
    """Every step of `method` in the table `table` (AUTO, APPROX) with these bounds of its budget."""

    def changed(step: auto.Step) -> auto.Step:
        if step.method != method or step.budget == Budget():
            return step
        return dataclasses.replace(step, budget=dataclasses.replace(step.budget, **bounds))

    old = getattr(auto, table)
    monkeypatch.setattr(auto, table, {mode: tuple(map(changed, steps)) for mode, steps in old.items()})


def classes_and_models(task) -> tuple[int, int, str]:
    """Permutation classes, solver models and the class search strategy of a task."""
    problem = CountProblem.of(encode(task))
    plan = ClassSearch(problem)
    classes = len(list(plan))
    per_model = problem.encoding.counting_view[2]
    models = dispatch.count_problem(problem, CountSettings("enumerate")).count // per_model
    return classes, models, plan.strategy


def auto_count(task, mode: str | None = None):
    return dispatch.count_task(task, CountSettings("auto", mode))


def test_the_tasks_are_what_the_thresholds_need():
    assert TREE_COUNT == 8 and classes_and_models(TREE) == (2, 8, "tree")
    assert SAT_COUNT == 200 and classes_and_models(SAT)[::2] == (6, "sat")


def test_auto_decomposes_at_the_class_limit(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=2)
    result = auto_count(TREE)
    assert result.method == "decompose" and result.count == TREE_COUNT
    assert result.details["auto"] == "at most 2 permutation classes survive"


def test_auto_enumerates_one_class_past_the_limit_when_the_tree_finds_the_classes(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.SOURCE_SETS, **SETS_GIVE_UP)
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=1)
    result = auto_count(TREE)
    assert result.method == "enumerate" and result.count == TREE_COUNT
    assert "more than 1 permutation classes" in result.details["auto"]
    assert "at most 1000 solver models" in result.details["auto"]


def test_auto_enumerates_at_the_model_limit(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.SOURCE_SETS, **SETS_GIVE_UP)
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=1)
    budgets(monkeypatch, "AUTO", Method.ENUMERATE, max_models=8)
    result = auto_count(TREE)
    assert result.method == "enumerate" and result.count == TREE_COUNT


def test_auto_turns_to_approxmc_one_model_past_the_limit(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.SOURCE_SETS, **SETS_GIVE_UP)
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=1)
    budgets(monkeypatch, "AUTO", Method.ENUMERATE, max_models=7)
    result = auto_count(TREE)
    assert result.method == "approxmc" and not result.exact
    assert "more than 7 solver models" in result.details["auto"]
    assert TREE_COUNT / 1.8 <= result.count <= TREE_COUNT * 1.8


def test_auto_counts_sat_found_classes_past_the_limit_as_it_finds_them(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.SOURCE_SETS, **SETS_GIVE_UP)
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=5)
    result = auto_count(SAT)
    assert result.method == "decompose" and result.count == SAT_COUNT
    assert result.details["auto"] == (
        "classes found by SAT: counted as found (after decompose: more than 5 permutation classes survive "
        "pruning; source-sets: more than 1 readings of a label group)"
    )
    assert result.details["counted_while_found"] is True


def test_auto_sums_over_source_sets_past_the_class_limit(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=5)
    result = auto_count(SAT)
    assert result.method == "source-sets" and result.count == SAT_COUNT and result.exact
    assert result.details["auto"] == (
        "too many permutation classes: summed over source sets "
        "(after decompose: more than 5 permutation classes survive pruning)"
    )


def test_auto_decomposes_sat_found_classes_at_the_limit_before_counting(monkeypatch):
    budgets(monkeypatch, "AUTO", Method.DECOMPOSE, max_classes=6)
    result = auto_count(SAT)
    assert result.method == "decompose" and result.count == SAT_COUNT
    assert result.details["auto"] == "at most 6 permutation classes survive"
    assert "counted_while_found" not in result.details


@pytest.mark.parametrize(("limit", "method"), [(4, "enumerate"), (3, "sdd")])
def test_auto_in_the_joint_mode_enumerates_up_to_the_limit_then_uses_sdd(monkeypatch, limit, method):
    task = builtin_task("xor", 2, support=[[0, 0], [0, 1]])
    expected = brute_force_joint([[0, 1], [0, 1]], lambda c: sum(c) % 2, [(0, 0), (0, 1)], set())
    problem = CountProblem.of(encode(task, "joint"))
    assert expected == 64 and expected // problem.encoding.counting_view[2] == 4  # solver models
    budgets(monkeypatch, "AUTO", Method.ENUMERATE, max_models=limit)
    without_closed_form = tuple(s for s in auto.AUTO[Mode.JOINT] if s.method != Method.CLOSED_FORM)
    monkeypatch.setitem(auto.AUTO, Mode.JOINT, without_closed_form)  # it answers any joint count
    result = dispatch.count_problem(problem, CountSettings("auto", "joint"))
    assert result.method == method and result.count == expected and result.exact
    why = {
        "enumerate": f"at most {limit} solver models, enumerated",
        "sdd": f"the joint CNF by SDD (after enumerate: more than {limit} solver models)",
    }
    assert result.details["auto"] == why[method]


def test_approx_estimates_per_class_at_its_class_limit(monkeypatch):
    budgets(monkeypatch, "APPROX", Method.DECOMPOSE_APPROX, max_classes=6)
    result = dispatch.count_task(SAT, CountSettings("approx"))
    assert result.method == "decompose-approx" and not result.exact
    assert result.details["auto"] == "few permutation classes: ApproxMC per class"
    assert SAT_COUNT / 1.8 <= result.count <= SAT_COUNT * 1.8


def test_approx_uses_one_approxmc_call_one_class_past_its_limit(monkeypatch):
    budgets(monkeypatch, "APPROX", Method.DECOMPOSE_APPROX, max_classes=5)
    result = dispatch.count_task(SAT, CountSettings("approx"))
    assert result.method == "approxmc" and not result.exact
    assert (
        "(after decompose-approx: more than 5 permutation classes survive pruning)" in result.details["auto"]
    )
    assert SAT_COUNT / 1.8 <= result.count <= SAT_COUNT * 1.8


def test_the_documentation_points_to_the_tables_instead_of_retelling_them():
    for path in (REPO / "README.md", REPO / "docs" / "performance.md"):
        text = " ".join(path.read_text().split())
        assert "rscount/counting/auto.py" in text, path
        assert f"at most {auto.DECOMPOSE_MAX_CLASSES} permutation classes" not in text, path


def test_every_mode_has_an_auto_table_ending_in_a_step_without_budget_or_condition():
    for mode, steps in auto.AUTO.items():
        assert steps[-1].budget == Budget() and steps[-1].when is auto.ALWAYS, mode


def test_approx_in_the_joint_mode_runs_approxmc_on_the_joint_cnf():
    task = builtin_task("xor", 2, support=[[0, 0], [0, 1]])
    result = dispatch.count_task(task, CountSettings("approx", "joint"))
    assert result.method == "approxmc" and result.details["auto"] == "ApproxMC on the whole CNF"
    assert 64 / 1.8 <= result.count <= 64 * 1.8
