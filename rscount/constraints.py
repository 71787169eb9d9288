"""Knowledge given as constraints over concepts and labels (`knowledge:` in a task file), checked to
be deterministic and turned into one label function per label.

rsbench assumes every concept vector has exactly one label (A2). A constraint such as
`Implies(ped | red, stop)` leaves `stop` open when neither holds, so it is rejected with such a
concept vector shown, unless `completion:` gives default values: among the label tuples the
constraints allow, a vector then takes the one that keeps the first listed default if it can, then
the second, and so on (which must leave a single tuple). Both checks are SAT calls over the concepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, product
from typing import Any

from .analysis import Copies
from .circuit import FALSE
from .errors import RscountError
from .expr import Expr, call, const, evaluate
from .task import Concept

MAX_LABEL_TUPLES = 256


def substitute(expr: Expr, values: Mapping[str, Any]) -> Expr:
    """`expr` with the names in `values` replaced by constants."""
    if expr.op == "var":
        return const(values[expr.args[0]]) if expr.args[0] in values else expr
    if expr.op == "const":
        return expr
    return call(expr.op, *(substitute(a, values) for a in expr.args))


def complete(
    concepts: Sequence[Concept],
    formulas: Sequence[Expr],
    domains: Mapping[str, Sequence[Any]],
    completion: Mapping[str, Any],
    support: Sequence[tuple] | None = None,
) -> dict[str, Expr]:
    """Label expressions equivalent to the constraints `formulas` (with the `completion` defaults),
    after checking that they give every concept vector exactly one label tuple. When they do not,
    the error also says whether they do on the `support` rows (if given)."""
    names = list(domains)
    tuples = list(product(*domains.values()))
    if len(tuples) > MAX_LABEL_TUPLES:
        raise RscountError(
            f"labels: {len(tuples)} label combinations; at most {MAX_LABEL_TUPLES} with knowledge:"
        )

    def rank(y: tuple) -> tuple[bool, ...]:
        value = dict(zip(names, y))
        return tuple(value[n] != default for n, default in completion.items())

    order = sorted(tuples, key=rank)
    holds = {y: substitute(call("And", *formulas), dict(zip(names, y))) for y in order}
    copies = Copies(concepts, {str(y): e for y, e in holds.items()})
    x = copies.copy()
    gate = {y: dom.get(1, FALSE) for y, dom in zip(order, copies.labels(x))}
    b = copies.builder
    found = copies.witness(b.and_(-g for g in gate.values()), x)
    if found is not None:
        raise RscountError(
            f"knowledge: concept vector {_show(concepts, found[0])} fits no label combination"
            + _on_support(concepts, holds, rank, support)
        )
    for r in sorted({rank(y) for y in order}):
        better = b.or_(gate[y] for y in order if rank(y) < r)
        for y1, y2 in combinations([y for y in order if rank(y) == r], 2):
            found = copies.witness(b.and_([gate[y1], gate[y2], -better]), x)
            if found is not None:
                hint = " (a 'completion:' default per label chooses)" if not completion else ""
                raise RscountError(
                    f"knowledge is not deterministic: concept vector {_show(concepts, found[0])} can have "
                    f"{_labels(names, y1)} or {_labels(names, y2)}{hint}"
                    + _on_support(concepts, holds, rank, support)
                )
    labels = {}
    for n, name in enumerate(names):
        expr = const(order[-1][n])
        for y in reversed(order[:-1]):
            expr = call("ITE", holds[y], const(y[n]), expr)
        labels[name] = expr
    return labels


def _on_support(
    concepts: Sequence[Concept], holds: Mapping[tuple, Expr], rank: Any, support: Sequence[tuple] | None
) -> str:
    """Whether the constraints give each training row exactly one label tuple (by evaluation)."""
    if support is None:
        return ""
    bad = []
    for row in support:
        values = {c.name: v for c, v in zip(concepts, row)}
        fitting = [y for y, e in holds.items() if evaluate(e, values)]
        best = min((rank(y) for y in fitting), default=None)
        if sum(rank(y) == best for y in fitting) != 1:
            bad.append(row)
    if not bad:
        return f"; on the {len(support)} training rows it is deterministic"
    return f"; so are {len(bad)} of the {len(support)} training rows, e.g. {_show(concepts, bad[0])}"


def _show(concepts: Sequence[Concept], row: tuple) -> str:
    return "{" + ", ".join(f"{c.name}: {v!r}" for c, v in zip(concepts, row)) + "}"


def _labels(names: Sequence[str], y: tuple) -> str:
    return ", ".join(f"{n} = {v!r}" for n, v in zip(names, y))
