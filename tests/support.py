"""What the tests share besides fixtures (those are in conftest.py): the repository's root, how many
examples a heavy property test draws, one backend's count of a task in this process, and the
permutation group some permutations generate."""

from __future__ import annotations

import os
from pathlib import Path

import rscount
from rscount.counting.budget import UNBOUNDED, Budget
from rscount.counting.methods import BACKENDS
from rscount.counting.problem import CountProblem
from rscount.counting.result import CountResult
from rscount.counting.settings import CountSettings
from rscount.encoding.model import Encoding
from rscount.encoding.modes import encode
from rscount.task.model import Mode, Task

REPO = Path(__file__).resolve().parents[1]
THOROUGH = os.environ.get("RSCOUNT_FUZZ", "").lower() == "slow"  # `pytest --slow` (conftest.py) sets it


def examples(n: int) -> int:
    """The examples a heavy property test draws: n in the default run (CI), ten times as many in a
    thorough one (`pytest --slow`)."""
    return 10 * n if THOROUGH else n


OPTIONS = CountSettings(epsilon=0.8, delta=0.2, seed=1)  # the settings of backend_count (the defaults)


def backend_result(
    backend: str,
    task: Task | Encoding,
    mode: str | None = None,
    settings: CountSettings = OPTIONS,
    budget: Budget = UNBOUNDED,
    *,
    encoded: bool = True,
) -> CountResult:
    """The result of one backend, in this process, on `task` in `mode` (None: the task's own). The
    backend is handed the task's CNF, encoded here (`CountProblem.of`), or with `encoded=False` the
    task alone, so that it builds the CNF only if it needs it; an Encoding is counted as it is."""
    if isinstance(task, Encoding):
        problem = CountProblem.of(task)
    elif encoded:
        problem = CountProblem.of(encode(task, mode))
    else:
        problem = CountProblem(task, Mode.parse(mode or task.mode))
    return BACKENDS[backend].count(problem, settings, None, budget)


def backend_count(
    backend: str,
    task: Task | Encoding,
    mode: str | None = None,
    settings: CountSettings = OPTIONS,
    budget: Budget = UNBOUNDED,
    *,
    encoded: bool = True,
) -> int:
    """The count of one backend (see backend_result)."""
    return backend_result(backend, task, mode, settings, budget, encoded=encoded).count


ENUMERATE_MAX = 2000  # optimal maps up to which the enumerate method is asked too


def assert_methods_count(task: Task, expected: int, methods: tuple[str, ...]) -> None:
    """Each of `methods` (on the encoding), the search without it, enumerate when the count is
    small, and auto all count `expected` maps of `task`."""
    for method in methods:
        assert backend_count(method, task) == expected, method
    assert backend_count("search", task, encoded=False) == expected
    if expected <= ENUMERATE_MAX:
        assert backend_count("enumerate", task) == expected
    assert rscount.count(task).count == expected


def closure(generators: list[tuple[int, ...]], size: int) -> set[tuple[int, ...]]:
    """Every permutation of range(size) the generators generate (perm[n]: where n goes)."""
    group = {tuple(range(size))}
    frontier = list(group)
    while frontier:
        g = frontier.pop()
        for h in generators:
            composed = tuple(h[g[n]] for n in range(size))
            if composed not in group:
                group.add(composed)
                frontier.append(composed)
    return group
