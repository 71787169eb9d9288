"""The disentangled count summed over the ordered tuples of sources feeding each label group (method
source-tuples), for tasks of a few small label groups over wide domains (MNMath: two equations
over four 10-valued digits each), where finding the permutation classes on the multiplexed CNF is
what takes the time (200 rows: 126 s of 141) and a group's readings are too many to list.

With value maps per concept, N(pi) = unseen(pi) * prod over label groups g of F_g(beta_g), where
beta_g gives the source feeding each of g's concepts and F_g counts the value maps of those
sources (on the values the support shows) that fit g's rows. So

    count = sum over beta_1, ..., beta_m with disjoint sources of prod_g w(beta_g) F_g(beta_g),

w the unseen-value factor of beta_g's sources. It is summed group by group, memoised on the
sources already used, and a group's tuples that give F_g = 0 end their branch. The knowledge's
symmetries within a group (interchangeable concepts, blocks exchanged as wholes; rscount.knowledge
.symmetry) keep F_g and act freely on tuples of distinct sources, so one tuple per orbit is
counted and weighted by the orbit's size. Concepts that no label reads and no row supervises take
the sources left over in any order, each with any map.

A wrong tuple is refuted first (F_g = 0): by two rows that read the same source values and have
different labels, else by a SAT solver on one-hot value maps that the group's tuples share (each
tuple's rows under a selector it assumes), on the first rows, then on all. F_g is then counted by
enumerating the models of all its rows, and by the value-map SDD when they are too many
(rscount.counting.engines.value_maps). The rows are compiled into CNF whose operator gates are
shared between rows reading the same values (a template stamped per row, with fresh gates, took
MNMath's SAT calls 40 s instead of 1.2 s).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .... import sat
from ....encoding.value_codes import Reading, ValueMapCoding
from ....knowledge.circuit import CNFBuilder, Shared, exactly_one
from ....knowledge.symmetry import interchangeable_blocks, interchangeable_families
from ....progress import Progress
from ....task.model import Task
from ...budget import UNBOUNDED, Budget, TooManyModels, Unsuited
from ...engines.value_maps import ValueMapCounter
from .refute import Group, Refuters, state_reading

ENUMERATE_LIMIT = 2000  # models of one factor listed by SAT before the SDD counts it

Factor = Callable[["GroupShape", tuple[int, ...]], int]  # a group's shape and a tuple -> its factor
OneHot = dict[tuple[int, int], list[int]]  # (source, value) -> one-hot literals of its image


def tuple_count(k: int, shape: GroupShape) -> int:
    """How many tuples of distinct sources (out of k) one per orbit of `shape`'s symmetry."""
    m = len(shape.targets)
    return math.perm(k, m) // shape.orbit if m <= k else 0


@dataclass(frozen=True)
class GroupShape:
    """A label group's concepts (`targets`) and the symmetry of the knowledge among them: `blocks`
    of interchangeable concepts (positions in `targets`), covering them in order, and `families`
    of blocks (numbers) exchanged as wholes; `orbit` is the order of the group they generate."""

    labels: tuple[str, ...]
    targets: tuple[int, ...]
    blocks: tuple[tuple[int, ...], ...]
    families: tuple[tuple[int, ...], ...]

    @property
    def orbit(self) -> int:
        """Tuples of distinct sources per orbit: the symmetry acts freely on them."""
        blocks = math.prod(math.factorial(len(b)) for b in self.blocks)
        return blocks * math.prod(math.factorial(len(f)) for f in self.families)

    def tuples(self, sources: Sequence[int]) -> Iterator[tuple[int, ...]]:
        """One tuple per orbit (the source feeding each target, in `targets` order) of the distinct
        `sources`: increasing within each block, a family's blocks ordered by their first source."""
        before = {b: f[i - 1] for f in self.families for i, b in enumerate(f) if i}
        chosen: list[tuple[int, ...]] = []

        def extend(n: int, free: frozenset[int]) -> Iterator[tuple[int, ...]]:
            if n == len(self.blocks):
                found = [0] * len(self.targets)
                for block, picked in zip(self.blocks, chosen):
                    for position, source in zip(block, picked):
                        found[position] = source
                yield tuple(found)
                return
            floor = chosen[before[n]][0] if n in before else -1
            for picked in itertools.combinations(sorted(free), len(self.blocks[n])):
                if picked[0] > floor:
                    chosen.append(picked)
                    yield from extend(n + 1, free - set(picked))
                    chosen.pop()

        yield from extend(0, frozenset(sources))


