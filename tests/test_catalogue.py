"""The bundled tasks: every file loads and counts by auto within its time limit, the count agrees
with docs/tasks.md (which must therefore be current), small counts agree with enumeration, and the
catalogue says which tasks read their knowledge from programs and which have program twins."""

from __future__ import annotations

import re

import pytest
from conftest import REPO

from rscount import count
from rscount.counting.settings import CountSettings
from rscount.knowledge.loading import load_task
from rscount.report.batch import count_file, task_paths

TASKS = task_paths([REPO / "tasks"])
DOC = (REPO / "docs" / "tasks.md").read_text()
ROW = re.compile(r"^\| \[(?P<file>[^\]]+)\]\([^)]*\) \| (?P<cells>.*) \|$")
PER_TASK_SECONDS = 120
ENUMERATE_MAX = 2000  # enumeration of the objects CNFs: about 40 models per second (kand-logic-2)


def documented() -> dict[str, dict[str, str]]:
    """file -> {column header: cell} of the catalogue's table."""
    header = next(line for line in DOC.splitlines() if line.startswith("| file |"))
    names = [c.strip() for c in header.strip("|").split("|")][1:]
    rows = {}
    for line in DOC.splitlines():
        match = ROW.match(line)
        if match:
            rows[match["file"]] = dict(zip(names, (c.strip() for c in match["cells"].split(" | "))))
    return rows


def test_every_task_file_is_in_the_catalogue_and_nothing_else():
    assert sorted(documented()) == sorted(p.name for p in TASKS)


@pytest.mark.parametrize("path", TASKS, ids=lambda p: p.stem)
def test_task_counts_as_documented(path):
    entry = count_file(path, CountSettings(timeout=PER_TASK_SECONDS))
    record = entry.record
    assert record is not None and record.count is not None, entry.error
    cells = documented()[path.name]
    count_cell, method_cell = cells["count"], cells["method"]
    assert method_cell == record.method
    if record.exact:
        assert count_cell == str(record.count)
    else:
        documented_count = int(count_cell.lstrip("~").split()[0])
        eps = record.epsilon
        assert documented_count / (1 + eps) ** 2 <= record.count <= documented_count * (1 + eps) ** 2
    if record.exact and record.count <= ENUMERATE_MAX and record.method != "enumerate":
        again = count(load_task(path), "enumerate", timeout=PER_TASK_SECONDS)
        assert again.count == record.count


@pytest.mark.parametrize("path", TASKS, ids=lambda p: p.stem)
def test_the_catalogue_says_which_tasks_come_from_programs_and_which_have_program_twins(path):
    cell = documented()[path.name]["knowledge"]
    program = load_task(path).program
    twin = path.with_suffix(".pl")
    if program:
        assert cell == f"program {program}"
    elif twin.exists():
        assert cell.endswith(f"(twin {twin.name})")
    else:
        assert cell in ("expressions", "constraints")


def test_list_shows_every_task(cli):
    run = cli("list", REPO / "tasks")
    assert run.code == 0
    for path in TASKS:
        assert path.name in run.out


def test_list_refuses_to_overwrite_a_catalogue_without_force(cli, tmp_path):
    out = tmp_path / "tasks.md"
    out.write_text("mine")
    run = cli("list", REPO / "tasks", "--markdown", out)
    assert run.code == 2 and "--force" in run.err and out.read_text() == "mine"


def test_the_catalogue_counts_joint_shortcuts_in_the_jrs_mode(cli, tmp_path):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "xor3.yaml").write_text((REPO / "tasks" / "xor3.yaml").read_text())
    (tasks / "or3.yaml").write_text(
        "concepts: {a: [0, 1], b: [0, 1], c: [0, 1]}\nlabels:\n  y: a | b | c\n"
        "support: [[0, 0, 1], [1, 1, 0]]\n"
    )
    out = tmp_path / "tasks.md"
    assert cli("list", tasks, "--markdown", out).code == 0
    rows = {
        line.split(" | ")[1]: line.split(" | ")
        for line in out.read_text().splitlines()
        if line.startswith("| [")
    }
    header = out.read_text().split("\n| file | ")[1].split(" |\n")[0].split(" | ")
    column = header.index("joint shortcuts (jrs)") + 1
    assert rows["or3"][column] == "3792" and rows["xor3"][column] == "0"
