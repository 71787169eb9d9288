"""Compilation of knowledge expressions over finite domains, over any gate algebra.

A compiled sub-expression is a `Dom`: value -> gate that is true iff the sub-expression takes that
value. The algebra decides what a gate is: `CNFBuilder` makes Tseitin literals with integer
clauses (every auxiliary functionally determined by the inputs wherever the inputs are partitions,
exactly one gate of each concept's Dom true, as they are in every model of rscount's encodings; so
counting over all variables equals counting over the inputs); `rscount.knowledge.sdd` makes SDD
nodes by apply operations, with no auxiliaries at all.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, Protocol, TypeVar

from ..errors import TaskError, quote, short
from ..task.expressions import LOGIC_OPS, OPS, Expr, normalise
from .diagrams import lookup_dom

TRUE = 1 << 62
FALSE = -TRUE
PAIRWISE = 64  # literals up to which CNFBuilder.at_most_one states every pair
Dom = dict[Any, Any]
Table = dict[Any, list[tuple[int, ...]]]  # an operator's value -> the argument positions giving it
EQUALITIES = ("Eq", "Ne")
# (swap the arguments, strict) of each ordering, compiled as CNFBuilder.less
ORDERINGS = {"Lt": (False, True), "Le": (False, False), "Gt": (True, True), "Ge": (True, False)}
L = TypeVar("L")


class GateAlgebra(Protocol):
    """Boolean gates with constants; `compile_expr` needs nothing else."""

    true: Any
    false: Any

    def neg(self, x: Any) -> Any:
        """Negation."""

    def and_(self, xs: Iterable[Any]) -> Any:
        """Conjunction (true when empty)."""

    def or_(self, xs: Iterable[Any]) -> Any:
        """Disjunction (false when empty)."""

    def xor_(self, xs: Iterable[Any]) -> Any:
        """Parity."""

    def is_const(self, x: Any, value: bool) -> bool:
        """Whether `x` is the constant `value`."""

    def partition(self, terms: Mapping[Any, Sequence[Sequence[Any]]]) -> Dom:
        """The Dom of an operator's value, `terms[w]` the argument combinations (a gate per
        argument) giving w."""

    def equality(self, x: Dom, y: Dom) -> Any:
        """A gate true iff the values of Doms `x` and `y` are equal."""

    def less(self, x: Dom, y: Dom, strict: bool) -> Any:
        """A gate true iff the value of Dom `x` is below `y`'s (or equal, unless `strict`); numbers."""


def exactly_one(lits: Sequence[L], neg: Callable[[L], L] = operator.neg) -> list[list[L]]:  # type: ignore[assignment]
    """The clauses of "exactly one of `lits`": one at-least-one clause and pairwise at-most-one.
    The one exactly-one encoding rscount uses: over integer literals for CNF, over the gates of an
    algebra with its `neg` (then conjoin the clauses with `and_`/`or_`)."""
    return [list(lits), *([neg(a), neg(b)] for a, b in combinations(lits, 2))]


def at_most_one_clauses(n: int) -> int:
    """The clauses CNFBuilder.at_most_one states over n literals."""
    return n * (n - 1) // 2 if n <= PAIRWISE else 4 * (n - 1)


