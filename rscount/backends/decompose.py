"""Exact counting by decomposition over the concept permutation pi.

count = sum over pi of N(pi), N(pi) the number of value maps f that work with pi. Two observations
make this fast:
- Symmetries keep N. Swapping two predicted concepts that the knowledge treats alike (checked by
  SAT) turns every valid f for pi into one for the swapped pi; swapping two ground-truth concepts
  that the support treats alike (it maps the support onto itself with the same labels) does too,
  with f swapped alike; either swap must leave every supervised vector as it is. So N is constant
  on the double classes of pi under both: one pi per class is counted, weighted by the class size
  (exhaustive XOR: one pi in all). Written out in docs/performance.md.
- pi is built concept by concept, and a SAT solver on the task's CNF, with the partial pi as
  assumptions, prunes every branch that no optimal map extends.
For each remaining pi, the value maps are counted by an SDD over the F variables alone: with pi
fixed, a predicted concept is a single F literal, so there are no multiplexers at all.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterator

from pysat.solvers import Solver
from pysdd.sdd import SddManager, SddNode, Vtree

from ..analysis import interchangeable_blocks, support_blocks
from ..circuit import compile_expr
from ..encoding import Encoding, example_inputs
from ..errors import RscountError
from . import CountOptions, CountResult
from .sdd import SddAlgebra, model_count


def _classes(
    inputs: list[list[int]], outputs: list[list[int]], viable: Callable[[list[tuple[int, int]]], bool]
) -> Iterator[tuple[tuple[int, ...], int]]:
    """One pi per double class H_out pi H_in, with the class size: (pi, size). H_in permutes
    ground-truth concepts within `inputs` blocks, H_out predicted concepts within `outputs` blocks;
    a class is fixed by how many concepts of each input block go to each output block. Concepts are
    placed block by block (a prefix that is not `viable` is not extended)."""
    order = [i for block in inputs for i in block]
    block_in = {i: a for a, block in enumerate(inputs) for i in block}
    pi = [0] * len(order)
    placed: list[tuple[int, int]] = []
    used = [0] * len(outputs)
    table: dict[tuple[int, int], int] = defaultdict(int)
    fixed = math.prod(math.factorial(len(b)) for b in inputs) * math.prod(
        math.factorial(len(b)) for b in outputs
    )
    chosen: list[int] = []

    def go(n: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if n == len(order):
            yield tuple(pi), fixed // math.prod(math.factorial(m) for m in table.values())
            return
        i = order[n]
        same_block = n > 0 and block_in[order[n - 1]] == block_in[i]
        for b in range(chosen[-1] if same_block else 0, len(outputs)):
            if used[b] == len(outputs[b]):
                continue
            pi[i] = outputs[b][used[b]]
            used[b] += 1
            table[block_in[i], b] += 1
            chosen.append(b)
            placed.append((i, pi[i]))
            if viable(placed):
                yield from go(n + 1)
            placed.pop()
            chosen.pop()
            table[block_in[i], b] -= 1
            used[b] -= 1

    yield from go(0)


def _conjoin_order(rows: tuple[tuple, ...]) -> list[tuple]:
    """Support rows in the order that brings in the fewest new (concept, value) pairs at each step,
    ties in file order (greedy; on MNAdd-EvenOdd the SDD then peaks at 10518 nodes against 722998
    in file order). A heap with an entry per score change finds each next row."""
    holders: dict[tuple[int, object], list[int]] = defaultdict(list)
    for n, row in enumerate(rows):
        for pair in enumerate(row):
            holders[pair].append(n)
    new = [len(row) for row in rows]
    heap = [(new[n], n) for n in range(len(rows))]
    done = [False] * len(rows)
    order = []
    while heap:
        score, n = heapq.heappop(heap)
        if done[n] or score != new[n]:  # taken, or a stale entry (a newer one has its score)
            continue
        done[n] = True
        order.append(rows[n])
        for pair in enumerate(rows[n]):
            for m in holders.pop(pair, ()):
                new[m] -= 1
                if not done[m]:
                    heapq.heappush(heap, (new[m], m))
    return order


class _ValueMaps:
    """One SDD manager over the value maps of the values the support shows; counts N(pi).

    f_i(v) is written in binary: ceil(log2(width)) variables per seen value, rather than one-hot,
    which needs no exactly-one constraints (measured on MNAdd-EvenOdd: 5.6 s one-hot, see
    benchmarks/). Codes beyond the size of the domain pi(i) are excluded per pi.
    """

    def __init__(self, encoding: Encoding) -> None:
        task = encoding.task
        self.task = task
        self.sizes = [len(c.values) for c in task.concepts]
        self.bits = max(1, (max(self.sizes) - 1).bit_length())
        rows = task.support.rows
        self.seen = [sorted({c.index[r[i]] for r in rows}) for i, c in enumerate(task.concepts)]
        self.var: dict[tuple[int, int], list[int]] = {}
        n = 0
        for i, values in enumerate(self.seen):
            for v in values:
                self.var[i, v] = list(range(n + 1, n + self.bits + 1))
                n += self.bits
        # Measured: automatic minimisation costs far more than it saves on these small managers
        # (MNAdd, 100 examples: 185 s with it, 0.6 s without); garbage is collected after each pi.
        self.manager = SddManager.from_vtree(
            Vtree(var_count=n, var_order=list(range(1, n + 1)), vtree_type="balanced")
        )
        self.alg = SddAlgebra(self.manager)
        self._codes: dict[tuple[int, int, int], SddNode] = {}
        self.order = _conjoin_order(task.support.rows)

    def literal(self, i: int, v: int, u: int) -> SddNode:
        """The gate of f_i(value v) = value number u of the concept i feeds (kept for the run)."""
        key = (i, v, u)
        if key not in self._codes:
            lits = [self.manager.literal(x if u >> b & 1 else -x) for b, x in enumerate(self.var[i, v])]
            gate = lits[0]
            for lit in lits[1:]:
                gate = gate & lit
            gate.ref()
            self._codes[key] = gate
        return self._codes[key]

    def count(self, pi: tuple[int, ...]) -> int:
        """N(pi) times the free choices of the values no support row shows."""
        alg, task, k = self.alg, self.task, len(self.sizes)
        where = [0] * k
        for i, j in enumerate(pi):
            where[j] = i
        root = self.manager.true()
        root.ref()

        def conjoin(node: SddNode) -> None:
            nonlocal root
            new = root & node
            new.ref()
            root.deref()
            root = new

        for i, v in self.var:
            if self.sizes[pi[i]] < 1 << self.bits:
                conjoin(alg.or_(self.literal(i, v, u) for u in range(self.sizes[pi[i]])))
        for row in self.order:
            idx = [c.index[v] for c, v in zip(task.concepts, row)]
            if row in task.support.supervised:
                target = [task.concepts[pi[i]].index[row[pi[i]]] for i in range(k)]
                conjoin(alg.and_(self.literal(i, idx[i], target[i]) for i in range(k)))
            else:

                def select(j: int, u: int) -> SddNode:
                    return self.literal(where[j], idx[where[j]], u)  # noqa: B023 (used at once)

                inputs = example_inputs(alg, task.concepts, select)
                for (label, expr), value in zip(task.labels.items(), task.label_of(row)):
                    conjoin(compile_expr(alg, expr, inputs, f"labels.{label}").get(value, alg.false))
            alg.release()
            if root.is_false():
                break
        models = model_count(self.manager, root)
        root.deref()
        self.manager.garbage_collect()
        unseen = math.prod(self.sizes[pi[i]] ** (self.sizes[i] - len(self.seen[i])) for i in range(k))
        return models * unseen


class TooManyClasses(RscountError):
    """More permutation classes survive pruning than the caller's limit."""


