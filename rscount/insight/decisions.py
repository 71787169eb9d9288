"""Questions about a task's optimal maps that are decisions, not counts: "may predicted concept j read
ground-truth concept i?", "may value v of concept i be predicted as another value?", "is any map but
the intended one optimal once these rows are added?". Each is one SAT call on the task's CNF
(rscount.encoding) under an assumption, on one incremental solver; a model that answers one question
answers every other it witnesses, so a task's whole identifiability costs a few calls per concept,
where counting the maps that keep each concept would cost a count each.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import sat
from ..counting.budget import Budget, Declined
from ..counting.engines.class_search.search import all_classes
from ..counting.methods.source_tuples import fitting_permutations
from ..counting.problem import CountProblem
from ..encoding.concept_maps import lazy_maps
from ..encoding.model import Encoding
from ..errors import InternalError, NotApplicable
from ..knowledge.symmetry import interchangeable_blocks, interchangeable_families
from ..knowledge.symmetry_groups import symmetry_groups
from ..task.model import Mode, Task
from ..task.support import Row
from .maps import ConceptMap
from .row_images import RowImages

ROWS_AT_ONCE = 8  # rows a candidate map breaks that are encoded at once
# Seconds a solver call may take before identities() asks another way: per permutation class instead
# of all permutations at once (MNMath's proof that no digit moves: 40 s at once, 2.6 s by its one
# class; SDD-OIA the other way: 0.4 s at once, 17 s over its 684 classes), or not at all (a program's
# sums on 10000 rows: the search method's identification, per concept). The answers are the same.
CALL_SECONDS = 5.0
CLASSES = 5_000  # permutation classes asked about one by one, at most


class Undecided(Exception):
    """A question the solver was interrupted on (its time per call ran out)."""


@dataclass
class MapSolver:
    """One incremental solver on the CNF of `task` in `mode` (disentangled or objects), its models
    read as concept maps. The support's rows are encoded lazily: a candidate map is checked against
    every row by evaluating the knowledge, and only rows it breaks join the CNF (each a constraint
    of the task, so kept), until a candidate breaks none: the answers are those of the whole CNF,
    which for a program's labels on a thousand rows is gigabytes. A question adds its clauses under a
    fresh selector, solves with the selector assumed, and retires the selector, so the solver keeps
    what it learned and no question constrains the next."""

    task: Task
    mode: Mode
    encoding: Encoding = field(init=False)

    def __post_init__(self) -> None:
        if self.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise NotApplicable(f"the {self.mode} mode has no concept-by-concept maps to ask about")
        self.lazy = lazy_maps(self.task, objects=self.mode == Mode.OBJECTS)
        self.encoding = self.lazy.encoding
        self.solver = sat.solver(sat.DECIDE, self.encoding.cnf.clauses)
        self.rows = self.task.support.rows
        self.images = RowImages(self.task, self.rows)
        self.encoded: set[Row] = set()
        self.calls = 0

    def __enter__(self) -> MapSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.delete()

    def new_var(self) -> int:
        """A variable of no clause yet (selectors, auxiliaries of a question)."""
        return self.lazy.new_var()

    def reserve(self, top: int) -> None:
        """Number later variables after `top` (the auxiliaries of an encoding built elsewhere)."""
        builder = self.lazy.rows.builder
        builder.num_vars = max(builder.num_vars, top)

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        """Add clauses for every later question: definitions of fresh variables, or maps left out
        for good."""
        for clause in clauses:
            self.solver.add_clause(list(clause))

    def some_map(
        self, clauses: Iterable[Sequence[int]] = (), seconds: float | None = None
    ) -> ConceptMap | None:
        """An optimal map that also satisfies `clauses` (None: there is none); with `seconds`, a
        solver call still running after that long is interrupted: Undecided."""
        selector = self.new_var()
        for clause in clauses:
            self.solver.add_clause([-selector, *clause])
        found = None
        try:
            while found is None:
                self.calls += 1
                if not self._solve([selector], seconds):
                    break
                m = self.map_of(self.solver.get_model() or [])
                broken = self.broken_rows(m)
                if not broken:
                    found = m
                self.encode_rows(broken)
        finally:
            self.solver.add_clause([-selector])
        return found

    def _solve(self, assumptions: list[int], seconds: float | None) -> bool:
        """One solver call under `assumptions`, interrupted after `seconds` (Undecided)."""
        if seconds is None:
            return bool(self.solver.solve(assumptions=assumptions))
        timer = threading.Timer(seconds, self.solver.interrupt)
        timer.start()
        try:
            solved = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
        if solved is None:
            self.solver.clear_interrupt()
            raise Undecided(f"no answer within {seconds:g} s")
        return bool(solved)

    def encode_rows(self, rows: Iterable[Row]) -> None:
        """Add the constraints of support rows to the CNF (for good: they are the task's)."""
        for row in rows:
            self.encoded.add(row)
            for clause in self.lazy.add(row):
                self.solver.add_clause(clause)

    def guard_row(self, row: Row, guard: int) -> None:
        """Add the constraint of `row` (its labels kept, its supervision in the task), in force when
        `guard` holds: a row a change of the support would add."""
        for clause in self.lazy.add(row):
            self.solver.add_clause([-guard, *clause])

    def guard_values(self, row: Row, concepts: Iterable[int], *guards: int) -> None:
        """Add "the image of `row` keeps its value of each of `concepts`", in force when all of
        `guards` hold: supervision or annotation of those concepts on that row."""
        p, f, task = self.encoding.p_vars, self.encoding.f_lits, self.task
        idx = [c.index[v] for c, v in zip(task.concepts, row)]
        unless = [-g for g in guards]
        for j in concepts:
            for i in range(len(p)):
                self.solver.add_clause([*unless, -p[i][j], f[i][idx[i]][idx[j]]])

    def broken_rows(self, m: ConceptMap, most: int = ROWS_AT_ONCE) -> list[Row]:
        """Up to `most` support rows map `m` breaks (a supervised value moved, or a label changed)."""
        broken = [self.rows[n] for n in np.flatnonzero(self.images.broken(m))[:most].tolist()]
        for row in broken:
            if row in self.encoded:  # the CNF holds this row: its model cannot break it
                raise InternalError(f"row {list(row)}: its clauses and the knowledge disagree")
        return broken

    def map_of(self, model: Sequence[int]) -> ConceptMap:
        """The map (pi, f) a model of the CNF assigns (a class no ground truth takes maps nowhere)."""
        true = {lit for lit in model if lit > 0}
        p, f, truths = self.encoding.p_vars, self.encoding.f_lits, self.task.ground_truths
        k = len(p)
        pi = tuple(next(j for j in range(k) if p[i][j] in true) for i in range(k))
        sizes = [len(c.values) for c in self.task.concepts]

        def image(lits: list[int], size: int) -> int:
            return next(u for u in range(size) if _holds(lits[u], true))

        images = (tuple(image(lits, sizes[pi[i]]) for lits in f[i][: len(truths[i])]) for i in range(k))
        return ConceptMap(pi, tuple(images))

    def forbid(self, m: ConceptMap) -> None:
        """Leave map `m` out of every later question's answers."""
        self.add_clauses([self.blocking(m)])

    def not_the_identity(self) -> list[int]:
        """The clause "some concept does not keep its meaning": the map is not the intended one."""
        p, f = self.encoding.p_vars, self.encoding.f_lits
        kept = [p[i][i] for i in range(len(p))]
        kept += [f[i][v][v] for i, truth in enumerate(self.task.ground_truths) for v in range(len(truth))]
        return [-lit for lit in kept]

    def blocking(self, m: ConceptMap) -> list[int]:
        """The clause "not this map" over its P and F literals."""
        p, f = self.encoding.p_vars, self.encoding.f_lits
        lits = [p[i][j] for i, j in enumerate(m.pi)]
        lits += [f[i][v][u] for i, images in enumerate(m.f) for v, u in enumerate(images)]
        return [-lit for lit in lits]

    def moved_clauses(self, i: int, v: int) -> list[list[int]]:
        """Clauses "ground-truth value number v of concept i is predicted as another value", whatever
        concept it feeds: some P[i][j] holds with F[i][v] not on v's place in j's domain (or j has
        no such value)."""
        p, f = self.encoding.p_vars, self.encoding.f_lits
        value = self.task.concepts[i].values[v]
        choices, clauses = [], []
        for j, target in enumerate(self.task.concepts):
            a = self.new_var()  # a -> "i feeds j and v does not become value"
            choices.append(a)
            clauses.append([-a, p[i][j]])
            if value in target.index:
                clauses.append([-a, -f[i][v][target.index[value]]])
        return [choices, *clauses]


def _holds(lit: int, true: set[int]) -> bool:
    return lit in true if lit > 0 else -lit not in true


@dataclass
class Identity:
    """What the optimal maps do with one concept: the other concepts its predicted concept may read,
    whether its values may be remapped while it reads its own, and the values some optimal map
    predicts as other values (the rest are kept by every one)."""

    reads: set[int] = field(default_factory=set)
    remapped: bool = False
    moved: set[int] = field(default_factory=set)
    changed: bool = False  # under a fixed permutation: its value map is not the identity


def identities(
    solver: MapSolver, seconds: float | None = CALL_SECONDS, classes: bool = True
) -> list[Identity]:
    """Per concept, its Identity, decided by questions about all permutations at once (_decide),
    each call within `seconds`; with `classes`, what they leave is decided per permutation (a fixed
    permutation makes most questions easy): per class in the objects mode (_by_class, where the
    class search lists them within CLASSES, each call within `seconds` too), from source-tuples'
    permutations and their groups' small CNFs in the disentangled mode (_by_fitting). Undecided
    when a call is interrupted (`seconds` None: never) or those routes decline."""
    task = solver.task
    k = len(task.concepts)
    found = [Identity() for _ in range(k)]
    questions = [("reads", j, i) for j in range(k) for i in range(k) if i != j]
    questions += [("remapped", j, -1) for j in range(k)]
    questions += [("moved", i, v) for i in range(k) for v in range(len(task.ground_truths[i]))]
    try:
        _decide(solver, found, questions, seconds=seconds)
    except Undecided:
        if not classes:
            raise
        try:
            if solver.mode == Mode.OBJECTS or task.in_place:
                _by_class(solver, found, seconds)
            else:
                _by_fitting(task, found)
        except Declined as exc:
            raise Undecided(f"too hard for SAT at once, and {exc}") from None
    return found


def _decide(
    solver: MapSolver,
    found: list[Identity],
    questions: list[tuple[str, int, int]],
    clauses: Sequence[Sequence[int]] = (),
    seconds: float | None = None,
) -> None:
    """Answer `questions` into `found`. One SAT call asks whether any question not yet answered has
    "yes" for an answer (a disjunction of them all); its model answers every question it witnesses,
    at least one new, and the calls go on until one is unsatisfiable: every question left is then
    "no". So the calls are the "yes" answers no earlier model showed, plus one. `clauses`: what every
    map asked about also satisfies (a fixed permutation)."""
    task = solver.task
    while True:
        open_ = [q for q in questions if not _answered(found, *q)]
        if not open_:
            return
        indicators, guarded = [], [list(c) for c in clauses]
        for q in open_:
            indicator = solver.new_var()
            indicators.append(indicator)
            guarded += [[-indicator, *clause] for clause in _question(solver, *q)]
        m = solver.some_map([indicators, *guarded], seconds)
        if m is None:
            return
        witness(task, m, found)
        if all(not _answered(found, *q) for q in open_):
            raise InternalError("a map answering an open question answers none: the encodings disagree")


def _by_class(solver: MapSolver, found: list[Identity], seconds: float | None = None) -> None:
    """Identities from the permutation classes: the maps of pi' = h_out pi h_in are those of pi with
    f'_i = f_{h_in(i)} (h_in, h_out: the support's and the knowledge's symmetries, which keep
    domains). So, with x ranging over i's H_in-orbit: value v of concept i moves in the class when it
    moves for some x under the representative pi; predicted concept j reads i when j is in the
    H_out-orbit of pi(x); and j is remapped when some x of j's orbit has pi(x) in j's orbit and f_x
    is not the identity. Declined past CLASSES classes, or where the class search does not apply."""
    task, p = solver.task, solver.encoding.p_vars
    classes, blocks = all_classes(CountProblem(task, solver.mode), budget=Budget(max_classes=CLASSES))
    h_in, h_out = symmetry_groups(task, solver.mode, blocks)
    ins, outs = h_in.orbits(), h_out.orbits()
    k = len(task.concepts)
    for rep, _ in classes:
        fixed = [[p[i][j]] for i, j in enumerate(rep)]
        at_rep = [Identity() for _ in range(k)]
        questions = [
            ("moved", x, v)
            for x in range(k)
            for v in range(len(task.ground_truths[x]))
            if any(v not in found[i].moved for i in ins[x])
        ]
        questions += [
            ("changed", x, -1)
            for x in range(k)
            if any(rep[x] in outs[j] and not found[j].remapped for j in ins[x])
        ]
        m = solver.some_map(fixed, seconds)
        if m is None:
            continue  # no optimal map has this permutation
        witness(task, m, at_rep)
        _decide(solver, at_rep, questions, clauses=fixed, seconds=seconds)
        _carry(found, rep, at_rep, ins, outs)


def _by_fitting(task: Task, found: list[Identity]) -> None:
    """Identities from source-tuples' permutations of the optimal maps (disentangled mode) and what
    each one's value maps may move, carried over the knowledge's symmetries (rep -> h_out rep),
    which the permutations are found up to."""
    knowledge = interchangeable_blocks(task)
    k = len(task.concepts)
    blocks = {
        "support": [[x] for x in range(k)],
        "knowledge": knowledge,
        "knowledge families": interchangeable_families(task, knowledge),
    }
    h_in, h_out = symmetry_groups(task, Mode.DISENTANGLED, blocks)
    ins, outs = h_in.orbits(), h_out.orbits()
    for fitting in fitting_permutations(task, CLASSES):
        at_rep = [Identity(moved=set(m), changed=c) for m, c in zip(fitting.moved, fitting.changed)]
        _carry(found, fitting.pi, at_rep, ins, outs)


def _carry(
    found: list[Identity],
    rep: Sequence[int],
    at_rep: list[Identity],
    ins: list[list[int]],
    outs: list[list[int]],
) -> None:
    """Into `found`, what the maps of h_out rep h_in show, `at_rep` being what rep's maps show and
    `ins`, `outs` the orbits of H_in and H_out (see _by_class)."""
    k = len(found)
    for x in range(k):
        for i in ins[x]:
            found[i].moved |= at_rep[x].moved
            found[i].remapped |= at_rep[x].changed and rep[x] in outs[i]
    for i in range(k):
        for x in ins[i]:
            for j in outs[rep[x]]:
                if j != i:
                    found[j].reads.add(i)


def _question(solver: MapSolver, kind: str, j: int, x: int) -> list[list[int]]:
    """The clauses of "yes" to one question (each to be guarded by the question's indicator)."""
    p, f = solver.encoding.p_vars, solver.encoding.f_lits
    if kind == "reads":  # predicted j reads ground-truth x
        return [[p[x][j]]]
    if kind == "remapped":  # j reads itself, some value of j moves
        return [[p[j][j]], [-f[j][v][v] for v in range(len(solver.task.ground_truths[j]))]]
    if kind == "changed":  # the value map of j is not the identity (numbers), whatever j feeds
        return [[-f[j][v][v] for v in range(len(solver.task.ground_truths[j]))]]
    return solver.moved_clauses(j, x)


def _answered(found: list[Identity], kind: str, j: int, x: int) -> bool:
    if kind == "reads":
        return x in found[j].reads
    if kind == "remapped":
        return found[j].remapped
    if kind == "changed":
        return found[j].changed
    return x in found[j].moved


def witness(task: Task, m: ConceptMap, found: list[Identity]) -> None:
    """Record in `found` what map `m` shows: who reads whom, remapped concepts, moved values."""
    for i, j in enumerate(m.pi):
        if i != j:
            found[j].reads.add(i)
        target = task.concepts[j].values
        moved = {v for v, u in enumerate(m.f[i]) if target[u] != task.concepts[i].values[v]}
        found[i].moved |= moved
        changed = any(u != v for v, u in enumerate(m.f[i]))
        found[i].changed |= changed
        found[j].remapped |= i == j and changed


def kept_values(task: Task, i: int, identity: Identity) -> list[Any]:
    """The values of concept i every optimal map predicts as themselves."""
    return [v for n, v in enumerate(task.ground_truths[i]) if n not in identity.moved]
