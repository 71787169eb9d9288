"""A ProbLog / DeepProbLog query read without grounding, where the program lets it: the query is
resolved once, as Prolog would, with each neural choice `digit(a1, D)` binding D to the concept
itself, and arithmetic (`Acc2 is Nr + 10 * Acc`) building an expression over the concepts instead of
a number. DeepProbLog's multi-digit addition then reads as `Z = 100*a1 + 10*a2 + a3 + ...` in
milliseconds, where grounding lists one proof per concept vector (10^6 for two 3-digit numbers).

This is exact only when no step depends on the concepts' values: so any test of a concept (a
comparison, a unification with a value, a choice whose value is given, a division by a concept),
any probabilistic fact, evidence or built-in not listed here, and any query with other than one
answer, gives the program back to grounding (`unfold` returns None). What is left succeeds or fails
alike for every concept vector, with one answer: the expression.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from problog.logic import AnnotatedDisjunction, Clause, Constant, Term, Var

from ...errors import short
from ...task.expressions import Expr, call, const, var
from . import terms
from .problog_clauses import Disjunction, Reader, choice_concept
from .program import Naming, Program

STEPS = 100_000  # goals resolved at most before the program is left to grounding
DEPTH = 400  # nested calls at most (a recursion that does not end on its own is left to grounding)


class NotUnfolded(Exception):
    """A step of the resolution depends on the concepts' values, or is not read here."""


@dataclasses.dataclass(frozen=True)
class Struct:
    """A compound term: functor and arguments (internal terms)."""

    functor: str
    args: tuple[Any, ...]


@dataclasses.dataclass(frozen=True)
class Sym:
    """A value that is an expression over the concepts; `numeric` when it is a number on every vector."""

    expr: Expr
    numeric: bool


