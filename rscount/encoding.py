"""Compile a task to CNF whose models are exactly the optimal concept maps (pi, f).

Variables: P[i][j] (ground-truth concept i feeds predicted concept j; a permutation) and F[i][v]
(the value f_i(v) in the domain of the concept i feeds: one variable when every domain is binary,
else one-hot over positions). Per unsupervised example, X variables give the predicted concept
values through a multiplexer on P, and the knowledge is compiled on them and pinned to the label.
All auxiliaries are functionally determined by P and F, which form the projection set.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from . import __version__
from .circuit import FALSE, CNFBuilder, Dom, compile_expr
from .dimacs import Dimacs
from .progress import Progress
from .task import Task


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

    @property
    def projection(self) -> list[int]:
        """The map variables: counting projected on these counts the optimal maps."""
        return self.cnf.projection or []

    def split_projection(self) -> tuple[list[int], int]:
        """(map variables that occur in some clause, number of map variables that occur in none).

        A map variable in no clause is free (it doubles the count); solvers drop such variables,
        so backends count over the constrained ones and multiply by 2**free.
        """
        used = {abs(lit) for clause in self.cnf.clauses for lit in clause}
        constrained = [v for v in self.projection if v in used]
        return constrained, len(self.projection) - len(constrained)


def _exactly_one(builder: CNFBuilder, lits: list[int]) -> None:
    builder.clauses.append(list(lits))
    builder.clauses.extend([-a, -b] for a, b in combinations(lits, 2))


def encode(task: Task, progress: Progress | None = None) -> Encoding:
    """Build the CNF of the disentangled count (countrss semantics) for `task`."""
    b = CNFBuilder()
    concepts = task.concepts
    k = len(concepts)
    sizes = [len(c.values) for c in concepts]
    binary = all(s == 2 for s in sizes)
    width = max(sizes)
    names: dict[int, str] = {}

    p = [[b.new_var() for _ in range(k)] for _ in range(k)]
    for i, row in enumerate(p):
        for j, v in enumerate(row):
            names[v] = f"P {concepts[i].name} -> {concepts[j].name}"
    f: list[list[list[int]]] = []
    for c in concepts:
        per_value = []
        for value in c.values:
            if binary:
                x = b.new_var()
                names[x] = f"F {c.name}={value} -> #1"
                per_value.append([-x, x])
            else:
                lits = [b.new_var() for _ in range(width)]
                for u, x in enumerate(lits):
                    names[x] = f"F {c.name}={value} -> #{u}"
                per_value.append(lits)
        f.append(per_value)
    projection = sorted(names)

    for i in range(k):
        _exactly_one(b, p[i])
        _exactly_one(b, [p[r][i] for r in range(k)])
    if not binary:
        for i in range(k):
            for lits in f[i]:
                b.clauses.extend([-x, -y] for x, y in combinations(lits, 2))
                for j in range(k):
                    b.clauses.append([-p[i][j], *lits[: sizes[j]]])
                    b.clauses.extend([-p[i][j], -x] for x in lits[sizes[j] :])

    rows = task.support.rows
    supervised = task.support.supervised
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
        inputs: dict[str, Dom] = {}
        for j, cj in enumerate(concepts):
            positions = [1] if sizes[j] == 2 else range(sizes[j])
            xs = {}
            for u in positions:
                x = b.new_var()
                xs[u] = x
                for i in range(k):
                    lit = f[i][idx[i]][u]
                    b.clauses.append([-p[i][j], -lit, x])
                    b.clauses.append([-p[i][j], lit, -x])
            if sizes[j] == 2:
                inputs[cj.name] = {cj.values[0]: -xs[1], cj.values[1]: xs[1]}
            else:
                inputs[cj.name] = {cj.values[u]: x for u, x in xs.items()}
        for (label, expr), value in zip(task.labels.items(), task.label_of(row)):
            dom = compile_expr(b, expr, inputs, f"labels.{label}")
            b.add([dom.get(value, FALSE)])
        examples.append((clause_lo, len(b.clauses), var_lo, b.num_vars + 1))

    comments = [
        f"rscount {__version__}: optimal concept maps of task {task.name!r} (disentangled count)",
        f"concepts: {', '.join(c.name for c in concepts)}",
        f"support: {task.support.size} concept vectors, {len(supervised)} concept-supervised",
        "models projected on the P/F variables = optimal concept maps (pi, f);",
        "P a -> b: predicted concept b reads ground-truth concept a;",
        "F a=v -> #u: ground-truth value v of a becomes value number u (from 0) of the concept a feeds",
    ]
    cnf = Dimacs(b.num_vars, b.clauses, projection, names, comments)
    return Encoding(task, cnf, p, f, examples)
