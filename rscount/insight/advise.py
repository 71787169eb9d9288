"""Advice (`rscount advise`, `rscount.advise`): a small change of the training data that leaves no
reasoning shortcut.

Greedy search: each step tries candidate actions of three kinds and keeps the one whose modified
task counts fewest optimal maps (ties: the first in the order supervise, add, annotate; rows in
support or domain order):
- supervise: concept-supervise one support row (all its concepts annotated on that example);
- add: add a concept combination the support lacks (with the label the knowledge gives it);
- annotate: annotate one concept on every training example, i.e. supervise that concept alone. This
  is written as an extra label equal to the concept (`d1_annotated: d1`): keeping that label on
  every support row is exactly "predicted d1 equals d1 on every example".
The search stops at 1 optimal map or when no candidate lowers the count. Steps that the final
count does not need are then dropped (last first), the counts after each kept step are recounted,
and the modified task is written out as a task file, read back and counted again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import yaml

from ..counting.jobs import CountJob, CountOutcome, run_count
from ..counting.parallel import run_jobs
from ..counting.settings import CountSettings, Method
from ..errors import NotApplicable, TimeLimitExceeded
from ..knowledge.loading import task_from_dict
from ..outputs import check_outputs, write_output
from ..progress import Progress
from ..task.expressions import Expr, var
from ..task.model import Mode, Task
from ..task.support import all_rows, decode, domain_size
from ..task.writing import task_data, task_yaml

SUPERVISE, ADD, ANNOTATE = "supervise", "add", "annotate"
ACTIONS = (SUPERVISE, ADD, ANNOTATE)
LISTED_ROWS_MAX = 100_000  # candidate rows are listed up to this many concept vectors, else sampled


@dataclass(frozen=True)
class Step:
    """One change of the task: supervise or add `row`, or annotate `concept` on every example."""

    action: str
    row: tuple[Any, ...] | None = None
    concept: str | None = None


def annotation_label(task: Task, concept: str) -> str:
    """The label name that stands for "concept annotated on every example" (not clashing)."""
    name = f"{concept}_annotated"
    while name in task.labels:
        name += "_"
    return name


def apply_steps(task: Task, steps: Sequence[Step]) -> Task:
    """`task` with `steps` applied (a new Task; `task` is left as it is)."""
    support = task.support
    rows: list[Any] | None = None if support.exhaustive else list(support.rows)
    supervised: list[Any] = list(support.supervised)
    labels: dict[str, Expr | str] = {}
    for step in steps:
        if step.action == ADD and rows is not None:
            rows.append(step.row)
        elif step.action == SUPERVISE:
            supervised.append(step.row)
        elif step.concept is not None:
            labels[annotation_label(task, step.concept)] = var(step.concept)
    return task.with_support(rows, supervised).with_labels(labels)


def step_text(task: Task, step: Step) -> str:
    """A step as a person reads it: `add example d1=5, d2=6 (sum=11)`."""
    if step.action == ANNOTATE or step.row is None:
        return f"annotate concept {step.concept} on every training example"
    row = ", ".join(f"{n}={v}" for n, v in zip(task.names, step.row))
    if step.action == SUPERVISE:
        return f"concept-supervise example {row}"
    labels = ", ".join(f"{n}={v}" for n, v in zip(task.labels, task.label_of(step.row)))
    return f"add example {row} ({labels})"


def candidates(
    task: Task, plan: Sequence[Step], actions: Sequence[str], rng: random.Random, limit: int
) -> tuple[list[Step], list[Step]]:
    """The steps to try after `plan`: up to `limit` of each action drawn at random, then the rest
    (tried only when none of the first lowers the count). Rows of large concept spaces are sampled."""
    now = apply_steps(task, plan)
    support = now.support
    domains = support.domains
    listed = domain_size(domains) <= LISTED_ROWS_MAX
    annotated = {s.concept for s in plan if s.action == ANNOTATE}
    pools: dict[str, list[Step]] = {
        SUPERVISE: [],
        ADD: [],
        ANNOTATE: [Step(ANNOTATE, concept=n) for n in now.names if n not in annotated],
    }
    if support.exhaustive and not listed:
        drawn = {decode(rng.randrange(domain_size(domains)), domains) for _ in range(4 * limit)}
        pools[SUPERVISE] = [Step(SUPERVISE, r) for r in sorted(drawn) if r not in support.supervised]
    else:
        pools[SUPERVISE] = [Step(SUPERVISE, r) for r in support.rows if r not in support.supervised]
    if not support.exhaustive:
        rows = set(support.rows)
        if listed:
            pools[ADD] = [Step(ADD, r) for r in all_rows(domains) if r not in rows]
        else:
            drawn = {decode(rng.randrange(domain_size(domains)), domains) for _ in range(4 * limit)}
            pools[ADD] = [Step(ADD, r) for r in sorted(drawn, key=str) if r not in rows]
    first: list[Step] = []
    rest: list[Step] = []
    for action in actions:
        pool = pools[action]
        chosen = set(rng.sample(range(len(pool)), limit)) if len(pool) > limit else set(range(len(pool)))
        first += [s for n, s in enumerate(pool) if n in chosen]
        rest += [s for n, s in enumerate(pool) if n not in chosen]
    return first, rest


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
        timeout = self.settings.timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.mode = self.settings.mode_for(self.task)

    def remaining(self) -> float | None:
        """Seconds left of the time limit (None: no limit); TimeLimitExceeded once it has passed."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeLimitExceeded(self.settings.timeout or 0, "advise")
        return left

    def count(self, plans: Sequence[Sequence[Step]], what: str) -> list[CountOutcome]:
        """Count the task after each plan; a failed count (time limit included) is an error."""
        return self.count_tasks([apply_steps(self.task, p) for p in plans], what)

    def count_tasks(
        self, tasks: Sequence[Task], what: str, method: Method | None = None
    ) -> list[CountOutcome]:
        """Count tasks (by `method`, default the advisor's); a failed count is an error."""
        settings = self.settings.replace(
            mode=self.mode, method=method or self.settings.method, timeout=self.remaining()
        )
        jobs = [CountJob(t, settings) for t in tasks]
        outcomes = run_jobs(run_count, jobs, self.jobs, self.dask, self.progress, what)
        self.counts += len(outcomes)
        for outcome in outcomes:
            if outcome.limit:
                raise TimeLimitExceeded(self.settings.timeout or 0, "advise")
            if outcome.error is not None:
                raise NotApplicable(f"advise: {outcome.error}")
        return outcomes


