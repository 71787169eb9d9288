"""Expressions evaluated by closures built once (evaluate's semantics, without its per-call
dispatch): what a search runs on every vector it predicts."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from .expressions import OPS, Expr

Compiled = Callable[[Mapping[str, Any]], Any]


def compiled(expr: Expr) -> Compiled:
    """evaluate(expr, ·) as one closure per node, built once (a shared subexpression once): the same
    values and errors without looking each operator up again at every call, concepts read by
    itemgetter, two operands passed without a list, and a conjunction (disjunction) whose operands
    cannot raise taken as one over its nested ones and stopped at the first operand that decides it
    (a search evaluates a sudoku's validity, 56 inequalities joined by `&`, on every grid it
    predicts)."""
    built: dict[int, Compiled] = {}

    def operands(node: Expr) -> list[Expr]:
        """A safe conjunction's (disjunction's) operands with nested ones flattened."""
        return [x for a in node.args for x in (operands(a) if a.op == node.op else [a])]

    def build(node: Expr) -> Compiled:
        if id(node) in built:
            return built[id(node)]
        made: Compiled
        if node.op == "var":
            made = operator.itemgetter(node.args[0])
        elif node.op == "const":
            value = node.args[0]
            made = lambda a: value  # noqa: E731
        elif node.op in ("And", "Or") and _never_raises(node):
            made = _first_deciding([build(k) for k in operands(node)], stop=node.op == "Or")
        else:
            fn, kids = OPS[node.op], [build(k) for k in node.args]
            if len(kids) == 2:
                first, second = kids
                made = lambda a: fn(first(a), second(a))  # noqa: E731
            else:
                made = lambda a: fn(*[k(a) for k in kids])  # noqa: E731
        built[id(node)] = made
        return made

    return build(expr)


def _never_raises(node: Expr) -> bool:
    """Whether `node` is 0 or 1 on every assignment without raising: an equality or inequality of
    concepts and constants, or a connective of such."""
    if node.op in ("Eq", "Ne"):
        return all(a.op in ("var", "const") for a in node.args)
    return node.op in ("And", "Or", "Not") and all(_never_raises(a) for a in node.args)


def _first_deciding(kids: list[Compiled], stop: bool) -> Compiled:
    """A conjunction (stop False) or disjunction (stop True) of `kids` that returns at the first
    operand whose truth is `stop`."""

    def decided(a: Mapping[str, Any]) -> int:
        for k in kids:
            if bool(k(a)) is stop:  # 0 or 1: the operands never raise
                return int(stop)
        return int(not stop)

    return decided
