"""The integer solutions, within their domains, of a linear system over the images of seen values.
The system is reduced modulo a prime P (Gauss-Jordan by numpy over the whole matrix): an integer
solution is one modulo any prime, so a system without one modulo P has none, and every integer
solution is found by assigning the free unknowns depth first, each pivot unknown then taking the one
domain value its residue allows (domain values are small, so distinct modulo P). Each assignment
found so is checked against the equations in the integers, which discards those that hold modulo P
only: the count is exact."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

P = 2_147_483_647  # a prime below 2^31: products of two residues fit numpy's int64
LIMIT = 1 << 30  # coefficients, right-hand sides and domain values stay below this (exact int64 checks)


class TooFree(Exception):
    """The solutions span more free images than are listed one by one."""


def reduced_mod_p(
    matrix: NDArray[np.int64], rhs: NDArray[np.int64]
) -> list[tuple[int, NDArray[np.int64]]] | None:
    """The pivot rows of [matrix | rhs] in reduced row echelon form modulo P, each with its pivot
    column (the row's last entry is its right-hand side), or None when the system has no solution."""
    m = np.concatenate([matrix % P, (rhs % P)[:, None]], axis=1)
    pivots: list[int] = []
    for col in range(matrix.shape[1]):
        rank = len(pivots)
        if rank == m.shape[0]:
            break
        below = np.flatnonzero(m[rank:, col])
        if not len(below):
            continue
        r = int(below[0]) + rank
        if r != rank:
            m[[rank, r]] = m[[r, rank]]
        m[rank] = m[rank] * pow(int(m[rank, col]), P - 2, P) % P
        others = np.flatnonzero(m[:, col])
        others = others[others != rank]
        if len(others):
            m[others] = (m[others] - m[others, col][:, None] * m[rank]) % P
        pivots.append(col)
    if np.any(m[len(pivots) :, -1]):
        return None
    return [(col, m[n]) for n, col in enumerate(pivots)]


def spanning_rows(matrix: NDArray[np.int64]) -> NDArray[np.int64]:
    """Indices of rows of `matrix` whose combinations modulo P give every row (its transpose's pivot
    columns): equations on which the others depend modulo P, so a reduction may leave them out."""
    reduced = reduced_mod_p(matrix.T, np.zeros(matrix.shape[1], dtype=np.int64))
    assert reduced is not None  # a homogeneous system always has a solution
    return np.array([col for col, _ in reduced], dtype=np.int64)


def integer_solutions(
    matrix: NDArray[np.int64],
    rhs: NDArray[np.int64],
    domains: Sequence[Sequence[int]],
    most: int,
    spanning: NDArray[np.int64] | None = None,
) -> int:
    """How many x with x[u] in domains[u] solve matrix @ x = rhs in the integers; TooFree past `most`
    partial assignments. Unknowns in no equation multiply the count by their domain's size."""
    factor = math.prod(len(domains[u]) for u in unused(matrix))
    return factor * sum(1 for _ in solutions(matrix, rhs, domains, most, spanning))


def unused(matrix: NDArray[np.int64]) -> list[int]:
    """The unknowns no equation mentions (free over their whole domain)."""
    return [u for u in range(matrix.shape[1]) if not matrix[:, u].any()]


def solutions(
    matrix: NDArray[np.int64],
    rhs: NDArray[np.int64],
    domains: Sequence[Sequence[int]],
    most: int,
    spanning: NDArray[np.int64] | None = None,
) -> Iterator[NDArray[np.int64]]:
    """Every integer solution x with x[u] in domains[u] (the unused unknowns left at 0), found depth
    first over the free unknowns of the system reduced modulo P (its `spanning` rows alone when
    given: rows of [matrix | rhs] that every row depends on modulo P, the same solutions modulo P);
    each checked on every row in the integers. TooFree past `most` partial assignments."""
    if matrix.size and (np.abs(matrix).max() >= LIMIT or np.abs(rhs).max() >= LIMIT):
        raise TooFree
    if any(abs(v) >= LIMIT for d in domains for v in d):
        raise TooFree
    n = matrix.shape[1]
    rows = slice(None) if spanning is None else spanning
    reduced = reduced_mod_p(matrix[rows], rhs[rows])
    if reduced is None:
        return
    pivot_cols = {col for col, _ in reduced}
    skipped = set(unused(matrix))
    free = [u for u in range(n) if u not in pivot_cols and u not in skipped]
    depth_of = {u: d for d, u in enumerate(free)}
    checks: list[list[tuple[int, list[tuple[int, int]], int]]] = [[] for _ in range(len(free) + 1)]
    for col, row in reduced:
        rest = [(u, int(row[u])) for u in free if row[u]]
        checks[max((depth_of[u] + 1 for u, _ in rest), default=0)].append((col, rest, int(row[-1])))
    residues = [{v % P: v for v in d} for d in domains]
    x = np.zeros(n, dtype=np.int64)
    visited = 0

    def fits(depth: int) -> bool:
        for col, rest, b in checks[depth]:
            value = residues[col].get((b - sum(c * int(x[u]) for u, c in rest)) % P)
            if value is None:
                return False
            x[col] = value
        return True

    def found(depth: int) -> Iterator[NDArray[np.int64]]:
        nonlocal visited
        visited += 1
        if visited > most:
            raise TooFree
        if not fits(depth):
            return
        if depth == len(free):
            if np.array_equal(matrix @ x, rhs):  # modulo P only, or in the integers too
                yield x.copy()
            return
        u = free[depth]
        for value in domains[u]:
            x[u] = value
            yield from found(depth + 1)

    yield from found(0)
