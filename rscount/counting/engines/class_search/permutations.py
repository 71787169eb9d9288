"""The double classes H_out pi H_in of concept permutations under two symmetry groups given by blocks
(and families of blocks exchanged as wholes): one representative per class with the class size,
built concept by concept so that a caller can prune prefixes no optimal map extends."""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

from ....task.model import Mode, Task

REPORT_EVERY = 0.25  # seconds between a walk's reports (at least)


def permutations_summed(task: Task, mode: Mode) -> int:
    """How many concept permutations a count in `mode` sums over: k!, or n! m! in the objects mode
    (n objects of m attributes), the identity's side 1 with an extractor in place; the class sizes
    of every class add up to it."""
    k = len(task.concepts)
    if mode != Mode.OBJECTS:
        return 1 if task.in_place else math.factorial(k)
    n = task.object_spec().count
    return (1 if task.in_place else math.factorial(n)) * math.factorial(k // n)


class Walk:
    """The share of the tree of prefixes walked so far, each prefix's share split evenly among the
    blocks it may place its next concept in, handed to `report` at most every REPORT_EVERY seconds: a
    method that says how much of its work is done can be favoured in a race and says so when
    stopped. `leaf` is the share of the last class yielded (a walk nested under it scales by it)."""

    def __init__(self, report: Callable[[float], None] | None = None) -> None:
        self.share = 0.0
        self.leaf = 0.0
        self.report = report
        self._last = time.monotonic()

    def finished(self, share: float) -> None:
        """Add a subtree's share once it is walked (or pruned)."""
        self.share += share
        now = time.monotonic()
        if self.report is not None and now - self._last >= REPORT_EVERY:
            self._last = now
            self.report(self.share)

    def nested(self) -> Walk:
        """A walk of a tree hung under the last class yielded: its shares are that class's share
        split further (a share summed past 1 by rounding is taken as 1, so that the outer walk's
        next report, base + leaf, is never below the last nested one)."""
        base, leaf, report = self.share, self.leaf, self.report
        return Walk(None if report is None else lambda share: report(base + leaf * min(share, 1.0)))


def classes(
    inputs: list[list[int]],
    outputs: list[list[int]],
    viable: Callable[[list[tuple[int, int]]], bool],
    families: Sequence[Sequence[int]] = (),
    walk: Walk | None = None,
    in_place: bool = False,
) -> Iterator[tuple[tuple[int, ...], int]]:
    """One pi per double class H_out pi H_in, with the class size: (pi, size); with `fixed` (an
    extractor in place: singleton blocks), the identity alone if it is viable. H_in permutes
    ground-truth concepts within `inputs` blocks, H_out predicted concepts within `outputs` blocks;
    a class is fixed by how many concepts of each input block go to each output block. Concepts are
    placed block by block (a prefix that is not `viable` is not extended).

    `families` (only with singleton input blocks, H_in trivial) are sets of output block numbers
    whose blocks are interchangeable as wholes (same size; exchanging two, element by element in
    block order, is a symmetry too): H_out then also permutes them, and a class is fixed by which
    concepts share a block. A block of a family is only opened when every earlier block of its
    family is in use, which picks one pi per class; H_out acts freely, so every class has |H_out|
    members. `walk`, if given, is told the share of the prefixes walked as the classes come."""
    if families and any(len(block) > 1 for block in inputs):
        raise ValueError("families of output blocks need singleton input blocks")
    if in_place:
        yield from _identity(len(inputs), viable, walk)
        return
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

    def go(n: int, share: float) -> Iterator[tuple[tuple[int, ...], int]]:
        if n == len(order):
            if walk is not None:
                walk.leaf = share
            yield tuple(pi), family_factor * fixed // math.prod(math.factorial(m) for m in table.values())
            if walk is not None:
                walk.finished(share)
            return
        i = order[n]
        same_block = n > 0 and block_in[order[n - 1]] == block_in[i]
        blocks = [
            b
            for b in range(chosen[-1] if same_block else 0, len(outputs))
            if used[b] < len(outputs[b]) and (used[b] or all(used[c] for c in earlier.get(b, ())))
        ]
        if not blocks and walk is not None:  # a dead end: the block's later concepts have no room left
            walk.finished(share)
        for b in blocks:
            pi[i] = outputs[b][used[b]]
            used[b] += 1
            table[block_in[i], b] += 1
            chosen.append(b)
            placed.append((i, pi[i]))
            if viable(placed):
                yield from go(n + 1, share / len(blocks))
            elif walk is not None:
                walk.finished(share / len(blocks))
            placed.pop()
            chosen.pop()
            table[block_in[i], b] -= 1
            used[b] -= 1

    yield from go(0, 1.0)


def _identity(
    n: int, viable: Callable[[list[tuple[int, int]]], bool], walk: Walk | None
) -> Iterator[tuple[tuple[int, ...], int]]:
    """The identity of n items as the one class of size 1, if each of its prefixes is viable."""
    placed: list[tuple[int, int]] = []
    for i in range(n):
        placed.append((i, i))
        if not viable(placed):
            break
    else:
        if walk is not None:
            walk.leaf = 1.0
        yield tuple(range(n)), 1
    if walk is not None:
        walk.finished(1.0)