class CNFBuilder:
    """Integer clauses with a variable counter and gates with constant folding and sharing."""

    true = TRUE
    false = FALSE

    def __init__(self) -> None:
        self.num_vars = 0
        self.clauses: list[list[int]] = []
        self._gates: dict[tuple[Any, ...], int] = {}

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

    def neg(self, lit: int) -> int:
        """The negated literal."""
        return -lit

    def is_const(self, lit: int, value: bool) -> bool:
        """Whether `lit` is the constant TRUE (value) or FALSE (not value)."""
        return lit == (TRUE if value else FALSE)

    def or_(self, lits: Iterable[int]) -> int:
        """A literal equivalent to the disjunction of `lits`."""
        return -self.and_(-lit for lit in lits)

    def partition(self, terms: Mapping[Any, Sequence[Sequence[int]]]) -> Dom:
        """The Dom of an operator's value, `terms[w]` its argument combinations (a gate per argument,
        each argument a partition) giving w: a variable per value, set by one clause per combination
        and at most one true. Without the AND gate of every combination it is smaller and propagates
        better (MNMath's digit sums: SAT 3x faster)."""
        values = list(terms)
        if len(values) == 1:
            return {values[0]: TRUE}
        first = self.new_var()
        lits = [first, -first] if len(values) == 2 else [first, *(self.new_var() for _ in values[1:])]
        for lit, combos in zip(lits, terms.values()):
            for combo in combos:
                if FALSE not in combo:  # a combination with a false gate never holds
                    self.clauses.append([*(-g for g in combo if g != TRUE), lit])
        if len(values) > 2:
            self.at_most_one(lits)
        return dict(zip(values, lits))

    def at_most_one(self, lits: Sequence[int]) -> None:
        """At most one of `lits` true: pairwise up to PAIRWISE literals (it propagates best: with a
        ladder MNMath's 200-row y1 refutations take 1.6x longer), else a ladder of prefix variables
        p_i <-> (p_i-1 or x_i), each determined by the literals, 4 clauses per literal."""
        if len(lits) <= PAIRWISE:
            self.clauses.extend([-a, -b] for a, b in combinations(lits, 2))
            return
        prefix = lits[0]
        for x in lits[1:]:
            p = self.new_var()
            self.clauses.extend(([-x, -prefix], [-x, p], [-prefix, p], [-p, prefix, x]))
            prefix = p

    def equality(self, x: Dom, y: Dom) -> int:
        """A literal true iff partitions `x` and `y` take the same value: 2 clauses per value of `x`
        instead of an AND gate per pair of values."""
        r = self.new_var()
        for value, gate in x.items():
            other = y.get(value, FALSE)
            if gate in (TRUE, FALSE) or other in (TRUE, FALSE):
                self.add([-r, -gate, other])  # equal: x's value is y's
                self.add([r, -gate, -other])  # not equal: y is not x's value
            else:  # no constant to fold (MNMath's rows: a million clauses)
                self.clauses.extend(([-r, -gate, other], [r, -gate, -other]))
        return r

    def less(self, x: Dom, y: Dom, strict: bool) -> int:
        """A literal true iff x's value is below y's (or equal, unless `strict`): a ladder of
        "y is at least its j-th value" over y's values (4 clauses each, shared by every comparison
        with y), then 2 clauses per value of x, instead of a clause per pair (two sums of two
        digits: under 120 clauses against 361). The fourth clause, y's j-th value excluding the
        next step, lets a known bound on y rule its values out by unit propagation."""
        ys = sorted(y.items())
        at_least: list[int] = [FALSE] * (len(ys) + 1)
        for j in range(len(ys) - 1, -1, -1):
            key = ("at least", ys[j][1], at_least[j + 1])
            if key not in self._gates:
                self._gates[key] = self.or_([ys[j][1], at_least[j + 1]])
                self.add([-ys[j][1], -at_least[j + 1]])
            at_least[j] = self._gates[key]
        r = self.new_var()
        for value, gate in x.items():
            cut = (bisect_right if strict else bisect_left)(ys, value, key=operator.itemgetter(0))
            above = at_least[cut]
            self.add([-r, -gate, above])  # below: y is above x's value
            self.add([r, -gate, -above])
        return r

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


def bool_dom(alg: GateAlgebra, gate: Any) -> Dom:
    """The Dom of a Boolean whose truth is `gate`."""
    if alg.is_const(gate, True):
        return {1: alg.true}
    if alg.is_const(gate, False):
        return {0: alg.true}
    return {1: gate, 0: alg.neg(gate)}


def truth(alg: GateAlgebra, dom: Dom, op: str, arg: Expr, where: str) -> Any:
    """The truth gate of a Boolean Dom; non-Boolean values are a user error."""
    bad = [v for v in dom if v not in (0, 1)]
    if bad:
        raise TaskError(where, f"{op} needs Boolean arguments, but {short(str(arg))} can be {quote(bad[0])}")
    return dom.get(1, alg.false)


@dataclass
class Shared:
    """Operator applications remembered across the compilations into one CNF (rows on other
    inputs): their gates by operator and argument gates, and their tables (the argument positions
    giving each value) by operator and argument values."""

    applied: dict[tuple[Any, ...], Dom] = field(default_factory=dict)
    tables: dict[tuple[Any, ...], Table] = field(default_factory=dict)
    gates: bool = True  # share the gates too (False: the tables alone, for rows that may join under guards)


def _apply(alg: GateAlgebra, op: str, doms: list[Dom], where: str, shared: Shared | None) -> Dom:
    """A value operator's Dom over its argument Doms; an equality that can come out either way is
    one gate, without tabulating its pairs. With `shared`, made once per operator and argument
    gates (another row reading the same values reuses it)."""
    if shared is not None and shared.gates:
        key = (op, *(tuple(d.items()) for d in doms))
        if key not in shared.applied:
            shared.applied[key] = (
                _apply(alg, op, doms, where, None)
                if _gated(op, doms)
                else _tabulate(alg, op, doms, where, shared)
            )
        return shared.applied[key]
    if not _gated(op, doms):
        return _tabulate(alg, op, doms, where, shared)  # its tables shared, if any
    if op in EQUALITIES:
        same = alg.equality(doms[0], doms[1])
        return bool_dom(alg, same if op == "Eq" else alg.neg(same))
    swap, strict = ORDERINGS[op]
    x, y = doms[::-1] if swap else doms
    return bool_dom(alg, alg.less(x, y, strict))


