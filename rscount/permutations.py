"""Decomposition of the disentangled count over the concept permutation pi.

count = sum over pi of N(pi), N(pi) the number of value maps f that work with pi.
- Symmetries keep N. Swapping two predicted concepts that the knowledge treats alike (checked by
  SAT) turns every valid f for pi into one for the swapped pi; swapping two ground-truth concepts
  that the support treats alike (it maps the support onto itself with the same labels) does too,
  with f swapped alike; either swap must leave every supervised vector as it is. So N is constant
  on the double classes of pi under both: one pi per class is counted, weighted by the class size
  (exhaustive XOR: one pi in all). See docs/performance.md.
- pi is built concept by concept, and a SAT solver on the task's CNF, with the partial pi as
  assumptions, prunes every branch that no optimal map extends.
- With pi fixed, a predicted concept is the value map of one ground-truth concept, so the
  constraints on f need no multiplexer: `value_map_constraints` states them over any gate algebra
  (SDD nodes for exact counting, CNF for ApproxMC).
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pysat.solvers import Solver

from .analysis import (
    concept_swap,
    interchangeable_blocks,
    interchangeable_families,
    object_blocks,
    support_blocks,
)
from .backends import CountOptions
from .circuit import GateAlgebra, compile_expr
from .encoding import Encoding, encode, example_inputs
from .errors import RscountError
from .expr import free_names
from .support import Support
from .task import Task


class TooManyClasses(RscountError):
    """More permutation classes survive pruning than the caller's limit."""


def classes(
    inputs: list[list[int]],
    outputs: list[list[int]],
    viable: Callable[[list[tuple[int, int]]], bool],
    families: Sequence[Sequence[int]] = (),
) -> Iterator[tuple[tuple[int, ...], int]]:
    """One pi per double class H_out pi H_in, with the class size: (pi, size). H_in permutes
    ground-truth concepts within `inputs` blocks, H_out predicted concepts within `outputs` blocks;
    a class is fixed by how many concepts of each input block go to each output block. Concepts are
    placed block by block (a prefix that is not `viable` is not extended).

    `families` (only with singleton input blocks, H_in trivial) are sets of output block numbers
    whose blocks are interchangeable as wholes (same size; exchanging two, element by element in
    block order, is a symmetry too): H_out then also permutes them, and a class is fixed by which
    concepts share a block. A block of a family is only opened when every earlier block of its
    family is in use, which picks one pi per class; H_out acts freely, so every class has |H_out|
    members."""
    if families and any(len(block) > 1 for block in inputs):
        raise ValueError("families of output blocks need singleton input blocks")
    earlier = {b: [c for c in family if c < b] for family in families for b in family}
    family_factor = math.prod(math.factorial(len(family)) for family in families)
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
            yield tuple(pi), family_factor * fixed // math.prod(math.factorial(m) for m in table.values())
            return
        i = order[n]
        same_block = n > 0 and block_in[order[n - 1]] == block_in[i]
        for b in range(chosen[-1] if same_block else 0, len(outputs)):
            if used[b] == len(outputs[b]) or (used[b] == 0 and any(used[c] == 0 for c in earlier.get(b, ()))):
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


def conjoin_order(rows: tuple[tuple, ...]) -> list[tuple]:
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


# Prefixes of pi are pruned on the CNF of at most this many support rows (every supervised row
# first, then rows evenly spread over the support): a prefix no optimal map of those rows extends
# has no optimal map at all, so the pruning stays sound; a complete pi is then checked on the
# whole CNF, so exactly the classes with an optimal map survive. Measured (2 cores): V-LoL Complex,
# 4 cars, 1000 rows: plan 39.5 s on the whole CNF for every check, 3.9 s with 64-row prefixes.
PRUNE_ROWS = 64


