"""Advice (`rscount advise`, `rscount.advise`): the cheapest change of the training data that
leaves at most a target number of optimal maps, and whether it is proved cheapest.

The steps are in rscount.insight.steps (supervise, add, annotate, annotate-one). For the target of
no shortcut (disentangled and objects modes), SAT finds the plan and proves it cheapest among the
candidate steps without counting (rscount.insight.plan_hitting). For other targets and modes, every
allowed step at once decides whether any plan can reach the target; then a greedy search: each step
tries candidates of each kind and keeps the one whose modified task counts fewest optimal maps
(ties: supervise, add, annotate, annotate-one; rows in support or domain order), until the target,
a stall or the step limit; steps the final count does not need are dropped (last first). Its cost
bounds the exact search (rscount.insight.plan_search), which proves the cheapest plan or says what
it proved when its budget or the time limit stops it. Either way, the modified task is written out
(the task file edited, rscount.formats.task_files.editing), read back and counted again, and the
count after each step is reported when time allows.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ..counting.jobs import CountOutcome
from ..counting.settings import Method
from ..errors import InternalError, InvalidSetting, TimeLimitExceeded
from ..formats.task_files import files_read
from ..formats.task_files.editing import edited_task_file
from ..formats.task_files.writing import task_yaml
from ..knowledge.loading import task_from_dict
from ..outputs import check_outputs, write_output
from ..task.model import Mode, Task
from .explain import describe_map, map_text
from .maps import ConceptMap
from .plan_counts import Advisor, counted
from .plan_sat import sat_search
from .plan_search import Costs, SearchState, candidate_steps, moves, search
from .simplest import Counted
from .steps import (
    ACTIONS,
    ADD,
    ANNOTATE,
    ANNOTATE_ONE,
    SUPERVISE,
    Step,
    annotation_label,
    apply_steps,
    step_text,
)

SAT_MODES = (Mode.DISENTANGLED, Mode.OBJECTS)  # where a plan for target 1 is found by SAT
SAT_STEPS_MAX = 50_000  # candidate steps the SAT route takes all of (vlol-theoryx-2: 39106 in 15 s)
DRAWN_ROWS = 1000  # rows the SAT route may add where the concept space is too large to list
FIRST_COUNT_SHARE = 0.25  # of the time, for the count as given before the SAT route (small counts list)
SEARCH_BUDGET = 2000  # plans the exact search counts by default (XOR-3, one example: 760 to prove 4 steps)


@dataclass(frozen=True)
class AdviseSettings:
    """What a plan may do and how it is looked for: the kinds of step allowed (`actions`), the
    candidates of each kind a greedy step counts first (`candidates`), the greedy plan's length
    limit, the optimal maps a plan may leave (`target`), what each kind of step costs, the plans
    the exact search may count (`budget`), and whether to count plans even where SAT could search
    (`by_counts`: target 1 in the disentangled and objects modes)."""

    actions: tuple[str, ...] = ACTIONS
    candidates: int = 40
    max_steps: int = 100
    target: int = 1
    costs: Costs = field(default_factory=Costs)
    budget: int = SEARCH_BUDGET
    by_counts: bool = False


@dataclass(frozen=True)
class TaskOutput:
    """Where the modified task is written (`path`; None: nowhere), whether it may replace an existing
    file, and the task file it is edited from (`source`; None: a new file of the task)."""

    path: str | None = None
    overwrite: bool = False
    source: str | None = None


def _best(
    advisor: Advisor, plan: list[Step], tries: list[Step], what: str
) -> tuple[Step, CountOutcome] | None:
    if not tries:
        return None
    outcomes = advisor.count([[*plan, s] for s in tries], what)
    n = min(range(len(tries)), key=lambda n: counted(outcomes[n]))
    return tries[n], outcomes[n]


def greedy(
    advisor: Advisor, start: int, settings: AdviseSettings, state: SearchState | None = None
) -> tuple[list[Step], int]:
    """Greedy steps until `settings.target` optimal maps, a stall or `settings.max_steps`; returns
    the plan and its count, which `state` (if given) also holds after every step, for a time limit
    to find. Candidates are drawn with the advisor's seed."""
    plan: list[Step] = []
    current = start
    rng = random.Random(advisor.settings.seed)
    while current > settings.target and len(plan) < settings.max_steps:
        first, rest = candidate_steps(advisor.task, plan, settings.actions, rng, settings.candidates)
        what = f"step {len(plan) + 1} (optimal maps now {current}): candidates counted"
        best = _best(advisor, plan, first, what)
        if best is None or counted(best[1]) >= current:
            best = _best(advisor, plan, rest, what + " (the rest)") or best
        if best is None or counted(best[1]) >= current:
            break
        plan.append(best[0])
        current = counted(best[1])
        if state is not None:
            state.plan, state.count = list(plan), current
    return plan, current


