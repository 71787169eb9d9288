"""The result of one count: the number of optimal concept maps (or ApproxMC's estimate), how it
was obtained, and the size of the CNF it was counted on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .settings import Method

CLASSES_KEPT = 10_000  # classes with maps a count keeps in its result (for listing and tallying)
MAPS_KEPT = 10_000  # optimal maps a method that lists them keeps in its result
Listed = list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]  # optimal maps (pi, f as value numbers)
CountedClasses = list[tuple[tuple[int, ...], int, int]]  # representative, class size, maps per member


@dataclass
class CountResult:
    """A count of optimal concept maps (the estimate, for approximate methods), with ApproxMC's
    epsilon, delta and seed when approximate, the CNF's size when one was built (variables,
    clauses, map_variables) and method-specific details. `classes`: the permutation classes with
    optimal maps (representative, size, maps per member) when a sum over classes had few of them,
    so that listing, tallying or grouping the maps does not walk the permutations again
    (markov-chain: 20 s of a 28 s listing); `maps`: every optimal map, when the method listed them
    and they are at most MAPS_KEPT (the pairwise method)."""

    count: int
    exact: bool
    method: Method
    seconds: float = 0.0
    epsilon: float | None = None
    delta: float | None = None
    seed: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    cnf_size: dict[str, int] | None = None
    classes: CountedClasses | None = None
    maps: Listed | None = None

    def keep_class(self, pi: tuple[int, ...], size: int, models: int) -> None:
        """Note a class counted (kept while CLASSES_KEPT or fewer have maps)."""
        if models and self.classes is not None:
            self.classes.append((pi, size, models))
            if len(self.classes) > CLASSES_KEPT:
                self.classes = None

    @property
    def intended(self) -> int:
        """The count's intended part: the identity map, or in the jrs mode the intended pairs."""
        return int(self.details.get("intended", 1))

    @property
    def shortcuts(self) -> int:
        """Optimal maps other than the intended one (an estimate when the count is approximate); in
        the jrs mode, pairs other than the intended ones."""
        return max(self.count - self.intended, 0)

    def to_dict(self) -> dict[str, Any]:
        """The plain-data form (counts stay Python integers, however large)."""
        return {
            "count": self.count,
            "exact": self.exact,
            "method": str(self.method),
            "seconds": self.seconds,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "seed": self.seed,
            "details": dict(self.details),
            "cnf_size": self.cnf_size,
        }
