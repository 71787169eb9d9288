"""The candidate steps of advise's plans (every step, `moves`; or drawn, `candidate_steps`) and the
cheapest plan that brings a task down to a target count by counting plans (the exact search).

A plan is a set of steps: adding rows, supervising rows and annotating concepts commute, and
supervising a row the task lacks needs the step that adds it. Every step adds constraints, so the
count never rises along a plan, and applying every step allowed gives the fewest maps any plan can
reach: when even that misses the target, no plan exists (proved by one count). Otherwise plans are
counted level by level in increasing total cost, so the first one that reaches the target is the
cheapest; a search cut by its budget or the time limit has proved that no plan costs less than the
level it was on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from ..errors import InvalidSetting, quote
from ..task.model import Task
from ..task.support import all_rows, decode, domain_size
from .plan_counts import Advisor, counted
from .steps import ADD, ANNOTATE, ANNOTATE_ONE, SUPERVISE, Step, addable, annotation_label, apply_steps

LISTED_ROWS_MAX = 100_000  # candidate rows are listed up to this many concept vectors, else sampled
LISTED_MOVES_MAX = 100_000  # concept vectors of a space whose every add and supervise step is listed
CHUNK = 64  # plans counted in one batch


@dataclass(frozen=True)
class Costs:
    """What each kind of step costs (positive integers; default 1 each: fewest steps)."""

    add: int = 1
    supervise: int = 1
    annotate: int = 1
    annotate_one: int = 1

    def of(self, step: Step) -> int:
        """The cost of one step."""
        return self.by_kind()[step.action]

    def by_kind(self) -> dict[str, int]:
        """Kind of step -> cost."""
        return {
            ADD: self.add,
            SUPERVISE: self.supervise,
            ANNOTATE: self.annotate,
            ANNOTATE_ONE: self.annotate_one,
        }

    def total(self, plan: Sequence[Step]) -> int:
        """The cost of a plan."""
        return sum(self.of(s) for s in plan)

    @classmethod
    def parse(cls, text: str) -> Costs:
        """Costs from `add=1,supervise=3` (kinds not named cost 1)."""
        found: dict[str, int] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            kind, _, value = part.partition("=")
            kind = kind.strip()
            if kind not in (ADD, SUPERVISE, ANNOTATE, ANNOTATE_ONE):
                kinds = ", ".join((ADD, SUPERVISE, ANNOTATE, ANNOTATE_ONE))
                raise InvalidSetting("cost", f"{quote(kind)} is not one of {kinds}")
            try:
                found[kind] = int(value)
            except ValueError:
                raise InvalidSetting("cost", f"{kind}={quote(value)}: expected a whole number") from None
            if found[kind] < 1:
                raise InvalidSetting("cost", f"{kind}={found[kind]}: costs are at least 1")
        return cls(**{kind.replace("-", "_"): cost for kind, cost in found.items()})


def moves(task: Task, actions: Sequence[str]) -> list[Step] | None:
    """Every step a plan may take, adds before the supervision and annotation of added rows; None
    when the concept space is too large to list its vectors (the search cannot be exhaustive)."""
    support = task.support
    if not support.exhaustive and domain_size(task.ground_truths) > LISTED_MOVES_MAX:
        return None
    present = set(support.rows)
    missing = (
        []
        if support.exhaustive
        else addable(task, [r for r in all_rows(task.ground_truths) if r not in present])
    )
    found: list[Step] = []
    if ADD in actions:
        found += [Step(ADD, r) for r in missing]
    if SUPERVISE in actions:
        found += [Step(SUPERVISE, r) for r in support.rows if r not in support.supervised]
        if ADD in actions:
            found += [Step(SUPERVISE, r) for r in missing]
    if ANNOTATE in actions:
        done = {name for name in task.names if annotation_label(task, name) != f"{name}_annotated"}
        found += [Step(ANNOTATE, concept=n) for n in task.names if n not in done]
    if ANNOTATE_ONE in actions:
        found += [
            Step(ANNOTATE_ONE, r, name)
            for r in support.rows
            if r not in support.supervised
            for k, name in enumerate(task.names)
            if k not in support.supervised_on(r)
        ]
        if ADD in actions:
            found += [Step(ANNOTATE_ONE, r, name) for r in missing for name in task.names]
    return found


def candidate_steps(
    task: Task, plan: Sequence[Step], actions: Sequence[str], rng: random.Random, candidates: int
) -> tuple[list[Step], list[Step]]:
    """The steps to try after `plan`: up to `candidates` of each action drawn at random, then the
    rest (tried only when none of the first lowers the count). Rows of large concept spaces are
    sampled."""
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
        drawn = {decode(rng.randrange(domain_size(domains)), domains) for _ in range(4 * candidates)}
        unsupervised = [r for r in sorted(drawn) if r not in support.supervised]
    else:
        unsupervised = [r for r in support.rows if r not in support.supervised]
    pools[SUPERVISE] = [Step(SUPERVISE, r) for r in unsupervised]
    pools[ANNOTATE_ONE] = [
        Step(ANNOTATE_ONE, r, name)
        for r in unsupervised
        for k, name in enumerate(now.names)
        if k not in support.supervised_on(r)
    ]
    if not support.exhaustive:
        rows = set(support.rows)
        if listed:
            pools[ADD] = [Step(ADD, r) for r in addable(now, [r for r in all_rows(domains) if r not in rows])]
        else:
            drawn = {decode(rng.randrange(domain_size(domains)), domains) for _ in range(4 * candidates)}
            pools[ADD] = [
                Step(ADD, r) for r in addable(now, [r for r in sorted(drawn, key=str) if r not in rows])
            ]
    first: list[Step] = []
    rest: list[Step] = []
    for action in actions:
        pool = pools[action]
        chosen = (
            set(rng.sample(range(len(pool)), candidates)) if len(pool) > candidates else set(range(len(pool)))
        )
        first += [s for n, s in enumerate(pool) if n in chosen]
        rest += [s for n, s in enumerate(pool) if n not in chosen]
    return first, rest


def plans_costing(task: Task, steps: Sequence[Step], costs: Costs, level: int) -> Iterator[list[Step]]:
    """Every valid plan (a set of `steps`, in their order) whose cost is exactly `level`: a plan
    supervising or annotating a row the task lacks also adds it."""
    present = set(task.support.rows)
    chosen: list[Step] = []
    added: set[tuple[object, ...] | None] = set()

    def extend(start: int, left: int) -> Iterator[list[Step]]:
        if left == 0:
            yield list(chosen)
            return
        for n in range(start, len(steps)):
            step = steps[n]
            cost = costs.of(step)
            if cost > left:
                continue
            if step.action in (SUPERVISE, ANNOTATE_ONE) and step.row not in present and step.row not in added:
                continue
            chosen.append(step)
            if step.action == ADD:
                added.add(step.row)
            yield from extend(n + 1, left - cost)
            chosen.pop()
            if step.action == ADD:  # only its own add step makes a row present
                added.discard(step.row)

    yield from extend(0, level)


@dataclass
class SearchState:
    """What the search has established: the best plan (None: none reaches the target), its count
    (`exact`: proved, as SAT proves it), whether it is proved cheapest, `bound` (no plan reaching
    the target costs less), plans counted, and whether the search ran to its end."""

    plan: list[Step] | None
    count: int | None
    minimal: bool = False
    bound: int = 1
    counted: int = 0
    complete: bool = False
    why: str = ""
    levels: list[int] = field(default_factory=list)
    exact: bool = False


def search(
    advisor: Advisor, steps: Sequence[Step], costs: Costs, target: int, state: SearchState, budget: int
) -> None:
    """Count plans level by level in increasing cost, below the cost of `state`'s plan when it
    reaches `target`, until one reaches it (then the cheapest, proved if every count was exact),
    the levels run out, or `budget` plans have been counted. `state` holds what is proved at any
    moment, so a time limit (TimeLimitExceeded from a count) leaves it true."""
    reaches = state.count is not None and state.count <= target
    ceiling = costs.total(state.plan or []) if reaches else costs.total(steps) + 1
    exact = True
    while state.bound < ceiling:
        level = state.bound
        plans = plans_costing(advisor.task, steps, costs, level)
        while chunk := list(islice(plans, min(CHUNK, budget - state.counted) or 1)):
            if state.counted == budget:
                state.why = f"stopped at its budget of {budget} counted plans"
                return
            what = f"exact search, plans costing {level} ({state.counted} counted)"
            outcomes = advisor.count(chunk, what)
            state.counted += len(chunk)
            exact = exact and all(o.exact for o in outcomes)
            for plan, outcome in zip(chunk, outcomes):
                if counted(outcome) <= target:
                    state.plan, state.count, state.minimal, state.complete = plan, outcome.count, exact, True
                    return
        state.levels.append(level)
        state.bound = level + 1
    state.complete = True
    state.minimal = reaches and exact
