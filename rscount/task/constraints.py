"""Knowledge given as constraints over concepts and labels (`knowledge:` in a task file), turned
into one label function per label.

rsbench assumes every concept vector has exactly one label (A2). A constraint such as
`Implies(ped | red, stop)` leaves `stop` open when neither holds, so such knowledge is rejected
unless `completion:` gives default values: among the label tuples the constraints allow, a vector
then takes the one that keeps the first listed default if it can, then the second, and so on (which
must leave a single tuple). The labels here are the if-then-else chain over the label tuples in
that order of preference; whether the constraints really give every concept vector exactly one
tuple is a SAT question, answered by `rscount.knowledge.constraints` when the task is checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Any

from ..errors import TaskError
from .expressions import Expr, call, const, substitute

MAX_LABEL_TUPLES = 256

LabelTuple = tuple[Any, ...]


@dataclass(frozen=True)
class Constraints:
    """Formulas over concepts and labels, the labels' domains and the completion defaults."""

    formulas: tuple[Expr, ...]
    domains: Mapping[str, tuple[Any, ...]]
    completion: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        combinations = 1
        for values in self.domains.values():
            combinations *= len(values)
        if combinations > MAX_LABEL_TUPLES:
            raise TaskError(
                "labels", f"{combinations} label combinations; at most {MAX_LABEL_TUPLES} with knowledge:"
            )

    @property
    def names(self) -> list[str]:
        """The label names, in order."""
        return list(self.domains)

    def rank(self, y: LabelTuple) -> tuple[bool, ...]:
        """Which completion defaults a label tuple breaks, in order (smaller: preferred)."""
        value = dict(zip(self.names, y))
        return tuple(value[n] != default for n, default in self.completion.items())

    @cached_property
    def order(self) -> list[LabelTuple]:
        """Every label tuple, most preferred first."""
        return sorted(product(*self.domains.values()), key=self.rank)

    @cached_property
    def holds(self) -> dict[LabelTuple, Expr]:
        """Per label tuple, the formula over the concepts that says the constraints allow it."""
        both = call("And", *self.formulas)
        return {y: substitute(both, {n: const(v) for n, v in zip(self.names, y)}) for y in self.order}

    def labels(self) -> dict[str, Expr]:
        """Per label, its value under the most preferred tuple the constraints allow."""
        order, holds = self.order, self.holds
        labels = {}
        for n, name in enumerate(self.names):
            expr = const(order[-1][n])
            for y in reversed(order[:-1]):
                expr = call("ITE", holds[y], const(y[n]), expr)
            labels[name] = expr
        return labels
