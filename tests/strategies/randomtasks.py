"""Random small tasks for property tests: expression strings valid both for rscount (sympy syntax)
and for Python's `eval` with HELPERS, so brute forces evaluate the knowledge without rscount code.
"""

from __future__ import annotations

import functools
import math
import pathlib
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import Any

from hypothesis import HealthCheck
from hypothesis import strategies as st
from references.bruteforce import brute_force_joint, brute_force_seen
from support import REPO

from rscount.knowledge.loading import task_from_dict

NAMES = "abcd"
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

# Python meaning of the rscount operators (logic ones on 0/1 values, returning 0/1).
HELPERS = {
    "And": lambda *a: int(all(a)),
    "Or": lambda *a: int(any(a)),
    "Not": lambda a: int(not a),
    "Xor": lambda *a: sum(map(bool, a)) % 2,
    "Implies": lambda a, b: int(not a or bool(b)),
    "Equivalent": lambda *a: int(len({bool(x) for x in a}) <= 1),
    "Eq": lambda a, b: int(a == b),
    "Ne": lambda a, b: int(a != b),
    "Lt": lambda a, b: int(a < b),
    "Le": lambda a, b: int(a <= b),
    "Gt": lambda a, b: int(a > b),
    "Ge": lambda a, b: int(a >= b),
    "ITE": lambda c, a, b: a if c else b,
    "Min": min,
    "Max": max,
    "Abs": abs,
}

# ---------------------------------------------------------------------------------------------
# Random expressions: "bool" ones take 0/1 values (logic operators only ever see these), "int" ones
# any integer. Every sub-expression is parenthesised, so Python and rscount parse them alike.

CMP = st.sampled_from(["<", "<=", "==", "!=", ">", ">="])
CMP_FN = st.sampled_from(["Eq", "Ne", "Lt", "Le", "Gt", "Ge"])


def bool_expr(concepts: list[tuple[str, int]], depth: int) -> st.SearchStrategy[str]:
    names = st.sampled_from([n for n, _ in concepts])
    booleans = [n for n, size in concepts if size == 2]
    atoms = [
        st.builds(lambda f, n, v: f"{f}({n}, {v})", st.sampled_from(["Eq", "Ne"]), names, st.integers(0, 2)),
        st.builds(lambda x, op, y: f"({x} {op} {y})", names, CMP, names),
    ]
    if booleans:
        atoms.append(st.sampled_from(booleans))
    if depth == 0:
        return st.one_of(atoms)
    sub = bool_expr(concepts, depth - 1)
    num = int_expr(concepts, depth - 1)
    return st.one_of(
        *atoms,
        st.builds(
            lambda f, args: f"{f}({', '.join(args)})",
            st.sampled_from(["And", "Or", "Xor", "Equivalent"]),
            st.lists(sub, min_size=2, max_size=3),
        ),
        st.builds(lambda p: f"Not({p})", sub),
        st.builds(lambda p, q: f"Implies({p}, {q})", sub, sub),
        st.builds(lambda p, op, q: f"({p} {op} {q})", sub, st.sampled_from(["&", "|", "^"]), sub),
        st.builds(lambda p, q, r: f"ITE({p}, {q}, {r})", sub, sub, sub),
        st.builds(lambda i, op, j: f"({i} {op} {j})", num, CMP, num),
        st.builds(lambda f, i, j: f"{f}({i}, {j})", CMP_FN, num, num),
        st.builds(lambda i, m: f"(({i} % {m}) == 0)", num, st.integers(2, 3)),
    )


