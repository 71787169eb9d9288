"""Compile a task to CNF whose models are exactly the optimal concept maps (pi, f): the disentangled
count (rsbench countrss) and the objects count.

Variables: P[i][j] (ground-truth concept i feeds predicted concept j; a permutation) and F[i][v]
(the value f_i(v) in the domain of the concept i feeds: one variable when every domain is binary,
else one-hot over positions). Per unsupervised example, X variables give the predicted concept
values through a multiplexer on P, and the knowledge is compiled on them and pinned to the label.
All auxiliaries are functionally determined by P and F, which form the projection set. In the
objects count, P[i][j] is the gate V[a_i][a_j] & R[o_i][o_j] of a permutation R of objects and V
of attributes, and every object shares one value map per attribute. An extractor in place fixes P
(in the objects mode R) to the identity by unit clauses; a predicted class that is no ground-truth
value (`predicts:`) maps nowhere, so its F variables are fixed to value number 0 by unit clauses.

When all domains have the same size b, a value v of concept i that no support row shows is only
constrained by "f_i(v) is one of the b values", whatever pi is: it multiplies the count by b.
Those F variables and their clauses go last in the CNF (so the emitted DIMACS stays complete) and
backends count only the leading core, times `factor`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import NotApplicable
from ..knowledge.circuit import FALSE, CNFBuilder, Dom, Shared, compile_expr, exactly_one
from ..limits import number_text
from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import Row
from ..version import __version__
from .inputs import example_inputs
from .model import Encoding
from .pool import MapPool

MAX_EXAMPLES = 100_000


@dataclass
class _Maps:
    """The map variables of one encoding: P (literals or gates), F per concept, the permutations
    whose rows and columns are exactly-one (P itself, or R and V), and the unseen-value variables."""

    p: list[list[int]]
    f: list[list[list[int]]]
    permutations: list[list[list[int]]]
    unseen: set[int] = field(default_factory=set)


def encode_maps(task: Task, progress: Progress | None = None, objects: bool = False) -> Encoding:
    """The CNF of the disentangled count of `task`, or with `objects` of its objects count."""
    if task.support.size > MAX_EXAMPLES:
        raise NotApplicable(
            f"{task.name}: the support has {number_text(task.support.size)} concept vectors, more than the "
            f"{MAX_EXAMPLES} rscount encodes one by one; sample it",
            ("fraction", "examples"),
        )
    b, pool, maps, unseen_clauses = _variables(task, objects)
    examples = _example_constraints(b, task, maps, progress)
    return _assembled(task, pool, maps, unseen_clauses, examples, objects)


@dataclass
class LazyMaps:
    """A task's CNF with its map variables and domain constraints but no row yet (`encoding`), and
    its rows added on demand (`add`): questions that check a candidate map against every row (which
    evaluating the knowledge does at once) encode only the rows candidates break."""

    encoding: Encoding
    rows: RowEncoder

    def add(self, row: Row) -> list[list[int]]:
        """The clauses (new variables included) of `row`'s constraint, added to the builder."""
        clauses = self.rows.builder.clauses
        first = len(clauses)
        self.rows.add(row)
        return clauses[first:]

    def new_var(self) -> int:
        """A variable of no clause yet, numbered after every row's (a question's selector)."""
        return self.rows.builder.new_var()


def lazy_maps(task: Task, objects: bool = False) -> LazyMaps:
    """The CNF of encode_maps without its rows, and the means to add them one by one."""
    b, pool, maps, unseen_clauses = _variables(task, objects)
    encoding = _assembled(task, pool, maps, unseen_clauses, [], objects)
    return LazyMaps(encoding, RowEncoder(b, task, maps))


def _variables(task: Task, objects: bool) -> tuple[CNFBuilder, MapPool, _Maps, list[list[int]]]:
    """The builder, the map variables with their domain constraints, and the unseen values' clauses."""
    b = CNFBuilder()
    pool = MapPool(b)
    sizes = [len(c.values) for c in task.concepts]
    binary = all(s == 2 for s in sizes)
    uniform = len(set(sizes)) == 1 and not objects
    maps = _object_maps(pool, task, binary) if objects else _concept_maps(pool, task, binary, uniform)
    return b, pool, maps, _domain_constraints(b, task, maps, objects, binary)


