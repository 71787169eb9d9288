"""Benchmark rscount on exhaustive XOR-k: CNF emission time and each counting backend, k = kmin..kmax.

Run from the repository root:  python benchmarks/bench_xor.py [--kmin 3] [--kmax 10] [--timeout 120]
Writes results_xor.md and results_xor.csv next to this script (or into --out-dir); both files are
rewritten after every run, so an interrupted benchmark still leaves the rows measured so far.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from fractions import Fraction
from importlib import metadata
from pathlib import Path

from rscount.backends import CountOptions, backends
from rscount.counting import run_stoppable
from rscount.dimacs import write_dimacs
from rscount.encoding import Encoding, encode
from rscount.errors import RscountError
from rscount.taskfile import builtin_task

EPSILON = 0.8
DELTA = 0.2
SEED = 1
DEFAULT_BACKENDS = ("sdd", "approxmc", "enumerate")
PACKAGES = ("rscount", "pysdd", "pyapproxmc", "python-sat")


@dataclass
class Row:
    """One measurement: the emission of XOR-k (stage 'emission') or one backend run on it."""

    k: int
    stage: str
    status: str
    wall_s: float | None = None
    backend_s: float | None = None
    num_vars: int | None = None
    num_clauses: int | None = None
    projection: int | None = None
    count: int | None = None
    reference: int | None = None
    matches_ref: bool | None = None
    est_over_ref: float | None = None
    within_eps: bool | None = None
    max_rss_mib: float | None = None
    note: str = ""


def reference_count(k: int) -> int:
    """Optimal concept maps of exhaustive XOR-k: k! permutations times 2^(k-1) even negation sets."""
    return math.factorial(k) * 2 ** (k - 1)


def max_rss_mib(who: int) -> float:
    """ru_maxrss of RUSAGE_SELF or RUSAGE_CHILDREN in MiB (Linux reports KiB): a max so far."""
    return resource.getrusage(who).ru_maxrss / 1024


def emit(k: int, directory: Path) -> tuple[Encoding, Row]:
    """Build the XOR-k task, encode it and write its DIMACS; time the three steps together."""
    start = time.perf_counter()
    enc = encode(builtin_task("xor", k))
    write_dimacs(enc.cnf, directory / f"xor{k}.cnf", force=True)
    wall = time.perf_counter() - start
    row = Row(
        k,
        "emission",
        "ok",
        wall_s=wall,
        num_vars=enc.cnf.num_vars,
        num_clauses=len(enc.cnf.clauses),
        projection=len(enc.projection),
        reference=reference_count(k),
        max_rss_mib=max_rss_mib(resource.RUSAGE_SELF),
    )
    return enc, row


def within_epsilon(estimate: int, reference: int, epsilon: float) -> bool:
    """ref/(1+eps) <= est <= ref*(1+eps), in exact rational arithmetic."""
    factor = 1 + Fraction(str(epsilon))
    return Fraction(reference) / factor <= estimate <= reference * factor


def run_backend(name: str, enc: Encoding, k: int, timeout: float) -> Row:
    """Count with backend `name` in a killable child process and compare with the reference."""
    backend = backends()[name]
    options = CountOptions(epsilon=EPSILON, delta=DELTA, seed=SEED)
    ref = reference_count(k)
    start = time.perf_counter()
    try:
        result = run_stoppable(backend.count, enc, options, timeout=timeout)
    except RscountError as exc:
        wall = time.perf_counter() - start
        status = "timeout" if wall >= timeout else "error"
        row = Row(k, name, status, wall_s=wall, reference=ref, note="" if status == "timeout" else str(exc))
    except RuntimeError as exc:  # the child died or raised an internal error
        wall = time.perf_counter() - start
        note = str(exc).strip().splitlines()[-1]
        row = Row(k, name, "error", wall_s=wall, reference=ref, note=note)
    else:
        row = Row(
            k,
            name,
            "ok",
            wall_s=time.perf_counter() - start,
            backend_s=result.seconds,
            count=result.count,
            reference=ref,
        )
        if backend.exact:
            row.matches_ref = result.count == ref
        else:
            row.est_over_ref = result.count / ref
            row.within_eps = within_epsilon(result.count, ref, EPSILON)
    row.max_rss_mib = max_rss_mib(resource.RUSAGE_CHILDREN)
    return row


def _read(path: str, key: str) -> str:
    """The value of the first `key: value` line of a /proc file, or '?'."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _git_revision(directory: Path) -> str:
    """Short commit of the checkout (with '+dirty' for local changes), or '?' outside git."""
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=directory, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=directory,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return rev + ("+dirty" if dirty else "")


