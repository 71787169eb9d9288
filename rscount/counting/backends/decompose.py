"""Exact counting by decomposition over the concept permutation (see rscount.counting.plan): one
permutation per symmetry class that SAT pruning keeps, its value maps counted by an SDD over the
value-map code variables alone, with big-integer model counts."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from ...encoding.value_codes import ValueMapCoding
from ...progress import Progress
from ...task.model import Mode
from ..budget import UNBOUNDED, Budget
from ..class_workers import ClassWorkers
from ..group_tables import GroupTables
from ..plan import Plan
from ..problem import CountProblem
from ..result import CountResult
from ..settings import CountSettings, Method
from ..value_maps import ValueMapCounter


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
        checker = ClassCounter(problem) if problem.mode == Mode.DISENTANGLED else None
        search = Plan(problem, progress, budget, checker.check if checker and checker.tabulated else None)
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


def _listed(search: Plan, progress: Progress | None) -> list[tuple[tuple[int, ...], int]]:
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
        counter = counter or ClassCounter(problem)
        yield ((counter.count(pi), size) for pi, size in found)
        details.update(counter.details())
        return
    with ClassWorkers(lambda: ClassCounter(problem), jobs) as workers:
        yield workers.counts(found)
    details.update(workers.details)


class ClassCounter:
    """N(pi) for the classes of one problem. With value maps per concept (the disentangled mode),
    N(pi) is a product over label groups, and a group's factor only depends on which concepts feed
    its concepts, so factors are cached across classes (SDD-OIA ambulance rules, 3285 classes:
    41 s without, see docs/performance.md)."""

    def __init__(self, problem: CountProblem) -> None:
        self.coding = ValueMapCoding(problem.task, shared=problem.mode == Mode.OBJECTS)
        self.counter = ValueMapCounter(self.coding)
        self.groups = self.coding.label_groups() if problem.mode == Mode.DISENTANGLED else []
        self.tables = GroupTables(self.coding, self.groups) if self.groups else None
        self.factors: dict[tuple[int, tuple[int, ...]], int] = {}
        self.by_table = 0

    def count(self, pi: tuple[int, ...]) -> int:
        """N(pi): the optimal maps with permutation pi."""
        coding = self.coding
        models = coding.unseen_factor(pi)
        if not self.groups:
            return models * self.counter.count(pi)
        for g in range(len(self.groups)):
            models *= self._factor(g, pi)
            if not models:
                break
        return models

    @property
    def tabulated(self) -> bool:
        """Whether every label group is counted by table, whatever pi."""
        return self.tables is not None and all(self.tables.covers(g) for g in range(len(self.groups)))

    def check(self, pi: tuple[int, ...]) -> Literal[True] | list[tuple[Any, ...]]:
        """True when the tables show value maps of every label group working with pi; else a few
        support rows that refute pi by table (none when the tables cannot tell): a check far
        cheaper than SAT on every row."""
        known = bool(self.groups)
        for g in range(len(self.groups)):
            factor = self._table_factor(g, pi)
            if factor == 0:
                assert self.tables is not None
                rows = self.coding.rows()
                return [rows[n][0] for n in self.tables.refuting_rows(g, pi) or ()]
            known = known and factor is not None
        return True if known else []

    def _factor(self, g: int, pi: tuple[int, ...]) -> int:
        """The factor of label group g with pi: by table where it fits, else by the counter."""
        found = self._table_factor(g, pi)
        if found is None:
            group = self.groups[g]
            free = self.coding.num_vars - self.coding.group_vars(pi, group)
            found = self.factors[self._key(g, pi)] = self.counter.count(pi, group) >> free
        return found

    def _table_factor(self, g: int, pi: tuple[int, ...]) -> int | None:
        """The factor of label group g with pi if known or counted by table, else None."""
        assert self.tables is not None
        key = self._key(g, pi)
        if key not in self.factors:
            found = self.tables.factor(g, pi)
            if found is None:
                return None
            self.by_table += 1
            self.factors[key] = found
        return self.factors[key]

    def _key(self, g: int, pi: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """Factors are kept per group and the sources feeding its concepts."""
        where = {j: i for i, j in enumerate(pi)}
        return g, tuple(where[j] for j in self.groups[g][1])

    def details(self) -> dict[str, Any]:
        """What the result's details say about label groups and the factors counted by table."""
        if not self.groups:
            return {}
        found: dict[str, Any] = {"group_factors_by_table": self.by_table}
        if len(self.groups) > 1:
            found.update(label_groups=len(self.groups), group_factors_counted=len(self.factors))
        return found
