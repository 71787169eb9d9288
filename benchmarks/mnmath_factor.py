"""One label-group factor of MNMath with 40 rows in the disentangled mode, the one instance of
benchmarks/reach.md without an answer: the value maps of digits 1-4 (each 0-9 -> 0-9, on the values
the rows show) under which every row keeps its y1 = [d1 + d2 == d3 + d4]. Counted exactly by GANAK
on the first k rows (k = 4, 8, 12, ...), as lattice points by isl's Barvinok counter (with and
without the rows where y1 is false), and approximately by ApproxMC on all 40; then the two
routes a sampler or a relaxation would take: the treewidths a table-based count needs, and
sequential importance sampling with forward checking (how often a draw survives, and how many
draws a guaranteed estimate would need). Writes mnmath_factor.md. See docs/performance.md, "MNMath
with 40 rows in the disentangled mode".

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
import itertools
import json
import math
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from measure import recorded, run_measured  # noqa: E402
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


def _min_fill_width(edges: list[tuple[Any, ...]]) -> int:
    """The width of the min-fill elimination order of the graph whose cliques are `edges`: an upper
    bound on its treewidth (a table-based count needs tables over width + 1 variables)."""
    adjacent: dict[Any, set[Any]] = {}
    for edge in edges:
        for a in edge:
            adjacent.setdefault(a, set()).update(b for b in edge if b != a)
    width = 0
    while adjacent:

        def fill(v: Any) -> tuple[int, int]:
            around = adjacent[v]
            missing = sum(1 for a, b in itertools.combinations(around, 2) if b not in adjacent[a])
            return missing, len(around)

        v = min(adjacent, key=fill)
        around = adjacent.pop(v)
        width = max(width, len(around))
        for a in around:
            adjacent[a].discard(v)
            adjacent[a].update(b for b in around if b != a)
    return width


def widths(rows: list[list[int]]) -> list[tuple[str, str]]:
    """Min-fill widths of the factor's constraint graph: over the value variables with every row,
    with the rows where y1 is true (a relaxation that keeps the rows that cut most), and that
    relaxation's Fourier dual (a variable per row, linked where rows share a value variable)."""
    scopes = [(tuple(enumerate(row[:4])), row[0] + row[1] == row[2] + row[3]) for row in rows]
    equal = [scope for scope, y in scopes if y]
    rows_of: dict[tuple[int, int], list[int]] = {}
    for n, scope in enumerate(equal):
        for variable in scope:
            rows_of.setdefault(variable, []).append(n)
    return [
        ("every row, over the value variables", str(_min_fill_width([s for s, _ in scopes]))),
        ("rows with y1 true, over the value variables", str(_min_fill_width(equal))),
        (
            "rows with y1 true, Fourier dual (over the rows)",
            str(_min_fill_width(list(map(tuple, rows_of.values())))),
        ),
    ]


