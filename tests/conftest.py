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
        help="ten times as many examples in the heavy property tests, and the tests marked slow",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a check of a minute or more, run with --slow only")
    if config.getoption("--slow"):  # read by support.examples when the test modules are imported
        import os

        os.environ["RSCOUNT_FUZZ"] = "slow"


def pytest_collection_modifyitems(config, items):
    """Without --slow, the tests marked slow are skipped (CI keeps to its 20 minutes)."""
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="a heavy check: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
