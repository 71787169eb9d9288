"""The Python API (`import rscount`): load a task, count it, check it, as the CLI does."""

from __future__ import annotations

import pytest
from conftest import REPO

import rscount
from rscount.errors import RscountError

XOR3 = REPO / "tasks" / "xor3.yaml"


def test_count_returns_the_count_how_it_was_found_and_the_shortcuts():
    task = rscount.load_task(XOR3)
    result = rscount.count(task)
    assert (result.count, result.exact, result.method, result.shortcuts) == (24, True, "closed-form", 23)
    assert result.seconds >= 0


def test_count_takes_a_path_a_method_and_a_time_limit():
    result = rscount.count(str(REPO / "tasks" / "mnadd-half.yaml"), method="exact", timeout=120)
    assert (result.count, result.method) == (720000000000, "decompose")
    approx = rscount.count(XOR3, method="approxmc", seed=3, epsilon=0.5)
    assert (approx.exact, approx.epsilon, approx.seed) == (False, 0.5, 3)
    assert 24 / 1.5 <= approx.count <= 24 * 1.5


def test_count_stops_at_its_time_limit_with_a_user_error(tmp_path):
    names = [f"c{i}" for i in range(1, 10)]
    path = tmp_path / "xor9.yaml"
    path.write_text(
        "concepts: {" + ", ".join(f"{n}: [0, 1]" for n in names) + "}\n"
        f"labels:\n  y: Xor({', '.join(names)})\n"
    )
    with pytest.raises(RscountError, match="time limit"):
        rscount.count(path, method="sdd", timeout=0.5)


def test_check_returns_the_verdict_and_the_unidentified_concepts():
    report = rscount.check(XOR3)  # which pins its count with expect: {count: 24}
    assert report.valid and not report.free_of_shortcuts and report.exit_code == 0
    assert set(report.unidentified) == {"c1", "c2", "c3"}
    assert report.verdict == "pass: 23 shortcuts; concepts involved: c1, c2, c3"


def test_load_task_raises_a_user_error_naming_the_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("concepts: [")
    with pytest.raises(RscountError, match="bad.yaml:1: invalid YAML"):
        rscount.load_task(path)
