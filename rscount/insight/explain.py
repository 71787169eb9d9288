"""Explaining a task's shortcuts (`rscount explain`, `rscount.explain`): optimal maps other than the
intended one, written for a person, and how often each concept keeps its meaning across all
optimal maps."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from ..counting.dispatch import count_task
from ..counting.methods.jrs import count_jrs
from ..counting.processes.isolation import run_stoppable
from ..counting.settings import DEFAULT_SETTINGS, CountSettings, Method
from ..encoding.value_codes import ValueMapCoding
from ..errors import InternalError, LimitReached
from ..progress import Progress
from ..sinks import terminal
from ..task.model import Mode, Task
from .decisions import MapSolver
from .jrs_pairs import jrs_shortcuts
from .kinds import class_summary, kinds, listed_kinds
from .maps import ConceptMap, MapSpace, identity_map, violation
from .simplest import LISTED_MAX, Counted, every_shortcut, listed_by_method, listed_shortcuts, simplest_maps
from .unidentified import from_maps, unidentified_concepts

T = TypeVar("T")

ENUMERATE_MAX = 10_000  # up to this many optimal maps, every one is listed and summarised
SUMMARY_SAMPLES = 2000  # above it, the summary is estimated from this many uniform samples


def describe_map(task: Task, m: ConceptMap) -> list[dict[str, Any]]:
    """Per predicted concept: the ground-truth concept it reads and the image of each of its values."""
    entries = []
    for j, target in enumerate(task.concepts):
        i = m.source(j)
        source = task.concepts[i]
        values = [[v, target.values[u]] for v, u in zip(source.values, m.f[i])]
        truth = task.ground_truths[i]
        same = target.values[: len(truth)] == truth
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
    {concept: Unidentified.to_dict()}). A time limit leaves out what it stopped (`stopped` says
    which): the count and shortcuts, the summary or the unidentified concepts are then None, and the
    maps are those found before it."""

    task: str
    mode: Mode
    count: int | None
    shortcuts: int | None
    order: str
    maps: list[dict[str, Any]]
    summary: dict[str, Any] | None
    unseen_values: dict[str, list[Any]]
    unidentified: dict[str, dict[str, Any]] | None
    seconds: float
    stopped: list[str] = field(default_factory=list)
    extractor: str | None = None  # the extractor the count assumes (None: joint and jrs modes)
    kinds: dict[str, Any] | None = None  # the maps grouped by what they read (Kinds.to_dict)

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
    settings: CountSettings = DEFAULT_SETTINGS,
) -> Explanation:
    """`show` optimal maps of `task` other than the intended one (each checked by evaluating the
    knowledge), the count, the concepts' summary, the unseen values and the unidentified concepts;
    `randomly` draws the maps shown uniformly (with `seed`) instead of showing the simplest first.
    The count comes first, within half the time limit: when it is small, every map is listed (by
    search, else SAT) and the rest follows from them. Each part runs within what is left of the
    limit; a part the limit stops is left out and named in `stopped`."""
    start = time.perf_counter()
    mode = mode or task.mode
    if mode == Mode.JRS:
        return _jrs(task, show, start)
    settings = settings.commanded()
    stopped: list[str] = []

    def part(what: str, fn: Callable[..., T], *args: Any, share: float = 1.0) -> T | None:
        try:
            return run_stoppable(fn, *args, **settings.portion(share).limits(), what=what)
        except LimitReached as exc:
            stopped.append(f"{what} ({exc})")
            return None

    result = part("counting", count_task, task, settings.replace(mode=mode), progress, share=0.5)
    counted = Counted.of(result)
    if randomly:
        drawn = part("drawing maps", _drawn, task, mode, show, seed)
        order = f"drawn uniformly at random without replacement (seed {seed})"
        found = _Found(drawn or [], part("deciding the concepts involved", _unidentified, task, mode))
    else:
        order = "fewest changed concepts, then fewest changed values, first"
        found = _simplest(task, mode, show, counted, settings, stopped)
    grouped = None
    if counted is not None and counted.shortcuts:  # an exact count with shortcuts: their kinds
        by_search = counted.method == Method.SEARCH
        grouped = (
            listed_kinds(task, mode, found.every)
            if found.every is not None
            else part("grouping the maps into kinds", kinds, task, mode, by_search, None, counted.classes)
        )
        if grouped is not None and grouped.maps != counted.shortcuts + 1:
            raise InternalError(f"explain: the kinds of {task.name} hold {grouped.maps} maps, not the count")
    summary = found.summary
    if summary is None and counted is not None and counted.classes is not None:
        by_search = counted.method == Method.SEARCH
        summary = part("summarising every optimal map", class_summary, task, mode, counted.classes, by_search)
    elif summary is None:
        summary = part("summarising every optimal map", _summary_of, task, mode, seed)
    return Explanation(
        task.name,
        mode,
        None if result is None else result.count,
        None if result is None else result.count - 1,
        order,
        [{"text": map_text(d), "concepts": d, "involves": involved(d)} for d in found.maps],
        summary,
        unseen_values(task, mode),
        found.unidentified,
        round(time.perf_counter() - start, 6),
        stopped,
        task.extractor_name(mode),
        None if grouped is None else grouped.to_dict(),
    )


