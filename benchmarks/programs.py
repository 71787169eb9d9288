"""Programs as their authors write them: per program task, the time rscount takes to read it (parse,
ground, tabulate the labels of the support), the time auto takes to count it, the count against the
file's pin (a brute-force count, tests/references/programs.py), and what rscount refused; writes
programs.md and .json.

    python benchmarks/programs.py                          # every tasks/*.yaml with `program:`
    python benchmarks/programs.py --tasks DIR --expected FILE.json --out /tmp/heldout.md
    python benchmarks/programs.py --one FILE.yaml          # (internal) one task, JSON on stdout

Each task is its own subprocess (`--one`): load_task timed in the process (interpreter start and
imports not included), then rscount.count(task) by auto with the time limit, timed the same way.
`--expected` gives counts for tasks without a pin (a JSON object: task file stem -> count).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
READ_LIMIT_S = 2.0  # what the programs issue asks of reading any program of the corpus


def one(path: str, timeout: float, root: str) -> None:
    """Read and count one task here with the rscount/ of `root`; one JSON line on stdout (an error:
    its type and message)."""
    sys.path.insert(0, root)
    from rscount import count
    from rscount.errors import RscountError
    from rscount.knowledge.loading import load_task

    out: dict[str, Any] = {}
    start = time.perf_counter()
    try:
        task = load_task(path)
        out["read_s"] = round(time.perf_counter() - start, 3)
        out.update(concepts=len(task.concepts), rows=len(task.support.rows), mode=str(task.mode))
        out["pin"] = task.expect.get("count")
        start = time.perf_counter()
        result = count(task, timeout=timeout)
        out.update(count=result.count, exact=result.exact, method=str(result.method))
        out["count_s"] = round(time.perf_counter() - start, 3)
    except RscountError as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["stopped_s"] = round(time.perf_counter() - start, 3)
    print(json.dumps(out, default=str))


def program_tasks(directory: Path) -> list[Path]:
    """The task files of `directory` whose knowledge is a program (a `program:` field)."""
    files = directory.glob("*.yaml")
    return sorted(p for p in files if any(line.startswith("program:") for line in p.read_text().splitlines()))


def measure(path: Path, timeout: float, where: Path, expected: dict[str, int]) -> dict[str, Any]:
    """One task's subprocess, its outcome and whether its count is the pin (or the expected count)."""
    from measure import run_measured
    from suite import GRACE_S, last_json

    command = [sys.executable, str(REPO / "benchmarks" / "programs.py"), "--one", str(path)]
    command += ["--timeout", str(timeout), "--root", str(where)]
    run = run_measured(command, where, timeout + GRACE_S + 30)
    row: dict[str, Any] = {"task": path.stem, "wall_s": round(run.wall_s, 2), "peak_mib": round(run.peak_mib)}
    row.update(last_json(run.stdout) or {"error": f"no answer (exit {run.exit_code}): {run.stderr[-300:]}"})
    reference = row.get("pin") if row.get("pin") is not None else expected.get(path.stem)
    row["reference"] = reference
    row["right"] = None if reference is None or row.get("count") is None else row["count"] == reference
    return row


