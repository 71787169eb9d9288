"""A ProbLog / DeepProbLog program's clauses read as data before problog grounds them
(rscount.formats.programs.problog): which clauses the queries (and the evidence) reach, each reached goal
checked against the program's own predicates and the allowed built-ins, and the neural and learnable
declarations rewritten as annotated disjunctions with placeholder probabilities.

Clauses no query reaches are left out, not judged (DeepProbLog's Coins defines `and/1` with a
variable as a goal and never calls it); `check` lists them. The list predicates of library(lists)
are available whether or not the program loads the library, as in DeepProbLog's engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from problog.errors import ProbLogError
from problog.logic import AnnotatedDisjunction, Clause, Constant, Term, Var, term2list
from problog.program import PrologString, SimpleProgram

from ...errors import FormatError, TaskError, quote, short
from . import terms
from .program import Reads

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
LISTS = list(PrologString(":- use_module(library(lists)).")).pop()  # loaded for every program
Signature = tuple[str, int]


@dataclasses.dataclass
class Disjunction:
    """An annotated disjunction as written: head templates, whether some head always holds, and
    where its clause is when it has a body (a probabilistic clause's choice is a concept of its own)."""

    heads: list[Term]
    complete: bool
    clause: str | None = None


@dataclasses.dataclass(frozen=True)
class Evidence:
    """`evidence(Atom, Value)` as written (`evidence(Atom)`: true)."""

    atom: Term
    value: bool


def choice_concept(heads: Sequence[Term]) -> tuple[str, list[Any], Reads | None, str | None]:
    """The concept a disjunction's ground heads choose among: heads p(inputs, v1), ..., p(inputs, vn)
    are concept `p(inputs)` with values v1, ..., vn, reading its inputs; other heads are values as
    written (with a shorter name when there are many). Label, values, reads, name to use."""
    shared = {(h.functor, h.arity, h.args[:-1]) for h in heads}
    if len(shared) == 1 and heads[0].arity:
        reads = (terms.signature(heads[0])[0], tuple(str(a) for a in heads[0].args[:-1]))
        label = str(Term(heads[0].functor, *heads[0].args[:-1]))
        return label, [terms.value(h.args[-1]) for h in heads], reads, None
    named = f"{heads[0]} to {heads[-1]}" if len(heads) > 2 else None
    return " or ".join(map(str, heads)), [str(h) for h in heads], None, named


def parse_queries(spec: Any) -> list[Term]:
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


class Reader:
    """Reads a program's clauses: its own queries and evidence, the predicates they reach, and the
    program problog grounds (reached clauses only, rewritten)."""

    def __init__(self, path: Path, source: PrologString) -> None:
        self.path = path
        self.name = short(path.name)
        self.source = source
        self.defined: set[Signature] = set()
        self.disjunctions: dict[Any, Disjunction] = {}  # by source location
        self.own_queries: list[Term] = []
        self.evidence: list[Evidence] = []
        self.left_out: list[str] = []  # predicates defined but reached by no query, as name/arity

    def line(self, term: Any) -> int | None:
        """The program's line a term is written on, when problog kept its place."""
        location = getattr(term, "location", None)
        return (self.source.lineno(location)[1] or None) if location is not None else None

    def where(self, term: Any) -> str:
        """The program and line of a term, as notes name it."""
        line = self.line(term)
        return f"{self.name}, line {line}" if line else self.name

    def error(self, term: Any, problem: str) -> FormatError:
        """The program's error at the line of `term`."""
        return FormatError(str(self.path), problem, self.line(term))

    def read(
        self, clauses: Sequence[Any], queries: Sequence[Term] | None
    ) -> tuple[SimpleProgram, list[Term]]:
        """The program to ground and the queries (those given, else the program's own)."""
        rules = []
        for clause in clauses:
            if isinstance(clause, Clause) and clause.head.functor == "_directive":
                self._directive(clause)
            elif terms.is_atom(clause) and clause.functor == "query" and clause.arity == 1:
                self.own_queries.append(clause.args[0])
            elif terms.is_atom(clause) and clause.functor == "evidence" and clause.arity in (1, 2):
                self.evidence.append(self._evidence(clause))
            else:
                rules.append(clause)
        self.defined = {terms.signature(h) for c in rules for h in terms.heads(c) if isinstance(h, Term)}
        chosen = list(queries) if queries is not None else self.own_queries
        if not chosen:
            raise TaskError("query", f"no query: give query: or put query(...) facts in {self.name}")
        for goal in [*chosen, *(e.atom for e in self.evidence)]:
            if terms.signature(goal) not in self.defined:
                predicate = "/".join(map(str, terms.signature(goal)))
                raise TaskError(
                    "query", f"{quote(str(goal))}: {quote(predicate)} is not defined in {self.name}"
                )
        reached = self._reached(
            [terms.signature(g) for g in [*chosen, *(e.atom for e in self.evidence)]], rules
        )
        program = SimpleProgram()
        program.add_clause(LISTS)
        for clause in rules:
            if {terms.signature(h) for h in terms.heads(clause)} & reached:
                program.add_clause(self._rewritten(clause))
        self.left_out = sorted("/".join(map(str, s)) for s in self.defined - reached)
        return program, chosen

    def _reached(self, start: list[Signature], rules: Sequence[Any]) -> set[Signature]:
        """The predicates the goals of `start` reach through the clauses, each reached clause's goals
        checked on the way."""
        by_head: dict[Signature, list[Any]] = {}
        for clause in rules:
            for head in terms.heads(clause):
                by_head.setdefault(terms.signature(head), []).append(clause)
        reached: set[Signature] = set()
        todo = list(start)
        while todo:
            signature = todo.pop()
            if signature in reached:
                continue
            reached.add(signature)
            for clause in by_head.get(signature, []):
                todo += [terms.signature(h) for h in terms.heads(clause)]  # a disjunction's other heads
                for body in terms.bodies(clause):
                    todo += [g for g in self._goals(body, clause) if g in self.defined]
        return reached

    def _goals(self, goal: Any, clause: Any) -> Iterator[Signature]:
        """The predicates a body calls, each checked to be defined or an allowed built-in."""
        if isinstance(goal, Var):
            raise self.error(clause, "a variable as a goal (call/N) is not allowed")
        if not isinstance(goal, Term) or isinstance(goal, Constant):
            raise self.error(clause, f"{quote(str(goal))} is not a goal")
        key = terms.signature(goal)
        if key in CONTROL:
            for arg in goal.args:
                yield from self._goals(arg, clause)
        elif key in self.defined:
            yield key
        elif key not in ALLOWED_BUILTINS:
            raise self.error(
                clause,
                f"{quote('/'.join(map(str, key)))} is neither defined in the program "
                "nor an allowed built-in (arithmetic, comparison, unification, type tests, between/3 and "
                "the list predicates of library(lists); no call/N, no file or OS built-ins)",
            )

    def _directive(self, clause: Clause) -> None:
        body = clause.body
        library = body.args[0] if body.functor == "use_module" and body.arity == 1 else None
        if not (
            isinstance(library, Term) and library.functor == "library" and str(library.args[0]) in LIBRARIES
        ):
            raise self.error(
                clause,
                f"directive {quote(str(body))} is not allowed (only :- use_module(library(lists)))",
            )

    def _evidence(self, clause: Term) -> Evidence:
        atom = clause.args[0]
        value = clause.args[1] if clause.arity == 2 else Term("true")
        if not terms.is_atom(atom) or str(value) not in ("true", "false"):
            raise self.error(clause, "evidence(Atom, true|false) expected")
        return Evidence(atom, str(value) == "true")

    def _rewritten(self, clause: Any) -> Any:
        if isinstance(clause, AnnotatedDisjunction):
            return self._disjunction(clause, clause.heads, clause.body)
        if isinstance(clause, Term) and clause.functor == ";" and not isinstance(clause, Clause):
            return self._disjunction(clause, clause.to_list(), Term("true"))
        head = clause.head if isinstance(clause, Clause) else clause
        probability = head.probability
        body = clause.body if isinstance(clause, Clause) else Term("true")
        if isinstance(probability, Term) and probability.functor == "nn":
            return self._neural(clause, head, probability, body)
        if (
            probability is not None
            and not isinstance(probability, Constant)
            and terms.weight(probability) is None
        ):
            return self._disjunction(clause, [head], body, learnable=True)
        if probability is not None and (
            isinstance(clause, Clause) or not head.is_ground() or not isinstance(probability, Constant)
        ):
            return self._disjunction(clause, [head], body)  # problog grounds these as one-head choices
        return clause

    def _neural(self, clause: Any, head: Term, declaration: Term, body: Term) -> AnnotatedDisjunction:
        """nn(Net, Inputs, Y, [v1, ...]) :: p(..., Y): a choice among the values per input reached;
        nn(Net, Inputs) :: p(...): a Boolean neural fact; nn(Net, Inputs, Y) gives a tensor Y, which
        has no finite set of values to count over."""
        if declaration.arity == 2:
            return self._disjunction(clause, [head.with_probability(None)], body, learnable=True)
        if declaration.arity == 3:
            raise self.error(
                clause,
                f"nn/3 declares a tensor output "
                f"({quote(str(head.with_probability(None)))}): it has no finite set of values to count over "
                "(a classifier is nn(Net, Inputs, Y, [v1, ...]), a Boolean neural fact nn(Net, Inputs))",
            )
        if declaration.arity != 4:
            raise self.error(clause, f"nn/{declaration.arity} is not a neural declaration")
        output, values = declaration.args[2], term2list(declaration.args[3], False)
        heads = [terms.bind(head.with_probability(None), {str(output): v}) for v in values]
        return self._disjunction(clause, heads, body, learnable=True)

    def _disjunction(
        self, origin: Any, heads: list[Term], body: Term, learnable: bool = False
    ) -> AnnotatedDisjunction:
        """The heads as one annotated disjunction for problog, with placeholder probabilities (only
        the grounding's structure is read); whether the heads' own probabilities, read exactly, sum to 1
        (a learnable one with several heads always does) is kept with the heads as written."""
        weights = [w for w in (terms.weight(h.probability) for h in heads) if w is not None]
        if learnable or len(weights) < len(heads):
            complete = len(heads) > 1
        else:
            complete = sum(weights, Fraction(0)) == 1
        placeholder = Constant(1 / (len(heads) + 1))
        placed = [h.with_probability(placeholder) for h in heads]
        result = AnnotatedDisjunction(placed, body, location=origin.location)
        ruled = body is not None and str(body) != "true"
        written = Disjunction(
            [h.with_probability(None) for h in heads], complete, self.where(origin) if ruled else None
        )
        for located in (origin, *heads):  # problog numbers a disjunction by its own or a head's place
            if getattr(located, "location", None) is not None:
                self.disjunctions[located.location] = written
        return result
