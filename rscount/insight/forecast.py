"""The concept quality to expect from a model that reaches an optimal map (`rscount forecast`,
`rscount.forecast`): under an optimal map drawn uniformly at random, which ground-truth concept each
predicted concept reads, where each ground-truth value goes, and the concept accuracy on the training
support (and on a test support, with the label accuracy there), as exact fractions.

Everything comes from one table, the number of optimal maps with pi(i) = j and f_i(v) = u, summed
over permutation classes without listing maps. The class representative's value maps are counted
with one value fixed (by the search method's pinned counts when that method counted the task, else
ValueMapSdds.marginals); the members h_out . rep . h_in of its class are averaged in closed form:
a uniformly random h_in sends i to every concept of its H_in-orbit alike, and h_out sends rep's
image to every concept of its H_out-orbit alike, independently, while f_i becomes f_{h_in(i)}.
A test vector keeps its labels under a uniformly drawn optimal map with probability
count(support + vector) / count(support). A task with few optimal maps (counted by the fastest
method) has its figures read off every map instead, listed by the search method's pinned counts or
by SAT (rscount.insight.simplest.every_shortcut).
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..counting.dispatch import count_task
from ..counting.result import CountedClasses, CountResult
from ..counting.settings import CountSettings, Method
from ..encoding.value_codes import ValueMapCoding
from ..errors import InternalError, InvalidSetting, NotApplicable
from ..knowledge.symmetry_groups import symmetry_groups
from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import Row
from .kinds import class_tallies
from .maps import ConceptMap, MapSpace, identity_map
from .simplest import Counted, listed_shortcuts

Table = list[list[int]]  # table[v][u]: maps with f_i(value v) = value u of the concept i feeds


@dataclass
class Forecast:
    """What a uniformly drawn optimal map does to the concepts: `reads[j][i]` (predicted concept j
    reads ground-truth concept i), `values[i][v][w]` (ground-truth value v of concept i becomes value
    w of the concept it feeds), `accuracy[j]` (expected fraction of the support's distinct vectors on
    which predicted concept j is right) and, given test vectors, `test` ({"rows", "accuracy",
    "label_accuracy"}: the same accuracy there, and the expected fraction whose labels are kept)."""

    task: str
    mode: Mode
    count: int
    reads: dict[str, dict[str, Fraction]]
    values: dict[str, dict[str, dict[str, Fraction]]]
    accuracy: dict[str, Fraction]
    support_rows: int
    test: dict[str, Any] | None
    classes: int
    seconds: float
    samples: int | None = None  # None: exact; else estimated from this many uniform draws
    margin: float | None = None  # then each figure is within this of its value with probability 0.95
    extractor: str | None = None  # the extractor the count assumes (None: joint and jrs modes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `rscount forecast --json`: fractions as "p/q" strings, and the same as
        floats under the `_float` keys."""
        out: dict[str, Any] = {
            "task": self.task,
            "mode": str(self.mode),
            "extractor": self.extractor,
            "count": self.count,
            "shortcuts": self.count - 1,
            "exact": self.samples is None,
            "samples": self.samples,
            "margin": self.margin,
            "support_rows": self.support_rows,
            "classes": self.classes,
        }
        for key in ("reads", "values", "accuracy"):
            out[key] = _strings(getattr(self, key))
            out[f"{key}_float"] = _floats(getattr(self, key))
        if self.test is not None:
            test = self.test
            out["test"] = {
                "rows": test["rows"],
                "accuracy": _strings(test["accuracy"]),
                "accuracy_float": _floats(test["accuracy"]),
                "label_accuracy": str(test["label_accuracy"]),
                "label_accuracy_float": float(test["label_accuracy"]),
            }
        out["seconds"] = self.seconds
        return out


