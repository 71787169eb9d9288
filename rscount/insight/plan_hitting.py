"""advise's search for a plan that leaves only the intended map, by SAT instead of counts (an implicit
hitting set): a plan must kill every shortcut, and a step kills a map when the changed task no longer
admits it, which evaluating the knowledge on the map's images decides. So: find a shortcut that
survives the current choice of steps (one SAT call on the task's CNF, each step's constraints under a
literal of its own), note the ways to kill it, and choose the cheapest set of steps hitting every
shortcut noted so far (weighted MaxSAT, PySAT's RC2, over the steps no other replaces); when none
survives the choice, it is the cheapest plan among the candidate steps. Each choice's cost bounds
every plan from below; completing a choice greedily (the cheapest way to kill each survivor) gives
plans from above.

Steps interact in one way: annotating a concept on every example annotates the rows a plan adds too,
so annotating c together with adding a row whose image moves c kills a map neither kills alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from ..counting.processes.isolation import run_stoppable
from ..errors import InternalError, LimitReached, TimeLimitExceeded
from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import Row
from .decisions import MapSolver
from .maps import ConceptMap
from .plan_counts import Advisor
from .plan_search import Costs, SearchState
from .plan_survivors import Guards, Listed, Survivors
from .simplest import Counted, listed_shortcuts
from .steps import ADD, ANNOTATE, ANNOTATE_ONE, SUPERVISE, Step

WRITING_SHARE = 0.15  # of the time left, kept from the search for writing the task file (large supports)
SETTLE_SHARE = 0.6  # of the time left, after which a plan that works ends the search unproved
COMPLETION_MAPS = 8  # survivors one choice is completed against (greedily) before the next choice


@dataclass
class Hitting:
    """What the search established: the cheapest plan (None: none found yet), whether it is proved
    cheapest, `bound` (no plan costs less), the cheapest plan known to work (`best`), the shortcuts
    noted, the choices made, and a shortcut no candidate step kills (then no plan exists)."""

    plan: list[Step] | None = None
    minimal: bool = False
    bound: int = 0
    best: list[Step] | None = None
    maps: int = 0
    choices: int = 0
    unkillable: ConceptMap | None = field(default=None)
    listed: bool = False  # the survivors came from every shortcut listed, not from SAT calls

    def report(self) -> dict[str, object]:
        """What a time limit keeps (through Progress.known)."""
        return {
            "bound": self.bound,
            "best": self.best,
            "maps": self.maps,
            "choices": self.choices,
            "listed": self.listed,
        }


@dataclass
class _Ways:
    """The ways to kill one shortcut: single steps (their literals), and annotations that kill it
    together with any one of some add steps (annotation literal, add literals)."""

    single: list[int]
    paired: list[tuple[int, list[int]]]

    def through(self, chosen: set[int]) -> bool:
        """Whether the chosen steps kill the shortcut."""
        return any(v in chosen for v in self.single) or any(
            a in chosen and any(x in chosen for x in adds) for a, adds in self.paired
        )


def hitting_plan(
    task: Task,
    mode: Mode,
    steps: Sequence[Step],
    costs: Costs,
    progress: Progress | None = None,
    settle_by: float | None = None,
    counted: Counted | None = None,
) -> Hitting:
    """The cheapest plan of `steps` after which `task` has no shortcut in `mode` (disentangled or
    objects), proved cheapest among them; or a shortcut no step kills (no plan exists). `progress`
    hears the bounds after every choice, for a time limit to keep. Past the time `settle_by`
    (time.time()), a plan known to work ends the search unproved (`minimal` False). Given the
    number of shortcuts (`counted`) and at most LISTED_MAX of them, they are listed first
    (listed_shortcuts) and the survivors come from the list instead of SAT calls."""
    kills = _Kills(task, steps, costs)
    listed = listed_shortcuts(task, mode, counted)
    if listed is not None:
        return _hit(kills, Listed(kills.kills, listed), progress, settle_by)
    with MapSolver(task, mode) as solver:
        return _hit(kills, Guards(solver), progress, settle_by)


def _hit(kills: _Kills, survivors: Survivors, progress: Progress | None, settle_by: float | None) -> Hitting:
    """hitting_plan's loop, with the shortcuts surviving a choice of steps from `survivors`: each
    choice is an optimum over every shortcut noted so far (kills.choose)."""
    state, costs = Hitting(listed=isinstance(survivors, Listed)), kills.costs
    while True:
        chosen, cost = kills.choose()
        state.bound, state.choices = max(state.bound, cost), state.choices + 1
        plan, noted, works = chosen, 0, False
        while noted < COMPLETION_MAPS:
            survivor = survivors.survivor(plan)
            if survivor is None:
                works = True
                break
            ways = kills.ways(survivor, plan)
            if not ways.single and not ways.paired:
                state.unkillable = survivor
                return state
            kills.note(ways)
            state.maps, noted = state.maps + 1, noted + 1
            state.bound = max(state.bound, kills.cheapest(ways))  # every plan kills this one
            plan = kills.completed(plan, ways)
        if works and noted == 0:  # the choice itself leaves no shortcut: the cheapest plan
            state.plan = state.best = chosen
            state.minimal = True
            return state
        if works and (state.best is None or costs.total(plan) < costs.total(state.best)):
            state.best = plan
        if state.best is not None and costs.total(state.best) <= state.bound:  # a plan meets the bound
            state.plan, state.minimal = state.best, True
            return state
        if progress is not None:
            progress.known(**state.report())
            progress.update(
                f"advise: {state.maps} shortcuts noted, no plan costs less than {state.bound}"
                + (f", one costing {costs.total(state.best)} works" if state.best else "")
            )
        if settle_by is not None and time.time() > settle_by and state.best is not None:
            state.plan = state.best
            return state


class _Kills:
    """The candidate steps as MaxSAT literals (step n is variable n + 1, soft with its cost), per
    shortcut the ways to kill it, found by evaluating the knowledge on its images, and the ways of
    every shortcut noted so far."""

    def __init__(self, task: Task, steps: Sequence[Step], costs: Costs) -> None:
        self.task, self.steps, self.costs = task, list(steps), costs
        self.var = {s: n + 1 for n, s in enumerate(self.steps)}
        self.present = set(task.support.rows)
        self.adds = {s.row: self.var[s] for s in self.steps if s.action == ADD and s.row is not None}
        self.rows: list[Row] = [*task.support.rows, *self.adds]
        self.labels = task.labels_of(self.rows)
        self.label = dict(zip(self.rows, self.labels))
        self.seen: dict[tuple[int, int], set[tuple[int, int]]] = {}  # (i, j): value numbers on the support
        self.images: dict[tuple[ConceptMap, Row], tuple[bool, set[int]]] = {}
        self.noted: list[_Ways] = []
        self.hits: dict[int, list[int]] = {}  # step literal -> the noted shortcuts it kills alone

    def note(self, ways: _Ways) -> None:
        """Keep the ways to kill one more shortcut: every later choice kills it."""
        for v in ways.single:
            self.hits.setdefault(v, []).append(len(self.noted))
        self.noted.append(ways)

    def choose(self) -> tuple[list[Step], int]:
        """The cheapest set of candidate steps killing every shortcut noted, and its cost (no plan
        costs less): weighted MaxSAT (RC2) over the steps that kill some shortcut noted and no other
        step replaces (_kept)."""
        kept = self._kept()
        formula = WCNF()
        for v in sorted(kept):
            formula.append([-v], weight=self.costs.of(self.steps[v - 1]))
            if (row := self._lacking(v)) is not None:
                formula.append([-v, self.adds[row]])  # a step on a row the task lacks needs its add
        top = len(self.steps)
        for ways in self.noted:
            clause = [v for v in ways.single if v in kept]
            for a, adds in ways.paired:  # a new literal implying both halves of the pair
                top += 1
                clause.append(top)
                formula.extend([[-top, a], [-top, *adds]])
            formula.append(clause)
        with RC2(formula) as master:
            model = master.compute()
            if model is None:
                raise InternalError("advise: no choice of steps, yet every step is optional")
            return self.plan_of(model), master.cost

    def _kept(self) -> set[int]:
        """The steps the choice ranges over: every step that kills some shortcut noted, less the
        supervisions and annotations of one example that another kept step replaces (it kills every
        shortcut they kill, takes part in no pair and costs no more, with the add it needs unless the
        example is the same): in any plan, the replacement costs no more and kills as much, so the
        optimum over the kept steps is the optimum over all of them. Adds and annotations of a
        concept are always kept, with the adds the kept steps need."""
        masks = {v: sum(1 << k for k in shortcuts) for v, shortcuts in self.hits.items()}
        paired = {x for ways in self.noted for a, adds in ways.paired for x in (a, *adds)}
        kept: list[int] = []
        for v in sorted(masks, key=lambda v: (-masks[v].bit_count(), self._price(v, None), v)):
            s = self.steps[v - 1]
            replaceable = s.action in (SUPERVISE, ANNOTATE_ONE) and v not in paired
            if not replaceable or not any(
                masks[v] & ~masks[u] == 0 and self._price(u, s.row) <= self.costs.of(s) for u in kept
            ):
                kept.append(v)
        chosen = {*kept, *paired}
        return chosen | {self.adds[r] for r in (self._lacking(v) for v in chosen) if r is not None}

    def _lacking(self, v: int) -> Row | None:
        """The example a step on a row the task lacks is on (its add needed), else None."""
        s = self.steps[v - 1]
        needs = s.action in (SUPERVISE, ANNOTATE_ONE) and s.row is not None and s.row not in self.present
        return s.row if needs else None

    def _price(self, v: int, row: Row | None) -> int:
        """What taking step v costs in a plan that has the example `row` (None: no example),
        with the add it needs."""
        lacking = self._lacking(v)
        extra = 0 if lacking is None or lacking == row else self.costs.of(self.steps[self.adds[lacking] - 1])
        return self.costs.of(self.steps[v - 1]) + extra

    def plan_of(self, model: Sequence[int]) -> list[Step]:
        """The steps a model of the choice's MaxSAT sets, in candidate order."""
        true = {lit for lit in model if lit > 0}
        return [s for s in self.steps if self.var[s] in true]

    def kills(self, m: ConceptMap, plan: Sequence[Step]) -> bool:
        """Whether `plan` kills `m`, as ways(m) would say of the plan's steps, evaluating the knowledge
        on the plan's rows only (and, for an annotation, on the concept's values the support shows):
        thousands of listed shortcuts are tried against each choice."""
        added = [s.row for s in plan if s.action == ADD and s.row is not None]
        for s in plan:
            if s.action == ANNOTATE:
                j = self.task.names.index(s.concept or "")
                if self._moves_on_support(m, j) or any(j in self._image(m, r)[1] for r in added):
                    return True
                continue
            assert s.row is not None
            relabelled, moved = self._image(m, s.row)
            if relabelled or (s.action == SUPERVISE and moved):
                return True
            if s.action == ANNOTATE_ONE and self.task.names.index(s.concept or "") in moved:
                return True
        return False

    def _image(self, m: ConceptMap, row: Row) -> tuple[bool, set[int]]:
        """Whether m changes the labels of `row`, and the concepts whose values it moves there."""
        if (m, row) not in self.images:
            image = m.predict(self.task, row)
            relabelled = self.task.labels_of([image])[0] != self.label[row]
            self.images[m, row] = relabelled, {j for j, (u, v) in enumerate(zip(image, row)) if u != v}
        return self.images[m, row]

    def _moves_on_support(self, m: ConceptMap, j: int) -> bool:
        """Whether m predicts concept j otherwise on some support row: from the pairs of value numbers
        (of the concept feeding j, of j) the support shows."""
        i = m.source(j)
        if (i, j) not in self.seen:
            ci, cj = self.task.concepts[i], self.task.concepts[j]
            self.seen[i, j] = {(ci.index[r[i]], cj.index[r[j]]) for r in self.task.support.rows}
        return any(m.f[i][a] != b for a, b in self.seen[i, j])

    def ways(self, m: ConceptMap, plan: Sequence[Step]) -> _Ways:
        """The ways to kill `m`, which survives `plan` (a way through `plan` would mean that the
        knowledge and the encoding disagree: InternalError)."""
        task, k = self.task, len(self.task.concepts)
        images = [m.predict(task, row) for row in self.rows]
        relabelled = {r: a != b for r, a, b in zip(self.rows, task.labels_of(images), self.labels)}
        moved = {r: {j for j in range(k) if image[j] != r[j]} for r, image in zip(self.rows, images)}
        on_support = set().union(*(moved[r] for r in task.support.rows))
        ways = _Ways([], [])
        for s, v in self.var.items():
            if s.action == ANNOTATE:
                j = task.names.index(s.concept or "")
                if j in on_support:
                    ways.single.append(v)
                elif adds := [self.adds[r] for r in self.adds if j in moved[r]]:
                    ways.paired.append((v, adds))
                continue
            row = s.row
            assert row is not None
            with_add = row not in self.present and relabelled[row]  # the add it needs kills alone
            if s.action == ADD:
                killed = relabelled[row]
            elif s.action == SUPERVISE:
                killed = with_add or bool(moved[row])
            else:
                killed = with_add or task.names.index(s.concept or "") in moved[row]
            if killed:
                ways.single.append(v)
        if ways.through({self.var[s] for s in plan}):
            raise InternalError(f"advise: map {m} survives steps that kill it by the knowledge")
        return ways

    def cheapest(self, ways: _Ways) -> int:
        """The cost of the cheapest way (with the add steps it needs): no plan killing the shortcut
        costs less."""
        return min(self.costs.total(self._needing(o)) for o in self._options(ways))

    def _options(self, ways: _Ways) -> list[list[Step]]:
        options = [[self.steps[v - 1]] for v in ways.single]
        return options + [[self.steps[a - 1], self.steps[x - 1]] for a, adds in ways.paired for x in adds]

    def _needing(self, option: list[Step]) -> list[Step]:
        """`option` with the add steps its steps on rows the task lacks need."""
        needed = [
            Step(ADD, s.row)
            for s in option
            if s.action != ADD and s.row is not None and s.row not in self.present
        ]
        return list(dict.fromkeys([*needed, *option]))

    def completed(self, plan: list[Step], ways: _Ways) -> list[Step]:
        """`plan` with the cheapest way to kill a shortcut added (with the add steps it needs)."""
        taken = set(plan)
        extras = ([s for s in self._needing(o) if s not in taken] for o in self._options(ways))
        cheapest = min(extras, key=self.costs.total)
        chosen = taken | set(cheapest)
        return [s for s in self.steps if s in chosen]


