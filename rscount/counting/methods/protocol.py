"""What every counting backend provides: one call that counts an encoding's models projected on its
map variables, within a budget (see rscount.counting.budget)."""

from __future__ import annotations

from typing import Protocol

from ...progress import Progress
from ..budget import Budget
from ..problem import CountProblem
from ..result import CountResult
from ..settings import CountSettings, Method


class Backend(Protocol):
    """A counter: its method, whether it is exact, and what it does in one line."""

    method: Method
    exact: bool
    description: str

    def count(
        self, problem: CountProblem, settings: CountSettings, progress: Progress | None, budget: Budget
    ) -> CountResult:
        """Count the optimal maps of `problem` (the models of its encoding projected on the map
        variables; approximate backends use the settings' epsilon, delta and seed); raise
        OverBudget at a bound of `budget` the backend understands (Unsuited when it does not apply)."""
        ...
