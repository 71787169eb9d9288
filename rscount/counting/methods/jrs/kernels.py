"""Joint reasoning shortcuts (shared/design/counting.md): pairs (concept map A, inference layer B)
with B(A(c)) = y(c) on the support. A = (object permutation sigma, attribute permutation V, value
maps g_v over all values of each attribute, shared by all objects); B labels every active predicted
vector. An A contributes classes^(active - distinct A(S)) when no two support rows with different
labels meet under it, else 0.

Counted without listing A (docs/closed-forms.md): sigma and V permute coordinates, so which rows
meet and how many vectors are active depend only on the kernel of each g_v (the partition of D_v it
induces); the sum runs over partitions of the values the support shows, unseen values joining a
block or forming new ones, and the choices of (sigma, V, g) with those kernels are counted by
formula (n! times a permanent of falling factorials). Concept supervision (A must fix each
supervised row) ties A to concrete values, so there A is enumerated, up to ENUMERATE_LIMIT maps."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product
from typing import Any

from ....errors import NotApplicable
from ....knowledge.labels import label_classes as classes_per_label
from ....task.model import Mode, Task
from ...budget import Unsuited
from ...result import CountResult
from ...settings import Method

ENUMERATE_LIMIT = 1_000_000  # concept maps A listed one by one when the task has concept supervision
PARTITION_LIMIT = 2_000_000  # combinations of kernels summed over


def structure(task: Task) -> tuple[int, list[str], list[tuple[Any, ...]]]:
    """(objects, attribute names, attribute domains): a task without objects is one object whose
    attributes are its concepts. An extractor in place is not counted in this mode (NotApplicable)."""
    unmapped = task.unmapped_in(Mode.JRS)
    if unmapped:
        raise NotApplicable(unmapped)
    if task.objects is not None:
        attributes = task.objects.attributes
        return task.objects.count, [a for a, _ in attributes], [v for _, v in attributes]
    return 1, list(task.names), [c.values for c in task.concepts]


def label_classes(task: Task) -> int:
    """The classes an inference layer chooses from: tuples of the labels' classes (a truth-valued
    label has 2, any other the values it takes on D)."""
    return math.prod(len(values) for values in classes_per_label(task).values())


def _partitions(items: Sequence[Any]) -> Iterator[tuple[dict[Any, int], int]]:
    """Every set partition of `items` as (item -> block number, number of blocks)."""
    if not items:
        yield {}, 0
        return
    blocks = [0] * len(items)

    def go(i: int, used: int) -> Iterator[tuple[dict[Any, int], int]]:
        if i == len(items):
            yield dict(zip(items, blocks)), used
            return
        for b in range(used + 1):
            blocks[i] = b
            yield from go(i + 1, max(used, b + 1))

    yield from go(0, 0)


def _bell(n: int) -> int:
    """Set partitions of n values (beyond 15 values, more than PARTITION_LIMIT anyway)."""
    if n > 15:
        return PARTITION_LIMIT + 1
    return sum(_stirling2(n, k) for k in range(n + 1))


@cache
def _stirling_row(n: int) -> tuple[int, ...]:
    """S(n, 0..n), built row by row (no recursion: n may be a domain of a thousand values)."""
    row = [1]
    for i in range(1, n + 1):
        row = [0] + [j * (row[j] if j < len(row) else 0) + row[j - 1] for j in range(1, i + 1)]
    return tuple(row)


def _stirling2(n: int, k: int) -> int:
    """Partitions of n labelled values into k non-empty blocks."""
    return _stirling_row(n)[k] if k <= n else 0


def _extensions(unseen: int, blocks: int) -> dict[int, int]:
    """Ways to add `unseen` labelled values to a partition with `blocks` blocks, by the number of
    new blocks they form: the rest join existing blocks."""
    found: dict[int, int] = {}
    for alone in range(unseen + 1):  # values not joining an existing block
        rest = blocks ** (unseen - alone) if unseen - alone else 1
        for new in range(alone + 1):
            ways = math.comb(unseen, alone) * rest * _stirling2(alone, new)
            if ways:
                found[new] = found.get(new, 0) + ways
    return found


def _falling(m: int, k: int) -> int:
    return math.perm(m, k) if k <= m else 0


def _permanent(matrix: list[list[int]]) -> int:
    """Sum over permutations s of prod_i matrix[i][s(i)], by a dynamic programme over subsets."""
    m = len(matrix)
    ways = {0: 1}
    for row in matrix:
        nxt: dict[int, int] = {}
        for used, w in ways.items():
            for j in range(m):
                if not used >> j & 1 and row[j]:
                    key = used | 1 << j
                    nxt[key] = nxt.get(key, 0) + w * row[j]
        ways = nxt
    return ways.get((1 << m) - 1, 0)


MAX_BITS = 1 << 26  # bits of a jrs count computed as an integer (8 MB)
MAX_TERMS = 20  # terms of the exact expression stated for a count too long to print


def _total(classes: int, factor: int, terms: dict[int, int]) -> tuple[int, str | None]:
    """factor * sum of coefficient * classes^exponent over `terms` (exponent -> coefficient), and
    that sum as an expression (None beyond MAX_TERMS terms)."""
    top = max(terms, default=0)
    if classes > 1 and top * (classes - 1).bit_length() > MAX_BITS:
        raise Unsuited(f"the jrs count has about {top * (classes - 1).bit_length()} bits: too large to state")
    total = factor * sum(coefficient * classes**exponent for exponent, coefficient in terms.items())
    if len(terms) > MAX_TERMS or not terms:
        return total, None
    parts = [f"{c} * {classes}^{e}" if e else str(c) for e, c in sorted(terms.items(), reverse=True)]
    return total, f"{factor} * ({' + '.join(parts)})" if factor != 1 else " + ".join(parts)


def intended_maps(task: Task) -> int:
    """Bijective concept maps: n! * (attribute permutations keeping domain sizes) * prod |D_v|!;
    without concept supervision each one fits, with its intended inference layer."""
    n, _, domains = structure(task)
    sizes = [len(d) for d in domains]
    same = math.prod(math.factorial(sizes.count(s)) for s in set(sizes))
    return math.factorial(n) * same * math.prod(math.factorial(s) for s in sizes)


def count_jrs(task: Task) -> CountResult:
    """The jrs count of `task` (pairs of a concept map and an inference layer), with the intended
    pairs and the joint reasoning shortcuts in the details."""
    start = time.perf_counter()
    classes = label_classes(task)
    supervised = bool(task.support.supervised or task.support.partial)
    if supervised:
        terms, intended, loose = _by_enumeration(task)
        factor = 1
    else:
        (terms, loose), intended = _by_kernels(task, classes), intended_maps(task)
        factor = math.factorial(structure(task)[0])
    total, expression = _total(classes, factor, terms)
    details = {
        "intended": intended,
        "joint_shortcuts": total - intended,
        "label_classes": classes,
        "expression": expression,
        "not_identified": [structure(task)[1][v] for v in sorted(loose)],
        "closed_form": "joint reasoning shortcuts",
        "formula": "sum over value-map kernels of n! * permanent * classes^(active - distinct)"
        if not supervised
        else "sum over concept maps fixing the supervised rows of classes^(active - distinct)",
    }
    return CountResult(total, True, Method.CLOSED_FORM, time.perf_counter() - start, details=details)


def _rows(task: Task) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Support rows (values object by object, attribute by attribute) with their label tuples."""
    return [(row, task.label_of(row)) for row in task.support.rows]


