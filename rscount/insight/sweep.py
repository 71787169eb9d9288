"""Sweeps (`rscount sweep`, `rscount.sweep`): the count as the training support shrinks (and as
concept supervision grows), over nested random supports, with the robustness score of
docs/shortcuts.md (the CSV and the plot are in rscount.report).

Nesting: for seed s the support rows are put in one random order (a uniform sample of the full
support, in random order); the support at fraction F is the first max(1, round(F * n)) rows of
that order and the supervised rows at level g the first round(g * size) of those (plus the task's
own supervised rows that are kept). So for one seed a smaller fraction's support is a subset of a
larger one's, and the count can only grow as the support shrinks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from ..counting.jobs import CountJob, run_count
from ..counting.processes.parallel import run_jobs
from ..counting.settings import DEFAULT_SETTINGS, CountSettings
from ..errors import InternalError, InvalidSetting, LimitReached, NotApplicable, quote
from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import decode, sample_size

CSV_FIELDS = [
    "task",
    "mode",
    "seed",
    "fraction",
    "support_size",
    "supervision",
    "supervised",
    "count",
    "log10_count",
    "exact",
    "method",
    "seconds",
    "error",
]

MAX_LEVELS = 1000


def parse_levels(text: str, setting: str, zero: bool = False) -> list[float]:
    """`A:B:STEP` (inclusive, rounded to 10 decimals) or `a,b,c`: levels in (0, 1], or [0, 1] with `zero`."""
    try:
        if ":" in text:
            parts = [float(x) for x in text.split(":")]
            if len(parts) != 3 or not parts[2] > 0:
                raise ValueError
            low, high, step = parts
            n = math.floor((high - low) / step + 1e-9)
            if n > MAX_LEVELS:
                raise InvalidSetting(setting, f"{quote(text)} makes more than {MAX_LEVELS} levels")
            levels = [round(low + m * step, 10) for m in range(n + 1)]
        else:
            levels = [float(x) for x in text.split(",")]
    except ValueError:
        raise InvalidSetting(
            setting, f"expected A:B:STEP or a comma-separated list of numbers, got {quote(text)}"
        ) from None
    bad = [x for x in levels if not 0 <= x <= 1 or (x == 0 and not zero)]
    if not levels or bad:
        where = "[0, 1]" if zero else "(0, 1]"
        raise InvalidSetting(setting, f"every level must lie in {where}, got {quote(text)}")
    return sorted(set(levels))


def nested_order(task: Task, seed: int, n: int) -> list[tuple[Any, ...]]:
    """The first `n` support rows in the random order of `seed` (prefixes: uniform samples)."""
    support = task.support
    total = support.size
    picks = random.Random(seed).sample(range(total), n)
    if support.exhaustive:
        return [decode(i, support.domains) for i in picks]
    return [support.rows[i] for i in picks]


def grid_tasks(
    task: Task, seeds: Sequence[int], fractions: Sequence[float], supervision: Sequence[float]
) -> list[tuple[dict[str, Any], Task]]:
    """Per (seed, fraction, supervision level): the grid point and the task with that support."""
    total = task.support.size
    sizes = {f: sample_size(f, total, "fractions") for f in fractions}
    out = []
    for seed in seeds:
        order = nested_order(task, seed, max(sizes.values()))
        for g in supervision:
            for f in fractions:
                rows = order[: sizes[f]]
                kept = set(rows)
                supervised: list[Any] = rows[: round(g * len(rows))]
                supervised += [r for r in task.support.supervised if r in kept and r not in supervised]
                point = {"seed": seed, "fraction": f, "support_size": len(rows), "supervision": g}
                point["supervised"] = len(supervised)
                partial = [  # the task's own supervision of some concepts, on the rows kept
                    {"row": list(r), "concepts": [task.names[k] for k in sorted(on)]}
                    for r, on in task.support.partial.items()
                    if r in kept and r not in supervised
                ]
                out.append((point, task.with_support(rows, supervised + partial)))
    return out


@dataclass
class Sweep:
    """A sweep: its grid (seeds, fractions, supervision levels), one row per grid point with its
    count (see CSV_FIELDS), the scores per supervision level (see `scores`), and how many distinct
    supports the time limit left uncounted (`stopped`)."""

    task: str
    mode: Mode
    full_support: int
    seeds: list[int]
    fractions: list[float]
    supervision: list[float]
    rows: list[dict[str, Any]]
    scores: list[dict[str, Any]]
    stopped: int = 0
    extractor: str | None = None  # the extractor the count assumes (None: joint and jrs modes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `rscount sweep --json`."""
        return {**asdict(self), "mode": str(self.mode)}


