"""An encoding: the CNF of a task in one counting mode, with its map variables and what they mean."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..cnf import Cnf
from ..task.model import Mode, Task


@dataclass
class Encoding:
    """The CNF of a task plus the map variables (projection) and what each means.

    `examples` holds, per unsupervised example, its clause range and the range of the auxiliary
    variables created for it (clauses lo..hi-1, variables lo..hi-1), so backends can treat each
    example's constraint on the map variables as a unit.
    """

    task: Task
    cnf: Cnf
    p_vars: list[list[int]]
    f_lits: list[list[list[int]]]
    examples: list[tuple[int, int, int, int]]
    core_size: int
    core_projection: list[int]
    unseen_factor: int
    mode: Mode = Mode.DISENTANGLED
    object_maps: list[list[list[int]]] = field(default_factory=list)  # objects mode: [R, V]

    @property
    def projection(self) -> list[int]:
        """The map variables: counting projected on these counts the optimal maps."""
        return self.cnf.projection or []

    @cached_property
    def counting_view(self) -> tuple[list[list[int]], list[int], int]:
        """(core clauses, map variables occurring in them, factor): count = projected count * factor.
        Computed once per encoding (auto's enumeration probe and the chosen backend share it).

        The factor covers unseen values and map variables in no core clause (each free, so x2);
        solvers drop variables that occur in no clause, so they must not be asked to count them.
        """
        clauses = self.cnf.clauses[: self.core_size]
        used = {abs(lit) for clause in clauses for lit in clause}
        constrained = [v for v in self.core_projection if v in used]
        free = len(self.core_projection) - len(constrained)
        return clauses, constrained, self.unseen_factor * 2**free
