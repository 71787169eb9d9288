"""Equality labels (issue 59's corpus, written here): Scallop's eq_2 (two digits, labelled by whether
they are equal) on every pair and on random pairs, with digits 0-3 where a brute force reaches and
0-9 as Scallop poses it, a chain of three digits (a = b, b = c), and two objects of one colour
network (same colour or not); each counted by `rscount count --method M --timeout T` for the
equalities method, search, GANAK and auto, in subprocesses, and by a brute force over every map
(pi, f) where there are at most BRUTE_MAX of them.

    python benchmarks/equalities.py                      # the default grid, 60 s per run
    python benchmarks/equalities.py --timeout 20 --methods equalities,auto

Writes benchmarks/equalities.json and benchmarks/equalities.md (one row per task, machine and date).
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from count_grid import brute_force_run, count_grid, grid_options


def task(values: int, concepts: int, rows: int | None, seed: int, objects: bool = False) -> dict[str, Any]:
    """`concepts` concepts of `values` values, consecutive ones tested for equality (objects: one
    attribute shared by the objects), on `rows` distinct random vectors drawn with `seed` (None: every
    vector)."""
    digits = list(range(values))
    where = "every" if rows is None else f"{rows}-s{seed}"
    kind = "objects" if objects else "concepts"
    data: dict[str, Any] = {"name": f"eq{concepts}-{values}v-{kind}-{where}"}
    if objects:
        names = [f"colour_{n}" for n in range(1, concepts + 1)]
        data["objects"] = {"count": concepts, "attributes": {"colour": digits}}
    else:
        names = [f"d{n}" for n in range(1, concepts + 1)]
        data["concepts"] = {name: digits for name in names}
    data["labels"] = {f"eq{n}": f"Eq({a}, {b})" for n, (a, b) in enumerate(zip(names, names[1:]), 1)}
    vectors = list(product(digits, repeat=concepts))
    data["support"] = (
        "exhaustive" if rows is None else [list(v) for v in random.Random(seed).sample(vectors, rows)]
    )
    return data


def brute_force(data: dict[str, Any]) -> dict[str, Any] | None:
    """Every map (pi, f) tried, where there are at most BRUTE_MAX: pi any concept permutation (objects:
    one value map for every object), f_i any function of the digits; counted when every support
    row keeps its labels."""
    objects = "objects" in data
    digits = data["objects"]["attributes"]["colour"] if objects else next(iter(data["concepts"].values()))
    k = data["objects"]["count"] if objects else len(data["concepts"])
    support = product(digits, repeat=k) if data["support"] == "exhaustive" else data["support"]
    rows = [tuple(r) for r in support]
    return brute_force_run(digits, k, objects, rows, _labels)


def _labels(row: Any) -> tuple[bool, ...]:
    return tuple(a == b for a, b in zip(row, row[1:]))


def main() -> None:
    parser = grid_options(__doc__, "equalities,auto,search,ganak")
    args = parser.parse_args()
    seeds = list(map(int, args.seeds.split(",")))
    tasks = [task(4, 2, None, 0), *(task(4, 2, 8, s) for s in seeds)]
    tasks += [task(10, 2, None, 0), *(task(10, 2, rows, s) for rows in (50, 70) for s in seeds)]
    tasks += [task(10, 3, rows, s) for rows in (100, 300) for s in seeds]
    tasks += [task(4, 2, None, 0, objects=True), task(10, 2, None, 0, objects=True)]
    tasks += [task(10, 2, 50, s, objects=True) for s in seeds]
    count_grid(
        tasks,
        args.methods.split(","),
        args.timeout,
        "equalities",
        "Equality labels: counts and seconds per method",
        f"python benchmarks/equalities.py --timeout {args.timeout:g}",
        ("brute force", brute_force),
    )


if __name__ == "__main__":
    main()