def _best(
    advisor: Advisor, plan: list[Step], tries: list[Step], what: str
) -> tuple[Step, CountOutcome] | None:
    if not tries:
        return None
    outcomes = advisor.count([[*plan, s] for s in tries], what)
    n = min(range(len(tries)), key=lambda n: _counted(outcomes[n]))
    return tries[n], outcomes[n]


def greedy(
    advisor: Advisor, start: int, actions: Sequence[str], limit: int, max_steps: int
) -> tuple[list[Step], int]:
    """Greedy steps until 1 optimal map, a stall or `max_steps`; returns the plan and its count.
    Candidates are drawn with the advisor's seed."""
    plan: list[Step] = []
    current = start
    rng = random.Random(advisor.settings.seed)
    while current > 1 and len(plan) < max_steps:
        first, rest = candidates(advisor.task, plan, actions, rng, limit)
        what = f"step {len(plan) + 1} (optimal maps now {current}): candidates counted"
        best = _best(advisor, plan, first, what)
        if best is None or _counted(best[1]) >= current:
            best = _best(advisor, plan, rest, what + " (the rest)") or best
        if best is None or _counted(best[1]) >= current:
            break
        plan.append(best[0])
        current = _counted(best[1])
    return plan, current


def prune(advisor: Advisor, plan: list[Step], final: int) -> list[Step]:
    """Drop steps, last first, whose removal keeps the count at `final` (an added example goes
    together with its supervision, if the plan supervises it too)."""
    kept = list(plan)
    for step in reversed(plan):
        if step not in kept:
            continue
        trial = [s for s in kept if s is not step and not (step.action == ADD and s.row == step.row)]
        if trial and _counted(advisor.count([trial], "dropping redundant steps")[0]) <= final:
            kept = trial
    return kept


