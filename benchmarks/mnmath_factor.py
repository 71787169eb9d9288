"""One label-group factor of MNMath with 40 rows in the disentangled mode, the one instance of
benchmarks/reach.md without an answer: the value maps of digits 1-4 (each 0-9 -> 0-9, on the values
the rows show) under which every row keeps its y1 = [d1 + d2 == d3 + d4]. Counted exactly by GANAK
on the first k rows (k = 4, 8, 12, ...), as lattice points by isl's Barvinok counter (with and
without the rows where y1 is false), and approximately by ApproxMC on all 40; writes
mnmath_factor.md. See docs/performance.md, "MNMath with 40 rows in the disentangled mode".

    python benchmarks/mnmath_factor.py              # about 8 minutes with the default limits
    python benchmarks/mnmath_factor.py --timeout 120

isl's counter comes with `pip install islpy-barvinok` (not a dependency of rscount; without it
those lines say so).

The CNF has no auxiliary variables: a variable per (digit, value shown, value given), exactly one
true per (digit, value shown), and per row and choice of the first three digits' values one clause
forcing (y1 true) or forbidding (y1 false) the fourth's value that makes the sums equal.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from measure import run_measured  # noqa: E402
from reach import instances  # noqa: E402

DIGITS = range(10)
INSTANCE = "mnmath-40-s1-disentangled"


def factor_cnf(rows: list[list[int]]) -> tuple[int, list[list[int]]]:
    """The CNF of the y1 factor over `rows` (digits 1-4 feeding digits 1-4) and its variable count."""
    var: dict[tuple[int, int, int], int] = {}

    def x(i: int, v: int, u: int) -> int:
        return var.setdefault((i, v, u), len(var) + 1)

    clauses: set[tuple[int, ...]] = set()
    for row in rows:
        a, b, c, d = row[:4]
        equal = a + b == c + d
        for u1, u2, u3 in itertools.product(DIGITS, repeat=3):
            u4 = u1 + u2 - u3
            head = (-x(0, a, u1), -x(1, b, u2), -x(2, c, u3))
            if equal:
                clauses.add(head + ((x(3, d, u4),) if u4 in DIGITS else ()))
            elif u4 in DIGITS:
                clauses.add(head + (-x(3, d, u4),))
    for i, v in sorted({(i, v) for i, v, _ in var}):
        lits = [x(i, v, u) for u in DIGITS]
        clauses.add(tuple(lits))
        clauses.update((-p, -q) for p, q in itertools.combinations(lits, 2))
    return len(var), [list(c) for c in sorted(clauses)]


def write_dimacs(path: Path, num_vars: int, clauses: list[list[int]]) -> None:
    lines = [f"p cnf {num_vars} {len(clauses)}", *(" ".join(map(str, c)) + " 0" for c in clauses)]
    path.write_text("\n".join(lines) + "\n")


def approxmc(path: str) -> None:
    """ApproxMC's estimate (epsilon 0.8, delta 0.2) of a DIMACS file's models, on stdout."""
    import pyapproxmc

    counter = pyapproxmc.Counter(seed=1, epsilon=0.8, delta=0.2)
    for line in Path(path).read_text().splitlines()[1:]:
        counter.add_clause([int(t) for t in line.split()[:-1]])
    cells, hashes = counter.count()
    print(cells * 2**hashes)


def lattice_points(path: str, equalities_only: bool) -> None:
    """isl's count of the factor's value maps over the rows in a JSON file, as the integer points of
    [0, 9]^n on the rows' hyperplanes (y1 true) and off the others (y1 false, unless
    `equalities_only`), on stdout."""
    import islpy

    names: dict[tuple[int, int], str] = {}
    constraints = []
    for row in json.loads(Path(path).read_text()):
        a, b, c, d = row[:4]
        terms = [names.setdefault((i, v), f"x{i}_{v}") for i, v in enumerate((a, b, c, d))]
        total = f"{terms[0]} + {terms[1]} - {terms[2]} - {terms[3]}"
        if a + b == c + d:
            constraints.append(f"{total} = 0")
        elif not equalities_only:
            constraints.append(f"({total} < 0 or {total} > 0)")
    box = [f"0 <= {x} <= 9" for x in sorted(names.values())]
    text = "{ [" + ", ".join(sorted(names.values())) + "] : " + " and ".join(box + constraints) + " }"
    print(str(islpy.Set(text).card()).strip("{ }"))  # a constant piecewise quasi-polynomial: "{ N }"


def _prefixes(label: str, rows: list[list[int]], timeout: float, run: Callable[[int], Any]) -> list[str]:
    """Table lines of one counter on the first 4, 8, ... rows, up to its first run without an answer."""
    lines = []
    for k in range(4, len(rows) + 1, 4):
        done = run(k)
        if done.exit_code == 0 and done.stdout.strip():
            answer = f"{int(done.stdout.split()[-1]):.3e} maps"
        elif "ModuleNotFoundError" in done.stderr:
            answer = "not installed"
        else:
            answer = f"no answer in {timeout:g} s"
        lines.append(f"| {label} | {k} | {answer} | {done.wall_s:.1f} s, {done.peak_mib:.0f} MiB |")
        print(lines[-1], flush=True)
        if not answer.endswith("maps"):
            break
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="per run of GANAK or isl")
    parser.add_argument("--approx-timeout", type=float, default=120.0)
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "mnmath_factor.md"))
    parser.add_argument("--approxmc", metavar="FILE.cnf", help=argparse.SUPPRESS)
    parser.add_argument("--isl", metavar="ROWS.json", help=argparse.SUPPRESS)
    parser.add_argument("--equalities-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.approxmc:
        approxmc(args.approxmc)
        return 0
    if args.isl:
        lattice_points(args.isl, args.equalities_only)
        return 0
    reach = str(REPO / "benchmarks" / "reach.py")
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        (instance,) = instances(scratch, INSTANCE)
        rows = yaml.safe_load(Path(instance.args[0]).read_text())["support"]
        random.Random(0).shuffle(rows)  # y1 true and false rows mixed in every prefix
        cnf, prefix = scratch / "factor.cnf", scratch / "rows.json"

        def by_ganak(k: int) -> Any:
            num_vars, clauses = factor_cnf(rows[:k])
            write_dimacs(cnf, num_vars, clauses)
            return run_measured([sys.executable, reach, "--ganak", str(cnf)], REPO, args.timeout)

        def by_isl(extra: list[str]) -> Callable[[int], Any]:
            def run(k: int) -> Any:
                prefix.write_text(json.dumps(rows[:k]))
                command = [sys.executable, __file__, "--isl", str(prefix), *extra]
                return run_measured(command, REPO, args.timeout)

            return run

        lines += _prefixes("GANAK", rows, args.timeout, by_ganak)
        lines += _prefixes("isl (Barvinok)", rows, args.timeout, by_isl([]))
        lines += _prefixes("isl, rows with y1 true only", rows, args.timeout, by_isl(["--equalities-only"]))
        num_vars, clauses = factor_cnf(rows)
        write_dimacs(cnf, num_vars, clauses)
        command = [sys.executable, __file__, "--approxmc", str(cnf)]
        run = run_measured(command, REPO, args.approx_timeout)
        if run.exit_code == 0 and run.stdout.strip():
            answer = f"about {int(run.stdout.split()[-1]):.3e} maps (epsilon 0.8, delta 0.2)"
        else:
            answer = f"no answer in {args.approx_timeout:g} s"
        lines.append(f"| ApproxMC | {len(rows)} | {answer} | {run.wall_s:.1f} s, {run.peak_mib:.0f} MiB |")
        print(lines[-1], flush=True)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = [
        "# One factor of MNMath (40 rows, disentangled): y1 over digits 1-4",
        "",
        f"Recorded {now} by `python benchmarks/mnmath_factor.py` on {platform.node()}",
        f"({platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}); instance {INSTANCE} of benchmarks/reach.py, rows shuffled",
        "(seed 0), the first k counted. Why it matters: docs/performance.md.",
        "",
        "| counter | rows | answer | time, peak memory |",
        "|---|---|---|---|",
    ]
    Path(args.out).write_text("\n".join(header + lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
