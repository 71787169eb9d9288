"""Counting a task by the method the settings name: `auto` and `approx` walk their tables
(rscount.counting.auto), `exact` is the fastest exact method measured for the mode, any other name
is one method. A method named by the user that declines is a NotApplicable (a user error, exit 2)."""

from __future__ import annotations

import time

from ..encoding.model import Encoding
from ..errors import NotApplicable
from ..progress import Progress
from ..task.model import Mode, Task
from . import auto
from .budget import UNBOUNDED, Declined
from .cross_check import cross_check
from .methods import BACKENDS, backend_for
from .problem import CountProblem
from .result import CountResult
from .settings import DEFAULT_SETTINGS, CountSettings, Method

# The fastest exact method measured for each mode (docs/performance.md); the jrs mode has its own sum,
# stated as a closed form (methods.MODE_COUNTERS).
EXACT_BACKEND = {
    Mode.DISENTANGLED: Method.DECOMPOSE,
    Mode.OBJECTS: Method.DECOMPOSE,
    Mode.JOINT: Method.SDD,
    Mode.JRS: Method.CLOSED_FORM,
}


def _named(method: Method, mode: Mode) -> Method:
    """The backend a method name stands for in `mode`."""
    if method == Method.EXACT:
        return EXACT_BACKEND[mode]
    if method not in BACKENDS:
        raise NotApplicable(f"the method {method} counts tasks, not encodings")
    return method


def count_problem(
    problem: CountProblem, settings: CountSettings, progress: Progress | None = None
) -> CountResult:
    """Count a problem in this process by the settings' method (a table or one backend)."""
    start = time.perf_counter()
    method = settings.method
    try:
        if method in (Method.AUTO, Method.APPROX):
            table = auto.AUTO if method == Method.AUTO else auto.APPROX
            result = auto.run(table, problem, settings, progress)
        else:
            backend = backend_for(_named(method, problem.mode), problem.mode)
            result = backend.count(problem, settings, progress, UNBOUNDED)
    except Declined as exc:
        raise NotApplicable(f"{method} in the {problem.mode} mode: {exc}") from None
    if settings.cross_check:
        result.details["cross_check"] = cross_check(problem, settings, result, progress)
    result.seconds = time.perf_counter() - start
    if problem.encoded:
        encoding = problem.encoding
        result.cnf_size = {
            "variables": encoding.cnf.num_vars,
            "clauses": len(encoding.cnf.clauses),
            "map_variables": len(encoding.projection),
        }
    return result


def count_task(
    task: Task,
    settings: CountSettings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
    encoding: Encoding | None = None,
) -> CountResult:
    """Count `task` in this process in the settings' mode (else its own), encoding it only if the
    method needs the CNF (`encoding`: one built already)."""
    return count_problem(CountProblem(task, settings.mode_for(task), progress, encoding), settings, progress)