def _spread(times: list[float]) -> str:
    """`median 0.2 s, at most 1.3 s` ('-' for none)."""
    return f"median {statistics.median(times):.3g} s, at most {max(times):.3g} s" if times else "-"


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """programs.md: how it was recorded, a summary, then one row per task."""
    from measure import recorded

    read = [r["read_s"] for r in rows if "read_s" in r]
    counted = [r["count_s"] for r in rows if "count_s" in r]
    wrong = [r["task"] for r in rows if r["right"] is False]
    spread = {name: _spread(times) for name, times in (("read", read), ("count", counted))}
    right, unchecked = sum(r["right"] is True for r in rows), sum(r["right"] is None for r in rows)
    slow = ", ".join(r["task"] for r in rows if r.get("read_s", 0) > READ_LIMIT_S) or "none"
    refused = [r for r in rows if "error" in r]
    lines = [
        "# Programs as their authors write them: read and count times",
        "",
        *recorded(meta["command"]),
        f"rscount at commit {meta['commit']}; time limit {meta['timeout']:g} s per count; load average "
        f"{meta['load_start']} at the start, {meta['load_end']} at the end; {meta['minutes']} min in all.",
        "",
        "`read s`: load_task in the task's own process (parse, ground, tabulate the support's labels;",
        "interpreter start and imports not included); `count s`: rscount.count by auto, same process;",
        "`reference`: the file's pin (`expect: count`; for the tasks of tests/references/programs.py, the",
        "brute force's count) or the `--expected` count; `wall s`, `peak MiB`: the whole subprocess.",
        "",
        "## Summary",
        "",
        f"- {len(rows)} program tasks; read: {len(read)}, {spread['read']}; over {READ_LIMIT_S:g} s: {slow}.",
        f"- counted: {len(counted)}, {spread['count']}; counts against a reference: "
        f"{right} right, {len(wrong)} wrong{': ' + ', '.join(wrong) if wrong else ''}, "
        f"{unchecked} without one.",
        f"- refused or stopped: {len(refused)}{': ' if refused else '.'}"
        + "; ".join(f"{r['task']} ({r['error'][:160]})" for r in refused),
        "",
        "## Tasks",
        "",
        "| task | mode | concepts | rows | read s | count s | method | count | reference | right | wall s "
        "| peak MiB |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|",
    ]
    for r in rows:
        right = {True: "yes", False: "**no**", None: "-"}[r["right"]]
        count = _cell(r.get("count")) if "error" not in r else f"refused: {r['error'][:120]}"
        lines.append(
            f"| {r['task']} | {_cell(r.get('mode'))} | {_cell(r.get('concepts'))} | {_cell(r.get('rows'))} "
            f"| {_cell(r.get('read_s'))} | {_cell(r.get('count_s'))} | {_cell(r.get('method'))} | {count} "
            f"| {_cell(r['reference'])} | {right} | {r['wall_s']} | {r['peak_mib']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="limit of each count (s)")
    parser.add_argument("--tasks", action="append", default=[], help="a directory of task files (repeatable)")
    parser.add_argument("--expected", help="JSON object: task file stem -> count, for tasks without a pin")
    parser.add_argument("--only", action="append", default=[], help="tasks whose name contains this")
    parser.add_argument(
        "--committed", action="store_true", help="measure rscount/ of HEAD, not the working tree"
    )
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "programs.md"))
    parser.add_argument("--one", metavar="FILE.yaml", help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(REPO), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        one(args.one, args.timeout, args.root)
        return 0
    from robustness import committed
    from suite import _git, load_average

    directories = [Path(d).resolve() for d in args.tasks] or [REPO / "tasks"]
    paths = [
        p
        for d in directories
        for p in program_tasks(d)
        if not args.only or any(o in p.stem for o in args.only)
    ]
    expected = json.loads(Path(args.expected).read_text()) if args.expected else {}
    shown = ["python benchmarks/programs.py", f"--timeout {args.timeout:g}"]
    shown += [f"--tasks {d}" for d in args.tasks] + [f"--only {o}" for o in args.only]
    shown += [f"--expected {args.expected}"] * bool(args.expected) + ["--committed"] * args.committed
    dirty = " with uncommitted changes" if _git("status", "--porcelain", "rscount") else ""
    meta: dict[str, Any] = {
        "command": " ".join(shown),
        "commit": _git("rev-parse", "--short", "HEAD") + (" as committed" if args.committed else dirty),
        "timeout": args.timeout,
        "load_start": load_average(),
    }
    start = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        where = committed(Path(tmp) / "head") if args.committed else REPO
        for path in paths:
            row = measure(path, args.timeout, where, expected)
            rows.append(row)
            print(json.dumps(row, default=str), flush=True)
    meta.update(load_end=load_average(), minutes=round((time.perf_counter() - start) / 60, 1))
    out = Path(args.out)
    out.write_text(markdown(rows, meta))
    out.with_suffix(".json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=1, default=str) + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
