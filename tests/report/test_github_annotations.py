"""`rscount report --github-annotations` (and the action, which passes it): one GitHub workflow
command per task that did not pass, on the line of the task file a reviewer should look at, the
exact lines checked on a sample report."""

from __future__ import annotations

import yaml
from support import REPO

XOR3 = "concepts: {c1: [0, 1], c2: [0, 1], c3: [0, 1]}\nlabels: {y: c1 ^ c2 ^ c3}\n#\nexpect:\n  count: 25\n"
BAD_LABEL = "concepts: {a: [0, 1]}\nlabels:\n  y: a +\nsupport: exhaustive\n"
BAD_ROW = "concepts: {a: [0, 1]}\nlabels: {y: a}\nsupport:\n  - [0]\n  - [3]\n"
GOOD = "concepts: {a: [0, 1]}\nlabels: {y: a}\nexpect: {count: 1}\n"


def test_each_task_that_did_not_pass_is_annotated_on_its_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name, text in {
        "xor3.yaml": XOR3,
        "bad.yaml": BAD_LABEL,
        "badrow.yaml": BAD_ROW,
        "ok.yaml": GOOD,
    }.items():
        (tasks / name).write_text(text)
    run = cli("report", "tasks", "--quiet", "--github-annotations")
    assert run.code == 2
    assert [line for line in run.out.splitlines() if line.startswith("::")] == [
        "::error file=tasks/bad.yaml,line=3,title=rscount%3A invalid task file::"
        "tasks/bad.yaml: labels.y: syntax error in 'a +' at column 0",
        "::error file=tasks/badrow.yaml,line=5,title=rscount%3A invalid task file::"
        "tasks/badrow.yaml: support[1]: value 3 of a is outside its domain [0, 1]",
        "::error file=tasks/xor3.yaml,line=5,title=rscount%3A expectation failed::"
        "the count moved from 25 (pinned) to 24 (-1)",
    ]


def test_without_the_flag_nothing_is_annotated(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "xor3.yaml").write_text(XOR3)
    run = cli("report", "xor3.yaml", "--quiet")
    assert run.code == 1 and "::error" not in run.out


def test_the_action_asks_for_annotations():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    (step,) = [s for s in action["runs"]["steps"] if s.get("id") == "report"]
    assert "--github-annotations" in step["run"]


def test_an_error_inside_a_program_or_annotation_file_is_annotated_on_that_files_line(
    cli, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "kb.pl").write_text("0.5::a.\nq :- a, X.\n")
    (tasks / "prog.yaml").write_text("program: kb.pl\nquery: q\n")
    (tasks / "rows.csv").write_text("a\n0\n7\n")
    (tasks / "rows.yaml").write_text("concepts: {a: [0, 1]}\nlabels: {y: a}\nsupport: {file: rows.csv}\n")
    run = cli("report", "tasks", "--quiet", "--github-annotations")
    annotations = [line for line in run.out.splitlines() if line.startswith("::")]
    assert [line.split("::")[1] for line in annotations] == [
        "error file=tasks/kb.pl,line=2,title=rscount%3A invalid task file",
        "error file=tasks/rows.csv,line=3,title=rscount%3A invalid task file",
    ]
