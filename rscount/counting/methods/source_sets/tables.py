"""Tables of source sets and their join: per label group, the number of its readings whose
non-constant ones read exactly a set N of sources (modulo primes); the count sums, over disjoint
sets of the groups, the products of their numbers times the ways the sources left over feed the
constant and the free concepts (rscount.counting.methods.source_sets.residual_tables)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ....progress import Progress
from .modular import recombine
from .readings import Readings

CHUNK = 1 << 22  # entries (or matrix cells) handled at once
PIECE = 1 << 23  # float64 sums of this many counts below 2^30 stay exact


@dataclass
class SourceTable:
    """Source sets (bit masks over the sources) and the count of each modulo every prime."""

    masks: NDArray[np.int64]
    counts: NDArray[np.int64]  # (sets, primes)

    @classmethod
    def unit(cls, primes: NDArray[np.int64]) -> SourceTable:
        """The table of the empty set counted once."""
        return cls(np.zeros(1, dtype=np.int64), np.ones((1, len(primes)), dtype=np.int64))


def aggregate(
    keys: list[NDArray[np.int64]], counts: NDArray[np.int64], primes: NDArray[np.int64]
) -> tuple[list[NDArray[np.int64]], NDArray[np.int64]]:
    """The distinct key tuples (sorted as np.lexsort sorts: by the last key first) and the summed
    counts of each."""
    if not len(counts):
        return [k[:0] for k in keys], counts
    order = np.lexsort(keys)
    ordered = [k[order] for k in keys]
    new = np.zeros(len(order), dtype=bool)
    new[0] = True
    for k in ordered:
        new[1:] |= k[1:] != k[:-1]
    starts = np.flatnonzero(new)
    return [k[starts] for k in ordered], np.add.reduceat(counts[order], starts, axis=0) % primes


def joined_count(
    readings: Readings, tables: list[SourceTable], free: int, progress: Progress | None = None
) -> int:
    """The count: the tables joined over disjoint source sets, smallest first, each combination
    weighted by the ways the other sources feed the constant concepts and the `free` ones."""
    primes = readings.primes
    tables = sorted(tables, key=lambda t: len(t.masks)) or [SourceTable.unit(primes)]
    joined = SourceTable.unit(primes)
    for table in tables[:-1]:
        if progress:
            progress.update(f"source sets: joining {len(joined.masks)} x {len(table.masks)} sets")
        joined = _product(joined, table, primes)
    return readings.unseen * recombine(_weighted(readings, joined, tables[-1], free), primes)


def _product(a: SourceTable, b: SourceTable, primes: NDArray[np.int64]) -> SourceTable:
    """The table of disjoint unions: (x | y) -> sum of a(x) b(y) over disjoint x, y."""
    small, large = (a, b) if len(a.masks) <= len(b.masks) else (b, a)
    parts_m = [np.zeros(0, dtype=np.int64)]
    parts_c = [np.zeros((0, len(primes)), dtype=np.int64)]
    held = 0
    for x, cx in zip(small.masks.tolist(), small.counts):
        ok = (large.masks & x) == 0
        parts_m.append(large.masks[ok] | x)
        parts_c.append(large.counts[ok] * cx % primes)
        held += int(ok.sum())
        if held > CHUNK:
            (masks,), counts = aggregate([np.concatenate(parts_m)], np.concatenate(parts_c), primes)
            parts_m, parts_c, held = [masks], [counts], len(masks)
    (masks,), counts = aggregate([np.concatenate(parts_m)], np.concatenate(parts_c), primes)
    return SourceTable(masks, counts)


def _weighted(readings: Readings, a: SourceTable, b: SourceTable, free: int) -> NDArray[np.int64]:
    """sum over disjoint (x in a, y in b) of a(x) b(y) w(x | y) modulo each prime, w the ways the
    sources outside x | y feed the constant concepts and the `free` concepts. w depends only on how
    many sources of each kind (number of values shown) x | y holds, so b is split by kind and each
    part summed by a matrix product (disjointness times counts)."""
    primes = readings.primes
    kinds = sorted({len(s) for s in readings.seen})
    bits = [sum(1 << s for s, shown in enumerate(readings.seen) if len(shown) == n) for n in kinds]
    totals = [bin(m).count("1") for m in bits]
    strides = [math.prod(t + 1 for t in totals[:i]) for i in range(len(totals))]
    weights = np.zeros((math.prod(t + 1 for t in totals), len(primes)), dtype=np.int64)
    for used in itertools.product(*(range(t + 1) for t in totals)):
        w = _ways(readings.d, [t - u for t, u in zip(totals, used)], kinds, free)
        weights[sum(u * s for u, s in zip(used, strides))] = [w % p for p in primes.tolist()]

    def kind_code(masks: NDArray[np.int64]) -> NDArray[np.int64]:
        code = np.zeros(len(masks), dtype=np.int64)
        for m, stride in zip(bits, strides):
            code += np.bitwise_count(masks & m).astype(np.int64) * stride
        return code

    total = np.zeros(len(primes), dtype=np.int64)
    codes_a, codes_b = kind_code(a.masks), kind_code(b.masks)
    for code in np.unique(codes_b).tolist():
        pick = np.flatnonzero(codes_b == code)
        for piece in range(0, len(pick), PIECE):
            masks_b = b.masks[pick[piece : piece + PIECE]]
            counts_b = b.counts[pick[piece : piece + PIECE]].astype(np.float64)
            step = max(1, CHUNK // len(masks_b))
            for lo in range(0, len(a.masks), step):
                disjoint = (a.masks[lo : lo + step, None] & masks_b[None, :]) == 0
                sums = (disjoint.astype(np.float64) @ counts_b).astype(np.int64) % primes
                # x | y has the kinds of x plus those of y when some y is disjoint from x; when
                # none is, sums is 0 and the weight (clipped into the table) is unused.
                w = weights[np.minimum(codes_a[lo : lo + step] + code, len(weights) - 1)]
                part = (a.counts[lo : lo + step] * sums % primes) * w % primes
                total = (total + part.sum(axis=0)) % primes
    return total


def _ways(d: int, rest: list[int], kinds: list[int], free: int) -> int:
    """Ways the remaining sources (rest[i] of those showing kinds[i] values) feed the `free`
    concepts (any map: d^shown each) and, one to one, the constant concepts."""
    left = sum(rest)
    if left < free:
        return 0
    chosen = [1]  # chosen[i]: sum over sets of i remaining sources of the product of d^shown
    for n, r in zip(kinds, rest):
        for _ in range(r):
            chosen = [x + (chosen[i - 1] * d**n if i else 0) for i, x in enumerate([*chosen, 0])]
    return math.factorial(free) * chosen[free] * math.factorial(left - free)