def group_shapes(task: Task, groups: Sequence[Group]) -> list[GroupShape]:
    """The shape of every group with labels or supervision constraints: the knowledge's blocks split
    by group (a swap within a group keeps its factor), families kept where all their blocks lie in
    one group."""
    blocks = interchangeable_blocks(task)
    families = interchangeable_families(task, blocks)
    shapes = []
    for labels, targets in groups:
        where = {t: n for n, t in enumerate(targets)}
        numbers: dict[int, int] = {}
        parts: list[tuple[int, ...]] = []
        for b, block in enumerate(blocks):
            inside = tuple(where[t] for t in block if t in where)
            if inside:
                if len(inside) == len(block):
                    numbers[b] = len(parts)
                parts.append(inside)
        kept = tuple(tuple(numbers[b] for b in f) for f in families if all(b in numbers for b in f))
        # Blocks in order, a family's blocks next to each other (its leader first).
        order = sorted(range(len(parts)), key=lambda n: min(parts[n]))
        for family in kept:
            rest = [n for n in order if n not in family[1:]]
            at = rest.index(family[0]) + 1
            order = rest[:at] + list(family[1:]) + rest[at:]
        renumber = {old: new for new, old in enumerate(order)}
        shapes.append(
            GroupShape(
                tuple(labels),
                tuple(targets),
                tuple(parts[n] for n in order),
                tuple(tuple(renumber[b] for b in f) for f in kept),
            )
        )
    return shapes


class TupleFactor:
    """F_g(beta) times the unseen-value factor of beta's sources: the value maps of the sources
    feeding a group's concepts that fit its rows."""

    def __init__(self, coding: ValueMapCoding, max_models: int | None = None) -> None:
        self.coding = coding
        self.max_models = max_models
        self.limit = ENUMERATE_LIMIT if max_models is None else max_models
        self.sdd: ValueMapCounter | None = None
        self.by_sdd = 0
        self.refuters = Refuters(coding)

    def __call__(self, shape: GroupShape, beta: tuple[int, ...]) -> int:
        """The factor of `shape`'s group when beta[n] feeds shape.targets[n]."""
        coding = self.coding
        pi = completed(len(coding.sizes), shape.targets, beta)
        pairs = zip(beta, shape.targets)
        unseen = int(math.prod(coding.sizes[t] ** (coding.sizes[s] - len(coding.seen[s])) for s, t in pairs))
        group = (list(shape.labels), list(shape.targets))
        if self.refuters.refutes(shape.labels, pi, group):
            return 0
        found = self._enumerated(pi, group, beta)
        if found is None:
            if self.max_models is not None:
                raise TooManyModels(f"a label group's factor has more than {self.max_models} value maps")
            if self.sdd is None:
                self.sdd = ValueMapCounter(coding, limit=0)
            self.by_sdd += 1
            free = coding.num_vars - coding.group_vars(pi, group)
            return unseen * (self.sdd.count(pi, group) >> free)
        return unseen * found

    def _enumerated(self, pi: tuple[int, ...], group: Group, beta: tuple[int, ...]) -> int | None:
        """The value maps of the group's sources that fit its rows, counted by SAT enumeration over
        one-hot value variables, or None past the limit."""
        built = self.group_cnf(pi, group)
        if built is None:
            return 0
        b, onehot = built
        with sat.solver(sat.REFUTE, b.clauses) as solver:
            projection = [x for lits in onehot.values() for x in lits]
            models = 0
            for _ in sat.projected_models(solver, projection, one_hot=True):
                models += 1
                if models > self.limit:
                    return None
        sizes = self.coding.sizes
        unconstrained = [s for s in beta for v in self.coding.seen[s] if (s, v) not in onehot]
        return models * int(math.prod(sizes[pi[s]] for s in unconstrained))

    def group_cnf(self, pi: tuple[int, ...], group: Group) -> tuple[CNFBuilder, OneHot] | None:
        """The CNF of the group's rows over one-hot images (onehot[source, value][image]) of the
        source values its rows read, under `pi`; None when a row has no value map giving its labels."""
        sizes = self.coding.sizes
        b = CNFBuilder()
        onehot: OneHot = {}

        def code(i: int, v: int) -> list[int]:
            if (i, v) not in onehot:
                onehot[i, v] = [b.new_var() for _ in range(sizes[pi[i]])]
                b.clauses.extend(exactly_one(onehot[i, v]))
            return onehot[i, v]

        shared = Shared()

        def state(fact: Reading | tuple[tuple[int, int, int], ...]) -> bool:
            """Add a row's fact to the CNF; False when no value map gives its labels."""
            if not isinstance(fact, Reading):
                b.clauses.extend([code(i, v)[u]] for i, v, u in fact)
                return True
            return state_reading(self.coding, b, group, fact, [code(i, v) for i, v in fact.pairs], shared)

        if not all(state(fact) for fact in self.coding.row_facts(pi, group)):
            return None
        return b, onehot


def completed(k: int, targets: Sequence[int], beta: Sequence[int]) -> tuple[int, ...]:
    """A concept permutation (pi[source] = target) that sends beta[n] to targets[n]; the others
    anyhow (a group's constraints read only its own sources)."""
    pi = [-1] * k
    for s, t in zip(beta, targets):
        pi[s] = t
    rest = iter(sorted(set(range(k)) - set(targets)))
    return tuple(p if p >= 0 else next(rest) for p in pi)


