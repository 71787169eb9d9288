"""Knowledge written as a ProbLog or DeepProbLog program (`program: FILE.pl`, `query:`), grounded by
the problog package and read back as constraints over concepts and labels (rscount.task.constraints),
so every counting mode and method works on it unchanged.

Concepts are the program's probabilistic choices that the queries reach, in the order grounding
reaches them: a probabilistic fact is a Boolean concept; an annotated disjunction is one categorical
concept (its heads' last arguments as values, plus `none` when its probabilities sum below 1); a
DeepProbLog declaration `nn(net, [X], Y, [v1, ...]) :: digit(X, Y).` is such a disjunction per input
reached (`digit(a)` becomes concept `digit_a` with values v1, ...). Labels are the queries: a ground
query is a Boolean label named after it; a query with variables (`addition(a, b, Z)`) gives one label
per variable, whose values are the answers grounding finds. Probabilities play no part in a count.

Programs are data: goals are checked against the program's own predicates and ALLOWED_BUILTINS
before problog sees them, so no directive but `:- use_module(library(lists))`, no `call/N`, no file
or OS built-in ever runs.
"""

from __future__ import annotations

import dataclasses
import keyword
import re
import warnings
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from problog.engine import DefaultEngine
from problog.errors import ProbLogError
from problog.formula import LogicDAG, LogicFormula
from problog.logic import AnnotatedDisjunction, Clause, Constant, Term, Var, term2list
from problog.program import PrologString, SimpleProgram

from ..errors import TaskError, quote, short
from . import program_terms as terms
from .constraints import Constraints
from .expressions import OPS, Expr, call, const, var
from .model import Concept
from .program_connectives import conjunction, disjunction

ALLOWED_BUILTINS = {
    *(("true", 0), ("fail", 0), ("false", 0)),
    *((op, 2) for op in ("=", "\\=", "==", "\\==", "is", "=:=", "=\\=", "<", ">", "=<", ">=", "=..")),
    *((name, 1) for name in ("var", "nonvar", "atom", "number", "integer", "atomic", "compound", "is_list")),
    *(("ground", 1), ("functor", 3), ("arg", 3), ("between", 3), ("succ", 2), ("plus", 3)),
    *(("member", 2), ("memberchk", 2), ("append", 3), ("length", 2), ("last", 2), ("reverse", 2)),
    *(("nth0", 3), ("nth1", 3), ("select", 3), ("sum_list", 2), ("max_list", 2), ("min_list", 2)),
    ("list_to_set", 2),
}
CONTROL = {(",", 2), (";", 2), ("->", 2), ("\\+", 1), ("not", 1), ("forall", 2)}  # goals as arguments
LIBRARIES = {"lists"}
Reads = tuple[str, tuple[str, ...]]
NAME_CHARS = 60  # a concept or label name made from a longer atom is cut there
NONE = "none"  # the value of an annotated disjunction whose probabilities leave room for no head


@dataclasses.dataclass(frozen=True)
class Program:
    """What a program file gives a task: its concepts and labels, the queries with variables as
    constraints (so that loading checks each concept vector gets exactly one answer), and notes on
    what each concept and label stands for."""

    concepts: tuple[Concept, ...]
    labels: dict[str, Expr]
    constraints: Constraints | None
    notes: tuple[str, ...]
    reads: tuple[Reads | None, ...]  # per concept: (predicate, inputs) of a disjunction p(inputs, V)


