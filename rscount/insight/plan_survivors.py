"""Where advise's SAT search gets a shortcut surviving a choice of steps: from every shortcut
listed (the first no chosen step kills), or from one incremental solver holding each step's
constraints under a literal of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import islice
from typing import Protocol

from ..errors import InternalError
from ..task.support import Row
from .decisions import MapSolver
from .maps import ConceptMap
from .steps import ADD, ANNOTATE, SUPERVISE, Step


class Survivors(Protocol):
    """Where the shortcuts surviving a choice of steps come from."""

    def survivor(self, plan: Sequence[Step]) -> ConceptMap | None:
        """A shortcut of the task after `plan` (None: the intended map is the only optimal one)."""

    def alive(self, plan: Sequence[Step], most: int) -> list[ConceptMap]:
        """Up to `most` shortcuts known to survive `plan` (those listed; none without a list)."""


class Listed:
    """Survivors from every shortcut listed: the first that no step of the plan kills (`kills`:
    whether a plan kills a map; the steps only add constraints, so the plan's shortcuts are among
    the task's)."""

    def __init__(
        self, kills: Callable[[ConceptMap, Sequence[Step]], bool], shortcuts: Sequence[ConceptMap]
    ) -> None:
        self.kills, self.shortcuts = kills, list(shortcuts)

    def survivor(self, plan: Sequence[Step]) -> ConceptMap | None:
        """The first shortcut listed that `plan` does not kill (None: none; ways() cross-checks it)."""
        return next((m for m in self.shortcuts if not self.kills(m, plan)), None)

    def alive(self, plan: Sequence[Step], most: int) -> list[ConceptMap]:
        """The first `most` shortcuts listed that `plan` does not kill."""
        return list(islice((m for m in self.shortcuts if not self.kills(m, plan)), most))


class Guards:
    """The steps' constraints on one incremental solver, each in force under a literal of its own
    (added the first time a plan takes the step), so that a plan is a set of assumptions."""

    def __init__(self, solver: MapSolver) -> None:
        self.solver = solver
        self.guard: dict[Step, int] = {}
        self.pairs: set[tuple[Step, Row]] = set()

    def survivor(self, plan: Sequence[Step]) -> ConceptMap | None:
        """A shortcut of the task after `plan` (None: the intended map is the only optimal one)."""
        for a in plan:  # an annotation covers the rows the plan adds
            for s in plan:
                if a.action == ANNOTATE and s.action == ADD and s.row is not None:
                    self._pair(a, s.row)
        units = [[self._guard(s)] for s in plan]
        return self.solver.some_map([self.solver.not_the_identity(), *units])

    def alive(self, plan: Sequence[Step], most: int) -> list[ConceptMap]:
        """None known: finding each costs a SAT call."""
        return []

    def _pair(self, annotation: Step, row: Row) -> None:
        if (annotation, row) not in self.pairs:
            self.pairs.add((annotation, row))
            j = self.solver.task.names.index(annotation.concept or "")
            self.solver.guard_values(row, [j], self._guard(annotation), self._guard(Step(ADD, row)))

    def _guard(self, s: Step) -> int:
        if s in self.guard:
            return self.guard[s]
        solver, task = self.solver, self.solver.task
        g = self.guard[s] = solver.new_var()
        if s.action == ANNOTATE:
            j = task.names.index(s.concept or "")
            for row in task.support.rows:
                solver.guard_values(row, [j], g)
        elif s.row is None:
            raise InternalError(f"advise: step {s} has no row")
        elif s.action == ADD:
            solver.guard_row(s.row, g)
        elif s.action == SUPERVISE:
            solver.guard_values(s.row, range(len(task.concepts)), g)
        else:
            solver.guard_values(s.row, [task.names.index(s.concept or "")], g)
        return g
