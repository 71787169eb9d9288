"""Sudokus with one network per cell (the disentangled mode), which only the pairwise method
counts: the 4x4 grids of benchmarks/grids.py at 30, 100 and 1000 puzzles (every seed), and the 2x2
grid beside a brute force. Each counted by `rscount count --method M --timeout T` in a subprocess.

    python benchmarks/pairwise.py                                # auto, pairwise, ganak; 60 s each
    python benchmarks/pairwise.py --methods pairwise --seeds 1,2,3

Writes benchmarks/pairwise.json and benchmarks/pairwise.md (one row per task, machine and date).
"""

from __future__ import annotations

from count_grid import count_grid, grid_options
from grids import brute_force, sudoku


def main() -> None:
    parser = grid_options(__doc__, "auto,pairwise,ganak")
    args = parser.parse_args()
    seeds = list(map(int, args.seeds.split(",")))
    tasks = [sudoku(2, 1, 6, 1, False)]
    tasks += [sudoku(4, 2, n, s, False) for n in (30, 100, 1000) for s in seeds]
    count_grid(
        tasks,
        args.methods.split(","),
        args.timeout,
        "pairwise",
        "Sudokus with one network per cell: counts and seconds per method",
        f"python benchmarks/pairwise.py --timeout {args.timeout:g}",
        ("brute force", brute_force),
    )


if __name__ == "__main__":
    main()
