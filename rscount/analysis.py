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


def interchangeable_blocks(task: Task) -> list[list[int]]:
    """Concepts grouped so that swapping any two in a group (they share a domain) never changes the
    labels (checked by SAT per pair) and leaves every concept-supervised vector as it is; the
    swaps generate every permutation within each group."""
    copies = Copies(task.concepts, task.labels)
    x = copies.copy()
    base = copies.labels(x)
    names = task.names

    def swappable(i: int, j: int) -> bool:
        if task.concepts[i].values != task.concepts[j].values:
            return False
        if any(r[i] != r[j] for r in task.support.supervised):
            return False
        swapped = dict(x)
        swapped[names[i]], swapped[names[j]] = x[names[j]], x[names[i]]
        return copies.witness(-copies.same_labels(base, copies.labels(swapped)), x) is None

    return _blocks(len(task.concepts), swappable)


def support_blocks(task: Task, knowledge_blocks: list[list[int]]) -> list[list[int]]:
    """Concepts grouped so that swapping two in a group maps the support onto itself, keeping every
    support label, and leaves every supervised vector as it is. For an exhaustive support that is
    a swap allowed by `knowledge_blocks` (from interchangeable_blocks, which checks supervision)."""
    support = task.support
    same_block = {i: n for n, block in enumerate(knowledge_blocks) for i in block}
    rows = None if support.exhaustive else set(support.rows)

    def swap(row: tuple, i: int, j: int) -> tuple:
        out = list(row)
        out[i], out[j] = row[j], row[i]
        return tuple(out)

    def swappable(i: int, j: int) -> bool:
        if task.concepts[i].values != task.concepts[j].values:
            return False
        if any(r[i] != r[j] for r in support.supervised):
            return False
        if rows is None:
            return same_block[i] == same_block[j]
        return all(
            r[i] == r[j] or (swap(r, i, j) in rows and task.label_of(swap(r, i, j)) == task.label_of(r))
            for r in rows
        )

    return _blocks(len(task.concepts), swappable)
