"""Insight commands on the task library: `rscount check / explain / forecast / advise TASK --timeout T`
on every task file, to see which tasks each command answers within a user's time limit, and how fast.

    python benchmarks/insight.py                                  # tasks/*.yaml x 4 commands, 60 s each
    python benchmarks/insight.py tasks/xor3.yaml --commands check,explain --timeout 10
    python benchmarks/insight.py --repo /work/wt-bench --resume    # measure another checkout; continue

Each run is its own subprocess, `python -m rscount COMMAND TASK --timeout T` in the measured checkout
(`--repo`, default this one; its directory is put first on PYTHONPATH, so that checkout's rscount/ is
what runs), killed with its process group at T + 40 s. A run "answered" when it exits 0 or 1 and prints
the command's answer (check: the concepts involved, or that there are none; explain: maps, or that
there are none; forecast: its table; advise: a plan). Writes a JSON of every run (rewritten after each,
so `--resume` continues an interrupted run) and a Markdown table, one row per task.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from measure import run_measured

BENCH = Path(__file__).resolve().parent
COMMANDS = ("check", "explain", "forecast", "advise")
GRACE_S = 40.0  # the CLI stops itself at --timeout; the outer kill waits this much longer
TAIL_LINES, TAIL_CHARS = 4, 400  # what is kept of the output of a run that did not answer
# The line of each command's output that is its answer (the first match is kept in the JSON).
ANSWER = {
    "check": re.compile(r"^verdict: .*(concepts involved: |may now be swapped|free of |no map fits)"),
    "explain": re.compile(
        r"grouped by the concepts they involve:|no reasoning shortcuts$|concept maps that merge values"
        r"|every fitting concept map is bijective"
    ),
    "forecast": re.compile(r"^  concept +reads itself"),
    "advise": re.compile(r"^(minimal plan|best plan found|no plan|nothing to do:)"),
}
# check's notes that name no concept but are still its answer about them (joint and jrs modes).
CHECK_NOTES = ("a joint map has no per-concept meaning", "concepts and inference layer:")
MARKS = {"answered": "✓", "partial": "partial", "limit": "limit", "killed": "killed", "error": "error"}


def answer_line(command: str, stdout: str) -> str | None:
    """The line that shows `command` gave its answer, or None (check: None also when it counted but
    the concepts involved were not found within the limit)."""
    lines = stdout.splitlines()
    found = next((line for line in lines if ANSWER[command].search(line)), None)
    if command == "check" and "concepts involved: not found" in stdout:
        return None
    if command == "check" and found is None and any(n in stdout for n in CHECK_NOTES):
        return next((line for line in lines if line.startswith("verdict: ")), "verdict")
    return found


def tail(text: str) -> str:
    """The last lines of `text`, spaces collapsed, cut short: what a run printed when it did not answer."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    kept = " / ".join(lines[-TAIL_LINES:])
    return kept if len(kept) <= TAIL_CHARS else "..." + kept[-TAIL_CHARS:]


def measure(repo: Path, task: str, command: str, timeout: float) -> dict[str, Any]:
    """One run of `rscount COMMAND TASK --timeout T` in `repo`, and its outcome: answered, partial
    (exit 0/1 without the answer), limit (exit 3), killed (at T + GRACE_S) or error (any other exit)."""
    argv = [sys.executable, "-m", "rscount", command, task, "--timeout", f"{timeout:g}"]
    run = run_measured([*in_checkout(repo), *argv], repo, timeout + GRACE_S)
    line = answer_line(command, run.stdout) if run.exit_code in (0, 1) else None
    if run.killed:
        outcome = "killed"
    elif line is not None:
        outcome = "answered"
    else:
        outcome = {0: "partial", 1: "partial", 3: "limit"}.get(run.exit_code, "error")
    record: dict[str, Any] = {
        "task": task,
        "command": command,
        "outcome": outcome,
        "exit_code": run.exit_code,
        "wall_s": round(run.wall_s, 2),
        "peak_mib": round(run.peak_mib),
        "argv": ["python", *argv[1:]],
    }
    if line is not None:
        record["answer"] = line.strip()[:TAIL_CHARS]
    else:
        record.update(stdout_tail=tail(run.stdout), stderr_tail=tail(run.stderr))
    return record


