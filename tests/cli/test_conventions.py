"""The conventions CI users rely on: exit codes (0 fine, 1 shortcuts or a failed expectation, 2
invalid input, 3 a limit reached), DIMACS counted by `count`, report outputs replaced on reruns,
pins rewritten in place by `report --update-pins`, failed pins that say what moved, and the
objects mode by default for tasks with objects."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat

import pytest
import yaml
from support import REPO

from rscount import outputs

SLOW = (  # MNMath's equations on 40 random rows: no count within a minute, a limit of 0.3 s stops it
    "concepts: {" + ", ".join(f"d{i}: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" for i in range(1, 9)) + "}\n"
    "labels:\n  y1: d1 + d2 == d3 + d4\n  y2: d5 * d6 == d7 * d8\nsupport: {examples: 40, seed: 1}\n"
)
XOR3 = "concepts: {c1: [0, 1], c2: [0, 1], c3: [0, 1]}\nlabels: {y: c1 ^ c2 ^ c3}\n"


@pytest.fixture
def files(tmp_path):
    """Task files: free of shortcuts, with shortcuts, pinned right, pinned wrong, invalid, slow."""
    made = {
        "free": "concepts: {a: [0, 1]}\nlabels: {y: a}\n",
        "shortcuts": XOR3,
        "pinned": XOR3 + "expect: {count: 24}\n",
        "wrong": "# the pin below is stale\n" + XOR3 + "expect:\n  count: 25  # measured once\n",
        "invalid": "concepts: {a: [0, 1]}\nlabels: {y: b}\n",
        "slow": SLOW,
    }
    for name, text in made.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("name", "code"),
    [("free", 0), ("pinned", 0), ("shortcuts", 1), ("wrong", 1), ("invalid", 2), ("slow", 3)],
)
def test_check_exit_codes(cli, files, name, code):
    run = cli("check", files / f"{name}.yaml", "--timeout", "0.3" if name == "slow" else "60", "--quiet")
    assert run.code == code, run.out + run.err


def test_check_of_several_files_exits_with_the_worst(cli, files):
    assert cli("check", files / "free.yaml", files / "wrong.yaml", "-q").code == 1
    assert cli("check", files / "wrong.yaml", files / "invalid.yaml", files / "free.yaml", "-q").code == 2
    run = cli("check", files / "free.yaml", files / "pinned.yaml", "--json", "-q")
    assert [json.loads(line)["status"] for line in run.out.splitlines()] == ["free", "passed"]


def test_count_exits_0_when_counted_2_on_bad_input_3_at_the_time_limit(cli, files):
    assert cli("count", files / "shortcuts.yaml").code == 0  # `count` answers; check and report judge
    assert cli("count", files / "invalid.yaml").code == 2
    run = cli("count", files / "slow.yaml", "--timeout", "0.3")
    line = run.err.strip()  # what was established by then, if anything, is said between the two
    assert run.code == 3 and line.startswith("rscount: error: stopped after the time limit of 0.3 s")
    assert line.endswith("(--timeout)") and len(line.splitlines()) == 1


@pytest.mark.parametrize(
    ("names", "code"),
    [
        (["free", "pinned"], 0),
        (["free", "wrong"], 1),
        (["wrong", "slow"], 3),
        (["slow", "invalid", "wrong"], 2),
    ],
)
def test_report_exit_codes_and_their_precedence(cli, files, tmp_path, names, code):
    run = cli("report", *(files / f"{n}.yaml" for n in names), "--timeout", "0.5", "--quiet")
    assert run.code == code, run.out


def test_a_failed_pin_says_how_the_count_moved_and_what_may_have(cli, files, tmp_path):
    xml = tmp_path / "r.xml"
    run = cli("report", files / "wrong.yaml", "--markdown", tmp_path / "r.md", "--junit", xml, "-q")
    reason = "the count moved from 25 (pinned) to 24 (-1); concepts that may now be swapped or remapped: c1"
    assert run.code == 1 and reason in run.out
    assert reason in (tmp_path / "r.md").read_text()
    assert reason in xml.read_text()


def test_update_pins_rewrites_only_the_pinned_number(cli, files):
    path = files / "wrong.yaml"
    before = path.read_text()
    out = files / "r.json"
    run = cli("report", path, "--update-pins", "--json", out, "-q")
    assert run.code == 0 and "wrong.yaml: expect.count 25 -> 24" in run.out
    assert path.read_text() == before.replace("count: 25", "count: 24")  # the comments stay
    (entry,) = json.loads(out.read_text())["tasks"]  # judged again on the pin as rewritten
    assert entry["status"] == "passed"
    assert entry["verdict"] == "pass: 23 shortcuts; concepts involved: c1, c2, c3"
    assert cli("report", path, "-q").code == 0


def test_update_pins_rewrites_a_shortcuts_pin_and_leaves_bounds_alone(cli, tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(XOR3 + "expect: {shortcuts: 5, max_count: 30}\n")
    assert cli("report", path, "--update-pins", "-q").code == 0
    assert yaml.safe_load(path.read_text())["expect"] == {"shortcuts": 23, "max_count": 30}
    path.write_text(XOR3 + "expect: {max_count: 10}\n")
    assert cli("report", path, "--update-pins", "-q").code == 1  # a bound is a design choice
    assert yaml.safe_load(path.read_text())["expect"] == {"max_count": 10}


def test_count_reads_dimacs_by_extension_or_content(cli, tmp_path):
    by_command = cli("cnf", REPO / "dimacs" / "and3.cnf", "--json").json()
    assert cli("count", REPO / "dimacs" / "and3.cnf", "--json").json()["count"] == by_command["count"] == 6
    plain = tmp_path / "knowledge.txt"
    shutil.copy(REPO / "dimacs" / "and3.cnf", plain)
    assert cli("count", plain, "--json").json()["count"] == 6


def test_tasks_with_objects_count_in_the_objects_mode_unless_they_say_otherwise(cli, tmp_path):
    digits = {"count": 3, "attributes": {"digit": list(range(10))}}
    support = {"examples": 10, "seed": 1}
    task = {"objects": digits, "labels": {"s": "digit_1 + digit_2 + digit_3"}, "support": support}
    (tmp_path / "mnadd3.yaml").write_text(yaml.safe_dump(task))
    (tmp_path / "mnadd3-d.yaml").write_text(yaml.safe_dump({**task, "mode": "disentangled"}))
    default = cli("count", tmp_path / "mnadd3.yaml", "--json").json()
    assert (default["mode"], default["count"]) == ("objects", 6)  # one extractor: only the digit swaps
    said = cli("count", tmp_path / "mnadd3-d.yaml", "--json").json()
    assert (said["mode"], said["count"]) == ("disentangled", 157038 * 10**12)


def test_reasons_no_closed_form_applies_are_shown_with_verbose(cli):
    quiet = cli("xor", "--bits", "4", "--examples", "3")
    verbose = cli("xor", "--bits", "4", "--examples", "3", "--verbose")
    assert "no closed form applies" not in quiet.out
    assert "no closed form applies: one example: the support has 3 concept vectors, not one" in verbose.out


def test_autos_race_is_shown_with_verbose(cli):
    task = REPO / "tasks" / "dice.yaml"  # past search's head start: counted in the race
    quiet = cli("count", task)
    verbose = cli("count", task, "--verbose")
    json_race = cli("count", task, "--json").json()["details"]["race"]
    assert "the race (auto)" not in quiet.out
    (line,) = [line for line in verbose.out.splitlines() if line.startswith("the race (auto): ")]
    assert [entrant.split()[0] for entrant in line.split(": ", 1)[1].split("; ")] == [
        entrant["method"].split()[0] for entrant in json_race
    ]
    assert any(entrant["outcome"] == "answered" for entrant in json_race) and " answered after " in line


def test_update_pins_keeps_the_files_mode_and_a_failed_write_leaves_it_whole(cli, files, monkeypatch):
    path = files / "wrong.yaml"
    before = path.read_text()
    path.chmod(0o640)

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(outputs.os, "fsync", disk_full)
    run = cli("report", path, "--update-pins", "-q")  # that task's pin is not updated, and still fails
    assert run.code == 1 and "wrong.yaml: not updated (" in run.out and "No space left on device" in run.out
    assert path.read_text() == before and not [p for p in files.iterdir() if p.name.startswith(".")]
    monkeypatch.undo()
    assert cli("report", path, "--update-pins", "-q").code == 0
    assert "count: 24" in path.read_text() and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_update_pins_over_a_merge_key_or_an_alias_leaves_that_file_and_updates_the_others(cli, tmp_path):
    xor = "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a ^ b}\n"
    (tmp_path / "merged.yaml").write_text(xor + "expect:\n  <<: {count: 5}\n")
    (tmp_path / "aliased.yaml").write_text("name: &n 5\n" + xor + "expect: {count: *n}\n")
    (tmp_path / "plain.yaml").write_text(xor + "expect: {count: 5}\n")
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    run = cli("report", tmp_path, "--update-pins", "-q")
    assert run.code == 1 and "Traceback" not in run.out + run.err
    assert "merged.yaml: not updated (" in run.out and "merge key" in run.out
    assert "aliased.yaml: not updated (" in run.out and "plain.yaml: expect.count 5 -> 4" in run.out
    assert (tmp_path / "plain.yaml").read_text() == xor + "expect: {count: 4}\n"
    for name in ("merged.yaml", "aliased.yaml"):
        assert (tmp_path / name).read_text() == before[name]


XOR2 = "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a ^ b}\nexpect: {count: 4}\n"


@pytest.mark.parametrize(
    ("args", "victim"),
    [
        (["report", "t.yaml", "--markdown", "t.yaml"], "t.yaml"),
        (["report", "t.yaml", "--junit", "link.yaml"], "t.yaml"),  # a link to the task file
        (["count", "t.yaml", "--emit", "t.yaml", "--force"], "t.yaml"),
        (["sweep", "t.yaml", "--fractions", "0.5", "--seeds", "1", "--csv", "t.yaml", "--force"], "t.yaml"),
        (["advise", "t.yaml", "--examples", "1", "--emit-task", "t.yaml", "--force"], "t.yaml"),
        (["forecast", "p.yaml", "--plot", "kb.png", "--force"], "kb.png"),  # the program's file
        (["report", "p.yaml", "--json", "kb.png"], "kb.png"),
        (
            ["sweep", "r.yaml", "--fractions", "0.5", "--seeds", "1", "--csv", "rows.csv", "--force"],
            "rows.csv",
        ),
    ],
)
def test_no_output_is_written_over_one_of_the_runs_inputs(cli, tmp_path, monkeypatch, args, victim):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.yaml").write_text(XOR2)
    (tmp_path / "link.yaml").symlink_to(tmp_path / "t.yaml")
    (tmp_path / "kb.png").write_text("0.5::a.\n0.5::b.\nq :- a, b.\n")  # a program, whatever its name
    (tmp_path / "p.yaml").write_text("program: kb.png\nquery: q\n")
    (tmp_path / "rows.csv").write_text("a,b\n0,1\n1,1\n")
    (tmp_path / "r.yaml").write_text(XOR2.replace("expect: {count: 4}", "support: {file: rows.csv}"))
    before = (tmp_path / victim).read_text()
    run = cli(*args, "-q")
    assert run.code == 2 and "is one of the inputs (it would be written over)" in run.err, run.err
    assert (tmp_path / victim).read_text() == before
