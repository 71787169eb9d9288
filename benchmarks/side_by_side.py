"""rscount (method auto, `--cross-check`) side by side with GANAK and the pinned count, on every task file.

Run from anywhere:
    python benchmarks/side_by_side.py                      # every tasks/*.yaml, 60 s per run
    python benchmarks/side_by_side.py --resume             # go on after a stop: skip the tasks in the .json
    python benchmarks/side_by_side.py --only xor3 --only coins --timeout 30 --out /tmp/sbs.md

Per task file (sorted by name), two measured subprocesses in the repository root (so the checkout's
rscount is measured), one after the other:
- `python -m rscount.cli count FILE --json --quiet --timeout T --cross-check` (method auto): the count,
  the method, the wall time, and the route that recounted it and agreed (or why none did);
- `python -m rscount.cli count FILE --method ganak --json --quiet --timeout T`: GANAK's count and time
  (GANAK comes from `rscount install-ganak`; if it is missing, that is recorded and the run goes on).
Both are compared with the file's `expect: {count: N}` pin. The Markdown (--out) and a JSON beside it
are rewritten after every task; a disagreement of any two counts is listed loudly in the summary.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml
from library import count_cell
from measure import run_measured
from report import _ratio, header_lines, seconds_text
from suite import BENCH, GRACE_S, REPO, cli, environment, failure, last_json, load_average, shown

COLUMNS = (
    "task",
    "mode",
    "pin",
    "rscount count",
    "method",
    "s",
    "cross-check route (agreed / why not)",
    "GANAK count",
    "s",
    "GANAK/rscount",
    "all agree",
)
ALIGN = "|---|---|---:|---:|---|---:|---|---:|---:|---:|---|"
DISAGREE = re.compile(r"cross-check failed: (\S+) counts (\d+), (\S+) counts (\d+)")
NOT_INSTALLED = "GANAK is not installed"


@dataclass
class Answer:
    """One run of the CLI on a task: its status (ok, timeout, error, n/a, disagree, not installed),
    exit code, whether the outer kill ended it, wall and own seconds, count, method, cross-check."""

    status: str
    exit_code: int
    killed: bool
    wall_s: float
    seconds: float | None = None
    count: int | None = None
    count_text: str = ""
    method: str = ""
    cross_check: dict[str, Any] | None = None
    note: str = ""
    command: str = ""


@dataclass
class Row:
    """A task file's two answers, its pin, and the comparisons (set by `judge`)."""

    task: str
    file: str
    mode: str
    pin: int | None
    rscount: Answer
    ganak: Answer
    ratio: float | None = None
    rscount_equals_pin: bool | None = None
    ganak_equals_rscount: bool | None = None
    ganak_equals_pin: bool | None = None
    all_agree: bool | None = None  # None: no two counts conflict, but one of them is missing
    disagreements: list[str] = field(default_factory=list)


def pinned(path: Path) -> tuple[int | None, str]:
    """The file's `expect: {count: N}` pin and its `mode:` (None and '' where absent or unreadable)."""
    try:
        doc = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError):
        return None, ""
    if not isinstance(doc, dict):
        return None, ""
    expect = doc.get("expect")
    count = expect.get("count") if isinstance(expect, dict) else None
    return (count if isinstance(count, int) else None), str(doc.get("mode") or "")


def run_cli(path: Path, timeout: float, *extra: str) -> tuple[Answer, dict[str, Any] | None]:
    """`rscount count FILE --json --quiet --timeout T EXTRA` measured; its answer and JSON (None if
    it printed no count)."""
    command = cli("count", os.path.relpath(path, REPO), "--json", "--quiet", "--timeout", f"{timeout:g}")
    command += extra
    run = run_measured(command, REPO, timeout + GRACE_S)
    answer = Answer("ok", run.exit_code, run.killed, run.wall_s, command=shown(command))
    data = last_json(run.stdout)
    if run.exit_code == 0 and data is not None and "count_digits" in data:
        answer.seconds, answer.count, answer.count_text = data["seconds"], data["count"], count_cell(data)
        answer.method = data["method"]
        answer.cross_check = data.get("cross_check") or data.get("details", {}).get("cross_check")
        return answer, data
    answer.status, answer.note = failure(run, timeout)
    if data is not None and data.get("stopped"):  # the JSON of a run stopped at --timeout
        answer.note = f"{answer.note}: {data['stopped']}"
    if NOT_INSTALLED in run.stderr:
        answer.status = "not installed"
    found = DISAGREE.search(run.stderr)
    if found:  # exit 2: the cross-check's second route counted otherwise
        answer.status, answer.method, answer.count = "disagree", found[1], int(found[2])
        answer.count_text = found[2]
        answer.cross_check = {"method": found[3], "count": int(found[4]), "agrees": False}
    return answer, None