def int_expr(concepts: list[tuple[str, int]], depth: int) -> st.SearchStrategy[str]:
    names = st.sampled_from([n for n, _ in concepts])
    atoms = [names, names, st.integers(0, 3).map(str)]
    if depth == 0:
        return st.one_of(atoms)
    sub = int_expr(concepts, depth - 1)
    truth = bool_expr(concepts, depth - 1)
    return st.one_of(
        *atoms,
        st.builds(lambda i, op, j: f"({i} {op} {j})", sub, st.sampled_from(["+", "-", "*"]), sub),
        st.builds(lambda i, op, m: f"({i} {op} {m})", sub, st.sampled_from(["%", "//"]), st.integers(2, 3)),
        st.builds(lambda i, n: f"({i} % (Abs({n}) + 1))", sub, names),  # a divisor never 0
        st.builds(lambda f, i, j: f"{f}({i}, {j})", st.sampled_from(["Min", "Max"]), sub, sub),
        st.builds(lambda i: f"Abs({i})", sub),
        st.builds(lambda i: f"(-{i})", sub),
        st.builds(lambda i: f"({i} ** 2)", sub),
        st.builds(lambda p, i, j: f"ITE({p}, {i}, {j})", truth, sub, sub),
        st.builds(lambda p, i: f"({p} + {i})", truth, sub),  # a truth value used as a number
    )


def label_expr(concepts: list[tuple[str, int]]) -> st.SearchStrategy[str]:
    return st.integers(0, 2).flatmap(
        lambda depth: st.one_of(bool_expr(concepts, depth), int_expr(concepts, depth))
    )


# ---------------------------------------------------------------------------------------------
# Random tasks.


@dataclass(frozen=True)
class Spec:
    """A random task: concept domain sizes, labels (name -> expression), support, supervision.
    Rows are tuples of value positions; `values` gives each concept's domain in order (None: the
    positions themselves, 0..n-1), so a row's concept vector is `vector(row)`."""

    sizes: tuple[int, ...]
    labels: tuple[tuple[str, str], ...]
    support: tuple[tuple[int, ...], ...]
    supervised: tuple[tuple[int, ...], ...] = ()
    exhaustive: bool = False
    values: tuple[tuple[Any, ...], ...] | None = None

    @property
    def names(self) -> str:
        return NAMES[: len(self.sizes)]

    @property
    def domains(self) -> list[list[Any]]:
        if self.values is not None:
            return [list(v) for v in self.values]
        return [list(range(n)) for n in self.sizes]

    def vector(self, row: tuple[int, ...]) -> tuple[Any, ...]:
        """The concept vector of a row of value positions."""
        return tuple(d[p] for d, p in zip(self.domains, row))

    def with_support(self, support, supervised=()) -> Spec:
        return Spec(self.sizes, self.labels, tuple(support), tuple(supervised), values=self.values)

    def with_values(self, values: tuple[tuple[Any, ...], ...]) -> Spec:
        return Spec(self.sizes, self.labels, self.support, self.supervised, self.exhaustive, values)

    def task(self):
        data = {
            "concepts": dict(zip(self.names, self.domains)),
            "labels": dict(self.labels),
            "support": "exhaustive" if self.exhaustive else [list(self.vector(r)) for r in self.support],
            "concept_supervision": [list(self.vector(r)) for r in self.supervised],
        }
        return task_from_dict(data, "random", pathlib.Path("."))

    @cached_property
    def _code(self):
        return [compile(expr, "<label>", "eval") for _, expr in self.labels]

    def label(self, vector: tuple) -> tuple:
        """The labels of a concept vector by Python's eval (the brute force's own evaluator); a
        string value names itself, as a bare domain value does in rscount."""
        constants = {v: v for d in self.domains for v in d if isinstance(v, str)}
        env = {"__builtins__": {}, **HELPERS, **constants, **dict(zip(self.names, vector))}
        return tuple(int(eval(code, env)) for code in self._code)

    def _reference(self):
        support = [self.vector(r) for r in self.support]
        label = functools.cache(self.label)  # eval once per vector: a quarter of the property tests' time
        return self.domains, label, support, {self.vector(r) for r in self.supervised}

    def brute_force(self) -> int:
        """The reference count: the backtracking brute force, equal to the plain one (tests/references
        checks that on these specs) and a tenth of its time on 3 x 3 x 3 tasks."""
        return brute_force_seen(*self._reference())

    def brute_force_joint(self) -> int:
        return brute_force_joint(*self._reference())


