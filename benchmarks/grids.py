"""Grids, membership and operators (issue 59's corpus, written here): 4x4 visual sudoku
classification as ViSudo-PC poses it (valid grids filled at random, half of them corrupted by
replacing or swapping cells, labelled valid or not; 100 and 1000 distinct puzzles; one network per
cell, or one for every cell as objects), NeurASP's member with 3 to 5 images (every digit asked,
the label the set of digits shown) and its apply2x2 with the three digits read by a network too (4
operator images, random rows). Each counted by `rscount count --method M --timeout T` in a
subprocess, and by a brute force over every map (pi, f) where there are at most BRUTE_MAX (a 2x2
grid and member with digits 0-2 beside their full-size twins).

    python benchmarks/grids.py                          # the default grid, 60 s per run
    python benchmarks/grids.py --timeout 20 --methods auto

Writes benchmarks/grids.json and benchmarks/grids.md (one row per task, machine and date).
"""

from __future__ import annotations

import itertools
import math
import random
import tempfile
from pathlib import Path
from typing import Any

from count_grid import brute_force_run, count_grid, grid_options


def _groups(side: int, box: int) -> list[list[int]]:
    """The cells (numbered in reading order) of each row, column and box of a side x side grid."""
    cells = [[r * side + c for c in range(side)] for r in range(side)]
    columns = [list(col) for col in zip(*cells)]
    boxes = [
        [(br + i) * side + bc + j for i in range(box) for j in range(box)]
        for br in range(0, side, box)
        for bc in range(0, side, box)
    ]
    return cells + columns + boxes


def _valid(grid: tuple[int, ...], groups: list[list[int]]) -> bool:
    return all(len({grid[c] for c in group}) == len(group) for group in groups)


def sudoku(side: int, box: int, puzzles: int, seed: int, objects: bool) -> dict[str, Any]:
    """`puzzles` distinct grids as ViSudo-PC's generator makes them (a valid grid filled cell by
    cell at random, restarted when a cell has no value left; corrupted with chance 1/2 by replacing
    cells or by swapping two, once and again with chance 1/2), labelled by the sudoku rule."""
    rng = random.Random(seed)
    groups = _groups(side, box)
    values = list(range(1, side + 1))

    def filled() -> list[int]:
        while True:
            grid: list[int] = []
            for cell in range(side * side):
                taken = {grid[c] for g in groups if cell in g for c in g if c < cell}
                left = [v for v in values if v not in taken]
                if not left:
                    break
                grid.append(rng.choice(left))
            else:
                return grid

    def corrupted(grid: list[int]) -> list[int]:
        grid = list(grid)
        swap = rng.random() < 0.5
        while True:
            if swap:
                a, b = rng.sample(range(side * side), 2)
                grid[a], grid[b] = grid[b], grid[a]
            else:
                cell = rng.randrange(side * side)
                grid[cell] = rng.choice([v for v in values if v != grid[cell]])
            if rng.random() >= 0.5:
                return grid

    rows: dict[tuple[int, ...], None] = {}
    tries = 0
    while len(rows) < puzzles and tries < 100 * puzzles:
        tries += 1
        grid = filled()
        rows[tuple(corrupted(grid) if rng.random() < 0.5 else grid)] = None
    pairs = sorted({(a, b) for g in groups for a, b in itertools.combinations(g, 2)})
    kind = "objects" if objects else "cells"
    data: dict[str, Any] = {"name": f"sudoku{side}-{kind}-{puzzles}-s{seed}"}
    if objects:
        names = [f"cell_{n}" for n in range(1, side * side + 1)]
        data["objects"] = {"count": side * side, "attributes": {"cell": values}}
    else:
        names = [f"cell_{n // side}{n % side}" for n in range(side * side)]
        data["concepts"] = {name: values for name in names}
    data["labels"] = {"valid": " & ".join(f"({names[a]} != {names[b]})" for a, b in pairs)}
    data["support"] = [list(r) for r in rows]
    return data


def member(images: int, digits: int, folder: Path, objects: bool = False) -> dict[str, Any]:
    """NeurASP's member (examples/member5): `images` digit images, every digit 0..digits-1 asked,
    the label the answer set of member(D, M); every vector of digits."""
    program = folder / f"member{images}-{digits}.lp"
    shown = ", ".join(f"digit(0,i{k},N{k})" for k in range(1, images + 1))
    differ = ", ".join(f"D != N{k}" for k in range(1, images + 1))
    program.write_text(
        " ".join(f"img(i{k})." for k in range(1, images + 1))
        + f"\nnn(digit(1,X), [{','.join(map(str, range(digits)))}]) :- img(X).\n"
        + f"check(0..{digits - 1}).\nabsent(D) :- check(D), {shown}, {differ}.\n"
        + "member(D,0) :- absent(D).\nmember(D,1) :- check(D), not absent(D).\n"
    )
    kind = "-objects" if objects else ""
    data = {"name": f"member{images}-{digits}d{kind}", "program": str(program), "query": "member(D, M)"}
    return {**data, "support": "exhaustive", **({"mode": "objects"} if objects else {})}


