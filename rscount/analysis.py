"""Properties of a task's knowledge that closed forms rest on: the sizes of its label classes and
its symmetries. Each is established by enumeration, model counting or SAT on the knowledge itself,
never assumed from a task's name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations, product
from typing import Any

from pysat.solvers import Solver
from pysdd.sdd import SddManager, Vtree

from .backends.sdd import SddAlgebra, model_count
from .circuit import FALSE, CNFBuilder, Dom, GateAlgebra, compile_expr
from .expr import Expr, call, var
from .support import all_rows, domain_size
from .task import Concept, Task

ENUMERATE_MAX = 1 << 14  # concept spaces up to this size are tabulated; larger ones model-counted
MAX_LABEL_TUPLES = 4096


class Undetermined(Exception):
    """A property that could not be established (the reason is the message)."""


def _one_hot_inputs(
    alg: GateAlgebra, concepts: Iterable[Concept], new_var: Callable[[], Any]
) -> tuple[dict[str, Dom], list[list[Any]]]:
    """Fresh inputs per concept (one variable if it has two values, else one per value) and,
    for the latter, the indicator lists that must be exactly-one."""
    inputs: dict[str, Dom] = {}
    groups = []
    for c in concepts:
        if len(c.values) == 2:
            x = new_var()
            inputs[c.name] = {c.values[0]: alg.neg(x), c.values[1]: x}
        else:
            xs = [new_var() for _ in c.values]
            inputs[c.name] = dict(zip(c.values, xs))
            groups.append(xs)
    return inputs, groups


def class_sizes(task: Task, wanted: Iterable[tuple] | None = None) -> dict[tuple, int]:
    """|E(y)| = number of concept vectors whose label tuple is y, for each y in `wanted` (None: every
    label tuple that occurs). Small concept spaces are tabulated, larger ones model-counted by SDD."""
    domains = [c.values for c in task.concepts]
    wanted = None if wanted is None else set(wanted)
    if domain_size(domains) <= ENUMERATE_MAX:
        sizes = Counter(task.label_of(row) for row in all_rows(domains))
        return {y: n for y, n in sizes.items() if wanted is None or y in wanted}
    if wanted is None:
        combos = 1
        for values in task.label_values.values():
            combos *= len(values)
        if combos > MAX_LABEL_TUPLES:
            raise Undetermined(
                f"the labels have {combos} value combinations, more than the {MAX_LABEL_TUPLES} "
                "whose classes rscount model-counts one by one"
            )
        wanted = set(product(*task.label_values.values()))
    return _sdd_class_sizes(task, wanted)


def _sdd_class_sizes(task: Task, wanted: set[tuple]) -> dict[tuple, int]:
    width = sum(1 if len(c.values) == 2 else len(c.values) for c in task.concepts)
    manager = SddManager.from_vtree(
        Vtree(var_count=width, var_order=list(range(1, width + 1)), vtree_type="balanced")
    )
    alg = SddAlgebra(manager)
    numbers = iter(range(1, width + 1))
    inputs, groups = _one_hot_inputs(alg, task.concepts, lambda: manager.literal(next(numbers)))
    base = alg.and_(
        alg.and_([alg.or_(xs), *(alg.neg(alg.and_(pair)) for pair in combinations(xs, 2))]) for xs in groups
    )
    doms = [compile_expr(alg, e, inputs, f"labels.{n}") for n, e in task.labels.items()]
    sizes = {}
    for y in wanted:
        node = alg.and_([base, *(dom.get(v, alg.false) for dom, v in zip(doms, y))])
        n = model_count(manager, node)
        if n:
            sizes[y] = n
    return sizes


class Copies:
    """Several independent copies of the concepts in one CNF, to ask a SAT solver whether concept
    vectors in some relation can get different labels (or whatever `goal` says)."""

    def __init__(self, concepts: Sequence[Concept], labels: Mapping[str, Expr]) -> None:
        self.concepts = concepts
        self.label_exprs = labels
        self.builder = CNFBuilder()

    def copy(self) -> dict[str, Dom]:
        """Fresh inputs for one concept vector."""
        b = self.builder
        inputs, groups = _one_hot_inputs(b, self.concepts, b.new_var)
        for xs in groups:
            b.clauses.append(list(xs))
            b.clauses.extend([-x, -y] for x, y in combinations(xs, 2))
        return inputs

    def labels(self, inputs: dict[str, Dom]) -> list[Dom]:
        """The Dom of every label on a copy."""
        return [compile_expr(self.builder, e, inputs, f"labels.{n}") for n, e in self.label_exprs.items()]

    def equal(self, a: Dom, b: Dom) -> int:
        """Gate: two Doms (of one value each) take the same value."""
        g = self.builder
        return g.or_(g.and_([a.get(v, FALSE), b.get(v, FALSE)]) for v in set(a) | set(b))

    def same_labels(self, a: list[Dom], b: list[Dom]) -> int:
        """Gate: every label agrees."""
        return self.builder.and_(self.equal(x, y) for x, y in zip(a, b))

    def witness(self, goal: int, *copies: dict[str, Dom]) -> list[tuple] | None:
        """The concept vectors of `copies` in a model of `goal`, or None if `goal` is unsatisfiable."""
        if goal == FALSE:
            return None
        with Solver(name="cadical153", bootstrap_with=self.builder.clauses) as solver:
            if not solver.solve(assumptions=[] if goal == -FALSE else [goal]):
                return None
            true = {lit for lit in solver.get_model() if lit > 0}

        def holds(g: int) -> bool:
            return g in true if g > 0 else -g not in true

        return [
            tuple(next(v for v, g in inputs[c.name].items() if holds(g)) for c in self.concepts)
            for inputs in copies
        ]


def symmetric_counts(task: Task) -> list[tuple]:
    """For knowledge over concepts that all have the same two values and whose labels depend only on
    how many concepts take the second value, the label tuple g[m] for m = 0..k; checked by SAT
    (invariance under a transposition and a cycle of the concepts, which generate every permutation)."""
    concepts = task.concepts
    values = concepts[0].values
    if len(values) != 2 or any(c.values != values for c in concepts):
        raise Undetermined("the concepts do not all have the same two values")
    k = len(concepts)
    names = task.names
    if k > 1:
        copies = Copies(task.concepts, task.labels)
        x = copies.copy()
        base = copies.labels(x)
        swap = [1, 0, *range(2, k)]
        cycle = [*range(1, k), 0]
        for what, order in (("swapping two concepts", swap), ("rotating the concepts", cycle)):
            moved = copies.labels({names[i]: x[names[j]] for i, j in enumerate(order)})
            found = copies.witness(-copies.same_labels(base, moved), x)
            if found is not None:
                raise Undetermined(f"the labels are not symmetric: {what} changes them at {list(found[0])}")
    return [task.label_of((values[1],) * m + (values[0],) * (k - m)) for m in range(k + 1)]


def injective_in_sum(task: Task) -> None:
    """Check (by SAT, on two copies of the concepts) that every concept value is an integer and the
    labels are an injective function of the sum of the concepts; raise Undetermined if not."""
    for c in task.concepts:
        if not all(isinstance(v, int) for v in c.values):
            raise Undetermined(f"concept {c.name} has non-integer values")
    copies = Copies(task.concepts, task.labels)
    x, y = copies.copy(), copies.copy()
    total = _sum_dom(copies.builder, task.names)
    same_sum = copies.equal(total(x), total(y))
    same_labels = copies.same_labels(copies.labels(x), copies.labels(y))
    b = copies.builder
    found = copies.witness(b.and_([same_sum, -same_labels]), x, y)
    if found is not None:
        a, c = (list(row) for row in found)
        raise Undetermined(f"the labels are not a function of the sum of the concepts ({a} and {c})")
    found = copies.witness(b.and_([-same_sum, same_labels]), x, y)
    if found is not None:
        a, c = (list(row) for row in found)
        raise Undetermined(f"the labels do not tell all sums apart ({a} and {c} get the same labels)")


def _sum_dom(b: CNFBuilder, names: list[str]) -> Callable[[dict[str, Dom]], Dom]:
    expr = call("Add", *(var(n) for n in names)) if len(names) > 1 else var(names[0])
    return lambda inputs: compile_expr(b, expr, inputs, "sum of the concepts")


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
    m = len(task.objects.attributes)
    return concept_swap(len(task.concepts), ((o * m + a, p * m + a) for a in range(m)))


def attribute_swap(task: Task, a: int, b: int) -> Swap:
    """Exchange attributes a and b (from 0) in every object."""
    m = len(task.objects.attributes)
    return concept_swap(len(task.concepts), ((o * m + a, o * m + b) for o in range(task.objects.count)))


def _same_domains(task: Task, swap: Swap) -> bool:
    return all(task.concepts[i].values == task.concepts[j].values for i, j in enumerate(swap))


def _fixes_supervision(task: Task, swap: Swap) -> bool:
    return all(r[i] == r[j] for r in task.support.supervised for i, j in enumerate(swap))


class KnowledgeSymmetry:
    """Whether a swap of concepts never changes the labels, by SAT on two copies of the knowledge
    (and leaves every concept-supervised vector as it is, so that it may act on predicted concepts)."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.copies = Copies(task.concepts, task.labels)
        self.x = self.copies.copy()
        self.base = self.copies.labels(self.x)

    def __call__(self, swap: Swap) -> bool:
        """Whether `swap` is a symmetry of the knowledge that fixes every supervised vector."""
        if not _same_domains(self.task, swap) or not _fixes_supervision(self.task, swap):
            return False
        names = self.task.names
        moved = {names[i]: self.x[names[j]] for i, j in enumerate(swap)}
        changed = -self.copies.same_labels(self.base, self.copies.labels(moved))
        return self.copies.witness(changed, self.x) is None


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
    if task.support.exhaustive:
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
    n, m = task.objects.count, len(task.objects.attributes)
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
    for what, swap in (("objects", object_swap), ("attributes", attribute_swap)):
        size = n if what == "objects" else m
        if task.support.exhaustive:
            same = {i: b for b, block in enumerate(blocks[f"knowledge {what}"]) for i in block}
            blocks[f"support {what}"] = _blocks(size, lambda i, j, same=same: same[i] == same[j])
        else:
            blocks[f"support {what}"] = _blocks(
                size, lambda i, j, swap=swap: support_symmetry(task, swap(task, i, j))
            )
    return blocks
