"""Judging a task, the one path of `rscount check`, `rscount report` and the pytest plugin: load it,
count it, judge the pins that apply, and name the concepts involved in its shortcuts, into one
record (Judgement) that each of them only presents.

The pin rule, one for every mode (pins_for): a task's `expect:` was measured in the task's own mode
and is judged there only (in another mode the count is of other things: any map D -> D in the joint
mode, pairs with an inference layer in the jrs mode); where no pin applies, `fail_on_shortcuts`
expects no shortcuts. Shortcuts are what a count holds beyond its intended part: the identity map,
or in the jrs mode the intended pairs (so there, free of shortcuts means count == intended).
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..counting.jobs import count, load_within
from ..counting.processes.isolation import run_stoppable
from ..counting.result import CountResult
from ..counting.settings import CountSettings
from ..errors import LimitReached, RscountError, origin
from ..progress import Progress
from ..task.expectations import Outcome, judge_pins
from ..task.model import Mode, Task
from .simplest import Counted
from .unidentified import Unidentified, identified_values, unidentified_concepts
from .validation import ERROR, INFO, WARNING, Finding, validate

CHECK_TIMEOUT = 300.0  # seconds a check may count by default


class Status(StrEnum):
    """What a judgement concludes about a task, from best to worst."""

    FREE = "free"  # no pin applies, and counted exactly: only the intended map (or pairs) fits
    PASSED = "passed"  # every pin holds
    SHORTCUTS = "shortcuts"  # no pin applies, and the count does not show the task free of shortcuts
    FAILED = "failed"  # a pin failed, or an estimate cannot decide it
    INVALID = "invalid"  # the task is invalid, or cannot be counted as asked
    LIMIT = "limit"  # a time or memory limit stopped the work

    @property
    def fails(self) -> bool:
        """Whether the task fails a report and its test item: a failed pin, an invalid task, a limit
        (shortcuts no pin rules out do not; `check` refuses them too, by its exit code)."""
        return self in (Status.FAILED, Status.INVALID, Status.LIMIT)


@dataclass(frozen=True)
class Failure:
    """Why a task was not counted: the error's message, whether a limit stopped the work, and where
    it points: the task field (`labels.y`), the file when it is not the task file (a program), and
    that file's line when the error knows it."""

    message: str
    limit: bool = False
    field: str | None = None
    path: str | None = None
    line: int | None = None

    @classmethod
    def of(cls, error: RscountError, task_file: str | None = None) -> Failure:
        """The failure an error says, its path kept only when it is not `task_file`."""
        where, line = origin(error)  # a program's or annotation file's line, where the error has it
        elsewhere = where and not (task_file and Path(where).resolve() == Path(task_file).resolve())
        return cls(
            str(error),
            isinstance(error, LimitReached),
            getattr(error, "field", None) or None,
            where if elsewhere else None,
            line,
        )


@dataclass(frozen=True)
class Judging:
    """What a judgement does besides loading, counting and judging the pins: `validate` the task
    (check's findings); name the concepts involved in its shortcuts whenever it has some
    (`involved_always`, check) or only when a pin failed (report: the search costs time on every
    task with shortcuts); `fail_on_shortcuts`: where no pin applies, expect no shortcuts."""

    validate: bool = False
    involved_always: bool = False
    fail_on_shortcuts: bool = False


CHECK = Judging(validate=True, involved_always=True)


