"""The connectives of a grounded program (rscount.formats.programs.problog) as expressions, simplified as they
are built: grounding keeps products that need two values of one concept and sums over every value of
a concept (problog does not know that a disjunction's heads exclude each other); both go here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...task.expressions import Expr, call, const, var


def _literal(e: Expr) -> tuple[str, Any] | None:
    """(concept, value) of `concept == value`, else None."""
    if e.op == "Eq" and e.args[0].op == "var" and e.args[1].op == "const":
        return e.args[0].args[0], e.args[1].args[0]
    return None


def _read(e: Expr) -> tuple[dict[str, Any], bool] | None:
    """The values the literals of conjunction `e` fix (nested conjunctions read through) and whether
    it is made of literals alone; None when it needs two values of one concept."""
    found: dict[str, Any] = {}
    only_literals = True
    stack = [e]
    while stack:
        part = stack.pop()
        if part.op == "And":
            stack.extend(part.args)
        elif (literal := _literal(part)) is None:
            only_literals = False
        elif found.setdefault(*literal) != literal[1]:
            return None
    return found, only_literals


def conjunction(parts: Sequence[Expr]) -> Expr:
    """The conjunction of ground parts, simplified: grounding joins derivations that need two values of
    one concept (colour(c1, red), colour(c1, blue)), which no concept vector meets, often one of
    them deep in nested conjunctions (read through here; the parts are kept, shared as built)."""
    kept: list[Expr] = []
    fixed: dict[str, Any] = {}
    for part in parts:
        if part.op == "const":
            if not part.args[0]:
                return const(0)
            continue
        literal = _literal(part)
        if literal is not None and literal[0] in fixed:
            if fixed[literal[0]] != literal[1]:
                return const(0)
            continue
        read = _read(part)
        if read is None:
            return const(0)
        for concept, value in read[0].items():
            if fixed.setdefault(concept, value) != value:
                return const(0)
        kept.append(part)
    return const(1) if not kept else kept[0] if len(kept) == 1 else call("And", *kept)


def disjunction(parts: Sequence[Expr], domains: dict[str, tuple[Any, ...]]) -> Expr:
    """The disjunction of ground parts, simplified: one that lists every value of a concept (a
    perceived attribute, `shape(O, _)`) always holds, and so does the rest of a conjunction listed
    with every value of one concept (grounding enumerates them: car 2 with 2 axles, with 3 axles);
    a conjunction that implies another listed is dropped. Parts left as they are stay shared."""
    others: list[Expr] = []
    terms: dict[Term, Expr] = {}  # conjunctions of literals (first as built), in the order found
    for part in (inner for p in parts for inner in (p.args if p.op == "Or" else (p,))):
        if part.op == "const":
            if part.args[0]:
                return const(1)
            continue
        term = _term(part)
        if term is None:
            others.append(part)
        else:
            terms.setdefault(term, part)
    merged = _merged(list(terms), domains)
    if merged is None:
        return const(1)
    kept = others + [
        terms[t] if t in terms else conjunction([call("Eq", var(c), const(v)) for c, v in t]) for t in merged
    ]
    return const(0) if not kept else kept[0] if len(kept) == 1 else call("Or", *kept)


Term = tuple[tuple[str, Any], ...]  # a conjunction of `concept == value`, one value per concept, sorted


def _term(e: Expr) -> Term | None:
    """The conjunction of literals `e` is (nested conjunctions read through), else None."""
    read = _read(e)
    if read is None or not read[1]:
        return None
    return tuple(sorted(read[0].items(), key=lambda cv: (cv[0], repr(cv[1]))))


def _merged(terms: list[Term], domains: dict[str, tuple[Any, ...]]) -> list[Term] | None:
    """The terms with every term that lists all values of a concept beside one rest replaced by
    the rest, until none does, and the terms one literal longer than another dropped (they imply
    it); None when the empty term (true) results."""
    while True:
        values: dict[tuple[Term, str], set[Any]] = {}
        for term in terms:
            for n, (concept, value) in enumerate(term):
                values.setdefault((term[:n] + term[n + 1 :], concept), set()).add(value)
        known = set(terms)
        new = [rest for (rest, c), vs in values.items() if len(vs) == len(domains[c]) and rest not in known]
        if () in new:
            return None
        found = known | set(new)
        kept = [t for t in terms if not any(t[:n] + t[n + 1 :] in found for n in range(len(t)))]
        if not new and len(kept) == len(terms):
            return terms
        terms = kept + list(dict.fromkeys(new))
