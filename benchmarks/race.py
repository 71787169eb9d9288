"""The portfolio's race where its sharing matters: each task counted by auto on one processor
(`taskset -c 0`, as one job of `rscount report --jobs 2` runs it) and on every core, beside the
winning method alone on one processor, all in one run, so that what racing costs (race over alone)
is read off one machine at one time. Per run: wall time, winner, and each entrant's outcome and the
seconds it held a processor (the count's details.race). Writes race.md and race.json."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from measure import recorded, run_measured  # noqa: E402
from suite import GRACE_S, REPO, _git, cli, last_json, load_average  # noqa: E402

# The library tasks whose counts take longest in the report, where the methods share a processor.
TASKS = ("markov-chain", "mnmath-disentangled", "kandy-hard-17", "sdd-oia-1922")


def _run(task: str, method: str, cpus: str, timeout: float) -> dict[str, Any]:
    """One count of tasks/TASK.yaml by `method` on the processors `cpus` (taskset's list)."""
    args = ["count", f"tasks/{task}.yaml", "--json", "--quiet", "--timeout", f"{timeout:g}"]
    args += ["--method", method] * (method != "auto")
    run = run_measured(["taskset", "-c", cpus, *cli(*args)], REPO, timeout + GRACE_S)
    record = last_json(run.stdout) or {}
    return {
        "seconds": round(run.wall_s, 2),
        "exit": run.exit_code,
        "count": record.get("count"),
        "method": record.get("method"),
        "race": (record.get("details") or {}).get("race", []),
    }


def measure(task: str, timeout: float, repeats: int) -> dict[str, Any]:
    """auto on one processor and on all, then the winner alone on one; `repeats` times each, the
    medians kept (the runs of one repeat are made together, so that load hits them alike)."""
    every = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    one = str(min(os.sched_getaffinity(0)))
    runs: dict[str, list[dict[str, Any]]] = {"one": [], "all": [], "alone": []}
    for _ in range(repeats):
        runs["one"].append(_run(task, "auto", one, timeout))
        runs["all"].append(_run(task, "auto", every, timeout))
        winner = runs["one"][-1]["method"] or runs["all"][-1]["method"]
        runs["alone"].append(_run(task, winner, one, timeout) if winner else {"seconds": None})
    median = {k: _median([r["seconds"] for r in v]) for k, v in runs.items()}
    counts = {r["count"] for v in runs.values() for r in v if r.get("count") is not None}
    return {
        "task": task,
        "count": counts.pop() if len(counts) == 1 else sorted(counts) or None,
        "winner": runs["one"][-1]["method"],
        "seconds": median,
        "race_over_alone": round(median["one"] / median["alone"], 2)
        if median["one"] and median["alone"]
        else None,
        "entrants_one": runs["one"][-1]["race"],
        "runs": runs,
    }


def _median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 2) if known else None


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The results as markdown: one line per task, then each race's entrants on one processor."""
    lines = [
        "| task | count | winner | auto, 1 processor | winner alone, 1 processor | race / alone "
        "| auto, all cores |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s = r["seconds"]
        lines.append(
            f"| {r['task']} | {r['count']} | {r['winner']} | {s['one']} s | {s['alone']} s "
            f"| {r['race_over_alone']} | {s['all']} s |"
        )
    lines += ["", "Entrants on one processor (the last repeat): seconds each held it, and how it ended.", ""]
    for r in rows:
        held = "; ".join(f"{e['method']} {e['seconds']} s ({e['outcome']})" for e in r["entrants_one"])
        lines.append(f"- {r['task']}: {held}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="limit of each run (s)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each kind per task (medians kept)")
    parser.add_argument("--only", action="append", default=[], help="tasks whose name contains this")
    parser.add_argument("--out", default=str(BENCH / "race.md"))
    args = parser.parse_args(argv)
    shown = f"python benchmarks/race.py --timeout {args.timeout:g} --repeats {args.repeats}"
    shown += "".join(f" --only {o}" for o in args.only)
    start, load = time.perf_counter(), load_average()
    rows = []
    for task in TASKS:
        if not args.only or any(o in task for o in args.only):
            rows.append(measure(task, args.timeout, args.repeats))
            print(json.dumps({k: v for k, v in rows[-1].items() if k != "runs"}), flush=True)
    commit = _git("rev-parse", "--short", "HEAD")
    if _git("status", "--porcelain", "--untracked-files=no", "--", "rscount"):
        commit += " (rscount/ has uncommitted changes)"
    header = [
        "# The race on one processor and on all, beside the winner alone",
        "",
        *recorded(shown),
        f"rscount at commit {commit}; load average {load} at the start, {load_average()} at the end; "
        f"{(time.perf_counter() - start) / 60:.1f} min in all.",
        "",
        "Wall seconds of each run (interpreter start-up and reading the task included); medians of "
        f"{args.repeats} repeat(s). `race / alone`: auto on one processor over the winner alone on one.",
        "",
    ]
    out = Path(args.out)
    out.write_text("\n".join(header + table(rows)) + "\n")
    out.with_suffix(".json").write_text(json.dumps({"command": shown, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
