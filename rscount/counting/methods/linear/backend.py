"""Exact counting of tasks whose labels are affine forms of integer concepts (forms.py): with the
permutation pi fixed, every support row says sum_i w_pi(i) f_i(x_i) = sum_j w_j x_j for each label,
a linear equation in the images f_i(v) of the values the support shows, and a supervised concept
says f_i(x_i) = x_pi(i). N(pi) is the number of integer solutions with each image in its target
domain (system.py), times the free images of unseen values; the count sums N(pi) over every
permutation the mode and the extractor allow. Rows contradict a wrong permutation after a few of
them, so the sum over the 720 permutations of two three-digit numbers on 1000 rows takes seconds,
where a per-permutation search over value maps does not finish (benchmarks/arithmetic.md)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from fractions import Fraction
from itertools import permutations, product

import numpy as np
from numpy.typing import NDArray

from ....encoding.value_codes import ValueMapCoding
from ....progress import Progress
from ....task.model import Mode, Task, Value
from ...budget import UNBOUNDED, Budget, Unsuited
from ...problem import CountProblem
from ...result import CountResult, Listed
from ...settings import CountSettings, Method
from .forms import affine_labels
from .system import TooFree, integer_solutions, solutions, spanning_rows, unused

MAX_PERMUTATIONS = 50_000  # permutations summed over one by one
MAX_LISTED = 1_000_000  # assignments of the free images listed for one permutation
REPORT_EVERY = 100  # permutations between two reports of the count so far
TOO_FREE = f"a permutation's solutions leave more than {MAX_LISTED} images to list, or numbers too large"


class LinearBackend:
    """Sum over concept permutations of the integer solutions of the labels' linear equations."""

    method = Method.LINEAR
    exact = True
    description = "affine labels: per concept permutation, the integer solutions of a linear system"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact count, or Unsuited for a label that is no affine form of integer concepts, for
        too many permutations, or for solutions too free to list."""
        start = time.perf_counter()
        equations, exchanges = _prepared(problem)
        coding = equations.coding
        chosen = [pi for pi in _permutations(problem) if exchanges.canonical(pi)]
        total, nonzero = 0, 0
        for n, pi in enumerate(chosen):
            if progress and n % REPORT_EVERY == 0:  # what a limit states; the race's expected time
                progress.update(f"permutation {n + 1}/{len(chosen)}")
                progress.known(lower_bound=max(total, 1), classes_done=n, classes_total=len(chosen))
            found = equations.solutions(pi)
            if found:
                total += found * coding.unseen_factor(pi) * exchanges.multiplicity
                nonzero += 1
        details = {"permutations": len(chosen), "exchanged": exchanges.multiplicity, "nonzero": nonzero}
        return CountResult(total, True, self.method, time.perf_counter() - start, details=details)


class _Exchanges:
    """Targets the equations cannot tell apart: predicted concepts (in the objects mode, whole
    objects) with the same weights in every label and the same domains. Without supervision,
    exchanging two of them after pi leaves every equation and domain as it was, so N(sigma pi) =
    N(pi): only the permutations whose sources feed each such block in increasing order are
    solved, each standing for `multiplicity` permutations (images lists them)."""

    def __init__(self, problem: CountProblem, weights: list[list[int]]) -> None:
        task = problem.task
        self.m = len(task.object_spec().attributes) if problem.mode == Mode.OBJECTS else 1
        units = len(task.concepts) // self.m

        def signature(p: int) -> tuple[object, ...]:
            concepts = range(p * self.m, (p + 1) * self.m)
            return tuple((tuple(w[j] for w in weights), task.concepts[j].values) for j in concepts)

        supervised = task.support.supervised or task.support.partial
        groups: dict[object, list[int]] = {}
        for p in range(units):
            groups.setdefault(p if supervised or task.in_place else signature(p), []).append(p)
        self.blocks = [b for b in groups.values() if len(b) > 1]
        self.multiplicity = math.prod(math.factorial(len(b)) for b in self.blocks)

    def _sources(self, pi: tuple[int, ...]) -> dict[int, int]:
        """The unit (concept, or object) that feeds each target unit."""
        return {pi[o * self.m] // self.m: o for o in range(len(pi) // self.m)}

    def canonical(self, pi: tuple[int, ...]) -> bool:
        """Whether pi's sources feed every block in increasing order."""
        source = self._sources(pi)
        return all(source[a] < source[b] for block in self.blocks for a, b in zip(block, block[1:]))

    def images(self, pi: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every permutation pi stands for: its targets exchanged within the blocks."""
        for orders in product(*(permutations(block) for block in self.blocks)):
            sigma = {a: b for block, order in zip(self.blocks, orders) for a, b in zip(block, order)}
            yield tuple(sigma.get(j // self.m, j // self.m) * self.m + j % self.m for j in pi)


def _prepared(problem: CountProblem) -> tuple[_Equations, _Exchanges]:
    """The equations of a task with affine labels and the targets they cannot tell apart; Unsuited
    outside the disentangled and objects modes or for a label that is no affine form."""
    if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
        raise Unsuited("the linear method counts the disentangled and objects modes")
    forms = affine_labels(problem.task)
    if forms is None:
        raise Unsuited("a label is not an affine form of integer concepts")
    coding = ValueMapCoding(problem.task, shared=problem.mode == Mode.OBJECTS)
    equations = _Equations(problem.task, coding, forms)
    return equations, _Exchanges(problem, equations.weights)


def _permutations(problem: CountProblem) -> Iterator[tuple[int, ...]]:
    """Every concept permutation the mode and the extractor allow (ground-truth i feeds pi[i])."""
    task = problem.task
    k = len(task.concepts)
    if problem.mode == Mode.DISENTANGLED:
        if task.in_place:
            yield tuple(range(k))
            return
        _cap(math.factorial(k))
        yield from permutations(range(k))
        return
    spec = task.object_spec()
    n, m = spec.count, len(spec.attributes)
    objects = [tuple(range(n))] if task.in_place else list(permutations(range(n)))
    _cap(len(objects) * math.factorial(m))
    for r in objects:
        for v in permutations(range(m)):
            yield tuple(r[o] * m + v[a] for o in range(n) for a in range(m))


def _cap(size: int) -> None:
    if size > MAX_PERMUTATIONS:
        raise Unsuited(
            f"{size} concept permutations, more than the {MAX_PERMUTATIONS} the linear method sums"
        )


class _Equations:
    """The rows' equations of a task under any permutation: per label, integer weights (the affine
    form times the common denominator of its coefficients) and each row's right-hand side; per
    concept, the unknown (owner, value number) it reads on each row."""

    def __init__(self, task: Task, coding: ValueMapCoding, forms: list[dict[str, Fraction]]) -> None:
        self.task, self.coding = task, coding
        self.unknowns = {key: n for n, key in enumerate(coding.var)}
        self.weights = []
        for form in forms:
            scale = math.lcm(*(a.denominator for a in form.values())) if form else 1
            self.weights.append([int(form.get(name, 0) * scale) for name in task.names])
        self.rows = coding.rows()
        k = len(task.concepts)
        self.columns = np.array(
            [[self.unknowns[coding.owner[i], idx[i]] for i in range(k)] for _, idx, _, _ in self.rows],
            dtype=np.int64,
        ).reshape(len(self.rows), k)
        self.rhs = [sum(w[j] * row[j] for j in range(k)) for w in self.weights for row, _, _, _ in self.rows]
        self.spanning = self._spanning()

    def _spanning(self) -> NDArray[np.int64]:
        """Rows (their numbers within a label's block) that every row depends on modulo P, under any
        pi: a block under pi is [R | y] (each concept's value one-hot, the label's values) times a
        matrix of pi's weights, so a dependency of the rows of [R | Y] (every label) holds in every
        block. 4-digit addition on 1000 rows: 81 of the 1000 equations are reduced."""
        r, k = len(self.rows), len(self.task.concepts)
        width = 1 + max((v for _, idx, _, _ in self.rows for v in idx), default=0)
        onehot = np.zeros((r, k * width), dtype=np.int64)
        for n, (_, idx, _, _) in enumerate(self.rows):
            onehot[n, [i * width + v for i, v in enumerate(idx)]] = 1
        labels = np.array(self.rhs, dtype=np.int64).reshape(len(self.weights), r).T
        return spanning_rows(np.concatenate([onehot, labels], axis=1))

    def _supervised(self, pi: tuple[int, ...]) -> list[tuple[int, int]]:
        """(unknown, value) per supervised concept of a row: the image that must keep it."""
        source = {j: i for i, j in enumerate(pi)}
        return [
            (self.unknowns[self.coding.owner[source[j]], idx[source[j]]], row[j])
            for row, idx, supervised, _ in self.rows
            for j in supervised
        ]

    def system(
        self, pi: tuple[int, ...]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], list[tuple[Value, ...]], NDArray[np.int64]]:
        """The equations under pi (matrix, right-hand sides), each unknown's target domain, and the
        equations that span the others modulo P (self.spanning in every block, every pinned one)."""
        n, r = len(self.unknowns), len(self.rows)
        blocks = []
        for w in self.weights:
            block = np.zeros((r, n), dtype=np.int64)
            for i, j in enumerate(pi):
                if w[j]:
                    np.add.at(block, (np.arange(r), self.columns[:, i]), w[j])
            blocks.append(block)
        fixed = self._supervised(pi)
        pinned = np.zeros((len(fixed), n), dtype=np.int64)
        for row, (u, _) in enumerate(fixed):
            pinned[row, u] = 1
        matrix = np.concatenate([*blocks, pinned])
        rhs = np.array(self.rhs + [v for _, v in fixed], dtype=np.int64)
        targets = [0] * n
        for (owner, _), u in self.unknowns.items():
            targets[u] = pi[owner]  # the owner is its first concept: the map feeds pi[owner]
        blocked = [b * r + self.spanning for b in range(len(blocks))]
        spanning = np.concatenate([*blocked, np.arange(len(blocks) * r, len(matrix), dtype=np.int64)])
        return matrix, rhs, [self.task.concepts[t].values for t in targets], spanning

    def solutions(self, pi: tuple[int, ...]) -> int:
        """N(pi) for the seen images: the integer solutions of the equations in their domains."""
        try:
            matrix, rhs, domains, spanning = self.system(pi)
            return integer_solutions(matrix, rhs, domains, MAX_LISTED, spanning)  # type: ignore[arg-type]
        except TooFree:
            raise Unsuited(TOO_FREE) from None

    def maps(self, pi: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
        """The value maps (per concept, the value number of each ground-truth value's image) of every
        optimal map with pi: each solution, with every choice for the unused and unseen images."""
        matrix, rhs, domains, spanning = self.system(pi)
        coding, k = self.coding, len(pi)
        free = unused(matrix)
        try:
            for x in solutions(matrix, rhs, domains, MAX_LISTED, spanning):  # type: ignore[arg-type]
                for choice in product(*(domains[u] for u in free)):
                    x[free] = choice
                    image = {key: int(x[u]) for key, u in self.unknowns.items()}
                    yield from _completed(self.task, coding, pi, image, k)
        except TooFree:
            raise Unsuited(TOO_FREE) from None


def _completed(
    task: Task, coding: ValueMapCoding, pi: tuple[int, ...], image: dict[tuple[int, int], int], k: int
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """The value maps of `image` (owner, value number) -> value, every unseen value mapped anywhere."""
    owners = sorted(set(coding.owner))
    unseen = [(o, v) for o in owners for v in range(coding.sources[o]) if (o, v) not in image]
    for choice in product(*(range(len(task.concepts[pi[o]].values)) for o, _ in unseen)):
        positions = dict(zip(unseen, choice))
        for (o, v), value in image.items():
            positions[o, v] = task.concepts[pi[o]].index[value]
        yield tuple(
            tuple(positions[coding.owner[i], v] for v in range(coding.sources[coding.owner[i]]))
            for i in range(k)
        )


def optimal_maps(problem: CountProblem, most: int) -> Listed:
    """Every optimal map (pi, f) of a task with affine labels, f as value numbers; Unsuited when the
    method does not apply or there are more than `most`."""
    equations, exchanges = _prepared(problem)
    found = []
    for pi in _permutations(problem):
        if not exchanges.canonical(pi):
            continue
        for f in equations.maps(pi):
            found += [(image, f) for image in exchanges.images(pi)]
            if len(found) > most:
                raise Unsuited(f"more than {most} optimal maps")
    return found
