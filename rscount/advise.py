"""`rscount advise`: a small change of the training data that leaves no reasoning shortcut.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .countjob import CountJob, CountOutcome, run_count
from .errors import RscountError
from .expr import var
from .maps import optimal_maps
from .parallel import run_jobs
from .progress import Progress
from .report import count_text
from .support import Support, all_rows, decode, domain_size
from .task import Task
from .taskdump import refuse_existing, task_data, task_yaml, write_new
from .taskfile import task_from_dict

SUPERVISE, ADD, ANNOTATE = "supervise", "add", "annotate"
ACTIONS = (SUPERVISE, ADD, ANNOTATE)
LISTED_ROWS_MAX = 100_000  # candidate rows are listed up to this many concept vectors, else sampled


@dataclass(frozen=True)
class Step:
    """One change of the task: supervise or add `row`, or annotate `concept` on every example."""

    action: str
    row: tuple | None = None
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
    rows = None if support.exhaustive else list(support.rows)
    supervised = list(support.supervised)
    labels = dict(task.labels)
    for step in steps:
        if step.action == ADD:
            rows.append(step.row)
        elif step.action == SUPERVISE:
            supervised.append(step.row)
        else:
            labels[annotation_label(task, step.concept)] = var(step.concept)
    new_support = Support(support.domains, rows, supervised)
    return Task(task.name, task.concepts, labels, new_support, task.description, task.objects, task.mode)


def step_text(task: Task, step: Step) -> str:
    """A step as a person reads it: `add example d1=5, d2=6 (sum=11)`."""
    if step.action == ANNOTATE:
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
    """Counts modified tasks (through `run_jobs`, under one overall time limit) and keeps score."""

    task: Task
    mode: str
    method: str
    epsilon: float
    delta: float
    seed: int
    timeout: float | None
    jobs: int | None = None
    dask: str | None = None
    progress: Progress | None = None
    counts: int = 0

    def __post_init__(self) -> None:
        self.deadline = None if self.timeout is None else time.monotonic() + self.timeout

    def remaining(self) -> float | None:
        """Seconds left of the time limit (None: no limit); an error once it has passed."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise RscountError(f"advise: stopped after the time limit of {self.timeout:g} s (--timeout)")
        return left

    def count(self, plans: Sequence[Sequence[Step]], what: str) -> list[CountOutcome]:
        """Count the task after each plan; a failed count (time limit included) is an error."""
        return self.count_tasks([apply_steps(self.task, p) for p in plans], what)

    def count_tasks(self, tasks: Sequence[Task], what: str, method: str | None = None) -> list[CountOutcome]:
        """Count tasks (by `method`, default the advisor's); a failed count is an error."""
        left = self.remaining()
        how = (self.mode, method or self.method, self.epsilon, self.delta, self.seed, left)
        outcomes = run_jobs(
            run_count, [CountJob(t, *how) for t in tasks], self.jobs, self.dask, self.progress, what
        )
        self.counts += len(outcomes)
        for outcome in outcomes:
            if outcome.error is not None:
                raise RscountError(f"advise: {outcome.error}")
        return outcomes


def _best(
    advisor: Advisor, plan: list[Step], tries: list[Step], what: str
) -> tuple[Step, CountOutcome] | None:
    if not tries:
        return None
    outcomes = advisor.count([[*plan, s] for s in tries], what)
    n = min(range(len(tries)), key=lambda n: outcomes[n].count)
    return tries[n], outcomes[n]


def greedy(
    advisor: Advisor, start: int, actions: Sequence[str], limit: int, max_steps: int
) -> tuple[list[Step], int]:
    """Greedy steps until 1 optimal map, a stall or `max_steps`; returns the plan and its count.
    Candidates are drawn with the advisor's seed."""
    plan: list[Step] = []
    current = start
    rng = random.Random(advisor.seed)
    while current > 1 and len(plan) < max_steps:
        first, rest = candidates(advisor.task, plan, actions, rng, limit)
        what = f"step {len(plan) + 1} (optimal maps now {current}): candidates counted"
        best = _best(advisor, plan, first, what)
        if best is None or best[1].count >= current:
            best = _best(advisor, plan, rest, what + " (the rest)") or best
        if best is None or best[1].count >= current:
            break
        plan.append(best[0])
        current = best[1].count
    return plan, current


def prune(advisor: Advisor, plan: list[Step], final: int) -> list[Step]:
    """Drop steps, last first, whose removal keeps the count at `final` (an added example goes
    together with its supervision, if the plan supervises it too)."""
    kept = list(plan)
    for step in reversed(plan):
        if step not in kept:
            continue
        trial = [s for s in kept if s is not step and not (step.action == ADD and s.row == step.row)]
        if trial and advisor.count([trial], "dropping redundant steps")[0].count <= final:
            kept = trial
    return kept


