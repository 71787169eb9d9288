"""SAT pruning of partial concept permutations: a prefix that no optimal map extends is dropped."""

from __future__ import annotations

from collections.abc import Callable

from .... import sat
from ....encoding.model import Encoding
from ....encoding.modes import encode
from ....task.model import Task
from ...problem import CountProblem

# Prefixes of pi are pruned on the CNF of at most this many support rows (every supervised row
# first, then rows evenly spread over the support): a prefix no optimal map of those rows extends
# has no optimal map at all, so the pruning stays sound; a complete pi is then checked on the
# whole CNF, so exactly the classes with an optimal map survive. Measured (2 cores): V-LoL Complex,
# 4 cars, 1000 rows: plan 39.5 s on the whole CNF for every check, 3.9 s with 64-row prefixes.
PRUNE_ROWS = 64


def pruning_task(task: Task, limit: int = PRUNE_ROWS) -> Task:
    """`task` with its support cut to at most `limit` rows: the (partly) supervised rows first, then rows
    evenly spread over the support (itself when it has at most `limit` rows)."""
    rows = task.support.rows
    if len(rows) <= limit:
        return task
    supervised = [r for r in rows if task.support.supervised_on(r)][:limit]
    others = [r for r in rows if not task.support.supervised_on(r)]
    room = limit - len(supervised)
    spread = [others[n * len(others) // room] for n in range(room)] if room and others else []
    return task.with_support(supervised + spread)  # the supervision of the rows kept


class Viability:
    """SAT checks of partial maps given as assumptions (a function of an encoding) on the CNF of
    pruning_task(task): a necessary condition. A complete map is also checked on the whole CNF
    when the problem has built it; otherwise a map no optimal map extends survives here, and its
    class counts zero value maps."""

    def __init__(self, problem: CountProblem) -> None:
        small = pruning_task(problem.task)
        self.small_encoding = problem.encoding if small is problem.task else encode(small, problem.mode)
        self.small_solver = sat.solver(sat.PRUNE, self.small_encoding.counting_view[0])
        self.encoding = problem.encoding if problem.encoded and small is not problem.task else None
        self.solver = None if self.encoding is None else sat.solver(sat.PRUNE, self.encoding.counting_view[0])

    def __call__(self, assumptions: Callable[[Encoding], list[int]], complete: bool) -> bool:
        """Whether some optimal map extends the partial map (for a complete map on the whole CNF
        when there is one)."""
        if not self.small_solver.solve(assumptions=assumptions(self.small_encoding)):
            return False
        if not complete or self.solver is None or self.encoding is None:
            return True
        return bool(self.solver.solve(assumptions=assumptions(self.encoding)))

    def close(self) -> None:
        """Free the solvers."""
        self.small_solver.delete()
        if self.solver is not None:
            self.solver.delete()
