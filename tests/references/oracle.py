"""What every statement of rscount must say about a small task, derived from its optimal maps listed
by brute force (no rscount imports): the count in each mode, explain's unseen values, unidentified
concepts, summary and `involves`, check's verdict, forecast's fractions, a plan's count and whether a
cheaper one exists, and the joint reasoning shortcuts. Values are compared as values, never as their
positions in a domain, so a confusion of the two shows on words and offset integers.

A map is (pi, f): ground-truth concept i feeds predicted concept pi[i], and f[i] is the tuple of the
images (values of concept pi[i]) of concept i's values in domain order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations, permutations, product
from typing import Any

from references.bruteforce import brute_force_maps, brute_force_object_maps

Map = tuple[tuple[int, ...], tuple[tuple[Any, ...], ...]]
Row = tuple[Any, ...]


@dataclass(frozen=True)
class Problem:
    """A task as the brute force sees it: concept names and domains (values in order), the label
    function (a tuple of label values per concept vector), the support, the supervised rows, the
    partly supervised ones (row -> concept positions kept there) and, for an objects task, the
    number of objects (concepts are then object-major, `len(domains) // objects` attributes each);
    `in_place`: the concepts (objects) are not permuted, as an extractor in place learns them;
    `truths`: per concept, its ground-truth values when fewer than the classes predicted (its domain)."""

    names: tuple[str, ...]
    domains: tuple[tuple[Any, ...], ...]
    label: Callable[[Row], tuple[Any, ...]]
    support: tuple[Row, ...]
    supervised: frozenset[Row] = frozenset()
    partial: dict[Row, frozenset[int]] = field(default_factory=dict)
    objects: int | None = None
    in_place: bool = False
    truths: tuple[tuple[Any, ...], ...] | None = None

    @property
    def sources(self) -> tuple[tuple[Any, ...], ...]:
        """Per concept, the values its ground truth takes (the sources of its value map)."""
        return self.domains if self.truths is None else self.truths

    def after(self, add: Sequence[Row] = (), supervise: Sequence[Row] = (), annotate: Sequence[str] = (),
              annotate_one: Sequence[tuple[Row, str]] = ()) -> Problem:  # fmt: skip
        """The task after a plan: rows added, rows supervised, concepts annotated on every example
        (kept on every support row) or on one example."""
        support = tuple(dict.fromkeys([*self.support, *add]))
        partial = {row: set(on) for row, on in self.partial.items()}
        for row, name in annotate_one:
            partial.setdefault(row, set()).add(self.names.index(name))
        for name in annotate:
            for row in support:
                partial.setdefault(row, set()).add(self.names.index(name))
        return Problem(
            self.names,
            self.domains,
            self.label,
            support,
            self.supervised | frozenset(supervise),
            {row: frozenset(on) for row, on in partial.items()},
            self.objects,
            self.in_place,
            self.truths,
        )

    @cached_property
    def attributes(self) -> list[int]:
        """Per concept, the value map it shares: itself, or (objects) its attribute's number."""
        if self.objects is None:
            return list(range(len(self.names)))
        m = len(self.names) // self.objects
        return [i % m for i in range(len(self.names))]


