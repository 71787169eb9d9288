"""`auto` and `approx` as tables: per counting mode, steps (when a step applies, which method, its
budget, why it is chosen) in four phases, read by one short loop. README and docs/performance.md
point here rather than retell the order.

- `first`: tried in order in this process: methods that answer or decline at once (closed forms, the
  jrs sum, and for `approx` its estimators).
- `head`: search in this process within a small bound on its work and time (HEAD_NODES,
  HEAD_SECONDS), so that small tasks are answered without starting the race's processes.
- `race`: the exact methods whose condition holds, raced (rscount.counting.processes.race): search
  holds a processor (STEADY), the others share the rest equally, the first exact answer wins, and a
  method that stalls on a task cannot starve one that would answer it. No threshold decides which
  method a task "should" take: budgets only let a method decline early where it is known to be
  hopeless.
- `last`: tried in order when every raced method declined (ApproxMC: an estimate with its guarantee).

Every threshold is named once below, with the measurement behind it (2-core machine; benchmarks/)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..knowledge.equalities import equality_labels
from ..knowledge.labels import label_groups
from ..knowledge.pairwise import pairwise_labels
from ..progress import Progress
from ..task.model import Mode
from .bounds import upper_bounds
from .budget import UNBOUNDED, Budget, Declined
from .methods import backend_for
from .methods.linear import affine_labels
from .methods.source_sets import RESIDUAL_CONCEPTS
from .problem import CountProblem
from .processes.alarm import within_seconds
from .processes.parallel import processors
from .processes.race import Entrant, race
from .result import CountResult
from .sampling import sampled_estimates
from .settings import CountSettings, Method

# source-tuples declines when the label groups have more than this many source tuples, or a tuple's
# factor lists more value maps than TUPLE_MODELS (it would visit them all; MNMath, digits 0-9, 200
# rows: 35 s against decompose's 141 within these budgets; with one row supervised, which breaks
# the digits' symmetry, 3360 tuples: 17 s where decompose does not finish in 60 s).
SOURCE_TUPLES_MAX = 10_000
TUPLE_MODELS = 2000
# source-sets declines past this many states of a group's residual table and solver models of its
# readings (SDD-OIA with 32 rows and over a million classes: 2 s within them).
SOURCE_SET_STATES = 1 << 18
SOURCE_SET_MODELS = 20_000
# A failed enumeration probe costs up to this many solver calls on the whole CNF; past it, enumerate
# declines (a count it finishes has at most this many solver models).
ENUMERATE_MODELS = 1000
# pairwise lists the pair CNF's models an orbit of symmetries at a time, a solver call each (and up
# to symmetries.ORBIT_MAX blocking clauses): a 4x4 sudoku's maps are one orbit, found in 0.4 s with
# 1000 puzzles and refuted in 22 s with 100; past this many orbits the maps are too many to list.
PAIRWISE_ORBITS = 1000
# decompose-approx runs ApproxMC once per permutation class (about 0.1 s at least), so `approx` uses
# it only when few classes survive pruning; ApproxMC on the whole CNF otherwise.
APPROX_DECOMPOSE_MAX_CLASSES = 64
# A race that has run this long without an answer also looks for upper bounds (counts of the task on
# fewer rows) and draws maps for a sampled estimate, so that a count stopped at a limit gives an
# interval; not before, as they take a share of the processors from the methods that answer.
BOUNDS_AFTER = 10.0
# Before a race forks its processes, search gets a head start in this process, bounded in work (at
# most HEAD_NODES search nodes over at most HEAD_CLASSES permutation classes) and in wall clock
# (HEAD_SECONDS, set-up included, by an alarm: processes/alarm.py). Small tasks, and the many recounts
# of advise and sweep, are then answered without the race's process start-up (tens of milliseconds
# a count, more from a large parent process); a task the head start does not finish loses at most
# HEAD_SECONDS (the count is the same either way).
HEAD_NODES = 20_000
HEAD_CLASSES = 500
HEAD_SECONDS = 0.5
# Raced methods that hold a processor throughout the race (where there are two or more): search does
# what a naive brute force does, no slower (benchmarks/robustness.md), so a race it holds a processor
# in is not slower than the brute force either, however many other methods share the rest.
# Pairwise too where it applies: a 4x4 sudoku on 100 puzzles, 22 s alone, took 52 s sharing the rest
# with three methods that never answer it (23 s holding one); past PAIRWISE_ORBITS it declines.
STEADY = frozenset({Method.SEARCH, Method.PAIRWISE})
Phase = Literal["first", "head", "race", "last"]


@dataclass(frozen=True)
class Condition:
    """When a step applies: a test on the problem, and its text."""

    text: str
    holds: Callable[[CountProblem], bool]


ALWAYS = Condition("always", lambda problem: True)
WIDE_DOMAINS = Condition(
    "a concept has more than two values",
    lambda problem: max(len(c.values) for c in problem.task.concepts) > 2,
)
AFFINE = Condition(
    "every label is an affine form of integer concepts",
    lambda problem: affine_labels(problem.task) is not None,
)
EQUALITIES = Condition(
    "every label tests two concepts with the same values for equality",
    lambda problem: equality_labels(problem.task) is not None,
)
PAIRWISE = Condition(
    "every label is a conjunction of tests of two concepts sharing one domain",
    lambda problem: pairwise_labels(problem.task) is not None,
)
WIDE_GROUP = Condition(
    f"a label group reads more than {RESIDUAL_CONCEPTS} concepts (listed by SAT there)",
    lambda problem: max(len(concepts) for _, concepts in label_groups(problem.task)) > RESIDUAL_CONCEPTS,
)


@dataclass(frozen=True)
class Step:
    """One row of a table: `reason` is printed with the count (`{max_classes}` and the other bounds
    are filled in from the budget)."""

    phase: Phase
    when: Condition
    method: Method
    budget: Budget
    reason: str

    def why(self) -> str:
        return self.reason.format(**vars(self.budget))


CLOSED = Step("first", ALWAYS, Method.CLOSED_FORM, UNBOUNDED, "a closed form applies")
SETS = Budget(max_states=SOURCE_SET_STATES, max_models=SOURCE_SET_MODELS)
TUPLES = Budget(max_classes=SOURCE_TUPLES_MAX, max_models=TUPLE_MODELS)
DECOMPOSE = Step("race", ALWAYS, Method.DECOMPOSE, UNBOUNDED, "first in the race: permutation classes summed")
SEARCH = Step("race", ALWAYS, Method.SEARCH, UNBOUNDED, "first in the race: depth-first search")
LINEAR = Step("race", AFFINE, Method.LINEAR, UNBOUNDED, "first in the race: affine labels, a linear system")
COLOURINGS = Step(
    "race",
    EQUALITIES,
    Method.EQUALITIES,
    UNBOUNDED,
    "first in the race: equality labels, colourings of the images",
)
PAIRS = Step(
    "race", PAIRWISE, Method.PAIRWISE, Budget(max_models=PAIRWISE_ORBITS),
    "first in the race: two-concept tests, the pair CNF's models listed (at most {max_models} orbits)",
)  # fmt: skip
HEAD = Step(
    "head", ALWAYS, Method.SEARCH, Budget(max_nodes=HEAD_NODES, max_classes=HEAD_CLASSES),
    "depth-first search within its head start in this process (at most {max_nodes} nodes)",
)  # fmt: skip
ENUMERATE = Step(
    "race", ALWAYS, Method.ENUMERATE, Budget(max_models=ENUMERATE_MODELS),
    "first in the race: at most {max_models} solver models, enumerated",
)  # fmt: skip
APPROXMC = Step("last", ALWAYS, Method.APPROXMC, UNBOUNDED, "every exact method declined: ApproxMC")

AUTO: dict[Mode, tuple[Step, ...]] = {
    Mode.DISENTANGLED: (
        CLOSED,
        HEAD,
        LINEAR,
        COLOURINGS,
        PAIRS,
        Step(
            "race", WIDE_DOMAINS, Method.SOURCE_TUPLES, TUPLES, "first in the race: summed over source tuples"
        ),
        Step("race", WIDE_GROUP, Method.SOURCE_SETS, SETS, "first in the race: summed over source sets"),
        DECOMPOSE,
        SEARCH,
        Step("race", ALWAYS, Method.SOURCE_SETS, SETS, "first in the race: summed over source sets"),
        APPROXMC,
    ),
    Mode.OBJECTS: (CLOSED, HEAD, LINEAR, COLOURINGS, DECOMPOSE, SEARCH, APPROXMC),
    Mode.JOINT: (
        CLOSED,
        ENUMERATE,
        Step("race", ALWAYS, Method.SDD, UNBOUNDED, "first in the race: the joint CNF by SDD"),
    ),
    # the mode's own sum (methods.MODE_COUNTERS), stated as a closed form
    Mode.JRS: (
        Step("first", ALWAYS, Method.CLOSED_FORM, UNBOUNDED, "the joint reasoning shortcuts' own sum"),
    ),
}

APPROX: dict[Mode, tuple[Step, ...]] = {
    mode: (
        Step(
            "first",
            ALWAYS,
            Method.DECOMPOSE_APPROX,
            Budget(max_classes=APPROX_DECOMPOSE_MAX_CLASSES),
            "few permutation classes: ApproxMC per class",
        ),  # fmt: skip
        Step("first", ALWAYS, Method.APPROXMC, UNBOUNDED, "ApproxMC on the whole CNF"),
    )
    for mode in (Mode.DISENTANGLED, Mode.OBJECTS)
} | {Mode.JOINT: (Step("first", ALWAYS, Method.APPROXMC, UNBOUNDED, "ApproxMC on the whole CNF"),)}


def run(
    table: dict[Mode, tuple[Step, ...]],
    problem: CountProblem,
    settings: CountSettings,
    progress: Progress | None,
) -> CountResult:
    """The answer of the table's steps for `problem`'s mode, phase by phase; the result's details
    say which step answered (`auto`), how the race went (`race`) and why no closed form applied
    (`closed_forms_inapplicable`). Declined if every step declines."""
    steps = [
        s
        for s in table.get(problem.mode, ())
        if s.when.holds(problem) and (settings.head_start or s.phase != "head")
    ]
    declined: list[str] = []
    facts: dict[str, Any] = {}
    result: CountResult | None = None
    for phase in ("first", "head", "race", "last"):
        of_phase = [s for s in steps if s.phase == phase]
        chosen = [s for n, s in enumerate(of_phase) if s.method not in {t.method for t in of_phase[:n]}]
        if phase == "race" and len(chosen) > 1:
            result = _raced(chosen, problem, settings, progress, declined)
        else:
            result = _in_turn(chosen, problem, settings, progress, declined, facts)
        if result is not None:
            break
    if result is None:
        raise Declined(f"no method counts this task in the {problem.mode} mode: " + "; ".join(declined))
    if "reasons" in facts:
        result.details["closed_forms_inapplicable"] = facts["reasons"]
    return result


def head_start(problem: CountProblem, settings: CountSettings) -> CountResult | None:
    """The head-start steps of auto's table for the problem's mode, in this process (None: none
    answered in its bounds): what a batch of counts tries before forking a child for each."""
    steps = [s for s in AUTO.get(problem.mode, ()) if s.phase == "head" and s.when.holds(problem)]
    return _in_turn(steps, problem, settings, None, [], {})


def _in_turn(
    steps: list[Step],
    problem: CountProblem,
    settings: CountSettings,
    progress: Progress | None,
    declined: list[str],
    facts: dict[str, Any],
) -> CountResult | None:
    for step in steps:

        def attempt(step: Step = step) -> CountResult:
            return backend_for(step.method, problem.mode).count(problem, settings, progress, step.budget)

        try:
            result = within_seconds(HEAD_SECONDS, attempt) if step.phase == "head" else attempt()
        except Declined as exc:
            facts.update(exc.facts)
            # closed forms' reasons are told apart (closed_forms_inapplicable); the race retries the head
            if "reasons" not in exc.facts and step.phase != "head":
                declined.append(f"{step.method}: {exc}")
            continue
        if result is None:  # the head start's seconds ran out
            continue
        result.details["auto"] = step.why().replace("first in the race: ", "")
        return result
    return None


def _raced(
    steps: list[Step],
    problem: CountProblem,
    settings: CountSettings,
    progress: Progress | None,
    declined: list[str],
) -> CountResult | None:
    def entrant(step: Step) -> Entrant:
        return Entrant(
            str(step.method),
            lambda reports: backend_for(step.method, problem.mode).count(
                problem, settings, reports, step.budget
            ),
            steady=step.method in STEADY,
        )

    entrants = [entrant(s) for s in steps]
    if problem.mode in (Mode.DISENTANGLED, Mode.OBJECTS):
        entrants.append(
            Entrant("upper bounds", lambda reports: upper_bounds(problem, settings, reports), BOUNDS_AFTER)
        )
        entrants.append(
            Entrant("sampled estimate", lambda reports: sampled_estimates(problem, reports), BOUNDS_AFTER)
        )
    try:
        outcome = race(entrants, processors(), progress)
    except Declined as exc:
        declined.append(str(exc))
        return None
    winner = next(s for s in steps if str(s.method) == outcome.winner.name)  # type: ignore[union-attr]
    result: CountResult = outcome.result
    result.details["auto"] = winner.why()
    result.details["race"] = outcome.summary()
    return result
