"""Symmetries of a task: swaps of concepts (single concepts, whole objects, an attribute in every
object) that never change the labels (read off every vector where D is small, else checked by SAT
on two copies of the knowledge) or that map
the support onto itself with its labels; and the blocks of concepts they generate.

Every symmetry used must also leave each concept-supervised vector as it is, so that it may act on
predicted concepts as well as on ground-truth ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from ..task.model import Task
from .copies import Copies


def _blocks(k: int, swappable: Callable[[int, int], bool]) -> list[list[int]]:
    """Classes of the concepts under the swaps found `swappable` (a swap of i and l follows from
    swaps of i, j and j, l, so pairs already joined are not asked)."""
    parent = list(range(k))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in combinations(range(k), 2):
        if root(i) != root(j) and swappable(i, j):
            parent[root(j)] = root(i)
    blocks: dict[int, list[int]] = {}
    for i in range(k):
        blocks.setdefault(root(i), []).append(i)
    return list(blocks.values())


Swap = list[int]  # a permutation of concept indices that is its own inverse (one or more swaps)


def concept_swap(k: int, pairs: Iterable[tuple[int, int]]) -> Swap:
    """The permutation of k concept indices exchanging each pair (pairs disjoint)."""
    perm = list(range(k))
    for i, j in pairs:
        perm[i], perm[j] = j, i
    return perm


def object_swap(task: Task, o: int, p: int) -> Swap:
    """Exchange objects o and p (from 0), every attribute at once (concepts object-major)."""
    m = len(task.object_spec().attributes)
    return concept_swap(len(task.concepts), ((o * m + a, p * m + a) for a in range(m)))


def attribute_swap(task: Task, a: int, b: int) -> Swap:
    """Exchange attributes a and b (from 0) in every object."""
    spec = task.object_spec()
    m = len(spec.attributes)
    return concept_swap(len(task.concepts), ((o * m + a, o * m + b) for o in range(spec.count)))


def _same_domains(task: Task, swap: Swap) -> bool:
    """Whether `swap` exchanges only concepts with the same domain (and ground-truth values)."""
    truths = task.ground_truths
    return all(
        task.concepts[i].values == task.concepts[j].values and truths[i] == truths[j]
        for i, j in enumerate(swap)
    )


def _fixes_supervision(task: Task, swap: Swap) -> bool:
    """Whether `swap` leaves every supervised vector as it is and, on a vector supervised on some
    concepts only, maps those concepts onto themselves."""
    support = task.support
    if not all(r[i] == r[j] for r in support.supervised for i, j in enumerate(swap)):
        return False
    return all(
        r[i] == r[j] and (i in on) == (j in on)
        for r, on in support.partial.items()
        for i, j in enumerate(swap)
    )


class KnowledgeSymmetry:
    """Whether a swap of concepts never changes the labels (and leaves every concept-supervised
    vector as it is, so that it may act on predicted concepts): on a small D by comparing the labels
    of every vector with those of its image, read off arrays; else by SAT on two copies of the
    knowledge."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.table = _label_ids(task)
        if self.table is None:
            self.copies = Copies(task.concepts, task.labels)
            self.x = self.copies.copy()
            self.base = self.copies.labels(self.x)

    def __call__(self, swap: Swap) -> bool:
        """Whether `swap` is a symmetry of the knowledge that fixes every supervised vector."""
        if not _same_domains(self.task, swap) or not _fixes_supervision(self.task, swap):
            return False
        if self.table is not None:
            ids = self.table
            return bool(np.array_equal(ids, ids.transpose(swap)))
        names = self.task.names
        moved = {names[i]: self.x[names[j]] for i, j in enumerate(swap)}
        changed = -self.copies.same_labels(self.base, self.copies.labels(moved))
        return self.copies.witness(changed, self.x) is None


def _label_ids(task: Task) -> NDArray[np.int64] | None:
    """A number per distinct label tuple, for every concept vector, as an array with an axis per
    concept (None when D is too large to list or its values do not fit arrays)."""
    tables = task.label_arrays()
    if tables is None:
        return None
    ids: dict[tuple[object, ...], int] = {}
    size = len(tables[0]) if tables else 1
    rows = zip(*(column.tolist() for column in tables)) if tables else [()] * size
    flat = np.fromiter((ids.setdefault(tuple(r), len(ids)) for r in rows), dtype=np.int64, count=size)
    return flat.reshape([len(c.values) for c in task.concepts])


def support_symmetry(task: Task, swap: Swap) -> bool:
    """Whether `swap` maps the (explicit) support onto itself keeping every label, and fixes every
    supervised vector."""
    if not _same_domains(task, swap) or not _fixes_supervision(task, swap):
        return False
    rows = set(task.support.rows)
    for r in rows:
        s = tuple(r[j] for j in swap)
        if s != r and (s not in rows or task.label_of(s) != task.label_of(r)):
            return False
    return True


