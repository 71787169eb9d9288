"""Permutation classes found by a SAT solver instead of a search tree, when the support has no
symmetry of its own (H_in trivial: a sampled support, typically).

The classes are then the orbits of concept permutations under the knowledge's symmetries H_out
alone, and H_out acts freely, so every class has |H_out| members. Lex-leader clauses keep exactly
one member of each orbit: within a block of interchangeable targets, the sources feeding them
increase; the blocks of a family are ordered by the source feeding their first target. The solver
enumerates the leaders with blocking clauses, learning across the whole space: on sampled
supports this is 15 times faster than extending prefixes one SAT call at a time (SDD-OIA, 64 rows,
15060 classes: 4.9 s against 76 s; measured in docs/performance.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from pysat.solvers import Solver

Matrix = list[list[int]]  # matrix[i][j]: the variable of "source i feeds target j"


def lex_leader(
    matrix: Matrix, blocks: Sequence[Sequence[int]], families: Sequence[Sequence[int]]
) -> list[list[int]]:
    """Clauses keeping one member per orbit of the target permutations that permute each block and
    exchange the blocks of each family (block numbers) as wholes."""
    clauses: list[list[int]] = []

    def increasing(a: int, b: int) -> None:  # the source feeding target a is below that feeding b
        for i in range(len(matrix)):
            clauses.extend([-matrix[i][a], -matrix[lower][b]] for lower in range(i + 1))

    for block in blocks:
        for a, b in zip(block, block[1:]):
            increasing(a, b)
    for family in families:
        for b, c in zip(family, family[1:]):
            increasing(blocks[b][0], blocks[c][0])
    return clauses


def orbit_size(blocks: Sequence[Sequence[int]], families: Sequence[Sequence[int]]) -> int:
    """|H_out| for blocks and families of blocks: the product of the blocks' and families' factorials."""
    return math.prod(math.factorial(len(b)) for b in blocks) * math.prod(
        math.factorial(len(f)) for f in families
    )


def permutation_of(model: Sequence[int], matrix: Matrix) -> tuple[int, ...]:
    """The permutation a solver's model (its list: entry v - 1 is v or -v) sets (matrix[i][perm[i]]
    true); read by index, as building a set of the whole model took a third of the class search."""
    return tuple(next(j for j, x in enumerate(row) if model[x - 1] > 0) for row in matrix)


def leaders(
    clauses: list[list[int]],
    matrices: Sequence[Matrix],
    symmetry: list[list[int]],
    rows: Sequence[tuple[int, int]] = (),
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every assignment of permutations to `matrices` (one permutation each) that some model of
    `clauses` plus the lex-leader clauses `symmetry` extends, once. `rows` (clause ranges, one per
    support row) makes the search lazy in rows, see _lazy_leaders."""
    if len(rows) > LAZY_ROWS:
        yield from _lazy_leaders(clauses, matrices, symmetry, rows)
        return
    with Solver(name="cadical195", bootstrap_with=clauses + symmetry) as solver:
        while solver.solve():
            model = solver.get_model() or []
            perms = tuple(permutation_of(model, m) for m in matrices)
            yield perms
            solver.add_clause(_blocking(matrices, perms))


# Beyond this many support rows, rows join the search lazily. Measured (2 cores, eager / lazy from
# 16 rows): random 3-CNF on 12 bits, 2048 rows: over 60 s (the one class is found in 3.5 s, the
# proof that no other exists does not finish) / 15 s; but 14 bits, 328 rows: 23 s / over 90 s, and
# SDD-OIA, 1922 rows, 568 classes: 37 s / 62 s (each of many refuted candidates brings few rows).
LAZY_ROWS = 2000
FIRST_ROWS = 16  # rows the lazy search starts from, spread evenly over the support


def _blocking(matrices: Sequence[Matrix], perms: tuple[tuple[int, ...], ...]) -> list[int]:
    return [-m[i][p[i]] for m, p in zip(matrices, perms) for i in range(len(p))]


def _lazy_leaders(
    clauses: list[list[int]],
    matrices: Sequence[Matrix],
    symmetry: list[list[int]],
    rows: Sequence[tuple[int, int]],
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """leaders, counterexample-guided: each row's clauses are guarded by a selector; candidates
    come from the rows selected so far, each is checked with every row selected, and a refuted
    candidate selects the rows of the solver's UNSAT core. Every candidate is blocked once
    checked, so exactly the leaders that all rows admit are yielded, and the search ends with an
    UNSAT proof over the selected rows only."""
    top = max((abs(lit) for clause in clauses for lit in clause), default=0)
    selector = list(range(top + 1, top + 1 + len(rows)))
    guard: dict[int, int] = {}
    for r, (lo, hi) in enumerate(rows):
        guard.update(dict.fromkeys(range(lo, hi), selector[r]))
    guarded = [clause + [-guard[c]] if c in guard else clause for c, clause in enumerate(clauses)]
    step = max(1, len(rows) // FIRST_ROWS)
    active = set(selector[::step])
    with Solver(name="cadical195", bootstrap_with=guarded + symmetry) as solver:
        while solver.solve(assumptions=sorted(active)):
            model = solver.get_model() or []
            perms = tuple(permutation_of(model, m) for m in matrices)
            blocking = _blocking(matrices, perms)
            if solver.solve(assumptions=[-lit for lit in blocking] + selector):
                yield perms
            else:
                active.update(set(solver.get_core() or ()) & set(selector))
            solver.add_clause(blocking)
