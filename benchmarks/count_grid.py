"""A grid of counts: task files x methods, each `python -m rscount count TASK --method M --timeout T`
in a subprocess of this checkout (measure.run_measured, killed at T + 40 s), written as a JSON of
every run and a Markdown table with one row per task, the machine and date in the header."""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import os
import platform
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml
from measure import run_measured

BENCH = Path(__file__).resolve().parent
COUNT = re.compile(r"^optimal concept maps: (about )?(\d+)", re.M)
Extra = Callable[[dict[str, Any]], dict[str, Any] | None]  # a task -> a run of another kind, or None
BRUTE_MAX = 2_000_000  # maps (pi, f) a brute force tries one by one


def grid_options(doc: str, methods: str) -> argparse.ArgumentParser:
    """The options every grid of counts takes (--seeds, --methods with `methods` by default,
    --timeout), for a script to add its own to; `doc` is its module docstring."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2", help="comma-separated random seeds of the supports")
    parser.add_argument("--methods", default=methods, help="comma-separated (auto, a backend)")
    parser.add_argument("--timeout", type=float, default=60.0, help="limit of each run (default 60 s)")
    return parser


def brute_force_run(
    values: Sequence[Any], k: int, objects: bool, rows: Sequence[tuple[Any, ...]], label: Callable[..., Any]
) -> dict[str, Any] | None:
    """A brute force's run (its count and seconds) where there are at most BRUTE_MAX maps (pi, f),
    else None: pi any permutation of the k concepts, f any function of `values` per concept
    (`objects`: one for all); a map counts when every row keeps its label."""
    d = len(values)
    if math.factorial(k) * d ** (d * (1 if objects else k)) > BRUTE_MAX:
        return None
    index = {v: n for n, v in enumerate(values)}
    wanted = [label(r) for r in rows]
    start, found = time.perf_counter(), 0
    for pi in itertools.permutations(range(k)):
        for f in itertools.product(itertools.product(values, repeat=d), repeat=1 if objects else k):
            for row, y in zip(rows, wanted):
                out: list[Any] = [None] * k
                for i, j in enumerate(pi):
                    out[j] = f[0 if objects else i][index[row[i]]]
                if label(tuple(out)) != y:
                    break
            else:
                found += 1
    return {
        "seconds": round(time.perf_counter() - start, 2),
        "count": found,
        "exact": True,
        "outcome": "answered",
    }


def count_grid(
    tasks: Sequence[dict[str, Any]],
    methods: Sequence[str],
    timeout: float,
    stem: str,
    title: str,
    command: str,
    extra: tuple[str, Extra] | None = None,
) -> None:
    """Count every task (task-file mappings with a `name`, and `files`: name -> text written beside
    it, such as its program) by every method, and by `extra` (a column
    name and a function giving its run, such as a brute force, for the tasks it reaches); write
    benchmarks/STEM.json and STEM.md, whose header says `command` measured it."""
    repo = BENCH.parent  # `python -m rscount` run there imports this checkout's rscount
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for data in tasks:
            path = Path(tmp) / f"{data['name']}.yaml"
            for name, text in data.get("files", {}).items():  # a program the task file names
                (Path(tmp) / name).write_text(text)
            written = {key: value for key, value in data.items() if key != "files"}
            path.write_text(yaml.safe_dump(written, default_flow_style=None))
            for method in methods:
                argv = [sys.executable, "-m", "rscount", "count", str(path), "--method", method]
                run = run_measured([*argv, "--timeout", str(timeout)], repo, timeout + 40)
                found = COUNT.search(run.stdout)
                said = (run.stderr.strip().splitlines() or ["?"])[-1][:160]
                runs.append({
                    "task": data["name"], "method": method, "seconds": round(run.wall_s, 2),
                    "count": int(found.group(2)) if found else None,
                    "exact": bool(found and not found.group(1)),
                    "outcome": "answered" if found else said,
                })  # fmt: skip
                print(runs[-1], flush=True)
            if extra is not None and (other := extra[1](data)) is not None:
                runs.append({"task": data["name"], "method": extra[0], **other})
                print(runs[-1], flush=True)
    machine = f"{platform.node()} ({os.cpu_count()} cores, {platform.python_version()})"
    stamp = f"{datetime.date.today()}, {machine}"
    (BENCH / f"{stem}.json").write_text(json.dumps({"machine": stamp, "runs": runs}, indent=1))
    columns = [*methods, *([extra[0]] if extra else [])]
    lines = [
        f"# {title}",
        "",
        f"Measured {stamp} by `{command}`: each cell is the wall time of `rscount count --method M` "
        "(process start included) and its count; `limit` where it stopped at the time limit, "
        "`declined` where the method does not apply.",
        "",
        "| task | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for name in dict.fromkeys(r["task"] for r in runs):
        cells = []
        for method in columns:
            r = next((x for x in runs if x["task"] == name and x["method"] == method), None)
            if r is None:
                cells.append("-")
            elif r["count"] is not None:
                cells.append(f"{r['count']}{'' if r['exact'] else ' (approx.)'}, {r['seconds']:.1f} s")
            else:
                cells.append("limit" if "time limit" in r["outcome"] else f"declined ({r['outcome'][:60]})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    (BENCH / f"{stem}.md").write_text("\n".join(lines) + "\n")
