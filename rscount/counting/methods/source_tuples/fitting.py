"""The optimal maps of a disentangled task as source-tuples sees them, for insight: the concept
permutations of the maps up to the label groups' symmetries (every join of tuples with nonzero
factors) and, under each, which values of each source some optimal map predicts as other values;
or, for small counts, every map. Under a fixed permutation the value maps are a product over the
groups, so each question is a SAT call on one group's small CNF and each group's maps are listed
on it, where on the whole task's CNF (MNMath's sums and products) one call takes seconds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .... import sat
from ....errors import InternalError
from ....knowledge.circuit import CNFBuilder
from ....task.model import Task
from ...budget import Budget, Unsuited
from .tuples import GroupShape, SourceTuples, TupleFactor, completed


@dataclass(frozen=True)
class FittingPermutation:
    """A permutation of optimal maps (pi[source] = target) and, per source, the values (numbers) some
    optimal map with it predicts as other values, and whether its value map may be other than the
    identity (value number to the same number)."""

    pi: tuple[int, ...]
    moved: tuple[frozenset[int], ...]
    changed: tuple[bool, ...]


def fitting_permutations(task: Task, most: int) -> list[FittingPermutation]:
    """The permutations of a disentangled task's optimal maps up to its label groups' symmetries,
    each with what its value maps may move. Unsuited past `most` source tuples or permutations."""
    tuples = SourceTuples(task, budget=Budget(max_classes=most))
    tuples.count()
    if not isinstance(tuples.factor, TupleFactor):
        raise InternalError("fitting permutations need the exact factors")
    return _Fitting(tuples, tuples.factor, most).all()


Answers = dict[int, tuple[frozenset[int], bool]]  # source -> (values moved, value map changed)
Map = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]  # (pi, f): source i feeds pi[i], v -> f[i][v]
Feeding = tuple[dict[int, int], dict[int, tuple[int, ...]]]  # a group's sources: targets, value maps


def fitting_maps(task: Task, most: int) -> list[Map]:
    """Every optimal map of a disentangled task, from source-tuples' nonzero tuples: each tuple's
    orbit under its group's symmetry, times the value maps listed on the group's CNF (and any image
    of the values its rows do not read), joined over the groups, the free concepts fed in every
    order with any value map. Unsuited past `most` maps or source tuples."""
    tuples = SourceTuples(task, budget=Budget(max_classes=most))
    total, _ = tuples.count()
    if total > most:
        raise Unsuited(f"it has more than {most} optimal maps")
    if not isinstance(tuples.factor, TupleFactor):
        raise InternalError("fitting maps need the exact factors")
    maps = _Listing(tuples, tuples.factor).all()
    if len(maps) != total or len(set(maps)) != total:
        raise InternalError(f"source tuples count {total} maps and list {len(maps)}")
    return maps


class _Listing:
    """The walk over the joins of nonzero tuples, each group's feedings listed once per tuple."""

    def __init__(self, tuples: SourceTuples, factor: TupleFactor) -> None:
        self.tuples, self.factor = tuples, factor
        self.sizes = [len(c.values) for c in tuples.task.concepts]
        self.feedings: dict[tuple[int, tuple[int, ...]], list[Feeding]] = {}

    def all(self) -> list[Map]:
        """Every map: each join's groups fed in every way listed, the free concepts in every order."""
        k, found = len(self.sizes), []
        for chosen, left in _joins(self.tuples):
            for feedings in itertools.product(*(self._feedings_of(n, beta) for n, beta in chosen)):
                pi = {s: t for fed, _ in feedings for s, t in fed.items()}
                f = {s: images for _, value_map in feedings for s, images in value_map.items()}
                for order in itertools.permutations(self.tuples.free):
                    whole = pi | dict(zip(left, order))
                    anyhow = [
                        itertools.product(range(self.sizes[whole[s]]), repeat=self.sizes[s]) for s in left
                    ]
                    for free in itertools.product(*anyhow):
                        every = f | dict(zip(left, free))
                        found.append((tuple(whole[s] for s in range(k)), tuple(every[s] for s in range(k))))
        return found

    def _feedings_of(self, n: int, beta: tuple[int, ...]) -> list[Feeding]:
        """_feedings of group n's tuple beta, listed once."""
        if (n, beta) not in self.feedings:
            self.feedings[n, beta] = self._feedings(self.tuples.shapes[n], beta)
        return self.feedings[n, beta]

    def _feedings(self, shape: GroupShape, beta: tuple[int, ...]) -> list[Feeding]:
        """The (targets, value maps) of beta's sources over beta's orbit and the group's fitting
        value maps (the orbit keeps domains, so the value maps are the same on each of its tuples)."""
        pi = completed(len(self.sizes), shape.targets, beta)
        built = self.factor.group_cnf(pi, (list(shape.labels), list(shape.targets)))
        if built is None:
            raise InternalError("a tuple with a nonzero factor has a row no value map fits")
        b, onehot = built
        value_maps: list[dict[int, tuple[int, ...]]] = []
        with sat.solver(sat.REFUTE, b.clauses) as solver:
            projection = [x for lits in onehot.values() for x in lits]
            for model in sat.projected_models(solver, projection, one_hot=True):
                true = {x for x in model if x > 0}
                images = {key: [u for u, x in enumerate(lits) if x in true] for key, lits in onehot.items()}
                choices = [
                    images[s, v] if (s, v) in images else range(self.sizes[pi[s]])
                    for s in beta
                    for v in range(self.sizes[s])
                ]
                for chosen in itertools.product(*choices):
                    at = iter(chosen)
                    value_maps.append({s: tuple(next(at) for _ in range(self.sizes[s])) for s in beta})
        orbit = _orbit(shape, beta)
        if len(orbit) != shape.orbit:
            raise InternalError(
                f"a tuple's orbit has {len(orbit)} tuples, its group's symmetry {shape.orbit}"
            )
        return [(dict(zip(other, shape.targets)), value_map) for other in orbit for value_map in value_maps]