def advise(
    advisor: Advisor,
    actions: Sequence[str],
    limit: int,
    max_steps: int,
    emit: str | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """The record `rscount advise` prints: the plan, the count after each step, its verification."""
    start_time = time.perf_counter()
    if emit:
        refuse_existing(emit, force, "--emit-task")
    task = advisor.task
    first = advisor.count([[]], "counting the task")[0]
    plan, final = greedy(advisor, first.count, actions, limit, max_steps)
    greedy_steps = len(plan)
    if plan:
        plan = prune(advisor, plan, final)
    outcomes = advisor.count([plan[: n + 1] for n in range(len(plan))], "counting after each step")
    if outcomes and outcomes[-1].exact and outcomes[-1].count != final:  # dropping steps never lowers it
        raise RuntimeError(f"advise: the plan counts {outcomes[-1].count}, the search said {final}")
    final = outcomes[-1].count if outcomes else final
    modified = apply_steps(task, plan)
    modified.name = f"{task.name}-advised"
    last = outcomes[-1] if outcomes else first
    if last.exact:  # the emitted file pins the count it was verified to have (`rscount check`)
        modified.expect = {"count": last.count}
    comments = [f"{task.name} changed by `rscount advise` (greedy plan of {len(plan)} steps):"]
    comments += [f"  {n}. {step_text(task, s)}" for n, s in enumerate(plan, start=1)]
    text = task_yaml(modified, comments)
    # Verify on what a reader gets: the emitted text, loaded as a task file and counted afresh.
    reloaded = task_from_dict(yaml.safe_load(text), modified.name, Path("."))
    check = advisor.count_tasks([reloaded], "re-counting the modified task", "auto")[0]
    if check.exact and last.exact and check.count != last.count:
        raise RuntimeError(f"advise: the modified task counts {check.count}, the plan {last.count}")
    if emit:
        write_new(emit, text, force, "--emit-task")
    return {
        "task": task.name,
        "mode": advisor.mode,
        "start": {"count": first.count, "exact": first.exact},
        "actions": list(actions),
        "candidates_per_action": limit,
        "plan": [
            {
                "action": s.action,
                "row": None if s.row is None else list(s.row),
                "concept": s.concept,
                "text": step_text(task, s),
                "count": o.count,
                "exact": o.exact,
            }
            for s, o in zip(plan, outcomes)
        ],
        "greedy_steps": greedy_steps,
        "final_count": final,
        "verified": {"count": check.count, "exact": check.exact, "method": check.method},
        "emitted": emit,
        "task_file": task_data(modified),
        "counts": advisor.counts,
        "seconds": round(time.perf_counter() - start_time, 6),
    }


def advise_text(record: dict[str, Any]) -> str:
    """The record of `advise` as lines a person reads."""
    start = record["start"]
    lines = [
        f"task {record['task']} ({record['mode']} count): {count_text(start['count'])} optimal maps as given"
    ]
    if start["count"] <= 1:
        lines.append("nothing to do: the task has no reasoning shortcuts")
        return "\n".join(lines)
    lines.append(
        "greedy search over: "
        + ", ".join(
            {
                SUPERVISE: "concept-supervising a support row",
                ADD: "adding a concept combination",
                ANNOTATE: "annotating one concept on every example",
            }[a]
            for a in record["actions"]
        )
        + f" ({record['candidates_per_action']} candidates of each kind per step; the rest if none helps)"
    )
    plan = record["plan"]
    final = record["final_count"]
    dropped = record["greedy_steps"] - len(plan)
    if final == 1:
        steps = f"{len(plan)} step{'' if len(plan) == 1 else 's'}"
        lines.append(f"plan of {steps} ({dropped} greedy steps dropped as redundant):")
    else:
        lines.append(
            f"no plan found that removes every shortcut: no candidate lowers the count below "
            f"{count_text(final)}; the best plan ({len(plan)} steps):"
        )
    rows = [("0.", "as given", count_text(start["count"]))]
    rows += [(f"{n}.", p["text"], count_text(p["count"])) for n, p in enumerate(plan, start=1)]
    widths = [max(len(r[c]) for r in rows) for c in range(2)]
    lines.append("  " + "step".ljust(widths[0] + widths[1] + 1) + "  optimal maps after it")
    lines += [f"  {a.rjust(widths[0])} {b.ljust(widths[1])}  {c}" for a, b, c in rows]
    v = record["verified"]
    how = "exact" if v["exact"] else "approximate"
    lines.append(
        "verified: the modified task, written as a task file and read back, counts "
        f"{optimal_maps(v['count'])} ({how}, {v['method']})"
    )
    if record["emitted"]:
        lines.append(f"wrote {record['emitted']}")
    lines.append(f"{record['counts']} counts, {record['seconds']:.2f} s")
    return "\n".join(lines)
