"""Tseitin compilation of knowledge expressions over finite domains into integer CNF clauses.

A compiled sub-expression is a `Dom`: value -> literal that is true iff the sub-expression takes
that value. Every auxiliary variable is defined by a full equivalence, so it is functionally
determined by the inputs and counting over all variables equals counting over the inputs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import product
from typing import Any

from .errors import RscountError
from .expr import LOGIC_OPS, OPS, Expr

TRUE = 1 << 62
FALSE = -TRUE
Dom = dict[Any, int]


def normalise(value: Any) -> Any:
    """Booleans are the integers 0/1 everywhere (labels, domains, expression values)."""
    return int(value) if isinstance(value, bool) else value


class CNFBuilder:
    """Integer clauses with a variable counter and gates with constant folding and sharing."""

    def __init__(self) -> None:
        self.num_vars = 0
        self.clauses: list[list[int]] = []
        self._gates: dict[tuple, int] = {}

    def new_scope(self) -> None:
        """Forget shared gates, so later gates use only variables created from now on."""
        self._gates.clear()

    def new_var(self) -> int:
        """A fresh variable number."""
        self.num_vars += 1
        return self.num_vars

    def add(self, clause: Iterable[int]) -> None:
        """Add a clause, dropping it if it contains TRUE and removing FALSE literals."""
        lits = []
        for lit in clause:
            if lit == TRUE:
                return
            if lit != FALSE:
                lits.append(lit)
        if not lits:  # unsatisfiable: say so with a fresh variable rather than an empty clause
            z = self.new_var()
            self.clauses.extend(([z], [-z]))
            return
        self.clauses.append(lits)

    def and_(self, lits: Iterable[int]) -> int:
        """A literal equivalent to the conjunction of `lits`."""
        uniq: set[int] = set()
        for lit in lits:
            if lit == FALSE or -lit in uniq:
                return FALSE
            if lit != TRUE:
                uniq.add(lit)
        if not uniq:
            return TRUE
        if len(uniq) == 1:
            return next(iter(uniq))
        key = ("and", frozenset(uniq))
        if key not in self._gates:
            g = self.new_var()
            for lit in uniq:
                self.clauses.append([-g, lit])
            self.clauses.append([g, *(-lit for lit in uniq)])
            self._gates[key] = g
        return self._gates[key]

    def or_(self, lits: Iterable[int]) -> int:
        """A literal equivalent to the disjunction of `lits`."""
        return -self.and_(-lit for lit in lits)

    def xor_(self, lits: Iterable[int]) -> int:
        """A literal equivalent to the parity of `lits` (a chain of 2-input gates)."""
        acc = FALSE
        for lit in lits:
            if lit in (TRUE, FALSE):
                acc = -acc if lit == TRUE else acc
            elif acc in (TRUE, FALSE):
                acc = lit if acc == FALSE else -lit
            else:
                acc = self._xor2(acc, lit)
        return acc

    def _xor2(self, a: int, b: int) -> int:
        if a == b:
            return FALSE
        if a == -b:
            return TRUE
        sign = 1
        if a < 0:
            a, sign = -a, -sign
        if b < 0:
            b, sign = -b, -sign
        key = ("xor", min(a, b), max(a, b))
        if key not in self._gates:
            g = self.new_var()
            self.clauses.extend(([-g, a, b], [-g, -a, -b], [g, -a, b], [g, a, -b]))
            self._gates[key] = g
        return sign * self._gates[key]


def bool_dom(lit: int) -> Dom:
    """The Dom of a Boolean with truth literal `lit`."""
    if lit == TRUE:
        return {1: TRUE}
    if lit == FALSE:
        return {0: TRUE}
    return {1: lit, 0: -lit}


def truth(dom: Dom, op: str, arg: Expr, where: str) -> int:
    """The truth literal of a Boolean Dom; non-Boolean values are a user error."""
    bad = [v for v in dom if v not in (0, 1)]
    if bad:
        raise RscountError(f"{where}: {op} needs Boolean arguments, but {arg} can be {bad[0]!r}")
    return dom.get(1, FALSE)


def _apply(builder: CNFBuilder, op: str, doms: list[Dom], where: str) -> Dom:
    """Tabulate a value operator over the product of its argument domains."""
    fn = OPS[op]
    terms: dict[Any, list[int]] = defaultdict(list)
    for combo in product(*(d.items() for d in doms)):
        try:
            value = normalise(fn(*(v for v, _ in combo)))
        except (TypeError, ZeroDivisionError, ValueError, OverflowError) as exc:
            values = ", ".join(repr(v) for v, _ in combo)
            raise RscountError(f"{where}: {op}({values}) is undefined: {exc}") from None
        terms[value].append(builder.and_(lit for _, lit in combo))
    if len(terms) == 2:
        (v0, t0), (v1, _) = terms.items()
        first = builder.or_(t0)
        result = {v0: first, v1: -first}
    else:
        result = {v: builder.or_(t) for v, t in terms.items()}
    return {v: lit for v, lit in result.items() if lit != FALSE}


def compile_expr(builder: CNFBuilder, expr: Expr, inputs: Mapping[str, Dom], where: str) -> Dom:
    """Compile `expr` given the Dom of each concept name; returns the Dom of its value."""
    memo: dict[int, Dom] = {}

    def go(e: Expr) -> Dom:
        key = id(e)
        if key in memo:
            return memo[key]
        if e.op == "var":
            dom = inputs[e.args[0]]
        elif e.op == "const":
            dom = {normalise(e.args[0]): TRUE}
        elif e.op in LOGIC_OPS:
            lits = [truth(go(a), e.op, a, where) for a in e.args]
            if e.op == "And":
                dom = bool_dom(builder.and_(lits))
            elif e.op == "Or":
                dom = bool_dom(builder.or_(lits))
            elif e.op == "Not":
                dom = bool_dom(-lits[0])
            elif e.op == "Xor":
                dom = bool_dom(builder.xor_(lits))
            elif e.op == "Implies":
                dom = bool_dom(builder.or_([-lits[0], lits[1]]))
            else:  # Equivalent: all equal
                dom = bool_dom(builder.or_([builder.and_(lits), builder.and_(-x for x in lits)]))
        elif e.op in ("Add", "Mul", "Min", "Max"):
            dom = go(e.args[0])
            for a in e.args[1:]:
                dom = _apply(builder, e.op, [dom, go(a)], where)
        else:
            dom = _apply(builder, e.op, [go(a) for a in e.args], where)
        memo[key] = dom
        return dom

    return go(expr)
