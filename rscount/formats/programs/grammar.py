"""Grammar rules (`Head --> Body`, as DeepStochLog writes them) read as the clauses Prolog's standard
DCG translation makes of them: a nonterminal takes the token list before and after it as two
extra arguments, last; a terminal list [t1, ..., tn] is `S0 = [t1, ..., tn | S]`, `{Goal}` is Goal
with S0 = S. A query then gives the tokens as those two arguments: `addition(N, [a, b], [])`.

DeepStochLog's neural rule `nn(Net, Inputs, Y, Domain) :: Head --> Body` classifies its inputs (the
tokens Body consumes) into Domain, a predicate `Domain(Y) :- member(Y, [v1, ...])` or facts
`Domain(v)`: it is read as DeepProbLog's neural predicate `Functor(Inputs..., Y)` over the values
(one concept per input token, `digit(a)` as in a DeepProbLog program) called after Body. A rule's
probability (`0.5 :: s(0) --> ...`) weighs derivations; a count needs only whether one exists, so
it is read as a plain rule, and a note says so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from problog.logic import And, Clause, Constant, Not, Or, Term, Var, list2term, term2list

from ...errors import FormatError, quote
from . import terms

ARROW = "-->"
CALL = "{}"  # the functor `{Goal}` is read as, once the braces are written as a call


def braces_as_calls(text: str) -> str:
    """`text` with every `{Goal}` written `'{}'((Goal))`, which problog parses (it has no curly
    terms), outside quotes and comments; lines stay where they were."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":  # a quoted atom or string: copied to its closing quote ('' escapes one)
            j = i + 1
            while j < n and not (text[j] == ch and text[j + 1 : j + 2] != ch):
                j += 2 if text[j] == ch or text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif ch == "%":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[i:j])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(text[i:j])
            i = j
        elif ch == "0" and text.startswith("0'", i):  # a character code: 0'{ is no brace
            out.append(text[i : i + 3])
            i += 3
        else:
            out.append({"{": f"'{CALL}'((", "}": "))"}.get(ch, ch))  # ((: a conjunction is one argument
            i += 1
    return "".join(out)


