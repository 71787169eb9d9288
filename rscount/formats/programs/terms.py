"""Prolog terms of a program read as data (rscount.formats.programs.problog): predicate signatures, clause
heads and bodies, matching a pattern against a ground term, binding variables, domain values."""

from __future__ import annotations

import operator
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from problog.logic import AnnotatedDisjunction, Clause, Constant, Term, Var


def is_atom(term: Any) -> bool:
    return isinstance(term, Term) and not isinstance(term, Clause | AnnotatedDisjunction | Var | Constant)


def signature(term: Term) -> tuple[str, int]:
    """Name and arity of a predicate, its name unquoted (problog writes 'is' for is)."""
    name = str(term.functor)
    return (name[1:-1] if len(name) > 1 and name[0] == name[-1] == "'" else name), term.arity


ARITHMETIC = {
    "/": operator.truediv,
    "*": operator.mul,
    "+": operator.add,
    "-": operator.sub,
}  # how a probability may be written: 1/6, 0.5*0.4, 1-0.25


def weight(probability: Any) -> Fraction | None:
    """A probability as written, exactly: `1/6` is 1/6 (six of them sum to 1), `0.15` is 3/20 (a
    float read back as the shortest decimal that gives it, which is what its author wrote); None
    for a learnable `t(_)` or anything else not a number."""
    if probability is None:
        return Fraction(1)
    if isinstance(probability, Constant):
        number = probability.value
        if isinstance(number, bool) or not isinstance(number, int | float):
            return None
        return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)
    symbol, arity = signature(probability) if isinstance(probability, Term) else ("", 0)
    if arity == 2 and symbol in ARITHMETIC:
        left, right = (weight(a) for a in probability.args)
        if left is None or right is None or (symbol == "/" and right == 0):
            return None
        return ARITHMETIC[symbol](left, right)  # type: ignore[no-any-return]
    if arity == 1 and symbol == "-":
        inner = weight(probability.args[0])
        return None if inner is None else -inner
    return None


def heads(clause: Any) -> Iterator[Any]:
    if isinstance(clause, AnnotatedDisjunction):
        yield from clause.heads
    elif isinstance(clause, Clause):
        if clause.head.functor != "_directive":
            yield clause.head
    elif isinstance(clause, Term) and clause.functor == ";":
        yield from clause.to_list()
    elif isinstance(clause, Term):
        yield clause


def bodies(clause: Any) -> Iterator[Any]:
    body = getattr(clause, "body", None)
    if body is not None and isinstance(clause, Clause | AnnotatedDisjunction):
        yield body


def variables(term: Any) -> Iterator[Var]:
    if isinstance(term, Var):
        yield term
    elif isinstance(term, Term):
        for arg in term.args:
            yield from variables(arg)


def match(pattern: Any, ground: Any, binding: dict[str, Any]) -> dict[str, Any] | None:
    """The binding of `pattern`'s variables (by name) that makes it `ground`, or None."""
    if isinstance(pattern, Var):
        name = str(pattern)
        if name in binding and binding[name] != ground:
            return None
        return {**binding, name: ground}
    if isinstance(pattern, Constant) or isinstance(ground, Constant | Var):
        return binding if pattern == ground else None
    if pattern.functor != ground.functor or pattern.arity != ground.arity:
        return None
    for a, b in zip(pattern.args, ground.args):
        found = match(a, b, binding)
        if found is None:
            return None
        binding = found
    return binding


def bind(term: Any, binding: dict[str, Any]) -> Any:
    """`term` with the variables of `binding` (by name) replaced; other variables stay."""
    if isinstance(term, Var):
        return binding.get(str(term), term)
    if isinstance(term, Constant) or not isinstance(term, Term) or not term.args:
        return term
    return term.with_args(*(bind(a, binding) for a in term.args))


def value(term: Any) -> Any:
    """A ground argument as a domain value: integers as ints, atoms as their names, else the text."""
    if isinstance(term, Constant) and isinstance(term.value, int):
        return term.value
    if isinstance(term, Term) and not isinstance(term, Constant) and term.arity == 0:
        return str(term.functor).strip("'")
    return str(term)
