"""`rscount advise`: plans whose modified task, read back from the emitted file and counted here,
has no shortcut; counts that only fall along a plan; the task-file writer; refusing to overwrite."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest
import yaml
from bruteforce import brute_force_count, brute_force_maps
from conftest import REPO

from rscount import count
from rscount.insight.advise import ANNOTATE, Step, apply_steps
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.task.families import builtin_task
from rscount.task.writing import task_yaml


def _plan_recounts_to_one(cli, tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "advised.yaml"
    run = cli("advise", *args, "--emit-task", out, "--json")
    assert run.code == 0, run.err
    record = run.json()
    counts = [record["start"]["count"]] + [step["count"] for step in record["plan"]]
    assert all(a >= b for a, b in zip(counts, counts[1:]))  # every step keeps or lowers the count
    assert counts[-1] == record["final_count"] == record["verified"]["count"] == 1
    emitted = load_task(out)  # the file a user gets, counted afresh here
    assert emitted.expect == {"count": 1}
    assert cli("check", out).code == 0
    result = count(emitted, "exact")
    assert result.count == 1 and result.exact
    return record


def test_mnadd_half_plan_recounts_to_one(cli, tmp_path):
    record = _plan_recounts_to_one(cli, tmp_path, REPO / "tasks" / "mnadd-half.yaml", "--candidates", "12")
    assert record["start"]["count"] == 720000000000
    added = [s["row"] for s in record["plan"] if s["action"] == "add"]
    digits = {d for row in added for d in row}
    assert {5, 6, 7, 8, 9} <= digits  # the support never shows these digits: only new examples pin them


def test_xor3_with_one_example_plan_recounts_to_one(cli, tmp_path):
    record = _plan_recounts_to_one(
        cli, tmp_path, REPO / "tasks" / "xor3.yaml", "--examples", "1", "--jobs", "1"
    )
    assert record["start"]["count"] == 192


def test_text_shows_the_count_after_each_step(cli):
    run = cli("advise", REPO / "tasks" / "xor3.yaml", "--actions", "annotate", "--jobs", "1")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == "task xor3 (disentangled count): 24 optimal maps as given"
    assert any(line.split()[-1] == "4" and "annotate concept" in line for line in lines)
    assert "counts 1 optimal map (exact" in run.out


def test_a_stall_is_reported_with_the_best_count(cli):
    # Exhaustive MNAdd: swapping the digits keeps every sum; adding examples cannot help (none left).
    run = cli("advise", REPO / "tasks" / "mnadd.yaml", "--actions", "add", "--jobs", "1")
    assert run.code == 0
    assert "no plan found that removes every shortcut" in run.out and "below 2" in run.out


def test_annotating_a_concept_means_supervising_it_on_every_example():
    task = builtin_task("xor", 3, {"examples": 3, "seed": 4})
    annotated = apply_steps(task, [Step(ANNOTATE, concept="c2")])
    rows = list(task.support.rows)
    maps = brute_force_maps([[0, 1]] * 3, lambda c: c[0] ^ c[1] ^ c[2], rows, set())
    # predicted c2 (pi[i] == 1 for the concept i it reads) equals the true c2 on every example
    kept = [m for m in maps if all(_predicted(m, row)[1] == row[1] for row in rows)]
    assert count(annotated, "exact", "disentangled").count == len(kept) > 1


def _predicted(m: tuple, row: tuple) -> tuple:
    pi, f = m
    out = [None] * len(row)
    for i, value in enumerate(row):
        out[pi[i]] = f[i][value]
    return tuple(out)


def test_emitting_keeps_an_existing_file_without_force(cli, tmp_path):
    out = tmp_path / "taken.yaml"
    out.write_text("mine\n")
    run = cli("advise", REPO / "tasks" / "xor3.yaml", "--emit-task", out, "--jobs", "1")
    assert run.code == 2 and run.err.startswith(f"rscount: error: --emit-task {out}: exists")
    assert out.read_text() == "mine\n"
    assert cli("advise", REPO / "tasks" / "xor3.yaml", "--emit-task", out, "--force", "--jobs", "1").code == 0
    assert load_task(out).name == "xor3-advised"


def test_unknown_actions_are_refused(cli):
    run = cli("advise", REPO / "tasks" / "xor3.yaml", "--actions", "supervise,guess")
    assert run.code == 2 and "--actions: guess" in run.err


@pytest.mark.parametrize(
    "path",
    sorted(glob.glob(str(REPO / "tasks" / "*.yaml")))
    + sorted(glob.glob(str(REPO / "tests" / "configs" / "*.yaml"))),
)
def test_written_task_files_read_back_as_the_same_task(path):
    task = load_task(path)
    task = apply_steps(task, [])
    again = task_from_dict(yaml.safe_load(task_yaml(task, ["a comment"])), "x", Path("."))
    assert again.name == task.name and again.mode == task.mode and again.objects == task.objects
    assert again.expect == task.expect
    assert again.concepts == task.concepts and again.labels == task.labels
    assert again.support.exhaustive == task.support.exhaustive
    assert again.support.supervised == task.support.supervised
    if not task.support.exhaustive:
        assert again.support.rows == task.support.rows


def test_added_and_supervised_rows_count_like_the_brute_force():
    data = {"concepts": {"a": [0, 1, 2], "b": [0, 1, 2]}, "labels": {"s": "a + b"}, "support": [[0, 1]]}
    task = task_from_dict(data, "sum3", Path("."))
    steps = [Step("add", (2, 1)), Step("supervise", (2, 1)), Step("add", (1, 1))]
    changed = apply_steps(task, steps)
    rows = [(0, 1), (2, 1), (1, 1)]
    assert list(changed.support.rows) == rows and changed.support.supervised == {(2, 1)}
    expected = brute_force_count([[0, 1, 2]] * 2, sum, rows, {(2, 1)})
    assert count(changed, "exact", "disentangled").count == expected
    assert count(task, "exact", "disentangled").count == brute_force_count(
        [[0, 1, 2]] * 2, sum, [(0, 1)], set()
    )
