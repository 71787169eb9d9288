"""Independent brute-force references for the disentangled and joint counts (no rscount imports).

A map is a pair (pi, f): pi a bijection of concept indices (ground-truth concept i feeds
predicted concept pi[i]) and f_i: D_i -> D_pi[i] any function. It is counted when, for every
support vector c, the predicted vector c' (c'[pi[i]] = f_i(c[i])) has label_fn(c') == label_fn(c),
and c' == c for every supervised c.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import permutations, product
from typing import Any


def brute_force_maps(
    domains: Sequence[Sequence[Any]],
    label_fn: Callable[[tuple], Any],
    support: Sequence[tuple],
    supervised: set[tuple],
    partial: dict[tuple, set[int]] | None = None,
    in_place: bool = False,
    truths: Sequence[Sequence[Any]] | None = None,
) -> Iterator[tuple[tuple[int, ...], tuple[tuple, ...]]]:
    """Every map (pi, f) that preserves every support label, fixes every supervised vector and,
    on a vector of `partial`, keeps the concepts (positions) listed for it; f[i] is the tuple of
    images of the values of concept i, in domain order. With `in_place`, pi is the identity only.
    `truths` are the ground-truth values of each concept when fewer than its domain (the classes
    predicted): f[i] then gives the images of those alone."""
    partial = partial or {}
    k = len(domains)
    sources = domains if truths is None else truths
    support = [tuple(c) for c in dict.fromkeys(map(tuple, support))]
    supervised = {tuple(c) for c in supervised}
    # Positions of the support values, so a value map is a tuple of images indexed by position.
    positions = [[list(sources[i]).index(c[i]) for i in range(k)] for c in support]
    labels: dict[tuple, Any] = {}

    def label(c: tuple) -> Any:
        if c not in labels:
            labels[c] = label_fn(c)
        return labels[c]

    wanted = [label(c) for c in support]
    for pi in [tuple(range(k))] if in_place else permutations(range(k)):
        all_maps = [product(domains[pi[i]], repeat=len(sources[i])) for i in range(k)]
        for f in product(*(list(m) for m in all_maps)):
            for c, pos, y in zip(support, positions, wanted):
                pred = [None] * k
                for i in range(k):
                    pred[pi[i]] = f[i][pos[i]]
                pred = tuple(pred)
                if label(pred) != y or (c in supervised and pred != c):
                    break
                if any(pred[j] != c[j] for j in partial.get(c, ())):
                    break
            else:
                yield pi, f


def brute_force_count(
    domains: Sequence[Sequence[Any]],
    label_fn: Callable[[tuple], Any],
    support: Sequence[tuple],
    supervised: set[tuple],
    partial: dict[tuple, set[int]] | None = None,
) -> int:
    """Number of maps (pi, f) that preserve every support label and fix every supervised vector
    (and the concepts of `partial` on its vectors)."""
    return sum(1 for _ in brute_force_maps(domains, label_fn, support, supervised, partial))


def brute_force_joint(
    domains: Sequence[Sequence[Any]],
    label_fn: Callable[[tuple], Any],
    support: Sequence[tuple],
    supervised: set[tuple],
    partial: dict[tuple, set[int]] | None = None,
) -> int:
    """Number of maps alpha: D -> D (tried one by one: |D|^|D| of them) with label_fn(alpha(c)) ==
    label_fn(c) for every support vector c, alpha(c) == c for every supervised c, and alpha(c)
    equal to c on the concepts `partial` lists for c."""
    partial = partial or {}
    vectors = list(product(*domains))
    index = {c: n for n, c in enumerate(vectors)}
    labels = [label_fn(c) for c in vectors]
    checks = [
        (index[tuple(c)], tuple(c) in supervised, partial.get(tuple(c), ()))
        for c in dict.fromkeys(map(tuple, support))
    ]

    def keeps(alpha: tuple[int, ...], n: int, fixed: bool, on: Any) -> bool:
        if fixed:
            return alpha[n] == n
        image = vectors[alpha[n]]
        return labels[alpha[n]] == labels[n] and all(image[j] == vectors[n][j] for j in on)

    return sum(
        all(keeps(alpha, n, fixed, on) for n, fixed, on in checks)
        for alpha in product(range(len(vectors)), repeat=len(vectors))
    )


def brute_force_object_maps(
    objects: int,
    attributes: Sequence[Sequence[Any]],
    label_fn: Callable[[tuple], Any],
    support: Sequence[tuple],
    supervised: set[tuple],
    partial: dict[tuple, set[int]] | None = None,
    in_place: bool = False,
    truths: Sequence[Sequence[Any]] | None = None,
) -> Iterator[tuple[tuple[int, ...], tuple[tuple, ...]]]:
    """Every map (rho, V, f) of the objects count that keeps every support label and supervised
    vector: rho a bijection of objects, V of attributes, f_a a map from the values of attribute a to
    those of V(a), shared by all objects; yielded as brute_force_maps does, per concept (concept
    vectors are object-major: attribute a of object o at position o * len(attributes) + a); the
    concepts `partial` lists for a vector must keep their values there. With `in_place`, rho is
    the identity only (one extractor applied to each object where it stands). `truths`, per
    attribute, as brute_force_maps takes them."""
    partial = partial or {}
    m = len(attributes)
    sources = attributes if truths is None else truths
    support = [tuple(c) for c in dict.fromkeys(map(tuple, support))]
    for rho in [tuple(range(objects))] if in_place else permutations(range(objects)):
        for v in permutations(range(m)):
            maps = [list(product(attributes[v[a]], repeat=len(sources[a]))) for a in range(m)]
            for f in product(*maps):
                for c in support:
                    pred = [None] * len(c)
                    for o in range(objects):
                        for a in range(m):
                            pred[rho[o] * m + v[a]] = f[a][list(sources[a]).index(c[o * m + a])]
                    pred = tuple(pred)
                    if label_fn(pred) != label_fn(c) or (c in supervised and pred != c):
                        break
                    if any(pred[j] != c[j] for j in partial.get(c, ())):
                        break
                else:
                    pi = tuple(rho[o] * m + v[a] for o in range(objects) for a in range(m))
                    yield pi, tuple(f[a] for _ in range(objects) for a in range(m))


def brute_force_objects(
    objects: int,
    attributes: Sequence[Sequence[Any]],
    label_fn: Callable[[tuple], Any],
    support: Sequence[tuple],
    supervised: set[tuple],
    partial: dict[tuple, set[int]] | None = None,
) -> int:
    """Number of maps of the objects count (see brute_force_object_maps)."""
    return sum(
        1 for _ in brute_force_object_maps(objects, attributes, label_fn, support, supervised, partial)
    )


def brute_force_seen(
    domains: Sequence[Sequence[Any]],
    label_fn: Callable[[tuple], Any],
    support: Sequence[tuple],
    supervised: set[tuple],
    by_rows: bool = False,
) -> int:
    """brute_force_count for large domains: a value no support vector shows is unconstrained, so
    it multiplies the count by the size of the domain it maps into; only the images of the seen
    values are searched, by backtracking, each support vector checked once its values are all
    mapped. The (concept, value) slots go concept by concept, or with `by_rows` vector by vector
    (rows_order), which finishes where two 10-valued concepts would mean 10^10 branches before the
    first check. Equal to brute_force_count (tests/references/test_reference_counts.py checks it)."""
    k = len(domains)
    support = [tuple(c) for c in dict.fromkeys(map(tuple, support))]
    supervised = {tuple(c) for c in supervised}
    seen = [sorted({c[i] for c in support}, key=list(domains[i]).index) for i in range(k)]
    slots = rows_order(k, support, label_fn) if by_rows else [(i, v) for i in range(k) for v in seen[i]]
    where = {slot: n for n, slot in enumerate(slots)}
    due: list[list[tuple]] = [[] for _ in slots]  # the vectors whose last slot is n
    for c in support:
        due[max(where[i, c[i]] for i in range(k))].append(c)

    def extend(pi: tuple[int, ...], image: dict[tuple[int, Any], Any], n: int) -> int:
        """Maps of the seen values, given the images of slots[:n]."""
        if n == len(slots):
            return 1
        i, v = slots[n]
        found = 0
        for u in domains[pi[i]]:
            image[i, v] = u
            for c in due[n]:
                pred: list[Any] = [None] * k
                for j in range(k):
                    pred[pi[j]] = image[j, c[j]]
                if label_fn(tuple(pred)) != label_fn(c) or (c in supervised and tuple(pred) != c):
                    break
            else:
                found += extend(pi, image, n + 1)
        return found

    total = 0
    for pi in permutations(range(k)):
        free = 1
        for i in range(k):
            free *= len(domains[pi[i]]) ** (len(domains[i]) - len(seen[i]))
        total += free * extend(pi, {}, 0)
    return total


def rows_order(k: int, support: Sequence[tuple], label_fn: Callable[[tuple], Any]) -> list[tuple[int, Any]]:
    """The seen (concept, value) slots vector by vector: repeatedly the vector with the fewest slots
    not yet placed, then the rarest label, then the one whose missing slots' concepts have the
    fewest values placed (the concepts in turn), then the lowest concepts; its slots appended."""
    labels = {c: label_fn(c) for c in support}
    rarity = Counter(labels.values())
    placed: dict[tuple[int, Any], None] = {}
    per_concept = [0] * k
    pending = list(support)
    while pending:
        best: tuple | None = None
        for c in pending:
            missing = [(i, c[i]) for i in range(k) if (i, c[i]) not in placed]
            key = (
                len(missing),
                rarity[labels[c]],
                max(per_concept[i] for i, _ in missing),
                [i for i, _ in missing],
            )
            if best is None or key < best[0]:
                best = (key, missing)
        assert best is not None
        for slot in best[1]:
            placed[slot] = None
            per_concept[slot[0]] += 1
        pending = [c for c in pending if any((i, c[i]) not in placed for i in range(k))]
    return list(placed)