def read_program(path: Path, text: str, query: Any) -> Program:
    """Ground the program of `path` (its `text`) for the queries (task field `query:`, else the
    program's own `query/1` facts) and read it back; a TaskError naming the line of a problem.
    problog's own warnings become notes (which `check` shows) instead of reaching the terminal."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        program = _read(path, text, query)
    heard = dict.fromkeys(f"problog warns: {short(str(w.message))}" for w in said)
    return dataclasses.replace(program, notes=(*program.notes, *heard))


def _read(path: Path, text: str, query: Any) -> Program:
    name = short(path.name)
    source = PrologString(text, source_root=str(path.parent))
    try:
        clauses = list(source)
    except ProbLogError as exc:
        raise TaskError("program", f"{name}: {short(str(exc))}") from None
    reader = _Reader(name, source)
    program, own_queries = reader.program(clauses)
    queries = _queries(query) if query is not None else own_queries
    if not queries:
        raise TaskError("query", f"no query: give query: or put query(...) facts in {name}")
    for q in queries:
        if terms.signature(q) not in reader.defined:
            predicate = "/".join(map(str, terms.signature(q)))
            raise TaskError("query", f"{quote(str(q))}: {quote(predicate)} is not defined in {name}")
    try:
        engine = DefaultEngine()
        database = engine.prepare(program)
        formula = engine.ground_all(database, queries=queries, target=LogicFormula())
        dag = LogicDAG.create_from(formula)
    except (ProbLogError, RecursionError) as exc:
        raise TaskError("program", f"{name}: grounding failed: {short(str(exc) or 'too deep')}") from None
    return _Translation(dag, reader, database).program(queries)


def _queries(spec: Any) -> list[Term]:
    """The atoms of `query:` (one, or a list), each parsed alone."""
    items = spec if isinstance(spec, list) else [spec]
    found = []
    for n, item in enumerate(items):
        where = "query" if not isinstance(spec, list) else f"query[{n}]"
        if not isinstance(item, str) or not item.strip():
            raise TaskError(where, "expected an atom such as addition(a, b, Z)")
        try:
            parsed = list(PrologString(item.strip().rstrip(".") + "."))
        except ProbLogError as exc:
            raise TaskError(where, short(str(exc))) from None
        if len(parsed) != 1 or not terms.is_atom(parsed[0]) or parsed[0].probability is not None:
            raise TaskError(where, f"{quote(item)} is not one atom")
        found.append(parsed[0])
    return found


@dataclasses.dataclass
class _Disjunction:
    """An annotated disjunction as written: head templates, and whether some head always holds."""

    heads: list[Term]
    complete: bool


class _Reader:
    """Checks a program's clauses and rewrites what problog should ground: nn/4 declarations and
    learnable probabilities t(_) become annotated disjunctions with placeholder probabilities."""

    def __init__(self, name: str, source: PrologString) -> None:
        self.name = name
        self.source = source
        self.defined: set[tuple[str, int]] = set()
        self.disjunctions: dict[Any, _Disjunction] = {}  # by source location

    def where(self, term: Any) -> str:
        location = getattr(term, "location", None)
        line = self.source.lineno(location)[1] if location is not None else None
        return f"{self.name}, line {line}" if line else self.name

    def program(self, clauses: Sequence[Any]) -> tuple[SimpleProgram, list[Term]]:
        heads = [h for c in clauses for h in terms.heads(c)]
        self.defined = {terms.signature(h) for h in heads if isinstance(h, Term)}
        program, queries = SimpleProgram(), []
        for clause in clauses:
            if isinstance(clause, Clause) and clause.head.functor == "_directive":
                self._directive(clause)
                program.add_clause(clause)  # loads problog's own library(lists), nothing else
            elif terms.is_atom(clause) and clause.functor == "query" and clause.arity == 1:
                queries.append(clause.args[0])
            elif terms.is_atom(clause) and clause.functor == "evidence":
                raise TaskError(
                    "program", f"{self.where(clause)}: evidence conditions the program; labels cannot"
                )
            else:
                for body in terms.bodies(clause):
                    self._check_goal(body, clause)
                program.add_clause(self._rewritten(clause))
        return program, queries

    def _directive(self, clause: Clause) -> None:
        body = clause.body
        library = body.args[0] if body.functor == "use_module" and body.arity == 1 else None
        if not (
            isinstance(library, Term) and library.functor == "library" and str(library.args[0]) in LIBRARIES
        ):
            raise TaskError(
                "program",
                f"{self.where(clause)}: directive {quote(str(body))} is not allowed "
                "(only :- use_module(library(lists)))",
            )

    def _check_goal(self, goal: Any, clause: Any) -> None:
        if isinstance(goal, Var):
            raise TaskError("program", f"{self.where(clause)}: a variable as a goal (call/N) is not allowed")
        if not isinstance(goal, Term) or isinstance(goal, Constant):
            raise TaskError("program", f"{self.where(clause)}: {quote(str(goal))} is not a goal")
        key = terms.signature(goal)
        if key in CONTROL:
            for arg in goal.args:
                self._check_goal(arg, clause)
        elif key not in self.defined and key not in ALLOWED_BUILTINS:
            raise TaskError(
                "program",
                f"{self.where(clause)}: {quote('/'.join(map(str, key)))} is neither defined in the program "
                "nor an allowed built-in (arithmetic, comparison, unification, type tests, between/3 and "
                "the list predicates of library(lists); no call/N, no file or OS built-ins)",
            )

    def _rewritten(self, clause: Any) -> Any:
        if isinstance(clause, AnnotatedDisjunction):
            return self._disjunction(clause, clause.heads, clause.body)
        if isinstance(clause, Term) and clause.functor == ";" and not isinstance(clause, Clause):
            return self._disjunction(clause, clause.to_list(), Term("true"))
        head = clause.head if isinstance(clause, Clause) else clause
        probability = head.probability
        body = clause.body if isinstance(clause, Clause) else Term("true")
        if isinstance(probability, Term) and probability.functor == "nn":
            if probability.arity != 4:
                raise TaskError(
                    "program",
                    f"{self.where(clause)}: nn/{probability.arity} declares no values "
                    "(write nn(Net, Inputs, Y, [v1, ...]))",
                )
            output, values = probability.args[2], term2list(probability.args[3], False)
            heads = [terms.bind(head.with_probability(None), {str(output): v}) for v in values]
            return self._disjunction(clause, heads, body, learnable=True)
        if probability is not None and not isinstance(probability, Constant):
            return self._disjunction(clause, [head], body, learnable=True)
        if probability is not None and (isinstance(clause, Clause) or not head.is_ground()):
            return self._disjunction(clause, [head], body)  # problog grounds these as one-head choices
        return clause

    def _disjunction(
        self, origin: Any, heads: list[Term], body: Term, learnable: bool = False
    ) -> AnnotatedDisjunction:
        weights = [terms.weight(h.probability) for h in heads]
        if learnable or any(w is None for w in weights):
            complete = len(heads) > 1
            share = Fraction(1, len(heads) + (0 if complete else 1))
            weights = [share] * len(heads)
        else:
            complete = sum(weights) == 1  # type: ignore[arg-type]
        placed = [h.with_probability(Constant(float(w))) for h, w in zip(heads, weights)]  # type: ignore[arg-type]
        result = AnnotatedDisjunction(placed, body, location=origin.location)
        written = _Disjunction([h.with_probability(None) for h in heads], complete)
        for located in (origin, *heads):  # problog numbers a disjunction by its own or a head's place
            if getattr(located, "location", None) is not None:
                self.disjunctions[located.location] = written
        return result


class _Translation:
    """A ground, acyclic problog formula as rscount expressions, with the concepts it reaches."""

    def __init__(self, dag: LogicDAG, reader: _Reader, database: Any) -> None:
        self.dag = dag
        self.reader = reader
        self.database = database
        self.origins: dict[int, Any] = {}  # database group number -> where its disjunction is written
        for n in range(len(database)):
            node = database.get_node(n)
            if getattr(node, "group", None) is not None and getattr(node, "location", None) is not None:
                self.origins.setdefault(node.group, node.location)
        self.concepts: dict[Any, tuple[str, tuple[Any, ...], Reads | None]] = {}  # name, values, reads
        self.names: set[str] = set()
        self.domains: dict[str, tuple[Any, ...]] = {}  # concept name -> values
        self.notes: list[str] = []
        self.as_written: list[str] = []  # concepts whose name is the program's text (no note of their own)
        self.memo: dict[int, Expr] = {}

    def program(self, queries: Sequence[Term]) -> Program:
        labels: dict[str, Expr] = {}
        formulas, domains = [], {}  # the queries with variables, as constraints (one answer each)
        answers = [(term, node) for term, node in self.dag.queries()]
        for query in queries:
            variables = sorted({str(v) for v in terms.variables(query)})
            found = [(t, n) for t, n in answers if terms.match(query, t, {}) is not None]
            if not variables:  # a ground query's truth is a function of the concepts: its label
                name = self._name(str(query))
                labels[name] = self.expr(found[0][1] if found else None)
                if name != str(query):
                    self.notes.append(f"label {name} is query {short(str(query))}")
                continue
            if not found:
                raise TaskError("query", f"{quote(str(query))} has no answer in the program")
            bound = []
            for term, node in found:
                binding = terms.match(query, term, {}) or {}
                bound.append(([terms.value(binding[v]) for v in variables], self.expr(node)))
                same = [call("Eq", var(v), const(x)) for v, x in zip(variables, bound[-1][0])]
                formulas.append(call("Equivalent", call("And", *same), bound[-1][1]))
            for k, v in enumerate(variables):
                if v in labels or v in self.names:
                    raise TaskError("query", f"variable {quote(v)} names two labels or a concept")
                domains[v] = tuple(sorted({x[k] for x, _ in bound}, key=lambda x: (isinstance(x, str), x)))
                label = const(bound[-1][0][k])  # the value of the answer that holds (checked: exactly one)
                for values, holds in reversed(bound[:-1]):
                    label = call("ITE", holds, const(values[k]), label)
                labels[v] = label
                self.notes.append(f"label {v} is {v} in query {short(str(query))}")
        concepts = tuple(Concept(name, values) for name, values, _ in self.concepts.values())
        if not concepts:
            raise TaskError("program", "the queries reach no probabilistic fact, disjunction or nn/4 atom")
        if self.as_written:
            self.notes.append(f"concepts named as in the program: {', '.join(self.as_written)}")
        rules = Constraints(tuple(formulas), domains) if formulas else None
        reads = tuple(r for _, _, r in self.concepts.values())
        return Program(concepts, labels, rules, tuple(self.notes), reads)

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
            return conjunction(parts) if kind == "conj" else disjunction(parts, self.domains)
        if item.group is None:  # a ground probabilistic fact (the node's name may be a query's)
            fact = self.database.get_node(item.identifier)
            name = self._concept(("fact", item.identifier), str(Term(fact.functor, *fact.args)), (0, 1))
            return var(name)
        return self._choice(item)

    def _choice(self, item: Any) -> Expr:
        group = item.group
        node, arguments, choice = item.identifier  # the atom's name may be a query's: not read
        disjunction = self._disjunction(group)
        order = list(dict.fromkeys(str(v) for h in disjunction.heads for v in terms.variables(h)))
        heads = [terms.bind(h, dict(zip(order, arguments))) for h in disjunction.heads]
        if len(order) != len(arguments) or any(not h.is_ground() for h in heads):
            raise TaskError(
                "program", f"{quote(str(heads[choice]))}: its disjunction's heads differ in variables"
            )
        if len(heads) == 1 and not disjunction.complete:
            return var(self._concept(group, str(heads[0]), (0, 1)))
        shared = {(h.functor, h.arity, h.args[:-1]) for h in heads}
        reads = None
        if len(shared) == 1 and heads[0].arity:
            label, values = (
                str(Term(heads[0].functor, *heads[0].args[:-1])),
                [terms.value(h.args[-1]) for h in heads],
            )
            reads = (terms.signature(heads[0])[0], tuple(str(a) for a in heads[0].args[:-1]))
        else:
            label, values = " or ".join(map(str, heads)), [str(h) for h in heads]
        if len(set(values)) != len(values):
            raise TaskError("program", f"{quote(label)}: two heads of one disjunction give the same value")
        if not disjunction.complete and NONE in values:
            raise TaskError("program", f"{quote(label)}: a head's value is {NONE!r}, the value of no head")
        domain = (*values, NONE) if not disjunction.complete else tuple(values)
        name = self._concept(group, label, domain, reads)
        return call("Eq", var(name), const(values[choice]))

    def _disjunction(self, group: Any) -> _Disjunction:
        """The disjunction as written that a ground group (database node, arguments) comes from."""
        found = self.reader.disjunctions.get(self.origins.get(group[0]))
        if found is None:
            raise TaskError("program", "a probabilistic clause could not be traced to the program")
        return found

    def _concept(self, key: Any, text: str, values: tuple[Any, ...], reads: Reads | None = None) -> str:
        if key not in self.concepts:
            name = self._name(text)
            self.concepts[key] = (name, values, reads)
            self.domains[name] = values
            if name != text:
                self.notes.append(f"concept {name} is {short(text)}")
            else:
                self.as_written.append(name)
        return self.concepts[key][0]

    def _name(self, text: str) -> str:
        base = re.sub(r"\W+", "_", text).strip("_")[:NAME_CHARS] or "c"
        if base[0].isdigit() or keyword.iskeyword(base) or base in OPS:
            base = f"c_{base}"
        name, n = base, 2
        while name in self.names:
            name, n = f"{base}_{n}", n + 1
        self.names.add(name)
        return name