def _loose(matrix: list[list[int]], kernels: list[int], sizes: list[int], v: int) -> bool:
    """Whether some (V, g) with these kernels maps attribute v other than bijectively: its values
    merged, or sent to an attribute with another number of values."""
    if kernels[v] < sizes[v]:
        return True
    for w, ways in enumerate(matrix[v]):
        if ways and sizes[w] != sizes[v]:
            minor = [row[:w] + row[w + 1 :] for u, row in enumerate(matrix) if u != v]
            if _permanent(minor):
                return True
    return False


def _by_kernels(task: Task, classes: int) -> tuple[dict[int, int], set[int]]:
    """The pairs over n! as exponent of `classes` -> coefficient, and the attributes some pair maps
    other than bijectively."""
    n, _, domains = structure(task)
    m = len(domains)
    rows = _rows(task)
    seen = [sorted({row[o * m + v] for row, _ in rows for o in range(n)}, key=str) for v in range(m)]
    combinations = math.prod(_bell(len(s)) for s in seen)
    if combinations > PARTITION_LIMIT:
        raise Unsuited(
            f"the jrs count sums over {combinations} kernel combinations, more than {PARTITION_LIMIT}"
        )
    choices = [list(_partitions(s)) for s in seen]
    sizes = [len(d) for d in domains]
    extensions = [
        {b: _extensions(sizes[v] - len(seen[v]), b) for b in range(len(seen[v]) + 1)} for v in range(m)
    ]
    terms: dict[int, int] = {}
    loose: set[int] = set()
    for combo in product(*choices):
        meets: dict[tuple[int, ...], tuple[Any, ...]] = {}
        consistent = True
        for row, labels in rows:
            key = tuple(combo[v][0][row[o * m + v]] for o in range(n) for v in range(m))
            if meets.setdefault(key, labels) != labels:
                consistent = False
                break
        if not consistent:
            continue
        distinct = len(meets)
        per_attribute = [extensions[v][combo[v][1]] for v in range(m)]
        for news in product(*(sorted(e.items()) for e in per_attribute)):
            kernels = [combo[v][1] + new for v, (new, _) in enumerate(news)]
            ways = math.prod(w for _, w in news)
            matrix = [[_falling(sizes[w], kernels[v]) for w in range(m)] for v in range(m)]
            choices_of_maps = _permanent(matrix)
            if not choices_of_maps:
                continue
            active = math.prod(kernels) ** n
            terms[active - distinct] = terms.get(active - distinct, 0) + ways * choices_of_maps
            loose.update(v for v in range(m) if v not in loose and _loose(matrix, kernels, sizes, v))
    return terms, loose