class Grammar:
    """Translates a program's grammar rules, numbering the token variables it introduces."""

    def __init__(self, path: str, clauses: Sequence[Any], line: Any) -> None:
        self.path = path
        self.clauses = clauses
        self.line = line  # term -> its line in the program, for errors
        self.fresh = 0
        self.notes: list[str] = []
        self.defined = {terms.signature(h) for c in clauses for h in terms.heads(c) if isinstance(h, Term)}

    def translated(self) -> list[Any]:
        """The program's clauses with every grammar rule replaced by the clauses it stands for."""
        out: list[Any] = []
        weighted = []
        for clause in self.clauses:
            if not is_rule(clause):
                out.append(clause)
                continue
            head, body = clause.args
            if isinstance(head, And):
                raise self._error(clause, "a pushback (Head, List --> Body) is not read: write it without")
            probability = head.probability
            head = head.with_probability(None)
            if isinstance(probability, Term) and probability.functor == "nn":
                out += self._neural(clause, probability, head, body)
                continue
            if probability is not None and terms.weight(probability) != 1:
                weighted.append(str(terms.signature(head)[0]))
            s0, s = self._var(), self._var()
            out.append(
                self._located(
                    Clause(self._nonterminal(clause, head, s0, s), self._body(clause, body, s0, s)), clause
                )
            )
        if weighted:
            shown = ", ".join(dict.fromkeys(weighted))
            self.notes.append(
                f"rule probabilities of {shown} weigh derivations: read as plain rules (a count asks "
                "only whether a derivation exists)"
            )
        return out

    def _neural(self, clause: Term, declaration: Term, head: Term, body: Any) -> list[Any]:
        """nn(Net, Inputs, Y, Domain) :: Head --> Body as Head's clause calling the neural predicate
        Functor(Inputs..., Y) after Body, and that predicate's DeepProbLog declaration."""
        if declaration.arity != 4:
            raise self._error(
                clause,
                f"nn/{declaration.arity} in a grammar rule: DeepStochLog writes nn(Net, Inputs, Y, Domain)",
            )
        net, inputs, output, domain = declaration.args
        values = self._domain(clause, domain)
        items = term2list(inputs, False)
        functor = str(head.functor)
        while (terms.signature(Term(functor, *items, output))) in self.defined:
            functor += "_nn"
        neural = Term(functor, *items, output)
        declared = neural.with_probability(Term("nn", net, inputs, output, list2term(values)))
        s0, s = self._var(), self._var()
        grammar = Clause(self._nonterminal(clause, head, s0, s), And(self._body(clause, body, s0, s), neural))
        self.defined.add(terms.signature(neural))
        return [self._located(declared, clause), self._located(grammar, clause)]

    def _domain(self, clause: Term, domain: Any) -> list[Any]:
        """The values of a neural rule's Domain: a list, or a predicate's member/2 list or facts."""
        if (isinstance(domain, Term) and domain.functor == ".") or str(domain) == "[]":
            return list(term2list(domain, False))
        name = str(domain)
        facts = [c.args[0] for c in self.clauses if terms.is_atom(c) and terms.signature(c) == (name, 1)]
        for c in self.clauses:
            if (
                isinstance(c, Clause)
                and terms.signature(c.head) == (name, 1)
                and isinstance(c.head.args[0], Var)
            ):
                goal = c.body
                if terms.signature(goal) == ("member", 2) and goal.args[0] == c.head.args[0]:
                    found = term2list(goal.args[1], False)
                    if all(isinstance(v, Term) and v.is_ground() for v in found):
                        return list(found)
        if facts and all(f.is_ground() for f in facts):
            return facts
        raise self._error(
            clause,
            f"the domain {quote(name)} of a neural rule is neither a list nor {name}(Y) :- member(Y, [...]) "
            f"nor facts {name}(v): write one of those",
        )

    def _nonterminal(self, clause: Term, goal: Any, s0: Var, s: Var) -> Term:
        """A nonterminal goal with the token lists before and after it as its last two arguments."""
        if isinstance(goal, Var) or not isinstance(goal, Term) or isinstance(goal, Constant):
            raise self._error(clause, f"{quote(str(goal))} is not a nonterminal (a variable or a number)")
        return Term(goal.functor, *goal.args, s0, s)

    def _body(self, clause: Term, body: Any, s0: Var, s: Var) -> Any:
        """The goal a rule body stands for between the token lists s0 and s."""
        key = terms.signature(body) if isinstance(body, Term) and not isinstance(body, Var) else None
        if key == (",", 2):
            middle = self._var()
            return And(
                self._body(clause, body.args[0], s0, middle), self._body(clause, body.args[1], middle, s)
            )
        if key == (";", 2):
            return Or(self._body(clause, body.args[0], s0, s), self._body(clause, body.args[1], s0, s))
        if key == ("\\+", 1):
            return And(Not("\\+", self._body(clause, body.args[0], s0, self._var())), Term("=", s0, s))
        if key == (CALL, 1):
            return And(body.args[0], Term("=", s0, s))
        if key == ("[]", 0) or (key == (".", 2)):
            tokens = term2list(body, False) if key == (".", 2) else []
            tail: Any = s
            for token in reversed(tokens):  # [t1, ..., tn | S]
                tail = Term(".", token, tail)
            return Term("=", s0, tail)
        if isinstance(body, Constant) and isinstance(body.value, str):
            raise self._error(
                clause, f"the string {quote(str(body))} as terminals is not read: write a list of tokens"
            )
        if key == ("!", 0):
            raise self._error(clause, "a cut (!) in a grammar rule is not read")
        return self._nonterminal(clause, body, s0, s)

    def _var(self) -> Var:
        self.fresh += 1
        return Var(f"S_dcg{self.fresh}")

    def _located(self, term: Any, origin: Term) -> Any:
        """`term` placed where the rule it comes from is written (notes and errors name the line)."""
        term.location = origin.location
        return term

    def _error(self, clause: Term, problem: str) -> FormatError:
        return FormatError(self.path, f"grammar rule: {problem}", self.line(clause))


def is_rule(clause: Any) -> bool:
    """Whether a parsed clause is a grammar rule `Head --> Body`."""
    return (
        isinstance(clause, Term) and not isinstance(clause, Clause) and terms.signature(clause) == (ARROW, 2)
    )
