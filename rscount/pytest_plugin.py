"""rscount's pytest plugin: `pytest tasks/` checks every task file that states expectations, so a
research repository guards its task designs with the test runner it already has.

Active once rscount is installed (entry point `pytest11`); `-p no:rscount` turns it off. A YAML file
is collected when it has a top-level `expect:` and `concepts:`, `objects:`, `program:` or an rsbench
config's `n_digits:`, `num_digits:`, `n_shapes:` or `symbols:` (read from the text,
so an invalid task file is still collected). Each such file is one test item: it passes when every
expectation holds, fails with the expectation, the count and the concepts that may now be swapped
or remapped, and errors when the file is not a valid task. Counting stops at `--rscount-timeout`
(or the ini option `rscount_timeout`; default 300 s a task).

Nothing heavy is imported until a task file is found: `import rscount` is light.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

TASK_FILE = re.compile(r"^expect\s*:", re.M)
# a task file's knowledge, or an rsbench generator config's (rscount.formats.rsbench.MARKERS, symbols)
CONCEPTS = re.compile(r"^(concepts|objects|program|n_digits|num_digits|n_shapes|symbols)\s*:", re.M)
DEFAULT_TIMEOUT = "300"


def pytest_addoption(parser: pytest.Parser) -> None:
    """--rscount-timeout and the ini option rscount_timeout."""
    group = parser.getgroup("rscount", "rscount task files")
    group.addoption(
        "--rscount-timeout", type=float, default=None, metavar="SECONDS", help="time limit per task file"
    )
    parser.addini("rscount_timeout", "seconds per task file (default 300)", default=DEFAULT_TIMEOUT)


def is_task_with_expectations(path: Path) -> bool:
    """Whether a YAML file looks like an rscount task that states expectations."""
    if path.suffix not in (".yaml", ".yml"):
        return False
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(TASK_FILE.search(text) and CONCEPTS.search(text))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A TaskFile for each task file with expectations."""
    if is_task_with_expectations(file_path):
        return TaskFile.from_parent(parent, path=file_path)
    return None


class TaskFile(pytest.File):
    """A task file: one item, named after the file."""

    def collect(self) -> list[pytest.Item]:
        """The file's one item."""
        return [TaskItem.from_parent(self, name=self.path.stem)]


class TaskItem(pytest.Item):
    """The expectations of one task file, judged on its count."""

    def setup(self) -> None:
        """Load the task: an invalid file is an error of this item, in one line."""
        from .errors import RscountError
        from .knowledge.loading import load_task

        try:
            load_task(self.path)
            return
        except RscountError as exc:
            problem = str(exc)
        pytest.fail(f"invalid task file: {problem}", pytrace=False)

    def runtest(self) -> None:
        """Count within the time limit and judge the expectations."""
        from .counting.settings import CountSettings
        from .insight.judging import judge_file
        from .report.text import report_verdict

        option = self.config.getoption("rscount_timeout")
        timeout = float(option if option is not None else self.config.getini("rscount_timeout"))
        judged = judge_file(self.path, CountSettings(timeout=timeout))  # judged as `rscount report` does
        if judged.status.fails:
            pytest.fail(f"{self.path.name}: {report_verdict(judged)}", pytrace=False)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        """Where the item is and what it is, for pytest's report."""
        return self.path, None, f"rscount task {self.path.name}"
