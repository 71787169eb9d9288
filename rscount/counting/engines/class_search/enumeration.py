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
from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from pysat.solvers import Solver

from .... import sat

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
    check: Check | None = None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every assignment of permutations to `matrices` (one permutation each) that some model of
    `clauses` plus the lex-leader clauses `symmetry` extends, once. `rows` (clause ranges, one per
    support row) makes the search lazy in rows, see _lazy_leaders, where `check` may spare the
    check of a candidate by SAT on every row."""
    if len(rows) > (LAZY_CHECKED_ROWS if check else LAZY_ROWS):
        yield from _lazy_leaders(clauses, matrices, symmetry, rows, check)
        return
    with sat.solver(sat.ENUMERATE, clauses + symmetry) as solver:
        while solver.solve():
            model = solver.get_model() or []
            perms = tuple(permutation_of(model, m) for m in matrices)
            yield perms
            solver.add_clause(_blocking(matrices, perms))


# A cheap check of a candidate: True when every row admits it, else the rows (numbers in the
# search's list) that refute it, none when it cannot tell (SAT on every row then decides). A wrong
# refutation may only drop classes whose count is zero (their value maps are counted alike).
Check = Callable[[tuple[tuple[int, ...], ...]], Literal[True] | list[int]]

# Beyond this many support rows, rows join the search lazily. Measured (2 cores, eager / lazy from
# 16 rows, candidates checked by SAT on every row): random 3-CNF on 12 bits, 2048 rows: over 60 s
# (the one class is found in 3.5 s, the proof that no other exists does not finish) / 15 s; but 14
# bits, 328 rows: 23 s / over 90 s, and SDD-OIA, 1922 rows, 568 classes: 37 s / 62 s (each of many
# refuted candidates brings few rows). With a cheap check (label-group tables), from fewer rows:
# decompose on SDD-OIA, 1988 rows: 12.2 s eager / 5.6 s lazy; 512 rows 3.2 s / 2.2 s; 64 rows 6.7 s
# / 6.6 s, but listing the first 5000 of its 15060 classes (auto's budget) took 1.5 s longer lazily,
# checking each candidate's factors.
LAZY_ROWS = 2000
LAZY_CHECKED_ROWS = 256
FIRST_ROWS = 16  # rows the lazy search starts from, spread evenly over the support


def _blocking(matrices: Sequence[Matrix], perms: tuple[tuple[int, ...], ...]) -> list[int]:
    return [-m[i][p[i]] for m, p in zip(matrices, perms) for i in range(len(p))]


def _lazy_leaders(
    clauses: list[list[int]],
    matrices: Sequence[Matrix],
    symmetry: list[list[int]],
    rows: Sequence[tuple[int, int]],
    check: Check | None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """leaders, counterexample-guided: candidates come from a solver that holds only the rows
    selected so far. A candidate that `check` refutes brings the rows it names into that solver; one
    it cannot tell about is checked by a second solver holding every row behind a selector, and if
    refuted, the rows of its UNSAT core join the first solver. Every candidate is blocked once
    checked, so exactly the leaders that all rows admit are yielded, and the search ends with an
    UNSAT proof over the selected rows only.
    (Candidates from the whole guarded CNF cost 50 ms a call on SDD-OIA's 3780 rows: the solver
    walks every row's clauses; from the selected rows alone, a few ms.)"""
    in_rows = bytearray(len(clauses))
    for lo, hi in rows:
        in_rows[lo:hi] = b"\1" * (hi - lo)
    step = max(1, len(rows) // FIRST_ROWS)
    selected = set(range(0, len(rows), step))
    start = [c for n, c in enumerate(clauses) if not in_rows[n]] + symmetry
    start += [clauses[n] for r in sorted(selected) for n in range(*rows[r])]
    checker: Solver | None = None
    selector: list[int] = []
    try:
        with sat.solver(sat.ENUMERATE, start) as solver:
            while solver.solve():
                model = solver.get_model() or []
                perms = tuple(permutation_of(model, m) for m in matrices)
                blocking = _blocking(matrices, perms)
                verdict: Literal[True] | list[int] = check(perms) if check else []
                if verdict is not True and not verdict:
                    if checker is None:
                        checker, selector = _guarded_solver(clauses, rows)
                    if checker.solve(assumptions=[-lit for lit in blocking] + selector):
                        verdict = True
                    else:
                        core = set(checker.get_core() or ()) & set(selector)
                        verdict = [s - selector[0] for s in core]
                if verdict is not True:
                    for r in sorted(set(verdict) - selected):
                        selected.add(r)
                        solver.append_formula([clauses[n] for n in range(*rows[r])])
                    solver.add_clause(blocking)
                    continue
                yield perms
                solver.add_clause(blocking)
    finally:
        if checker is not None:
            checker.delete()


def _guarded_solver(clauses: list[list[int]], rows: Sequence[tuple[int, int]]) -> tuple[Solver, list[int]]:
    """A solver holding `clauses`, each row's behind a selector literal (listed, one per row)."""
    top = max((abs(lit) for clause in clauses for lit in clause), default=0)
    selector = list(range(top + 1, top + 1 + len(rows)))
    guarded = list(clauses)
    for r, (lo, hi) in enumerate(rows):
        for n in range(lo, hi):
            guarded[n] = clauses[n] + [-selector[r]]
    return sat.solver(sat.ENUMERATE, guarded), selector
