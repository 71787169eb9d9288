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

import numpy as np
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from ..errors import InternalError
from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import Row
from .decisions import MapSolver
from .maps import ConceptMap
from .plan_search import Costs
from .plan_survivors import Guards, Listed, Survivors
from .row_images import RowImages
from .simplest import Counted, listed_shortcuts
from .steps import ADD, ANNOTATE, ANNOTATE_ONE, SUPERVISE, Step

COMPLETION_MAPS = 8  # survivors one choice is completed against (greedily) before the next choice
COMPLETION_TRIED = 64  # cheapest ways to kill a survivor a completion compares
ROW_ACTIONS = (ADD, SUPERVISE, ANNOTATE_ONE)  # the steps on one example, numbered in arrays
COMPLETION_MAPS_TRIED = 200  # listed shortcuts those ways are compared on (how many each kills)


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
            plan = kills.completed(plan, ways, survivors.alive(plan, COMPLETION_MAPS_TRIED))
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
    every shortcut noted so far. Per literal: its cost, the add it needs (0: none) and, for steps on
    one example, that example's place in `rows` (hundreds of thousands of steps are read per map)."""

    def __init__(self, task: Task, steps: Sequence[Step], costs: Costs) -> None:
        self.task, self.steps, self.costs = task, list(steps), costs
        self.var = {s: n + 1 for n, s in enumerate(self.steps)}
        self.present = set(task.support.rows)
        self.adds = {s.row: self.var[s] for s in self.steps if s.action == ADD and s.row is not None}
        self.rows: list[Row] = [*task.support.rows, *self.adds]
        self.position = {name: j for j, name in enumerate(task.names)}
        self.row_images = RowImages(task, self.rows)
        self.addable = np.array(
            [n >= len(self.present) and r not in self.present for n, r in enumerate(self.rows)]
        )
        place = {r: n for n, r in enumerate(self.rows)}
        self.cost = [0, *(costs.of(s) for s in self.steps)]
        self.need = [0, *(self._add_needed(s) for s in self.steps)]
        self.cost_array, self.need_array = np.array(self.cost), np.array(self.need)
        on_row: list[tuple[int, int, int, int]] = []  # (literal, row's place, action's number, concept)
        self.annotations: list[tuple[int, int]] = []  # (literal, concept) of the annotations of a concept
        for s, v in self.var.items():
            j = -1 if s.concept is None else self.position[s.concept]
            if s.action == ANNOTATE:
                self.annotations.append((v, j))
            elif s.row is None:
                raise InternalError(f"advise: step {s} has no row")
            else:
                on_row.append((v, place[s.row], ROW_ACTIONS.index(s.action), j))
        self.on_row = np.array(on_row, dtype=np.int64).reshape(len(on_row), 4)  # a column per field
        self.seen: dict[tuple[int, int], set[tuple[int, int]]] = {}  # (i, j): value numbers on the support
        self.images: dict[tuple[ConceptMap, Row], tuple[bool, set[int]]] = {}
        self.noted: list[_Ways] = []
        self.hits: dict[int, list[int]] = {}  # step literal -> the noted shortcuts it kills alone

    def _add_needed(self, s: Step) -> int:
        """The literal of the add a step on an example the task lacks needs (0: none)."""
        lacking = s.action in (SUPERVISE, ANNOTATE_ONE) and s.row is not None and s.row not in self.present
        return self.adds[s.row] if lacking and s.row is not None else 0

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
            formula.append([-v], weight=self.cost[v])
            if self.need[v]:
                formula.append([-v, self.need[v]])  # a step on a row the task lacks needs its add
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
        first: dict[tuple[int, int, int], int] = {}  # replaceable steps alike (mask, add, cost): the first
        others = []
        for v, mask in masks.items():
            if self.steps[v - 1].action in (SUPERVISE, ANNOTATE_ONE) and v not in paired:
                alike = (mask, self.need[v], self.cost[v])
                first[alike] = min(v, first.get(alike, v))  # it replaces the others, or what replaces it does
            else:
                others.append(v)
        kept: list[int] = []
        by_mask: dict[int, list[int]] = {}  # the kept steps of each mask, tried first
        for v in sorted([*others, *first.values()], key=lambda v: (-masks[v].bit_count(), self._price(v, 0))):
            replaceable = self.steps[v - 1].action in (SUPERVISE, ANNOTATE_ONE) and v not in paired
            mask, need = masks[v], self.need[v]
            if not replaceable or not any(
                self._price(u, need) <= self.cost[v]
                for u in [*by_mask.get(mask, ()), *kept]
                if mask & ~masks[u] == 0
            ):
                kept.append(v)
                by_mask.setdefault(mask, []).append(v)
        chosen = {*kept, *paired}
        return chosen | {self.need[v] for v in chosen if self.need[v]}

    def _price(self, v: int, add: int) -> int:
        """What taking step v costs in a plan that has the add `add` (0: none), with the add it
        needs."""
        need = self.need[v]
        return self.cost[v] + (self.cost[need] if need and need != add else 0)

    def plan_of(self, model: Sequence[int]) -> list[Step]:
        """The steps a model of the choice's MaxSAT sets, in candidate order."""
        return [self.steps[v - 1] for v in sorted(v for v in model if 0 < v <= len(self.steps))]

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
            relabelled = self.task.label_of(image) != self.task.label_of(row)
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
        supported = len(self.task.support.rows)
        images = self.row_images.images(m)
        relabelled, moved = self.row_images.relabelled(images), self.row_images.moved(images)
        with_add = self.addable & relabelled  # the row's add kills
        v, n, action, j = self.on_row.T
        supervising = action == ROW_ACTIONS.index(SUPERVISE)
        moves = np.where(supervising, moved[n].any(axis=1), moved[n, np.maximum(j, 0)])  # j: annotated
        killed = np.where(action == ROW_ACTIONS.index(ADD), relabelled[n], with_add[n] | moves)
        ways = _Ways(v[killed].tolist(), [])
        on_support = np.asarray(moved[:supported].any(axis=0), dtype=bool)
        for literal, c in self.annotations:
            if on_support[c]:
                ways.single.append(literal)
            elif adds := [a for at, a in enumerate(self.adds.values(), supported) if moved[at, c]]:
                ways.paired.append((literal, adds))
        ways.single.sort()
        if ways.through({self.var[s] for s in plan}):
            raise InternalError(f"advise: map {m} survives steps that kill it by the knowledge")
        return ways

    def cheapest(self, ways: _Ways) -> int:
        """The cost of the cheapest way (with the add steps it needs): no plan killing the shortcut
        costs less."""
        return self._cheapest_extra(ways, set(), 1)[1]

    def _cheapest_extra(self, ways: _Ways, taken: set[int], most: int) -> tuple[list[set[int]], int]:
        """The first `most` ways of least cost to kill a shortcut, in candidate order, each as the
        literals it adds to `taken` (with the adds its steps need), and that cost. The single steps
        are priced at once (advise may take 600000 candidates)."""
        single, held = np.array(ways.single, dtype=np.int64), np.array(sorted(taken), dtype=np.int64)
        need = self.need_array[single]
        prices = np.where(np.isin(single, held), 0, self.cost_array[single])
        prices += np.where((need > 0) & ~np.isin(need, held), self.cost_array[need], 0)
        options = [(a, x) for a, adds in ways.paired for x in adds]
        extras = [{u for v in pair for u in (v, self.need[v]) if u and u not in taken} for pair in options]
        paired = [sum(self.cost[u] for u in extra) for extra in extras]
        if not len(prices) and not paired:
            raise InternalError("advise: a shortcut with no way to kill it")
        least = min([*([int(prices.min())] if len(prices) else []), *paired])
        best = [
            {u for u in (v, self.need[v]) if u and u not in taken}
            for v in single[prices == least][:most].tolist()
        ]
        best += [extra for extra, price in zip(extras, paired) if price == least][: most - len(best)]
        return best, least

    def completed(self, plan: list[Step], ways: _Ways, alive: Sequence[ConceptMap]) -> list[Step]:
        """`plan` with the cheapest way to kill a shortcut added (with the add steps it needs): of
        the first COMPLETION_TRIED such ways, the one that kills most of `alive` (shortcuts known to
        survive `plan`, up to COMPLETION_MAPS_TRIED; ties: the first), so that a plan that works is
        found in few completions."""
        taken = {self.var[s] for s in plan}
        options = self._cheapest_extra(ways, taken, COMPLETION_TRIED)[0]

        def killed(extra: set[int]) -> int:
            steps = [*plan, *(self.steps[v - 1] for v in extra)]
            return sum(self.kills(m, steps) for m in alive)

        best = max(options, key=killed) if len(options) > 1 and alive else options[0]
        return [self.steps[v - 1] for v in sorted(taken | best)]
