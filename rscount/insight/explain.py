"""Explaining a task's shortcuts (`rscount explain`, `rscount.explain`): optimal maps other than the
intended one, written for a person, and how often each concept keeps its meaning across all
optimal maps."""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from ..counting.methods.jrs import count_jrs
from ..errors import InternalError
from ..progress import Progress
from ..sinks import terminal
from ..task.model import Mode, Task
from .jrs_pairs import jrs_shortcuts
from .maps import ConceptMap, MapSpace, identity_map, violation
from .unidentified import unidentified_concepts

ENUMERATE_MAX = 10_000  # up to this many optimal maps, every one is listed and summarised
SUMMARY_SAMPLES = 2000  # above it, the summary is estimated from this many uniform samples


def describe_map(task: Task, m: ConceptMap) -> list[dict[str, Any]]:
    """Per predicted concept: the ground-truth concept it reads and the image of each of its values."""
    entries = []
    for j, target in enumerate(task.concepts):
        i = m.source(j)
        source = task.concepts[i]
        values = [[v, target.values[u]] for v, u in zip(source.values, m.f[i])]
        same = source.values == target.values
        entries.append({"concept": target.name, "reads": source.name, "same_domain": same, "values": values})
    return entries


def map_text(entries: list[dict[str, Any]]) -> str:
    """`c2 <- c3; c1: 0->1, 1->0`: what each predicted concept reads (omitted when it reads itself)
    and the values that change (all of them when the two domains differ)."""
    parts = []
    for e in entries:
        changed = [(v, w) for v, w in e["values"] if v != w or not e["same_domain"]]
        if e["reads"] == e["concept"] and not changed:
            continue
        head = e["concept"] if e["reads"] == e["concept"] else f"{e['concept']} <- {e['reads']}"
        moves = ", ".join(f"{terminal(str(v))}->{terminal(str(w))}" for v, w in changed)
        parts.append(head + (": " + moves if changed else ""))
    return "; ".join(parts) if parts else "the intended map"


def involved(entries: list[dict[str, Any]]) -> list[str]:
    """The predicted concepts a map changes (it reads another concept, or moves a value), and the
    ground-truth concepts they read instead, in concept order."""
    names = [e["concept"] for e in entries]
    changed = {
        name
        for e in entries
        if e["reads"] != e["concept"] or any(v != w for v, w in e["values"]) or not e["same_domain"]
        for name in (e["concept"], e["reads"])
    }
    return [n for n in names if n in changed]


def _changes(m: ConceptMap) -> tuple[int, int]:
    """(predicted concepts that lose their meaning, values that move): smaller reads simpler."""
    lost = sum(not m.keeps_meaning(j) for j in range(len(m.pi)))
    moved = sum(m.pi[i] != i or u != v for i in range(len(m.pi)) for v, u in enumerate(m.f[i]))
    return lost, moved


def _summary(task: Task, maps: list[ConceptMap], exact: bool) -> dict[str, Any]:
    rows = [
        {
            "concept": c.name,
            "reads_itself": sum(m.pi[j] == j for m in maps),
            "keeps_meaning": sum(m.keeps_meaning(j) for m in maps),
        }
        for j, c in enumerate(task.concepts)
    ]
    return {"exact": exact, "over": len(maps), "concepts": rows}


def _distinct_samples(space: MapSpace, rng: random.Random, wanted: int, skip: ConceptMap) -> list[ConceptMap]:
    """`wanted` distinct maps other than `skip`, drawn uniformly without replacement (the space holds
    more than ENUMERATE_MAX maps, so rejections are rare)."""
    found: dict[ConceptMap, None] = {}
    while len(found) < wanted:
        m = space.sample(rng)
        if m != skip:
            found.setdefault(m, None)
    return list(found)


@dataclass
class Explanation:
    """What explain found: the count, the maps shown (each {"text", "concepts", "involves"}: see
    describe_map and involved) in the order `order` says, the per-concept summary ({"exact",
    "over", "concepts"}), per concept the values no training row shows (the maps there are free and
    multiply the count), and the concepts whose meaning the task does not pin (`unidentified`:
    {concept: {"reads": other concepts it may read, "remapped": whether its values may move}})."""

    task: str
    mode: Mode
    count: int
    shortcuts: int
    order: str
    maps: list[dict[str, Any]]
    summary: dict[str, Any]
    unseen_values: dict[str, list[Any]]
    unidentified: dict[str, dict[str, Any]]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `rscount explain --json`."""
        return {**asdict(self), "mode": str(self.mode)}


def explain(
    task: Task,
    mode: Mode | None = None,
    show: int = 5,
    randomly: bool = False,
    seed: int = 1,
    progress: Progress | None = None,
) -> Explanation:
    """`show` optimal maps of `task` other than the intended one (each checked by evaluating the
    knowledge), the concepts' summary and the unseen values; `randomly` draws the maps shown
    uniformly (with `seed`) instead of showing the simplest first."""
    start = time.perf_counter()
    mode = mode or task.mode
    if mode == Mode.JRS:
        result = count_jrs(task)
        pairs = jrs_shortcuts(task, show)
        order = "fewest concepts merged first, each with the simplest inference layer that fits it"
        summary = {
            "exact": True,
            "over": result.count,
            "concepts": [],
            "intended": result.details["intended"],
        }
        seconds = round(time.perf_counter() - start, 6)
        loose = {name: {"reads": [], "remapped": True} for name in result.details["not_identified"]}
        return Explanation(
            task.name, mode, result.count, result.shortcuts, order, pairs, summary, {}, loose, seconds
        )
    space = MapSpace(task, mode, progress)
    identity = identity_map(task)
    rng = random.Random(seed)
    wanted = min(show, space.count - 1)
    if space.count <= ENUMERATE_MAX:
        every = list(space.maps())
        others = [m for m in every if m != identity]
        if randomly:
            shown = rng.sample(others, wanted)
            order = f"drawn uniformly at random without replacement (seed {seed})"
        else:
            shown = sorted(others, key=lambda m: (_changes(m), m.pi, m.f))[:wanted]
            order = "fewest changed concepts, then fewest changed values, first"
        summary = _summary(task, every, exact=True)
    else:
        shown = _distinct_samples(space, rng, wanted, identity)
        order = f"drawn uniformly at random without replacement (seed {seed}; too many maps to list them all)"
        summary = _summary(task, [space.sample(rng) for _ in range(SUMMARY_SAMPLES)], exact=False)
    for m in shown:
        problem = violation(task, m)
        if problem is not None:  # a bug: the maps come from the encoding, the check from the knowledge
            raise InternalError(f"explain: map {m} is not optimal: {problem}")
    seen = space.coding.seen  # value numbers, per concept (per attribute in the objects mode)
    unseen = {
        c.name: [v for u, v in enumerate(c.values) if u not in seen[space.coding.owner[i]]]
        for i, c in enumerate(task.concepts)
    }
    return Explanation(
        task.name,
        mode,
        space.count,
        space.count - 1,
        order,
        [
            {"text": map_text(d), "concepts": d, "involves": involved(d)}
            for d in (describe_map(task, m) for m in shown)
        ],
        summary,
        {name: values for name, values in unseen.items() if values},
        {name: u.to_dict() for name, u in unidentified_concepts(task, mode).items()},
        round(time.perf_counter() - start, 6),
    )
