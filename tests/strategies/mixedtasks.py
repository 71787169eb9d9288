"""Random small tasks whose concepts mix kinds: Booleans ({0, 1} in either order), integers that
are not their positions (offset, negative) and words, in domains of 2 and 3 values; plain tasks and
objects tasks. Expressions are well typed (words only meet words, in equalities) and valid both for
rscount and for Python's `eval` with randomtasks.HELPERS, so the oracle labels vectors without
rscount code. A drawn task comes as its task-file mapping and as the oracle's Problem."""

from __future__ import annotations

import dataclasses
import math
import pathlib
from dataclasses import dataclass
from itertools import product
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
from references.oracle import Problem

from strategies.randomtasks import HELPERS, WORDS

BOOL, INT, WORD = "bool", "int", "word"
CMP = ["==", "!=", "<", "<=", ">", ">="]


@dataclass(frozen=True)
class Concept:
    name: str
    kind: str
    values: tuple[Any, ...]


def domain(kind: str, size: int) -> st.SearchStrategy[tuple[Any, ...]]:
    """Values of a concept of `kind` (a Boolean always has 2)."""
    if kind == BOOL:
        return st.sampled_from([(0, 1), (1, 0)])
    if kind == INT:
        return (
            st.lists(st.integers(-4, 7), min_size=size, max_size=size, unique=True)
            .map(tuple)
            .filter(lambda v: v != tuple(range(len(v))))
        )
    return st.lists(st.sampled_from(WORDS), min_size=size, max_size=size, unique=True).map(tuple)


def truth(concepts: list[Concept], depth: int) -> st.SearchStrategy[str]:
    """A 0/1 expression."""
    words = [c for c in concepts if c.kind == WORD]
    atoms: list[st.SearchStrategy[str]] = []
    if any(c.kind == BOOL for c in concepts):
        atoms.append(st.sampled_from([c.name for c in concepts if c.kind == BOOL]))
    if words:
        atoms.append(
            st.sampled_from(words).flatmap(
                lambda c: st.builds(
                    lambda f, w: f"{f}({c.name}, {w})",
                    st.sampled_from(["Eq", "Ne"]),
                    st.sampled_from(c.values),
                )  # fmt: skip
            )
        )
        if len(words) > 1:
            atoms.append(st.builds(lambda a, op, b: f"({a.name} {op} {b.name})", st.sampled_from(words),
                                   st.sampled_from(["==", "!="]), st.sampled_from(words)))  # fmt: skip
    if any(c.kind != WORD for c in concepts):
        num = number(concepts, max(depth - 1, 0))
        atoms.append(st.builds(lambda a, op, b: f"({a} {op} {b})", num, st.sampled_from(CMP), num))
    if depth == 0:
        return st.one_of(atoms)
    sub = truth(concepts, depth - 1)
    return st.one_of(
        *atoms,
        st.builds(
            lambda f, args: f"{f}({', '.join(args)})",
            st.sampled_from(["And", "Or", "Xor"]),
            st.lists(sub, min_size=2, max_size=3),
        ),  # fmt: skip
        st.builds(lambda p: f"Not({p})", sub),
        st.builds(lambda p, q: f"Implies({p}, {q})", sub, sub),
        st.builds(lambda p, op, q: f"({p} {op} {q})", sub, st.sampled_from(["&", "|", "^"]), sub),
        st.builds(lambda p, q, r: f"ITE({p}, {q}, {r})", sub, sub, sub),
    )


def number(concepts: list[Concept], depth: int) -> st.SearchStrategy[str]:
    """An integer expression over the Boolean and integer concepts."""
    names = [c.name for c in concepts if c.kind != WORD]
    atoms = [st.sampled_from(names), st.sampled_from(names), st.integers(-1, 3).map(lambda n: f"({n})")]
    if depth == 0:
        return st.one_of(atoms)
    sub = number(concepts, depth - 1)
    return st.one_of(
        *atoms,
        st.builds(lambda a, op, b: f"({a} {op} {b})", sub, st.sampled_from(["+", "-", "*"]), sub),
        st.builds(lambda a, op, m: f"({a} {op} {m})", sub, st.sampled_from(["%", "//"]), st.integers(2, 3)),
        st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["Min", "Max"]), sub, sub),
        st.builds(lambda a: f"Abs({a})", sub),
        st.builds(lambda p, a, b: f"ITE({p}, {a}, {b})", truth(concepts, depth - 1), sub, sub),
    )