def sweep(
    task: Task,
    seeds: Sequence[int],
    fractions: Sequence[float],
    supervision: Sequence[float] = (0.0,),
    settings: CountSettings = DEFAULT_SETTINGS,
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
) -> Sweep:
    """Count every grid point (full support always included: it is the score's reference) as
    `settings` say, all within their time limit (one deadline: counts it stops fail as limited, and
    `stopped` says how many). Identical supports are counted once."""
    mode = settings.mode_for(task)
    settings = settings.replace(mode=mode).commanded()
    fractions = sorted(set(fractions) | {1.0})
    points = grid_tasks(task, seeds, fractions, supervision)
    keys = [
        (frozenset(t.support.rows), t.support.supervised, frozenset(t.support.partial.items()))
        for _, t in points
    ]
    unique: dict[Any, Task] = {}
    for key, (_, t) in zip(keys, points):
        unique.setdefault(key, t)
    counts = [CountJob(t, settings) for t in unique.values()]
    outcomes = run_jobs(run_count, counts, jobs, dask, progress, "counts", timeout=settings.left())
    by_key = dict(zip(unique, outcomes))
    rows = []
    for key, (point, _) in zip(keys, points):
        o = by_key[key]
        rows.append(
            {
                "task": task.name,
                "mode": mode,
                **point,
                "count": o.count,
                "log10_count": round(math.log10(o.count), 6) if o.count else None,
                "exact": o.exact,
                "method": str(o.method),
                "seconds": round(o.seconds, 6),
                "error": o.error,
            }
        )
    if all(r["count"] is None for r in rows):
        failure = f"sweep: no count succeeded: {rows[0]['error']}"
        raise LimitReached(failure) if any(o.limit for o in outcomes) else NotApplicable(failure)
    _check_monotone(rows)
    stopped = sum(o.limit for o in outcomes)
    return Sweep(
        task.name,
        mode,
        task.support.size,
        list(seeds),
        fractions,
        list(supervision),
        rows,
        scores(rows),
        stopped,
        task.extractor_name(mode),
    )


def _check_monotone(rows: list[dict[str, Any]]) -> None:
    """Exact counts of one seed and supervision level never grow with the support (nested): a
    violation is a bug, not a property of the task."""
    series: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        if r["count"] is not None and r["exact"]:
            series.setdefault((r["seed"], r["supervision"]), []).append(r)
    for (seed, g), rs in series.items():
        rs.sort(key=lambda r: r["fraction"])
        for a, b in zip(rs, rs[1:]):
            if b["count"] > a["count"]:
                raise InternalError(
                    f"sweep: seed {seed}, supervision {g}: {b['count']} maps at fraction {b['fraction']} "
                    f"but {a['count']} at the smaller {a['fraction']}, whose support it contains"
                )


def scores(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per supervision level: rho (eq. 1 of the robustness study, with sample drop p = 1 - F and
    performance 1/count), R = rho / mean(p) in [0, 1], and the smallest fraction from which every
    seed counts 1. See docs/shortcuts.md."""
    out = []
    for g in sorted({r["supervision"] for r in rows}):
        level = [r for r in rows if r["supervision"] == g and r["count"] is not None]
        reference = {r["seed"]: r["count"] for r in level if r["fraction"] == 1.0}
        terms, drops = [], []
        for r in level:
            if r["fraction"] < 1.0 and r["seed"] in reference:
                drop = 1 - Fraction(str(r["fraction"]))
                terms.append(drop * Fraction(reference[r["seed"]], r["count"]))
                drops.append(drop)
        rho = sum(terms) / len(terms) if terms else None
        fractions = sorted({r["fraction"] for r in level})
        free = [f for f in fractions if all(r["count"] == 1 for r in level if r["fraction"] >= f)]
        out.append(
            {
                "supervision": g,
                "rho": None if rho is None else float(rho),
                "R": None if rho is None else float(rho / (sum(drops) / len(drops))),
                "shortcut_free_from": free[0] if free else None,
                "counts": len(terms),
            }
        )
    return out