@dataclass
class Judgement:
    """Everything judged about one task: the task and the mode it was counted in, what validation
    and naming the concepts noted, the count (None when not counted: `failure` says why), the pins'
    outcomes (`own_pins`: they are the task file's, which --update-pins may rewrite), the concepts
    it does not identify (None when not computed), the wall seconds, and for a report the task
    file's header sentence (`source`) and the line its annotation goes on (`line`)."""

    name: str
    path: str | None = None
    task: Task | None = None
    mode: Mode | None = None
    notes: list[Finding] = field(default_factory=list)
    result: CountResult | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    own_pins: bool = False
    unidentified: dict[str, Unidentified] | None = None
    failure: Failure | None = None
    seconds: float = 0.0
    source: str = ""
    line: int | None = None  # the task file's line a report points a reviewer at, when found

    @property
    def file(self) -> str:
        """The task file's name (without its directory), else the name judged."""
        return Path(self.path).name if self.path else self.name

    @property
    def findings(self) -> list[Finding]:
        """The notes, then the failure: an error, or a warning when a limit stopped the work."""
        if self.failure is None:
            return self.notes
        return [*self.notes, Finding(WARNING if self.failure.limit else ERROR, self.failure.message)]

    @property
    def valid(self) -> bool:
        """No error was found (a limit is not one)."""
        return self.failure is None or self.failure.limit

    @property
    def free_of_shortcuts(self) -> bool:
        """Counted exactly, and only the intended map (in the jrs mode: the intended pairs) fits."""
        r = self.result
        return bool(r and r.exact and r.count > 0 and r.shortcuts == 0)

    @property
    def status(self) -> Status:
        """The conclusion a CI job acts on."""
        if self.failure is not None:
            return Status.LIMIT if self.failure.limit else Status.INVALID
        if self.result is None:
            return Status.INVALID
        if any(o.failed for o in self.outcomes):
            return Status.FAILED
        if self.outcomes:
            return Status.PASSED
        return Status.FREE if self.free_of_shortcuts else Status.SHORTCUTS

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `check --json`: name, mode, status, findings, the count, expectations,
        unidentified concepts and the values every optimal map keeps (identified_values)."""
        return {
            "name": self.name,
            "mode": None if self.mode is None else str(self.mode),
            "status": str(self.status),
            "findings": [asdict(f) for f in self.findings],
            "result": None if self.result is None else self.result.to_dict(),
            "expectations": [o.to_dict() for o in self.outcomes],
            "unidentified": None
            if self.unidentified is None
            else {name: u.to_dict() for name, u in self.unidentified.items()},
            "identified_values": None
            if self.unidentified is None or self.task is None
            else identified_values(self.task, self.unidentified),
        }


def pins_for(task: Task, mode: Mode, fail_on_shortcuts: bool = False) -> tuple[dict[str, int], bool]:
    """The pin rule: the expectations a count of `task` in `mode` is judged by, and whether they are
    the task file's own (see the module's docstring)."""
    if task.expect and mode == task.mode:
        return dict(task.expect), True
    return ({"shortcuts": 0} if fail_on_shortcuts else {}), False


def judge_result(pins: dict[str, int], result: CountResult) -> list[Outcome]:
    """The outcome of each pin for a count (shortcuts beyond its intended part)."""
    return judge_pins(pins, result.count, result.exact, result.epsilon, result.intended)


def judge_file(
    path: str | os.PathLike[str],
    settings: CountSettings,
    judging: Judging = Judging(),
    progress: Progress | None = None,
) -> Judgement:
    """Load and judge a task file within the settings' limits (reading it included); a file that
    does not load is a judgement with its failure, not an exception."""
    start = time.monotonic()
    try:
        task, settings = load_within(path, settings)
    except RscountError as exc:
        failure = Failure.of(exc, str(path))
        return Judgement(str(path), str(path), failure=failure, seconds=time.monotonic() - start)
    judged = judge_task(task, settings, judging, progress, str(path))
    judged.seconds = time.monotonic() - start
    return judged


def judge_task(
    task: Task,
    settings: CountSettings,
    judging: Judging = Judging(),
    progress: Progress | None = None,
    path: str | None = None,
) -> Judgement:
    """Judge `task` (read from the file at `path`, if any) in the settings' mode (else its own),
    within the settings' limits: validate (if asked), count, judge the pins that apply, and name
    the concepts involved (always, or for a failed pin)."""
    start = time.monotonic()
    mode = settings.mode_for(task)
    judged = Judgement(task.name, path, task, mode)
    try:  # validation compiles the knowledge, which a hostile task can make slow: within the limits
        if judging.validate:
            judged.notes = run_stoppable(validate, task, **settings.limits(), what=f"checking {task.name}")
        if progress:
            progress.update(f"counting {task.name}", force=True)
        result = count(task, settings.after(time.monotonic() - start).replace(mode=mode))
    except RscountError as exc:
        judged.failure = Failure.of(exc, path)
        judged.seconds = time.monotonic() - start
        return judged
    judged.result = result
    pins, judged.own_pins = pins_for(task, mode, judging.fail_on_shortcuts)
    judged.outcomes = judge_result(pins, result)
    if judging.involved_always or any(o.failed for o in judged.outcomes):
        _name_involved(judged, task, result, settings.after(time.monotonic() - start), progress)
    judged.seconds = time.monotonic() - start
    return judged


def _name_involved(
    judged: Judgement, task: Task, result: CountResult, settings: CountSettings, progress: Progress | None
) -> None:
    """The concepts involved in the task's shortcuts, in its mode's terms: whether concepts and
    inference layer are jointly identifiable (jrs), none for a joint map, else each concept some
    optimal map does not keep (within what is left of the time limit)."""
    mode = judged.mode
    if mode == Mode.JRS:
        loose = result.details["not_identified"]
        verdict = "not jointly identifiable" if loose else "identifiable up to relabelling values"
        note = f"concepts and inference layer: {verdict}"
        if loose:
            note += f"; concepts some fitting pair merges or resizes: {', '.join(loose)}"
        judged.notes.append(Finding(INFO, note))
    elif judged.free_of_shortcuts:
        judged.unidentified = {}
    elif mode == Mode.JOINT:
        judged.notes.append(Finding(INFO, "concepts involved: a joint map has no per-concept meaning"))
    else:
        if progress:
            progress.update(f"finding the concepts involved in {task.name}'s shortcuts", force=True)
        left = settings.left()
        try:
            judged.unidentified = run_stoppable(
                unidentified_concepts,
                task,
                mode,
                None,
                Counted.of(result),
                timeout=None if left is None else max(left, 1.0),
                memory=settings.memory,
            )
        except RscountError as exc:
            judged.notes.append(Finding(WARNING, f"concepts involved: not found ({exc})"))


def check_file(
    path: str | os.PathLike[str], settings: CountSettings | None = None, progress: Progress | None = None
) -> Judgement:
    """`rscount check` of a task file: judged with validation and the concepts involved."""
    return judge_file(path, settings or CountSettings(timeout=CHECK_TIMEOUT), CHECK, progress)


def check(task: Task, settings: CountSettings | None = None, progress: Progress | None = None) -> Judgement:
    """`rscount.check` of a task: judged with validation and the concepts involved."""
    return judge_task(task, settings or CountSettings(timeout=CHECK_TIMEOUT), CHECK, progress)
