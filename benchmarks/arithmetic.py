"""Whole numbers written in digits (issue 59's corpus, written here): two n-digit numbers and their
sum as the label, as DeepProbLog's multi-digit MNIST addition and A-NeSI's N-digit addition pose it,
in the disentangled mode (a network per digit position) and the objects mode (one digit network),
on supports of random digit vectors drawn with several seeds; each counted by `rscount count
--method M --timeout T` for the linear method, the search method, GANAK and auto, in subprocesses.

    python benchmarks/arithmetic.py                        # the default grid, 60 s per run
    python benchmarks/arithmetic.py --digits 2 --timeout 20 --methods linear,search
    python benchmarks/arithmetic.py --written formula,program --methods auto   # DeepProbLog's program too

Writes benchmarks/arithmetic.json (every run) and benchmarks/arithmetic.md (one row per task, the
machine and date in the header), or STEM.json and STEM.md with `--stem` (arithmetic_4digits: two
4-digit numbers on 1000 rows). A brute force over the maps is out of reach at these sizes
(10^60 value maps for two 3-digit numbers): the tests check the linear method against one on small
affine tasks (tests/counting/methods/test_linear.py), and here the methods check each other.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from count_grid import count_grid, grid_options

PROGRAM = """nn(mnist_net, [X], Y, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(X, Y).
number([], Result, Result).
number([H | T], Acc, Result) :- digit(H, Nr), Acc2 is Nr + 10 * Acc, number(T, Acc2, Result).
number(X, Y) :- number(X, 0, Y).
multi_addition(X, Y, Z) :- number(X, X2), number(Y, Y2), Z is X2 + Y2.
"""  # DeepProbLog's multi-digit MNIST addition as its examples write it: a number read digit by digit


def task(digits: int, rows: int, seed: int, objects: bool, written: str = "formula") -> dict[str, Any]:
    """Two `digits`-digit numbers a and b (most significant digit first), label a + b, `rows`
    distinct random digit vectors drawn with `seed`; the knowledge a formula, or (`written` program)
    DeepProbLog's program with the query multi_addition([a1, ...], [b1, ...], Z)."""
    rng = random.Random(seed)
    k = 2 * digits
    seen: dict[tuple[int, ...], None] = {}
    while len(seen) < min(rows, 10**k):
        seen.setdefault(tuple(rng.randrange(10) for _ in range(k)), None)
    weights = [10 ** (digits - 1 - p) for p in range(digits)] * 2
    mode = "objects" if objects else "disentangled"
    data: dict[str, Any] = {"name": f"add{digits}-{mode}-{rows}-s{seed}"}
    if written == "program":
        numbers = [f"[{', '.join(f'{side}{p}' for p in range(1, digits + 1))}]" for side in "ab"]
        data["name"] += "-program"
        data["files"] = {"multi.pl": PROGRAM}
        data.update(program="multi.pl", query=f"multi_addition({numbers[0]}, {numbers[1]}, Z)", mode=mode)
        data["support"] = [list(r) for r in seen]
        return data
    if objects:
        names = [f"d_{n}" for n in range(1, k + 1)]
        data["objects"] = {"count": k, "attributes": {"d": list(range(10))}}
    else:
        names = [f"{side}{p}" for side in "ab" for p in range(1, digits + 1)]
        data["concepts"] = {name: list(range(10)) for name in names}
    data["labels"] = {"sum": " + ".join(f"{w} * {name}" for w, name in zip(weights, names))}
    data["support"] = [list(r) for r in seen]
    return data


def main() -> None:
    parser = grid_options(__doc__, "linear,search,ganak")
    parser.add_argument("--digits", default="2,3", help="comma-separated numbers of digits")
    parser.add_argument("--rows", default="100,1000", help="comma-separated support sizes")
    parser.add_argument("--stem", default="arithmetic", help="writes benchmarks/STEM.json and STEM.md")
    parser.add_argument(
        "--written", default="formula", help="comma-separated: formula (a sum), program (DeepProbLog's)"
    )
    args = parser.parse_args()
    tasks = [
        task(digits, rows, seed, objects, written)
        for digits in map(int, args.digits.split(","))
        for rows in map(int, args.rows.split(","))
        for seed in map(int, args.seeds.split(","))
        for objects in (False, True)
        for written in args.written.split(",")
    ]
    count_grid(
        tasks,
        args.methods.split(","),
        args.timeout,
        args.stem,
        "Whole numbers in digits: counts and seconds per method",
        f"python benchmarks/arithmetic.py {' '.join(sys.argv[1:])}",
    )


if __name__ == "__main__":
    main()