def same(a: int | None, b: int | None) -> bool | None:
    """a == b, or None when either is unknown."""
    return None if a is None or b is None else a == b


def judge(row: Row) -> Row:
    """Set the row's comparisons, ratio and list of disagreements."""
    r, g = row.rscount, row.ganak
    # rscount's own seconds: its count without the cross-check that followed it (GANAK's likewise)
    checked = (r.cross_check or {}).get("seconds") or 0.0
    own = None if r.seconds is None else r.seconds - checked
    row.ratio = g.seconds / own if r.status == g.status == "ok" and own and g.seconds is not None else None
    row.rscount_equals_pin = same(r.count, row.pin)
    row.ganak_equals_rscount = same(g.count, r.count)
    row.ganak_equals_pin = same(g.count, row.pin)
    row.disagreements = []
    if r.status == "disagree" and r.cross_check:
        check = r.cross_check
        row.disagreements.append(
            f"rscount's cross-check: {r.method} counts {r.count}, {check['method']} counts {check['count']}"
        )
    if row.rscount_equals_pin is False:
        row.disagreements.append(f"rscount ({r.method}) counts {r.count}, the pin is {row.pin}")
    if row.ganak_equals_rscount is False:
        row.disagreements.append(f"GANAK counts {g.count}, rscount ({r.method}) {r.count}")
    if row.ganak_equals_pin is False:
        row.disagreements.append(f"GANAK counts {g.count}, the pin is {row.pin}")
    if row.disagreements:
        row.all_agree = False
    else:
        row.all_agree = True if None not in (row.pin, r.count, g.count) else None
    return row


def measure(path: Path, timeout: float) -> Row:
    """Both runs on one task file, judged."""
    pin, mode = pinned(path)
    rscount, data = run_cli(path, timeout, "--cross-check")
    ganak, ganak_data = run_cli(path, timeout, "--method", "ganak")
    mode = (data or ganak_data or {}).get("mode") or mode or "?"
    return judge(Row(path.stem, path.name, mode, pin, rscount, ganak))


def loaded(record: dict[str, Any]) -> Row:
    """A row read back from the JSON, judged again."""
    answers = {key: Answer(**record[key]) for key in ("rscount", "ganak")}
    return judge(Row(**{**record, **answers}))


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def check_cell(answer: Answer) -> str:
    """The cross-check route that agreed, the one that disagreed, or why none answered."""
    check = answer.cross_check
    if check is None:
        return ""
    if check.get("agrees") is False:
        return f"**DISAGREES: {check['method']} counts {check['count']}**"
    if check.get("method"):
        return f"{check['method']} (agreed)"
    return f"none: {check.get('why', '?')}"


def count_text(answer: Answer, *equal: bool | None) -> str:
    """An answer's count (flagged when it differs from what it is compared with), else its status."""
    if answer.status not in ("ok", "disagree"):
        return answer.status
    return f"**{answer.count_text} ≠**" if False in equal else answer.count_text


def agree_cell(row: Row) -> str:
    """yes / **NO** / no conflict, naming what is missing."""
    if row.all_agree is True:
        return "yes"
    if row.all_agree is False:
        return "**NO**"
    missing = [name for name, value in (("pin", row.pin), ("rscount", row.rscount.count)) if value is None]
    missing += [] if row.ganak.count is not None else ["GANAK"]
    return f"no conflict ({', '.join(missing)} missing)"


