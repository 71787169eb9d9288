"""The counts behind `rscount advise`: modified tasks counted in parallel under one time limit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..counting.jobs import CountJob, CountOutcome, run_count
from ..counting.processes.parallel import run_jobs
from ..counting.settings import CountSettings, Method
from ..errors import InternalError, NotApplicable, TimeLimitExceeded
from ..progress import Progress
from ..task.model import Task
from .steps import Step, apply_steps


@dataclass
class Advisor:
    """Counts modified tasks (through `run_jobs`, under one overall time limit: the settings'
    timeout) and keeps score; `jobs` local processes or the Dask scheduler at `dask`."""

    task: Task
    settings: CountSettings
    jobs: int | None = None
    dask: str | None = None
    progress: Progress | None = None
    counts: int = 0

    def __post_init__(self) -> None:
        self.settings = self.settings.commanded()  # every count of every batch within one deadline
        self.mode = self.settings.mode_for(self.task)

    def remaining(self) -> float | None:
        """Seconds left of the time limit (None: no limit); TimeLimitExceeded once it has passed."""
        left = self.settings.left()
        if left is not None and left <= 0:
            raise TimeLimitExceeded(self.settings.timeout or 0, "advise")
        return left

    def count(self, plans: Sequence[Sequence[Step]], what: str) -> list[CountOutcome]:
        """Count the task after each plan; a failed count (time limit included) is an error."""
        return self.count_tasks([apply_steps(self.task, p) for p in plans], what)

    def count_tasks(
        self, tasks: Sequence[Task], what: str, method: Method | None = None
    ) -> list[CountOutcome]:
        """Count tasks (by `method`, default the advisor's); a failed count is an error."""
        settings = self.settings.replace(mode=self.mode, method=method or self.settings.method)
        outcomes = self._run(tasks, what, settings)
        if any(outcome.limit for outcome in outcomes):
            raise TimeLimitExceeded(self.settings.timeout or 0, "advise")
        return outcomes

    def first_count(self, share: float) -> CountOutcome | None:
        """The task as given counted within `share` of the time left (None: that time ran out, and
        the command goes on without the count)."""
        settings = self.settings.portion(share).replace(mode=self.mode)
        (outcome,) = self._run([self.task], "counting the task", settings)
        return None if outcome.limit else outcome

    def _run(self, tasks: Sequence[Task], what: str, settings: CountSettings) -> list[CountOutcome]:
        """Count tasks under `settings` (within the time they leave); an error is an error."""
        left = self.remaining()  # the command's: connecting to Dask may take all of it
        jobs = [CountJob(t, settings) for t in tasks]
        outcomes = run_jobs(run_count, jobs, self.jobs, self.dask, self.progress, what, timeout=left)
        self.counts += len(outcomes)
        for outcome in outcomes:
            if outcome.error is not None and not outcome.limit:
                raise NotApplicable(f"advise: {outcome.error}")
        return outcomes


def counted(outcome: CountOutcome) -> int:
    """The count of an outcome that succeeded (Advisor.count_tasks raises on the others)."""
    if outcome.count is None:
        raise InternalError(f"advise: a failed count was not reported: {outcome.error}")
    return outcome.count
