"""SDDs (PySDD) as a gate algebra for the circuit compiler, and exact model counts read off them with
Python integers: PySDD's own counter is a C `unsigned long long` that wraps silently past 2^64."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pysdd.sdd import SddManager, SddNode

from .circuit import Dom, tabulated


class SddAlgebra:
    """Gates as SDD nodes of one manager. Every node it makes is referenced until `release`, so
    automatic garbage collection and minimisation never free a node still in use."""

    def __init__(self, manager: SddManager) -> None:
        self.manager = manager
        self.true = manager.true()
        self.false = manager.false()
        self._held: list[SddNode] = []

    def _keep(self, x: SddNode) -> SddNode:
        x.ref()
        self._held.append(x)
        return x

    def release(self) -> None:
        """Drop the references taken since the last release."""
        self.keep_only(0)

    def keep_only(self, since: int, x: SddNode | None = None) -> None:
        """Drop the references taken after the first `since`, keeping one on `x` (if given)."""
        if x is not None:
            x.ref()
        for y in self._held[since:]:
            y.deref()
        del self._held[since:]
        if x is not None:
            self._held.append(x)

    @property
    def held(self) -> int:
        """How many references are taken (a mark for keep_only)."""
        return len(self._held)

    def neg(self, x: SddNode) -> SddNode:
        """Negation."""
        return self._keep(~x)

    def and_(self, xs: Iterable[SddNode]) -> SddNode:
        """Conjunction, stopping at false."""
        out = self.true
        for x in xs:
            out = self._keep(out & x)
            if out.is_false():
                break
        return out

    def or_(self, xs: Iterable[SddNode]) -> SddNode:
        """Disjunction, stopping at true."""
        out = self.false
        for x in xs:
            out = self._keep(out | x)
            if out.is_true():
                break
        return out

    def xor_(self, xs: Iterable[SddNode]) -> SddNode:
        """Parity."""
        out = self.false
        for x in xs:
            out = self.or_([self.and_([out, self.neg(x)]), self.and_([self.neg(out), x])])
        return out

    def is_const(self, x: SddNode, value: bool) -> bool:
        """Whether x is the constant `value`."""
        return bool(x.is_true() if value else x.is_false())

    def partition(self, terms: Mapping[Any, Sequence[Sequence[SddNode]]]) -> Dom:
        """An operator's Dom, tabulated: SDD nodes need no auxiliaries to be small."""
        return tabulated(self, terms)

    def equality(self, x: Dom, y: Dom) -> SddNode:
        """The two Doms take the same value: the or over x's values of both taking it."""
        return self.or_(self.and_([gate, y.get(value, self.false)]) for value, gate in x.items())

    def less(self, x: Dom, y: Dom, strict: bool) -> SddNode:
        """x's value is below y's (or equal, unless `strict`): the or over x's values of x taking
        it and y one above it."""
        return self.or_(
            self.and_([gate, self.or_(g for w, g in y.items() if (value < w if strict else value <= w))])
            for value, gate in x.items()
        )


Weights = Mapping[int, tuple[int, int]]  # variable -> (weight of x, weight of not x); others (1, 1)


