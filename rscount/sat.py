"""The SAT solvers rscount calls (python-sat), named in one place by the job they do, and projected
enumeration with blocking clauses, the one loop every enumerating method shares. Every stage may
import this module (a solver is a tool, like the error types)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from pysat.solvers import Solver

CHECK = "cadical153"  # single questions: is this satisfiable, which model (families, check, copies)
# long incremental runs: models listed one by one, classes, readings. Glucose against CaDiCaL 1.9.5
# (benchmarks/sat_solvers.md, decompose on 26 library tasks): median 0.89 of the time, KANDY Hard 11
# 11.7 against 40.7 s, but SDD-OIA with 1922 rows (its rows join the class search lazily) 13.0 against 8.5 s
ENUMERATE = "glucose4"
PRUNE = "glucose4"  # many small calls under assumptions (the class search's viability checks)
# refuting the wrong source tuples of a label group: MNMath's sums 1.3x faster than CaDiCaL
REFUTE = "minisat22"
# questions about a task's optimal maps, which a timer may interrupt (rscount.insight.decisions;
# python-sat cannot interrupt CaDiCaL): Glucose, MNMath + poker + SDD-OIA's identities in 20 s,
# MiniSat 35 s, MapleChrono 23 s
DECIDE = "glucose4"


def solver(name: str, clauses: Iterable[Sequence[int]] = ()) -> Solver:
    """A python-sat solver of one of the kinds above, holding `clauses` (use it as a context manager)."""
    return Solver(name=name, bootstrap_with=clauses)


def projected_models(found: Solver, projection: Sequence[int], one_hot: bool = False) -> Iterator[list[int]]:
    """Every model of `found`'s clauses whose assignment of `projection` is new, once each (the
    solver's full model, a list of literals): each is blocked when the caller asks for the next.
    With `one_hot`, the projection is made of exactly-one groups, so blocking its true literals is
    enough. Clauses the caller adds between two models are kept; an empty projection has one model."""
    while found.solve():
        model = found.get_model() or []
        yield model
        if not projection:
            return
        true = [x for x in projection if model[x - 1] > 0]
        found.add_clause([-x for x in true] if one_hot else [-model[x - 1] for x in projection])
