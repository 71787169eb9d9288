"""Counting many task files (`rscount report`, the catalogue, the pytest plugin): one entry per file
with what the task is, its count, and how its expectations fared. Each count runs in a child
process with a time limit, so one hard task cannot stop the others; tasks run side by side through
rscount.counting.processes.parallel.

A pinned expectation that fails says why: the count moved from the pin to the new count, and the
concepts that may now be swapped or remapped (what `rscount check` reports) are named.
"""

from __future__ import annotations

import glob
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..counting.jobs import count, load_within
from ..counting.processes.isolation import run_stoppable
from ..counting.processes.parallel import run_jobs
from ..counting.settings import CountSettings
from ..errors import InvalidInput, LimitReached, RscountError, short
from ..insight.check import Unidentified, unidentified_concepts
from ..progress import Progress
from ..task.expectations import Outcome, judge_pins
from ..task.inputs import read_text
from ..task.model import Mode, Task
from ..task.summary import describe
from .records import CountRecord, count_record
from .text import moved_concepts, verdict

PASSED, FAILED, ERROR, LIMIT = "pass", "fail", "error", "limit"
TASK_SUFFIXES = (".yaml", ".yml")

RECORD_KEYS: tuple[str, ...] = (
    "count",
    "count_digits",
    "count_expression",
    "exact",
    "method",
    "shortcuts",
    "epsilon",
)
RECORD_KEYS += ("delta", "seed", "seconds")
DESCRIPTION_KEYS = ("task", "concepts", "labels", "support", "supervised", "mode", "knowledge")
# Every entry has exactly these keys (None where they do not apply), so reports keep stable keys.
ENTRY_KEYS: tuple[str, ...] = (
    "file",
    "path",
    "source",
    *DESCRIPTION_KEYS,
    "support_source",
    *RECORD_KEYS,
    "wall_seconds",
)
ENTRY_KEYS += ("expectations", "status", "verdict", "error")


