"""The forecast's reference (no rscount imports): from the list of every optimal map (by brute force),
what a uniformly drawn one reads, where it sends each value, and its concept and label accuracy, as
exact fractions; and the comparison of a forecast with it."""

from __future__ import annotations

from fractions import Fraction


def reference(domains, label_fn, maps, support, test):
    """reads[(j, i)], values[(i, v, w)] (w as text), accuracy[j] on the support and on `test`, and
    the label accuracy on `test`, by evaluating every optimal map on every vector."""
    maps = list(maps)
    k, n = len(domains), len(maps)
    positions = [{v: p for p, v in enumerate(d)} for d in domains]

    def predict(pi, f, c):
        out = [None] * k
        for i in range(k):
            out[pi[i]] = f[i][positions[i][c[i]]]
        return tuple(out)

    reads = {(j, i): Fraction(sum(pi[i] == j for pi, _ in maps), n) for i in range(k) for j in range(k)}
    values: dict = {}
    for _, f in maps:
        for i in range(k):
            for v, w in zip(domains[i], f[i]):
                values[i, str(v), str(w)] = values.get((i, str(v), str(w)), 0) + Fraction(1, n)

    def accuracy(rows):
        return [
            Fraction(sum(predict(pi, f, c)[j] == c[j] for pi, f in maps for c in rows), n * len(rows))
            for j in range(k)
        ]

    labels = Fraction(
        sum(label_fn(predict(pi, f, c)) == label_fn(c) for pi, f in maps for c in test), n * len(test)
    )
    return n, reads, values, accuracy(support), accuracy(test), labels


def assert_matches(found, expected, names):
    n, reads, values, accuracy, test_accuracy, labels = expected
    assert found.count == n
    assert {
        (names.index(j), names.index(i)): p for j, row in found.reads.items() for i, p in row.items()
    } == reads
    nonzero = {
        (names.index(c), v, w): p
        for c, table in found.values.items()
        for v, row in table.items()
        for w, p in row.items()
        if p
    }
    assert nonzero == values
    assert [found.accuracy[c] for c in names] == accuracy
    assert [found.test["accuracy"][c] for c in names] == test_accuracy
    assert found.test["label_accuracy"] == labels
