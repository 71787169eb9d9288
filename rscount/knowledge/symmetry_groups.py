"""Permutation groups of concepts built from symmetry blocks: the groups H_in (of ground-truth
concepts) and H_out (of predicted concepts) whose double classes H_out pi H_in the exact count
sums over, with generators (to walk a class) and uniform random elements (to sample one)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ..task.model import Mode, Task
from .symmetry import (
    concept_swap,
    interchangeable_blocks,
    interchangeable_families,
    object_blocks,
    support_blocks,
)

Blocks = dict[str, list[list[int]]]


@dataclasses.dataclass(frozen=True)
class BlockGroup:
    """The permutations of n items (perm[i] = image of i) that permute each block and exchange the
    blocks of each family (block numbers) as wholes, element by element in block order."""

    n: int
    blocks: list[list[int]]
    families: list[list[int]]

    def generators(self) -> list[tuple[int, ...]]:
        """Swaps of neighbours within each block, and exchanges of neighbouring blocks of a family."""
        pairs = [[(b[t], b[t + 1])] for b in self.blocks for t in range(len(b) - 1)]
        for family in self.families:
            for b, c in zip(family, family[1:]):
                pairs.append(list(zip(self.blocks[b], self.blocks[c])))
        return [tuple(concept_swap(self.n, swaps)) for swaps in pairs]

    def random(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random element: a random exchange of family blocks after random permutations
        within blocks (every element is one such pair, exactly once)."""
        within = list(range(self.n))
        for block in self.blocks:
            for i, j in zip(block, rng.sample(block, len(block))):
                within[i] = j
        exchange = list(range(self.n))
        for family in self.families:
            for b, c in zip(family, rng.sample(family, len(family))):
                for i, j in zip(self.blocks[b], self.blocks[c]):
                    exchange[i] = j
        return tuple(exchange[within[i]] for i in range(self.n))


@dataclasses.dataclass(frozen=True)
class ConceptGroup:
    """Concept permutations made of an object permutation and an attribute permutation (concepts
    object-major); the disentangled mode is one object whose attributes are the concepts."""

    objects: BlockGroup
    attributes: BlockGroup

    def lift(self, objects: Sequence[int], attributes: Sequence[int]) -> tuple[int, ...]:
        """The concept permutation (o, a) -> (objects[o], attributes[a])."""
        m = self.attributes.n
        return tuple(objects[o] * m + attributes[a] for o in range(self.objects.n) for a in range(m))

    def generators(self) -> list[tuple[int, ...]]:
        """Generators of the group, as concept permutations."""
        same_objects, same_attributes = range(self.objects.n), range(self.attributes.n)
        return [self.lift(g, same_attributes) for g in self.objects.generators()] + [
            self.lift(same_objects, g) for g in self.attributes.generators()
        ]

    def random(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random element, as a concept permutation."""
        return self.lift(self.objects.random(rng), self.attributes.random(rng))

    def orbits(self) -> list[list[int]]:
        """Per concept x, the concepts h[x] over the group, sorted; a uniformly random h sends x to
        each of them with the same probability (orbit-stabilizer)."""
        k = self.objects.n * self.attributes.n
        parent = list(range(k))

        def root(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for g in self.generators():
            for x in range(k):
                parent[root(x)] = root(g[x])
        members: dict[int, list[int]] = {}
        for x in range(k):
            members.setdefault(root(x), []).append(x)
        return [members[root(x)] for x in range(k)]


def symmetry_groups(task: Task, mode: Mode, blocks: Blocks) -> tuple[ConceptGroup, ConceptGroup]:
    """(H_in, H_out) as `plan` used them (its `blocks`): the class of pi is {h_out pi h_in}."""
    if mode == Mode.OBJECTS:
        n, m = task.object_spec().count, len(task.object_spec().attributes)
        h_in = ConceptGroup(
            BlockGroup(n, blocks["support objects"], []), BlockGroup(m, blocks["support attributes"], [])
        )
        h_out = ConceptGroup(
            BlockGroup(n, blocks["knowledge objects"], blocks["knowledge object families"]),
            BlockGroup(m, blocks["knowledge attributes"], blocks["knowledge attribute families"]),
        )
        return h_in, h_out
    k = len(task.concepts)
    one = BlockGroup(1, [[0]], [])
    return (
        ConceptGroup(one, BlockGroup(k, blocks["support"], [])),
        ConceptGroup(one, BlockGroup(k, blocks["knowledge"], blocks["knowledge families"])),
    )


def usable_families(inputs: list[list[int]], families: list[list[int]]) -> list[list[int]]:
    """The families `classes` may use: all of them when the input blocks are singletons, else none."""
    return families if all(len(block) == 1 for block in inputs) else []


def class_blocks(task: Task, mode: Mode) -> Blocks:
    """The symmetry blocks whose double classes the exact counts walk (the support's, the
    knowledge's, and the families of knowledge blocks exchanged as wholes), keyed as
    symmetry_groups reads them. An extractor in place fixes the concept (object) permutation to the
    identity, whose double class is not the identity alone: that side has no symmetry."""
    if mode == Mode.OBJECTS:
        blocks = object_blocks(task)
        if task.in_place:
            n = task.object_spec().count
            blocks.update(_fixed(n, "support objects", "knowledge objects", "knowledge object families"))
        for what in ("object", "attribute"):
            key = f"knowledge {what} families"
            blocks[key] = usable_families(blocks[f"support {what}s"], blocks[key])
        return blocks
    if task.in_place:
        return _fixed(len(task.concepts), "support", "knowledge", "knowledge families")
    outputs = interchangeable_blocks(task)
    inputs = support_blocks(task, outputs)
    single = all(len(block) == 1 for block in inputs)  # else no family is used: none is looked for
    families = interchangeable_families(task, outputs) if single else []
    return {"support": inputs, "knowledge": outputs, "knowledge families": families}


def _fixed(n: int, support: str, knowledge: str, families: str) -> Blocks:
    """The blocks of a side whose permutation is the identity: n singletons, no family."""
    singletons = [[x] for x in range(n)]
    return {support: singletons, knowledge: [list(b) for b in singletons], families: []}