@dataclass
class BatchEntry:
    """One task file of a batch: where it is, what it is (describe), its count record (None when
    not counted), its expectations' outcomes, and its status: pass, fail (an expectation failed),
    error (invalid, not counted) or limit (a time or memory limit stopped the count)."""

    file: str
    path: str
    source: str = ""
    description: dict[str, Any] = field(default_factory=dict)
    support_source: dict[str, Any] | None = None
    record: CountRecord | None = None
    wall_seconds: float = 0.0
    expectations: list[Outcome] = field(default_factory=list)
    status: str = ERROR
    verdict: str = ""
    error: str | None = None
    unidentified: dict[str, Unidentified] | None = None  # for a failed pin: what may have moved
    joint: str = ""  # the catalogue's joint-shortcuts cell (a count in the jrs mode), when asked
    error_field: str | None = None  # the task field an error names (`labels.y`, `support[3]`)
    error_path: str | None = None  # the file an error is in, when not the task file (a program)
    error_line: int | None = None  # the line of that file, when the error knows it

    def get(self, key: str) -> Any:
        """A field of the entry's JSON form: a record field (None when not counted), a description
        field, or the entry's own."""
        if key in RECORD_KEYS:
            return None if self.record is None else getattr(self.record, key)
        if key in DESCRIPTION_KEYS:
            return self.description.get(key, Path(self.file).stem if key == "task" else None)
        return getattr(self, key)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: exactly ENTRY_KEYS."""
        out = {key: self.get(key) for key in ENTRY_KEYS}
        out["expectations"] = [o.to_dict() for o in self.expectations]
        if out["mode"] is not None:
            out["mode"] = str(out["mode"])
        return out


def task_paths(specs: Sequence[str | Path]) -> list[Path]:
    """The task files named by files, glob patterns and directories (their *.yaml and *.yml), in
    that order, each once."""
    found: dict[Path, None] = {}
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            matches = sorted(p for p in path.iterdir() if p.suffix in TASK_SUFFIXES and p.is_file())
        elif path.exists():
            matches = [path]
        else:
            matches = sorted(Path(p) for p in glob.glob(str(spec)))
        if not matches:
            raise InvalidInput(f"{spec}: no such task file, directory or matching files")
        found.update(dict.fromkeys(matches))
    return list(found)


def header(path: Path) -> str:
    """The first sentence of a task file's leading comment (by convention: the task, its seed and
    section), which may span several comment lines."""
    lines = []
    for line in read_text(path).splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# ").strip())
    text = " ".join(lines)
    end = re.search(r"\.(\s|$)", text)
    return text[: end.start() + 1] if end else text


def count_file(path: Path, settings: CountSettings, fail_on_shortcuts: bool = False) -> BatchEntry:
    """The entry of one task file, counted within settings.timeout; with `fail_on_shortcuts`, a
    task without expectations is expected to have no shortcuts."""
    entry = BatchEntry(path.name, str(path))
    start = time.perf_counter()
    try:
        task, settings = load_within(path, settings)
        entry.source = header(path)
        entry.description = describe(task)
        entry.support_source = task.support.source
        mode = settings.mode_for(task)
        entry.description["mode"] = str(mode)
        entry.record = count_record(task, count(task, settings.replace(mode=mode)), mode)
    except RscountError as exc:
        entry.status = LIMIT if isinstance(exc, LimitReached) else ERROR
        entry.error = str(exc)
        entry.error_field = getattr(exc, "field", None) or None
        where = getattr(exc, "path", None)
        entry.error_path = where if where and Path(where).resolve() != path.resolve() else None
        entry.error_line = getattr(exc, "line", None)
        entry.verdict = f"error: {exc}"
        entry.wall_seconds = time.perf_counter() - start
        return entry
    record = entry.record
    if mode == Mode.JRS:  # the task's pins are for its own mode; free of shortcuts: only intended pairs
        expect = {"count": record.promoted["intended"]} if fail_on_shortcuts else {}
    else:
        expect = dict(task.expect) or ({"shortcuts": 0} if fail_on_shortcuts else {})
    entry.expectations = judge_pins(expect, record.full_count(), record.exact, record.epsilon)
    failed = [o for o in entry.expectations if o.failed]
    entry.status = FAILED if failed else PASSED
    entry.verdict = verdict(record, entry.expectations)
    if failed and record.has_shortcuts and mode in (Mode.DISENTANGLED, Mode.OBJECTS):
        entry.unidentified = _what_moved(task, mode, record.method, settings, time.perf_counter() - start)
        if entry.unidentified:
            entry.verdict += "; concepts that may now be swapped or remapped: " + moved_concepts(
                entry.unidentified
            )
    entry.wall_seconds = time.perf_counter() - start
    return entry


def _what_moved(
    task: Task, mode: Mode, counted_by: str, settings: CountSettings, spent: float
) -> dict[str, Unidentified] | None:
    """The concepts some optimal map does not keep, found within what is left of the time limit
    (None when that is not enough)."""
    left = None if settings.timeout is None else max(settings.timeout - spent, 1.0)
    try:
        return run_stoppable(
            unidentified_concepts, task, mode, counted_by, timeout=left, memory=settings.memory
        )
    except RscountError:
        return None


def count_files(
    paths: list[Path],
    settings: CountSettings,
    fail_on_shortcuts: bool = False,
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
) -> list[BatchEntry]:
    """The entries of many task files, counted side by side, in the order given."""
    items = [(p, settings, fail_on_shortcuts) for p in paths]
    return run_jobs(_count_one, items, jobs, dask, progress, "counting tasks", _crashed)


Item = tuple[Path, CountSettings, bool]


def _count_one(item: Item) -> BatchEntry:
    """One file's entry; a bug in one task becomes that task's error, not the end of the batch."""
    path, settings, fail_on_shortcuts = item
    try:
        return count_file(path, settings, fail_on_shortcuts)
    except Exception as exc:  # noqa: BLE001 - any failure of one task is reported in its entry
        first = str(exc).splitlines()[0] if str(exc) else ""
        return _internal_error(path, f"{type(exc).__name__}: {short(first)}")


def _crashed(item: Item) -> BatchEntry:
    """The entry of a task whose worker process died."""
    return _internal_error(item[0], "the process counting it died")


def _internal_error(path: Path, why: str) -> BatchEntry:
    entry = BatchEntry(path.name, str(path))
    entry.error = f"internal error: {why}"
    entry.verdict = f"error: {entry.error}"
    return entry