def _strings(tree: Any) -> Any:
    """Fractions as "p/q" at any length (Python refuses ints over 4300 digits as text by default)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return {k: _strings(v) for k, v in tree.items()} if isinstance(tree, dict) else str(tree)
    finally:
        sys.set_int_max_str_digits(old)


def _floats(tree: Any) -> Any:
    return {k: _floats(v) for k, v in tree.items()} if isinstance(tree, dict) else float(tree)


class MapMarginals:
    """`joint[i, j][v][u]` times `scale`: the optimal maps of a task with pi(i) = j and f_i(v) = u
    (value numbers), for every pair (i, j) that some optimal map has; `count` optimal maps in all;
    over the classes a count kept (`counted`) when given, else over those found afresh."""

    def __init__(
        self,
        task: Task,
        mode: Mode,
        progress: Progress | None = None,
        by_search: bool = False,
        counted: CountedClasses | None = None,
    ) -> None:
        self.task = task
        tallies, blocks = class_tallies(task, mode, progress, by_search, counted=counted)
        h_in, h_out = symmetry_groups(task, mode, blocks)
        inputs, outputs = h_in.orbits(), h_out.orbits()
        self.scale = math.lcm(*map(len, inputs)) * math.lcm(*map(len, outputs))
        coding = ValueMapCoding(task, shared=mode == Mode.OBJECTS)
        sizes, owner = coding.sizes, coding.owner
        self.joint: dict[tuple[int, int], Table] = {}
        self.count = 0
        self.classes = len(tallies)
        for rep, size, (total, fixed) in tallies:
            if not total:
                continue
            self.count += size * total
            for i, orbit in enumerate(inputs):
                for source in orbit:  # h_in(i) = source; rep sends it to t, h_out then anywhere in t's orbit
                    o, t = owner[source], rep[source]
                    table = [fixed.get((o, v)) or [total // sizes[t]] * sizes[t] for v in range(sizes[i])]
                    weight = size * self.scale // (len(orbit) * len(outputs[t]))
                    for j in outputs[t]:
                        into = self.joint.setdefault((i, j), [[0] * sizes[j] for _ in range(sizes[i])])
                        for row, add in zip(into, table):
                            for u, n in enumerate(add):
                                row[u] += weight * n
        mass = sum(sum(table[0]) for (i, _), table in self.joint.items() if i == 0)
        if mass != self.count * self.scale:  # every map has one pi(0) and one f_0(0)
            raise InternalError(
                f"forecast marginals of {task.name} sum to {mass}, not {self.count * self.scale}"
            )

    def probability(self, maps: int) -> Fraction:
        """A number of (scaled) maps as a probability under the uniform draw."""
        return Fraction(maps, self.count * self.scale)

    def accuracy(self, rows: Sequence[Row]) -> list[Fraction]:
        """Per predicted concept j, the expected fraction of `rows` on which it equals the row's c_j."""
        index = [c.index for c in self.task.concepts]
        right = [0] * len(index)
        for (i, j), table in self.joint.items():
            pairs = Counter((index[i][row[i]], index[j][row[j]]) for row in rows)
            right[j] += sum(n * table[v][u] for (v, u), n in pairs.items())
        return [self.probability(n) / len(rows) for n in right]


def forecast(
    task: Task,
    mode: Mode | None = None,
    test: Sequence[Row] | None = None,
    progress: Progress | None = None,
    samples: int | None = None,
    seed: int = 1,
) -> Forecast:
    """The forecast of `task` in the disentangled or objects mode, exact, or with `samples`
    estimated from that many uniform draws (with `seed`); `test`: concept vectors (in concept order)
    on which to forecast concept and label accuracy too."""
    start = time.perf_counter()
    mode = mode or task.mode
    if mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
        raise NotApplicable(f"forecast reads maps (pi, f): the disentangled and objects modes, not {mode}")
    if samples is not None:
        return _estimated(task, mode, test, samples, random.Random(seed), progress, start)
    counted = count_task(task, CountSettings(mode=mode))
    listed = _listed(task, mode, test, counted, start)
    if listed is not None:
        return listed
    marginals = MapMarginals(task, mode, progress, counted.method == Method.SEARCH, counted.classes)
    concepts = task.concepts
    reads = {c.name: {s.name: Fraction(0) for s in concepts} for c in concepts}
    fed: list[list[int]] = [[] for _ in concepts]
    for i, j in marginals.joint:
        fed[i].append(j)
    values = {
        c.name: {
            str(v): {str(w): Fraction(0) for w in _images(task, i, fed[i])} for v in task.ground_truths[i]
        }
        for i, c in enumerate(concepts)
    }
    for (i, j), table in marginals.joint.items():
        reads[concepts[j].name][concepts[i].name] += marginals.probability(sum(table[0]))
        for v, row in zip(task.ground_truths[i], table):
            for w, n in zip(concepts[j].values, row):
                values[concepts[i].name][str(v)][str(w)] += marginals.probability(n)
    rows = task.support.rows
    accuracy = dict(zip(task.names, marginals.accuracy(rows)))
    found = None
    if test:
        found = {
            "rows": len(test),
            "accuracy": dict(zip(task.names, marginals.accuracy(test))),
            "label_accuracy": _label_accuracy(task, mode, test, marginals.count, progress),
        }
    seconds = round(time.perf_counter() - start, 6)
    return Forecast(
        task.name,
        mode,
        marginals.count,
        reads,
        values,
        accuracy,
        len(rows),
        found,
        marginals.classes,
        seconds,
        extractor=task.extractor_name(mode),
    )


