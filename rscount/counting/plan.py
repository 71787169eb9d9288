"""Decomposition of the disentangled count over the concept permutation pi.

count = sum over pi of N(pi), N(pi) the number of value maps f that work with pi.
- Symmetries keep N. Swapping two predicted concepts that the knowledge treats alike (checked by
  SAT) turns every valid f for pi into one for the swapped pi; swapping two ground-truth concepts
  that the support treats alike (it maps the support onto itself with the same labels) does too,
  with f swapped alike; either swap must leave every supervised vector as it is. So N is constant
  on the double classes of pi under both: one pi per class is counted, weighted by the class size
  (exhaustive XOR: one pi in all). See docs/performance.md.
- pi is built concept by concept, and a SAT solver on the task's CNF, with the partial pi as
  assumptions, prunes every branch that no optimal map extends.
- With pi fixed, the value maps are counted on their own (rscount.encoding.value_codes).
"""

from __future__ import annotations

from ..encoding.model import Encoding
from ..errors import NotApplicable
from ..knowledge.groups import usable_families
from ..knowledge.symmetry import (
    interchangeable_blocks,
    interchangeable_families,
    object_blocks,
    support_blocks,
)
from ..progress import Progress
from ..task.model import Mode
from .budget import UNBOUNDED, Budget, TooManyClasses
from .permutation_classes import classes
from .pruning import Viability

Classes = list[tuple[tuple[int, ...], int]]
Blocks = dict[str, list[list[int]]]


def plan(
    encoding: Encoding, progress: Progress | None = None, budget: Budget = UNBOUNDED
) -> tuple[Classes, Blocks]:
    """The permutation classes (pi, class size) that some optimal map extends, and the symmetry
    blocks used; TooManyClasses once more than budget.max_classes survive the pruning. In the
    objects mode pi ranges over the products of an attribute and an object permutation."""
    if encoding.mode == Mode.OBJECTS:
        return _object_plan(encoding, progress, budget.max_classes)
    if encoding.mode != Mode.DISENTANGLED:
        raise NotApplicable("decomposition by permutation applies to the disentangled and objects modes")
    max_classes = budget.max_classes
    task = encoding.task
    k = len(task.concepts)
    outputs = interchangeable_blocks(task)
    inputs = support_blocks(task, outputs)
    families = interchangeable_families(task, outputs) if all(len(b) == 1 for b in inputs) else []
    found = []
    check = Viability(encoding)
    try:

        def viable(placed: list[tuple[int, int]]) -> bool:
            return check(lambda enc: [enc.p_vars[i][j] for i, j in placed], len(placed) == k)

        for item in classes(inputs, outputs, viable, families):
            found.append(item)
            if max_classes is not None and len(found) > max_classes:
                raise TooManyClasses(f"more than {max_classes} permutation classes survive pruning")
            if progress:
                progress.update(f"{len(found)} permutation classes found")
    finally:
        check.close()
    return found, {"support": inputs, "knowledge": outputs, "knowledge families": families}


def _object_plan(
    encoding: Encoding, progress: Progress | None, max_classes: int | None
) -> tuple[Classes, Blocks]:
    """One (attribute map V, object map R) per double class of each under the task's attribute and
    object symmetries (knowledge.symmetry.object_blocks), with the product of the class sizes; V then R are
    built one image at a time with SAT pruning. Each pair gives pi(object o, attribute a) =
    (R(o), V(a)) (concepts are object-major). The symmetry groups are products of a group on
    objects and one on attributes, so a double class of (R, V) is a pair of double classes."""
    n, m = len(encoding.object_maps[0]), len(encoding.object_maps[1])
    blocks = object_blocks(encoding.task)
    for what in ("object", "attribute"):  # kept as used, for symmetry_groups
        families = f"knowledge {what} families"
        blocks[families] = usable_families(blocks[f"support {what}s"], blocks[families])
    found: Classes = []
    check = Viability(encoding)

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
                def literals(enc: Encoding) -> list[int]:
                    return attribute_literals(enc, fixed) + object_literals(enc, placed)

                return check(literals, len(placed) == n)

            for objs, obj_size in classes(
                blocks["support objects"],
                blocks["knowledge objects"],
                viable,
                blocks["knowledge object families"],
            ):
                pi = tuple(objs[i // m] * m + attrs[i % m] for i in range(m * n))
                found.append((pi, attr_size * obj_size))
                if max_classes is not None and len(found) > max_classes:
                    raise TooManyClasses(
                        f"more than {max_classes} object and attribute map classes survive pruning"
                    )
                if progress:
                    progress.update(f"{len(found)} object and attribute map classes found")
    finally:
        check.close()
    return found, blocks
