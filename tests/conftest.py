"""Shared helpers: run the CLI in-process and capture its exit code and output."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from rscount.cli import main
from rscount.counting.methods import BACKENDS
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings
from rscount.encoding.modes import encode

REPO = Path(__file__).resolve().parents[1]
pytest_plugins = ["pytester"]
OPTIONS = CountSettings(epsilon=0.8, delta=0.2, seed=1)  # the settings of backend_count


def backend_count(backend: str, task, mode: str = "disentangled") -> int:
    """The count of one backend, in this process, on the task's encoding in `mode`."""
    return BACKENDS[backend].count(CountProblem.of(encode(task, mode)), OPTIONS).count


@dataclass
class CliRun:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys):
    """Call `rscount ARGS...` in this process; returns exit code, stdout and stderr."""

    def run(*args: str) -> CliRun:
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse usage errors
            code = exc.code
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)

    return run


def pytest_addoption(parser):
    parser.addoption(
        "--slow", action="store_true", default=False, help="tests/test_fuzz.py: thousands of examples"
    )


def pytest_configure(config):
    if config.getoption("--slow"):  # read by tests/test_fuzz.py when it is imported
        import os

        os.environ["RSCOUNT_FUZZ"] = "slow"
