"""The task library benchmark: `rscount count FILE` (method auto, the file's own mode) on every task file.

Run from anywhere:  python benchmarks/library.py [--timeout 120] [--out benchmarks/library.md] [--tasks DIR]
Every run is a separate `python -m rscount.cli count FILE --json --quiet --timeout T` subprocess in the
repository root (so the checkout's rscount is measured); the output file is rewritten after each run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure import run_measured
from report import header_lines, seconds_text
from suite import BENCH, GRACE_S, REPO, cli, environment, failure, last_json, load_average, shown

COLUMNS = (
    "file",
    "mode",
    "concepts",
    "support size",
    "count",
    "exact",
    "method",
    "seconds",
    "wall s",
    "peak MiB",
    "classes",
    "label groups",
    "group factors counted",
)


@dataclass
class Result:
    """One task file's run: status, wall time, peak memory, and its JSON record (None if it failed)."""

    file: str
    status: str
    wall_s: float
    peak_mib: float
    data: dict[str, Any] | None
    note: str = ""


def measure(path: Path, timeout: float) -> Result:
    """Count one task file with method auto in a measured subprocess."""
    command = cli("count", os.path.relpath(path, REPO), "--json", "--quiet", "--timeout", str(timeout))
    run = run_measured(command, REPO, timeout + GRACE_S)
    data = last_json(run.stdout)
    if run.exit_code != 0 or data is None:
        status, note = failure(run, timeout)
        return Result(path.name, status, run.wall_s, run.peak_mib, None, f"{note} (`{shown(command)}`)")
    return Result(path.name, "ok", run.wall_s, run.peak_mib, data)


def count_cell(data: dict[str, Any]) -> str:
    """The count, or its exact expression and digit count when the JSON withholds the digits."""
    if data["count"] is not None:
        return str(data["count"])
    return f"{data['count_expression'] or '?'} ({data['count_digits']} digits)"


def table_row(result: Result) -> str:
    """One Markdown table row of a task file's run."""
    measured = [seconds_text(result.wall_s), f"{result.peak_mib:.0f}"]
    data = result.data
    if data is None:
        cells = [result.file, "", "", "", result.status, "", "", "", *measured, "", "", ""]
    else:
        details = data["details"]
        cells = [
            result.file,
            data["mode"],
            str(data["concepts"]),
            str(data["support_size"]),
            count_cell(data),
            "yes" if data["exact"] else "no",
            data["method"],
            seconds_text(data["seconds"]),
            *measured,
            *(str(details.get(key, "")) for key in ("classes", "label_groups", "group_factors_counted")),
        ]
    return "| " + " | ".join(cells) + " |"


def summary(results: list[Result]) -> list[str]:
    """The slowest task, the total wall time, and the runs that failed."""
    slowest = max(results, key=lambda r: r.wall_s)
    ok = sum(r.status == "ok" for r in results)
    lines = [
        f"Slowest task: `{slowest.file}`, {seconds_text(slowest.wall_s)} s wall. Total wall time of the "
        f"{len(results)} runs: {seconds_text(sum(r.wall_s for r in results))} s; {ok} counted, "
        f"{len(results) - ok} failed or timed out."
    ]
    lines += [f"- `{r.file}`: {r.status}, {r.note}" for r in results if r.status != "ok"]
    return lines


def write(out: Path, header: dict[str, str], results: list[Result], finished: bool) -> None:
    """Rewrite the output file: header, one table row per task file, summary."""
    head = dict(header)
    head["status"] = "finished" if finished else "in progress or interrupted: the table is partial"
    if finished:
        head["load average at the end"] = load_average()
    lines = ["# rscount task library benchmark", "", *header_lines(head), ""]
    lines += [
        "Each row: `rscount count FILE --json --quiet --timeout T` (method auto, the file's own mode). "
        "`method`: what auto chose; `seconds`: that method's own time from the JSON (after the "
        "encoding); `wall s`: the whole subprocess (interpreter start, task, encoding, counting); "
        "`peak MiB`: ru_maxrss of the run and its waited-for children; `classes`, `label groups`, "
        "`group factors counted`: the permutation classes of the JSON `details` (blank where the "
        "method reports none).",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|",
        *map(table_row, results),
        "",
        *summary(results),
    ]
    out.write_text("\n".join(lines) + "\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per run (default 120)")
    parser.add_argument(
        "--out", type=Path, default=BENCH / "library.md", help="default benchmarks/library.md"
    )
    parser.add_argument(
        "--tasks", type=Path, default=REPO / "tasks", metavar="DIR", help="task files (default tasks)"
    )
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run every task file once; print a line per run; leave the table in --out."""
    args = parse_args(argv)
    files = sorted(args.tasks.resolve().glob("*.yaml"))
    if not files:
        print(f"no task files in {args.tasks}", file=sys.stderr)
        return 1
    header, _ = environment(
        f"method auto, each file's own mode; time limit {args.timeout:g} s per run (`--timeout`; outer "
        f"kill {GRACE_S:g} s later); runs one after another"
    )
    started = time.perf_counter()
    results: list[Result] = []
    for path in files:
        results.append(measure(path, args.timeout))
        header["library wall time"] = f"{(time.perf_counter() - started) / 60:.1f} min"
        write(args.out, header, results, finished=False)
        last = results[-1]
        what = f"{last.data['method']} count={count_cell(last.data)}" if last.data else last.note
        print(f"{last.file:<28} {last.status:<8} {last.wall_s:8.2f}s {what}"[:160], flush=True)
    write(args.out, header, results, finished=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