def environment(args: argparse.Namespace) -> dict[str, str]:
    """Machine, date, interpreter, package versions and benchmark settings for the results header."""
    uname = platform.uname()
    mem_kib = _read("/proc/meminfo", "MemTotal").split()[0]
    memory = f"{int(mem_kib) / 1024**2:.1f} GiB" if mem_kib.isdigit() else "?"
    info = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "machine": f"{uname.system} {uname.release} {uname.machine}",
        "processor": platform.processor() or "?",
        "cpu model": _read("/proc/cpuinfo", "model name"),
        "nproc": f"{len(os.sched_getaffinity(0))} usable ({os.cpu_count()} total)",
        "total memory": memory,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
    info.update({package: _version(package) for package in PACKAGES})
    info["rscount commit"] = _git_revision(Path(__file__).resolve().parent)
    info["settings"] = (
        f"k = {args.kmin}..{args.kmax}, timeout {args.timeout:g} s per backend run, "
        f"epsilon={EPSILON}, delta={DELTA}, seed={SEED}"
    )
    return info


def _cell(value: object, digits: int = 3) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def write_csv(rows: list[Row], path: Path) -> None:
    """All rows, one per (k, stage), with every column."""
    names = [f.name for f in fields(Row)]
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=names)
        writer.writeheader()
        for row in rows:
            writer.writerow({n: _cell(v, 4) for n, v in asdict(row).items()})


def write_markdown(rows: list[Row], info: dict[str, str], path: Path, finished: bool) -> None:
    """Header with the environment, then an emission table and a counting table."""
    lines = ["# XOR-k benchmark (exhaustive support)", ""]
    lines += [f"- **{key}**: {value}" for key, value in info.items()]
    if not finished:
        lines.append("- **status**: run in progress or interrupted; the rows below are partial")
    lines += ["", "Reference count: k! * 2^(k-1).", ""]
    lines += ["## CNF emission (task + encoding + DIMACS write)", ""]
    lines += [
        "| k | vars | clauses | projection | seconds | max RSS so far (MiB, self) |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r.stage == "emission":
            lines.append(
                f"| {r.k} | {r.num_vars} | {r.num_clauses} | {r.projection} | {_cell(r.wall_s, 4)} "
                f"| {_cell(r.max_rss_mib, 1)} |"
            )
    lines += ["", "## Counting backends", ""]
    lines += [
        "| k | backend | status | wall s | backend s | count | reference | = ref | est/ref | within eps "
        "| max RSS so far (MiB, children) |",
        "|---:|---|---|---:|---:|---:|---:|---|---:|---|---:|",
    ]
    for r in rows:
        if r.stage != "emission":
            lines.append(
                f"| {r.k} | {r.stage} | {r.status} | {_cell(r.wall_s, 2)} | {_cell(r.backend_s, 2)} "
                f"| {_cell(r.count)} | {r.reference} | {_cell(r.matches_ref)} | {_cell(r.est_over_ref)} "
                f"| {_cell(r.within_eps)} | {_cell(r.max_rss_mib, 1)} |"
            )
    notes = [f"- k={r.k} {r.stage}: {r.note}" for r in rows if r.note]
    if notes:
        lines += ["", "## Notes", "", *notes]
    path.write_text("\n".join(lines) + "\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kmin", type=int, default=3, help="smallest k (default 3)")
    parser.add_argument("--kmax", type=int, default=10, help="largest k (default 10)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per backend run (default 120)")
    parser.add_argument(
        "--backends",
        default=",".join(DEFAULT_BACKENDS),
        help=f"comma-separated backends to time (default {','.join(DEFAULT_BACKENDS)})",
    )
    parser.add_argument(
        "--out-dir", type=Path, default=Path(__file__).resolve().parent, help="where to write results_xor.*"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.kmin <= args.kmax:
        parser.error("need 1 <= --kmin <= --kmax")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    args.backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = sorted(set(args.backends) - set(backends()))
    if unknown:
        parser.error(f"unknown backend(s) {', '.join(unknown)}; available: {', '.join(backends())}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, printing one line per measurement and rewriting the results after each."""
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    md_path, csv_path = args.out_dir / "results_xor.md", args.out_dir / "results_xor.csv"
    info = environment(args)
    rows: list[Row] = []
    stopped: dict[str, str] = {}  # backend -> status that made it stop (timeout or error)

    def record(row: Row) -> None:
        rows.append(row)
        write_csv(rows, csv_path)
        write_markdown(rows, info, md_path, finished=False)
        detail = row.note or (f"count={row.count}" if row.count is not None else "")
        wall = f"{row.wall_s:.2f}s" if row.wall_s is not None else "-"
        print(f"k={row.k:<3} {row.stage:<10} {row.status:<8} {wall:>9} {detail}", flush=True)

    with tempfile.TemporaryDirectory(prefix="bench_xor_") as tmp:
        for k in range(args.kmin, args.kmax + 1):
            enc, row = emit(k, Path(tmp))
            record(row)
            for name in args.backends:
                if name in stopped:
                    record(Row(k, name, "skipped", reference=reference_count(k)))
                    continue
                row = run_backend(name, enc, k, args.timeout)
                if row.status in ("timeout", "error"):
                    stopped[name] = row.status
                record(row)
    write_markdown(rows, info, md_path, finished=True)
    print(f"wrote {md_path} and {csv_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