def sat_search(
    advisor: Advisor,
    steps: Sequence[Step],
    costs: Costs,
    state: SearchState,
    info: dict[str, object],
    counted: Counted | None = None,
) -> None:
    """Fill `state` (target 1) from hitting_plan, run in a child within 85% of the time left (the
    rest writes the modified task file, seconds for thousands of rows): the cheapest
    plan (its count 1, proved by SAT; the caller recounts it), or that none exists. Past 60% of the
    time left a plan that works ends the search, leaving time to verify it; stopped then or by the
    limit, `state` holds the best plan known and the bound, and TimeLimitExceeded follows. `info`
    gets the search's figures."""
    progress = advisor.progress or Progress(enabled=False)
    left = advisor.remaining()
    settle_by = None if left is None else time.time() + SETTLE_SHARE * left
    limit = {} if left is None else {"timeout": (1 - WRITING_SHARE) * left, "elapsed": 0.0}
    args = (advisor.task, advisor.mode, steps, costs, progress, settle_by, counted)
    try:
        found = run_stoppable(hitting_plan, *args, **limit, what="advise", progress=progress)
    except LimitReached as exc:
        best = exc.partial.get("best")
        found = Hitting(plan=list(best) if isinstance(best, list) else None)
        found.bound = int(exc.partial.get("bound", 0))  # type: ignore[call-overload]
        found.maps, found.choices = exc.partial.get("maps", 0), exc.partial.get("choices", 0)  # type: ignore[assignment]
        found.listed = bool(exc.partial.get("listed", False))
        found.minimal = found.plan is not None and costs.total(found.plan) <= found.bound
    info.update(route="sat", shortcuts_listed=found.listed, shortcuts_noted=found.maps, choices=found.choices)
    if found.unkillable is not None:
        state.plan, state.count, state.bound, state.complete = None, None, costs.total(steps) + 1, True
        state.why = "a shortcut survives every candidate step"
        info["unkillable"] = found.unkillable
        return
    state.plan, state.minimal, state.complete = found.plan, found.minimal, found.minimal
    state.count = None if found.plan is None else 1
    state.exact = found.plan is not None
    if found.minimal and found.plan is not None:
        state.bound = costs.total(found.plan)
        return
    state.bound = max(found.bound, 1)
    state.why = "stopped by the time limit"
    raise TimeLimitExceeded(advisor.settings.timeout or 0, "advise")