@dataclass(frozen=True)
class FittingMap:
    """A concept map A = (sigma, V, g) some inference layer fits: `images` holds the label tuple B
    must give each predicted vector of the support (B is free on the other active vectors, whose
    number is `free`); g[v] lists the value numbers g_v gives to D_v's values, in order."""

    sigma: tuple[int, ...]
    perm: tuple[int, ...]
    g: tuple[tuple[int, ...], ...]
    images: dict[tuple[Any, ...], tuple[Any, ...]]
    free: int
    bijective: tuple[bool, ...]  # per attribute: g_v a bijection onto D_V(v)


def fitting_maps(task: Task) -> Iterator[FittingMap]:
    """Every concept map some inference layer fits, listed (at most ENUMERATE_LIMIT maps tried)."""
    n, _, domains = structure(task)
    m = len(domains)
    sizes = [len(d) for d in domains]
    total_maps = math.factorial(n) * sum(
        math.prod(sizes[w] ** sizes[v] for v, w in enumerate(perm)) for perm in permutations(range(m))
    )
    if total_maps > ENUMERATE_LIMIT:
        raise Unsuited(
            f"listing every concept map of the jrs count: {total_maps} here, more than {ENUMERATE_LIMIT}"
        )
    rows = _rows(task)
    supervised = task.support.supervised_on
    for sigma in permutations(range(n)):
        for perm in permutations(range(m)):
            images = [list(product(range(sizes[perm[v]]), repeat=sizes[v])) for v in range(m)]
            for g in product(*images):
                meets = _images(domains, rows, supervised, n, m, sigma, perm, g)
                if meets is not None:
                    active = math.prod(len(set(g[v])) for v in range(m)) ** n
                    bijective = tuple(len(set(g[v])) == sizes[v] == sizes[perm[v]] for v in range(m))
                    yield FittingMap(sigma, perm, g, meets, active - len(meets), bijective)


def _by_enumeration(task: Task) -> tuple[dict[int, int], int, set[int]]:
    """Every A listed (tasks with concept supervision): the pairs, and the bijective A that fix every
    supervised row (each with its intended B)."""
    terms: dict[int, int] = {}
    intended = 0
    loose: set[int] = set()
    for a in fitting_maps(task):
        terms[a.free] = terms.get(a.free, 0) + 1
        intended += all(a.bijective)
        loose.update(v for v, kept in enumerate(a.bijective) if not kept)
    return terms, intended, loose


def _images(
    domains: list[tuple[Any, ...]],
    rows: list[tuple[tuple[Any, ...], tuple[Any, ...]]],
    supervised: Callable[[tuple[Any, ...]], frozenset[int]],
    n: int,
    m: int,
    sigma: tuple[int, ...],
    perm: tuple[int, ...],
    g: tuple[tuple[int, ...], ...],
) -> dict[tuple[Any, ...], tuple[Any, ...]] | None:
    """The label tuple each predicted vector of the support must get under A = (sigma, V, g), or
    None when no inference layer fits: A merges rows with different labels or moves a supervised
    row's value on a concept supervised there (`supervised(row)`: those concepts)."""
    index = [{value: i for i, value in enumerate(d)} for d in domains]

    def image(row: tuple[Any, ...]) -> tuple[Any, ...]:
        out: list[Any] = [None] * (n * m)
        for o in range(n):
            for v in range(m):
                w = perm[v]
                out[sigma[o] * m + w] = domains[w][g[v][index[v][row[o * m + v]]]]
        return tuple(out)

    meets: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for row, labels in rows:
        predicted = image(row)
        if any(predicted[k] != row[k] for k in supervised(row)):
            return None
        if meets.setdefault(predicted, labels) != labels:
            return None
    return meets