def label(concepts: list[Concept]) -> st.SearchStrategy[str]:
    """A Boolean or (when some concept is a number) categorical label."""
    kinds = [truth(concepts, d) for d in (0, 1, 2)]
    if any(c.kind != WORD for c in concepts):
        kinds += [number(concepts, d) for d in (1, 2)]
    return st.one_of(kinds)


@dataclass(frozen=True)
class Drawn:
    """A random task: its task-file mapping and the oracle's view of it."""

    data: dict[str, Any]
    problem: Problem

    def task(self):
        from rscount.knowledge.loading import task_from_dict

        return task_from_dict(self.data, "drawn", pathlib.Path("."))


def labeller(names: list[str], labels: dict[str, str], words: set[str]):
    """The labels of a concept vector by Python's eval; a bare word names itself."""
    code = [compile(expr, "<label>", "eval") for expr in labels.values()]
    constants = {w: w for w in words}

    def label_of(row: tuple[Any, ...]) -> tuple[Any, ...]:
        env = {"__builtins__": {}, **HELPERS, **constants, **dict(zip(names, row))}
        return tuple(int(eval(c, env)) for c in code)

    return label_of


@st.composite
def supports(draw, rows: list[tuple[Any, ...]], label_of, max_rows: int) -> tuple[list, bool]:
    """A support drawn uniformly, class-balanced (one or two rows per label tuple) or exhaustive."""
    how = draw(st.sampled_from(["uniform", "uniform", "balanced", "exhaustive"]))
    if how == "exhaustive" and len(rows) <= max_rows:
        return rows, True
    if how == "balanced":
        by_class: dict[Any, list] = {}
        for r in rows:
            by_class.setdefault(label_of(r), []).append(r)
        chosen = []
        for members in by_class.values():
            chosen += draw(st.lists(st.sampled_from(members), min_size=1, max_size=2, unique=True))
        return chosen[:max_rows], False
    return draw(
        st.lists(st.sampled_from(rows), min_size=1, max_size=min(len(rows), max_rows), unique=True)
    ), False


@st.composite
def supervision(draw, support: list, names: list[str]) -> tuple[list, dict]:
    """Whole rows supervised and rows with some concepts supervised (row -> positions), often none."""
    if draw(st.integers(0, 2)) == 0:
        whole = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
        rest = [r for r in support if r not in whole]
        partial: dict = {}
        if rest and draw(st.booleans()):
            row = draw(st.sampled_from(rest))
            partial[row] = frozenset(draw(st.lists(st.integers(0, len(names) - 1), min_size=1, max_size=1)))
        return whole, partial
    return [], {}


def _supervision_data(names: list[str], whole: list, partial: dict) -> list:
    return [list(r) for r in whole] + [
        {"row": list(r), "concepts": [names[j] for j in sorted(on)]} for r, on in partial.items()
    ]


KINDS = st.sampled_from([BOOL, INT, WORD])


@st.composite
def plain_tasks(draw, max_space: int = 18, max_rows: int = 18, n_concepts: tuple[int, int] = (2, 3)) -> Drawn:
    """2-3 concepts (or 4 Booleans) of mixed kinds and sizes, at most `max_space` concept vectors."""
    k = draw(st.integers(*n_concepts))
    kinds = draw(st.lists(KINDS, min_size=k, max_size=k))
    sizes = [2 if kind == BOOL else draw(st.sampled_from([2, 3])) for kind in kinds]
    while math.prod(sizes) > max_space:
        sizes[sizes.index(3)] = 2
    concepts = [Concept(n, kind, draw(domain(kind, s))) for n, kind, s in zip("abcd", kinds, sizes)]
    return draw(_task(concepts, None, max_rows))


@st.composite
def object_tasks(draw, max_rows: int = 12) -> Drawn:
    """2 objects with 1-2 attributes of mixed kinds and sizes."""
    m = draw(st.integers(1, 2))
    kinds = draw(st.lists(KINDS, min_size=m, max_size=m))
    attributes = [(name, kind, draw(domain(kind, draw(st.sampled_from([2, 3]))))) for name, kind in
                  zip(("colour", "size"), kinds)]  # fmt: skip
    concepts = [Concept(f"{a}_{o}", kind, values) for o in (1, 2) for a, kind, values in attributes]
    return draw(_task(concepts, {a: list(values) for a, _, values in attributes}, max_rows))


