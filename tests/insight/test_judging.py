"""One judging path (rscount.insight.judging) for check, report and the pytest plugin: a file gets
the same status whichever command presents it, and one pin rule holds in every mode: a task's pins
are judged in its own mode only, and --fail-on-shortcuts expects no shortcuts beyond the count's
intended part (the intended pairs in the jrs mode)."""

from __future__ import annotations

import json

import yaml

from rscount.insight.judging import Status, pins_for
from rscount.knowledge.loading import task_from_dict
from rscount.task.model import Mode

XOR3 = "concepts: {c1: [0, 1], c2: [0, 1], c3: [0, 1]}\nlabels: {y: c1 ^ c2 ^ c3}\n"
OR3 = "concepts: {a: [0, 1], b: [0, 1], c: [0, 1]}\nlabels: {y: a | b | c}\nsupport: [[0, 0, 1], [1, 1, 0]]\n"
SLOW = (  # MNMath's equations on 40 random rows: no count within a minute
    "concepts: {" + ", ".join(f"d{i}: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" for i in range(1, 9)) + "}\n"
    "labels:\n  y1: d1 + d2 == d3 + d4\n  y2: d5 * d6 == d7 * d8\nsupport: {examples: 40, seed: 1}\n"
)
FILES = {
    "free": ("concepts: {a: [0, 1]}\nlabels: {y: a}\n", Status.FREE),
    "shortcuts": (XOR3, Status.SHORTCUTS),
    "pinned": (XOR3 + "expect: {count: 24}\n", Status.PASSED),
    "wrong": (XOR3 + "expect: {count: 25}\n", Status.FAILED),
    "invalid": ("concepts: {a: [0, 1]}\nlabels: {y: b}\n", Status.INVALID),
}


def write(directory, name: str, text: str):
    path = directory / f"{name}.yaml"
    path.write_text(text)
    return path


def report_entries(cli, tmp_path, *args) -> tuple[int, list[dict]]:
    out = tmp_path / "report.json"
    run = cli("report", *args, "--json", out, "--quiet")
    return run.code, json.loads(out.read_text())["tasks"]


def test_check_and_report_give_every_file_the_same_status(cli, tmp_path):
    paths = [write(tmp_path, name, text) for name, (text, _) in FILES.items()]
    expected = [str(status) for _, status in FILES.values()]
    checked = cli("check", *paths, "--json", "--quiet").out.splitlines()
    assert [json.loads(line)["status"] for line in checked] == expected
    entries = report_entries(cli, tmp_path, *paths)[1]
    assert [e["status"] for e in entries] == expected
    assert [[o["status"] for o in e["expectations"]] for e in entries] == [[], [], ["passed"], ["failed"], []]
    slow = write(tmp_path, "slow", SLOW)
    assert json.loads(cli("check", slow, "--json", "-q", "--timeout", "0.3").out)["status"] == "limit"
    assert report_entries(cli, tmp_path, slow, "--timeout", "0.3")[1][0]["status"] == "limit"


def test_a_tasks_pins_apply_in_its_own_mode_only():
    task = task_from_dict(yaml.safe_load(XOR3 + "expect: {count: 24}\n"))
    assert pins_for(task, Mode.DISENTANGLED) == ({"count": 24}, True)
    assert pins_for(task, Mode.JOINT) == ({}, False)
    assert pins_for(task, Mode.JRS, fail_on_shortcuts=True) == ({"shortcuts": 0}, False)
    unpinned = task_from_dict(yaml.safe_load(XOR3))
    assert pins_for(unpinned, Mode.DISENTANGLED, fail_on_shortcuts=True) == ({"shortcuts": 0}, False)


def test_a_pin_measured_in_the_tasks_mode_is_not_judged_on_the_joint_count(cli, tmp_path):
    path = write(tmp_path, "pinned", XOR3 + "expect: {count: 24}\n")
    checked = cli("check", path, "--mode", "joint")
    assert checked.code == 1 and "verdict: 65535 shortcuts" in checked.out and "(pinned)" not in checked.out
    code, (entry,) = report_entries(cli, tmp_path, path, "--mode", "joint")
    assert (code, entry["status"], entry["expectations"]) == (0, "shortcuts", [])
    failed = cli("report", path, "--mode", "joint", "--fail-on-shortcuts", "--update-pins", "-q")
    assert failed.code == 1 and "pinned.yaml: FAIL: expected 0 shortcuts, found 65535 (+65535)" in failed.out
    assert path.read_text().endswith("expect: {count: 24}\n")  # the joint count is not what it pins


def test_free_of_shortcuts_in_the_jrs_mode_means_only_the_intended_pairs(cli, tmp_path):
    or3, xor3 = write(tmp_path, "or3", OR3), write(tmp_path, "xor3", XOR3 + "expect: {count: 24}\n")
    run = cli("report", or3, xor3, "--mode", "jrs", "--fail-on-shortcuts", "-q")
    assert run.code == 1 and "or3.yaml: FAIL: expected 0 shortcuts, found 3792 (+3792)" in run.out
    assert "xor3.yaml" not in run.out.rsplit("not counted", 1)[1]  # 48 pairs, all intended
    assert cli("check", or3, "--mode", "jrs", "-q").code == 1
    assert cli("check", xor3, "--mode", "jrs", "-q").code == 0


def test_a_task_whose_own_mode_is_jrs_pins_its_shortcuts_beyond_the_intended_pairs(cli, tmp_path):
    path = write(tmp_path, "or3", OR3 + "mode: jrs\nexpect:\n  shortcuts: 3792\n")
    code, (entry,) = report_entries(cli, tmp_path, path)
    assert (code, entry["status"]) == (0, "passed")
    path.write_text(OR3 + "mode: jrs\nexpect:\n  shortcuts: 3000\n")
    run = cli("report", path, "--update-pins", "-q")
    assert run.code == 0 and "or3.yaml: expect.shortcuts 3000 -> 3792" in run.out
    assert yaml.safe_load(path.read_text())["expect"] == {"shortcuts": 3792}
