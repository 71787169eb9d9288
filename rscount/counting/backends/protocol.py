"""What every counting backend provides: one call that counts an encoding's models projected on its
map variables, within a budget (see rscount.counting.budget)."""

from __future__ import annotations

from typing import Protocol

from ...encoding.model import Encoding
from ...progress import Progress
from ..budget import Budget
from ..result import CountResult
from ..settings import CountSettings, Method


class Backend(Protocol):
    """A counter: its method, whether it is exact, and what it does in one line."""

    method: Method
    exact: bool
    description: str

    def count(
        self, encoding: Encoding, settings: CountSettings, progress: Progress | None, budget: Budget
    ) -> CountResult:
        """Count the models of `encoding` projected on its map variables (approximate backends use
        the settings' epsilon, delta and seed); raise BudgetExceeded at a bound of `budget` the
        backend understands."""
        ...
