"""The optimal maps (pi, f) of a task one by one: every map (small counts) and exact uniform samples.

They come from the decomposition the exact counter uses (rscount.counting.engines.class_search): one
concept permutation per symmetry class, SAT-pruned, with an SDD of its valid value maps over binary codes.
A class is the orbit of its representative `rep` under the support's symmetries h_in (of ground-truth
concepts) and the knowledge's h_out (of predicted concepts), rscount.knowledge.symmetry_groups;
(rep, f) becomes pi'[i] = h_out[rep[h_in[i]]], f'_i = f_{h_in[i]}, a bijection between the valid
value maps of rep and of pi' (both permutations are symmetries of the task).

Uniform sampling: pick a class with probability proportional to its number of maps, a uniformly
random (h_in, h_out) (uniform on the orbit, by orbit-stabilizer), and a uniform model of the
class's SDD by a top-down walk that picks each element (prime, sub) with probability proportional
to models(prime) * models(sub), in exact integers; values no support row shows map uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from pysdd.sdd import SddManager, SddNode, Vtree

from ..counting.budget import Budget
from ..counting.engines.class_search.search import all_classes
from ..counting.engines.value_maps import ValueMapSdds
from ..counting.methods.search import SearchedMaps
from ..counting.problem import CountProblem
from ..counting.result import CountedClasses
from ..encoding.value_codes import ValueMapCoding
from ..errors import InternalError, NotApplicable
from ..knowledge.sdd import Circuit, scaled
from ..knowledge.symmetry_groups import ConceptGroup, symmetry_groups
from ..progress import Progress
from ..task.model import Mode, Task


@dataclass(frozen=True)
class ConceptMap:
    """A map (pi, f): ground-truth concept i feeds predicted concept pi[i], and its value number v
    becomes value number f[i][v] of concept pi[i]."""

    pi: tuple[int, ...]
    f: tuple[tuple[int, ...], ...]

    def source(self, j: int) -> int:
        """The ground-truth concept that predicted concept j reads."""
        return self.pi.index(j)

    def keeps_meaning(self, j: int) -> bool:
        """Whether predicted concept j reads its own ground-truth concept with every value unchanged."""
        return self.pi[j] == j and all(u == v for v, u in enumerate(self.f[j]))

    def predict(self, task: Task, row: Sequence[Any]) -> tuple[Any, ...]:
        """The predicted concept vector of a ground-truth one."""
        out: list[Any] = [None] * len(row)
        for i, (concept, value) in enumerate(zip(task.concepts, row)):
            out[self.pi[i]] = task.concepts[self.pi[i]].values[self.f[i][concept.index[value]]]
        return tuple(out)

    def moved(self, h_in: Sequence[int], h_out: Sequence[int]) -> ConceptMap:
        """The map h_out . self . h_in (h_in permutes ground-truth concepts, h_out predicted ones)."""
        return ConceptMap(
            tuple(h_out[self.pi[h_in[i]]] for i in range(len(self.pi))),
            tuple(self.f[h_in[i]] for i in range(len(self.pi))),
        )


def identity_map(task: Task) -> ConceptMap:
    """The intended map: every concept reads itself, every value unchanged."""
    k = len(task.concepts)
    return ConceptMap(tuple(range(k)), tuple(tuple(range(len(truth))) for truth in task.ground_truths))


def violation(task: Task, m: ConceptMap) -> str | None:
    """Why `m` is not optimal, found by evaluating the knowledge on every support row and its image
    (all rows at once, as the labels are tabulated; None: it is optimal)."""
    rows = task.support.rows
    images = [m.predict(task, row) for row in rows]
    for row, predicted in zip(rows, images):
        moved = [task.names[k] for k in sorted(task.support.supervised_on(row)) if predicted[k] != row[k]]
        if moved:
            return f"supervised row {list(row)} becomes {list(predicted)} ({', '.join(moved)} supervised)"
    for row, predicted, want, got in zip(rows, images, task.labels_of(rows), task.labels_of(images)):
        if got != want:
            return f"row {list(row)} has labels {want}, its image {list(predicted)} other ones"
    return None


class SddModels:
    """The models of an SDD over all variables of its manager: their number, uniform samples, and
    all of them. The manager must not be minimised while this is in use (node ids and vtrees)."""

    def __init__(self, manager: SddManager, root: SddNode) -> None:
        self.manager = manager
        self.root = root
        circuit = Circuit(manager, root)
        self._counts = dict(zip(circuit.ids, circuit.values()))
        self.count = scaled(root, manager.var_count(), self._counts)
        self._vars: dict[int, list[int]] = {}

    def sample(self, rng: random.Random) -> dict[int, bool]:
        """A model drawn uniformly at random (variable -> value)."""
        model: dict[int, bool] = {}
        self._sample(self.root, self.manager.vtree(), rng, model)
        return model

    def models(self) -> Iterator[dict[int, bool]]:
        """Every model once, in a fixed order."""
        return self._models(self.root, self.manager.vtree())

    def _vtree_vars(self, vtree: Vtree) -> list[int]:
        key = vtree.position()
        if key not in self._vars:
            if vtree.is_leaf():
                self._vars[key] = [vtree.var()]
            else:
                self._vars[key] = self._vtree_vars(vtree.left()) + self._vtree_vars(vtree.right())
        return self._vars[key]

    def _outside(self, node: SddNode, vtree: Vtree) -> list[int]:
        """Variables of `vtree` that `node` (normalised for `vtree` or a sub-vtree) leaves free."""
        if node.is_true():
            return self._vtree_vars(vtree)
        inner = node.vtree()
        if inner.position() == vtree.position():
            return []
        mentioned = set(self._vtree_vars(inner))
        return [v for v in self._vtree_vars(vtree) if v not in mentioned]

    def _sample(self, node: SddNode, vtree: Vtree, rng: random.Random, out: dict[int, bool]) -> None:
        for v in self._outside(node, vtree):
            out[v] = bool(rng.getrandbits(1))
        if node.is_true():
            return
        if node.is_literal():
            out[abs(node.literal)] = node.literal > 0
            return
        left, right = node.vtree().left(), node.vtree().right()
        width_l, width_r = left.var_count(), right.var_count()
        elements = list(node.elements())
        weights = [scaled(p, width_l, self._counts) * scaled(s, width_r, self._counts) for p, s in elements]
        pick = rng.randrange(sum(weights))
        for (prime, sub), weight in zip(elements, weights):
            if pick < weight:
                self._sample(prime, left, rng, out)
                self._sample(sub, right, rng, out)
                return
            pick -= weight

    def _models(self, node: SddNode, vtree: Vtree) -> Iterator[dict[int, bool]]:
        if node.is_false():
            return
        free = self._outside(node, vtree)
        if node.is_true():
            inner: Iterator[dict[int, bool]] = iter([{}])
        elif node.is_literal():
            inner = iter([{abs(node.literal): node.literal > 0}])
        else:
            left, right = node.vtree().left(), node.vtree().right()
            inner = (
                {**a, **b}
                for prime, sub in node.elements()
                if not sub.is_false()  # else the prime's models (maybe very many) lead nowhere
                for a in self._models(prime, left)
                for b in self._models(sub, right)
            )
        for model in inner:
            for bits in product((False, True), repeat=len(free)):
                yield {**model, **dict(zip(free, bits))}


@dataclass
class _Class:
    """A permutation class with optimal maps: representative, size, its value maps."""

    rep: tuple[int, ...]
    size: int
    models: SddModels
    per_permutation: int  # optimal maps with each permutation of the class


class MapSpace:
    """The optimal maps of a task (disentangled or objects mode): their exact number, all of them
    in a fixed order, and uniform samples."""

    def __init__(self, task: Task, mode: Mode | None = None, progress: Progress | None = None) -> None:
        mode = mode or task.mode
        if mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise NotApplicable(f"maps (pi, f) are counted in the disentangled and objects modes, not {mode}")
        self.task = task
        classes, blocks = all_classes(CountProblem(task, mode, progress), progress)
        self.inputs, self.outputs = symmetry_groups(task, mode, blocks)
        self.coding = ValueMapCoding(task, shared=mode == Mode.OBJECTS)
        sdds = ValueMapSdds(self.coding)
        self.classes: list[_Class] = []
        for number, (rep, size) in enumerate(classes, start=1):
            if progress:
                progress.update(f"value maps of permutation class {number}/{len(classes)}")
            root = sdds.compile(rep)  # referenced for as long as this object lives
            models = SddModels(sdds.manager, root)
            if models.count:
                self.classes.append(_Class(rep, size, models, models.count * self.coding.unseen_factor(rep)))
            else:
                root.deref()
            sdds.manager.garbage_collect()
        self.count = sum(c.size * c.per_permutation for c in self.classes)
        self._unseen = unseen_slots(self.coding)

    def sample(self, rng: random.Random) -> ConceptMap:
        """One optimal map drawn uniformly at random."""
        pick = rng.randrange(self.count)
        for part in self.classes:
            weight = part.size * part.per_permutation
            if pick < weight:
                break
            pick -= weight
        unseen = {(o, v): rng.randrange(self.coding.sizes[part.rep[o]]) for o, v in self._unseen}
        m = concept_map(self.coding, part.rep, {**self._images(part.models.sample(rng)), **unseen})
        return m.moved(self.inputs.random(rng), self.outputs.random(rng))

    def maps(self) -> Iterator[ConceptMap]:
        """Every optimal map once, in a fixed order (for small counts: this is enumeration)."""
        for part in self.classes:
            moves = class_moves(part.rep, part.size, self.inputs, self.outputs)
            for model in part.models.models():
                yield from _members(self.coding, part.rep, self._images(model), moves)

    def _images(self, model: dict[int, bool]) -> dict[tuple[int, int], int]:
        """The images of the seen values (owner, value number) in a model of their codes."""
        return {
            slot: sum(model[x] << b for b, x in enumerate(bits)) for slot, bits in self.coding.var.items()
        }


def concept_map(
    coding: ValueMapCoding, pi: tuple[int, ...], images: dict[tuple[int, int], int]
) -> ConceptMap:
    """The map with permutation pi whose value maps send (owner, value number) to `images`."""
    f = tuple(tuple(images[coding.owner[i], v] for v in range(size)) for i, size in enumerate(coding.sources))
    return ConceptMap(pi, f)


def unseen_slots(coding: ValueMapCoding) -> list[tuple[int, int]]:
    """The (owner, value number) pairs no support row shows: each maps anywhere."""
    owners = sorted(set(coding.owner))
    return [(o, v) for o in owners for v in range(coding.sources[o]) if v not in coding.seen[o]]


def _members(
    coding: ValueMapCoding,
    rep: tuple[int, ...],
    seen: dict[tuple[int, int], int],
    moves: list[tuple[tuple[int, ...], tuple[int, ...]]],
) -> Iterator[ConceptMap]:
    """Every map of a class whose representative's seen values go to `seen`: each choice of the
    unseen values' images, moved by each of the class's `moves`."""
    unseen = unseen_slots(coding)
    for images in product(*(range(coding.sizes[rep[o]]) for o, _ in unseen)):
        m = concept_map(coding, rep, {**seen, **dict(zip(unseen, images))})
        for h_in, h_out in moves:
            yield m.moved(h_in, h_out)


def class_moves(
    rep: tuple[int, ...], size: int, inputs: ConceptGroup, outputs: ConceptGroup
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(h_in, h_out) pairs taking a class representative to each of the `size` permutations of its
    class (h_out rep h_in) once, found by walking the groups' generators."""
    k = len(rep)
    identity = tuple(range(k))
    in_steps, out_steps = inputs.generators(), outputs.generators()
    found = {rep: (identity, identity)}
    frontier = [(identity, identity)]
    while frontier:
        h_in, h_out = frontier.pop()
        steps = [(tuple(h_in[g[i]] for i in range(k)), h_out) for g in in_steps]
        steps += [(h_in, tuple(g[h_out[i]] for i in range(k))) for g in out_steps]
        for step in steps:
            pi = tuple(step[1][rep[step[0][i]]] for i in range(k))
            if pi not in found:
                found[pi] = step
                frontier.append(step)
    if len(found) != size:
        raise InternalError(f"permutation class of {rep}: {len(found)} permutations, expected {size}")
    return list(found.values())


