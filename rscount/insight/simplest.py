"""The simplest optimal maps other than the intended one, fewest changed concepts first, then fewest
changed values (what `explain` shows), found by SAT instead of listing every map: two totalizers
count the concepts that lose their meaning and the values moved, and bounds on them are questions to
rscount.insight.decisions' incremental solver (whose rows join lazily). A map found is made minimal
by asking for a strictly simpler one until there is none; each next map first asks for one as
simple as the last, which is usually the answer, so a map costs one or two calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pysat.card import ITotalizer

from ..counting.budget import Declined
from ..counting.methods import linear, pairwise
from ..counting.methods.source_tuples import fitting_maps
from ..counting.problem import CountProblem
from ..counting.result import CountedClasses, CountResult, Listed
from ..counting.settings import Method
from ..errors import InternalError
from ..task.model import Mode, Task
from .decisions import MapSolver, Undecided
from .maps import ConceptMap, identity_map, searched_maps

Cost = tuple[int, int]  # (concepts that lose their meaning, values moved)
LISTING_NODES = 5_000_000  # search nodes for listing every map by pinned counts (forth-add's 4: 2.9 million)
LISTED_MAX = 500  # shortcuts (counted) up to which explain, check, forecast and advise list every one
LISTING_SECONDS = 10.0  # of SAT calls listing them (the search declined) before another route answers
# Shortcuts up to which those source-tuples counted are listed from its factors (MNMath's 5759: 4 s).
TUPLES_LISTED_MAX = 10_000
# The methods that list the maps they count (every optimal map, at most a number given).
LISTERS = {Method.LINEAR: linear.optimal_maps, Method.PAIRWISE: pairwise.optimal_maps}


@dataclass(frozen=True)
class Counted:
    """What an exact count says for listing: the number of shortcuts, the method that counted, and
    the search nodes it took when that was the search (listing by search reads the same classes
    again: markov-chain counts in 12.7 million nodes and lists its 36 maps in 13.6 million)."""

    shortcuts: int
    nodes: int = 0
    method: Method | None = None
    classes: CountedClasses | None = None  # the count's classes with maps, when it kept them
    maps: Listed | None = None  # every optimal map, when the count listed them

    @classmethod
    def of(cls, result: CountResult | None) -> Counted | None:
        """The Counted of a count (None unless it is exact)."""
        if result is None or not result.exact:
            return None
        nodes = result.details.get("search_nodes", 0) if result.method == Method.SEARCH else 0
        nodes = nodes if isinstance(nodes, int) else 0
        return cls(result.count - 1, nodes, result.method, result.classes, result.maps)

    @property
    def listing_nodes(self) -> int:
        """The search nodes listing may take: LISTING_NODES, and twice the count's."""
        return LISTING_NODES + 2 * self.nodes


def cost(m: ConceptMap) -> Cost:
    """How far map `m` is from the intended one: concepts that lose their meaning, values moved
    (a value of a concept that reads another counts as moved)."""
    lost = moved = 0
    for i, images in enumerate(m.f):
        same = [m.pi[i] == i and u == v for v, u in enumerate(images)]
        lost += not all(same)
        moved += same.count(False)
    return lost, moved


def simplest_maps(solver: MapSolver, wanted: int) -> list[ConceptMap]:
    """Up to `wanted` optimal maps other than the intended one in the order of `cost` (ties in the
    solver's order); fewer when there are fewer."""
    bounds = _Bounds(solver)
    found: list[ConceptMap] = []
    blocked = [solver.not_the_identity()]
    best: Cost | None = None
    while len(found) < wanted:
        m = None if best is None else solver.some_map([*blocked, *bounds.at_most(best)])
        if m is None:  # none as simple as the last: the next simplest, made minimal
            m = solver.some_map(blocked)
            while m is not None:
                simpler = solver.some_map([*blocked, *bounds.below(cost(m))])
                if simpler is None:
                    break
                m = simpler
        if m is None:
            return found
        found.append(m)
        best = cost(m)
        blocked.append(solver.blocking(m))
    return found


def every_shortcut(
    task: Task,
    mode: Mode,
    counted: Counted,
    found: Callable[[list[ConceptMap]], None] | None = None,
    seconds: float | None = None,
) -> list[ConceptMap]:
    """All optimal maps other than the intended one (their number known from a count), in the
    order of `cost`: read off source-tuples' factors when that method counted, else off the search
    method's counts with values pinned when it lists them within `counted.listing_nodes` (a
    program's sums over ten thousand rows: seconds), else by SAT (every_map, with `found` and
    `seconds`). Every way the number found must be the count's."""
    shortcuts = counted.shortcuts
    if shortcuts == 0:  # the count says the intended map is the only one
        return []
    listed = _by_tuples(task, mode, counted)
    if listed is not None:
        return listed
    try:
        maps = searched_maps(task, mode, counted.listing_nodes, counted.classes)
    except Declined:
        with MapSolver(task, mode) as solver:
            return every_map(solver, shortcuts, found, seconds)
    return _shortcuts_of(task, maps, shortcuts, "the search")


def listed_shortcuts(task: Task, mode: Mode, counted: Counted | None) -> list[ConceptMap] | None:
    """every_shortcut when their number is known (a count) and at most LISTED_MAX, and SAT lists
    them within LISTING_SECONDS where the search declines, or at most TUPLES_LISTED_MAX when
    source-tuples or a method of LISTERS counted them; else None (another route answers)."""
    by_method = None if counted is None else listed_by_method(task, mode, counted)
    if by_method is not None:
        return by_method
    if counted is None or counted.shortcuts > LISTED_MAX:
        return None if counted is None else _by_tuples(task, mode, counted, TUPLES_LISTED_MAX)
    try:
        return every_shortcut(task, mode, counted, seconds=LISTING_SECONDS)
    except Undecided:
        return None


