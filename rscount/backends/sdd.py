"""Exact counting by SDD compilation (PySDD), with Python big-integer model counts.

Each example's clauses are conjoined into their own SDD and its auxiliary variables (functionally
determined by the map variables) are quantified out before it joins the running conjunction, so
the running SDD only ever mentions map variables. Counts are read off the SDD with Python integers
because PySDD's own counter is a C `unsigned long long` that wraps past 2^64.
"""

from __future__ import annotations

import time
from array import array

from pysdd.sdd import SddManager, SddNode, Vtree

from ..encoding import Encoding
from . import CountOptions, CountResult


def model_count(manager: SddManager, node: SddNode) -> int:
    """Models of `node` over all variables of `manager`, as an exact Python int."""
    total_vars = manager.vtree().var_count()
    if node.is_false():
        return 0
    if node.is_true():
        return 1 << total_vars
    memo: dict[int, int] = {}
    stack = [node]
    while stack:
        n = stack[-1]
        if n.id in memo:
            stack.pop()
            continue
        if n.is_literal():
            memo[n.id] = 1
            stack.pop()
            continue
        pending = [c for pair in n.elements() for c in pair if c.id not in memo and not _constant(c)]
        if pending:
            stack.extend(pending)
            continue
        vt = n.vtree()
        left, right = vt.left().var_count(), vt.right().var_count()
        memo[n.id] = sum(_scaled(p, left, memo) * _scaled(s, right, memo) for p, s in n.elements())
        stack.pop()
    return _scaled(node, total_vars, memo)


def _constant(n: SddNode) -> bool:
    return n.is_true() or n.is_false()


def _scaled(n: SddNode, width: int, memo: dict[int, int]) -> int:
    """Models of `n` over `width` variables that include the variables of n's vtree."""
    if n.is_false():
        return 0
    if n.is_true():
        return 1 << width
    return memo[n.id] << (width - n.vtree().var_count())


class SddBackend:
    """Compile to an SDD by apply operations, example by example, then count exactly."""

    name = "sdd"
    exact = True
    description = "SDD compilation by apply with per-example quantification (PySDD), exact"

    def count(self, encoding: Encoding, options: CountOptions) -> CountResult:
        """Exact projected count: build the SDD of all constraints over the map variables."""
        start = time.perf_counter()
        cnf = encoding.cnf
        n = max(cnf.num_vars, 1)
        vtree = Vtree(var_count=n, var_order=list(range(1, n + 1)), vtree_type="balanced")
        manager = SddManager.from_vtree(vtree)
        manager.auto_gc_and_minimize_on()
        in_example = set()
        for lo, hi, _, _ in encoding.examples:
            in_example.update(range(lo, hi))
        root = _conjoin_clauses(manager, (c for i, c in enumerate(cnf.clauses) if i not in in_example))
        for number, (lo, hi, var_lo, var_hi) in enumerate(encoding.examples, start=1):
            part = _conjoin_clauses(manager, cnf.clauses[lo:hi])
            if var_hi > var_lo:
                exists = array("i", [0]) * (n + 1)
                exists[var_lo:var_hi] = array("i", [1]) * (var_hi - var_lo)
                quantified = manager.exists_multiple(exists, part)
                quantified.ref()
                part.deref()
                part = quantified
            new_root = root.conjoin(part)
            new_root.ref()
            root.deref()
            part.deref()
            root = new_root
            if options.progress:
                options.progress.update(
                    f"sdd: example {number}/{len(encoding.examples)}, {root.size()} nodes"
                )
        quantified_vars = n - len(encoding.projection)
        total = model_count(manager, root)
        count = total >> quantified_vars
        return CountResult(
            count, True, self.name, time.perf_counter() - start, details={"sdd_size": root.size()}
        )


BACKEND = SddBackend()


def _conjoin_clauses(manager: SddManager, clauses) -> SddNode:
    """The referenced SDD of a conjunction of clauses."""
    root = manager.true()
    root.ref()
    for clause in clauses:
        c = manager.false()
        c.ref()
        for lit in clause:
            wider = c.disjoin(manager.literal(lit))
            wider.ref()
            c.deref()
            c = wider
        new = root.conjoin(c)
        new.ref()
        root.deref()
        c.deref()
        root = new
    return root
