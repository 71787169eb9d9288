"""Expressions evaluated on many concept vectors at once, as numpy arrays (label tables), and on one
vector with every shared sub-expression evaluated once (a program's labels are DAGs: the same
`holds` condition feeds every answer, and evaluating the tree as a tree repeats it exponentially).

Both give exactly what rscount.task.expressions.evaluate gives: Python's floor division and modulo,
0/1 truth values, and the same refusals anywhere in the input (a logical operator on a non-Boolean,
a division or modulo by zero, a negative exponent; both branches of ITE are evaluated, as there).
Integers stay below 2^62 in the arrays: beyond, TooLarge, and the caller evaluates vector by vector
with Python's integers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import reduce
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .expressions import OPS, Expr, LookupTable, normalise

BOUND = 1 << 62  # integer magnitude the int64 arrays may hold
Array = NDArray[Any]


class TooLarge(Exception):
    """An intermediate integer may not fit an int64 array."""


def value_array(values: Sequence[Any]) -> Array:
    """Values as an array: integers as int64, words as objects; TooLarge for an integer at or past
    BOUND (a program's answer or domain may be any integer)."""
    if any(isinstance(v, str) for v in values):
        return np.array(values, dtype=object)
    if any(abs(v) >= BOUND for v in values):
        raise TooLarge
    return np.array(values, dtype=np.int64)


def evaluate_shared(exprs: Sequence[Expr], assignment: Mapping[str, Any]) -> list[Any]:
    """The values of `exprs` on one concept vector, each shared node evaluated once."""
    memo: dict[int, Any] = {}

    def go(e: Expr) -> Any:
        key = id(e)
        if key not in memo:
            if e.op == "var":
                memo[key] = assignment[e.args[0]]
            elif e.op == "const":
                memo[key] = e.args[0]
            else:
                memo[key] = OPS[e.op](*(go(a) for a in e.args))
        return memo[key]

    return [normalise(go(e)) for e in exprs]


SPACE_MAX = 1 << 17  # concept vectors small enough to evaluate everything on all of them at once


def strides(sizes: Sequence[int]) -> list[int]:
    """Each concept's place value in D's numbering of concept vectors (first concept most
    significant, as all_vectors lists them)."""
    found, stride = [], 1
    for size in reversed(sizes):
        found.append(stride)
        stride *= size
    return found[::-1]


def all_vectors(domains: Sequence[Sequence[Any]], names: Sequence[str]) -> tuple[dict[str, Array], int]:
    """Columns holding every concept vector (first concept most significant), and their number;
    TooLarge for a domain the arrays cannot hold."""
    size = 1
    for domain in domains:
        size *= len(domain)
    codes = np.arange(size, dtype=np.int64)
    columns, stride = {}, size
    for name, domain in zip(names, domains):
        stride //= len(domain)
        columns[name] = value_array(domain)[(codes // stride) % len(domain)]
    return columns, size


def on_all_vectors(
    exprs: Sequence[Expr], domains: Sequence[Sequence[Any]], names: Sequence[str]
) -> list[Array] | None:
    """The values of `exprs` on every concept vector when there are at most SPACE_MAX and the arrays
    hold them (None: ask a solver instead); raises as evaluate would on some vector."""
    size = 1
    for domain in domains:
        size *= len(domain)
    if size > SPACE_MAX:
        return None
    try:
        columns, size = all_vectors(domains, names)
        return tabulate(exprs, columns, size)
    except TooLarge:
        return None


def tabulate(exprs: Sequence[Expr], columns: Mapping[str, Array], size: int) -> list[Array]:
    """The values of `exprs` on `size` vectors whose concepts' values are the `columns` (arrays of
    ints, or of objects for words); raises as evaluate would on some vector, or TooLarge. Truth
    values stay numpy Booleans inside (one byte, no re-check), and a node's array is dropped once its
    last reader has used it, so a program's large DAG costs its width in memory, not its size."""
    readers: dict[int, int] = {}
    stack = list(exprs)
    while stack:  # how many nodes read each node (a shared node is visited once)
        e = stack.pop()
        for a in e.args:
            if isinstance(a, Expr):
                readers[id(a)] = readers.get(id(a), 0) + 1
                if readers[id(a)] == 1:
                    stack.append(a)
    memo: dict[int, Array] = {}

    def go(e: Expr) -> Array:
        key = id(e)
        if key not in memo:
            if e.op == "var":
                memo[key] = columns[e.args[0]]
            elif e.op == "const" and isinstance(e.args[0], LookupTable):  # read whole by Lookup
                memo[key] = np.empty(1, dtype=object)
                memo[key][0] = e.args[0]
            elif e.op == "const":
                memo[key] = np.repeat(value_array([e.args[0]]), size)
            else:
                args = [_used(a) for a in e.args]
                out = _apply(e.op, args)
                memo[key] = np.full(size, out) if out.ndim == 0 else out  # And() of no clause: a scalar
        return memo[key]

    def _used(e: Expr) -> Array:
        """e's values for one of its readers; forgotten after its last reader."""
        found = go(e)
        readers[id(e)] -= 1
        if not readers[id(e)]:
            del memo[id(e)]
        return found

    return [_as_values(go(e)) for e in exprs]


def _as_values(a: Array) -> Array:
    """Truth values as the integers 0/1 (as everywhere outside the logical operators)."""
    return a.astype(np.int64) if a.dtype == bool else a


def _truth(a: Array) -> Array:
    if a.dtype == bool:
        return a
    if not np.all((a == 0) | (a == 1)):
        bad = a[~((a == 0) | (a == 1))][0]
        raise TypeError(f"a logical operator got the non-Boolean value {bad!r}")
    return a.astype(bool)


def _bounded(a: Array) -> Array:
    """`a` if its integers are well inside int64 (object arrays of words pass through)."""
    if a.dtype != object and a.size and max(abs(int(a.max())), abs(int(a.min()))) >= BOUND:
        raise TooLarge
    return a


DENSE_KEPT = 256  # tables whose values are kept as arrays (by identity)
_dense: dict[int, tuple[LookupTable, list[dict[Any, int]], Array] | None] = {}


def _looked_up(table: LookupTable, args: list[Array]) -> Array | None:
    """table's values at the arguments' values, read by position where the table lists the product
    of its domains in order (a program's table, a function's: its values are an array indexed in
    mixed radix) instead of a dict look-up per vector; None where it does not."""
    if table.domains is None or not args:
        return None
    kept = _dense.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_dense) >= DENSE_KEPT:
            _dense.clear()
        try:
            values = value_array(list(table.values()))
        except TooLarge:
            return None
        kept = _dense[id(table)] = (table, [{v: n for n, v in enumerate(d)} for d in table.domains], values)
    _, places, values = kept
    index = np.zeros(len(args[0]), dtype=np.int64)
    for a, place, step in zip(args, places, strides([len(p) for p in places])):
        found = _positions(a, place)
        if found is None:  # a value the table does not list: the dict look-up raises as evaluate does
            return None
        index += found * step
    return values[index]


def _positions(a: Array, place: dict[Any, int]) -> Array | None:
    """The position in `place` of each value of `a` (None if one is not there): by a sorted search
    for integers, one look-up per value for words."""
    if a.dtype != object and all(isinstance(v, int) for v in place):
        listed = np.array(sorted(place), dtype=np.int64)
        at = np.minimum(np.searchsorted(listed, a), len(listed) - 1)
        if not np.array_equal(listed[at], a):
            return None
        return np.array([place[v] for v in listed.tolist()], dtype=np.int64)[at]
    try:
        return np.fromiter((place[v] for v in a.tolist()), dtype=np.int64, count=len(a))
    except KeyError:
        return None


def _magnitude(a: Array) -> int:
    return max(abs(int(a.max())), abs(int(a.min()))) if a.size and a.dtype != object else 0


def _apply(op: str, args: list[Array]) -> Array:
    """One operator on arrays, as evaluate applies it to each vector."""
    if op in ("And", "Or", "Not", "Xor", "Implies", "Equivalent"):
        truths = [_truth(a) for a in args]
        if op == "And":
            out = reduce(np.logical_and, truths) if truths else np.asarray(True)
        elif op == "Or":
            out = reduce(np.logical_or, truths) if truths else np.asarray(False)
        elif op == "Not":
            out = ~truths[0]
        elif op == "Xor":
            out = np.sum(truths, axis=0) % 2 == 1
        elif op == "Implies":
            out = ~truths[0] | truths[1]
        else:
            out = reduce(np.logical_and, truths) | ~reduce(np.logical_or, truths)
        return np.asarray(out, dtype=bool)
    if op == "ITE":
        return np.where(_truth(args[0]), _as_values(args[1]), _as_values(args[2]))
    args = [_as_values(a) for a in args]
    if op in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge"):
        compare = {"Eq": np.equal, "Ne": np.not_equal, "Lt": np.less, "Le": np.less_equal}
        compare |= {"Gt": np.greater, "Ge": np.greater_equal}
        return np.asarray(compare[op](args[0], args[1]), dtype=bool)
    if op == "Lookup":
        table = args[-1][0]
        found = _looked_up(table, args[:-1])
        if found is not None:
            return found
        return value_array([table[key] for key in zip(*(a.tolist() for a in args[:-1]))])
    if op in ("Min", "Max"):
        return np.asarray((np.minimum if op == "Min" else np.maximum).reduce(args))
    if any(a.dtype == object for a in args):
        raise TypeError(f"{op} of a word")
    if op in ("Add", "Mul"):
        bound = (
            sum(map(_magnitude, args))
            if op == "Add"
            else reduce(lambda x, y: x * y, map(_magnitude, args), 1)
        )
        if bound >= BOUND:
            raise TooLarge
        return reduce(np.add if op == "Add" else np.multiply, args)
    if op == "Sub":
        if _magnitude(args[0]) + _magnitude(args[1]) >= BOUND:
            raise TooLarge
        return args[0] - args[1]
    if op in ("FloorDiv", "Mod"):
        if np.any(args[1] == 0):
            raise ZeroDivisionError("division by zero" if op == "FloorDiv" else "modulo by zero")
        return _bounded(np.floor_divide(*args) if op == "FloorDiv" else np.mod(*args))
    if op == "Pow":
        if np.any(args[1] < 0):
            raise ValueError(f"the exponent {int(args[1][args[1] < 0][0])} is not a whole number >= 0")
        if _magnitude(args[0]) > 1 and _magnitude(args[1]) * _magnitude(args[0]).bit_length() >= 62:
            raise TooLarge
        return np.power(args[0], args[1])
    if op == "Neg":
        return -args[0]
    if op == "Abs":
        return np.abs(args[0])
    raise TypeError(f"unknown operator {op}")
