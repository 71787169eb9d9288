"""A deterministic Prolog knowledge base whose query names the task's concepts, as ABLkit writes one
(`logic_forward([Z1, Z2], Res) :- ...`, its pseudo-labels' values given in Python): the task file
declares the concepts (`concepts:`) and writes them in the query as atoms, `query:
logic_forward([d1, d2], Res)`. rscount asks problog for every answer with those atoms as
variables, once, and keeps the answers whose concept values are the concepts' (a between/3 over a
wider range is so cut to the domains): each query variable is a label read off that table, `no
answer` where none holds, a set of answers where several do (rscount.knowledge.answers)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from itertools import product
from pathlib import Path
from typing import Any

from problog.engine import DefaultEngine
from problog.errors import ProbLogError
from problog.logic import Constant, Term, Var
from problog.program import PrologString

from ...errors import FormatError, TaskError, quote, short
from ...limits import FUNCTION_VECTORS
from ...task.expressions import Expr
from ...task.functions import lookup
from ...task.model import NO_ANSWER, Concept, QueryAnswers
from ...task.support import domain_size
from . import terms
from .problog_clauses import Reader, parse_queries
from .program import Program, error_line

MARK = "RSCOUNT_CONCEPT_"  # the query variable standing for a concept


def knowledge_base_labels(path: Path, text: str, query: Any, concepts: Sequence[Concept]) -> Program:
    """The labels the knowledge base of `path` gives every vector of the concepts through `query`
        (one query, the concepts written in it as atoms), asked once with the concepts as variables, or
    vector by vector where the base only tests them; a TaskError or FormatError naming the place."""
    FUNCTION_VECTORS.check(domain_size([c.values for c in concepts]), "program")
    asked = parse_queries(query) if query is not None else []
    if len(asked) != 1:
        raise TaskError("query", "a knowledge base with concepts: takes one query naming them")
    names = [c.name for c in concepts]
    pattern = _with_variables(asked[0], set(names))
    missing = [n for n in names if Var(MARK + n) not in set(terms.variables(pattern))]
    if missing:
        raise TaskError("query", f"{quote(str(asked[0]))} does not name concept {quote(missing[0])}")
    variables = sorted({str(v) for v in terms.variables(pattern)} - {MARK + n for n in names})
    if not variables:
        raise TaskError("query", f"{quote(str(asked[0]))} has no variable to be a label")
    source = PrologString(text, source_root=str(path.parent))
    try:
        clauses = list(source)
    except ProbLogError as exc:
        raise FormatError(str(path), short(str(exc)), error_line(exc)) from None
    reader = Reader(path, source)
    program, _ = reader.read(clauses, [pattern])
    if reader.disjunctions or any(
        getattr(h, "probability", None) is not None for c in clauses for h in terms.heads(c)
    ):
        raise TaskError(
            "concepts",
            f"{short(path.name)} has probabilistic or neural clauses: leave concepts: out to read them",
        )
    try:
        engine = DefaultEngine()
        with contextlib.redirect_stdout(io.StringIO()):  # problog prints its stack when a call fails
            found = list(engine.query(engine.prepare(program), pattern))
    except (ProbLogError, RecursionError):  # its clauses may test the concepts without enumerating them
        engine = DefaultEngine()  # a fresh one: a failed query leaves problog's engine unusable
        found = _vector_by_vector(path, engine, engine.prepare(program), pattern, concepts)
    return _program(str(asked[0]), pattern, found, concepts, variables)


def _vector_by_vector(
    path: Path, engine: DefaultEngine, database: Any, pattern: Term, concepts: Sequence[Concept]
) -> list[Any]:
    """The answers of `pattern` asked with the concepts' values of each vector in turn."""
    found: list[Any] = []
    for row in product(*(c.values for c in concepts)):
        bound = terms.bind(pattern, {MARK + c.name: _term(v) for c, v in zip(concepts, row)})
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                found += [bound.with_args(*a).args for a in engine.query(database, bound)]
        except (ProbLogError, RecursionError) as exc:
            problem = f"querying {short(str(bound))} failed: {short(str(exc) or 'too deep')}"
            raise FormatError(str(path), problem, error_line(exc)) from None
    return found


def _term(value: Any) -> Term:
    """A concept value as a Prolog term: an integer, or an atom."""
    return Constant(value) if isinstance(value, int) else Term(str(value))


def _with_variables(query: Term, names: set[str]) -> Any:
    """`query` with each atom that names a concept made the concept's variable."""
    if isinstance(query, Term) and not isinstance(query, Var) and query.arity == 0 and str(query) in names:
        return Var(MARK + str(query))
    if isinstance(query, Term) and query.arity:
        return query.with_args(*(_with_variables(a, names) for a in query.args))
    return query


def _program(
    text: str, pattern: Term, found: Sequence[Any], concepts: Sequence[Concept], variables: list[str]
) -> Program:
    """The labels of the answers `found` (argument tuples of `pattern`), per concept vector."""
    index = [c.index for c in concepts]
    answers: dict[tuple[Any, ...], set[tuple[Any, ...]]] = {}
    for args in found:
        binding = terms.match(pattern, pattern.with_args(*args), {}) or {}
        row = tuple(terms.value(binding[MARK + c.name]) for c in concepts)
        if all(v in at for v, at in zip(row, index)):  # answers beyond the domains are no vectors of D
            answers.setdefault(row, set()).add(tuple(terms.value(binding[v]) for v in variables))
    if not answers:
        raise TaskError("query", f"{quote(text)} has no answer for any concept vector")
    names, domains = [c.name for c in concepts], [c.values for c in concepts]
    every = list(product(*(c.values for c in concepts)))
    seen = sorted({a for found_here in answers.values() for a in found_here}, key=str)
    bound = tuple((a, lookup(names, domains, {v: int(a in answers.get(v, ())) for v in every})) for a in seen)
    labels: dict[str, Expr] = {}
    for k, name in enumerate(variables):
        table = {v: min(answers[v], key=str)[k] if v in answers else NO_ANSWER for v in every}
        labels[name] = lookup(names, domains, table)
    notes = (
        f"labels {', '.join(variables)}: the answers of {short(text)}, asked once with the concepts as "
        "variables",
    )
    return Program(tuple(concepts), labels, (QueryAnswers(text, tuple(variables), bound),), notes,
                   tuple(None for _ in concepts), None)  # fmt: skip