@st.composite
def specs(
    draw,
    boolean: bool | None = None,
    max_rows: int | None = None,
    supervision: bool = True,
    max_space: int = 27,
    shape: tuple[int, ...] | None = None,
):
    """boolean=True: 2-4 Boolean concepts; False: 2-3 concepts of 2 or 3 values, with at most
    `max_space` concept vectors; None: either; `shape` fixes the domain sizes instead.
    `max_rows` bounds the support size."""
    if shape is None:
        if boolean is None:
            boolean = draw(st.booleans())
        k = draw(st.sampled_from([2, 3, 3, 4] if boolean else [2, 3]))
        sizes = [2] * k if boolean else draw(st.lists(st.sampled_from([2, 3]), min_size=k, max_size=k))
        while 3 in sizes and math.prod(sizes) > max_space:
            sizes[sizes.index(3)] = 2
        shape = tuple(sizes)
    sizes = shape
    concepts = list(zip(NAMES, sizes))
    n_labels = draw(st.integers(1, 2))
    labels = tuple((f"y{j}", draw(label_expr(concepts))) for j in range(n_labels))
    rows = list(product(*(range(n) for n in sizes)))
    exhaustive = max_rows is None and draw(st.integers(0, 9)) == 0
    if exhaustive:
        support = rows
    else:
        size = min(len(rows), max_rows or len(rows))
        support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=size, unique=True))
    supervised = []
    if supervision and draw(st.booleans()):
        supervised = draw(st.lists(st.sampled_from(support), max_size=3, unique=True))
    return Spec(sizes, labels, tuple(support), tuple(supervised), exhaustive)


@st.composite
def symmetric_specs(draw, exhaustive: bool = True):
    """Boolean knowledge given as a table over the number of true concepts, written so that the
    symmetry is not syntactic: a random order of the sum and a random mix of encodings."""
    k = draw(st.integers(1, 4))
    names = "abcd"[:k]
    table = draw(st.lists(st.integers(0, 2), min_size=k + 1, max_size=k + 1))
    order = draw(st.permutations(names))
    total = " + ".join(order)
    expr = str(table[k])
    for m in range(k - 1, -1, -1):
        expr = f"ITE(Eq({total}, {m}), {table[m]}, {expr})"
    rows = list(product(range(2), repeat=k))
    if exhaustive:
        return Spec((2,) * k, (("y", expr),), tuple(rows), (), True)
    support = draw(st.lists(st.sampled_from(rows), min_size=1, unique=True))
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    return Spec((2,) * k, (("y", expr),), tuple(support), tuple(supervised))


@st.composite
def exhaustive_supervised_specs(draw, boolean: bool | None = None, shape: tuple[int, ...] | None = None):
    """Exhaustive support (given as 'exhaustive') with 1 to 3 concept-supervised vectors: the case
    `specs` draws about once in a hundred."""
    spec = draw(specs(boolean=boolean, shape=shape, max_rows=1, supervision=False))
    rows = tuple(product(*(range(n) for n in spec.sizes)))
    supervised = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=3, unique=True))
    return Spec(spec.sizes, spec.labels, rows, tuple(supervised), True)


# ---------------------------------------------------------------------------------------------
# Value domains that are not 0..n-1: a value never equals its position.


def offset_values(size: int) -> st.SearchStrategy[tuple[int, ...]]:
    """A domain of `size` distinct integers (negative ones too), in a random order; Boolean
    concepts (used bare as truth values by the expressions) keep {0, 1}, in either order."""
    if size == 2:
        return st.sampled_from([(1, 0), (0, 1)])
    return st.lists(st.integers(-3, 6), min_size=size, max_size=size, unique=True).map(tuple)


@st.composite
def offset_specs(draw, **kwargs):
    """`specs` with every domain replaced by offset_values: the expressions are unchanged and
    evaluated on the values, so a value read as its position gives other labels."""
    spec = draw(specs(**kwargs))
    values = tuple(draw(offset_values(n)) for n in spec.sizes)
    if all(v == tuple(range(len(v))) for v in values):  # every value at its position: move them
        values = tuple(tuple(reversed(v)) for v in values)
    return spec.with_values(values)


