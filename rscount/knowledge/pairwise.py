"""Labels made of tests of two concepts each, read off the labels' shape and then their values: a
label that holds exactly where each of its parts holds (a conjunction; a disjunction on the value
where it fails, rscount.knowledge.splitting), every part reading two concepts. A sudoku's validity
is 56 inequalities of two cells; an ordering is a chain of comparisons. On the rows where such a
label takes that value, a map keeps each part; elsewhere it breaks at least one."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any

from ..task.expressions import free_names
from ..task.model import Task
from .splitting import parts

MAX_VALUES = 16  # the pair encoding has values^2 clauses per pair of concepts and seen pair of values


@dataclass(frozen=True)
class PairTest:
    """A part of label number `label` reading concepts `concepts` (in the task's order): the pairs
    of value numbers (of the first, of the second) on which it holds."""

    label: int
    concepts: tuple[int, int]
    holds: frozenset[tuple[int, int]]


@dataclass(frozen=True)
class PairwiseLabel:
    """Label number `label` takes `value` exactly where all of `tests` hold, and `1 - value` elsewhere."""

    label: int
    value: int
    tests: tuple[PairTest, ...]


def pairwise_labels(task: Task) -> list[PairwiseLabel] | None:
    """The task's labels as conjunctions of tests of two concepts (labels reading no concept are
    kept by every map and left out); None when some label is none, the concepts do not all share
    one list of at most MAX_VALUES values, no label reads a concept, or the labels are a program's
    answers to queries with variables or its evidence (labels of other kinds)."""
    values = task.concepts[0].values
    if any(c.values != values for c in task.concepts) or len(values) > MAX_VALUES:
        return None
    if task.answers or task.evidence is not None:
        return None
    index = {c.name: j for j, c in enumerate(task.concepts)}
    split: list[tuple[int, int, list[tuple[int, int]]]] = []  # label, value, concepts of each part
    expressions = []
    for n, expr in enumerate(task.labels.values()):
        if not free_names(expr) & index.keys():
            continue
        found = _two_concept_parts(expr, index)
        if found is None:
            return None
        value, found_parts = found
        split.append((n, value, [pair for pair, _ in found_parts]))
        expressions += [part for _, part in found_parts]
    if not split:
        return None
    tables = _tables(task, [pair for _, _, pairs in split for pair in pairs], expressions)
    if tables is None:
        return None
    result, k = [], 0
    for n, value, pairs in split:
        tests = tuple(PairTest(n, pair, tables[k + m]) for m, pair in enumerate(pairs))
        result.append(PairwiseLabel(n, value, tests))
        k += len(pairs)
    return result


def _two_concept_parts(
    expr: Any, index: dict[str, int]
) -> tuple[int, list[tuple[tuple[int, int], Any]]] | None:
    """The value on which `expr` splits into parts that each read two concepts, and those parts with
    the concepts they read; None when neither value does."""
    for value in (1, 0):
        found = []
        for part in parts(expr, value):
            read = sorted(index[name] for name in free_names(part) if name in index)
            if len(read) != 2:
                break
            found.append(((read[0], read[1]), part))
        else:
            return value, found
    return None


def _tables(
    task: Task, pairs: list[tuple[int, int]], expressions: list[Any]
) -> list[frozenset[tuple[int, int]]] | None:
    """Where each part holds, over every pair of values of its two concepts (the other concepts at
    their first values, which it does not read); None when a part takes a value other than 0 and 1."""
    base = [c.values[0] for c in task.concepts]
    values = task.concepts[0].values
    d = len(values)
    labels = {f"part{k}": part for k, part in enumerate(expressions)}
    of_parts = dataclasses.replace(task, labels=labels, answers=(), evidence=None, expect={})
    distinct = {pair: n for n, pair in enumerate(dict.fromkeys(pairs))}
    vectors = []
    for x, y in distinct:
        for u, v in itertools.product(range(d), repeat=2):
            vector = list(base)
            vector[x], vector[y] = values[u], values[v]
            vectors.append(tuple(vector))
    taken = of_parts.labels_of(vectors)
    tables = []
    for k, pair in enumerate(pairs):
        first = distinct[pair] * d * d
        column = [taken[first + m][k] for m in range(d * d)]
        if any(t not in (0, 1) for t in column):
            return None
        tables.append(frozenset(divmod(m, d) for m, t in enumerate(column) if t == 1))
    return tables
