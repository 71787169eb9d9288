"""Exact counting by decomposition over the concept permutation (the class search of
rscount.counting.engines.class_search): one permutation per symmetry class that SAT pruning
keeps, its value maps counted (rscount.counting.engines.class_counts) with big-integer counts."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget
from ...engines.class_counts import ClassCounter
from ...engines.class_search.orbits import OrbitCredit
from ...engines.class_search.permutations import permutations_summed
from ...engines.class_search.search import ClassSearch
from ...problem import CountProblem
from ...processes.class_workers import ClassWorkers
from ...processes.dask_classes import DaskClassWorkers
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
        permutations = permutations_summed(problem.task, problem.mode)
        orbits = OrbitCredit(problem, progress is not None)
        bound = _Bound(progress, search.strategy == "sat", permutations, orbits)
        found: Iterable[tuple[tuple[int, ...], int]] = _announced(search, bound)
        if budget.max_classes is not None:  # every class found before any is counted
            found = list(found)
            bound.total_classes = len(found)
        details: dict[str, Any] = {}
        result = CountResult(0, True, self.method, classes=[])
        with _class_counts(problem, found, settings, details, checker) as counts:
            for models, size, pi in counts:
                bound.counted(models, size, pi)
                result.keep_class(pi, size, models)
        bound.finished()
        details.update(
            blocks=search.blocks, classes=bound.classes, nonzero=bound.nonzero, search=search.strategy
        )
        if bound.total_classes is None:
            details["counted_while_found"] = True
        if settings.jobs > 1 and not settings.dask:
            details["jobs"] = settings.jobs
        result.count, result.seconds, result.details = bound.total, time.perf_counter() - start, details
        return result


class _Bound:
    """The sum so far, and the sizes of classes the SAT search found but that are not yet counted:
    every member of such a class has an optimal map (the solver found one for its leader, symmetry
    carries it to the others), so together they are a lower bound, reported as it grows (MNMath,
    disentangled, 40 rows: 549 classes found, none counted in a minute: at least 35136 maps).
    The orbits of the knowledge's automorphisms met (`orbits`) are another lower bound, the larger
    is reported. Also reported: how many of the `permutations` summed over the classes counted hold, which a
    race uses to favour a count near its end (classes that pruning drops are never counted, so
    their permutations count as work still to do: pruning only makes a count look farther from
    its end)."""

    def __init__(
        self, progress: Progress | None, by_sat: bool, permutations: int, orbits: OrbitCredit
    ) -> None:
        self.progress = progress
        self.by_sat = by_sat
        self.permutations = permutations
        self.orbits = orbits
        self.total = self.pending = self.classes = self.nonzero = self.found = self.covered = 0
        self.total_classes: int | None = None

    def class_found(self, size: int) -> None:
        self.found += 1
        if self.by_sat:
            self.pending += size
            self._report()

    def counted(self, models: int, size: int, pi: tuple[int, ...]) -> None:
        self.total += models * size
        self.orbits.meet(pi, size, models)
        self.covered += size
        self.classes += 1
        self.nonzero += models > 0
        if self.by_sat:
            self.pending -= size
        self._report()

    def finished(self) -> None:
        """Every class counted: the total is the count."""
        self.total_classes = self.classes
        self._report()

    def _report(self) -> None:
        if self.progress is None:
            return
        bound = max(self.total + self.pending, self.orbits.maps)
        self.progress.known(
            lower_bound=bound,
            classes_done=self.classes,
            classes_found=self.found,
            classes_total=self.total_classes,
            permutations_done=self.covered,
            permutations_total=self.permutations,
        )
        self.progress.update(
            f"decompose: {self.classes} of {self.found} classes counted, at least {bound} maps"
        )


def _announced(search: ClassSearch, bound: _Bound) -> Iterator[tuple[tuple[int, ...], int]]:
    """The classes of the search, each announced to `bound` as it is found."""
    for pi, size in search:
        bound.class_found(size)
        yield pi, size


@contextmanager
def _class_counts(
    problem: CountProblem,
    found: Iterable[tuple[tuple[int, ...], int]],
    settings: CountSettings,
    details: dict[str, Any],
    counter: ClassCounter | None,
) -> Iterator[Iterator[tuple[int, int, tuple[int, ...]]]]:
    """(N(pi), class size, pi) of every class found: counted here (by `counter` if given, whose
    factors the class search may have found), by the settings' `jobs` worker processes or on the
    Dask cluster at `dask` while this one finds the classes; `details` receives the workers'
    details at the end."""
    make_counter = functools.partial(ClassCounter, problem.task, problem.mode)
    workers: DaskClassWorkers | ClassWorkers
    if settings.dask:
        workers = DaskClassWorkers(make_counter, settings.dask)
    elif settings.jobs > 1:
        workers = ClassWorkers(make_counter, settings.jobs)
    else:
        counter = counter or make_counter()
        yield ((counter.count(pi), size, pi) for pi, size in found)
        details.update(counter.details())
        return
    with workers:
        yield workers.counts(found)
    details.update(workers.details)