Join = list[tuple[int, tuple[int, ...]]]  # per label group n, the tuple beta of sources feeding it


def _joins(tuples: SourceTuples) -> Iterator[tuple[Join, list[int]]]:
    """Every join of one tuple per group whose factors and the rest's sum are nonzero (read from
    count()'s memo), with the sources left over for the free concepts."""
    k = len(tuples.task.concepts)

    def walk(n: int, used: int, chosen: Join) -> Iterator[tuple[Join, list[int]]]:
        if n < len(tuples.shapes):
            for beta in tuples.shapes[n].tuples([s for s in range(k) if not used >> s & 1]):
                after = used | sum(1 << s for s in beta)
                if tuples.factors.get((n, beta)) and tuples.rest(n + 1, after):
                    yield from walk(n + 1, after, [*chosen, (n, beta)])
            return
        left = [s for s in range(k) if not used >> s & 1]
        if len(left) == len(tuples.free):
            yield chosen, left

    return walk(0, 0, [])


def _orbit(shape: GroupShape, beta: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The tuples the group's symmetry makes of beta: its sources exchanged within each block of
    target positions, and between the blocks of each family, position by position."""
    swaps = [[(b[t], b[t + 1])] for b in shape.blocks for t in range(len(b) - 1)]
    for family in shape.families:
        for x, y in zip(family, family[1:]):
            swaps.append(list(zip(shape.blocks[x], shape.blocks[y])))
    seen, todo = {beta}, [beta]
    while todo:
        at = todo.pop()
        for pairs in swaps:
            other = list(at)
            for p, q in pairs:
                other[p], other[q] = other[q], other[p]
            if tuple(other) not in seen:
                seen.add(tuple(other))
                todo.append(tuple(other))
    return sorted(seen)


class _Fitting:
    """The walk over the joins of nonzero tuples, each group's answers asked once per tuple."""

    def __init__(self, tuples: SourceTuples, factor: TupleFactor, most: int) -> None:
        self.tuples, self.factor, self.most = tuples, factor, most
        self.values = [c.values for c in tuples.task.concepts]
        self.answers: dict[tuple[int, tuple[int, ...]], Answers] = {}

    def all(self) -> list[FittingPermutation]:
        """Every permutation, the free concepts fed by the sources left over in every order."""
        k, found = len(self.values), []
        for chosen, left in _joins(self.tuples):
            pi: dict[int, int] = {}
            answers: Answers = {}
            for n, beta in chosen:
                if (n, beta) not in self.answers:
                    self.answers[n, beta] = self._asked(self.tuples.shapes[n], beta)
                pi |= dict(zip(beta, self.tuples.shapes[n].targets))
                answers |= self.answers[n, beta]
            for order in itertools.permutations(self.tuples.free):
                whole = pi | dict(zip(left, order))
                free = {s: self._anything(s, whole[s], range(len(self.values[s]))) for s in left}
                every = answers | free
                found.append(
                    FittingPermutation(
                        tuple(whole[s] for s in range(k)),
                        tuple(every[s][0] for s in range(k)),
                        tuple(every[s][1] for s in range(k)),
                    )
                )
                if len(found) > self.most:
                    raise Unsuited(f"its optimal maps have more than {self.most} permutations up to symmetry")
        return found

    def _anything(self, s: int, t: int, values: Iterable[int]) -> tuple[frozenset[int], bool]:
        """What `values` of source s may do when any image in target t's domain fits."""
        wanted, images = self.values[s], self.values[t]
        chosen = list(values)
        moved = frozenset(v for v in chosen if any(u != wanted[v] for u in images))
        return moved, any(u != v for v in chosen for u in range(len(images)))

    def _asked(self, shape: GroupShape, beta: tuple[int, ...]) -> Answers:
        """Per source of beta, the values some fitting value map moves and whether it may change."""
        pi = completed(len(self.values), shape.targets, beta)
        built = self.factor.group_cnf(pi, (list(shape.labels), list(shape.targets)))
        if built is None:
            raise InternalError("a tuple with a nonzero factor has a row no value map fits")
        b, onehot = built
        answers: Answers = {}
        for s in beta:
            free = [v for v in range(len(self.values[s])) if (s, v) not in onehot]
            answers[s] = self._anything(s, pi[s], free)
        questions: dict[tuple[str, int, int], list[int]] = {}
        for (s, v), lits in onehot.items():
            images = self.values[pi[s]]
            questions["moved", s, v] = [x for u, x in enumerate(lits) if images[u] != self.values[s][v]]
            if not answers[s][1]:
                questions.setdefault(("changed", s, -1), []).extend(x for u, x in enumerate(lits) if u != v)
        for kind, s, v in _yes(b, questions):
            moved, changed = answers[s]
            answers[s] = (moved | {v}, changed) if kind == "moved" else (moved, True)
        return answers


def _yes(b: CNFBuilder, questions: dict[tuple[str, int, int], list[int]]) -> set[tuple[str, int, int]]:
    """The questions (each a disjunction of image literals) some model of b's clauses says yes to:
    each call asks for a model saying yes to one not yet answered, and answers all it shows."""
    said: set[tuple[str, int, int]] = set()
    open_ = {q: lits for q, lits in questions.items() if lits}
    with sat.solver(sat.REFUTE, b.clauses) as solver:
        while open_:
            select = b.new_var()
            indicators = []
            for lits in open_.values():
                indicators.append(b.new_var())
                solver.add_clause([-indicators[-1], *lits])
            solver.add_clause([-select, *indicators])
            if not solver.solve(assumptions=[select]):
                break
            true = {x for x in solver.get_model() or [] if x > 0}
            shown = [q for q, lits in open_.items() if any(x in true for x in lits)]
            if not shown:
                raise InternalError("a model saying yes to an open question shows none")
            said.update(shown)
            for q in shown:
                del open_[q]
            solver.add_clause([-select])
    return said