@st.composite
def in_place_tasks(draw, tasks: st.SearchStrategy[Drawn] | None = None) -> Drawn:
    """A task of `tasks` (default: plain or objects) learned by an extractor in place (in-place,
    shared-in-place)."""
    drawn = draw(st.one_of(plain_tasks(), object_tasks()) if tasks is None else tasks)
    extractor = "in-place" if drawn.problem.objects is None else "shared-in-place"
    return Drawn({**drawn.data, "extractor": extractor}, dataclasses.replace(drawn.problem, in_place=True))


def affine(concepts: list[Concept]) -> st.SearchStrategy[str]:
    """An affine integer form of the concepts: a constant plus small multiples of some of them."""
    k = len(concepts)
    return st.builds(
        lambda c, ws: " + ".join([f"({c})"] + [f"({w}) * {x.name}" for x, w in zip(concepts, ws) if w]),
        st.integers(-3, 3),
        st.lists(st.integers(-3, 3), min_size=k, max_size=k),
    )


@st.composite
def affine_tasks(draw, max_rows: int = 12) -> Drawn:
    """2-3 integer concepts (offset, negative, Booleans) or 2 objects of 1-2 integer attributes, in
    domains of 2 and 3 values, labelled by affine forms (a linear system per permutation)."""
    kinds = st.sampled_from([INT, INT, BOOL])
    if draw(st.booleans()):
        k = draw(st.integers(2, 3))
        chosen = draw(st.lists(kinds, min_size=k, max_size=k))
        sizes = [2 if kind == BOOL else draw(st.sampled_from([2, 3])) for kind in chosen]
        concepts = [Concept(n, kind, draw(domain(kind, s))) for n, kind, s in zip("abc", chosen, sizes)]
        return draw(_task(concepts, None, max_rows, affine))
    m = draw(st.integers(1, 2))
    attributes = [(name, kind, draw(domain(kind, draw(st.sampled_from([2, 3]))))) for name, kind in
                  zip(("colour", "size"), draw(st.lists(kinds, min_size=m, max_size=m)))]  # fmt: skip
    concepts = [Concept(f"{a}_{o}", kind, values) for o in (1, 2) for a, kind, values in attributes]
    return draw(_task(concepts, {a: list(values) for a, _, values in attributes}, max_rows, affine))


@st.composite
def _task(draw, concepts: list[Concept], attributes: dict | None, max_rows: int, labelling=None) -> Drawn:
    names = [c.name for c in concepts]
    labelling = labelling or label
    labels = {f"y{n}": draw(labelling(concepts)) for n in range(draw(st.integers(1, 2)))}
    words = {v for c in concepts for v in c.values if isinstance(v, str)} | set(WORDS)
    label_of = labeller(names, labels, words)
    rows = list(product(*(c.values for c in concepts)))
    for r in rows:
        label_of(r)  # every label defined (divisions are by constants)
    support, exhaustive = draw(supports(rows, label_of, max_rows))
    whole, partial = draw(supervision(support, names))
    data: dict[str, Any] = {
        "labels": labels,
        "support": "exhaustive" if exhaustive else [list(r) for r in support],
        "concept_supervision": _supervision_data(names, whole, partial),
    }
    if attributes is None:
        data["concepts"] = {c.name: list(c.values) for c in concepts}
    else:
        data["objects"] = {"count": 2, "attributes": attributes}
    problem = Problem(
        tuple(names),
        tuple(c.values for c in concepts),
        label_of,
        tuple(support),
        frozenset(whole),
        partial,
        None if attributes is None else 2,
    )
    return Drawn(data, problem)