def _estimated(
    task: Task,
    mode: Mode,
    test: Sequence[Row] | None,
    samples: int,
    rng: random.Random,
    progress: Progress | None,
    start: float,
) -> Forecast:
    """The forecast's figures as frequencies over `samples` optimal maps drawn uniformly (MapSpace:
    exact uniform draws, no conditioning), each within `margin` of the exact figure with probability
    0.95 by Hoeffding's inequality (every figure is a mean of values in [0, 1])."""
    if samples < 1:
        raise InvalidSetting("samples", f"must be at least 1, not {samples}")
    space = MapSpace(task, mode, progress)
    drawn = []
    for n in range(samples):
        if progress:
            progress.update(f"forecast: uniform draw {n + 1}/{samples}")
        drawn.append(space.sample(rng))
    found = _from_maps(task, mode, drawn, test, space.count, len(space.classes), start)
    found.samples, found.margin = samples, math.sqrt(math.log(2 / 0.05) / (2 * samples))
    return found


def _listed(
    task: Task, mode: Mode, test: Sequence[Row] | None, counted: CountResult, start: float
) -> Forecast | None:
    """The exact forecast from every optimal map (listed_shortcuts) when the task's count (`counted`,
    by the fastest method) is exact and small; None otherwise (the marginals then answer)."""
    shortcuts = listed_shortcuts(task, mode, Counted.of(counted))
    if shortcuts is None:
        return None
    return _from_maps(task, mode, [identity_map(task), *shortcuts], test, counted.count, 0, start)


def _from_maps(
    task: Task,
    mode: Mode,
    maps: Sequence[ConceptMap],
    test: Sequence[Row] | None,
    count: int,
    classes: int,
    start: float,
) -> Forecast:
    """The forecast's figures as frequencies over `maps` (every optimal map: exact; uniform draws:
    estimates), each map evaluated on the support and the test vectors."""
    concepts, names = task.concepts, task.names
    reads = {c.name: dict.fromkeys(names, Fraction(0)) for c in concepts}
    values: dict[str, dict[str, dict[str, Fraction]]] = {
        c.name: {str(v): {} for v in truth} for c, truth in zip(concepts, task.ground_truths)
    }
    rows, extra = task.support.rows, list(test or [])
    share = Fraction(1, len(maps))
    for m in maps:
        for i, c in enumerate(concepts):
            target = concepts[m.pi[i]]
            reads[target.name][c.name] += share
            for v, u in zip(c.values, m.f[i]):
                images = values[c.name][str(v)]
                images[str(target.values[u])] = images.get(str(target.values[u]), Fraction(0)) + share
    found = None
    if extra:
        labels = task.labels_of(extra)
        kept = 0
        for m in maps:
            kept += sum(a == b for a, b in zip(task.labels_of([m.predict(task, r) for r in extra]), labels))
        found = {
            "rows": len(extra),
            "accuracy": {
                n: Fraction(k, len(maps) * len(extra)) for n, k in _right(task, maps, extra).items()
            },
            "label_accuracy": Fraction(kept, len(maps) * len(extra)),
        }
    return Forecast(
        task.name,
        mode,
        count,
        reads,
        values,
        {n: Fraction(k, len(maps) * len(rows)) for n, k in _right(task, maps, rows).items()},
        len(rows),
        found,
        classes,
        round(time.perf_counter() - start, 6),
        extractor=task.extractor_name(mode),
    )


def _right(task: Task, maps: Sequence[ConceptMap], rows: Sequence[Row]) -> dict[str, int]:
    """Per predicted concept, the (map, row) pairs on which it is right, from how often each pair of
    values (row[i], row[j]) occurs (predicted concept j reads ground-truth concept i)."""
    concepts = task.concepts
    pairs: dict[tuple[int, int], Counter[tuple[Any, Any]]] = {}
    right = dict.fromkeys(task.names, 0)
    for m in maps:
        for i, c in enumerate(concepts):
            j = m.pi[i]
            if (i, j) not in pairs:
                pairs[i, j] = Counter((row[i], row[j]) for row in rows)
            target = concepts[j]
            right[target.name] += sum(
                n for (v, w), n in pairs[i, j].items() if target.values[m.f[i][c.index[v]]] == w
            )
    return right


def _images(task: Task, i: int, fed: Sequence[int]) -> list[Any]:
    """The values ground-truth concept i may become: its own domain's, then those of the other
    concepts it feeds in some optimal map (`fed`), each once."""
    return list(dict.fromkeys(v for j in (i, *fed) for v in task.concepts[j].values))


def _label_accuracy(
    task: Task, mode: Mode, test: Sequence[Row], count: int, progress: Progress | None
) -> Fraction:
    """The expected fraction of `test` vectors whose labels a uniformly drawn optimal map keeps: per
    vector, the optimal maps that also keep its labels, over all optimal maps."""
    settings = CountSettings(method=Method.EXACT, mode=mode)
    support, members = list(task.support.rows), set(task.support.rows)
    kept = Fraction(0)
    for n, row in enumerate(test, start=1):
        if progress:
            progress.update(f"forecast: test vector {n}/{len(test)}")
        if row in members:
            kept += 1
            continue
        with_row = task.with_support([*support, row])  # the supervision kept
        kept += Fraction(count_task(with_row, settings).count, count)
    return kept / len(test)
