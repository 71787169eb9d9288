"""Fixtures: run the CLI in-process and capture its exit code and output (`cli`); the `--slow` option.
Helpers that are not fixtures are in support.py."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from rscount.cli import main

pytest_plugins = ["pytester"]


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
        "--slow",
        action="store_true",
        default=False,
        help="tests/test_fuzz.py, tests/test_statements.py: ten times as many examples",
    )


def pytest_configure(config):
    if config.getoption("--slow"):  # read by test_fuzz.py and test_statements.py when imported
        import os

        os.environ["RSCOUNT_FUZZ"] = "slow"
