"""Symmetry breaking for the pairwise method: clauses that every orbit's lexicographically least
member satisfies, so that the solver meets each orbit about once and refutes a space the size of the
group smaller. The least member of an orbit {(h o pi, s o f)} has pi least under the concept
permutations and f least under the value permutations (the two act apart), and a sequence is least
in its orbit under a group when each entry is the least of its orbit under the stabiliser of the
entries before it (a stabiliser chain), which is what the clauses state, prefix by prefix."""

from __future__ import annotations

from ....encoding.pair_images import PairEncoding
from .symmetries import Perm, Symmetries

PLACE_CLAUSES_MAX = 500  # prefixes of pi followed further: past it the chain stops (sound, less broken)


def least_members(enc: PairEncoding, symmetries: Symmetries) -> list[list[int]]:
    """Clauses true of the least member of every orbit of the pair CNF's models (fresh variables
    from `enc` for the values used so far)."""
    return _least_placements(enc, symmetries.places) + _least_images(enc, symmetries.values)


def _least_placements(enc: PairEncoding, group: list[Perm]) -> list[list[int]]:
    """pi(t) is the least of its orbit under the permutations fixing pi(0), ..., pi(t-1), for every
    prefix of a least pi while the stabiliser is not trivial (and PLACE_CLAUSES_MAX allows)."""
    k = len(enc.place)
    clauses: list[list[int]] = []
    frontier: list[tuple[tuple[int, ...], list[Perm]]] = [((), group)]
    for t in range(k):
        deeper = []
        for prefix, stabiliser in frontier:
            given = [-enc.place[s][p] for s, p in enumerate(prefix)]
            for p in (p for p in range(k) if p not in prefix):
                if min(h[p] for h in stabiliser) < p:
                    clauses.append([*given, -enc.place[t][p]])
                else:
                    fixing = [h for h in stabiliser if h[p] == p]
                    if len(fixing) > 1:
                        deeper.append(((*prefix, p), fixing))
        frontier = deeper
        if not frontier or len(clauses) > PLACE_CLAUSES_MAX:
            break
    return clauses


def _least_images(enc: PairEncoding, group: list[Perm]) -> list[list[int]]:
    """f(key t) is the least of its orbit under the permutations fixing every value f(key 0), ...,
    f(key t-1) took (that set, `used`, is all the stabiliser depends on), keys in sorted order."""
    keys = sorted(enc.image)
    clauses: list[list[int]] = []
    used: list[int] = []  # used[a]: value a is the image of some key before the current one
    frontier: dict[frozenset[int], list[Perm]] = {frozenset(): group}
    for t, key in enumerate(keys):
        deeper: dict[frozenset[int], list[Perm]] = {}
        for taken, stabiliser in frontier.items():
            given = [-x if a in taken else x for a, x in enumerate(used)]
            for b in range(enc.values):
                if min(s[b] for s in stabiliser) < b:
                    clauses.append([*given, -enc.image[key][b]])
                elif (fixing := [s for s in stabiliser if s[b] == b]) and len(fixing) > 1:
                    deeper[taken | {b}] = fixing
        frontier = deeper
        if not frontier or t + 1 == len(keys):
            break
        used = _used_after(enc, used, enc.image[key], clauses)
    return clauses


def _used_after(enc: PairEncoding, used: list[int], images: list[int], clauses: list[list[int]]) -> list[int]:
    """Variables for "value a is used" once one more key's image (`images`) is taken into account:
    used'[a] <-> used[a] or images[a] (defined both ways, the clauses appended to `clauses`)."""
    after = []
    for a, image in enumerate(images):
        x = enc.new()
        before = [used[a]] if used else []
        clauses.append([-x, *before, image])
        clauses += [[-y, x] for y in (*before, image)]
        after.append(x)
    return after
