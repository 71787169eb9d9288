"""The disentangled maps (pi, f) of a task whose labels are conjunctions of two-concept tests
(rscount.knowledge.pairwise) as a CNF without a variable per row: the rows where a label's tests
all hold fold into the pairs of values seen per pair of concepts, so "concepts i and j are read as
a tested pair" (one variable) forbids f_i(u), f_j(v) to break the test for every pair (u, v) seen;
a row where the label breaks asks one tested pair of its images to break it. A 4x4 sudoku's 1000
puzzles are 1336 variables, where the row-wise CNF has 12612."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field

from ..knowledge.circuit import exactly_one
from ..knowledge.pairwise import PairTest, PairwiseLabel
from ..task.model import Task

Pair = tuple[int, int]
IMAGED_ROWS = 8  # holding rows per label whose predictions are variables (16 or 32: slower sudokus)


@dataclass
class PairEncoding:
    """The CNF over `place[i][p]` (concept i is read as concept p: pi(i) = p) and `image[i, u][a]`
    (f_i maps value number u to value number a), for the values u that concept i takes on some row;
    every other value's image is free, a factor `free` on each model."""

    values: int
    place: list[list[int]]
    image: dict[Pair, list[int]]
    free: int
    clauses: list[list[int]] = field(default_factory=list)
    top: int = 0

    @property
    def projection(self) -> list[int]:
        """The map variables: placements, then images."""
        return [x for row in self.place for x in row] + [x for xs in self.image.values() for x in xs]

    def new(self) -> int:
        """A fresh variable."""
        self.top += 1
        return self.top


def pair_encoding(
    task: Task, labels: list[PairwiseLabel], in_place: bool, imaged_rows: int = IMAGED_ROWS
) -> PairEncoding:
    """The task's optimal disentangled maps (pi the identity when `in_place`) as a CNF; the
    predictions on `imaged_rows` of each label's holding rows are variables too (_image_holds)."""
    k, d = len(task.concepts), len(task.concepts[0].values)
    index = task.concepts[0].index
    rows = [tuple(index[v] for v in row) for row in task.support.rows]
    taken = sorted({(i, row[i]) for row in rows for i in range(k)})
    enc = PairEncoding(d, [], {}, d ** (k * d - len(taken)))
    enc.place = [[enc.new() for _ in range(k)] for _ in range(k)]
    enc.image = {iu: [enc.new() for _ in range(d)] for iu in taken}
    for i in range(k):
        enc.clauses += exactly_one(enc.place[i])
        enc.clauses += exactly_one([enc.place[j][i] for j in range(k)])
        if in_place:
            enc.clauses.append([enc.place[i][i]])
    for xs in enc.image.values():
        enc.clauses += exactly_one(xs)
    _supervision(enc, task, rows)
    label_values = task.labels_of(task.support.rows)
    for label in labels:
        holding = [row for row, got in zip(rows, label_values) if got[label.label] == label.value]
        breaking = [row for row, got in zip(rows, label_values) if got[label.label] != label.value]
        tables = []
        for holds, tests in _by_table(label.tests).items():
            read = _read_as_tested(enc, tests, k, holds == {(b, a) for a, b in holds})
            seen: dict[Pair, set[Pair]] = defaultdict(set)
            for row in holding:
                for i, j in read:
                    seen[i, j].add((row[i], row[j]))
            _keep(enc, read, seen, holds)
            tables.append(Tested(holds, read, seen))
        _break(enc, tables, breaking)
        for row in _spread(holding, imaged_rows):
            _image_holds(enc, label, row)
    return enc