class Circuit:
    """An SDD node flattened once, children before parents, to be counted many times under
    different literal weights: a weighted model count is one pass of integer arithmetic, without
    PySDD calls (MapMarginals counts one class's value maps some hundred times, once per value
    image: 17 s by walking the SDD each time on CLE4EVR full domains)."""

    def __init__(self, manager: SddManager, node: SddNode) -> None:
        self._under: dict[int, frozenset[int]] = {}
        self.root_vars = self._vars(manager.vtree())
        self.ids: list[int] = []  # node id, per position of the order
        self.literal: list[int] = []  # a literal node's literal, else 0
        self.elements: list[list[tuple[int, int, int, int]]] = []  # (prime, sub, their sides' gaps)
        self.gaps: list[tuple[frozenset[int], frozenset[int]]] = []  # a side's and a child's variables
        self._position: dict[int, int] = {}
        self._gap: dict[tuple[frozenset[int], frozenset[int]], int] = {}
        self.top = self._child(node, self.root_vars)
        self._flatten(node)
        self.root = self._index(node)

    def _vars(self, vtree: Any) -> frozenset[int]:
        """The variables of a vtree node (memoised by position)."""
        key = vtree.position()
        if key not in self._under:
            leaf = vtree.is_leaf()
            self._under[key] = (
                frozenset([vtree.var()]) if leaf else self._vars(vtree.left()) | self._vars(vtree.right())
            )
        return self._under[key]

    def _child(self, n: SddNode, side: frozenset[int]) -> int:
        """The gap index of node `n` (or a constant) under a side over `side`'s variables."""
        inner = frozenset() if n.is_true() or n.is_false() else self._vars(n.vtree())
        key = (side, inner)
        if key not in self._gap:
            self._gap[key] = len(self.gaps)
            self.gaps.append(key)
        return self._gap[key]

    def _flatten(self, node: SddNode) -> None:
        if _constant(node):
            return
        stack = [node]
        while stack:
            n = stack[-1]
            if n.id in self._position:
                stack.pop()
                continue
            pending = (
                []
                if n.is_literal()
                else [
                    c
                    for pair in n.elements()
                    for c in pair
                    if not _constant(c) and c.id not in self._position
                ]
            )
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            self._position[n.id] = len(self.ids)
            self.ids.append(n.id)
            if n.is_literal():
                self.literal.append(n.literal)
                self.elements.append([])
                continue
            vt = n.vtree()
            left, right = self._vars(vt.left()), self._vars(vt.right())
            self.literal.append(0)
            self.elements.append(
                [
                    (self._index(p), self._index(s), self._child(p, left), self._child(s, right))
                    for p, s in n.elements()
                ]
            )

    def _index(self, n: SddNode) -> int:
        """A node's position in the order; -1 for true, -2 for false."""
        return -1 if n.is_true() else -2 if n.is_false() else self._position[n.id]

    def values(self, weights: Weights | None = None) -> list[int]:
        """Per node of the order, its weighted models over the variables of its own vtree."""
        weights = weights or {}
        factor = [self._factor(side, inner, weights) for side, inner in self.gaps]
        whole = [self._factor(side, frozenset(), weights) for side, _ in self.gaps]
        out: list[int] = []
        for literal, elements in zip(self.literal, self.elements):
            if literal:
                pair = weights.get(abs(literal), (1, 1))
                out.append(pair[0] if literal > 0 else pair[1])
                continue
            total = 0
            for p, s, gp, gs in elements:
                if p == -2 or s == -2:
                    continue
                left = whole[gp] if p == -1 else out[p] * factor[gp]
                total += left * (whole[gs] if s == -1 else out[s] * factor[gs])
            out.append(total)
        return out

    def count(self, weights: Weights | None = None) -> int:
        """Weighted models of the node over all variables of its manager."""
        if self.root == -2:
            return 0
        weights = weights or {}
        if self.root == -1:
            return self._factor(self.root_vars, frozenset(), weights)
        return self.values(weights)[self.root] * self._factor(*self.gaps[self.top], weights)

    @staticmethod
    def _factor(side: frozenset[int], inner: frozenset[int], weights: Weights) -> int:
        """Weighted models of the variables of `side` outside `inner`, each free."""
        weighted = [x for x in weights if x in side and x not in inner]
        product = 1 << (len(side) - len(inner) - len(weighted))
        for x in weighted:
            product *= sum(weights[x])
        return product


def model_count(manager: SddManager, node: SddNode) -> int:
    """Models of `node` over all variables of `manager`, as an exact Python int."""
    return Circuit(manager, node).count()


def _constant(n: SddNode) -> bool:
    return bool(n.is_true() or n.is_false())


def scaled(n: SddNode, width: int, memo: dict[int, int]) -> int:
    """Models of `n` over `width` variables that include those of n's vtree (`memo`: Circuit.values
    by node id)."""
    if n.is_false():
        return 0
    if n.is_true():
        return 1 << width
    return memo[n.id] << int(width - n.vtree().var_count())


def clauses_node(alg: SddAlgebra, clauses: Iterable[Iterable[SddNode]]) -> SddNode:
    """The SDD of a conjunction of clauses whose literals are SDD nodes. Each clause's nodes and
    the conjunction before it are let go once conjoined: with every partial conjunction held,
    automatic minimisation worked on all of them (a KANDLogic config in the objects mode, 261
    clauses over 71 variables: 64 s against 1.6 s)."""
    since = alg.held
    root = alg.true
    for clause in clauses:
        root = root & alg.or_(clause)
        alg.keep_only(since, root)
        if root.is_false():
            break
    return root


def literals(manager: SddManager, clause: Iterable[int]) -> list[SddNode]:
    """The SDD literals of an integer clause."""
    return [manager.literal(lit) for lit in clause]
