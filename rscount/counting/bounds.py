"""A certified upper bound on a count while the count runs: the same task with only the first r
support rows (r = 1, 2, 4, ...) counted exactly. Fewer rows ask fewer labels to be kept, so every
optimal map of the task is one of the relaxed task's: each relaxed count is an upper bound, and the
smallest one found so far is reported (`progress.known(upper_bound=...)`) beside the lower bounds the
counting methods report, so that a count stopped at a limit still gives an interval. One row is a
closed form in the disentangled mode; more rows are counted by search. First of all, no row at all:
the number of maps there are, which needs no counting; then, in the disentangled mode, the sum over
source tuples of the value maps that some of their rows allow (methods/source_tuples/bound.py)."""

from __future__ import annotations

import math
from itertools import islice
from typing import NoReturn

from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import all_rows
from .budget import UNBOUNDED, Declined
from .methods import BACKENDS
from .methods.source_tuples import tuple_upper_bound
from .problem import CountProblem
from .settings import CountSettings, Method

TUPLES_BOUNDED = 20_000  # source tuples past which their bound is not summed (MNMath's 420: 1 s)


def upper_bounds(problem: CountProblem, settings: CountSettings, reports: Progress) -> NoReturn:
    """Report ever smaller upper bounds, then decline (it never answers the count itself)."""
    task = problem.task
    support = task.support
    rows = list(support.rows) if not support.exhaustive else None
    size = support.size
    best = map_space(task, problem.mode)
    reports.known(upper_bound=best, upper_bound_rows=0)
    if problem.mode == Mode.DISENTANGLED:
        try:
            bound, tuples = tuple_upper_bound(task, TUPLES_BOUNDED)
        except Declined:  # Unsuited: source tuples do not apply
            pass
        else:
            if bound < best:
                best = bound
                reports.known(upper_bound=best, upper_bound_tuples=tuples)
    r = 1
    while r < size:
        kept = rows[:r] if rows is not None else [list(row) for row in islice(all_rows(support.domains), r)]
        relaxed = task.with_support(kept)
        method = Method.CLOSED_FORM if r == 1 and problem.mode == Mode.DISENTANGLED else Method.SEARCH
        try:
            found = (
                BACKENDS[method].count(CountProblem(relaxed, problem.mode), settings, None, UNBOUNDED).count
            )
        except Declined:
            found = None
        if found is not None and found < best:
            best = found
            reports.known(upper_bound=best, upper_bound_rows=r)
        r *= 2
    raise Declined("upper bounds only")


def map_space(task: Task, mode: Mode) -> int:
    """At least as many as there are maps (pi, f) of `mode`, optimal or not: pi a permutation of the
    concepts (objects mode: of the objects, and of the attributes), each value map sending every value
    of its concept into a domain at most as large as the largest."""
    if mode == Mode.OBJECTS and task.objects is not None:
        domains = [len(values) for _, values in task.objects.attributes]
        permutations = math.factorial(task.objects.count) * math.factorial(len(domains))
    else:
        domains = [len(c.values) for c in task.concepts]
        permutations = math.factorial(len(domains))
    return int(permutations * max(domains) ** sum(domains))
