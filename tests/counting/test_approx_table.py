"""`approx`'s table (rscount/counting/auto.py) at its threshold, with the budget set small: a task
right at the limit is estimated per permutation class, one past it by one ApproxMC call; and what
every table must hold. auto's race is tested in test_portfolio.py."""

from __future__ import annotations

import dataclasses
import pathlib

from references.bruteforce import brute_force_count
from support import REPO

from rscount.counting import auto, dispatch
from rscount.counting.budget import Budget
from rscount.counting.settings import CountSettings, Method
from rscount.knowledge.loading import task_from_dict
from rscount.task.families import builtin_task

# Two rows of a & ~b | c: a support without symmetry (SAT lists the classes): 6 classes.
SAT_ROWS = [(0, 0, 1), (0, 1, 1)]
SAT = task_from_dict(
    {
        "concepts": {n: [0, 1] for n in "abc"},
        "labels": {"y": "a & ~b | c"},
        "support": [list(r) for r in SAT_ROWS],
    },
    "t",
    pathlib.Path("."),
)
SAT_COUNT = brute_force_count([[0, 1]] * 3, lambda c: int(c[0] and not c[1] or c[2]), SAT_ROWS, set())


def approx_classes(monkeypatch, max_classes: int) -> None:
    """approx's per-class step with at most `max_classes` classes."""

    def changed(step: auto.Step) -> auto.Step:
        if step.method != Method.DECOMPOSE_APPROX:
            return step
        return dataclasses.replace(step, budget=dataclasses.replace(step.budget, max_classes=max_classes))

    monkeypatch.setattr(
        auto, "APPROX", {mode: tuple(map(changed, steps)) for mode, steps in auto.APPROX.items()}
    )


def test_approx_estimates_per_class_at_its_class_limit(monkeypatch):
    approx_classes(monkeypatch, 6)
    result = dispatch.count_task(SAT, CountSettings("approx"))
    assert result.method == "decompose-approx" and not result.exact
    assert result.details["auto"] == "few permutation classes: ApproxMC per class"
    assert SAT_COUNT / 1.8 <= result.count <= SAT_COUNT * 1.8


def test_approx_uses_one_approxmc_call_one_class_past_its_limit(monkeypatch):
    approx_classes(monkeypatch, 5)
    result = dispatch.count_task(SAT, CountSettings("approx"))
    assert result.method == "approxmc" and not result.exact
    assert result.details["auto"] == "ApproxMC on the whole CNF"
    assert SAT_COUNT / 1.8 <= result.count <= SAT_COUNT * 1.8


def test_the_documentation_points_to_the_tables_instead_of_retelling_them():
    for path in (REPO / "README.md", REPO / "docs" / "performance.md"):
        text = " ".join(path.read_text().split())
        assert "rscount/counting/auto.py" in text, path
        assert f"at most {auto.SOURCE_TUPLES_MAX} source tuples" not in text, path


def test_every_mode_has_tables_ending_in_a_step_without_budget_or_condition():
    for table in (auto.AUTO, auto.APPROX):
        for mode, steps in table.items():
            assert steps[-1].budget == Budget() and steps[-1].when is auto.ALWAYS, mode


def test_approx_in_the_joint_mode_runs_approxmc_on_the_joint_cnf():
    task = builtin_task("xor", 2, support=[[0, 0], [0, 1]])
    result = dispatch.count_task(task, CountSettings("approx", "joint"))
    assert result.method == "approxmc" and result.details["auto"] == "ApproxMC on the whole CNF"
    assert 64 / 1.8 <= result.count <= 64 * 1.8