def _assembled(
    task: Task,
    pool: MapPool,
    maps: _Maps,
    unseen_clauses: list[list[int]],
    examples: list[tuple[int, int, int, int]],
    objects: bool,
) -> Encoding:
    """The Encoding of the builder's clauses so far, the unseen values' after them."""
    b = pool.builder
    mode = Mode.OBJECTS if objects else Mode.DISENTANGLED
    supervised = len(task.support.supervised) + len(task.support.partial)
    comments = [
        f"rscount {__version__}: optimal concept maps of task {task.name!r} ({mode} count)",
        f"concepts: {', '.join(task.names)}",
        f"support: {number_text(task.support.size)} concept vectors, {supervised} concept-supervised",
        "models projected on the P/F variables = optimal concept maps (pi, f);",
        "P a -> b: predicted concept b reads ground-truth concept a;",
        "F a=v -> #u: ground-truth value v of a becomes value number u (from 0) of the concept a feeds",
    ]
    core_size = len(b.clauses)
    cnf = pool.dimacs(b.clauses + unseen_clauses, comments)
    core_projection = [v for v in cnf.projection or [] if v not in maps.unseen]
    sizes = [len(c.values) for c in task.concepts]
    uniform = len(set(sizes)) == 1 and not objects
    seen = _seen_values(task)
    unseen_values = sum(len(d) - len(s) for d, s in zip(task.ground_truths, seen)) if uniform else 0
    factor = max(sizes) ** unseen_values
    object_maps = maps.permutations if objects else []
    return Encoding(
        task, cnf, maps.p, maps.f, examples, core_size, core_projection, factor, mode, object_maps
    )


def _seen_values(task: Task) -> list[set[object]]:
    """Per concept, the values some support row shows."""
    seen: list[set[object]] = [set() for _ in task.concepts]
    for row in task.support.rows:
        for i, value in enumerate(row):
            seen[i].add(value)
    return seen


def _concept_maps(pool: MapPool, task: Task, binary: bool, uniform: bool) -> _Maps:
    """P and F of the disentangled count; with `uniform` domain sizes, the F variables of values no
    support row shows are recorded as unseen (their constraints go after the core)."""
    names = task.names
    width = max(len(c.values) for c in task.concepts)
    p = pool.matrix("P", names, names)
    maps = _Maps(p, [], [p])
    for c, truth, seen in zip(task.concepts, task.ground_truths, _seen_values(task)):
        maps.f.append([pool.value_map(f"{c.name}={value}", binary, width) for value in c.values])
        for value, lits in zip(truth, maps.f[-1]):
            if uniform and value not in seen:
                maps.unseen.update(abs(x) for x in lits)
    return maps


