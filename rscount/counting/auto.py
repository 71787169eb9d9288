"""`auto` and `approx` as tables: per counting mode, the ordered steps (when a step applies, which
method, its budget, why it is chosen) that one short loop tries until a method answers. A method that
declines (it does not apply, or would pass its budget) hands on what it learned; the next step that
applies runs. README and docs/performance.md point here rather than retell the order.

Every threshold is named once below, with the measurement behind it (2-core machine; benchmarks/)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..knowledge.labels import label_groups
from ..progress import Progress
from ..task.model import Mode
from .budget import UNBOUNDED, Budget, Declined
from .methods import BACKENDS
from .methods.source_sets.backend import RESIDUAL_CONCEPTS
from .problem import CountProblem
from .result import CountResult
from .settings import CountSettings, Method

# Source-tuples goes first when the label groups have at most this many source tuples and no tuple's
# factor lists more value maps than that (MNMath, digits 0-9, 200 rows: 35 s against decompose's 141).
SOURCE_TUPLES_MAX = 2000
TUPLE_MODELS = 2000
# A label group over more concepts than source-sets tabulates by residuals (RESIDUAL_CONCEPTS) is
# counted first by source-sets listing its readings by SAT, where the class search on the multiplexed
# CNF stalls (random 3-CNF on 14 bits, 8192 rows: 2 s against over 60).
GROUP_CONCEPTS = RESIDUAL_CONCEPTS
# source-sets gives up past this many states of a group's programme and solver models of its readings.
SOURCE_SET_STATES = 1 << 18
SOURCE_SET_MODELS = 20_000
# decompose costs about 1.5 ms per permutation class on 8 Boolean concepts, so it counts at most this
# many classes before the next step; classes that a SAT solver lists (sampled supports) are then
# counted as found, with a lower bound all along, where ApproxMC on the whole CNF did not finish in
# 300 s (SDD-OIA, 32 and 64 rows; benchmarks/reach.md).
DECOMPOSE_MAX_CLASSES = 5000
# A failed enumeration probe costs up to this many solver calls on the whole CNF (seconds on supports
# of thousands of vectors); a count that enumeration finishes has at most this many classes, which
# decompose, tried before, counts quickly.
ENUMERATE_MODELS = 1000
# decompose-approx runs ApproxMC once per permutation class (about 0.1 s at least), so `approx` uses
# it only when few classes survive pruning; ApproxMC on the whole CNF otherwise.
APPROX_DECOMPOSE_MAX_CLASSES = 64


@dataclass(frozen=True)
class Condition:
    """When a step applies: a test on the problem and the facts earlier steps learned, and its text."""

    text: str
    holds: Callable[[CountProblem, dict[str, Any]], bool]


def _widest_group(problem: CountProblem) -> int:
    return max(len(concepts) for _, concepts in label_groups(problem.task))


ALWAYS = Condition("always", lambda problem, facts: True)
WIDE_DOMAINS = Condition(
    "a concept has more than two values",
    lambda problem, facts: max(len(c.values) for c in problem.task.concepts) > 2,
)
WIDE_GROUP = Condition(
    f"a label group reads more than {GROUP_CONCEPTS} concepts",
    lambda problem, facts: _widest_group(problem) > GROUP_CONCEPTS,
)
NARROW_GROUPS = Condition(
    f"every label group reads at most {GROUP_CONCEPTS} concepts",
    lambda problem, facts: _widest_group(problem) <= GROUP_CONCEPTS,
)
CLASSES_BY_SAT = Condition(
    "an earlier step's class search listed the classes by SAT",
    lambda problem, facts: facts.get("classes_found_by") == "sat",
)


@dataclass(frozen=True)
class Step:
    """One row of a table: `reason` is printed with the count (`{max_classes}` and the other bounds
    are filled in from the budget)."""

    when: Condition
    method: Method
    budget: Budget
    reason: str

    def why(self) -> str:
        return self.reason.format(**vars(self.budget))


CLOSED = Step(ALWAYS, Method.CLOSED_FORM, UNBOUNDED, "a closed form applies")
SETS = Budget(max_states=SOURCE_SET_STATES, max_models=SOURCE_SET_MODELS)
DECOMPOSE = Step(
    ALWAYS, Method.DECOMPOSE, Budget(max_classes=DECOMPOSE_MAX_CLASSES),
    "at most {max_classes} permutation classes survive",
)  # fmt: skip
DECOMPOSE_AS_FOUND = Step(
    CLASSES_BY_SAT, Method.DECOMPOSE, UNBOUNDED, "classes found by SAT: counted as found"
)
ENUMERATE = Step(
    ALWAYS,
    Method.ENUMERATE,
    Budget(max_models=ENUMERATE_MODELS),
    "at most {max_models} solver models, enumerated",
)
APPROXMC = Step(ALWAYS, Method.APPROXMC, UNBOUNDED, "ApproxMC on the whole CNF")

AUTO: dict[Mode, tuple[Step, ...]] = {
    Mode.DISENTANGLED: (
        CLOSED,
        Step(
            WIDE_DOMAINS,
            Method.SOURCE_TUPLES,
            Budget(max_classes=SOURCE_TUPLES_MAX, max_models=TUPLE_MODELS),
            "concepts over wide domains, few source tuples: summed over them",
        ),  # fmt: skip
        Step(
            WIDE_GROUP,
            Method.SOURCE_SETS,
            SETS,
            "a wide label group: source sets, its readings listed by SAT",
        ),
        DECOMPOSE,
        Step(
            NARROW_GROUPS, Method.SOURCE_SETS, SETS, "too many permutation classes: summed over source sets"
        ),
        DECOMPOSE_AS_FOUND,
        ENUMERATE,
        APPROXMC,
    ),
    Mode.OBJECTS: (CLOSED, DECOMPOSE, DECOMPOSE_AS_FOUND, ENUMERATE, APPROXMC),
    Mode.JOINT: (CLOSED, ENUMERATE, Step(ALWAYS, Method.SDD, UNBOUNDED, "the joint CNF by SDD")),
    Mode.JRS: (Step(ALWAYS, Method.JRS, UNBOUNDED, "the joint reasoning shortcuts' own sum"),),
}

PER_CLASS = Step(
    ALWAYS, Method.DECOMPOSE_APPROX, Budget(max_classes=APPROX_DECOMPOSE_MAX_CLASSES),
    "few permutation classes: ApproxMC per class",
)  # fmt: skip
APPROX: dict[Mode, tuple[Step, ...]] = {
    Mode.DISENTANGLED: (PER_CLASS, APPROXMC),
    Mode.OBJECTS: (PER_CLASS, APPROXMC),
    Mode.JOINT: (APPROXMC,),
}


def run(
    table: dict[Mode, tuple[Step, ...]],
    problem: CountProblem,
    settings: CountSettings,
    progress: Progress | None,
) -> CountResult:
    """The first answer of the steps of `problem`'s mode that apply, in order; the result's details
    say why its step was chosen and why the steps before declined (`closed_forms_inapplicable`: why
    no closed form applied). Declined if every step declines."""
    facts: dict[str, Any] = {}
    declined: list[str] = []
    for step in table.get(problem.mode, ()):
        if not step.when.holds(problem, facts):
            continue
        try:
            result = BACKENDS[step.method].count(problem, settings, progress, step.budget)
        except Declined as exc:
            facts.update(exc.facts)
            if step.method != Method.CLOSED_FORM:
                declined.append(f"{step.method}: {exc}")
            continue
        result.details["auto"] = step.why() + (f" (after {'; '.join(declined)})" if declined else "")
        if "reasons" in facts:
            result.details["closed_forms_inapplicable"] = facts["reasons"]
        return result
    raise Declined(f"no step of the table counts the {problem.mode} mode: " + "; ".join(declined))