@dataclass
class _Found:
    """What a search of the maps found: the maps shown (described), the unidentified concepts, and
    the summary when every map was listed."""

    maps: list[list[dict[str, Any]]]
    unidentified: dict[str, dict[str, Any]] | None
    summary: dict[str, Any] | None = None
    every: list[ConceptMap] | None = None  # every optimal map, when listed


def _simplest(
    task: Task, mode: Mode, show: int, counted: Counted | None, settings: CountSettings, stopped: list[str]
) -> _Found:
    """_simplest_here in a child within the limits; a limit keeps the maps found before it (the
    child reports them as it finds them)."""
    progress = Progress(enabled=False)
    try:
        return run_stoppable(
            _simplest_here,
            task,
            mode,
            show,
            counted,
            progress,
            **settings.limits(),
            what="finding maps",
            progress=progress,
        )
    except LimitReached as exc:
        stopped.append(f"finding maps and the concepts involved ({exc})")
        maps: list[list[dict[str, Any]]] = exc.partial.get("maps", [])  # type: ignore[assignment]
        return _Found(maps, None)


def _simplest_here(task: Task, mode: Mode, show: int, counted: Counted | None, progress: Progress) -> _Found:
    """The `show` simplest maps, checked, and the unidentified concepts: from every map when the
    exact count (`counted`) has at most LISTED_MAX shortcuts, or the count's factors list more
    (listed_shortcuts; the summary too), else by the MaxSAT-like search and the identifiability
    questions on the same solver."""

    def described(maps: list[ConceptMap]) -> list[list[dict[str, Any]]]:
        for m in maps:
            _check(task, m)
        return [describe_map(task, m) for m in maps]

    maps = None if counted is None else listed_by_method(task, mode, counted)
    if maps is None and counted is not None and counted.shortcuts <= LISTED_MAX:
        maps = every_shortcut(task, mode, counted, lambda ms: progress.known(maps=described(ms[:show])))
    elif maps is None and counted is not None:  # more, listed only where the count's own factors list them
        maps = listed_shortcuts(task, mode, counted)
    if maps is not None:
        unidentified = {name: u.to_dict() for name, u in from_maps(task, maps).items()}
        summary = _summary(task, [identity_map(task), *maps], exact=True)
        return _Found(described(maps[:show]), unidentified, summary, [identity_map(task), *maps])
    with MapSolver(task, mode) as solver:
        shown: list[ConceptMap] = []
        for m in simplest_maps(solver, show):
            shown.append(m)
            progress.known(maps=described(shown))
        return _Found(described(shown), _unidentified(task, mode, solver))


def _unidentified(task: Task, mode: Mode, solver: MapSolver | None = None) -> dict[str, dict[str, Any]]:
    return {name: u.to_dict() for name, u in unidentified_concepts(task, mode, solver).items()}


def _check(task: Task, m: ConceptMap) -> None:
    problem = violation(task, m)
    if problem is not None:  # a bug: the maps come from the encoding, the check from the knowledge
        raise InternalError(f"explain: map {m} is not optimal: {problem}")


def _drawn(task: Task, mode: Mode, show: int, seed: int) -> list[list[dict[str, Any]]]:
    """`show` maps other than the intended one drawn uniformly without replacement (all of them in a
    random order when there are no more)."""
    space = MapSpace(task, mode)
    identity, rng = identity_map(task), random.Random(seed)
    wanted = min(show, space.count - 1)
    if space.count <= ENUMERATE_MAX:
        shown = rng.sample([m for m in space.maps() if m != identity], wanted)
    else:
        shown = _distinct_samples(space, rng, wanted, identity)
    for m in shown:
        _check(task, m)
    return [describe_map(task, m) for m in shown]


def _summary_of(task: Task, mode: Mode, seed: int) -> dict[str, Any]:
    """How often each concept reads itself and keeps its meaning: over every optimal map, or over
    SUMMARY_SAMPLES uniform samples of them when there are more than ENUMERATE_MAX."""
    space = MapSpace(task, mode)
    if space.count <= ENUMERATE_MAX:
        return _summary(task, list(space.maps()), exact=True)
    rng = random.Random(seed)
    return _summary(task, [space.sample(rng) for _ in range(SUMMARY_SAMPLES)], exact=False)


def unseen_values(task: Task, mode: Mode) -> dict[str, list[Any]]:
    """Per concept, the values no training row shows (the objects mode: on no object), when some."""
    coding = ValueMapCoding(task, shared=mode == Mode.OBJECTS)
    unseen = {
        c.name: [v for u, v in enumerate(task.ground_truths[i]) if u not in coding.seen[coding.owner[i]]]
        for i, c in enumerate(task.concepts)
    }
    return {name: values for name, values in unseen.items() if values}


def _jrs(task: Task, show: int, start: float) -> Explanation:
    """explain in the jrs mode: pairs (concept map, inference layer), fewest concepts merged first."""
    result = count_jrs(task)
    pairs = jrs_shortcuts(task, show)
    order = "fewest concepts merged first, each with the simplest inference layer that fits it"
    summary = {"exact": True, "over": result.count, "concepts": [], "intended": result.details["intended"]}
    loose = {name: {"reads": [], "remapped": True} for name in result.details["not_identified"]}
    seconds = round(time.perf_counter() - start, 6)
    return Explanation(
        task.name, Mode.JRS, result.count, result.shortcuts, order, pairs, summary, {}, loose, seconds
    )