def importance_sampling(rows: list[list[int]], draws: int, seed: int = 0) -> list[tuple[str, str]]:
    """Sequential importance sampling of the factor's value maps: the value variables in a
    most-constrained-first order, each drawn uniformly among the values that leave every row it
    reads completable, the weight the product of those numbers (unbiased; zero when a variable has
    none). A guaranteed (epsilon, delta) estimate by the stopping rule of Dagum, Karp, Luby and Ross
    scales the weights by their largest possible value M and needs about Y1 * M / count draws."""
    table = np.zeros((10,) * 4, dtype=bool)
    for t in itertools.product(DIGITS, repeat=4):
        table[t] = t[0] + t[1] == t[2] + t[3]
    names: dict[tuple[int, int], int] = {}
    scopes = []
    for row in rows:
        scope = [names.setdefault((i, v), len(names)) for i, v in enumerate(row[:4])]
        scopes.append((scope, table if row[0] + row[1] == row[2] + row[3] else ~table))

    def constrained(v: int, placed: set[int]) -> tuple[int, int, int]:
        """Rows' variables already placed among the rows v is read by, those rows, lowest first."""
        reads = [scope for scope, _ in scopes if v in scope]
        return sum(len(placed.intersection(s)) for s in reads), len(reads), -v

    order: list[int] = []
    while len(order) < len(names):
        placed = set(order)
        order.append(max(set(range(len(names))) - placed, key=lambda v: constrained(v, placed)))
    step = {v: k for k, v in enumerate(order)}
    # Per step, per row read: the row's variables placed before and its table projected onto them
    # and the variable placed (the rest existentially quantified).
    checks: list[list[tuple[list[int], np.ndarray]]] = [[] for _ in order]
    most = [10] * len(order)
    for scope, allowed in scopes:
        for position, v in enumerate(scope):
            before = [p for p, u in enumerate(scope) if step[u] < step[v]]
            after = tuple(p for p, u in enumerate(scope) if step[u] > step[v])
            projected = allowed.any(axis=after) if after else allowed
            kept = sorted([*before, position])
            projected = np.transpose(projected, [kept.index(p) for p in [*before, position]])
            checks[step[v]].append(([scope[p] for p in before], projected))
            most[step[v]] = min(most[step[v]], int(projected.sum(axis=-1).max()))
    rng = np.random.default_rng(seed)
    total, survived, chunk = 0.0, 0, 100_000
    for start in range(0, draws, chunk):
        n = min(chunk, draws - start)
        values = np.zeros((n, len(names)), dtype=np.int64)
        log_weight = np.zeros(n)
        alive = np.ones(n, dtype=bool)
        for k, v in enumerate(order):
            ok = np.ones((n, 10), dtype=bool)
            for placed_before, projected in checks[k]:
                ok &= projected[tuple(values[:, u] for u in placed_before)]
            choices = ok.sum(axis=1)
            alive &= choices > 0
            log_weight += np.log(np.maximum(choices, 1))
            pick = rng.random(n) * np.maximum(choices, 1)
            values[:, v] = np.minimum((np.cumsum(ok, axis=1) <= pick[:, None]).sum(axis=1), 9)
        total += float(np.exp(log_weight[alive]).sum())
        survived += int(alive.sum())
    estimate = total / draws
    bound = math.prod(most)
    epsilon, delta = 0.25, 0.2 / 420  # one of 420 factors, products of two within epsilon 0.8
    upsilon = 4 * (math.e - 2) * math.log(2 / delta) / epsilon**2
    needed = (1 + (1 + epsilon) * upsilon) * bound / estimate if estimate else math.inf
    return [
        ("draws", f"{draws}"),
        ("draws that survive every row", f"{survived} ({survived / draws:.1e})"),
        ("estimate of the factor (no guarantee)", f"{estimate:.3e} maps"),
        ("largest possible weight M", f"{bound:.3e}"),
        ("draws a guaranteed estimate needs (epsilon 0.25, delta 0.2 / 420)", f"about {needed:.1e}"),
    ]


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
    parser.add_argument("--draws", type=int, default=1_000_000, help="importance-sampling draws")
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
        routes = widths(rows)
        start = time.perf_counter()
        routes += importance_sampling(rows, args.draws)
        routes.append(("time of the sampling", f"{time.perf_counter() - start:.1f} s"))
        for route in routes:
            print(*route, sep=": ", flush=True)
    header = [
        "# One factor of MNMath (40 rows, disentangled): y1 over digits 1-4",
        "",
        *recorded("python benchmarks/mnmath_factor.py"),
        f"instance {INSTANCE} of benchmarks/reach.py, rows shuffled (seed 0), the first k counted.",
        "Why it matters: docs/performance.md.",
        "",
        "| counter | rows | answer | time, peak memory |",
        "|---|---|---|---|",
    ]
    sampled = [
        "",
        "Treewidths (min-fill) a table-based count or an exact sampler would need, and sequential",
        "importance sampling with forward checking, on all 40 rows:",
        "",
        "| figure | value |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in routes),
    ]
    Path(args.out).write_text("\n".join(header + lines + sampled) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
