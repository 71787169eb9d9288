"""Compile a task to CNF whose models are exactly the optimal concept maps (pi, f).

Variables: P[i][j] (ground-truth concept i feeds predicted concept j; a permutation) and F[i][v]
(the value f_i(v) in the domain of the concept i feeds: one variable when every domain is binary,
else one-hot over positions). Per unsupervised example, X variables give the predicted concept
values through a multiplexer on P, and the knowledge is compiled on them and pinned to the label.
All auxiliaries are functionally determined by P and F, which form the projection set.

When all domains have the same size b, a value v of concept i that no support row shows is only
constrained by "f_i(v) is one of the b values", whatever pi is: it multiplies the count by b.
Those F variables and their clauses go last in the CNF (so the emitted DIMACS stays complete) and
backends count only the leading core, times `factor`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Any

from . import __version__
from .circuit import FALSE, CNFBuilder, Dom, GateAlgebra, compile_expr
from .dimacs import Dimacs
from .errors import RscountError
from .progress import Progress
from .task import Concept, Task


@dataclass
class Encoding:
    """The CNF of a task plus the map variables (projection) and what each means.

    `examples` holds, per unsupervised example, its clause range and the range of the auxiliary
    variables created for it (clauses lo..hi-1, variables lo..hi-1), so backends can treat each
    example's constraint on the map variables as a unit.
    """

    task: Task
    cnf: Dimacs
    p_vars: list[list[int]]
    f_lits: list[list[list[int]]]
    examples: list[tuple[int, int, int, int]]
    core_size: int
    core_projection: list[int]
    unseen_factor: int
    mode: str = "disentangled"
    object_maps: list[list[list[int]]] = field(default_factory=list)  # objects mode: [R, V]

    @property
    def projection(self) -> list[int]:
        """The map variables: counting projected on these counts the optimal maps."""
        return self.cnf.projection or []

    @cached_property
    def counting_view(self) -> tuple[list[list[int]], list[int], int]:
        """(core clauses, map variables occurring in them, factor): count = projected count * factor.
        Computed once per encoding (auto's enumeration probe and the chosen backend share it).

        The factor covers unseen values and map variables in no core clause (each free, so x2);
        solvers drop variables that occur in no clause, so they must not be asked to count them.
        """
        clauses = self.cnf.clauses[: self.core_size]
        used = {abs(lit) for clause in clauses for lit in clause}
        constrained = [v for v in self.core_projection if v in used]
        free = len(self.core_projection) - len(constrained)
        return clauses, constrained, self.unseen_factor * 2**free


def exactly_one_into(clauses: list[list[int]], lits: list[int]) -> None:
    """Pairwise exactly-one clauses over `lits`."""
    clauses.append(list(lits))
    clauses.extend([-a, -b] for a, b in combinations(lits, 2))


def example_inputs(
    alg: GateAlgebra, concepts: Sequence[Concept], select: Callable[[int, int], Any]
) -> dict[str, Dom]:
    """The Dom of each predicted concept on one example: `select(j, u)` is the gate of "predicted
    concept j takes value number u" (for two-valued concepts only u = 1 is asked)."""
    inputs: dict[str, Dom] = {}
    for j, cj in enumerate(concepts):
        if len(cj.values) == 2:
            x = select(j, 1)
            inputs[cj.name] = {cj.values[0]: alg.neg(x), cj.values[1]: x}
        else:
            inputs[cj.name] = {v: select(j, u) for u, v in enumerate(cj.values)}
    return inputs


def _mux(b: CNFBuilder, p_col: list[int], f_lits: list[int]) -> int:
    """A fresh x with x = F[i] for the one i with P[i][j] (P a permutation, so x is determined)."""
    x = b.new_var()
    for p_ij, lit in zip(p_col, f_lits):
        b.clauses.append([-p_ij, -lit, x])
        b.clauses.append([-p_ij, lit, -x])
    return x


MAX_EXAMPLES = 100_000


def encode(task: Task, progress: Progress | None = None, objects: bool = False) -> Encoding:
    """Build the CNF of the disentangled count (countrss semantics) for `task`; with `objects`, of
    the objects count: P[i][j] is then the gate V[a_i][a_j] & R[o_i][o_j] of a permutation R of
    objects and V of attributes, and every object shares one value map per attribute."""
    if task.support.size > MAX_EXAMPLES:
        raise RscountError(
            f"{task.name}: the support has {task.support.size} concept vectors, more than the "
            f"{MAX_EXAMPLES} rscount encodes one by one; sample it (--fraction/--examples)"
        )
    b = CNFBuilder()
    concepts = task.concepts
    k = len(concepts)
    sizes = [len(c.values) for c in concepts]
    binary = all(s == 2 for s in sizes)
    width = max(sizes)
    uniform = len(set(sizes)) == 1 and not objects
    rows = task.support.rows
    seen = [set() for _ in concepts]
    for row in rows:
        for i, value in enumerate(row):
            seen[i].add(value)
    names: dict[int, str] = {}
    unseen_vars: set[int] = set()
    unseen_clauses: list[list[int]] = []

    if objects:
        p, f, perms = _object_maps(b, task, names, binary, width)
    else:
        p = [[b.new_var() for _ in range(k)] for _ in range(k)]
        for i, row in enumerate(p):
            for j, v in enumerate(row):
                names[v] = f"P {concepts[i].name} -> {concepts[j].name}"
        perms = [p]
        f = []
        for c in concepts:
            f.append([_value_map(b, names, f"{c.name}={value}", binary, width) for value in c.values])
            for value, lits in zip(c.values, f[-1]):
                if uniform and value not in seen[len(f) - 1]:
                    unseen_vars.update(abs(x) for x in lits)
    projection = sorted(names)

    for perm in perms:
        for i, row in enumerate(perm):
            exactly_one_into(b.clauses, row)
            exactly_one_into(b.clauses, [r[i] for r in perm])
    if not binary:  # value maps stay in the target domain (objects: once per shared attribute map)
        for i in range(len(task.objects.attributes) if objects else k):
            for lits in f[i]:
                if abs(lits[0]) in unseen_vars:  # uniform sizes: exactly one of the width values
                    exactly_one_into(unseen_clauses, lits)
                    continue
                b.clauses.extend([-x, -y] for x, y in combinations(lits, 2))
                for j in range(k):
                    b.clauses.append([-p[i][j], *lits[: sizes[j]]])
                    b.clauses.extend([-p[i][j], -x] for x in lits[sizes[j] :])

    supervised = task.support.supervised
    p_cols = [[p[i][j] for i in range(k)] for j in range(k)]
    examples: list[tuple[int, int, int, int]] = []
    for n, row in enumerate(rows):
        if progress:
            progress.update(f"encoding example {n + 1}/{len(rows)}")
        idx = [c.index[v] for c, v in zip(concepts, row)]
        if row in supervised:
            for i in range(k):
                for j in range(k):
                    b.clauses.append([-p[i][j], f[i][idx[i]][idx[j]]])
            continue
        b.new_scope()
        clause_lo, var_lo = len(b.clauses), b.num_vars + 1

        def select(j: int, u: int) -> int:
            return _mux(b, p_cols[j], [f[i][idx[i]][u] for i in range(k)])  # noqa: B023 (used now)

        inputs = example_inputs(b, concepts, select)
        for (label, expr), value in zip(task.labels.items(), task.label_of(row)):
            dom = compile_expr(b, expr, inputs, f"labels.{label}")
            b.add([dom.get(value, FALSE)])
        examples.append((clause_lo, len(b.clauses), var_lo, b.num_vars + 1))

    mode = "objects" if objects else "disentangled"
    comments = [
        f"rscount {__version__}: optimal concept maps of task {task.name!r} ({mode} count)",
        f"concepts: {', '.join(c.name for c in concepts)}",
        f"support: {task.support.size} concept vectors, {len(supervised)} concept-supervised",
        "models projected on the P/F variables = optimal concept maps (pi, f);",
        "P a -> b: predicted concept b reads ground-truth concept a;",
        "F a=v -> #u: ground-truth value v of a becomes value number u (from 0) of the concept a feeds",
    ]
    core_size = len(b.clauses)
    cnf = Dimacs(b.num_vars, b.clauses + unseen_clauses, projection, names, comments)
    core_projection = [v for v in projection if v not in unseen_vars]
    unseen_values = sum(len(c.values) - len(s) for c, s in zip(concepts, seen)) if uniform else 0
    factor = width**unseen_values
    object_maps = perms if objects else []
    return Encoding(task, cnf, p, f, examples, core_size, core_projection, factor, mode, object_maps)


def _value_map(b: CNFBuilder, names: dict[int, str], what: str, binary: bool, width: int) -> list[int]:
    """The literals of "this value maps to value number u" (u = 0..width-1; binary: [-x, x])."""
    if binary:
        x = b.new_var()
        names[x] = f"F {what} -> #1"
        return [-x, x]
    lits = [b.new_var() for _ in range(width)]
    for u, x in enumerate(lits):
        names[x] = f"F {what} -> #{u}"
    return lits


def _object_maps(
    b: CNFBuilder, task: Task, names: dict[int, str], binary: bool, width: int
) -> tuple[list[list[int]], list[list[list[int]]], list[list[list[int]]]]:
    """Map variables of the objects count: R (objects), V (attributes), F per attribute value;
    returns P as gates, F per concept (shared by the objects) and the two permutations."""
    spec = task.objects
    if spec is None:
        raise RscountError(f"{task.name}: --mode objects needs a task with an 'objects:' section")
    n, attrs = spec.count, spec.attributes
    r = [[b.new_var() for _ in range(n)] for _ in range(n)]
    for o, row in enumerate(r):
        for o2, x in enumerate(row):
            names[x] = f"R object {o + 1} -> object {o2 + 1}"
    v = [[b.new_var() for _ in attrs] for _ in attrs]
    for a, row in enumerate(v):
        for a2, x in enumerate(row):
            names[x] = f"V {attrs[a][0]} -> {attrs[a2][0]}"
    shared = [
        [_value_map(b, names, f"{name}={value}", binary, width) for value in values] for name, values in attrs
    ]
    m = len(attrs)
    k = n * m
    p = [[b.and_([v[i % m][j % m], r[i // m][j // m]]) for j in range(k)] for i in range(k)]
    return p, [shared[i % m] for i in range(k)], [r, v]
