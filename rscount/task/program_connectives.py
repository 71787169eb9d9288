"""The connectives of a grounded program (rscount.task.programs) as expressions, simplified as they
are built: grounding keeps products that need two values of one concept and sums over every value of
a concept (problog does not know that a disjunction's heads exclude each other); both go here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .expressions import Expr, call, const


def _literal(e: Expr) -> tuple[str, Any] | None:
    """(concept, value) of `concept == value`, else None."""
    if e.op == "Eq" and e.args[0].op == "var" and e.args[1].op == "const":
        return e.args[0].args[0], e.args[1].args[0]
    return None


def conjunction(parts: Sequence[Expr]) -> Expr:
    """The conjunction of ground parts, simplified: grounding joins derivations that need two values of
    one concept (colour(c1, red), colour(c1, blue)), which no concept vector meets."""
    kept: list[Expr] = []
    fixed: dict[str, Any] = {}
    for part in parts:
        if part.op == "const":
            if not part.args[0]:
                return const(0)
            continue
        literal = _literal(part)
        if literal is not None:
            if literal[0] in fixed:
                if fixed[literal[0]] != literal[1]:
                    return const(0)
                continue
            fixed[literal[0]] = literal[1]
        kept.append(part)
    return const(1) if not kept else kept[0] if len(kept) == 1 else call("And", *kept)


def disjunction(parts: Sequence[Expr], domains: dict[str, tuple[Any, ...]]) -> Expr:
    """The disjunction of ground parts, simplified: one that lists every value of a concept (a
    perceived attribute, `shape(O, _)`) always holds."""
    kept: list[Expr] = []
    seen: dict[str, set[Any]] = {}
    for part in parts:
        if part.op == "const":
            if part.args[0]:
                return const(1)
            continue
        literal = _literal(part)
        if literal is not None:
            values = seen.setdefault(literal[0], set())
            if literal[1] in values:
                continue
            values.add(literal[1])
            if len(values) == len(domains[literal[0]]):
                return const(1)
        kept.append(part)
    return const(0) if not kept else kept[0] if len(kept) == 1 else call("Or", *kept)