def prune(advisor: Advisor, plan: list[Step], final: int) -> list[Step]:
    """Drop steps, last first, whose removal keeps the count at `final` (an added example goes
    together with its supervision, if the plan supervises it too)."""
    kept = list(plan)
    for step in reversed(plan):
        if step not in kept:
            continue
        trial = [s for s in kept if s is not step and not (step.action == ADD and s.row == step.row)]
        if trial and counted(advisor.count([trial], "dropping redundant steps")[0]) <= final:
            kept = trial
    return kept


@dataclass
class Advice:
    """What advise found: the count as given, the plan (each step with the count after it, when
    recounted), the final count, whether the plan is proved cheapest (`minimal`) and the cost below
    which no plan reaches the target (`bound`), the search ({"greedy_steps", "counted", "complete",
    "why", ...}), the modified task's verification ({"count", "exact", "method"}; None when the
    search was stopped), where it was written and the task file's mapping."""

    task: str
    mode: Mode
    start: dict[str, Any]
    actions: list[str]
    candidates: int
    target: int
    costs: dict[str, int]
    plan: list[dict[str, Any]]
    final_count: int | None
    minimal: bool
    bound: int
    search: dict[str, Any]
    stopped: bool
    verified: dict[str, Any] | None
    emitted: str | None
    task_file: dict[str, Any] | None = field(repr=False)
    counts: int = 0
    seconds: float = 0.0
    extractor: str | None = None  # the extractor the count assumes (None: joint and jrs modes)

    @property
    def reached(self) -> bool:
        """Whether the plan brings the task to at most `target` optimal maps (a search stopped by
        its time limit may give a best plan that does not)."""
        return self.final_count is not None and self.final_count <= self.target

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `rscount advise --json`, with `reached`."""
        return {**asdict(self), "mode": str(self.mode), "reached": self.reached}


def advise(
    advisor: Advisor, settings: AdviseSettings | None = None, output: TaskOutput | None = None
) -> Advice:
    """The cheapest plan that brings the advisor's task to at most `settings.target` optimal maps: a
    greedy plan (pruned) first, then the exact search below its cost (plan_search); the count after
    each step, and the modified task verified by recounting it as written (to `output.path`: the task
    file `output.source` edited, when given). A time limit stops the search with the best plan found
    and what was proved (`stopped`)."""
    start_time = time.perf_counter()
    settings = settings or AdviseSettings()
    output = output or TaskOutput()
    inputs = [] if output.source is None else files_read(advisor.task, output.source)
    check_outputs({"emit_task": output.path}, output.overwrite, inputs)  # never over the task read
    if settings.target < 1:
        raise InvalidSetting("target", f"must be at least 1, not {settings.target}")
    task = advisor.task
    by_sat = settings.target == 1 and advisor.mode in SAT_MODES and not settings.by_counts
    state = SearchState([], None)
    search_info: dict[str, Any] = {"greedy_steps": 0}
    if task.program is not None and ANNOTATE in settings.actions:  # its labels are the program's queries
        settings = replace(settings, actions=tuple(a for a in settings.actions if a != ANNOTATE))
        search_info["left_out"] = f"{ANNOTATE}: a label of {task.program} is a query added to the program"
    stopped = False
    first: CountOutcome | None = None
    try:
        if by_sat:  # a count that takes long is counted afterwards, beside the verifying count
            first = advisor.first_count(FIRST_COUNT_SHARE)
        else:
            first = advisor.count([[]], "counting the task")[0]
        if first is not None and (first.exact or not by_sat) and counted(first) <= settings.target:
            state.count, state.minimal, state.complete, state.bound = counted(first), True, True, 0
        elif by_sat:
            shortcuts = None
            if first is not None and first.exact:
                shortcuts = Counted(counted(first) - 1, first.nodes, first.method, first.classes, first.maps)
            _plan_by_sat(advisor, settings, state, search_info, shortcuts)
        elif first is not None:
            state.count = counted(first)
            _plan(advisor, settings, state, search_info)
    except TimeLimitExceeded:
        stopped = True
        state.why = "stopped by the time limit"
    plan = state.plan or []
    outcomes: list[CountOutcome | None] = []
    verified = None
    pin = state.count if state.minimal or state.exact else None
    modified, text, base = _modified(task, plan, pin, output.source)
    try:  # the verifying count first; the count as given (SAT did not need it) and after each step next
        if state.plan is not None and state.count is not None:
            check = _verified(advisor, modified, text, base, state)
            if check.exact != (pin is not None):  # pin what was verified exactly, nothing else
                modified, text, base = _modified(
                    task, plan, check.count if check.exact else None, output.source
                )
            verified = {"count": check.count, "exact": check.exact, "method": str(check.method)}
            if not plan:
                first = check
        prefixes = [plan[: n + 1] for n in range(len(plan) - 1)] if verified and not stopped else []
        given: list[list[Step]] = [[]] if first is None else []
        batch = advisor.count(given + prefixes, "counting the task and each step") if given + prefixes else []
        if first is None:
            first, *batch = batch
        if verified and plan:  # the whole plan's count is the last step's; the others only if all counted
            outcomes = [*(batch if len(batch) == len(plan) - 1 else [None] * (len(plan) - 1)), check]
    except TimeLimitExceeded:
        unverified = state.plan is not None and state.count is not None and verified is None
        given_done = "the counts after each step" if first is not None else "the count as given"
        search_info["not_done"] = "the recount verifying the plan" if unverified else given_done
    if output.path:
        write_output(output.path, text, "emit_task", output.overwrite)
    steps = [
        {
            "action": s.action,
            "row": None if s.row is None else list(s.row),
            "concept": s.concept,
            "text": step_text(task, s),
            "cost": settings.costs.of(s),
            "count": o.count if o else None,
            "exact": o.exact if o else None,
        }
        for s, o in zip(plan, [*outcomes, *[None] * (len(plan) - len(outcomes))])
    ]
    search_info.update(
        counted=state.counted, complete=state.complete, why=state.why, levels_exhausted=state.levels
    )
    return Advice(
        task=task.name,
        mode=advisor.mode,
        extractor=task.extractor_name(advisor.mode),
        start={"count": None, "exact": False}
        if first is None
        else {"count": first.count, "exact": first.exact},
        actions=list(settings.actions),
        candidates=settings.candidates,
        target=settings.target,
        costs=settings.costs.by_kind(),
        plan=steps,
        final_count=state.count,
        minimal=state.minimal,
        bound=state.bound,
        search=search_info,
        stopped=stopped,
        verified=verified,
        emitted=output.path,
        task_file=yaml.safe_load(text) if not stopped else None,
        counts=advisor.counts,
        seconds=round(time.perf_counter() - start_time, 6),
    )


def _verified(advisor: Advisor, modified: Task, text: str, base: Path, state: SearchState) -> CountOutcome:
    """The modified task counted afresh as a reader gets it (its task file's `text`, loaded from
    `base`), which must agree with what the search says it counts."""
    reloaded = task_from_dict(yaml.safe_load(text), modified.name, base)
    check = advisor.count_tasks([reloaded], "re-counting the modified task", Method.AUTO)[0]
    if check.exact and (state.exact or state.minimal) and check.count != state.count:
        raise InternalError(f"advise: the modified task counts {check.count}, the search said {state.count}")
    return check


def _plan_by_sat(
    advisor: Advisor,
    settings: AdviseSettings,
    state: SearchState,
    info: dict[str, Any],
    shortcuts: Counted | None,
) -> None:
    """Fill `state` by the SAT route (target 1, plan_hitting; `shortcuts`: their number, when the
    count is known) over every step allowed, or where there are more than SAT_STEPS_MAX of them (or
    the concept space is too large to list), every step on the support's rows and up to DRAWN_ROWS
    rows drawn to add."""
    task = advisor.task
    steps = moves(task, settings.actions)
    info["candidates_are"] = "every step allowed"
    if steps is None or len(steps) > SAT_STEPS_MAX:
        seed = advisor.settings.seed
        first, rest = candidate_steps(task, [], settings.actions, random.Random(seed), DRAWN_ROWS // 4)
        steps = first + rest
        info["candidates_are"] = (
            f"every step on the support's rows, and adding one of up to {DRAWN_ROWS} rows drawn (seed {seed})"
        )
    info["candidates"] = len(steps)
    try:
        sat_search(advisor, steps, settings.costs, state, info, shortcuts)
    finally:
        unkillable = info.pop("unkillable", None)
        if isinstance(unkillable, ConceptMap):
            info["unkillable"] = map_text(describe_map(task, unkillable))


def _plan(advisor: Advisor, settings: AdviseSettings, state: SearchState, info: dict[str, Any]) -> None:
    """Fill `state`: whether any plan can reach the target (all steps at once), the greedy plan,
    then the exact search below it."""
    target, costs = settings.target, settings.costs
    steps = moves(advisor.task, settings.actions)
    if steps is not None:
        everything = counted(advisor.count([steps], "counting with every step allowed")[0])
        info["fewest_reachable"] = everything
        if everything > target:
            state.plan, state.count, state.complete = steps, everything, True
            state.why = f"no plan reaches {target}: with every step allowed the task still has {everything}"
            state.bound = costs.total(steps) + 1
            return
    plan, final = greedy(advisor, state.count or 0, settings, state)
    info["greedy_steps"] = len(plan)
    if plan and final <= target:
        plan = prune(advisor, plan, final)
    state.plan, state.count = plan, final
    if steps is None:
        state.why = "the concept space is too large to list every step: the greedy plan, not proved"
        return
    search(advisor, steps, costs, target, state, settings.budget)


def _modified(task: Task, plan: list[Step], pin: int | None, source: str | None) -> tuple[Task, str, Path]:
    """The task after `plan` pinning the exact count `pin` it was verified to have (so that `rscount
    check` confirms it), the text of its task file and the directory that file's paths are relative
    to: the original file (`source`) edited where it is a YAML task file, else a new file of the task
    named `<task>-advised`."""
    modified = apply_steps(task, plan).with_expect({"count": pin} if pin is not None else {})
    comments = [f"{task.name} changed by `rscount advise` (plan of {len(plan)} steps):"]
    comments += [f"  {n}. {step_text(task, s)}" for n, s in enumerate(plan, start=1)]
    if source is not None:
        added = [s.row for s in plan if s.action == ADD and s.row is not None]
        supervised = [s.row for s in plan if s.action == SUPERVISE and s.row is not None]
        annotated = {
            annotation_label(task, s.concept): s.concept for s in plan if s.action == ANNOTATE and s.concept
        }
        partial = [(s.row, s.concept) for s in plan if s.action == ANNOTATE_ONE and s.row and s.concept]
        text = edited_task_file(Path(source), modified, added, supervised, partial, annotated, pin, comments)
        if text is not None:
            return modified, text, Path(source).parent
    modified = modified.renamed(f"{task.name}-advised")
    return modified, task_yaml(modified, comments), Path(".")
