"""How much work a backend may do before it gives up, so that `auto` can try a method and move on:
a backend raises BudgetExceeded when a bound it understands is exceeded (decompose and
decompose-approx bound the permutation classes, enumerate the solver models, source-sets the states
of a label group's programme)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """Bounds on a backend's work (None: unbounded)."""

    max_classes: int | None = None
    max_models: int | None = None
    max_states: int | None = None


UNBOUNDED = Budget()


class BudgetExceeded(Exception):
    """A backend gave up at its budget (the message says which bound)."""


class TooManyClasses(BudgetExceeded):
    """More permutation classes survive pruning than the budget allows; `strategy` is how they were
    being found (rscount.counting.plan.Plan.strategy)."""

    def __init__(self, message: str, strategy: str = "") -> None:
        super().__init__(message)
        self.strategy = strategy


class TooManyModels(BudgetExceeded):
    """Enumeration needs more solver models than the budget allows."""


class TooManyStates(BudgetExceeded):
    """A label group's programme (source-sets) holds more states than the budget allows."""