class Truth:
    """The optimal maps of a Problem, listed by brute force, and what they imply."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        p = problem
        partial = {row: set(on) for row, on in p.partial.items()}
        if p.objects is None:
            found = brute_force_maps(p.domains, p.label, p.support, set(p.supervised), partial, p.in_place,
                                     p.truths)  # fmt: skip
        else:
            m = len(p.names) // p.objects
            found = brute_force_object_maps(p.objects, p.domains[:m], p.label, p.support, set(p.supervised),
                                            partial, p.in_place, p.sources[:m])  # fmt: skip
        self.maps: list[Map] = list(found)
        self.count = len(self.maps)
        self.identity: Map = (tuple(range(len(p.names))), tuple(tuple(d) for d in p.sources))

    # -- one map ------------------------------------------------------------------------------

    def predict(self, m: Map, row: Row) -> Row:
        """The predicted concept vector of a ground-truth one."""
        pi, f = m
        out: list[Any] = [None] * len(row)
        for i, value in enumerate(row):
            out[pi[i]] = f[i][self.problem.sources[i].index(value)]
        return tuple(out)

    def keeps(self, m: Map, j: int) -> bool:
        """Predicted concept j reads ground-truth j with every value unchanged."""
        pi, f = m
        return pi[j] == j and f[j] == tuple(self.problem.sources[j])

    def involves(self, m: Map) -> list[str]:
        """The predicted concepts m changes, and the ground-truth concepts they read, in order."""
        pi, _ = m
        changed: set[int] = set()
        for i, j in enumerate(pi):
            if not self.keeps(m, j):
                changed.update((i, j))
        return [n for k, n in enumerate(self.problem.names) if k in changed]

    def cost(self, m: Map) -> tuple[int, int]:
        """(predicted concepts that lose their meaning, ground-truth values predicted otherwise:
        every value of a concept that feeds another), explain's order of simplicity."""
        pi, f = m
        domains = self.problem.sources
        lost = sum(not self.keeps(m, j) for j in range(len(pi)))
        moved = sum(pi[i] != i or f[i][n] != v for i in range(len(pi)) for n, v in enumerate(domains[i]))
        return lost, moved

    # -- explain and check ---------------------------------------------------------------------

    def unseen_values(self) -> dict[str, list[Any]]:
        """Per concept, the values no support row shows (objects: on no object), when some."""
        p = self.problem
        shown: dict[int, set[Any]] = {}
        for i, a in enumerate(p.attributes):
            shown.setdefault(a, set()).update(row[i] for row in p.support)
        found = {name: [v for v in p.sources[i] if v not in shown[p.attributes[i]]] for i, name in
                 enumerate(p.names)}  # fmt: skip
        return {name: values for name, values in found.items() if values}

    def unidentified(self) -> dict[str, tuple[tuple[str, ...], bool, tuple[Any, ...]]]:
        """Per concept some optimal map does not keep: the other concepts it may read (in concept
        order), whether its values may move while it reads its own, and its values some optimal map
        predicts as another value (compared as values, whichever concept it feeds), in domain order."""
        names, domains = self.problem.names, self.problem.sources
        found = {}
        for j, name in enumerate(names):
            if all(self.keeps(m, j) for m in self.maps):
                continue
            reads = tuple(
                names[i] for i in range(len(names)) if i != j and any(m[0][i] == j for m in self.maps)
            )
            remapped = any(m[0][j] == j and not self.keeps(m, j) for m in self.maps)
            moved = tuple(v for n, v in enumerate(domains[j]) if any(m[1][j][n] != v for m in self.maps))
            found[name] = (reads, remapped, moved)
        return found

    def summary(self) -> list[dict[str, Any]]:
        """Per predicted concept, the optimal maps in which it reads itself, and keeps its meaning."""
        return [
            {
                "concept": name,
                "reads_itself": sum(m[0][j] == j for m in self.maps),
                "keeps_meaning": sum(self.keeps(m, j) for m in self.maps),
            }
            for j, name in enumerate(self.problem.names)
        ]

    def map_of_entries(self, entries: Sequence[dict[str, Any]]) -> Map:
        """A map as explain's JSON describes it: per predicted concept, the concept it reads and the
        image of each of that concept's values."""
        names, domains = self.problem.names, self.problem.sources
        pi: list[int] = [-1] * len(names)
        f: list[tuple[Any, ...]] = [()] * len(names)
        for entry in entries:
            i, j = names.index(entry["reads"]), names.index(entry["concept"])
            images = {_key(v): w for v, w in entry["values"]}
            assert sorted(images) == sorted(map(_key, domains[i])), entry
            pi[i], f[i] = j, tuple(images[_key(v)] for v in domains[i])
        return tuple(pi), tuple(f)

    # -- forecast ------------------------------------------------------------------------------

    def reads(self) -> dict[str, dict[str, Fraction]]:
        """reads[j][i]: the share of optimal maps in which predicted j reads ground-truth i."""
        names = self.problem.names
        return {
            names[j]: {
                names[i]: Fraction(sum(m[0][i] == j for m in self.maps), self.count)
                for i in range(len(names))
            }  # fmt: skip
            for j in range(len(names))
        }

    def values(self) -> dict[str, dict[str, Counter[str]]]:
        """values[i][str v][str w] * count: the optimal maps sending value v of concept i to a
        value written w (of whichever concept it feeds)."""
        p = self.problem
        return {
            name: {str(v): Counter(str(m[1][i][u]) for m in self.maps) for u, v in enumerate(p.sources[i])}
            for i, name in enumerate(p.names)
        }

    def accuracy(self, rows: Sequence[Row]) -> dict[str, Fraction]:
        """Per predicted concept, the expected share of `rows` on which it is right."""
        names = self.problem.names
        right = [0] * len(names)
        for m in self.maps:
            for row in rows:
                for j, (a, b) in enumerate(zip(self.predict(m, row), row)):
                    right[j] += a == b
        return {name: Fraction(right[j], self.count * len(rows)) for j, name in enumerate(names)}

    def label_accuracy(self, rows: Sequence[Row]) -> Fraction:
        """The expected share of `rows` whose labels an optimal map keeps."""
        label = self.problem.label
        kept = sum(label(self.predict(m, row)) == label(row) for m in self.maps for row in rows)
        return Fraction(kept, self.count * len(rows))

    # -- the joint count (eq. 7) --------------------------------------------------------------

    def joint_count(self) -> int:
        """Maps alpha: D -> D keeping the support's labels, supervised rows (and partly supervised
        concepts) fixed; chosen independently per vector."""
        p = self.problem
        space = list(product(*p.domains))
        total = len(space) ** (len(space) - len(p.support))
        for row in p.support:
            if row in p.supervised:
                continue
            on = p.partial.get(row, frozenset())
            total *= sum(p.label(c) == p.label(row) and all(c[j] == row[j] for j in on) for c in space)
        return total


