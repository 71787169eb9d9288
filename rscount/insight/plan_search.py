"""The cheapest plan that brings a task down to a target count (advise's exact search).

A plan is a set of steps: adding rows, supervising rows and annotating concepts commute, and
supervising a row the task lacks needs the step that adds it. Every step adds constraints, so the
count never rises along a plan, and applying every step allowed gives the fewest maps any plan can
reach: when even that misses the target, no plan exists (proved by one count). Otherwise plans are
counted level by level in increasing total cost, so the first one that reaches the target is the
cheapest; a search cut by its budget or the time limit has proved that no plan costs less than the
level it was on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..errors import InvalidSetting, quote
from ..task.model import Task
from ..task.support import all_rows, domain_size
from .steps import ADD, ANNOTATE, SUPERVISE, Step, annotation_label

LISTED_MOVES_MAX = 100_000  # concept vectors of a space whose every add and supervise step is listed
CHUNK = 64  # plans counted in one batch


@dataclass(frozen=True)
class Costs:
    """What each kind of step costs (positive integers; default 1 each: fewest steps)."""

    add: int = 1
    supervise: int = 1
    annotate: int = 1

    def of(self, step: Step) -> int:
        """The cost of one step."""
        return {ADD: self.add, SUPERVISE: self.supervise, ANNOTATE: self.annotate}[step.action]

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
            if kind not in (ADD, SUPERVISE, ANNOTATE):
                raise InvalidSetting("cost", f"{quote(kind)} is not one of {ADD}, {SUPERVISE}, {ANNOTATE}")
            try:
                found[kind] = int(value)
            except ValueError:
                raise InvalidSetting("cost", f"{kind}={quote(value)}: expected a whole number") from None
            if found[kind] < 1:
                raise InvalidSetting("cost", f"{kind}={found[kind]}: costs are at least 1")
        return cls(**found)

    def text(self) -> str:
        """`add=1, supervise=3, annotate=1`."""
        return f"{ADD}={self.add}, {SUPERVISE}={self.supervise}, {ANNOTATE}={self.annotate}"


def moves(task: Task, actions: Sequence[str]) -> list[Step] | None:
    """Every step a plan may take, adds before supervisions; None when the concept space is too
    large to list its vectors (the search then cannot be exhaustive)."""
    support = task.support
    if not support.exhaustive and domain_size(task.domains) > LISTED_MOVES_MAX:
        return None
    present = set(support.rows)
    missing = [] if support.exhaustive else [r for r in all_rows(task.domains) if r not in present]
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
    return found


def plans_costing(task: Task, steps: Sequence[Step], costs: Costs, level: int) -> Iterator[list[Step]]:
    """Every valid plan (a set of `steps`, in their order) whose cost is exactly `level`: a plan
    supervising a row the task lacks also adds it."""
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
            if step.action == SUPERVISE and step.row not in present and step.row not in added:
                continue
            chosen.append(step)
            if step.action == ADD:
                added.add(step.row)
            yield from extend(n + 1, left - cost)
            chosen.pop()
            added.discard(step.row)

    yield from extend(0, level)


@dataclass
class SearchState:
    """What the search has established: the best plan (None: none reaches the target), its count,
    whether it is proved cheapest, `bound` (no plan reaching the target costs less), plans
    counted, and whether the search ran to its end."""

    plan: list[Step] | None
    count: int | None
    minimal: bool = False
    bound: int = 1
    counted: int = 0
    complete: bool = False
    why: str = ""
    levels: list[int] = field(default_factory=list)
