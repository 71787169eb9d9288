"""A row of an object-structured task read from a file's objects (KANDY symbol leaves, CLEVR scene
objects): each object's attributes, object by object, in the task's concept order."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import AnnotationError, quote
from ...task.model import Concept, Objects
from .annotations import value_of

LINK = "link"  # the structural attribute read from a KANDY tree's operators (tasks/kandy-easy-15.yaml)


def _link(operator: str | None, concept: Concept) -> Any:
    """The `link` value of an object whose relation to the next is `operator` (None: not adjacent)."""
    for name in (operator, operator and operator.removesuffix("_reduce_bb")):
        if name in concept.values:
            return name
    return "none"


def object_row(
    objects: Objects,
    leaves: Sequence[Any],
    path: Path,
    line: int | None,
    what: str,
    links: Sequence[str | None] = (),
) -> tuple[Any, ...]:
    if len(leaves) != objects.count:
        raise AnnotationError(
            str(path), f"{what} has {len(leaves)} objects, but the task has {objects.count}", line
        )
    row = []
    concepts = iter(objects.concepts())
    for n, leaf in enumerate(leaves, 1):
        if not isinstance(leaf, dict):
            raise AnnotationError(str(path), f"object {n} of {what} is not a mapping", line)
        for attribute, _ in objects.attributes:
            concept = next(concepts)
            if attribute == LINK and attribute not in leaf and links:
                row.append(value_of(_link(links[n - 1], concept), concept, path, line))
                continue
            if attribute not in leaf:
                raise AnnotationError(str(path), f"object {n} of {what} has no {quote(attribute)}", line)
            row.append(value_of(leaf[attribute], concept, path, line))
    return tuple(row)
