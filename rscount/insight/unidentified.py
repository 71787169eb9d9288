"""The concepts whose meaning a task does not identify, and what each may read instead.

A predicted concept j keeps its meaning in a map (pi, f) when it reads its own ground-truth concept
(P[j][j]) through the identity value map. The task identifies j when every optimal map keeps it;
one SAT call on the task's CNF with "j is not kept" decides that, and further calls say which
concepts j may read instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import sat
from ..counting.budget import Declined
from ..counting.methods.search import loose_concepts
from ..counting.problem import CountProblem
from ..counting.settings import Method
from ..encoding.modes import encode
from ..task.model import Mode, Task

# Identification by search visits at most this many permutation prefixes and search nodes before SAT
# on the CNF answers instead (search answers mnadd-n2's 24 permutations in 3000 nodes).
SEARCH_PERMUTATIONS = 20_000
SEARCH_NODES = 2_000_000


@dataclass(frozen=True)
class Unidentified:
    """How a concept may lose its meaning in some optimal map: the ground-truth concepts it may read
    instead of its own, and whether its values may be remapped while it reads its own."""

    reads: tuple[str, ...]
    remapped: bool


def unidentified_concepts(task: Task, mode: Mode, counted_by: str | None = None) -> dict[str, Unidentified]:
    """Each concept that some optimal map does not keep, with the ground-truth concepts it may read
    and whether its values may be remapped: by search in the disentangled mode (no CNF: a program's
    labels on many rows make a CNF of gigabytes), within its budget unless search is what counted
    the task (`counted_by`: then the CNF is likely the larger work), else by SAT on the CNF."""
    names = task.names
    unbounded = counted_by == Method.SEARCH
    try:
        loose = loose_concepts(
            CountProblem(task, mode),
            None if unbounded else SEARCH_PERMUTATIONS,
            None if unbounded else SEARCH_NODES,
        )
    except Declined:
        return _unidentified_by_sat(task, mode)
    return {
        names[j]: Unidentified(tuple(names[i] for i in sorted(found.readers)), found.remapped)
        for j, found in sorted(loose.items())
    }


def _unidentified_by_sat(task: Task, mode: Mode) -> dict[str, Unidentified]:
    """unidentified_concepts by SAT calls on the task's CNF in counting mode `mode`."""
    encoding = encode(task, mode)
    names = task.names
    p, f = encoding.p_vars, encoding.f_lits
    found = {}
    with sat.solver(sat.CHECK, encoding.cnf.clauses) as solver:
        fresh = encoding.cnf.num_vars
        for j, concept in enumerate(task.concepts):
            kept = [p[j][j]] + [f[j][v][v] for v in range(len(concept.values))]
            fresh += 1
            solver.add_clause([-fresh] + [-lit for lit in kept])
            if not solver.solve(assumptions=[fresh]):
                continue
            readers = [names[i] for i in range(len(names)) if i != j and solver.solve(assumptions=[p[i][j]])]
            fresh += 1
            solver.add_clause([-fresh] + [-lit for lit in kept[1:]])
            remapped = bool(solver.solve(assumptions=[fresh, p[j][j]]))
            found[concept.name] = Unidentified(tuple(readers), remapped)
    return found
