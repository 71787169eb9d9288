"""How much work a method may do, and the one signal a method gives when it does not answer: it does
not apply to the task (`Unsuited`) or would go past its budget (`OverBudget`: decompose and
decompose-approx bound the permutation classes, search its nodes and classes, enumerate the solver
models, source-sets the states of a label group's residual table). Both are `Declined`: internal,
so that `auto` can try a method and move on; a method a user names that declines becomes a
NotApplicable there (rscount.counting.dispatch)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Budget:
    """Bounds on a method's work (None: unbounded)."""

    max_classes: int | None = None
    max_models: int | None = None
    max_states: int | None = None
    max_nodes: int | None = None  # search nodes (search)


UNBOUNDED = Budget()


class Declined(Exception):
    """A method gave no answer: the message says why; `facts` holds what the attempt learned that a
    later step may use (e.g. how the permutation classes were being found)."""

    def __init__(self, reason: str, facts: dict[str, Any] | None = None) -> None:
        super().__init__(reason, facts)
        self.reason = reason
        self.facts = dict(facts or {})

    def __str__(self) -> str:
        return self.reason


class Unsuited(Declined):
    """The method does not apply to this task (its mode, its domains, its shape)."""


class OverBudget(Declined):
    """The method stopped at a bound of its budget (the reason says which)."""


class TooManyClasses(OverBudget):
    """More permutation classes survive pruning than the budget allows."""


class TooManyModels(OverBudget):
    """Enumeration needs more solver models than the budget allows."""


class TooManyNodes(OverBudget):
    """The search visited more nodes than the budget allows."""


class TooManyStates(OverBudget):
    """A label group's programme (source-sets) holds more states than the budget allows."""
