"""The GitHub composite action (action.yml) and the pre-commit hook (.pre-commit-hooks.yaml): their
inputs are documented and used, and the action's report script, run as GitHub runs it, writes the
reports, the job summary and the outputs, and exits with rscount's exit code."""

from __future__ import annotations

import os
import re
import shlex
import subprocess

import pytest
import yaml
from support import REPO

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
XOR3 = "concepts: {c1: [0, 1], c2: [0, 1], c3: [0, 1]}\nlabels: {y: c1 ^ c2 ^ c3}\nexpect: {count: %d}\n"


def test_every_input_is_documented_and_every_use_names_an_input():
    inputs = ACTION["inputs"]
    assert all(spec.get("description") and "default" in spec for spec in inputs.values())
    text = (REPO / "action.yml").read_text()
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used == set(inputs)


def report_step() -> dict:
    (step,) = [s for s in ACTION["runs"]["steps"] if s.get("id") == "report"]
    return step


def run_report_step(tmp_path, **inputs: str) -> tuple[int, dict[str, str], str]:
    """The report step's script under bash, its env filled from the inputs (defaults otherwise)."""
    values = {name: spec["default"] for name, spec in ACTION["inputs"].items()} | inputs
    step = report_step()
    env = dict(os.environ)
    for key, expr in step["env"].items():
        env[key] = values[re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", expr).group(1)]
    env["GITHUB_OUTPUT"] = str(tmp_path / "output")
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "summary")
    proc = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    outputs = dict(line.split("=", 1) for line in (tmp_path / "output").read_text().splitlines())
    return proc.returncode, outputs, (tmp_path / "summary").read_text()


@pytest.mark.parametrize(("pins", "code"), [((24, 6), 0), ((25, 6), 1)])
def test_the_report_step_writes_reports_summary_and_outputs(tmp_path, pins, code):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "xor3.yaml").write_text(XOR3 % pins[0])
    (tasks / "and3.yaml").write_text(XOR3.replace("^", "&") % pins[1])
    status, outputs, summary = run_report_step(tmp_path, paths="tasks/*.yaml", timeout="60")
    assert status == code and outputs["exit-code"] == str(code)
    assert summary.startswith("# rscount report") and "| xor3.yaml |" in summary
    for kind in ("markdown", "json", "junit"):
        assert (tmp_path / outputs[kind]).stat().st_size > 0


def test_the_pre_commit_hook_checks_the_task_files_it_is_given(tmp_path):
    (hook,) = HOOKS
    assert re.search(hook["files"], "tasks/mnadd.yaml") and not re.search(hook["files"], "ci/workflow.yaml")
    good, wrong = tmp_path / "good.yaml", tmp_path / "wrong.yaml"
    good.write_text(XOR3 % 24)
    wrong.write_text(XOR3 % 25)
    command = [*shlex.split(hook["entry"])]
    assert subprocess.run([*command, str(good)], capture_output=True).returncode == 0
    assert subprocess.run([*command, str(good), str(wrong)], capture_output=True).returncode == 1