WORDS = ("red", "green", "blue", "cube", "ball")


def string_expr(names: list[str], domains: list[tuple[str, ...]], depth: int) -> st.SearchStrategy[str]:
    """A 0/1 expression over string-valued concepts: equalities with bare domain values and between
    concepts, under logic operators."""
    atoms = [
        st.builds(lambda f, n, v: f"{f}({n}, {v})", st.sampled_from(["Eq", "Ne"]), st.sampled_from(names),
                  st.sampled_from(sorted({v for d in domains for v in d}))),
        st.builds(lambda x, op, y: f"({x} {op} {y})", st.sampled_from(names), st.sampled_from(["==", "!="]),
                  st.sampled_from(names)),
    ]  # fmt: skip
    if depth == 0:
        return st.one_of(atoms)
    sub = string_expr(names, domains, depth - 1)
    return st.one_of(
        *atoms,
        st.builds(
            lambda f, args: f"{f}({', '.join(args)})",
            st.sampled_from(["And", "Or", "Xor"]),
            st.lists(sub, min_size=2, max_size=3),
        ),
        st.builds(lambda p: f"Not({p})", sub),
        st.builds(lambda p, q, r: f"ITE({p}, {q}, {r})", sub, sub, sub),
    )


@st.composite
def string_specs(draw, max_rows: int | None = None, shape: tuple[int, ...] | None = None):
    """2-3 concepts whose values are words (2-3 of them, domains overlapping or not, in random
    order; `shape` fixes the sizes); labels: one 0/1 expression, or a sum of two (three values)."""
    if shape is None:
        k = draw(st.integers(2, 3))
        sizes = draw(st.lists(st.sampled_from([2, 3]), min_size=k, max_size=k))
        if k == 3:
            sizes[0] = 2  # at most 18 concept vectors
    else:
        sizes, k = list(shape), len(shape)
    values = tuple(
        tuple(draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n, unique=True))) for n in sizes
    )
    names = list(NAMES[:k])
    depth = draw(st.integers(0, 2))
    expr = draw(string_expr(names, list(values), depth))
    if draw(st.booleans()):
        expr = f"({expr}) + ({draw(string_expr(names, list(values), depth))})"
    rows = list(product(*(range(n) for n in sizes)))
    exhaustive = max_rows is None and draw(st.integers(0, 3)) == 0
    if exhaustive:
        support = rows
    else:
        size = min(len(rows), max_rows or len(rows))
        support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=size, unique=True))
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    return Spec(tuple(sizes), (("y", expr),), tuple(support), tuple(supervised), exhaustive, values)


@st.composite
def grouped_specs(draw):
    """Two labels, one over concepts a, b and one over c, d (4 Boolean concepts), so that the value
    maps split into independent label groups; a random support and supervision."""
    first = draw(label_expr([("a", 2), ("b", 2)]))
    second = draw(label_expr([("c", 2), ("d", 2)]))
    rows = list(product(range(2), repeat=4))
    support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=10, unique=True))
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    return Spec((2, 2, 2, 2), (("y0", first), ("y1", second)), tuple(support), tuple(supervised))


@st.composite
def wide_tasks(draw):
    """6 or 7 Boolean concepts, two or three labels over random subsets of them (some concepts read
    by none), a random support of up to 24 vectors and a few supervised ones."""
    k = draw(st.integers(6, 7))
    names = [f"c{i}" for i in range(k)]
    labels = {}
    for j in range(draw(st.integers(2, 3))):
        read = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
        labels[f"y{j}"] = draw(label_expr([(n, 2) for n in read]))
    rows = draw(st.lists(st.tuples(*[st.integers(0, 1)] * k), min_size=1, max_size=24, unique=True))
    supervised = draw(st.lists(st.sampled_from(rows), max_size=2, unique=True))
    data = {
        "concepts": {n: [0, 1] for n in names},
        "labels": labels,
        "support": [list(r) for r in rows],
        "concept_supervision": [list(r) for r in supervised],
    }
    return task_from_dict(data, "wide", REPO)