@st.composite
def predicting_tasks(draw, tasks: st.SearchStrategy[Drawn] | None = None) -> Drawn:
    """A task of `tasks` (default: small plain or objects tasks, at times in place) whose networks
    predict one class more than the ground truth takes for some integer or word concepts
    (attributes): `predicts:`, the value maps sending ground-truth values to the wider domain."""
    if tasks is None:
        small = st.one_of(plain_tasks(max_space=12, max_rows=10), object_tasks(max_rows=8))
        tasks = st.one_of(small, in_place_tasks(small))
    drawn = draw(tasks)
    p = drawn.problem
    m = len(p.names) if p.objects is None else len(p.names) // p.objects
    owners = list(zip([n.rsplit("_", 1)[0] if p.objects else n for n in p.names[:m]], p.domains[:m]))
    widened: dict[str, list[Any]] = {}
    for name, values in owners:
        if set(values) == {0, 1} or not draw(st.booleans()):
            continue  # a Boolean stays two-valued: its expressions use it as a truth value
        pool = WORDS if isinstance(values[0], str) else list(range(-4, 8))
        widened[name] = [*values, draw(st.sampled_from([v for v in pool if v not in values]))]
    if not widened:
        name, values = next(((n, v) for n, v in owners if set(v) != {0, 1}), (None, None))
        assume(name is not None and values is not None)  # Booleans only: no class to add
        pool = WORDS if isinstance(values[0], str) else list(range(-4, 8))
        widened[name] = [*values, next(v for v in pool if v not in values)]
    domains = tuple(
        tuple(widened.get(p.names[i].rsplit("_", 1)[0] if p.objects else p.names[i], d))
        for i, d in enumerate(p.domains)  # fmt: skip
    )
    problem = dataclasses.replace(p, domains=domains, truths=p.domains)
    return Drawn({**drawn.data, "predicts": widened}, problem)


def _equalities(concepts: list[Concept]) -> st.SearchStrategy[str]:
    """`x == y` or `x != y` over two concepts with the same values."""
    pairs = [(a.name, b.name) for a in concepts for b in concepts if a.name < b.name and a.values == b.values]
    return st.tuples(st.sampled_from(pairs), st.sampled_from(["==", "!="])).map(
        lambda p: f"{p[0][0]} {p[1]} {p[0][1]}"
    )


@st.composite
def equality_tasks(draw, max_rows: int = 12) -> Drawn:
    """Labels that test two concepts of one domain for equality: 2-4 plain concepts, most sharing
    a domain of 2-3 words or offset integers (one may have values of its own), or 2 objects of 1-2
    attributes; supports and supervision as every random task's."""
    kind = draw(st.sampled_from([INT, WORD]))
    if draw(st.booleans()):
        k = draw(st.integers(2, 4))
        shared = draw(domain(kind, 2 if k == 4 else draw(st.sampled_from([2, 3]))))
        own = draw(domain(INT, 2)) if k < 4 and draw(st.booleans()) else None
        concepts = [Concept(n, kind, shared) for n in "abcd"[:k]] + ([Concept("e", INT, own)] if own else [])
        return draw(_task(concepts, None, max_rows, _equalities))
    m = draw(st.integers(1, 2))
    attributes = [(name, kind, draw(domain(kind, 2 if m == 2 else 3))) for name in ("colour", "size")[:m]]
    concepts = [Concept(f"{a}_{o}", kind, values) for o in (1, 2) for a, kind, values in attributes]
    return draw(_task(concepts, {a: list(values) for a, _, values in attributes}, max_rows, _equalities))


def _pairwise(concepts: list[Concept]) -> st.SearchStrategy[str]:
    """A conjunction, or a disjunction, of 1-3 comparisons of two concepts with the same values
    (orderings of integers too: tests that hold on pairs of values other than a symmetric set)."""
    ops = CMP if concepts[0].kind == INT else ["==", "!="]
    pairs = [(a.name, b.name) for a in concepts for b in concepts if a.name != b.name]
    test = st.tuples(st.sampled_from(pairs), st.sampled_from(ops)).map(
        lambda t: f"({t[0][0]} {t[1]} {t[0][1]})"
    )
    return st.tuples(st.lists(test, min_size=1, max_size=3), st.sampled_from([" & ", " | "])).map(
        lambda t: t[1].join(t[0])
    )


@st.composite
def pairwise_tasks(draw, max_rows: int = 12) -> Drawn:
    """Labels that are conjunctions (or disjunctions) of two-concept tests: 2-4 concepts sharing a
    domain of 2-3 words or offset integers; supports and supervision as every random task's."""
    kind = draw(st.sampled_from([INT, WORD]))
    k = draw(st.integers(2, 4))
    values = draw(domain(kind, 2 if k == 4 else draw(st.sampled_from([2, 3]))))
    concepts = [Concept(n, kind, values) for n in "abcd"[:k]]
    return draw(_task(concepts, None, max_rows, _pairwise))
