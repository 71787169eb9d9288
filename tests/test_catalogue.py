"""The bundled tasks: every file loads, docs/tasks.md (which must therefore be current) shows the
count each file pins with expect:, small pins agree with enumeration (a route that shares nothing
with auto's methods), and the catalogue says which tasks read their knowledge from programs and
which have program twins. Counting every file by auto against its pin is .ci/run's `rscount report
tasks/`, not a test: a test would only repeat it against a wall clock."""

from __future__ import annotations

import functools
import re

import pytest
from support import REPO

from rscount import count
from rscount.knowledge.loading import load_task
from rscount.report.batch import task_paths
from rscount.task.expectations import judge_pins

TASKS = task_paths([REPO / "tasks"])
DOC = (REPO / "docs" / "tasks.md").read_text()
ROW = re.compile(r"^\| \[(?P<file>[^\]]+)\]\([^)]*\) \| (?P<cells>.*) \|$")
ENUMERATE_MAX = 2000  # enumeration of the objects CNFs: about 40 models per second (kand-logic-2)
ENUMERATE_ROWS = 120  # and only of small supports (forth-add, 361 rows of 6 concepts: minutes)
HANG_SECONDS = 600  # only catches a hang: the slowest enumeration here takes about a minute
loaded = functools.cache(load_task)  # each file read once per worker (all of them: 15 s)


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
def test_the_catalogue_shows_a_count_the_files_pins_allow(path):
    expect = loaded(path).expect
    assert expect, f"{path.name} pins no count"
    cells = documented()[path.name]
    if cells["exact / ±eps"] == "exact":
        outcomes = judge_pins(expect, int(cells["count"]), exact=True)
    else:
        estimate = int(cells["count"].lstrip("~").split()[0])
        outcomes = judge_pins(expect, estimate, exact=False, epsilon=float(cells["exact / ±eps"].lstrip("±")))
    assert not [o.message for o in outcomes if o.failed]


ENUMERATED_SLOWLY = {"mnmath"}  # 75 s on 2 cores: with --slow only


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.stem in ENUMERATED_SLOWLY else p for p in TASKS],
    ids=lambda p: p.stem,
)
def test_small_pins_agree_with_enumeration(path):
    task = loaded(path)
    pinned = task.expect.get("count")
    if pinned is None or pinned > ENUMERATE_MAX or task.support.size > ENUMERATE_ROWS:
        pytest.skip("no small exact pin, or a large support")
    assert count(task, "enumerate", timeout=HANG_SECONDS).count == pinned


@pytest.mark.parametrize("path", TASKS, ids=lambda p: p.stem)
def test_the_catalogue_says_which_tasks_come_from_programs_and_which_have_program_twins(path):
    cell = documented()[path.name]["knowledge"]
    program = loaded(path).program
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


def test_the_catalogue_counts_joint_reasoning_shortcuts_in_the_jrs_mode(cli, tmp_path):
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
    column = header.index("joint reasoning shortcuts (jrs)") + 1
    assert rows["or3"][column] == "3792" and rows["xor3"][column] == "0"