APPLY = """nn(digit(3,d), [{digits}]).
nn(op(4,i), [0,1,2]).
digits(D1,D2,D3) :- digit(0,d,D1), digit(1,d,D2), digit(2,d,D3).
opv(0..2).
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=0, O2=0, R=(D1+D2)+D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=0, O2=1, R=(D1+D2)-D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=0, O2=2, R=(D1+D2)*D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=1, O2=0, R=(D1-D2)+D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=1, O2=1, R=(D1-D2)-D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=1, O2=2, R=(D1-D2)*D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=2, O2=0, R=(D1*D2)+D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=2, O2=1, R=(D1*D2)-D3.
apply(D1,O1,D2,O2,D3,R) :- digits(D1,D2,D3), opv(O1), opv(O2), O1=2, O2=2, R=(D1*D2)*D3.
apply2x2(D1,D2,D3,R1,R2,C1,C2) :- digits(D1,D2,D3), op(0,i,O1), op(1,i,O2), op(2,i,O3), op(3,i,O4),
    apply(D1,O1,D2,O2,D3,R1), apply(D1,O3,D2,O4,D3,R2), apply(D1,O1,D2,O3,D3,C1), apply(D1,O2,D2,O4,D3,C2).
"""


def apply2x2(rows: int, seed: int, folder: Path) -> dict[str, Any]:
    """NeurASP's apply2x2 (examples/apply2x2) with its three digits (0-10) read by a network too:
    `rows` distinct random rows of digits and operators (0 plus, 1 minus, 2 times)."""
    program = folder / "apply2x2.lp"
    program.write_text(APPLY.format(digits=",".join(map(str, range(11)))))
    rng = random.Random(seed)
    drawn: dict[tuple[int, ...], None] = {}
    while len(drawn) < rows:
        drawn[(*(rng.randrange(11) for _ in range(3)), *(rng.randrange(3) for _ in range(4)))] = None
    return {
        "name": f"apply2x2-{rows}-s{seed}",
        "program": str(program),
        "query": "apply2x2(D1, D2, D3, R1, R2, C1, C2)",
        "support": [list(r) for r in drawn],
    }


def brute_force(data: dict[str, Any]) -> dict[str, Any] | None:
    """Every map (pi, f) tried where there are at most BRUTE_MAX: pi any permutation of the cells
    (images), f any function of the values per cell (objects: one for every cell); counted when
    every support row keeps its label. Sudoku grids and member tasks only."""
    objects = "objects" in data or data.get("mode") == "objects"
    if data["name"].startswith("sudoku"):
        if "objects" in data:
            values, k = data["objects"]["attributes"]["cell"], data["objects"]["count"]
        else:
            values, k = next(iter(data["concepts"].values())), len(data["concepts"])
        side = math.isqrt(k)
        groups = _groups(side, math.isqrt(side))
        rows = [tuple(r) for r in data["support"]]

        def label(row: tuple[Any, ...]) -> Any:
            return _valid(row, groups)

    elif data["name"].startswith("member"):
        k, digits = (int(x) for x in data["name"][len("member") :].split("d")[0].split("-"))
        values = list(range(digits))
        rows = list(itertools.product(values, repeat=k))

        def label(row: tuple[Any, ...]) -> Any:
            return frozenset(row)

    else:
        return None
    return brute_force_run(values, k, objects, rows, label)


def main() -> None:
    parser = grid_options(__doc__, "auto,search,ganak")
    args = parser.parse_args()
    seeds = list(map(int, args.seeds.split(",")))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tasks = [sudoku(2, 1, 6, 1, objects) for objects in (True, False)]  # 2x2, beside a brute force
        tasks += [
            sudoku(4, 2, n, s, objects) for objects in (True, False) for n in (100, 1000) for s in seeds
        ]
        tasks += [member(3, 3, folder), member(3, 3, folder, objects=True)]
        tasks += [member(n, 10, folder, objects) for n in (3, 4, 5) for objects in (False, True)]
        tasks += [apply2x2(rows, seeds[0], folder) for rows in (100, 1000, 3000)]
        count_grid(
            tasks,
            args.methods.split(","),
            args.timeout,
            "grids",
            "Grids, membership and operators: counts and seconds per method",
            f"python benchmarks/grids.py --timeout {args.timeout:g}",
            ("brute force", brute_force),
        )


if __name__ == "__main__":
    main()
