"""Joint reasoning shortcuts' brute force (--mode jrs): every concept map A = (sigma, V, g) listed,
and for each the inference layers B that agree with the labels on A's image of the support.

Unlike bruteforce.py and oracle.py, it reads the task through rscount: an rscount Task (its support
rows, their labels, the concept supervision) and the number of label classes
(rscount.knowledge.labels.label_classes: a truth-valued label has 2). The listing of the maps and
layers is its own."""

from __future__ import annotations

import math
from itertools import permutations, product

from rscount.knowledge.labels import label_classes


def brute_force_jrs(task) -> tuple[int, int, set[int]]:
    """(pairs, bijective A among them) by listing every A = (sigma, V, g) and counting the B that
    agree with the labels on A's image of the support (any label tuple on the other active vectors);
    A must fix every concept-supervised row. Also the attributes some fitting pair maps other than
    bijectively."""
    if task.objects is not None:
        n, domains = task.objects.count, [list(v) for _, v in task.objects.attributes]
    else:
        n, domains = 1, [list(c.values) for c in task.concepts]
    m = len(domains)
    classes = math.prod(len(values) for values in label_classes(task).values())  # a Boolean label: 2
    rows = [(row, task.label_of(row)) for row in task.support.rows]
    supervised = set(task.support.supervised)
    pairs = intended = 0
    loose: set[int] = set()
    for sigma in permutations(range(n)):
        for perm in permutations(range(m)):
            for g in product(*(list(product(domains[perm[v]], repeat=len(domains[v]))) for v in range(m))):
                value_map = [dict(zip(domains[v], g[v])) for v in range(m)]
                seen, ok = {}, True
                for row, labels in rows:
                    out = [None] * (n * m)
                    for o in range(n):
                        for v in range(m):
                            out[sigma[o] * m + perm[v]] = value_map[v][row[o * m + v]]
                    image = tuple(out)
                    moved = any(image[k] != row[k] for k in task.support.partial.get(row, ()))
                    if (
                        (row in supervised and image != row)
                        or moved
                        or seen.setdefault(image, labels) != labels
                    ):
                        ok = False
                        break
                if not ok:
                    continue
                active = math.prod(len(set(g[v])) for v in range(m)) ** n
                pairs += classes ** (active - len(seen))
                bijective = [len(set(g[v])) == len(domains[v]) == len(domains[perm[v]]) for v in range(m)]
                intended += all(bijective)
                loose.update(v for v in range(m) if not bijective[v])
    return pairs, intended, loose