class DecomposeBackend:
    """Sum over permutation classes (knowledge symmetry, SAT pruning) of per-pi SDD counts."""

    name = "decompose"
    exact = True
    description = "sum over concept permutations up to symmetry, SAT-pruned, SDD per permutation"

    def count(self, encoding: Encoding, options: CountOptions, max_classes: int | None = None) -> CountResult:
        """Exact count of the disentangled encoding. With `max_classes`, raise TooManyClasses before
        counting anything if more permutation classes than that survive the pruning."""
        if encoding.mode != "disentangled":
            raise RscountError(f"the {self.name} method counts the disentangled mode only")
        start = time.perf_counter()
        task = encoding.task
        outputs = interchangeable_blocks(task)
        inputs = support_blocks(task, outputs)
        classes = []
        with Solver(name="glucose4", bootstrap_with=encoding.counting_view[0]) as solver:

            def viable(placed: list[tuple[int, int]]) -> bool:
                return solver.solve(assumptions=[encoding.p_vars[i][j] for i, j in placed])

            for found in _classes(inputs, outputs, viable):
                classes.append(found)
                if max_classes is not None and len(classes) > max_classes:
                    raise TooManyClasses(f"more than {max_classes} permutation classes survive pruning")
                if options.progress:
                    options.progress.update(f"decompose: {len(classes)} permutation classes found")
        maps = _ValueMaps(encoding)
        total = nonzero = 0
        for number, (pi, size) in enumerate(classes, start=1):
            n = maps.count(pi)
            nonzero += n > 0
            total += n * size
            if options.progress:
                options.progress.update(f"decompose: permutation class {number}/{len(classes)}, {total} maps")
        details = {
            "blocks": {"support": inputs, "knowledge": outputs},
            "classes": len(classes),
            "nonzero": nonzero,
        }
        return CountResult(total, True, self.name, time.perf_counter() - start, details=details)


BACKEND = DecomposeBackend()
