"""Names and values from a task file that attack the places rscount writes them (a CI runner's log,
GitHub annotations, the Markdown job summary, JUnit XML, the sweep's CSV, the task file advise
emits): drawn with line breaks, `::` and `##[` commands, `%0A`, `|`, `<script>`, `]]>`, control
characters and formula starts, through every writer, and each output read back as its reader
would: it parses, holds what the task said, and commands nothing (issue 56)."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rscount.sinks import xml_text

PIECES = [
    "\n::add-mask::x",
    "\n::stop-commands::t",
    "\r::error file=f::forged",
    "##[set-output name=a]b",
    "%0A::warning::x",
    "|",
    "<script>alert(1)</script>",
    "]]>",
    "\x1b[2J",
    "\x00",
    "\u2028",
    "=SUM(1)",
    "@cmd",
    "-x",
    "mode: joint",
    "\nmode: joint",
    "# c",
    "'",
    '"',
    "\\",
    "\t",
]
NAME = st.lists(st.one_of(st.sampled_from(PIECES), st.text("ab :", max_size=3)), min_size=1, max_size=5).map(
    "".join
)
EXAMPLES = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def runner_commands(out: str) -> list[str]:
    """The lines a GitHub runner would act on: `::` after blanks, or `##[` anywhere."""
    return [line for line in out.splitlines() if line.lstrip().startswith("::") or "##[" in line]


def task_text(name: str, value: str) -> str:
    values = [value + "1", value + "2"]
    return yaml.safe_dump(
        {
            "name": name,
            "description": name,
            "concepts": {"a": values, "b": values},
            "labels": {"y": "a == b"},
            "support": [[values[0], values[0]], [values[0], values[1]]],
            "expect": {"count": 3},  # wrong on purpose: a failed pin is annotated and reported
        }
    )


@EXAMPLES
@given(name=NAME, value=NAME)
def test_a_report_of_a_hostile_task_parses_everywhere_and_commands_nothing(cli, tmp_path, name, value):
    directory = tmp_path / "tasks"
    directory.mkdir(exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    file_name = "t" + "".join(c for c in name if c not in "/\x00")[:40] + ".yaml"
    (directory / file_name).write_text(task_text(name, value))
    out = {kind: tmp_path / f"report.{kind}" for kind in ("md", "json", "xml")}
    run = cli(
        "report",
        directory,
        "-q",
        "--github-annotations",
        "--markdown",
        out["md"],
        "--json",
        out["json"],
        "--junit",
        out["xml"],
    )
    assert run.code == 1, run.err
    commands = runner_commands(run.out)
    assert len(commands) == 1 and commands[0].startswith("::error file=")  # ours, and only ours
    properties, message = commands[0][len("::error ") :].split("::", 1)
    assert set(dict(p.split("=", 1) for p in properties.split(","))) == {"file", "line", "title"}
    assert "\n" not in message and "\r" not in message
    report = json.loads(out["json"].read_text())
    assert report["tasks"][0]["task"] == name and report["tasks"][0]["status"] == "failed"
    suites = ET.fromstring(out["xml"].read_text())
    assert suites.find(".//testcase").get("name") == xml_text(file_name)  # as it is, but what XML cannot hold
    markdown = out["md"].read_text()
    assert "<" not in markdown and not runner_commands(markdown)
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    cells = {len(re.split(r"(?<!\\)\|", row)) for row in rows}
    assert len(cells) == 1  # every row as many cells as the header: no `|` split one


@EXAMPLES
@given(name=NAME, value=NAME)
def test_the_sweep_csv_of_a_hostile_task_starts_no_formula(cli, tmp_path, name, value):
    path = tmp_path / "t.yaml"
    path.write_text(task_text(name, value))
    table = tmp_path / "sweep.csv"
    run = cli("sweep", path, "--fractions", "0.5", "--seeds", "1", "--csv", table, "--force", "-q")
    assert run.code == 0, run.err
    assert not runner_commands(run.out)
    for row in csv.reader(io.StringIO(table.read_text())):
        for cell in row:
            number = re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", cell)
            assert number or not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


@EXAMPLES
@given(name=NAME, value=NAME)
@example(name=PIECES[0], value=PIECES[0] * 2 + PIECES[2] + PIECES[0])  # once folded after its \r
def test_the_task_file_advise_emits_reads_back_as_the_same_task(cli, tmp_path, name, value):
    path = tmp_path / "t.yaml"
    path.write_text(task_text(name, value))
    emitted = tmp_path / "fixed.yaml"
    run = cli("advise", path, "--emit-task", emitted, "--force", "-q")
    assert run.code == 0, run.err
    assert not runner_commands(run.out)
    data = yaml.safe_load(emitted.read_text())
    assert set(data) <= {
        "name",
        "description",
        "concepts",
        "labels",
        "support",
        "concept_supervision",
        "expect",
    }
    assert data["name"] == name and "mode" not in data and data["concepts"]["a"] == [value + "1", value + "2"]


@pytest.mark.parametrize("command", ["check", "explain", "count", "forecast"])
def test_human_output_of_a_hostile_task_commands_nothing(cli, tmp_path, command):
    path = tmp_path / "t.yaml"
    path.write_text(task_text("\n::add-mask::x\n##[error]y\r::warning::z\x1b[2J", "\n::error::v"))
    run = cli(command, path, "-q")
    assert run.code in (0, 1), run.err
    assert not runner_commands(run.out) and "\x1b" not in run.out + run.err