class Ref:
    """A logic variable (compared by identity)."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class Choice:
    """A complete annotated disjunction without body, p(inputs, v1); ...; p(inputs, vn): a concept per
    ground inputs."""

    inputs: tuple[Any, ...]  # problog terms, the heads' shared arguments before the last
    values: tuple[Any, ...]  # problog terms, the heads' last arguments
    key: Any  # where it is written


ARITHMETIC: dict[tuple[str, int], tuple[str, Callable[..., int]]] = {
    ("+", 2): ("Add", operator.add),
    ("-", 2): ("Sub", operator.sub),
    ("*", 2): ("Mul", operator.mul),
    ("//", 2): ("FloorDiv", operator.floordiv),  # problog's // and mod are Python's, as these are
    ("mod", 2): ("Mod", operator.mod),
    ("-", 1): ("Neg", operator.neg),
    ("abs", 1): ("Abs", abs),
    ("min", 2): ("Min", min),
    ("max", 2): ("Max", max),
}
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    ">": operator.gt,
    "=<": operator.le,
    ">=": operator.ge,
    "=:=": operator.eq,
    "=\\=": operator.ne,
}


def unfold(reader: Reader, clauses: Sequence[Any], queries: Sequence[Term]) -> Program | None:
    """The program of the reached `clauses` (as rewritten for problog) for `queries`, read by
    resolution over symbolic concepts, or None where that is not exact (then it is grounded)."""
    if reader.evidence:
        return None
    try:
        return _Unfolding(reader, clauses).program(queries)
    except (NotUnfolded, RecursionError):
        return None


class _Unfolding:
    """One resolution over the program's clauses, its bindings undone on backtracking (a trail)."""

    def __init__(self, reader: Reader, clauses: Sequence[Any]) -> None:
        self.rules: dict[tuple[str, int], list[Any]] = {}
        self.choices: dict[tuple[str, int], list[Choice]] = {}
        self.opaque: set[tuple[str, int]] = set()  # predicates with probabilistic clauses not read here
        for clause in clauses:
            self._add(reader.disjunctions, clause)
        self.naming = Naming()
        self.bound: dict[Ref, Any] = {}
        self.trail: list[Ref] = []
        self.steps = 0

    def _add(self, written: dict[Any, Disjunction], clause: Any) -> None:
        heads = list(terms.heads(clause))
        if not heads:  # the directive loading library(lists)
            return
        signature = terms.signature(heads[0])
        if isinstance(clause, AnnotatedDisjunction):
            disjunction = written.get(getattr(clause, "location", None))
            shared = {(h.functor, h.arity, h.args[:-1]) for h in heads}
            if (
                disjunction is not None
                and disjunction.complete
                and str(clause.body) == "true"
                and len(shared) == 1
                and heads[0].arity
                and all(h.args[-1].is_ground() for h in heads)
            ):
                inputs = tuple(heads[0].args[:-1])
                choice = Choice(inputs, tuple(h.args[-1] for h in heads), clause.location)
                self.choices.setdefault(signature, []).append(choice)
                return
            self.opaque.add(signature)
        elif heads[0].probability is not None:
            self.opaque.add(signature)
        else:
            self.rules.setdefault(signature, []).append(clause)

    def program(self, queries: Sequence[Term]) -> Program:
        labels: dict[str, Expr] = {}
        for query in queries:
            names = sorted({str(v) for v in terms.variables(query)})
            refs = {name: Ref() for name in names}
            goal = self._internal(query, refs)
            found: list[tuple[Any, ...]] = []
            for _ in self._solve((goal, None), 0):
                answer = tuple(self._resolved(refs[name]) for name in names)
                if answer not in found:
                    found.append(answer)
            if names and len(found) != 1:
                raise NotUnfolded("the query has other than one answer")
            if not names:
                labels[self.naming.name(str(query))] = const(int(bool(found)))
            for name, value in zip(names, found[0] if names else ()):
                if name in labels or name in self.naming.names:
                    raise NotUnfolded("a variable names two labels")
                labels[name] = self._expr(value)
            self.naming.notes.append(
                f"query {short(str(query))} read by resolution, its arithmetic kept as expressions of the "
                "concepts: it holds with one answer for every concept vector"
            )
        concepts, reads, notes = self.naming.named()
        if not concepts:
            raise NotUnfolded("no concept reached")
        return Program(concepts, labels, (), notes, reads, None)

    def _solve(self, goals: tuple[Any, Any] | None, depth: int) -> Iterator[None]:
        """Each solution of the goal list (a linked list), its bindings in place while it is used."""
        if goals is None:
            yield
            return
        self.steps += 1
        if self.steps > STEPS or depth > DEPTH:
            raise NotUnfolded("too long a resolution")
        goal, rest = self._walk(goals[0]), goals[1]
        if isinstance(goal, Struct):
            key, args = (goal.functor, len(goal.args)), goal.args
        elif isinstance(goal, Term) and not isinstance(goal, Constant):
            key, args = terms.signature(goal), ()
        else:
            raise NotUnfolded("a goal that is no atom")
        if key == (",", 2):
            yield from self._solve((args[0], (args[1], rest)), depth)
        elif key == ("true", 0):
            yield from self._solve(rest, depth)
        elif key in (("fail", 0), ("false", 0)):
            return
        elif key == (";", 2):
            yield from self._solve((args[0], rest), depth)
            yield from self._solve((args[1], rest), depth)
        elif key in (("\\+", 1), ("not", 1)):
            if not self._succeeds(args[0], depth):
                yield from self._solve(rest, depth)
        elif key in (("=", 2), ("is", 2)):
            right = self._evaluate(args[1]) if key[0] == "is" else args[1]
            mark = len(self.trail)
            if self._unify(args[0], right):
                yield from self._solve(rest, depth)
            self._undo(mark)
        elif key == ("\\=", 2):
            mark = len(self.trail)
            unifiable = self._unify(args[0], args[1])
            self._undo(mark)
            if not unifiable:
                yield from self._solve(rest, depth)
        elif key[1] == 2 and key[0] in COMPARISONS:
            left, right = self._evaluate(args[0]), self._evaluate(args[1])
            if isinstance(left, Sym) or isinstance(right, Sym):
                raise NotUnfolded("a concept is compared")
            if COMPARISONS[key[0]](left, right):
                yield from self._solve(rest, depth)
        elif key in self.opaque or (key in self.choices and key in self.rules):
            raise NotUnfolded(f"{key[0]}/{key[1]} has probabilistic clauses not read by resolution")
        elif key in self.choices:
            self._choose(key, args)
            yield from self._solve(rest, depth)
        elif key in self.rules:
            for clause in self.rules[key]:
                head, body = self._renamed(clause)
                mark = len(self.trail)
                if self._unify(goal, head):
                    yield from self._solve(rest if body is None else (body, rest), depth + 1)
                self._undo(mark)
        else:
            raise NotUnfolded(f"{key[0]}/{key[1]} is not read by resolution")

    def _succeeds(self, goal: Any, depth: int) -> bool:
        """Whether `goal` has a solution (its bindings undone)."""
        mark = len(self.trail)
        found = next(iter(self._solve((goal, None), depth + 1)), False) is None
        self._undo(mark)
        return found

    def _choose(self, key: tuple[str, int], args: tuple[Any, ...]) -> None:
        """Bind a choice's last argument to the concept its inputs name (an unbound variable only: a
        value given there is a test of the concept)."""
        matching = []
        for choice in self.choices[key]:
            mark = len(self.trail)
            refs: dict[str, Ref] = {}
            if all(self._unify(a, self._internal(t, refs)) for a, t in zip(args[:-1], choice.inputs)):
                matching.append((choice, tuple(self._resolved(a) for a in args[:-1])))
            self._undo(mark)
        if len(matching) != 1:
            raise NotUnfolded("a choice's inputs match other than one disjunction")
        choice, inputs = matching[0]
        ground = [self._term(i) for i in inputs]
        heads = [Term(key[0], *ground, v) for v in choice.values]
        label, values, reads, named = choice_concept(heads)
        if len(set(values)) != len(values) or reads is None:
            raise NotUnfolded("a choice's heads are not one concept's values")
        name = self.naming.concept((choice.key, inputs), label, tuple(values), reads, named)
        output = self._walk(args[-1])
        if not isinstance(output, Ref):
            raise NotUnfolded("a concept's value is given")
        self._bind(output, Sym(var(name), all(type(v) is int for v in values)))

    def _evaluate(self, term: Any) -> Any:
        """The value of an arithmetic term: an int, or a numeric Sym (folding constants)."""
        term = self._walk(term)
        if type(term) is int or (isinstance(term, Sym) and term.numeric):
            return term
        if not isinstance(term, Struct) or (term.functor, len(term.args)) not in ARITHMETIC:
            raise NotUnfolded("arithmetic not read by resolution")
        op, compute = ARITHMETIC[term.functor, len(term.args)]
        args = [self._evaluate(a) for a in term.args]
        if op in ("FloorDiv", "Mod") and (isinstance(args[1], Sym) or args[1] == 0):
            raise NotUnfolded("a division by a concept or by zero")
        if not any(isinstance(a, Sym) for a in args):
            return compute(*args)
        if op == "Mul" and 0 in args:
            return 0
        if op in ("Add", "Sub") and args[1] == 0:
            return args[0]
        if op == "Add" and args[0] == 0:
            return args[1]
        if op == "Mul" and 1 in args:
            return args[1 - args.index(1)]
        return Sym(call(op, *(a.expr if isinstance(a, Sym) else const(a) for a in args)), True)

    def _unify(self, a: Any, b: Any) -> bool:
        a, b = self._walk(a), self._walk(b)
        if a is b:
            return True
        if isinstance(a, Ref):
            self._bind(a, b)
            return True
        if isinstance(b, Ref):
            self._bind(b, a)
            return True
        if isinstance(a, Sym) or isinstance(b, Sym):
            if a == b:
                return True
            raise NotUnfolded("a concept's value is tested")
        if isinstance(a, Struct) and isinstance(b, Struct):
            if a.functor != b.functor or len(a.args) != len(b.args):
                return False
            return all(self._unify(x, y) for x, y in zip(a.args, b.args))
        return type(a) is type(b) and bool(a == b)

    def _walk(self, term: Any) -> Any:
        while isinstance(term, Ref) and term in self.bound:
            term = self.bound[term]
        return term

    def _bind(self, ref: Ref, value: Any) -> None:
        self.bound[ref] = value
        self.trail.append(ref)

    def _undo(self, mark: int) -> None:
        while len(self.trail) > mark:
            del self.bound[self.trail.pop()]

    def _resolved(self, term: Any) -> Any:
        """A term with its bound variables replaced, all through; an unbound one is not read here."""
        term = self._walk(term)
        if isinstance(term, Ref):
            raise NotUnfolded("an answer or a choice's input is not ground")
        if isinstance(term, Struct):
            return Struct(term.functor, tuple(self._resolved(a) for a in term.args))
        return term

    def _renamed(self, clause: Any) -> tuple[Any, Any]:
        """Head and body (None for a fact) of a clause, with fresh variables."""
        refs: dict[str, Ref] = {}
        if isinstance(clause, Clause):
            return self._internal(clause.head, refs), self._internal(clause.body, refs)
        return self._internal(clause, refs), None

    def _internal(self, term: Any, refs: dict[str, Ref]) -> Any:
        """A problog term as an internal one: variables as Refs (by name, in `refs`), integers as
        ints, compound terms as Structs, other constants and atoms as they are."""
        if isinstance(term, Var):
            return refs.setdefault(str(term), Ref())
        if isinstance(term, Constant):
            return term.value if type(term.value) is int else term
        if isinstance(term, Term) and term.args:
            return Struct(terms.signature(term)[0], tuple(self._internal(a, refs) for a in term.args))
        return term.with_probability(None) if isinstance(term, Term) else term

    def _term(self, value: Any) -> Any:
        """A ground internal term (no Sym) as a problog term."""
        if isinstance(value, Sym):
            raise NotUnfolded("a concept is a choice's input")
        if type(value) is int:
            return Constant(value)
        if isinstance(value, Struct):
            return Term(value.functor, *(self._term(a) for a in value.args))
        return value

    def _expr(self, value: Any) -> Expr:
        """An answer's value as an expression: a Sym's own, else the constant grounding would give."""
        if isinstance(value, Sym):
            return value.expr
        if type(value) is int:
            return const(value)
        return const(terms.value(self._term(value)))
