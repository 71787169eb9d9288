"""Judging many task files (`rscount report`, the catalogue): one judgement per file (the path of
rscount.insight.judging, so check, report and the pytest plugin judge alike), and each as a report's
row. Each count runs in a child process with a time limit, so one hard task cannot stop the others;
tasks run side by side through rscount.counting.processes.parallel.
"""

from __future__ import annotations

import glob
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..counting.processes.isolation import run_stoppable
from ..counting.processes.parallel import run_jobs
from ..counting.settings import CountSettings
from ..errors import InvalidInput, RscountError, short
from ..formats.inputs import read_text
from ..formats.task_files.places import field_steps, key_line
from ..insight.judging import Failure, Judgement, Judging, judge_file
from ..progress import Progress
from ..task.summary import describe
from .records import count_record
from .text import report_verdict

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
RECORD_KEYS += ("delta", "seed", "seconds", "extractor")
DESCRIPTION_KEYS = ("task", "concepts", "labels", "support", "supervised", "mode", "knowledge")
# Every row has exactly these keys (None where they do not apply), so reports keep stable keys.
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


def entry_row(judged: Judgement) -> dict[str, Any]:
    """A judged task file as a report's row (its JSON entry): exactly ENTRY_KEYS, None where a key
    does not apply (the count's keys when not counted, the task's when it did not load)."""
    path = judged.path or judged.name
    task, result = judged.task, judged.result
    about = describe(task) if task is not None else {"task": Path(judged.file).stem}
    if task is not None:
        about["mode"] = str(judged.mode)
    record = None if task is None or result is None else count_record(task, result, judged.mode)
    row = {
        "file": judged.file,
        "path": path,
        "source": judged.source,
        **{key: about.get(key) for key in DESCRIPTION_KEYS},
        "support_source": None if task is None else task.support.source,
        **{key: None if record is None else getattr(record, key) for key in RECORD_KEYS},
        "wall_seconds": judged.seconds,
        "expectations": [o.to_dict() for o in judged.outcomes],
        "status": str(judged.status),
        "verdict": report_verdict(judged),
        "error": None if judged.failure is None else judged.failure.message,
    }
    return {key: row[key] for key in ENTRY_KEYS}


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


def count_files(
    paths: list[Path],
    settings: CountSettings,
    fail_on_shortcuts: bool = False,
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
) -> list[Judgement]:
    """The judgements of many task files, side by side, in the order given; with
    `fail_on_shortcuts`, a task no pin applies to is expected to have no shortcuts."""
    items = [(p, settings, Judging(fail_on_shortcuts=fail_on_shortcuts)) for p in paths]
    return run_jobs(_judge_one, items, jobs, dask, progress, "counting tasks", _crashed)


Item = tuple[Path, CountSettings, Judging]


def _judge_one(item: Item) -> Judgement:
    """One file's judgement with its header; a bug in one task becomes that task's failure, not the
    end of the batch."""
    path, settings, judging = item
    start = time.monotonic()
    try:
        judged = judge_file(path, settings, judging)
        judged.source = header(path) if judged.task is not None else ""
        if judged.status.fails:
            judged.line = _place(judged, path, settings.after(time.monotonic() - start))
        return judged
    except Exception as exc:  # noqa: BLE001 - any failure of one task is reported in its judgement
        first = str(exc).splitlines()[0] if str(exc) else ""
        return _internal_error(path, f"{type(exc).__name__}: {short(first)}")


def _place(judged: Judgement, path: Path, settings: CountSettings) -> int | None:
    """The task file's line a failed judgement points at: the failed pin's entry under `expect:`, or
    the field an error names; found within what is left of the task's time limit (the round-trip
    parser is slow on large files), else None."""
    failure = judged.failure
    if failure is None:
        steps = ["expect", *[o.expectation for o in judged.outcomes if o.failed][:1]]
    elif failure.field and failure.path is None and not failure.limit:
        steps = field_steps(failure.field)
    else:
        return None
    try:
        return run_stoppable(key_line, path, steps, **settings.limits(), what=f"locating {path.name}")
    except RscountError:
        return None


def _crashed(item: Item) -> Judgement:
    """The judgement of a task whose worker process died."""
    return _internal_error(item[0], "the process counting it died")


def _internal_error(path: Path, why: str) -> Judgement:
    return Judgement(str(path), str(path), failure=Failure(f"internal error: {why}"))