def git_commit(repo: Path) -> str:
    """`git rev-parse --short HEAD` of the measured checkout, and whether its rscount/ is edited."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    dirty = " (rscount/ with uncommitted changes)" if git("status", "--porcelain", "rscount") else ""
    return (git("rev-parse", "--short", "HEAD") or "unknown") + dirty


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo (platform.processor() is often just the architecture)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def in_checkout(repo: Path) -> list[str]:
    """`env PYTHONPATH=REPO:...`: the prefix of every run, so that `import rscount` finds `repo`'s."""
    path = os.pathsep.join(p for p in (str(repo), os.environ.get("PYTHONPATH", "")) if p)
    return ["env", f"PYTHONPATH={path}"]


def imported_from(repo: Path) -> str:
    """Where the runs' `import rscount` resolves (checked once, the same way the runs start)."""
    code = [sys.executable, "-c", "import rscount; print(rscount.__file__)"]
    return subprocess.run(
        [*in_checkout(repo), *code], cwd=repo, capture_output=True, text=True
    ).stdout.strip()


def cell(run: dict[str, Any] | None, timeout: float) -> str:
    """One command's cell: wall seconds and a mark."""
    if run is None:
        return "-"
    mark = MARKS[run["outcome"]]
    if run["outcome"] == "limit":
        mark = f"limit at {timeout:g} s"
    elif run["outcome"] == "error":
        mark = f"error (exit {run['exit_code']})"
    return f"{run['wall_s']:.2f} s {mark}"


def md(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "'").replace("\n", " / ")


def markdown(meta: dict[str, Any], runs: list[dict[str, Any]]) -> str:
    """The table (a row per task, a column per command), per-command totals, the slowest ten runs, and
    what each run that did not answer printed last."""
    commands, timeout = meta["commands"], meta["timeout"]
    status = "complete" if meta.get("complete") else "partial (in progress or interrupted)"
    lines = [
        "# Insight commands on the task library",
        "",
        f"Recorded {meta['date']} by `{meta['command']}`; machine: {meta['cpu']}, {meta['cores']} cores,",
        f"Python {meta['python']}; rscount at commit {meta['commit']} (imported from `{meta['rscount']}`);",
        f"time limit {timeout:g} s per run (`--timeout`; killed at {timeout + GRACE_S:g} s); "
        f"{meta['jobs']} run(s) at a time, niceness {meta['nice']}; load average {meta['load_start']} at the",
        f"start; {meta.get('minutes', 0)} min in all; {status}.",
        *[f"- {note}" for note in meta["notes"]],
        "",
        "Each cell: wall seconds of `python -m rscount COMMAND TASK --timeout T` (interpreter start-up",
        "and reading the task included) and ✓ answered (exit 0/1 with the answer: check names the",
        "concepts involved, explain shows maps or says there are none, forecast its table, advise a",
        "plan), partial (exit 0/1 without it, e.g. check counted but did not name the concepts), limit",
        "(exit 3), killed (by this script), error (exit 2, 4 or other).",
        "",
        "| task | " + " | ".join(commands) + " |",
        "|---|" + "---:|" * len(commands),
    ]
    by_pair = {(r["task"], r["command"]): r for r in runs}
    for task in dict.fromkeys(r["task"] for r in runs):
        cells = [cell(by_pair.get((task, c)), timeout) for c in commands]
        lines.append(f"| {md(Path(task).stem)} | " + " | ".join(cells) + " |")
    lines += ["", "## Summary", "", "| command | runs | " + " | ".join(MARKS) + " |"]
    lines.append("|---|" + "---:|" * (len(MARKS) + 1))
    for c in commands:
        mine = [r for r in runs if r["command"] == c]
        counts = [str(sum(r["outcome"] == o for r in mine)) for o in MARKS]
        lines.append(f"| {c} | {len(mine)} | " + " | ".join(counts) + " |")
    lines += ["", "Slowest ten runs:", ""]
    for r in sorted(runs, key=lambda r: -r["wall_s"])[:10]:
        lines.append(f"- {md(Path(r['task']).stem)} {r['command']}: {cell(r, timeout)}")
    missed = [r for r in runs if r["outcome"] != "answered"]
    lines += ["", f"Runs without an answer: {len(missed)}.", ""]
    for r in missed:
        printed = "; ".join(filter(None, (r.get("stdout_tail"), r.get("stderr_tail")))) or "nothing"
        lines.append(f"- {md(Path(r['task']).stem)} {r['command']} ({cell(r, timeout)}): {md(printed)}")
    return "\n".join(lines) + "\n"


