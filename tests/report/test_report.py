"""`rscount report`: one run over the bundled tasks writes Markdown, JSON and JUnit that parse and
have one row, entry and test case per task; expectations pass and fail with the right exit codes
and say by how much; tasks that cannot be counted are errors, not crashes."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET

import pytest
from support import REPO

from rscount.counting.settings import CountSettings
from rscount.report.batch import ENTRY_KEYS, count_files, entry_row, task_paths

BUNDLED = ["and3.yaml", "mnadd-half.yaml", "mnadd.yaml", "xor3.yaml"]


@pytest.fixture
def tasks(tmp_path):
    """A directory with copies of the small bundled tasks."""
    directory = tmp_path / "tasks"
    directory.mkdir()
    for name in BUNDLED:
        shutil.copy(REPO / "tasks" / name, directory / name)
    shutil.copytree(REPO / "dimacs", tmp_path / "dimacs")  # and3's knowledge
    return directory


def add_expect(path, text: str) -> None:
    """Replace the task file's expect: section (the bundled tasks pin their counts)."""
    path.write_text(path.read_text().split("expect:")[0] + "expect:\n" + text)


def test_report_writes_all_three_formats_with_one_row_entry_and_case_per_task(cli, tasks, tmp_path):
    md, js, xml = tmp_path / "r.md", tmp_path / "r.json", tmp_path / "r.xml"
    run = cli("report", tasks, "--markdown", md, "--json", js, "--junit", xml, "--jobs", "2", "--quiet")
    assert run.code == 0, run.out + run.err
    rows = [line for line in md.read_text().splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == len(BUNDLED) + 1  # header + one row per task
    assert [r.split(" | ")[0].removeprefix("| ") for r in rows[1:]] == BUNDLED
    report = json.loads(js.read_text())
    assert set(report) == {"versions", "created", "settings", "summary", "tasks"}
    assert {"rscount", "python", "pysdd", "pyapproxmc", "python-sat"} <= set(report["versions"])
    assert all(report["versions"][k] for k in ("pysdd", "pyapproxmc", "python-sat"))
    assert [tuple(t) for t in report["tasks"]] == [ENTRY_KEYS] * len(BUNDLED)
    counts = {t["file"]: t["count"] for t in report["tasks"]}
    assert counts == {"and3.yaml": 6, "mnadd-half.yaml": 720000000000, "mnadd.yaml": 2, "xor3.yaml": 24}
    suite = ET.parse(xml).getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == BUNDLED
    assert suite.get("tests") == "4" and suite.get("failures") == "0" and suite.get("errors") == "0"


def test_expectations_that_hold_pass_and_those_that_fail_exit_1_saying_by_how_much(cli, tasks, tmp_path):
    add_expect(tasks / "and3.yaml", "  max_count: 6\n  min_count: 2\n")
    assert cli("report", tasks, "--quiet").code == 0
    add_expect(tasks / "mnadd.yaml", "  shortcuts: 0\n")
    xml = tmp_path / "r.xml"
    run = cli("report", tasks, "--junit", xml, "--quiet")
    assert run.code == 1
    assert "mnadd.yaml: FAIL: expected 0 shortcuts, found 1 (+1)" in run.out
    assert "4 tasks: 3 passed, 1 failed, 0 not counted" in run.out
    failures = {c.get("name"): c.find("failure") for c in ET.parse(xml).getroot().iter("testcase")}
    assert failures["mnadd.yaml"] is not None and failures["xor3.yaml"] is None
    assert "found 1 (+1)" in failures["mnadd.yaml"].text


def test_fail_on_shortcuts_fails_tasks_without_expectations_that_have_shortcuts(cli, tasks):
    for name in BUNDLED:
        if name != "xor3.yaml":
            (tasks / name).write_text((tasks / name).read_text().split("expect:")[0])
    run = cli("report", tasks, "--fail-on-shortcuts", "--quiet")
    assert run.code == 1
    assert "and3.yaml: FAIL: expected 0 shortcuts, found 5 (+5)" in run.out
    assert "xor3.yaml" not in run.out.rsplit("not counted", 1)[1]  # its own expectation holds


def test_an_approximate_count_is_judged_with_its_epsilon(cli, tasks):
    add_expect(tasks / "xor3.yaml", "  max_count: 1000\n")
    run = cli("report", tasks / "xor3.yaml", "--method", "approxmc", "--quiet")
    assert run.code == 0
    assert "±0.8 (delta 0.2)" in run.out and "pass: about" in run.out


def test_a_task_that_cannot_be_counted_is_an_error_case_not_a_crash(cli, tasks, tmp_path):
    (tasks / "broken.yaml").write_text("concepts: {a: [0, 1]}\nlabels: {y: b}\n")
    xml = tmp_path / "r.xml"
    run = cli("report", tasks, "--junit", xml, "--quiet")
    assert run.code == 2  # an invalid task file: exit 2 (before limits, 3, and failures, 1)
    assert "broken.yaml: error:" in run.out and "unknown concept: 'b'" in run.out
    cases = {c.get("name"): c for c in ET.parse(xml).getroot().iter("testcase")}
    assert cases["broken.yaml"].find("error") is not None and len(cases) == 5


def test_a_count_over_its_time_limit_is_an_error(tasks):
    slow = tasks / "xor9.yaml"
    slow.write_text(
        "concepts: {" + ", ".join(f"c{i}: [0, 1]" for i in range(1, 10)) + "}\n"
        "labels:\n  y: Xor(" + ", ".join(f"c{i}" for i in range(1, 10)) + ")\n"
    )
    (entry,) = count_files([slow], CountSettings(method="sdd", timeout=0.5), jobs=1)
    assert entry.status == "limit" and entry.failure is not None and "time limit" in entry.failure.message


def test_report_accepts_files_globs_and_directories_each_once(tasks):
    paths = task_paths([str(tasks / "xor3.yaml"), str(tasks / "a*.yaml"), str(tasks)])
    assert [p.name for p in paths] == ["xor3.yaml", "and3.yaml", "mnadd-half.yaml", "mnadd.yaml"]


def test_parallel_and_sequential_reports_agree(tasks):
    paths = task_paths([str(tasks)])
    one = count_files(paths, CountSettings(), jobs=1)
    two = count_files(paths, CountSettings(), jobs=2)
    keys = ("file", "count", "method")
    assert [[entry_row(e)[k] for k in keys] for e in one] == [[entry_row(e)[k] for k in keys] for e in two]


def test_report_replaces_its_own_outputs_on_a_rerun(cli, tasks, tmp_path):
    out = tmp_path / "r.json"
    out.write_text("an old report")
    assert cli("report", tasks, "--json", out, "--quiet").code == 0
    assert json.loads(out.read_text())["summary"]["tasks"] == 4


def test_report_refuses_two_outputs_on_one_path_before_counting(cli, tasks, tmp_path):
    out = tmp_path / "r.out"
    run = cli("report", tasks, "--markdown", out, "--json", out)
    assert run.code == 2 and "--json" in run.err and "also the markdown output" in run.err
    assert not out.exists()


def test_report_of_nothing_is_a_user_error(cli, tmp_path):
    run = cli("report", tmp_path / "none*.yaml")
    assert run.code == 2 and "no such task file" in run.err


def test_a_report_on_a_dask_cluster_equals_the_local_one(tasks):
    import distributed  # a test dependency (pyproject: test extra)

    paths = task_paths([str(tasks)])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = count_files(paths, CountSettings(), dask=cluster.scheduler_address)
    local = count_files(paths, CountSettings(), jobs=1)
    # the method may differ: a worker thread has no head start (no alarm there), and races vary
    keys = ("file", "count", "exact", "status", "verdict")
    rows = [[[entry_row(e)[k] for k in keys] for e in entries] for entries in (remote, local)]
    assert rows[0] == rows[1]
