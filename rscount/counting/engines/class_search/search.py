"""Decomposition of the disentangled count over the concept permutation pi.

count = sum over pi of N(pi), N(pi) the number of value maps f that work with pi.
- Symmetries keep N. Swapping two predicted concepts that the knowledge treats alike (checked by
  SAT) turns every valid f for pi into one for the swapped pi; swapping two ground-truth concepts
  that the support treats alike (it maps the support onto itself with the same labels) does too,
  with f swapped alike; either swap must leave every supervised vector as it is. So N is constant
  on the double classes of pi under both: one pi per class is counted, weighted by the class size
  (exhaustive XOR: one pi in all). See docs/performance.md.
- When the support has no symmetry of its own (sampled supports), a SAT solver enumerates one
  permutation per class directly (rscount.counting.engines.class_search.enumeration). Otherwise pi is built
  concept by concept, and a SAT solver on the CNF of a few rows, with the partial pi as
  assumptions, prunes every branch that no optimal map extends.
- With pi fixed, the value maps are counted on their own (rscount.encoding.value_codes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Literal

from ....encoding.model import Encoding
from ....knowledge.symmetry_groups import Blocks, class_blocks
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, TooManyClasses, Unsuited
from ...problem import CountProblem
from .enumeration import Check, leaders, lex_leader, orbit_size
from .permutations import classes
from .pruning import Viability

Classes = list[tuple[tuple[int, ...], int]]


def _singletons(blocks: list[list[int]]) -> bool:
    return all(len(block) == 1 for block in blocks)


class ClassSearch:
    """The permutation classes (pi, class size) of a problem that some optimal map may extend, found
    lazily, and the symmetry blocks used (`blocks`). Iterating raises TooManyClasses once more than
    budget.max_classes are found. Classes found by SAT enumeration (`strategy` 'sat') all have
    optimal maps; those of the search tree ('tree') might not, when the whole CNF was not built:
    their value maps count zero. In the objects mode pi ranges over the products of an attribute
    and an object permutation."""

    def __init__(
        self,
        problem: CountProblem,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
        check: Callable[[tuple[int, ...]], Literal[True] | list[tuple[Any, ...]]] | None = None,
    ) -> None:
        if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise Unsuited("decomposition by permutation applies to the disentangled and objects modes")
        self.problem = problem
        self.progress = progress
        self.max_classes = budget.max_classes
        # A cheap check of a concept permutation pi (disentangled mode): True if some optimal map
        # has it, else support rows refuting it (none if it cannot tell).
        self.check = check
        self.blocks = class_blocks(problem.task, problem.mode)
        sides = ("support objects", "support attributes") if problem.mode == Mode.OBJECTS else ("support",)
        self.strategy = "sat" if all(_singletons(self.blocks[side]) for side in sides) else "tree"

    def __iter__(self) -> Iterator[tuple[tuple[int, ...], int]]:
        """Each class (pi, size) once."""
        for found, item in enumerate(self._classes(), start=1):
            if self.max_classes is not None and found > self.max_classes:
                raise TooManyClasses(
                    f"more than {self.max_classes} permutation classes survive pruning",
                    {"classes_found_by": self.strategy},
                )
            if self.progress:
                self.progress.update(f"{found} permutation classes found")
            yield item

    def _classes(self) -> Iterator[tuple[tuple[int, ...], int]]:
        objects = self.problem.mode == Mode.OBJECTS
        if self.strategy == "sat":
            return self._object_leaders() if objects else self._concept_leaders()
        return self._object_tree() if objects else self._concept_tree()

    def _concept_leaders(self) -> Iterator[tuple[tuple[int, ...], int]]:
        """One permutation per class by SAT enumeration; every class has |H_out| members."""
        encoding = self.problem.encoding
        outputs, families = self.blocks["knowledge"], self.blocks["knowledge families"]
        symmetry = lex_leader(encoding.p_vars, outputs, families)
        size = orbit_size(outputs, families)
        found = leaders(encoding.counting_view[0], [encoding.p_vars], symmetry, self._rows(), self._checked())
        for (pi,) in found:
            yield pi, size

    def _rows(self) -> list[tuple[int, int]]:
        """The clause range of each unsupervised support row in the whole CNF."""
        return [(lo, hi) for lo, hi, _, _ in self.problem.encoding.examples]

    def _checked(self) -> Check | None:
        """self.check for the class search over concept permutations, with the refuting rows
        numbered as in _rows."""
        check = self.check
        if check is None:
            return None
        support = self.problem.task.support
        number = {row: n for n, row in enumerate(r for r in support.rows if r not in support.supervised)}

        def checked(perms: tuple[tuple[int, ...], ...]) -> Literal[True] | list[int]:
            verdict = check(perms[0])
            return verdict if verdict is True else [number[r] for r in verdict if r in number]

        return checked

    def _concept_tree(self) -> Iterator[tuple[tuple[int, ...], int]]:
        """One permutation per double class, built concept by concept with SAT pruning."""
        k = len(self.problem.task.concepts)
        check = Viability(self.problem)
        try:

            def viable(placed: list[tuple[int, int]]) -> bool:
                return check(lambda enc: [enc.p_vars[i][j] for i, j in placed], len(placed) == k)

            yield from classes(
                self.blocks["support"],
                self.blocks["knowledge"],
                viable,
                self.blocks["knowledge families"],
                in_place=self.problem.task.in_place,
            )
        finally:
            check.close()

    def _lift(self, objs: tuple[int, ...], attrs: tuple[int, ...]) -> tuple[int, ...]:
        """The concept permutation (o, a) -> (objs[o], attrs[a]) (concepts are object-major)."""
        m = len(attrs)
        return tuple(objs[i // m] * m + attrs[i % m] for i in range(m * len(objs)))

    def _object_leaders(self) -> Iterator[tuple[tuple[int, ...], int]]:
        """One (R, V) per pair of orbits under the object and attribute symmetries, by SAT."""
        encoding, blocks = self.problem.encoding, self.blocks
        r, v = encoding.object_maps
        sides = [(r, "object"), (v, "attribute")]
        symmetry = [
            c
            for mat, what in sides
            for c in lex_leader(mat, blocks[f"knowledge {what}s"], blocks[f"knowledge {what} families"])
        ]
        size = orbit_size(blocks["knowledge objects"], blocks["knowledge object families"])
        size *= orbit_size(blocks["knowledge attributes"], blocks["knowledge attribute families"])
        for objs, attrs in leaders(encoding.counting_view[0], [r, v], symmetry, self._rows()):
            yield self._lift(objs, attrs), size

    def _object_tree(self) -> Iterator[tuple[tuple[int, ...], int]]:
        """One (attribute map V, object map R) per double class of each: V then R built one image at
        a time with SAT pruning (a double class of (R, V) is a pair of double classes, the symmetry
        groups being products of a group on objects and one on attributes)."""
        blocks, n = self.blocks, self.problem.task.object_spec().count
        check = Viability(self.problem)

        def attribute_literals(enc: Encoding, placed: list[tuple[int, int]]) -> list[int]:
            return [enc.object_maps[1][a][b] for a, b in placed]

        def object_literals(enc: Encoding, placed: list[tuple[int, int]]) -> list[int]:
            return [enc.object_maps[0][o][p] for o, p in placed]

        try:
            attribute_classes = classes(
                blocks["support attributes"],
                blocks["knowledge attributes"],
                lambda placed: check(lambda enc: attribute_literals(enc, placed), False),
                blocks["knowledge attribute families"],
            )
            for attrs, attr_size in attribute_classes:
                fixed = list(enumerate(attrs))

                def viable(placed: list[tuple[int, int]], fixed: list[tuple[int, int]] = fixed) -> bool:
                    return check(
                        lambda enc: attribute_literals(enc, fixed) + object_literals(enc, placed),
                        len(placed) == n,
                    )

                object_classes = classes(
                    blocks["support objects"],
                    blocks["knowledge objects"],
                    viable,
                    blocks["knowledge object families"],
                    in_place=self.problem.task.in_place,
                )
                for objs, obj_size in object_classes:
                    yield self._lift(objs, attrs), attr_size * obj_size
        finally:
            check.close()


def all_classes(
    problem: CountProblem, progress: Progress | None = None, budget: Budget = UNBOUNDED
) -> tuple[Classes, Blocks]:
    """Every class of the problem's ClassSearch, and the blocks used."""
    search = ClassSearch(problem, progress, budget)
    return list(search), search.blocks