def _key(value: Any) -> tuple[str, Any]:
    """A value as a sortable key that tells 1 from '1'."""
    return type(value).__name__, value


# -- joint reasoning shortcuts ------------------------------------------------------------------


def label_classes(problem: Problem) -> int:
    """The classes an inference layer chooses from: per label the values it takes on D (2 for a
    label whose values are 0 and 1 or one of them: a Boolean label), multiplied."""
    space = list(product(*problem.domains))
    labels = [problem.label(c) for c in space]
    taken = [{y[n] for y in labels} for n in range(len(labels[0]))]
    return math.prod(2 if values <= {0, 1} else len(values) for values in taken)


def jrs(problem: Problem) -> tuple[int, int, list[str]]:
    """(pairs (A, B) fitting every support label, bijective A among the fitting ones, the concepts or
    attributes some fitting A maps other than bijectively): A a permutation of objects, of attributes
    and a value map per attribute over all its values, B any label class on A's active vectors."""
    p = problem
    n = p.objects or 1
    m = len(p.names) // n
    domains = p.domains[:m]
    classes = label_classes(p)
    rows = [(row, p.label(row)) for row in p.support]
    pairs = intended = 0
    loose: set[int] = set()
    for sigma in permutations(range(n)):
        for perm in permutations(range(m)):
            for g in product(*(list(product(domains[perm[a]], repeat=len(domains[a]))) for a in range(m))):
                images = [dict(zip(domains[a], g[a])) for a in range(m)]
                seen: dict[Row, Any] = {}
                fits = True
                for row, labels in rows:
                    out: list[Any] = [None] * (n * m)
                    for o in range(n):
                        for a in range(m):
                            out[sigma[o] * m + perm[a]] = images[a][row[o * m + a]]
                    image = tuple(out)
                    moved = any(image[k] != row[k] for k in p.partial.get(row, ()))
                    if (
                        (row in p.supervised and image != row)
                        or moved
                        or seen.setdefault(image, labels) != labels
                    ):
                        fits = False
                        break
                if not fits:
                    continue
                active = math.prod(len(set(g[a])) for a in range(m)) ** n
                pairs += classes ** (active - len(seen))
                bijective = [len(set(g[a])) == len(domains[a]) == len(domains[perm[a]]) for a in range(m)]
                intended += all(bijective)
                loose.update(a for a in range(m) if not bijective[a])
    names = [name.rsplit("_", 1)[0] for name in p.names[:m]] if p.objects else list(p.names)
    return pairs, intended, [names[a] for a in sorted(loose)]


# -- advice -------------------------------------------------------------------------------------


def steps_of(problem: Problem, kinds: Sequence[str]) -> list[tuple[str, Any]]:
    """Every step a plan may take: add a missing vector, supervise a vector (present or added),
    annotate a concept everywhere, annotate a concept on one vector (present or added)."""
    p = problem
    every = list(product(*p.sources))  # ground-truth vectors
    missing = [r for r in every if r not in p.support]
    moves: list[tuple[str, Any]] = [("add", r) for r in missing]
    moves += [("supervise", r) for r in every if r not in p.supervised]
    moves += [("annotate", name) for name in p.names]
    moves += [("annotate-one", (r, name)) for r in every for name in p.names]
    return [move for move in moves if move[0] in kinds]


def after_steps(problem: Problem, chosen: Sequence[tuple[str, Any]]) -> Problem | None:
    """The task after a set of steps; None when it supervises or annotates a vector it lacks."""
    added = [r for kind, r in chosen if kind == "add"]
    present = {*problem.support, *added}
    supervised = [r for kind, r in chosen if kind == "supervise"]
    one = [what for kind, what in chosen if kind == "annotate-one"]
    if any(r not in present for r in supervised) or any(r not in present for r, _ in one):
        return None
    annotated = [c for kind, c in chosen if kind == "annotate"]
    return problem.after(added, supervised, annotated, one)


def cheaper_plan(problem: Problem, kinds: Sequence[str], costs: dict[str, int], below: int,
                 target: int) -> list[tuple[str, Any]] | None:  # fmt: skip
    """A set of steps costing less than `below` after which at most `target` maps remain, or None."""
    moves = steps_of(problem, kinds)
    cheapest = min(costs[k] for k in kinds)
    for size in range(0, (below - 1) // cheapest + 1):
        for chosen in combinations(moves, size):
            if sum(costs[kind] for kind, _ in chosen) >= below:
                continue
            after = after_steps(problem, chosen)
            if after is not None and Truth(after).count <= target:
                return list(chosen)
    return None