@dataclass
class Advice:
    """What advise found: the count as given, the plan (each step with the count after it), how
    many greedy steps it took before pruning, the final count, the modified task's verification
    ({"count", "exact", "method"}), where it was written and the task file's mapping."""

    task: str
    mode: Mode
    start: dict[str, Any]
    actions: list[str]
    candidates_per_action: int
    plan: list[dict[str, Any]]
    greedy_steps: int
    final_count: int | None
    verified: dict[str, Any]
    emitted: str | None
    task_file: dict[str, Any] = field(repr=False)
    counts: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `rscount advise --json`."""
        return {**asdict(self), "mode": str(self.mode)}


def advise(
    advisor: Advisor,
    actions: Sequence[str],
    limit: int,
    max_steps: int,
    emit: str | None = None,
    overwrite: bool = False,
) -> Advice:
    """A plan that removes the shortcuts of the advisor's task (greedy, then pruned), the count
    after each step, and the modified task verified by recounting it as written (to `emit`)."""
    start_time = time.perf_counter()
    check_outputs({"emit_task": emit}, overwrite)
    task = advisor.task
    first = advisor.count([[]], "counting the task")[0]
    plan, final = greedy(advisor, _counted(first), actions, limit, max_steps)
    greedy_steps = len(plan)
    if plan:
        plan = prune(advisor, plan, final)
    outcomes = advisor.count([plan[: n + 1] for n in range(len(plan))], "counting after each step")
    if outcomes and outcomes[-1].exact and outcomes[-1].count != final:  # dropping steps never lowers it
        raise RuntimeError(f"advise: the plan counts {outcomes[-1].count}, the search said {final}")
    last = outcomes[-1] if outcomes else first
    final = _counted(last) if outcomes else final
    modified, text = _modified(task, plan, last)
    # Verify on what a reader gets: the emitted text, loaded as a task file and counted afresh.
    reloaded = task_from_dict(yaml.safe_load(text), modified.name)
    check = advisor.count_tasks([reloaded], "re-counting the modified task", Method.AUTO)[0]
    if check.exact and last.exact and check.count != last.count:
        raise RuntimeError(f"advise: the modified task counts {check.count}, the plan {last.count}")
    if emit:
        write_output(emit, text, "emit_task", overwrite)
    steps = [
        {
            "action": s.action,
            "row": None if s.row is None else list(s.row),
            "concept": s.concept,
            "text": step_text(task, s),
            "count": o.count,
            "exact": o.exact,
        }
        for s, o in zip(plan, outcomes)
    ]
    return Advice(
        task.name,
        advisor.mode,
        {"count": first.count, "exact": first.exact},
        list(actions),
        limit,
        steps,
        greedy_steps,
        final,
        {"count": check.count, "exact": check.exact, "method": str(check.method)},
        emit,
        task_data(modified),
        advisor.counts,
        round(time.perf_counter() - start_time, 6),
    )


def _counted(outcome: CountOutcome) -> int:
    """The count of an outcome that succeeded (Advisor.count_tasks raises on the others)."""
    if outcome.count is None:
        raise RuntimeError(f"advise: a failed count was not reported: {outcome.error}")
    return outcome.count


def _modified(task: Task, plan: list[Step], last: CountOutcome) -> tuple[Task, str]:
    """The task after `plan`, named `<task>-advised`, pinning the count it was verified to have
    (when exact, so that `rscount check` confirms it), and its task-file text."""
    modified = apply_steps(task, plan).renamed(f"{task.name}-advised")
    modified = modified.with_expect({"count": _counted(last)} if last.exact else {})
    comments = [f"{task.name} changed by `rscount advise` (greedy plan of {len(plan)} steps):"]
    comments += [f"  {n}. {step_text(task, s)}" for n, s in enumerate(plan, start=1)]
    return modified, task_yaml(modified, comments)