def _gated(op: str, doms: list[Dom]) -> bool:
    """Whether the operator is one gate instead of a table: an equality that can come out either
    way, or an ordering of two numbers (< orders them as sorting does) that can."""
    if op in EQUALITIES:
        return len(doms[0]) * len(doms[1]) > 1 and any(v in doms[1] for v in doms[0])
    return (
        op in ORDERINGS
        and len(doms[0]) > 1
        and len(doms[1]) > 1
        and all(isinstance(v, (int, float)) for d in doms for v in d)
    )


def _tabulate(alg: GateAlgebra, op: str, doms: list[Dom], where: str, shared: Shared | None) -> Dom:
    """Tabulate a value operator over the product of its argument domains."""
    items = [list(d.items()) for d in doms]
    values = tuple(tuple((type(v), v) for v, _ in found) for found in items)
    if shared is None or (op, values) not in shared.tables:
        table = _table(op, values, where)
        if shared is not None:
            shared.tables[op, values] = table
    else:
        table = shared.tables[op, values]
    gates = [[g for _, g in found] for found in items]
    return alg.partition(
        {w: [tuple(map(list.__getitem__, gates, at)) for at in found] for w, found in table.items()}
    )


def _table(op: str, values: tuple[tuple[tuple[type, Any], ...], ...], where: str) -> Table:
    """The positions of the argument values (one per argument) giving each value of the operator."""
    fn = OPS[op]
    table: Table = defaultdict(list)
    for at in product(*(range(len(v)) for v in values)):
        args = [values[n][i][1] for n, i in enumerate(at)]
        try:
            table[normalise(fn(*args))].append(at)
        except (TypeError, ZeroDivisionError, ValueError, OverflowError) as exc:
            shown = short(", ".join(repr(v) for v in args))
            raise TaskError(where, f"{op}({shown}) is undefined: {short(str(exc))}") from None
    return table


def tabulated(alg: GateAlgebra, combos: Mapping[Any, Sequence[Sequence[Any]]]) -> Dom:
    """An operator's Dom as an or, per value, of the ands of its argument combinations (any
    algebra; with two values the second is the negation of the first, as exactly one holds)."""
    terms = {value: [alg.and_(combo) for combo in found] for value, found in combos.items()}
    if len(terms) == 2:  # exactly one combination holds, so the second value is the negation
        (v0, t0), (v1, _) = terms.items()
        first = alg.or_(t0)
        result = {v0: first, v1: alg.neg(first)}
    else:
        result = {v: alg.or_(t) for v, t in terms.items()}
    return {v: g for v, g in result.items() if not alg.is_const(g, False)}


def compile_expr(
    alg: GateAlgebra,
    expr: Expr,
    inputs: Mapping[str, Dom],
    where: str,
    memo: dict[int, Dom] | None = None,
    shared: Shared | None = None,
) -> Dom:
    """Compile `expr` given the Dom of each concept name; returns the Dom of its value. `memo` (by
    node identity) may be shared by expressions compiled on the same inputs (see interned);
    `shared` (by operator and argument gates) by compilations on other inputs into the same CNF:
    MNMath's rows that read the same pair of digits share its sum, and SAT refutes a wrong source
    tuple 30 times faster than on a sum per row."""
    memo = {} if memo is None else memo

    def go(e: Expr) -> Dom:
        key = id(e)
        if key in memo:
            return memo[key]
        if e.op == "var":
            dom = inputs[e.args[0]]
        elif e.op == "const":
            dom = {normalise(e.args[0]): alg.true}
        elif e.op in LOGIC_OPS:
            xs = [truth(alg, go(a), e.op, a, where) for a in e.args]
            if e.op == "And":
                gate = alg.and_(xs)
            elif e.op == "Or":
                gate = alg.or_(xs)
            elif e.op == "Not":
                gate = alg.neg(xs[0])
            elif e.op == "Xor":
                gate = alg.xor_(xs)
            elif e.op == "Implies":
                gate = alg.or_([alg.neg(xs[0]), xs[1]])
            else:  # Equivalent: all equal
                gate = alg.or_([alg.and_(xs), alg.and_(alg.neg(x) for x in xs)])
            dom = bool_dom(alg, gate)
        elif e.op in ("Add", "Mul", "Min", "Max"):
            dom = go(e.args[0])
            for a in e.args[1:]:
                dom = _apply(alg, e.op, [dom, go(a)], where, shared)
        else:
            doms = [go(a) for a in e.args]
            table = e.args[-1].args[0]
            through = lookup_dom(alg, doms[:-1], table, at_most_one_clauses) if e.op == "Lookup" else None
            dom = _apply(alg, e.op, doms, where, shared) if through is None else through
        memo[key] = dom
        return dom

    return go(expr)