def _spread(rows: list[tuple[int, ...]], most: int) -> list[tuple[int, ...]]:
    """At most `most` of `rows`, evenly spaced in their order."""
    if len(rows) <= most:
        return rows
    return [rows[t * len(rows) // most] for t in range(most)]


def _image_holds(enc: PairEncoding, label: PairwiseLabel, row: tuple[int, ...]) -> None:
    """The predictions on `row` as variables, `shown[p][a]`: the concept read as p predicts value
    a; every test of the label holds on them. Implied by _keep (the same rows), but on them a
    solver sees a predicted sudoku row, column or box that must show each value once, where the
    pairs alone make it refute place by place (docs/performance.md, two-concept tests)."""
    k = len(row)
    shown = [[enc.new() for _ in range(enc.values)] for _ in range(k)]
    for p, a in itertools.product(range(k), range(enc.values)):
        for i in range(k):
            placed, image = enc.place[i][p], enc.image[i, row[i]][a]
            enc.clauses += [[-placed, -image, shown[p][a]], [-placed, image, -shown[p][a]]]
    for test in label.tests:
        p, q = test.concepts
        fails = itertools.product(range(enc.values), repeat=2)
        enc.clauses += [[-shown[p][a], -shown[q][b]] for a, b in fails if (a, b) not in test.holds]


@dataclass(frozen=True)
class Tested:
    """A label's tests that hold on the same pairs of values `holds`: per ordered pair of concepts,
    the variable `read` (they are read as one of these tests) and the pairs of values `seen` on them
    on the rows where the label's tests hold."""

    holds: frozenset[Pair]
    read: dict[Pair, int]
    seen: dict[Pair, set[Pair]]


def _supervision(enc: PairEncoding, task: Task, rows: list[tuple[int, ...]]) -> None:
    """A supervised concept p of a row is predicted as the row's value there, whichever concept i is
    read as p: pi(i) = p implies f_i(row_i) = row_p."""
    for row, given in zip(rows, task.support.rows):
        for p in task.support.supervised_on(given):
            for i in range(len(row)):
                enc.clauses.append([-enc.place[i][p], enc.image[i, row[i]][row[p]]])


def _by_table(tests: tuple[PairTest, ...]) -> dict[frozenset[Pair], list[Pair]]:
    """The label's tests grouped by where they hold, each as the pair of concepts it reads."""
    grouped: dict[frozenset[Pair], list[Pair]] = defaultdict(list)
    for test in tests:
        grouped[test.holds].append(test.concepts)
    return grouped


def _read_as_tested(enc: PairEncoding, tests: list[Pair], k: int, symmetric: bool) -> dict[Pair, int]:
    """Per ordered pair of concepts (i, j), a variable true exactly when (pi(i), pi(j)) is one of
    `tests` (through `near[j][x]`: pi(j) is tested after x); for a symmetric test, per pair i < j,
    in either order (half the variables and clauses)."""
    after: dict[int, list[int]] = defaultdict(list)
    for x, y in tests:
        after[x].append(y)
        if symmetric:
            after[y].append(x)
    read = {}
    for j in range(k):
        near = {}
        for x, ys in after.items():
            near[x] = enc.new()
            enc.clauses.append([-near[x]] + [enc.place[j][y] for y in ys])
            enc.clauses += [[-enc.place[j][y], near[x]] for y in ys]
        for i in range(j) if symmetric else range(k):
            if i == j:
                continue
            read[i, j] = enc.new()
            for x in range(k):
                if x in near:
                    enc.clauses.append([-enc.place[i][x], -near[x], read[i, j]])
                    enc.clauses.append([-enc.place[i][x], near[x], -read[i, j]])
                else:
                    enc.clauses.append([-enc.place[i][x], -read[i, j]])
    return read


def _keep(
    enc: PairEncoding, read: dict[Pair, int], seen: dict[Pair, set[Pair]], holds: frozenset[Pair]
) -> None:
    """Where concepts i and j are read as a tested pair, every pair of values seen on a row where the
    label's tests hold keeps holding through f_i and f_j."""
    fails = [(a, b) for a in range(enc.values) for b in range(enc.values) if (a, b) not in holds]
    for (i, j), pairs in seen.items():
        for u, v in pairs:
            for a, b in fails:
                enc.clauses.append([-read[i, j], -enc.image[i, u][a], -enc.image[j, v][b]])


def _break(enc: PairEncoding, tables: list[Tested], breaking: list[tuple[int, ...]]) -> None:
    """On every row where the label breaks, some pair of concepts read as one of its tests maps its
    values to a pair where that test fails (not a pair seen holding there: _keep forbids it)."""
    broken: dict[tuple[int, int, int, int, int], int] = {}
    for row in breaking:
        witnesses = []
        for t, table in enumerate(tables):
            for i, j in table.read:
                u, v = row[i], row[j]
                if (u, v) in table.seen.get((i, j), ()):
                    continue
                key = (t, i, u, j, v)
                if key not in broken:
                    broken[key] = _breaks(enc, table, i, u, j, v)
                witnesses.append(broken[key])
        enc.clauses.append(witnesses)


def _breaks(enc: PairEncoding, table: Tested, i: int, u: int, j: int, v: int) -> int:
    """A variable true exactly when concepts i and j are read as a test of `table` and f_i(u), f_j(v)
    break it."""
    fails = enc.new()
    for a, b in itertools.product(range(enc.values), repeat=2):
        sign = -1 if (a, b) in table.holds else 1
        enc.clauses.append([-enc.image[i, u][a], -enc.image[j, v][b], sign * fails])
    both = enc.new()
    read = table.read[i, j]
    enc.clauses += [[-both, read], [-both, fails], [both, -read, -fails]]
    return both