def listed_by_method(task: Task, mode: Mode, counted: Counted) -> list[ConceptMap] | None:
    """The shortcuts the count listed, or else the method that counted them lists when it is one that
    lists its maps (LISTERS) and they are at most TUPLES_LISTED_MAX; None otherwise."""
    lister = LISTERS.get(counted.method) if counted.method is not None else None
    if counted.maps is not None:
        listed = counted.maps
    elif lister is not None and counted.shortcuts <= TUPLES_LISTED_MAX:
        try:
            listed = lister(CountProblem(task, mode), counted.shortcuts + 1)
        except Declined:
            return None
    else:
        return None
    maps = [ConceptMap(pi, f) for pi, f in listed]
    return _shortcuts_of(task, maps, counted.shortcuts, f"the {counted.method} method")


def _by_tuples(task: Task, mode: Mode, counted: Counted, most: int = LISTED_MAX) -> list[ConceptMap] | None:
    """The shortcuts read off source-tuples' factors when that method counted them and they are at
    most `most`; None otherwise."""
    if mode != Mode.DISENTANGLED or counted.method != Method.SOURCE_TUPLES or counted.shortcuts > most:
        return None
    try:
        maps = [ConceptMap(pi, f) for pi, f in fitting_maps(task, counted.shortcuts + 1)]
    except Declined:
        return None
    return _shortcuts_of(task, maps, counted.shortcuts, "source tuples")


def _shortcuts_of(task: Task, maps: list[ConceptMap], shortcuts: int, route: str) -> list[ConceptMap]:
    """Every map of `maps` but the intended one, in the order of `cost`, after checking that they
    are the count's `shortcuts` and the intended map."""
    identity = identity_map(task)
    listed = sorted((m for m in maps if m != identity), key=_order)
    if len(listed) != shortcuts or len(maps) != shortcuts + 1:
        raise InternalError(f"the count says {shortcuts} shortcuts, {route} lists {len(maps) - 1}")
    return listed


def _order(m: ConceptMap) -> tuple[Cost, tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Simplest first (`cost`), ties by permutation and value maps: one order whichever route lists."""
    return cost(m), m.pi, m.f


def every_map(
    solver: MapSolver,
    shortcuts: int,
    found: Callable[[list[ConceptMap]], None] | None = None,
    seconds: float | None = None,
) -> list[ConceptMap]:
    """All `shortcuts` optimal maps other than the intended one (their number known from a count),
    in the order of `cost`: one satisfiable call each, none to prove there are no more, so the
    solver's maps and the count cross-check each other. `found` hears the maps so far, now and then;
    past `seconds` in all, Undecided. The solver keeps the maps blocked: it is spent."""
    maps: list[ConceptMap] = []
    solver.add_clauses([solver.not_the_identity()])
    end = None if seconds is None else time.monotonic() + seconds
    for n in range(shortcuts):
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            raise Undecided(f"{n} of {shortcuts} shortcuts listed in {seconds:g} s")
        m = solver.some_map(seconds=left)
        if m is None:
            raise InternalError(f"the count says {shortcuts} shortcuts, the solver finds only {n}")
        maps.append(m)
        solver.forbid(m)
        if found is not None and n % 50 == 0:
            found(maps)
    return sorted(maps, key=_order)


class _Bounds:
    """Clauses bounding a map's cost, over totalizers of the indicators "concept i loses its meaning"
    and "value v of concept i moves" (each implied by its cause, so a bound on them bounds the cost)."""

    def __init__(self, solver: MapSolver) -> None:
        p, f = solver.encoding.p_vars, solver.encoding.f_lits
        lost, moved = [], []
        for i, images in enumerate(f):
            lose = solver.new_var()
            lost.append(lose)
            solver.add_clauses([[lose, p[i][i]]] + [[lose, images[v][v]] for v in range(len(images))])
            for v in range(len(images)):
                move = solver.new_var()
                moved.append(move)
                solver.add_clauses([[move, p[i][i]], [move, images[v][v]]])
        self.solver = solver
        self.lost = self._totalizer(lost)
        self.moved = self._totalizer(moved)

    def _totalizer(self, lits: list[int]) -> list[int]:
        """The outputs of a totalizer over `lits`: output k holds when more than k of them do."""
        tot = ITotalizer(lits, ubound=len(lits), top_id=self.solver.new_var())
        self.solver.reserve(tot.top_id)
        self.solver.add_clauses(tot.cnf.clauses)
        rhs = list(tot.rhs)
        tot.delete()
        return rhs

    def at_most(self, c: Cost) -> list[list[int]]:
        """Clauses "the cost is at most `c`" (lexicographically)."""
        lost, moved = c
        either = self.solver.new_var()  # fewer concepts lost, or as many with at most `moved` values
        return [
            [-either, *self._most(self.lost, lost)],
            [-either, *self._most(self.moved, moved)],
            [either, *self._most(self.lost, lost - 1)],
        ]

    def below(self, c: Cost) -> list[list[int]]:
        """Clauses "the cost is less than `c`" (lexicographically)."""
        lost, moved = c
        return self.at_most((lost, moved - 1)) if moved > 0 else [self._most(self.lost, lost - 1)]

    @staticmethod
    def _most(rhs: list[int], k: int) -> list[int]:
        """The clause "at most k of the totalizer's inputs hold": empty (false) when k is negative,
        a tautology when k bounds nothing."""
        if k < 0:
            return []
        if k >= len(rhs):
            return [rhs[0], -rhs[0]]
        return [-rhs[k]]