def write(
    args: argparse.Namespace, meta: dict[str, Any], runs: list[dict[str, Any]], order: list[tuple[str, str]]
) -> None:
    """Rewrite both result files, the runs in task then command order."""
    rank = {pair: n for n, pair in enumerate(order)}
    runs.sort(key=lambda r: rank.get((r["task"], r["command"]), len(rank)))
    args.json.write_text(json.dumps({"meta": meta, "runs": runs}, indent=1, ensure_ascii=False) + "\n")
    args.markdown.write_text(markdown(meta, runs))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", help="task files (default: the checkout's tasks/*.yaml)")
    parser.add_argument("--timeout", type=float, default=60.0, help="limit of each run (default 60 s)")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated (default all)")
    parser.add_argument("--json", type=Path, default=BENCH / "insight.json", help="raw results")
    parser.add_argument("--markdown", type=Path, default=BENCH / "insight.md", help="the table")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1: timings apart)")
    parser.add_argument("--resume", action="store_true", help="skip (task, command) pairs in --json")
    parser.add_argument("--repo", type=Path, default=BENCH.parent, help="checkout measured (default this)")
    args = parser.parse_args(argv)
    args.commands = [c for c in args.commands.split(",") if c]
    if unknown := set(args.commands) - set(COMMANDS):
        parser.error(f"unknown command(s): {', '.join(sorted(unknown))}")
    if args.timeout <= 0 or args.jobs < 1:
        parser.error("--timeout and --jobs must be positive")
    args.repo = args.repo.resolve()
    return args


def main(argv: list[str] | None = None) -> int:
    """Run every (task, command) pair not yet measured; print a line per run; leave both files."""
    args = parse_args(argv)
    repo = args.repo
    files = [Path(t).resolve() for t in args.tasks] or sorted((repo / "tasks").glob("*.yaml"))
    tasks = [os.path.relpath(f, repo) if f.is_relative_to(repo) else str(f) for f in files]
    meta: dict[str, Any] = {
        "command": "python benchmarks/insight.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "commit": git_commit(repo),
        "rscount": imported_from(repo),
        "repo": str(repo),
        "timeout": args.timeout,
        "commands": args.commands,
        "jobs": args.jobs,
        "nice": os.nice(0),
        "load_start": ", ".join(f"{x:.2f}" for x in os.getloadavg()),
        "notes": [],
    }
    if not Path(meta["rscount"]).is_relative_to(repo):
        sys.exit(f"rscount resolves to {meta['rscount']}, outside {repo}")
    runs: list[dict[str, Any]] = []
    earlier = 0.0
    if args.resume and args.json.exists():
        old = json.loads(args.json.read_text())
        for key in ("commit", "timeout"):
            if old["meta"][key] != meta[key]:
                sys.exit(f"{args.json}: {key} {old['meta'][key]} there, {meta[key]} now; not resuming")
        runs, earlier = old["runs"], old["meta"].get("minutes", 0.0)
        note = f"resumed after {len(runs)} runs ({earlier} min) on {meta['date']}"
        commands = [c for c in COMMANDS if c in old["meta"]["commands"] + args.commands]
        meta.update(old["meta"], commands=commands, notes=[*old["meta"]["notes"], note], complete=False)
    done = {(r["task"], r["command"]) for r in runs}
    order = [(t, c) for t in dict.fromkeys([r["task"] for r in runs] + tasks) for c in meta["commands"]]
    todo = [(t, c) for t in tasks for c in args.commands if (t, c) not in done]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(measure, repo, t, c, args.timeout) for t, c in todo]
        for future in futures:
            run = future.result()
            runs.append(run)
            meta["minutes"] = round(earlier + (time.perf_counter() - started) / 60, 1)
            write(args, meta, runs, order)
            said = run.get("answer") or run.get("stderr_tail") or run.get("stdout_tail") or ""
            line = f"{run['task']:<36} {run['command']:<9} {run['outcome']:<8} {run['wall_s']:7.2f}s {said}"
            print(line[:160], flush=True)
    meta["complete"] = True
    write(args, meta, runs, order)
    print(f"wrote {args.json} and {args.markdown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