def pruning_task(task: Task, limit: int = PRUNE_ROWS) -> Task:
    """`task` with its support cut to at most `limit` rows: the supervised rows first, then rows
    evenly spread over the support (itself when it has at most `limit` rows)."""
    rows = task.support.rows
    if len(rows) <= limit:
        return task
    supervised = [r for r in rows if r in task.support.supervised][:limit]
    others = [r for r in rows if r not in task.support.supervised]
    room = limit - len(supervised)
    spread = [others[n * len(others) // room] for n in range(room)] if room and others else []
    support = Support(task.support.domains, supervised + spread, supervised)
    return dataclasses.replace(task, support=support)


class Viability:
    """SAT checks of partial maps given as assumptions (a function of an encoding): a prefix on
    the CNF of pruning_task(task) (a necessary condition), a complete map on the whole CNF too."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.solver = Solver(name="glucose4", bootstrap_with=encoding.counting_view[0])
        small = pruning_task(encoding.task)
        if small is encoding.task:
            self.small_encoding, self.small_solver = encoding, self.solver
        else:
            self.small_encoding = encode(small, objects=encoding.mode == "objects")
            self.small_solver = Solver(name="glucose4", bootstrap_with=self.small_encoding.counting_view[0])

    def __call__(self, assumptions: Callable[[Encoding], list[int]], complete: bool) -> bool:
        """Whether some optimal map extends the partial map (for a complete map: exactly)."""
        if not self.small_solver.solve(assumptions=assumptions(self.small_encoding)):
            return False
        if not complete or self.small_solver is self.solver:
            return True
        return self.solver.solve(assumptions=assumptions(self.encoding))

    def close(self) -> None:
        """Free the solvers."""
        self.solver.delete()
        if self.small_solver is not self.solver:
            self.small_solver.delete()


def plan(
    encoding: Encoding, options: CountOptions, max_classes: int | None = None
) -> tuple[list[tuple[tuple[int, ...], int]], dict[str, list[list[int]]]]:
    """The permutation classes (pi, class size) that some optimal map extends, and the symmetry
    blocks used; TooManyClasses once more than `max_classes` survive the pruning. In the objects
    mode pi ranges over the products of an attribute and an object permutation."""
    if encoding.mode == "objects":
        return _object_plan(encoding, options, max_classes)
    if encoding.mode != "disentangled":
        raise RscountError("decomposition by permutation applies to the disentangled and objects modes")
    task = encoding.task
    k = len(task.concepts)
    outputs = interchangeable_blocks(task)
    inputs = support_blocks(task, outputs)
    families = interchangeable_families(task, outputs) if all(len(b) == 1 for b in inputs) else []
    found = []
    check = Viability(encoding)
    try:

        def viable(placed: list[tuple[int, int]]) -> bool:
            return check(lambda enc: [enc.p_vars[i][j] for i, j in placed], len(placed) == k)

        for item in classes(inputs, outputs, viable, families):
            found.append(item)
            if max_classes is not None and len(found) > max_classes:
                raise TooManyClasses(f"more than {max_classes} permutation classes survive pruning")
            if options.progress:
                options.progress.update(f"{len(found)} permutation classes found")
    finally:
        check.close()
    return found, {"support": inputs, "knowledge": outputs, "knowledge families": families}


def _object_plan(
    encoding: Encoding, options: CountOptions, max_classes: int | None
) -> tuple[list[tuple[tuple[int, ...], int]], dict[str, list[list[int]]]]:
    """One (attribute map V, object map R) per double class of each under the task's attribute and
    object symmetries (analysis.object_blocks), with the product of the class sizes; V then R are
    built one image at a time with SAT pruning. Each pair gives pi(object o, attribute a) =
    (R(o), V(a)) (concepts are object-major). The symmetry groups are products of a group on
    objects and one on attributes, so a double class of (R, V) is a pair of double classes."""
    n, m = len(encoding.object_maps[0]), len(encoding.object_maps[1])
    blocks = object_blocks(encoding.task)
    for what in ("object", "attribute"):  # kept as used, for symmetry_groups
        families = f"knowledge {what} families"
        blocks[families] = _usable(blocks[f"support {what}s"], blocks[families])
    found: list[tuple[tuple[int, ...], int]] = []
    check = Viability(encoding)

    def attribute_literals(enc: Encoding, placed: list[tuple[int, int]]) -> list[int]:
        return [enc.object_maps[1][a][b] for a, b in placed]

    def object_literals(enc: Encoding, placed: list[tuple[int, int]]) -> list[int]:
        return [enc.object_maps[0][o][p] for o, p in placed]

    try:
        attribute_classes = classes(
            blocks["support attributes"],
            blocks["knowledge attributes"],
            lambda placed: check(lambda enc: attribute_literals(enc, placed), False),
            blocks["knowledge attribute families"],
        )
        for attrs, attr_size in attribute_classes:
            fixed = list(enumerate(attrs))

            def viable(placed: list[tuple[int, int]], fixed: list[tuple[int, int]] = fixed) -> bool:
                def literals(enc: Encoding) -> list[int]:
                    return attribute_literals(enc, fixed) + object_literals(enc, placed)

                return check(literals, len(placed) == n)

            for objs, obj_size in classes(
                blocks["support objects"],
                blocks["knowledge objects"],
                viable,
                blocks["knowledge object families"],
            ):
                pi = tuple(objs[i // m] * m + attrs[i % m] for i in range(m * n))
                found.append((pi, attr_size * obj_size))
                if max_classes is not None and len(found) > max_classes:
                    raise TooManyClasses(
                        f"more than {max_classes} object and attribute map classes survive pruning"
                    )
                if options.progress:
                    options.progress.update(f"{len(found)} object and attribute map classes found")
    finally:
        check.close()
    return found, blocks


@dataclasses.dataclass(frozen=True)
class BlockGroup:
    """The permutations of n items (perm[i] = image of i) that permute each block and exchange the
    blocks of each family (block numbers) as wholes, element by element in block order."""

    n: int
    blocks: list[list[int]]
    families: list[list[int]]

    def generators(self) -> list[tuple[int, ...]]:
        """Swaps of neighbours within each block, and exchanges of neighbouring blocks of a family."""
        pairs = [[(b[t], b[t + 1])] for b in self.blocks for t in range(len(b) - 1)]
        for family in self.families:
            for b, c in zip(family, family[1:]):
                pairs.append(list(zip(self.blocks[b], self.blocks[c])))
        return [tuple(concept_swap(self.n, swaps)) for swaps in pairs]

    def random(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random element: a random exchange of family blocks after random permutations
        within blocks (every element is one such pair, exactly once)."""
        within = list(range(self.n))
        for block in self.blocks:
            for i, j in zip(block, rng.sample(block, len(block))):
                within[i] = j
        exchange = list(range(self.n))
        for family in self.families:
            for b, c in zip(family, rng.sample(family, len(family))):
                for i, j in zip(self.blocks[b], self.blocks[c]):
                    exchange[i] = j
        return tuple(exchange[within[i]] for i in range(self.n))


@dataclasses.dataclass(frozen=True)
class ConceptGroup:
    """Concept permutations made of an object permutation and an attribute permutation (concepts
    object-major); the disentangled mode is one object whose attributes are the concepts."""

    objects: BlockGroup
    attributes: BlockGroup

    def lift(self, objects: Sequence[int], attributes: Sequence[int]) -> tuple[int, ...]:
        """The concept permutation (o, a) -> (objects[o], attributes[a])."""
        m = self.attributes.n
        return tuple(objects[o] * m + attributes[a] for o in range(self.objects.n) for a in range(m))

    def generators(self) -> list[tuple[int, ...]]:
        """Generators of the group, as concept permutations."""
        same_objects, same_attributes = range(self.objects.n), range(self.attributes.n)
        return [self.lift(g, same_attributes) for g in self.objects.generators()] + [
            self.lift(same_objects, g) for g in self.attributes.generators()
        ]

    def random(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random element, as a concept permutation."""
        return self.lift(self.objects.random(rng), self.attributes.random(rng))


def symmetry_groups(
    task: Task, mode: str, blocks: dict[str, list[list[int]]]
) -> tuple[ConceptGroup, ConceptGroup]:
    """(H_in, H_out) as `plan` used them (its `blocks`): the class of pi is {h_out pi h_in}."""
    if mode == "objects":
        n, m = task.objects.count, len(task.objects.attributes)
        h_in = ConceptGroup(
            BlockGroup(n, blocks["support objects"], []), BlockGroup(m, blocks["support attributes"], [])
        )
        h_out = ConceptGroup(
            BlockGroup(n, blocks["knowledge objects"], blocks["knowledge object families"]),
            BlockGroup(m, blocks["knowledge attributes"], blocks["knowledge attribute families"]),
        )
        return h_in, h_out
    k = len(task.concepts)
    one = BlockGroup(1, [[0]], [])
    return (
        ConceptGroup(one, BlockGroup(k, blocks["support"], [])),
        ConceptGroup(one, BlockGroup(k, blocks["knowledge"], blocks["knowledge families"])),
    )


def _usable(inputs: list[list[int]], families: list[list[int]]) -> list[list[int]]:
    """The families `classes` may use: all of them when the input blocks are singletons, else none."""
    return families if all(len(block) == 1 for block in inputs) else []


class ValueMapCoding:
    """Variables 1..n coding the value maps of the values the support shows: f_i(v) in binary,
    `bits` variables per seen value, instead of one-hot, which needs no exactly-one constraints
    (MNAdd-EvenOdd by SDD: 5.6 s one-hot, 0.24 s binary). Codes beyond |D_pi(i)| are excluded."""

    def __init__(self, task: Task, shared: bool = False) -> None:
        self.task = task
        self.sizes = [len(c.values) for c in task.concepts]
        self.bits = max(1, (max(self.sizes) - 1).bit_length())
        # The value map of concept i is the one of owner[i]: itself, or (objects mode, concepts
        # object-major) the concept of the first object with the same attribute.
        m = len(task.objects.attributes) if shared and task.objects else len(self.sizes)
        self.owner = [i % m for i in range(len(self.sizes))]
        rows = task.support.rows
        self.seen: list[set[int]] = [set() for _ in range(m)]
        for i, c in enumerate(task.concepts):
            self.seen[self.owner[i]].update(c.index[r[i]] for r in rows)
        self.var: dict[tuple[int, int], list[int]] = {}
        for o, values in enumerate(self.seen):
            for v in sorted(values):
                start = len(self.var) * self.bits + 1
                self.var[o, v] = list(range(start, start + self.bits))
        self.num_vars = len(self.var) * self.bits
        self.order = conjoin_order(rows)

    def code(self, alg: GateAlgebra, literal: Callable[[int], Any], i: int, v: int, u: int) -> Any:
        """Gate of f_i(value number v) = value number u of the concept i feeds."""
        return alg.and_(literal(x if u >> b & 1 else -x) for b, x in enumerate(self.var[self.owner[i], v]))

    def unseen_factor(self, pi: tuple[int, ...]) -> int:
        """Choices of f for the values no support row shows: each maps anywhere in D_pi(i)."""
        return math.prod(self.sizes[pi[o]] ** (self.sizes[o] - len(seen)) for o, seen in enumerate(self.seen))

    def label_groups(self) -> list[tuple[list[str], list[int]]]:
        """(labels, predicted concepts they read): labels joined when they read a common concept;
        every concept no label reads is a group of its own without labels. With value maps per
        concept (not shared), the constraints of different groups bind different value maps (those
        of the concepts that feed the group's concepts), so N(pi) is the product of the groups'."""
        task = self.task
        index = {c.name: j for j, c in enumerate(task.concepts)}
        groups: list[tuple[list[str], set[int]]] = []
        for label, expr in task.labels.items():
            read = {index[name] for name in free_names(expr)}
            joined = [g for g in groups if g[1] & read]
            labels = [name for g in joined for name in g[0]] + [label]
            concepts = read.union(*(g[1] for g in joined))
            groups = [g for g in groups if g not in joined] + [(labels, concepts)]
        read = set().union(*(g[1] for g in groups))
        unread = [([], {j}) for j in range(len(task.concepts)) if j not in read]
        return [(labels, sorted(concepts)) for labels, concepts in groups + unread]

    def constraints(
        self,
        alg: GateAlgebra,
        code: Callable[[int, int, int], Any],
        pi: tuple[int, ...],
        group: tuple[list[str], list[int]] | None = None,
    ) -> Iterator[Any]:
        """Gates whose conjunction holds exactly for the value maps valid with pi (`code(i, v, u)`
        is the gate of f_i(v) = u): codes inside the domains, then one gate per supervised row
        and per label of each unsupervised row, in `order`. With a `group` of label_groups, only
        the gates on the value maps of the concepts that feed the group's concepts, and only its
        labels (value maps not shared)."""
        task, k = self.task, len(pi)
        where = [0] * k
        for i, j in enumerate(pi):
            where[j] = i
        labels, targets = group if group is not None else (list(task.labels), list(range(k)))
        sources = sorted(where[j] for j in targets)
        owners = {self.owner[i] for i in sources}
        for o, v in self.var:
            if o in owners and self.sizes[pi[o]] < 1 << self.bits:
                yield alg.or_(code(o, v, u) for u in range(self.sizes[pi[o]]))
        exprs = [(n, e, list(task.labels).index(n)) for n, e in task.labels.items() if n in labels]
        concepts = [task.concepts[j] for j in targets]
        for row in self.order:
            idx = [c.index[value] for c, value in zip(task.concepts, row)]
            if row in task.support.supervised:
                target = [task.concepts[pi[i]].index[row[pi[i]]] for i in range(k)]
                yield alg.and_(code(i, idx[i], target[i]) for i in sources)
                continue
            if not exprs:
                continue

            def select(t: int, u: int) -> Any:
                j = targets[t]
                return code(where[j], idx[where[j]], u)  # noqa: B023 (used at once)

            inputs = example_inputs(alg, concepts, select)
            values = task.label_of(row)
            for label, expr, n in exprs:
                yield compile_expr(alg, expr, inputs, f"labels.{label}").get(values[n], alg.false)

    def group_vars(self, pi: tuple[int, ...], group: tuple[list[str], list[int]]) -> int:
        """How many code variables the constraints of `group` can mention (value maps not shared)."""
        where = {j: i for i, j in enumerate(pi)}
        return sum(len(self.seen[where[j]]) for j in group[1]) * self.bits