def interchangeable_blocks(task: Task) -> list[list[int]]:
    """Concepts grouped so that swapping any two in a group (they share a domain) never changes the
    labels (checked by SAT per pair) and leaves every concept-supervised vector as it is; the
    swaps generate every permutation within each group."""
    symmetric = KnowledgeSymmetry(task)
    k = len(task.concepts)
    return _blocks(k, lambda i, j: symmetric(concept_swap(k, [(i, j)])))


def support_blocks(task: Task, knowledge_blocks: list[list[int]]) -> list[list[int]]:
    """Concepts grouped so that swapping two in a group maps the support onto itself, keeping every
    support label, and leaves every supervised vector as it is. For an exhaustive support that is
    a swap allowed by `knowledge_blocks` (from interchangeable_blocks, which checks supervision)."""
    k = len(task.concepts)
    if task.support.exhaustive and not task.predicts_more:
        same_block = {i: n for n, block in enumerate(knowledge_blocks) for i in block}
        return _blocks(k, lambda i, j: same_block[i] == same_block[j])
    return _blocks(k, lambda i, j: support_symmetry(task, concept_swap(k, [(i, j)])))


def _families(
    symmetric: KnowledgeSymmetry,
    k: int,
    blocks: list[list[int]],
    pairs: Callable[[int, int], list[tuple[int, int]]],
) -> list[list[int]]:
    """Groups (of two or more) of same-size blocks, given by their numbers, that the knowledge treats
    alike as wholes: exchanging two blocks element by element in block order, where exchanging items
    i and j swaps the concept pairs `pairs(i, j)`, never changes the labels (and fixes supervision)."""

    def exchangeable(b: int, c: int) -> bool:
        if len(blocks[b]) != len(blocks[c]):
            return False
        swapped = [pair for i, j in zip(blocks[b], blocks[c]) for pair in pairs(i, j)]
        return symmetric(concept_swap(k, swapped))

    return [family for family in _blocks(len(blocks), exchangeable) if len(family) > 1]


def interchangeable_families(task: Task, blocks: list[list[int]]) -> list[list[int]]:
    """Families of the blocks of interchangeable_blocks that can be exchanged as wholes (by block
    number): e.g. the two sides of an equation between sums."""
    return _families(KnowledgeSymmetry(task), len(task.concepts), blocks, lambda i, j: [(i, j)])


def object_blocks(task: Task) -> dict[str, list[list[int]]]:
    """The symmetries of an objects task, as blocks of objects and of attributes within which every
    swap (of whole objects, or of an attribute with another in every object) is a symmetry:
    'knowledge objects' / 'knowledge attributes' never change the labels and fix every supervised
    vector; 'support objects' / 'support attributes' map the support onto itself with its labels
    and fix every supervised vector (for an exhaustive support: the knowledge's swaps).
    'knowledge object families' / 'knowledge attribute families' group knowledge blocks that can be
    exchanged as wholes (see _families), e.g. two figures of Kand-Logic."""
    n, m = task.object_spec().count, len(task.object_spec().attributes)
    k = len(task.concepts)
    symmetric = KnowledgeSymmetry(task)
    blocks = {
        "knowledge objects": _blocks(n, lambda o, p: symmetric(object_swap(task, o, p))),
        "knowledge attributes": _blocks(m, lambda a, b: symmetric(attribute_swap(task, a, b))),
    }
    blocks["knowledge object families"] = _families(
        symmetric, k, blocks["knowledge objects"], lambda o, p: [(o * m + a, p * m + a) for a in range(m)]
    )
    blocks["knowledge attribute families"] = _families(
        symmetric,
        k,
        blocks["knowledge attributes"],
        lambda a, b: [(o * m + a, o * m + b) for o in range(n)],
    )
    swaps: dict[str, tuple[int, Callable[[Task, int, int], Swap]]] = {
        "objects": (n, object_swap),
        "attributes": (m, attribute_swap),
    }
    for what, (size, swap) in swaps.items():
        if task.support.exhaustive and not task.predicts_more:
            same = {i: b for b, block in enumerate(blocks[f"knowledge {what}"]) for i in block}
            blocks[f"support {what}"] = _blocks(size, _same_block(same))
        else:
            blocks[f"support {what}"] = _blocks(size, _support_swap(task, swap))
    return blocks


def _same_block(block_of: dict[int, int]) -> Callable[[int, int], bool]:
    """Whether two items lie in the same block."""
    return lambda i, j: block_of[i] == block_of[j]


def _support_swap(task: Task, swap: Callable[[Task, int, int], Swap]) -> Callable[[int, int], bool]:
    """Whether swapping two items (objects or attributes) is a symmetry of the support."""
    return lambda i, j: support_symmetry(task, swap(task, i, j))
