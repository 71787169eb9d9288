"""Exact counting by decomposition over the concept permutation (the class search of
rscount.counting.engines.class_search): one permutation per symmetry class that SAT pruning
keeps, its value maps counted (rscount.counting.engines.class_counts) with big-integer counts."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget
from ...engines.class_counts import ClassCounter
from ...engines.class_search.search import ClassSearch
from ...problem import CountProblem
from ...processes.class_workers import ClassWorkers
from ...result import CountResult
from ...settings import CountSettings, Method


class DecomposeBackend:
    """Sum over permutation classes of per-permutation value-map counts, weighted by class size."""

    method = Method.DECOMPOSE
    exact = True
    description = "sum over concept permutations up to symmetry, SAT-pruned, value maps per permutation"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """Exact count in the disentangled or objects mode. With a class budget, every class is
        found before any is counted (TooManyClasses first); without one, classes are counted as
        they are found. Either way `progress.known` carries the sum so far: a lower bound."""
        start = time.perf_counter()
        checker = ClassCounter(problem.task, problem.mode) if problem.mode == Mode.DISENTANGLED else None
        search = ClassSearch(
            problem, progress, budget, checker.check if checker and checker.tabulated else None
        )
        total = classes = nonzero = 0
        found = _listed(search, progress) if budget.max_classes is not None else search
        classes_total = len(found) if isinstance(found, list) else None
        listed = isinstance(found, list) and search.strategy == "sat"
        pending = sum(size for _, size in found) if listed else 0
        if progress and pending:
            progress.known(lower_bound=pending, classes_done=0, classes_total=classes_total)
        details: dict[str, Any] = {}
        with _class_counts(problem, found, settings.jobs, details, checker) as counts:
            for models, size in counts:
                total += models * size
                classes += 1
                nonzero += models > 0
                pending -= size if pending else 0
                if progress:
                    bound = total + pending
                    progress.known(lower_bound=bound, classes_done=classes, classes_total=classes_total)
                    progress.update(f"decompose: {classes} classes counted, at least {bound} maps")
        if progress:
            progress.known(lower_bound=total, classes_done=classes, classes_total=classes)
        details.update(blocks=search.blocks, classes=classes, nonzero=nonzero, search=search.strategy)
        if classes_total is None:
            details["counted_while_found"] = True
        if settings.jobs > 1:
            details["jobs"] = settings.jobs
        return CountResult(total, True, self.method, time.perf_counter() - start, details=details)


def _listed(search: ClassSearch, progress: Progress | None) -> list[tuple[tuple[int, ...], int]]:
    """Every class of the search, before any is counted. Every member of a class the solver found
    has an optimal map, so the classes found so far add their sizes to a lower bound, reported as
    they are found (MNMath, disentangled, 40 rows: 549 classes listed, none counted in a minute)."""
    found = []
    bound = 0
    for pi, size in search:
        found.append((pi, size))
        if progress and search.strategy == "sat":
            bound += size
            progress.known(lower_bound=bound, classes_done=0, classes_found=len(found))
    return found


@contextmanager
def _class_counts(
    problem: CountProblem,
    found: Iterable[tuple[tuple[int, ...], int]],
    jobs: int,
    details: dict[str, Any],
    counter: ClassCounter | None,
) -> Iterator[Iterator[tuple[int, int]]]:
    """(N(pi), class size) of every class found: counted here (by `counter` if given, whose
    factors the class search may have found), or by `jobs` worker processes while this one finds
    the classes; `details` receives the counters' details at the end."""
    if jobs <= 1:
        counter = counter or ClassCounter(problem.task, problem.mode)
        yield ((counter.count(pi), size) for pi, size in found)
        details.update(counter.details())
        return
    with ClassWorkers(lambda: ClassCounter(problem.task, problem.mode), jobs) as workers:
        yield workers.counts(found)
    details.update(workers.details)