def table_row(row: Row) -> str:
    """One Markdown table row."""
    r, g = row.rscount, row.ganak
    cells = [
        row.task,
        row.mode,
        "" if row.pin is None else str(row.pin),
        count_text(r, row.rscount_equals_pin),
        r.method,
        seconds_text(r.wall_s),
        check_cell(r),
        count_text(g, row.ganak_equals_rscount, row.ganak_equals_pin),
        seconds_text(g.wall_s),
        "" if row.ratio is None else _ratio(row.ratio),
        agree_cell(row),
    ]
    return "| " + " | ".join(map(cell, cells)) + " |"


def summary(rows: list[Row], timeout: float) -> list[str]:
    """Routes, GANAK's answers, the median ratio, disagreements (loudly), then failed runs."""
    counted = [row for row in rows if row.rscount.status == "ok"]
    pinned_ok = sum(row.rscount_equals_pin is True for row in rows)
    failed_checks = sum(row.rscount.status == "disagree" for row in rows)
    ganak = Counter(row.ganak.status for row in rows)
    lines = [
        f"- **rscount** counted {len(counted)} of {len(rows)} tasks with an agreeing or no cross-check"
        + (f", **{failed_checks} with a failed cross-check**" if failed_checks else "")
        + f"; equal to the pin: {pinned_ok}.",
        f"- **GANAK** answered {ganak['ok']} of {len(rows)} within the {timeout:g} s limit"
        + "".join(f"; {n} {status}" for status, n in sorted(ganak.items()) if status != "ok")
        + ".",
    ]
    routes = Counter(row.rscount.cross_check["method"] for row in counted if row.rscount.cross_check)
    routes.pop(None, None)
    lines.append(
        "- **Cross-check route that agreed**: "
        + (", ".join(f"{route} on {n}" for route, n in routes.most_common()) or "none")
        + "."
    )
    why: dict[str, list[str]] = {}
    for row in counted:
        check = row.rscount.cross_check or {"why": "no cross_check field in the JSON"}
        if not check.get("method"):
            why.setdefault(check.get("why", "?"), []).append(row.task)
    lines += [f"  - no second route on {', '.join(tasks)}: {reason}" for reason, tasks in why.items()]
    ratios = sorted((row.ratio, row.task) for row in rows if row.ratio is not None)
    if ratios:
        median = statistics.median(ratio for ratio, _ in ratios)
        lines.append(
            f"- **GANAK/rscount seconds**, over the {len(ratios)} tasks both answered: median "
            f"{_ratio(median)} (from {_ratio(ratios[0][0])} on {ratios[0][1]} to {_ratio(ratios[-1][0])} "
            f"on {ratios[-1][1]}); above 1, GANAK took longer."
        )
    else:
        lines.append("- **GANAK/rscount wall time**: no task answered by both.")
    bad = [row for row in rows if row.disagreements]
    if bad:
        lines += ["", f"**DISAGREEMENTS on {len(bad)} tasks: each is a bug to report.**", ""]
        lines += [f"- **{row.task}: {'; '.join(row.disagreements)}**" for row in bad]
    else:
        lines += ["", "Disagreements: none (no two of pin, rscount, its cross-check and GANAK differ)."]
    failed = [
        (row.task, name, answer)
        for row in rows
        for name, answer in (("rscount", row.rscount), ("GANAK", row.ganak))
        if answer.status not in ("ok", "disagree")
    ]
    if failed:
        lines += ["", "Runs without a count:", ""]
        lines += [f"- {task} {name}: {a.status}, {a.note} (`{a.command}`)" for task, name, a in failed]
    return lines


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`."""
    with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", delete=False) as handle:
        handle.write(text)
    os.replace(handle.name, path)


def write(out: Path, meta: dict[str, Any], rows: list[Row], finished: bool) -> None:
    """Rewrite the Markdown and the JSON beside it with the rows so far (sorted by file name)."""
    rows = sorted(rows, key=lambda row: row.file)
    head = dict(meta["header"])
    head["status"] = "finished" if finished else "in progress or interrupted: the table is partial"
    minutes = meta["minutes"]
    head["wall time"] = f"{minutes:.1f} min" if minutes >= 1 else f"{minutes * 60:.0f} s"
    if finished:
        head["load average at the end"] = load_average()
    lines = ["# rscount side by side with GANAK and the pinned counts", "", *header_lines(head), ""]
    lines += [
        "Each row: `rscount count FILE --json --quiet --timeout T --cross-check` (method auto, the "
        "file's own mode), then `rscount count FILE --method ganak --json --quiet --timeout T`, each a "
        "subprocess in the repository root. `pin`: the file's `expect: count`. `s`: wall seconds of the "
        "subprocess (interpreter start, task, encoding, counting); rscount's include the cross-check, "
        "a second count by other routes raced in parallel (GANAK among them where installed). The "
        "ratio GANAK/rscount compares the counts' own seconds (the JSON's `seconds`, rscount's less "
        "the cross-check's; above 1: GANAK took longer). The cross-check route is the first of the "
        "raced routes to answer, so it can change from run to run; `ganak` there is the same solver "
        "as the GANAK column. `≠`: the count differs from the pin or from rscount's. `all agree`: "
        "pin, rscount, GANAK and the cross-check's route (where one answered) give the same count.",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        ALIGN,
        *map(table_row, rows),
        "",
        *summary(rows, meta["timeout"]),
    ]
    atomic_write(out, "\n".join(lines) + "\n")
    record = {**meta, "finished": finished, "rows": [asdict(row) for row in rows]}
    atomic_write(out.with_suffix(".json"), json.dumps(record, indent=1) + "\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument(
        "--tasks", type=Path, default=REPO / "tasks", metavar="DIR", help="task files (default tasks)"
    )
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="only this task (file stem); repeatable"
    )
    parser.add_argument(
        "--out", type=Path, default=BENCH / "side_by_side.md", help="default benchmarks/side_by_side.md"
    )
    parser.add_argument(
        "--resume", action="store_true", help="keep the rows of the --out file's .json, measure the rest"
    )
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    """Measure every selected task file; print a line per task; leave the Markdown and JSON in --out."""
    sys.set_int_max_str_digits(0)  # rscount's JSON holds counts of up to 100,000 digits
    args = parse_args(argv)
    files = sorted(args.tasks.resolve().glob("*.yaml"))
    if args.only:
        unknown = sorted(set(args.only) - {path.stem for path in files})
        if unknown:
            print(f"no task file {', '.join(unknown)} in {args.tasks}", file=sys.stderr)
            return 1
        files = [path for path in files if path.stem in args.only]
    if not files:
        print(f"no task files in {args.tasks}", file=sys.stderr)
        return 1
    header, _ = environment(
        f"method auto with --cross-check, then --method ganak, each file's own mode; time limit "
        f"{args.timeout:g} s per run (`--timeout`; outer kill {GRACE_S:g} s later); runs one after another"
    )
    header["command"] = "`" + " ".join(["python benchmarks/side_by_side.py", *(argv or sys.argv[1:])]) + "`"
    meta: dict[str, Any] = {"header": header, "timeout": args.timeout, "minutes": 0.0}
    rows: list[Row] = []
    earlier = 0.0
    record = args.out.with_suffix(".json")
    if args.resume and record.exists():
        old = json.loads(record.read_text())
        rows = [loaded(row) for row in old["rows"]]
        earlier = old.get("minutes", 0.0)
        header["resumed"] = f"{len(rows)} tasks kept from the run of {old['header'].get('date', '?')}"
        if old.get("timeout") != args.timeout:
            header["resumed"] += f" **with another time limit, {old.get('timeout')} s**"
    done = {row.task for row in rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for path in files:
        if path.stem in done:
            continue
        row = measure(path, args.timeout)
        rows.append(row)
        meta["minutes"] = earlier + (time.perf_counter() - started) / 60
        write(args.out, meta, rows, finished=False)
        r, g = row.rscount, row.ganak
        print(
            f"{row.task:<28} rscount {r.status:<8} {r.wall_s:7.2f}s {r.count_text or r.note[:40]:<24} "
            f"ganak {g.status:<8} {g.wall_s:7.2f}s {g.count_text or g.note[:40]:<24} "
            f"{'DISAGREE' if row.disagreements else ''}"[:200],
            flush=True,
        )
    meta["minutes"] = earlier + (time.perf_counter() - started) / 60
    write(args.out, meta, rows, finished=True)
    print(f"wrote {args.out} and {record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