def searched_maps(
    task: Task, mode: Mode, max_nodes: int, classes: CountedClasses | None = None
) -> list[ConceptMap]:
    """Every optimal map, from the search method's counts with values pinned (its classes, or
    `classes` kept by a count, each class's value maps found value by value, moved over the
    class); past `max_nodes` search nodes, TooManyNodes. For small counts: this lists them. A
    class a count says has one map per member, which keeps every value, needs no pinned count."""
    kept = None if classes is None else [(pi, size) for pi, size, _ in classes]
    single = {pi for pi, _, per_member in classes or [] if per_member == 1}
    searched = SearchedMaps(CountProblem(task, mode), Budget(max_nodes=max_nodes), kept)
    inputs, outputs = symmetry_groups(task, mode, searched.blocks)
    maps: list[ConceptMap] = []
    for rep, size in searched.classes:
        moves = class_moves(rep, size, inputs, outputs)
        kept_values = _keeping_values(task, searched.coding, rep) if rep in single else None
        for seen in [kept_values] if kept_values is not None else searched.value_maps(rep):
            maps.extend(_members(searched.coding, rep, seen, moves))
    return maps


def _keeping_values(
    task: Task, coding: ValueMapCoding, rep: tuple[int, ...]
) -> dict[tuple[int, int], int] | None:
    """The images of the seen values of the map with permutation `rep` that keeps every value,
    when that map is optimal (evaluated on the support; None otherwise)."""
    if unseen_slots(coding) or any(v >= coding.sizes[rep[o]] for o, v in coding.var):
        return None
    images = {slot: slot[1] for slot in coding.var}
    return images if violation(task, concept_map(coding, rep, images)) is None else None