def _object_maps(pool: MapPool, task: Task, binary: bool) -> _Maps:
    """R (objects), V (attributes) and F per attribute value of the objects count; P as gates and
    F per concept (shared by the objects)."""
    spec = task.objects
    if spec is None:
        raise NotApplicable(f"{task.name}: the objects mode needs a task with an 'objects:' section")
    n, attrs = spec.count, spec.attributes
    objects = [f"object {o}" for o in range(1, n + 1)]
    r = pool.matrix("R", objects, objects)
    attribute_names = [name for name, _ in attrs]
    v = pool.matrix("V", attribute_names, attribute_names)
    width = max(len(values) for _, values in attrs)
    shared = [
        [pool.value_map(f"{name}={value}", binary, width) for value in values] for name, values in attrs
    ]
    m = len(attrs)
    k = n * m
    b = pool.builder
    p = [[b.and_([v[i % m][j % m], r[i // m][j // m]]) for j in range(k)] for i in range(k)]
    return _Maps(p, [shared[i % m] for i in range(k)], [r, v])


def _domain_constraints(
    b: CNFBuilder, task: Task, maps: _Maps, objects: bool, binary: bool
) -> list[list[int]]:
    """Permutations are permutations; value maps stay in the domain of the concept they feed
    (objects: once per shared attribute map). Returns the clauses of unseen values, kept apart."""
    unseen_clauses: list[list[int]] = []
    for perm in maps.permutations:
        for i, row in enumerate(perm):
            b.clauses.extend(exactly_one(row))
            b.clauses.extend(exactly_one([r[i] for r in perm]))
    if task.in_place:  # the concepts' (objects') permutation is the identity
        b.clauses.extend([row[i]] for i, row in enumerate(maps.permutations[0]))
    sizes = [len(c.values) for c in task.concepts]
    owners = len(task.objects.attributes) if objects and task.objects else len(sizes)
    for i in range(owners):  # a predicted class no ground truth takes is the source of no map
        b.clauses.extend([lits[0]] for lits in maps.f[i][len(task.ground_truths[i]) :])
    if binary:
        return unseen_clauses
    for i in range(owners):
        for lits in maps.f[i]:
            if abs(lits[0]) in maps.unseen:  # uniform sizes: exactly one of the width values
                unseen_clauses.extend(exactly_one(lits))
                continue
            b.clauses.extend(exactly_one(lits)[1:])
            for j in range(len(sizes)):
                b.clauses.append([-maps.p[i][j], *lits[: sizes[j]]])
                b.clauses.extend([-maps.p[i][j], -x] for x in lits[sizes[j] :])
    return unseen_clauses


def _mux(b: CNFBuilder, p_col: list[int], f_lits: list[int]) -> int:
    """A fresh x with x = F[i] for the one i with P[i][j] (P a permutation, so x is determined)."""
    x = b.new_var()
    for p_ij, lit in zip(p_col, f_lits):
        b.clauses.append([-p_ij, -lit, x])
        b.clauses.append([-p_ij, lit, -x])
    return x


@dataclass
class RowEncoder:
    """Adds one support row's constraint on the map variables to a builder: a supervised row (or
    part of one) is mapped to itself, any other row's image keeps the row's labels."""

    builder: CNFBuilder
    task: Task
    maps: _Maps

    def __post_init__(self) -> None:
        k = len(self.task.concepts)
        self.p_cols = [[self.maps.p[i][j] for i in range(k)] for j in range(k)]
        self.labels = self.task.shared_labels
        self.tables = Shared(gates=False)  # operators' tables, computed once for every row (a row's
        # gates are its own: a lazy row may join the CNF under a guard)

    def add(self, row: Row) -> tuple[int, int, int, int] | None:
        """Encode `row`; its label clause range and auxiliary variable range (Encoding.examples),
        None for a row supervised whole (its constraint is only on F)."""
        b, concepts, p, f = self.builder, self.task.concepts, self.maps.p, self.maps.f
        k = len(concepts)
        idx = [c.index[v] for c, v in zip(concepts, row)]
        for j in self.task.support.supervised_on(row):  # predicted j equals the row's j
            for i in range(k):
                b.clauses.append([-p[i][j], f[i][idx[i]][idx[j]]])
        if row in self.task.support.supervised:
            return None
        b.new_scope()
        clause_lo, var_lo = len(b.clauses), b.num_vars + 1

        def select(j: int, u: int) -> int:
            return _mux(b, self.p_cols[j], [f[i][idx[i]][u] for i in range(k)])

        inputs = example_inputs(b, concepts, select)
        memo: dict[int, Dom] = {}
        for (label, expr), value in zip(self.labels.items(), self.task.label_of(row)):
            dom = compile_expr(b, expr, inputs, f"labels.{label}", memo, self.tables)
            b.add([dom.get(value, FALSE)])
        return clause_lo, len(b.clauses), var_lo, b.num_vars + 1


def _example_constraints(
    b: CNFBuilder, task: Task, maps: _Maps, progress: Progress | None
) -> list[tuple[int, int, int, int]]:
    """Every support row's constraint (RowEncoder); returns each row's label clause range and
    auxiliary variable range (see Encoding.examples), rows supervised whole excepted."""
    rows = RowEncoder(b, task, maps)
    examples: list[tuple[int, int, int, int]] = []
    for n, row in enumerate(task.support.rows):
        if progress:
            progress.update(f"encoding example {n + 1}/{len(task.support.rows)}")
        example = rows.add(row)
        if example is not None:
            examples.append(example)
    return examples
