"""Exact big counts from machine-word arithmetic: counts kept modulo several primes below 2^30
(products fit in int64, sums of 2^23 of them in a float64's 53 bits) and recombined by the Chinese
remainder theorem, which is exact whenever the count is below the product of the primes."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

PRIME_BITS = 30


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the bases 2, 3, 5, 7: exact below 3.2 * 10^9."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        if a % n == 0:
            continue
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def primes_above(bound: int) -> NDArray[np.int64]:
    """The largest primes below 2^PRIME_BITS, as many as it takes for their product to exceed
    `bound` (a count known to be at most `bound` is then determined by its residues)."""
    primes: list[int] = []
    candidate, product = (1 << PRIME_BITS) - 1, 1
    while product <= bound or not primes:
        if _is_prime(candidate):
            primes.append(candidate)
            product *= candidate
        candidate -= 2
    return np.array(primes, dtype=np.int64)


def recombine(residues: NDArray[np.int64], primes: NDArray[np.int64]) -> int:
    """The integer in [0, product of primes) with these residues."""
    modulus = math.prod(int(p) for p in primes)
    total = 0
    for r, p in zip(residues.tolist(), primes.tolist()):
        rest = modulus // p
        total += r * rest * pow(rest, -1, p)
    return total % modulus