class SourceTuples:
    """The source-tuple count of a disentangled task; Unsuited when its groups have more
    tuples than `max_tuples` in all (the sum would visit them), TooManyModels when a factor has more
    than `max_models` value maps (else the SDD counts it)."""

    def __init__(
        self,
        task: Task,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
        factor: Callable[[ValueMapCoding, list[GroupShape]], Factor] | None = None,
    ) -> None:
        """`factor` makes what each tuple contributes from the coding and the groups' shapes
        (default: TupleFactor, the exact count; bound.FactorBound an upper bound of it)."""
        if task.in_place:
            raise Unsuited("source tuples sum over the concepts each predicted concept may read")
        self.task = task
        self.progress = progress
        self.coding = ValueMapCoding(task)
        groups = self.coding.label_groups()
        support = task.support
        supervised = set(range(len(task.concepts))) if support.supervised else set()
        supervised.update(*support.partial.values())
        self.free = [g[1][0] for g in groups if not g[0] and g[1][0] not in supervised]
        bound = [g for g in groups if g[0] or g[1][0] in supervised]
        k = len(task.concepts)
        self.shapes = group_shapes(task, bound)
        self.tuples = sum(tuple_count(k, shape) for shape in self.shapes)
        if budget.max_classes is not None and self.tuples > budget.max_classes:
            raise Unsuited(
                f"its label groups have {self.tuples} source tuples (more than {budget.max_classes})"
            )
        if len({len(task.concepts[t].values) for t in self.free}) > 1:
            raise Unsuited("concepts no label reads have domains of different sizes")
        # Groups with fewest tuples first: later groups choose from fewer sources.
        self.shapes.sort(key=lambda shape: tuple_count(k, shape))
        self.top_tuples = tuple_count(k, self.shapes[0]) if self.shapes else 0
        self.factor = (
            factor(self.coding, self.shapes) if factor else TupleFactor(self.coding, budget.max_models)
        )
        self.factors: dict[tuple[int, tuple[int, ...]], int] = {}
        self.memo: dict[tuple[int, int], int] = {}

    def count(self) -> tuple[int, dict[str, Any]]:
        """The exact count and what the result's details say about it."""
        total = self.rest(0, 0, top=True)
        details: dict[str, Any] = {
            "label_groups": len(self.shapes),
            "source_tuples": self.tuples,
            "factors_counted": len(self.factors),
            "nonzero_factors": sum(1 for f in self.factors.values() if f),
            "free_concepts": len(self.free),
        }
        if isinstance(self.factor, TupleFactor) and self.factor.by_sdd:
            details["factors_by_sdd"] = self.factor.by_sdd
        return total, details

    def rest(self, n: int, used: int, top: bool = False) -> int:
        """The sum over the tuples of groups n, n+1, ... from the sources not in `used` (a mask);
        after count(), read from its memo."""
        if n == len(self.shapes):
            return self._free_ways(used)
        key = (n, used)
        if key in self.memo:
            return self.memo[key]
        shape = self.shapes[n]
        sources = [s for s in range(len(self.task.concepts)) if not used >> s & 1]
        total = 0
        floor = self._identity_floor() if top and self.progress else 0
        if floor and self.progress:  # said before the first tuple, whose factor may take all the time
            self.progress.known(lower_bound=floor, tuples_done=0, tuples_total=self.top_tuples)
        for done, beta in enumerate(shape.tuples(sources), start=1):
            if top and self.progress:
                self.progress.update(
                    f"source tuples: labels {', '.join(shape.labels) or 'supervision'}, "
                    f"tuple {done} of {self.top_tuples}, at least {total} maps"
                )
            if (n, beta) not in self.factors:
                self.factors[n, beta] = self.factor(shape, beta)
            f = self.factors[n, beta]
            if f:
                total += shape.orbit * f * self.rest(n + 1, used | sum(1 << s for s in beta))
            if top and self.progress:
                lower = max(total, floor)
                self.progress.known(lower_bound=lower, tuples_done=done, tuples_total=self.top_tuples)
        self.memo[key] = total
        return total

    def _identity_floor(self) -> int:
        """At least what the identity's orbits add: the identity gives every row its labels, and so
        does each tuple a group's symmetry makes of it, with any images of the values no row shows."""
        sizes, seen = self.coding.sizes, self.coding.seen
        targets = [t for shape in self.shapes for t in shape.targets]
        unseen = math.prod(sizes[t] ** (sizes[t] - len(seen[t])) for t in targets)
        orbits = math.prod(shape.orbit for shape in self.shapes)
        return orbits * int(unseen) * self._free_ways(sum(1 << t for t in targets))

    def _free_ways(self, used: int) -> int:
        """The ways the sources left over feed the free concepts: any order, each any map."""
        left = [s for s in range(len(self.task.concepts)) if not used >> s & 1]
        if len(left) != len(self.free):
            return 0
        if not left:
            return 1
        d = len(self.task.concepts[self.free[0]].values)
        return math.factorial(len(left)) * int(math.prod(d ** self.coding.sizes[s] for s in left))
