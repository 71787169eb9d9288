"""Knowledge written as a ProbLog or DeepProbLog program (`program: FILE.pl`, `query:`), grounded by
the problog package and read back as expressions over concepts, so every counting mode and method
works on it unchanged (a query whose answer is arithmetic over the concepts is read by resolution
instead, without grounding: rscount.formats.programs.unfolding).

Concepts are the program's probabilistic choices that the queries reach, in the order grounding
reaches them: a probabilistic fact (or a neural fact `nn(net, [X]) :: p(X)`) is a Boolean concept;
an annotated disjunction is one categorical concept (its heads' last arguments as values, plus `none`
when its probabilities, read exactly, sum below 1); a DeepProbLog declaration
`nn(net, [X], Y, [v1, ...]) :: digit(X, Y).` is such a disjunction per input reached (`digit(a)`
becomes concept `digit_a` with values v1, ...). Labels are the queries: a ground query is a Boolean
label named after it; a query with variables (`addition(a, b, Z)`) gives one label per variable,
whose values are the answers grounding finds (`no answer` where none holds; a set of answers where
several can hold at once: rscount.knowledge.answers decides). `evidence/2` is a label `evidence`,
1 where every evidence atom has its value: training rows must have it, so maps keep it.
Probabilities play no part in a count, except whether a disjunction's sum to 1. Grammar rules
(`-->`, DeepStochLog's) are read as the clauses they stand for (rscount.formats.programs.grammar).

Programs are data (rscount.formats.programs.problog_clauses): clauses no query reaches are left out unjudged;
reached goals are checked against the program's own predicates and the allowed built-ins before
problog sees them, so no directive but `:- use_module(library(lists))`, no `call/N`, no file or OS
built-in ever runs.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from problog.engine import DefaultEngine
from problog.errors import ProbLogError
from problog.formula import LogicDAG, LogicFormula
from problog.logic import Term
from problog.program import PrologString, SimpleProgram

from ...errors import FormatError, TaskError, quote, short
from ...task.expressions import Expr, call, const, var
from ...task.model import NO_ANSWER, QueryAnswers
from . import terms
from .connectives import conjunction, disjunction
from .grammar import ARROW, Grammar, braces_as_calls, is_rule
from .problog_clauses import Disjunction, Reader, choice_concept, parse_queries
from .program import Naming, Program, error_line
from .unfolding import unfold

NONE = "none"  # the value of an annotated disjunction whose probabilities leave room for no head
EVIDENCE = "evidence"  # the label saying every evidence atom has its value


def read_problog(path: Path, text: str, query: Any) -> Program:
    """Ground the program of `path` (its `text`) for the queries (task field `query:`, else the
    program's own `query/1` facts) and read it back; a TaskError naming the line of a problem.
    problog's own warnings become notes (which `check` shows) instead of reaching the terminal."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        program = _read(path, text, query)
    heard = dict.fromkeys(f"problog warns: {short(str(w.message))}" for w in said)
    return dataclasses.replace(program, notes=(*program.notes, *heard))


def _read(path: Path, text: str, query: Any) -> Program:
    written = braces_as_calls(text) if ARROW in text else text  # grammar rules' {Goal}
    source = PrologString(written, source_root=str(path.parent))
    try:
        clauses = list(source)
    except ProbLogError as exc:
        raise FormatError(str(path), short(str(exc)), error_line(exc)) from None
    reader = Reader(path, source)
    notes: list[str] = []
    if any(is_rule(c) for c in clauses):
        grammar = Grammar(str(path), clauses, reader.line)
        clauses = grammar.translated()
        notes = grammar.notes
    program, queries = reader.read(clauses, parse_queries(query) if query is not None else None)
    translated = unfold(reader, list(program), queries) or _grounded(path, reader, program, queries)
    translated = dataclasses.replace(translated, notes=(*notes, *translated.notes))
    if reader.left_out:
        left = ", ".join(reader.left_out)
        translated = dataclasses.replace(
            translated, notes=(*translated.notes, f"left out (no query or evidence reaches them): {left}")
        )
    return translated


def _grounded(path: Path, reader: Reader, program: SimpleProgram, queries: list[Term]) -> Program:
    """The program grounded by problog for the queries (and its evidence), read back."""
    evidence = [(e.atom, e.value) for e in reader.evidence]
    try:
        engine = DefaultEngine()
        database = engine.prepare(program)
        formula = engine.ground_all(database, queries=queries, evidence=evidence, target=LogicFormula())
        dag = LogicDAG.create_from(formula)
    except (ProbLogError, RecursionError) as exc:
        raise FormatError(
            str(path), f"grounding failed: {short(str(exc) or 'too deep')}", error_line(exc)
        ) from None
    return _Translation(dag, reader, database).program(queries)


class _Translation:
    """A ground, acyclic problog formula as rscount expressions, with the concepts it reaches."""

    def __init__(self, dag: LogicDAG, reader: Reader, database: Any) -> None:
        self.dag = dag
        self.reader = reader
        self.database = database
        self.origins: dict[int, Any] = {}  # database group number -> where its disjunction is written
        for n in range(len(database)):
            node = database.get_node(n)
            if getattr(node, "group", None) is not None and getattr(node, "location", None) is not None:
                self.origins.setdefault(node.group, node.location)
        self.naming = Naming()
        self.notes = self.naming.notes
        self.memo: dict[int, Expr] = {}

    def program(self, queries: Sequence[Term]) -> Program:
        labels: dict[str, Expr] = {}
        answers: list[QueryAnswers] = []
        grounded = [(term, node) for term, node in self.dag.queries()]
        for query in queries:
            variables = sorted({str(v) for v in terms.variables(query)})
            found = [(t, n) for t, n in grounded if terms.match(query, t, {}) is not None]
            if not variables:  # a ground query's truth is a function of the concepts: its label
                name = self.naming.name(str(query))
                labels[name] = self.expr(found[0][1] if found else None)
                if name != str(query):
                    self.notes.append(f"label {name} is query {short(str(query))}")
                continue
            if not found:
                raise TaskError("query", f"{quote(str(query))} has no answer for any concept vector")
            bound = []
            for term, node in found:
                binding = terms.match(query, term, {}) or {}
                bound.append((tuple(terms.value(binding[v]) for v in variables), self.expr(node)))
            for k, v in enumerate(variables):
                if v in labels or v in self.naming.names:
                    raise TaskError("query", f"variable {quote(v)} names two labels or a concept")
                label = const(NO_ANSWER)  # where no answer holds; the first that holds otherwise
                for values, holds in reversed(bound):
                    label = call("ITE", holds, const(values[k]), label)
                labels[v] = label
                self.notes.append(f"label {v} is {v} in query {short(str(query))}")
            answers.append(QueryAnswers(str(query), tuple(variables), tuple(bound)))
        observed = [(term, node, value is True or value > 0) for term, node, value in self.dag.evidence_all()]
        if observed:  # problog gives the value as 1 (true) or -1 (false)
            if EVIDENCE in labels:
                raise TaskError(
                    "query", f"a query is named {EVIDENCE!r}, the label of the program's evidence"
                )
            labels[EVIDENCE] = conjunction(
                [self.expr(node) if true else call("Not", self.expr(node)) for _, node, true in observed]
            )
            shown = ", ".join(f"{term}={'true' if true else 'false'}" for term, _, true in observed)
            self.notes.append(
                f"label {EVIDENCE} is 1 where the evidence holds ({short(shown)}); training rows need it"
            )
        concepts, reads, notes = self.naming.named()
        if not concepts:
            raise TaskError("program", "the queries reach no probabilistic fact, disjunction or neural atom")
        return Program(concepts, labels, tuple(answers), notes, reads, EVIDENCE if observed else None)

    def expr(self, node: int | None) -> Expr:
        if node is None:
            return const(0)
        if node == 0:
            return const(1)
        if node < 0:
            inner = self.expr(-node)
            return const(1 - inner.args[0]) if inner.op == "const" else call("Not", inner)
        if node not in self.memo:
            self.memo[node] = self._node(node)
        return self.memo[node]

    def _node(self, node: int) -> Expr:
        item = self.dag.get_node(node)
        kind = type(item).__name__
        if kind in ("conj", "disj"):
            parts = [self.expr(c) for c in item.children]
            return conjunction(parts) if kind == "conj" else disjunction(parts, self.naming.domains)
        if item.group is None:  # a ground probabilistic fact (the node's name may be a query's)
            fact = self.database.get_node(item.identifier)
            name = self.naming.concept(("fact", item.identifier), str(Term(fact.functor, *fact.args)), (0, 1))
            return var(name)
        return self._choice(item)

    def _choice(self, item: Any) -> Expr:
        group = item.group
        node, arguments, choice = item.identifier  # the atom's name may be a query's: not read
        disjunction = self._disjunction(group)
        # problog numbers the clause's variables heads first, then the body's: a ground group's
        # arguments start with the heads' variables, in the order they first occur
        order = list(dict.fromkeys(str(v) for h in disjunction.heads for v in terms.variables(h)))
        heads = [terms.bind(h, dict(zip(order, arguments))) for h in disjunction.heads]
        if len(order) > len(arguments) or any(not h.is_ground() for h in heads):
            raise TaskError(
                "program",
                f"{quote(str(heads[choice]))}: a head of its disjunction has a variable its body leaves free",
            )
        if len(heads) == 1 and not disjunction.complete:
            if disjunction.clause is None:
                return var(self.naming.concept(group, str(heads[0]), (0, 1)))
            text = f"the choice of the probabilistic clause for {heads[0]} at {disjunction.clause}"
            return var(self.naming.concept(group, text, (0, 1), named=str(heads[0])))
        label, values, reads, named = choice_concept(heads)
        if len(arguments) > len(order):  # one such concept per answer of the body: say which
            where = ", ".join(f"{v}={a}" for v, a in zip(order, arguments))
            label, named, reads = f"{label} for {where}", named or label, None
        if len(set(values)) != len(values):
            raise TaskError("program", f"{quote(label)}: two heads of one disjunction give the same value")
        if not disjunction.complete and NONE in values:
            raise TaskError("program", f"{quote(label)}: a head's value is {NONE!r}, the value of no head")
        domain = (*values, NONE) if not disjunction.complete else tuple(values)
        name = self.naming.concept(group, label, domain, reads, named)
        return call("Eq", var(name), const(values[choice]))

    def _disjunction(self, group: Any) -> Disjunction:
        """The disjunction as written that a ground group (database node, arguments) comes from."""
        found = self.reader.disjunctions.get(self.origins.get(group[0]))
        if found is None:
            raise TaskError("program", "a probabilistic clause could not be traced to the program")
        return found
