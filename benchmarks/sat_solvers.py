"""Which SAT solver should list models and classes (rscount.sat.ENUMERATE): one method timed on task
files with each candidate solver in its place, side by side.

    python benchmarks/sat_solvers.py [--method decompose] [--solvers cadical195,glucose4]
        [--timeout 150] [--out benchmarks/sat_solvers.md] FILE.yaml ...
    python benchmarks/sat_solvers.py --one FILE.yaml SOLVER METHOD    # (internal) one run, JSON

Each run is its own subprocess (killed at the limit) that sets rscount.sat.ENUMERATE and counts the
task in-process with the one method, so the time is the method's alone (no race, no CLI); "failed"
is a run that ended without a count (the method declined the task, or an error).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from measure import recorded, run_measured
from suite import REPO, last_json

Outcome = tuple[int | None, float | None, str]  # count, seconds, or why not: "> limit" or "failed"


def one(path: str, solver: str, method: str) -> None:
    """Count one task with one method, ENUMERATE set to `solver`; JSON count and seconds on stdout."""
    import rscount.sat as sat
    from rscount.counting.dispatch import count_task
    from rscount.counting.settings import CountSettings, Method
    from rscount.knowledge.loading import load_task

    sat.ENUMERATE = solver
    task = load_task(Path(path))
    start = time.perf_counter()
    result = count_task(task, CountSettings(method=Method(method)))
    print(json.dumps({"count": result.count, "seconds": round(time.perf_counter() - start, 3)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--one", nargs=3, metavar=("FILE", "SOLVER", "METHOD"))
    parser.add_argument("--method", default="decompose")
    parser.add_argument("--solvers", default="cadical195,glucose4")
    parser.add_argument("--timeout", type=float, default=150.0)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "sat_solvers.md")
    args = parser.parse_args()
    if args.one:
        one(*args.one)
        return
    solvers = args.solvers.split(",")
    rows: list[tuple[str, list[Outcome]]] = []
    for file in args.files:
        found = []
        for solver in solvers:
            command = [sys.executable, __file__, "--one", str(Path(file).resolve()), solver, args.method]
            run = run_measured(command, REPO, args.timeout)
            data = None if run.killed or run.exit_code else last_json(run.stdout)
            if data:
                found.append((data["count"], data["seconds"], ""))
            else:
                found.append((None, None, f"> {args.timeout:g}" if run.killed else "failed"))
        counts = {c for c, _, _ in found if c is not None}
        if len(counts) > 1:
            sys.exit(f"{file}: the solvers' counts differ: {sorted(counts)}")
        rows.append((Path(file).name, found))
        print(Path(file).name, found, flush=True)
    write(args, solvers, rows)


def write(args: argparse.Namespace, solvers: list[str], rows: list[tuple[str, list[Outcome]]]) -> None:
    """The table: seconds per solver, each solver's time over the first's, and the median ratio."""
    command = "python benchmarks/sat_solvers.py " + " ".join(sys.argv[1:])
    lines = [*recorded(command), "", f"Method `{args.method}`, limit {args.timeout:g} s per run.", ""]
    lines.append("| task | count | " + " | ".join(f"{s} s" for s in solvers) + " | " +
                 " | ".join(f"{s} / {solvers[0]}" for s in solvers[1:]) + " |")  # fmt: skip
    lines.append("|" + "---|" * (2 + 2 * len(solvers) - 1))
    ratios: list[list[float]] = [[] for _ in solvers[1:]]
    for name, found in rows:
        count = next((str(c) for c, _, _ in found if c is not None), "-")
        times = [f"{s:.2f}" if s is not None else why for _, s, why in found]
        shown = []
        for n, (_, s, _) in enumerate(found[1:]):
            first = found[0][1]
            if s is not None and first:
                ratios[n].append(s / first)
                shown.append(f"{s / first:.2f}")
            else:
                shown.append("-")
        lines.append(f"| {name} | {count} | " + " | ".join(times + shown) + " |")
    for solver, found in zip(solvers[1:], ratios):
        if found:
            lines.append("")
            lines.append(
                f"{solver} over {solvers[0]}: median {statistics.median(found):.2f}, "
                f"faster on {sum(r < 1 for r in found)} of {len(found)} tasks."
            )
    args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
