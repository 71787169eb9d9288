"""Knowledge given as a Python function, from the API only (task files never run code; rsbench's
and ABLkit's own knowledge is Python): the function tabulated on every concept vector, read as a
Lookup expression, so that every method and statement sees a table like any program's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import TaskError, quote, short
from ..limits import FUNCTION_VECTORS
from .expressions import Expr, LookupTable, call, const, normalise, var
from .support import domain_size

if TYPE_CHECKING:
    from .model import Concept

LabelFunction = Callable[..., Any]


def tabulated(function: LabelFunction, concepts: Sequence[Concept], where: str) -> Expr:
    """The label `function` gives each concept vector (called with the concepts' values as keyword
    arguments named after them), as a Lookup over every concept; a TaskError naming `where` and
    the vector when it raises or returns something other than an integer, a string or a Boolean."""
    FUNCTION_VECTORS.check(domain_size([c.values for c in concepts]), where)
    names = [c.name for c in concepts]
    table: dict[tuple[Any, ...], Any] = {}
    for row in product(*(c.values for c in concepts)):
        assignment = dict(zip(names, row))
        try:
            value = normalise(function(**assignment))
        except Exception as exc:  # the caller's own code: its failure is named with the vector
            problem = f"{type(exc).__name__}: {short(str(exc))}"
            raise TaskError(where, f"the function raised {problem} on {quote(assignment)}") from None
        if hasattr(value, "item") and not isinstance(value, int | str):  # a numpy scalar
            value = normalise(value.item())
        if not isinstance(value, int | str):
            raise TaskError(
                where,
                f"the function returned {quote(value)} on {quote(assignment)}: "
                "not an integer, a word or a Boolean",
            )
        table[row] = value
    return lookup(names, [c.values for c in concepts], table)


def lookup(
    names: Sequence[str], domains: Sequence[Sequence[Any]], table: Mapping[tuple[Any, ...], Any]
) -> Expr:
    """The label `table` gives every concept vector (keys in product order over `domains`) as a
    Lookup over only the concepts it depends on (a constant when none): a program's answer or a
    function tabulated over every concept then reads what it reads, so its label groups, and the
    prefixes a search checks it on, are those of the same knowledge written as expressions."""
    values = list(table.values())
    ids: dict[Any, int] = {}
    codes = np.array([ids.setdefault(v, len(ids)) for v in values], dtype=np.int64)
    shaped = codes.reshape([len(d) for d in domains])
    kept = [j for j in range(len(domains)) if not (shaped == shaped.take([0], axis=j)).all()]
    if not kept:
        return const(values[0])
    if len(kept) == len(domains):
        return call("Lookup", *(var(n) for n in names), const(LookupTable(table, domains)))
    first = tuple(0 if j not in kept else slice(None) for j in range(len(domains)))
    narrowed = shaped[first].reshape(-1)
    by_id = list(ids)
    read = [domains[j] for j in kept]
    rows = product(*read)
    return call(
        "Lookup",
        *(var(names[j]) for j in kept),
        const(LookupTable({row: by_id[code] for row, code in zip(rows, narrowed.tolist())}, read)),
    )


def is_table(expr: Expr) -> bool:
    """Whether `expr` reads a table (a Python function's or a program's), which no task-file
    expression can write."""
    if expr.op == "const":
        return isinstance(expr.args[0], LookupTable)
    return expr.op != "var" and any(isinstance(a, Expr) and is_table(a) for a in expr.args)
