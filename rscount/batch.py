"""Counting many task files (`rscount report`, the catalogue): one entry per file with what the task
is, its count, and how its expectations fared. Each count runs in a child process with a time limit,
so one hard task cannot stop the others; tasks run in parallel through rscount.parallel."""

from __future__ import annotations

import glob
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .backends import CountOptions
from .counting import count_task, run_stoppable
from .errors import RscountError
from .expect import FAIL, INCONCLUSIVE, judge
from .parallel import run_jobs
from .progress import Progress
from .report import result_record
from .task import Task
from .taskfile import load_task

PASSED, FAILED, ERROR = "pass", "fail", "error"


@dataclass(frozen=True)
class Settings:
    """How every task of a batch is counted (the mode defaults to each task file's own)."""

    method: str = "auto"
    mode: str | None = None
    epsilon: float = 0.8
    delta: float = 0.2
    seed: int = 1
    timeout: float | None = 120.0
    fail_on_shortcuts: bool = False


def task_paths(specs: list[str]) -> list[Path]:
    """The task files named by files, glob patterns and directories (their *.yaml), in that order,
    each once."""
    found: dict[Path, None] = {}
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            matches = sorted(path.glob("*.yaml"))
        elif path.exists():
            matches = [path]
        else:
            matches = sorted(Path(p) for p in glob.glob(spec))
        if not matches:
            raise RscountError(f"{spec}: no such task file, directory or matching files")
        found.update(dict.fromkeys(matches))
    return list(found)


def header(path: Path) -> str:
    """The first sentence of a task file's leading comment (by convention: the task, its seed and
    section), which may span several comment lines."""
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# ").strip())
    text = " ".join(lines)
    end = re.search(r"\.(\s|$)", text)
    return text[: end.start() + 1] if end else text


def describe(task: Task) -> dict[str, Any]:
    """What a task is: concepts, labels, support, supervision, counting mode."""
    if task.objects:
        n, m = task.objects.count, len(task.objects.attributes)
        concepts = f"{len(task.concepts)} ({n} object{'s' * (n != 1)} x {m} attribute{'s' * (m != 1)})"
    else:
        concepts = str(len(task.concepts))
    support = f"{task.support.size}" + (" (all)" if task.support.exhaustive else "")
    source = task.support.source
    if source:
        support += f" (from {source['examples']} examples)"
    return {
        "task": task.name,
        "concepts": concepts,
        "labels": ", ".join(task.labels),
        "support": support,
        "supervised": len(task.support.supervised),
        "mode": task.mode,
    }


def _count(task: Task, mode: str, settings: Settings) -> dict[str, Any]:
    options = CountOptions(epsilon=settings.epsilon, delta=settings.delta, seed=settings.seed)
    result, _ = count_task(task, mode, settings.method, options)
    return result_record(task, result, None, mode)


RECORD_KEYS = ("count", "count_digits", "count_expression", "exact", "method", "shortcuts", "epsilon")
RECORD_KEYS += ("delta", "seed", "seconds")
DESCRIPTION_KEYS = ("task", "concepts", "labels", "support", "supervised", "mode")
# Every entry has exactly these keys (None where they do not apply), so reports keep stable keys.
ENTRY_KEYS = ("file", "path", "source", *DESCRIPTION_KEYS, "support_source", *RECORD_KEYS, "wall_seconds")
ENTRY_KEYS += ("expectations", "status", "verdict", "error")


def count_file(path: Path, settings: Settings) -> dict[str, Any]:
    """The entry of one task file: description, count (stopped after settings.timeout), the outcome
    of each expectation and the status: pass, fail (an expectation failed) or error (not counted)."""
    entry: dict[str, Any] = dict.fromkeys(ENTRY_KEYS)
    entry.update(
        file=path.name, path=str(path), task=path.stem, source="", mode=settings.mode, expectations=[]
    )
    start = time.perf_counter()
    try:
        task = load_task(path)
        entry.update(source=header(path), support_source=task.support.source, **describe(task))
        entry["mode"] = settings.mode or task.mode
        record = run_stoppable(_count, task, entry["mode"], settings, timeout=settings.timeout)
        entry.update({key: record.get(key) for key in RECORD_KEYS})
    except RscountError as exc:
        entry.update(status=ERROR, error=str(exc), verdict=f"error: {exc}")
        entry["wall_seconds"] = time.perf_counter() - start
        return entry
    entry["wall_seconds"] = time.perf_counter() - start
    expect = task.expect or ({"shortcuts": 0} if settings.fail_on_shortcuts else {})
    outcomes = judge(expect, _full_count(record, task), entry["exact"], entry["epsilon"])
    entry["expectations"] = [vars(o) for o in outcomes]
    failed = [o for o in outcomes if o.failed]
    entry["status"] = FAILED if failed else PASSED
    entry["verdict"] = verdict(entry, failed)
    return entry


def _full_count(record: dict[str, Any], task: Task) -> int:
    """The count itself, also when the record states it only as an expression (> MAX_DIGITS digits):
    every expectation is far below such a count, so a number of that many digits judges the same."""
    return record["count"] if record["count"] is not None else 10 ** (record["count_digits"] - 1)


def verdict(entry: dict[str, Any], failed: list) -> str:
    """One phrase: the failed expectations, or what the count says about shortcuts."""
    if failed:
        label = "INCONCLUSIVE" if all(o.status == INCONCLUSIVE for o in failed) else "FAIL"
        return f"{label}: " + "; ".join(o.message for o in failed if o.status in (FAIL, INCONCLUSIVE))
    count = entry["count"]
    if count is None:
        found = f"about 10^{entry['count_digits'] - 1} shortcuts"
    elif count == 0:
        found = "no map fits the labels (check the knowledge)"
    elif count == 1:
        found = "free of shortcuts"
    else:
        found = f"{count - 1} shortcut{'s' if count > 2 else ''}"
        found = found if entry["exact"] else f"about {found}"
    return ("pass: " if entry["expectations"] else "") + found


def count_files(
    paths: list[Path],
    settings: Settings,
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """The entries of many task files, counted side by side, in the order given."""
    return run_jobs(_count_one, [(p, settings) for p in paths], jobs, dask, progress, "counting tasks")


def _count_one(item: tuple[Path, Settings]) -> dict[str, Any]:
    return count_file(*item)
