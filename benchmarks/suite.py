"""The rscount benchmark suite: emission, exact and approximate counting times, errors and peak memory
of every counting method, and a pure-CNF baseline, on MNLogic families and the bundled task files.

Run from anywhere:  python benchmarks/suite.py [--quick] [--timeout 120] [--out-dir benchmarks]
Every run is a separate `python -m rscount.cli ... --json --timeout T` subprocess in the repository
root (so the checkout's rscount is measured); results.md and results.csv are rewritten after each run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from measure import Run, run_measured
from report import (
    BASELINE,
    EMISSION,
    EMISSION_PASS,
    PROJECTION_CHECK,
    Row,
    Target,
    within,
    write_csv,
    write_markdown,
)

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
EPSILON = 0.8
DELTA = 0.2
GRACE_S = 30.0  # the CLI stops itself at --timeout; the outer kill waits this much longer
ENUMERATE_PER_S = 1000  # enumeration finds at most about this many maps per second (measured: ~3000)
# Run order on each task: exact methods first (the first exact count is the reference), the
# approximate ones, then enumerate (skipped when a count already known is too large for it), auto.
RUN_ORDER = (
    "closed-form",
    "decompose",
    "sdd",
    BASELINE,
    "approxmc",
    "decompose-approx",
    "approx",
    "enumerate",
    "auto",
)
FILE_PATTERNS = (
    "tasks/mnadd*.yaml",
    "tasks/mnadd-evenodd*.yaml",
    "tasks/kand-logic*.yaml",
    "tasks/sdd-oia*.yaml",
)
PACKAGES = ("pysdd", "pyapproxmc", "python-sat")


@dataclass(frozen=True)
class Bench:
    """A task of the suite: its family (a method that times out is not run on the family's later,
    larger tasks), its name, and the CLI arguments that build it."""

    family: str
    name: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    """Which tasks a run measures."""

    xor_bits: tuple[int, ...]
    and_bits: tuple[int, ...]
    random_bits: tuple[int, ...]
    random_clauses: tuple[int, ...]
    random_seeds: tuple[int, ...]
    projection_checks: tuple[Bench, ...]


# XOR-k stops at 14 and AND-k at 12 to keep the default run near half an hour on 2 cores: measured,
# decompose alone takes 95 s and 9 GB on XOR-16 (emission 40 s), 84 s on AND-14, over 200 s on AND-16.
DEFAULT_PLAN = Plan(
    xor_bits=(*range(4, 13), 14),
    and_bits=tuple(range(4, 13)),
    random_bits=(6, 8),
    random_clauses=(4, 8, 16),
    random_seeds=(1, 2),
    projection_checks=(
        Bench(PROJECTION_CHECK, "xor3", ("xor", "--bits", "3")),
        Bench(PROJECTION_CHECK, "and3", ("and", "--bits", "3")),
        Bench(
            PROJECTION_CHECK,
            "random4-m3-l3-seed1",
            ("random", "--bits", "4", "--clauses", "3", "--length", "3", "--fraction", "0.5", "--seed", "1"),
        ),
    ),
)
QUICK_PLAN = Plan(
    xor_bits=tuple(range(4, 9)),
    and_bits=tuple(range(4, 9)),
    random_bits=(6, 8),
    random_clauses=(4, 8),
    random_seeds=(1,),
    projection_checks=(Bench(PROJECTION_CHECK, "xor3", ("xor", "--bits", "3")),),
)


def task_files(tasks_dir: Path) -> tuple[list[Path], list[str]]:
    """The task files the patterns match now (each once, in pattern order) and one report line per
    pattern; a pattern that matches no file is also announced on stdout."""
    found: list[Path] = []
    lines = []
    for pattern in FILE_PATTERNS:
        matches = sorted(tasks_dir.glob(Path(pattern).name))
        if not matches:
            print(f"note: the pattern {pattern} matches no file", flush=True)
        names = ", ".join(f"`{p.name}`" for p in matches)
        lines.append(f"- `{pattern}`: {names}" if matches else f"- `{pattern}`: **matches no file**")
        found += [p for p in matches if p not in found]
    return found, lines


def benches(plan: Plan, files: list[Path]) -> Iterator[Bench]:
    """The tasks of a run, each family in growing size."""
    for kind, bits in (("xor", plan.xor_bits), ("and", plan.and_bits)):
        for k in bits:
            yield Bench(kind, f"{kind}{k}", (kind, "--bits", str(k)))
    for bits in plan.random_bits:
        for m in plan.random_clauses:
            for seed in plan.random_seeds:
                args = ("random", "--bits", str(bits), "--clauses", str(m), "--length", "3")
                args += ("--fraction", "0.5", "--seed", str(seed))
                yield Bench(f"random-{bits}", f"random{bits}-m{m}-l3-seed{seed}", args)
    for path in files:
        yield Bench(f"file:{path.stem}", path.stem, ("count", os.path.relpath(path, REPO)))


def shown(command: list[str]) -> str:
    """A command as a user would type it in the repository root."""
    words = ["python" if word == sys.executable else word for word in command]
    return " ".join(os.path.relpath(w, REPO) if w.startswith(str(BENCH)) else w for w in words)


def cli(*args: str) -> list[str]:
    """The rscount CLI in this interpreter (run in REPO, `-m` imports the checkout's rscount)."""
    return [sys.executable, "-m", "rscount.cli", *args]


def last_json(text: str) -> dict | None:
    """The JSON object on the last non-empty line of `text`, or None."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        value = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def failure(run: Run, timeout: float) -> tuple[str, str]:
    """(status, note) of a run that printed no result."""
    message = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit code {run.exit_code}"
    if run.killed:
        return "timeout", f"killed by the suite after {run.wall_s:.0f} s"
    if "time limit" in message:
        return "timeout", f"stopped by --timeout {timeout:g}"
    if "no closed form applies" in message:
        return "n/a", message.removeprefix("rscount: error: ")
    return "error", message


class Suite:
    """Runs the plan, keeps the rows, decides skips and references, rewrites the results."""

    def __init__(self, args: argparse.Namespace, patterns: list[str]) -> None:
        self.timeout: float = args.timeout
        self.header, self.startup_s = environment(
            f"{'--quick' if args.quick else 'default'} plan; time limit {args.timeout:g} s per run "
            f"(`--timeout`; outer kill {GRACE_S:g} s later); epsilon {EPSILON}, delta {DELTA}, ApproxMC "
            "seed = the task seed (1 unless given); runs one after another; no run starts after "
            f"{args.budget:g} min (`--budget`)"
        )
        self.patterns = patterns
        self.md = args.out_dir / "results.md"
        self.csv = args.out_dir / "results.csv"
        self.rows: list[Row] = []
        self.stopped: dict[tuple[str, str], str] = {}  # (family, method) -> why it is not run again
        self.factors: dict[str, int] = {}  # task -> maps per solver model (approxmc's exact_factor)
        self.budget_min: float = args.budget
        self.started = time.perf_counter()

    def over_budget(self) -> str | None:
        """Why no more runs start, once the suite has used up its time budget (None: not yet)."""
        if time.perf_counter() - self.started < self.budget_min * 60:
            return None
        return f"the suite's time budget of {self.budget_min:g} min was used up (--budget)"

    def record(self, row: Row) -> Row:
        """Keep a row, rewrite both result files, print one progress line."""
        self.rows.append(row)
        self.write(finished=False)
        wall = f"{row.wall_s:8.2f}s" if row.wall_s is not None else " " * 9
        what = f"count={row.count}" if row.count is not None else row.note
        print(f"{row.task:<28} {row.method:<16} {row.status:<8} {wall} {what}"[:160], flush=True)
        return row

    def write(self, finished: bool) -> None:
        """Rewrite results.csv and results.md."""
        header = dict(self.header)
        elapsed = time.perf_counter() - self.started
        header["status"] = "finished" if finished else "in progress or interrupted: tables are partial"
        cut = sum(row.note.endswith("(--budget)") for row in self.rows)
        if cut:
            header["status"] += f"; **{cut} runs skipped: time budget used up** (see Notes)"
        header["suite wall time"] = f"{elapsed / 60:.1f} min"
        if finished:
            header["load average at the end"] = load_average()
        write_csv(self.rows, self.csv)
        write_markdown(self.md, self.rows, header, self.patterns, targets, self.timeout, self.startup_s)

    def emit(self, bench: Bench, path: Path) -> Row:
        """Emission only: task, encoding and DIMACS file, timed from the outside."""
        command = cli(*bench.args, "--emit", str(path), "--force", "--json", "--quiet")
        command += ["--timeout", str(self.timeout)]
        run = run_measured(command, REPO, self.timeout + GRACE_S)
        row = Row(bench.family, bench.name, EMISSION, "ok", run.wall_s, peak_mib=run.peak_mib)
        row.command = shown(command)
        data = last_json(run.stdout)
        if run.exit_code != 0 or data is None:
            row.status, row.note = failure(run, self.timeout)
        else:
            row.variables, row.clauses = data["variables"], data["clauses"]
            row.map_variables = data["map_variables"]
        return row

    def count(self, bench: Bench, method: str, cnf: Path) -> Row:
        """One counting run of `method` (or the baseline on the emitted `cnf`)."""
        if method == BASELINE:
            command = [sys.executable, str(BENCH / "cnf_sdd.py"), str(cnf)]
            run = run_measured(command, REPO, self.timeout)
        else:
            command = cli(
                *bench.args, "--method", method, "--json", "--quiet", "--timeout", str(self.timeout)
            )
            command += ["--epsilon", str(EPSILON), "--delta", str(DELTA)]
            run = run_measured(command, REPO, self.timeout + GRACE_S)
        row = Row(bench.family, bench.name, method, "ok", run.wall_s, peak_mib=run.peak_mib)
        row.command = shown(command)
        data = last_json(run.stdout)
        if run.exit_code != 0 or data is None:
            row.status, row.note = failure(run, self.timeout)
            return row
        row.seconds, row.count, row.exact = data["seconds"], data["count"], data["exact"]
        row.used = data["method"] if data["method"] != method else ""
        row.variables, row.clauses = data.get("variables"), data.get("clauses")
        row.map_variables = data.get("map_variables")
        if not row.exact:
            row.epsilon, row.delta = data["epsilon"], data["delta"]
        if method == "approxmc":
            self.factors[bench.name] = data["details"]["exact_factor"]
        if row.count is None:
            row.note = data.get("count_withheld") or "count not printed (too many digits)"
        return row

    def skip_reason(self, bench: Bench, method: str, runs: dict[str, Row]) -> str | None:
        """Why `method` is not run on `bench` (None: run it)."""
        if (bench.family, method) in self.stopped:
            return self.stopped[bench.family, method]
        budget = self.over_budget()
        if budget:
            return budget
        emission = runs[EMISSION]
        if emission.status != "ok" and method not in ("closed-form", "auto"):
            return f"emission {emission.status}: the encoding is not available"
        if method == BASELINE and runs["sdd"].status != "ok":
            return "sdd did not finish (the baseline was slower than sdd wherever both ran)"
        if method == "approx" and all(runs[m].status != "ok" for m in ("approxmc", "decompose-approx")):
            return "neither approxmc nor decompose-approx finished (approx runs one of them)"
        if method == "auto" and all(
            runs[m].status != "ok" for m in ("closed-form", "enumerate", "decompose", "approxmc")
        ):
            return "closed-form, enumerate, decompose and approxmc all failed (auto runs them in turn)"
        if method == "enumerate" and bench.name in self.factors:
            known = [r.count for r in runs.values() if r.status == "ok" and r.count is not None]
            models = min(known) / (1 + EPSILON) / self.factors[bench.name]
            if models > ENUMERATE_PER_S * self.timeout:
                return f"over {models:.0f} solver models to enumerate (at most ~{ENUMERATE_PER_S}/s)"
        return None

    def judge(self, row: Row, runs: dict[str, Row]) -> None:
        """Set the reference (closed form, else the first exact count) and compare the row with it."""
        if row.status != "ok" or row.count is None:
            return
        reference = next((r for r in runs.values() if r.reference is not None), None)
        if reference is None and row.exact:
            row.reference, row.reference_from = row.count, row.used or row.method
            reference = row
        if reference is None:
            return
        row.reference, row.reference_from = reference.reference, reference.reference_from
        if row.exact:
            row.agrees = row.count == row.reference
        elif row.reference:
            row.est_over_ref = row.count / row.reference
            row.within_eps = within(row.count, row.reference, EPSILON)

    def run_bench(self, bench: Bench, tmp: Path) -> None:
        """Emission, then every method in RUN_ORDER unless a skip rule says otherwise."""
        cnf = tmp / f"{bench.name}.cnf"
        runs: dict[str, Row] = {}
        reason = self.stopped.get((bench.family, EMISSION)) or self.over_budget()
        row = (
            Row(bench.family, bench.name, EMISSION, "skipped", note=reason)
            if reason
            else self.emit(bench, cnf)
        )
        runs[EMISSION] = self.record(row)
        self.stop_family(bench, row)
        for method in RUN_ORDER:
            reason = self.skip_reason(bench, method, runs)
            if reason:
                row = Row(bench.family, bench.name, method, "skipped", note=reason)
            else:
                row = self.count(bench, method, cnf)
                self.judge(row, runs)
            runs[method] = self.record(row)
            self.stop_family(bench, row)
            if method == BASELINE:
                cnf.unlink(missing_ok=True)

    def stop_family(self, bench: Bench, row: Row) -> None:
        """After a timeout or error (or too many models to enumerate), the method is not run on
        the family's later tasks; task files are families of one."""
        key = (bench.family, row.method)
        if key in self.stopped:
            return
        if row.status in ("timeout", "error"):
            self.stopped[key] = f"{row.status} on {bench.name} (same family)"
        elif row.method == "enumerate" and row.note.startswith("over "):
            self.stopped[key] = f"too many models already on {bench.name} (same family)"

    def emission_pass(self, tmp: Path) -> None:
        """Emit every file in tasks/ (`rscount count FILE --emit tmp.cnf --json`)."""
        for path in sorted((REPO / "tasks").glob("*.yaml")):
            bench = Bench(EMISSION_PASS, path.name, ("count", os.path.relpath(path, REPO)))
            cnf = tmp / "emission-pass.cnf"
            row = self.emit(bench, cnf)
            row.task = os.path.relpath(path, REPO)
            self.record(row)
            cnf.unlink(missing_ok=True)

    def projection_check(self, bench: Bench, tmp: Path) -> None:
        """Emit a small task, count it with the baseline over all variables and projected, and
        compare both with rscount's exact count (decompose)."""
        cnf = tmp / "projection-check.cnf"
        emission = self.emit(bench, cnf)
        command = [sys.executable, str(BENCH / "cnf_sdd.py"), str(cnf), "--check-projection"]
        run = run_measured(command, REPO, self.timeout)
        row = Row(PROJECTION_CHECK, bench.name, BASELINE, "ok", run.wall_s, peak_mib=run.peak_mib)
        row.command = shown(command)
        data = last_json(run.stdout)
        if emission.status != "ok" or run.exit_code != 0 or data is None:
            row.status, row.note = failure(run, self.timeout)
        else:
            check = data["projection_check"]
            row.count, row.projected_count = check["all_variables"], check["projected"]
            row.projection_holds = check["holds"]
            row.variables, row.map_variables = data["variables"], data["map_variables"]
            decompose = cli(*bench.args, "--method", "decompose", "--json", "--timeout", str(self.timeout))
            exact = last_json(run_measured(decompose, REPO, self.timeout + GRACE_S).stdout)
            row.reference = exact["count"] if exact else None
            row.reference_from = "decompose"
            row.agrees = row.reference == row.count
        cnf.unlink(missing_ok=True)
        self.record(row)


def _find(rows: list[Row], task: str, method: str) -> Row | None:
    """The row of `method` on `task`, if it ran."""
    return next((r for r in rows if r.task == task and r.method == method), None)


def _exact_target(rows: list[Row], k: int, limit: float) -> Target:
    """Exact exhaustive XOR-k by decompose (no closed form) within `limit` seconds of wall time."""
    expected = math.factorial(k) * 2 ** (k - 1)
    name = f"exact exhaustive XOR-{k} ({expected}) by `--method decompose` under {limit:g} s"
    row = _find(rows, f"xor{k}", "decompose")
    if row is None or row.status == "skipped":
        return Target(name, "not run", None)
    if row.status != "ok":
        return Target(name, f"{row.status} after {row.wall_s:.1f} s", False)
    figure = f"{row.wall_s:.2f} s wall ({row.seconds:.2f} s counting), count {row.count}"
    return Target(name, figure, row.count == expected and row.wall_s < limit)


def _random_target(rows: list[Row], bits: int, limit: float) -> Target:
    """Every random 3-CNF task on `bits` bits counted exactly by auto within `limit` s wall time."""
    name = f"random 3-CNF, {bits} bits, half support: exact count (auto) under {limit:g} s"
    runs = [r for r in rows if r.family == f"random-{bits}" and r.method == "auto"]
    if not runs:
        return Target(name, "not run", None)
    done = [r for r in runs if r.status == "ok" and r.exact]
    worst = max((r.wall_s or 0.0 for r in runs), default=0.0)
    decompose = [r.wall_s or 0.0 for r in rows if r.family == f"random-{bits}" and r.method == "decompose"]
    figure = f"{len(done)}/{len(runs)} tasks exact; slowest {worst:.2f} s wall"
    if decompose:
        figure += f" (decompose: slowest {max(decompose):.2f} s)"
    return Target(name, figure, len(done) == len(runs) and worst < limit)


def targets(rows: list[Row]) -> list[Target]:
    """The performance targets of the project's issue, measured on this run's rows."""
    out = [_exact_target(rows, 8, 60), _exact_target(rows, 10, 60)]
    out += [_random_target(rows, 6, 10), _random_target(rows, 8, 60)]
    name = "approximate exhaustive XOR-12 (`--approx`, epsilon 0.8) within 1+eps under 120 s"
    row = _find(rows, "xor12", "approx")
    if row is None or row.status == "skipped":
        out.append(Target(name, "not run", None))
    elif row.status != "ok":
        out.append(Target(name, f"{row.status} after {row.wall_s:.1f} s", False))
    else:
        figure = f"{row.wall_s:.2f} s wall, estimate/exact {row.est_over_ref:.3f} ({row.used or row.method})"
        out.append(Target(name, figure, bool(row.within_eps) and row.wall_s < 120))
    name = "emission of every bundled task file (tasks/*.yaml) to DIMACS under 5 s"
    passes = [r for r in rows if r.family == EMISSION_PASS]
    if not passes:
        out.append(Target(name, "not run", None))
    else:
        slowest = max(passes, key=lambda r: r.wall_s or 0.0)
        ok = all(r.status == "ok" for r in passes)
        figure = f"{len(passes)} files, slowest {slowest.task} {slowest.wall_s:.2f} s wall"
        out.append(Target(name, figure, ok and (slowest.wall_s or 0.0) < 5))
    return out


def _proc_value(path: str, key: str) -> str:
    """The value of the first `key: value` line of a /proc file, or '?'."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (other work on the machine slows the runs)."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _git(*args: str) -> str:
    """Output of a git command in the repository ('' if git fails)."""
    try:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


def environment(settings: str) -> tuple[dict[str, str], float]:
    """Machine, date, versions and `settings` for a results header, and the seconds the CLI takes
    to start (interpreter and imports), which every wall time includes."""
    start = time.perf_counter()
    version = subprocess.run(cli("--version"), cwd=REPO, capture_output=True, text=True).stdout.strip()
    startup = time.perf_counter() - start
    mem_kib = _proc_value("/proc/meminfo", "MemTotal").split()[0]
    uname = platform.uname()
    commit = _git("rev-parse", "--short", "HEAD") or "?"
    if _git("status", "--porcelain", "--untracked-files=no", "--", "rscount"):
        commit += " (rscount/ has uncommitted changes)"
    info = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{_proc_value('/proc/cpuinfo', 'model name')}, {os.cpu_count()} cores "
        f"({len(os.sched_getaffinity(0))} usable), "
        + (f"{int(mem_kib) / 1024**2:.1f} GiB RAM" if mem_kib.isdigit() else "RAM ?")
        + f", {uname.system} {uname.release} {uname.machine}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "rscount": f"{version.removeprefix('rscount ')} (commit {commit})",
    }
    for package in PACKAGES:
        try:
            info[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            info[package] = "not installed"
    info["settings"] = settings
    info["load average at the start"] = load_average()
    info["interpreter + import overhead"] = (
        f"{startup:.2f} s per run (`rscount --version`), in every wall time"
    )
    return info, startup


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few minutes (time limit 20 s)")
    parser.add_argument("--timeout", type=float, help="seconds per run (default 120; 20 with --quick)")
    parser.add_argument(
        "--budget",
        type=float,
        default=40.0,
        metavar="MINUTES",
        help="start no run after this many minutes; later runs are listed as skipped (default 40)",
    )
    parser.add_argument(
        "--out-dir", type=Path, default=BENCH, help="for results.md/.csv (default benchmarks/)"
    )
    args = parser.parse_args(argv)
    if args.timeout is None:
        args.timeout = 20.0 if args.quick else 120.0
    if args.timeout <= 0 or args.budget <= 0:
        parser.error("--timeout and --budget must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the suite; print a line per run; leave results.md and results.csv in --out-dir."""
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    files, patterns = task_files(REPO / "tasks")
    plan = QUICK_PLAN if args.quick else DEFAULT_PLAN
    suite = Suite(args, patterns)
    with tempfile.TemporaryDirectory(prefix="rscount-bench-") as name:
        tmp = Path(name)
        for check in plan.projection_checks:
            suite.projection_check(check, tmp)
        suite.emission_pass(tmp)
        for bench in benches(plan, files):
            suite.run_bench(bench, tmp)
    suite.write(finished=True)
    print(f"wrote {suite.md} and {suite.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
