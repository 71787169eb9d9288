"""`rscount sweep`: the count as the training support shrinks (and as concept supervision grows),
over nested random supports, with a CSV, a plot and the robustness score of docs/shortcuts.md.

Nesting: for seed s the support rows are put in one random order (a uniform sample of the full
support, in random order); the support at fraction F is the first max(1, round(F * n)) rows of
that order and the supervised rows at level g the first round(g * size) of those (plus the task's
own supervised rows that are kept). So for one seed a smaller fraction's support is a subset of a
larger one's, and the count can only grow as the support shrinks.
"""

from __future__ import annotations

import csv
import math
import os
import random
import statistics
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from .countjob import CountJob, run_count
from .errors import RscountError
from .parallel import run_jobs
from .progress import Progress
from .report import count_text
from .support import Support, decode, sample_size
from .task import Task

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


def parse_levels(text: str, flag: str, zero: bool = False) -> list[float]:
    """`A:B:STEP` (inclusive, rounded to 10 decimals) or `a,b,c`: levels in (0, 1], or [0, 1] with `zero`."""
    try:
        if ":" in text:
            parts = [float(x) for x in text.split(":")]
            if len(parts) != 3 or not parts[2] > 0:
                raise ValueError
            low, high, step = parts
            n = math.floor((high - low) / step + 1e-9)
            if n > MAX_LEVELS:
                raise RscountError(f"{flag}: {text!r} makes more than {MAX_LEVELS} levels")
            levels = [round(low + m * step, 10) for m in range(n + 1)]
        else:
            levels = [float(x) for x in text.split(",")]
    except ValueError:
        raise RscountError(
            f"{flag}: expected A:B:STEP or a comma-separated list of numbers, got {text!r}"
        ) from None
    bad = [x for x in levels if not 0 <= x <= 1 or (x == 0 and not zero)]
    if not levels or bad:
        where = "[0, 1]" if zero else "(0, 1]"
        raise RscountError(f"{flag}: every level must lie in {where}, got {text!r}")
    return sorted(set(levels))


def nested_order(task: Task, seed: int, n: int) -> list[tuple]:
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
    sizes = {f: sample_size(f, total, "--fractions") for f in fractions}
    out = []
    for seed in seeds:
        order = nested_order(task, seed, max(sizes.values()))
        for g in supervision:
            for f in fractions:
                rows = order[: sizes[f]]
                kept = set(rows)
                supervised = rows[: round(g * len(rows))]
                supervised += [r for r in task.support.supervised if r in kept and r not in supervised]
                point = {"seed": seed, "fraction": f, "support_size": len(rows), "supervision": g}
                point["supervised"] = len(supervised)
                sub = Support(task.support.domains, rows, supervised)
                same = {"description": task.description, "objects": task.objects, "mode": task.mode}
                out.append((point, Task(task.name, task.concepts, task.labels, sub, **same)))
    return out


def sweep(
    task: Task,
    mode: str,
    seeds: Sequence[int],
    fractions: Sequence[float],
    supervision: Sequence[float],
    job: dict[str, Any],
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Count every grid point (full support always included: it is the score's reference); `job`
    holds CountJob's method, epsilon, delta, seed and timeout (per count). Identical supports are
    counted once."""
    fractions = sorted(set(fractions) | {1.0})
    points = grid_tasks(task, seeds, fractions, supervision)
    keys = [(frozenset(t.support.rows), t.support.supervised) for _, t in points]
    unique: dict[Any, Task] = {}
    for key, (_, t) in zip(keys, points):
        unique.setdefault(key, t)
    outcomes = run_jobs(
        run_count, [CountJob(t, mode, **job) for t in unique.values()], jobs, dask, progress, "counts"
    )
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
                "method": o.method,
                "seconds": round(o.seconds, 6),
                "error": o.error,
            }
        )
    if all(r["count"] is None for r in rows):
        raise RscountError(f"sweep: no count succeeded: {rows[0]['error']}")
    _check_monotone(rows)
    return {
        "task": task.name,
        "mode": mode,
        "full_support": task.support.size,
        "seeds": list(seeds),
        "fractions": fractions,
        "supervision": list(supervision),
        "rows": rows,
        "scores": scores(rows),
    }


def _check_monotone(rows: list[dict[str, Any]]) -> None:
    """Exact counts of one seed and supervision level never grow with the support (nested): a
    violation is a bug, not a property of the task."""
    series: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        if r["count"] is not None and r["exact"]:
            series.setdefault((r["seed"], r["supervision"]), []).append(r)
    for (seed, g), rs in series.items():
        rs.sort(key=lambda r: r["fraction"])
        for a, b in zip(rs, rs[1:]):
            if b["count"] > a["count"]:
                raise RuntimeError(
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


def write_csv(record: dict[str, Any], path: str | os.PathLike) -> None:
    """One row per (seed, fraction, supervision level); counts in full (empty when not counted, or
    beyond report.MAX_DIGITS digits: log10_count still gives them)."""
    try:
        with Path(path).open("w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
            writer.writeheader()
            for r in record["rows"]:
                row = {k: "" if r[k] is None else r[k] for k in CSV_FIELDS}
                row["count"] = "" if r["count"] is None else count_text(r["count"]) or ""
                writer.writerow(row)
    except OSError as exc:
        raise RscountError(f"--csv {path}: cannot write: {exc.strerror}") from None


def plot(record: dict[str, Any], path: str | os.PathLike) -> None:
    """Count (log scale) against the support fraction: the median over seeds, the min-max band and
    each seed's counts, one colour per supervision level; PNG or SVG by the file's extension."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    figure = Figure(figsize=(7.5, 4.8), dpi=120)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    rows = [r for r in record["rows"] if r["count"] is not None]
    levels = record["supervision"]
    for n, g in enumerate(levels):
        colour = f"C{n}"
        xs, low, mid, high = [], [], [], []
        for f in record["fractions"]:
            ys = [r["log10_count"] for r in rows if r["supervision"] == g and r["fraction"] == f]
            if ys:
                xs.append(f)
                low.append(min(ys))
                mid.append(statistics.median_low(ys))
                high.append(max(ys))
        points = [(r["fraction"], r["log10_count"]) for r in rows if r["supervision"] == g]
        ax.scatter(*zip(*points), s=10, color=colour, alpha=0.35, linewidths=0)
        ax.fill_between(
            xs, low, high, color=colour, alpha=0.18, label="min to max over seeds" if n == 0 else None
        )
        score = next(sc["R"] for sc in record["scores"] if sc["supervision"] == g)
        label = "median over seeds" if len(levels) == 1 else f"{g:.0%} of each support concept-supervised"
        label += "" if score is None else f" (robustness R = {score:.3g})"
        ax.plot(xs, mid, marker="o", markersize=4, color=colour, label=label)
    ax.axhline(0, color="0.4", linestyle="--", linewidth=1, label="1 map: no reasoning shortcut")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"$10^{{{y:g}}}$"))
    ax.set_xlim(0, 1.02)
    ax.set_ylim(bottom=-0.3)
    ax.set_xlabel(f"fraction of the support kept (1 = all {record['full_support']} concept vectors)")
    ax.set_ylabel("optimal concept maps (log scale)")
    approx = "" if all(r["exact"] for r in rows) else "; some counts approximate"
    ax.set_title(
        f"{record['task']}: {record['mode']} count, {len(record['seeds'])} seeds of nested supports{approx}",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as exc:
        raise RscountError(f"--plot {path}: cannot write: {exc.strerror}") from None


def sweep_text(record: dict[str, Any]) -> str:
    """The sweep as lines a person reads: median counts per fraction and the scores."""
    lines = [
        f"task {record['task']} ({record['mode']} count): {len(record['seeds'])} seeds x "
        f"{len(record['fractions'])} support fractions x {len(record['supervision'])} supervision levels "
        f"(full support: {record['full_support']} concept vectors)"
    ]
    rows = record["rows"]
    for score in record["scores"]:
        g = score["supervision"]
        lines.append(f"supervision {g:g} (fraction of each support concept-supervised):")
        lines.append("  fraction  support  optimal maps: median [min, max] over seeds")
        for f in record["fractions"]:
            level = [r for r in rows if r["supervision"] == g and r["fraction"] == f]
            counts = sorted(r["count"] for r in level if r["count"] is not None)
            failed = len(level) - len(counts)
            text = "not counted"
            if counts:
                median, low, high = (
                    count_text(c) for c in (counts[(len(counts) - 1) // 2], counts[0], counts[-1])
                )
                text = f"{median} [{low}, {high}]" + (f" ({failed} not counted)" if failed else "")
            lines.append(f"  {f:<8g}  {level[0]['support_size']:<7}  {text}")
        if score["R"] is None:
            lines.append("  robustness: needs a fraction below 1")
        else:
            lines.append(
                f"  robustness R = {score['R']:.4g} (rho = {score['rho']:.4g}; "
                "1: dropping examples adds no optimal map)"
            )
        free = score["shortcut_free_from"]
        lines.append(
            f"  shortcut-free (1 map for every seed) from fraction {free:g} on"
            if free is not None
            else "  no fraction is shortcut-free for every seed"
        )
    failures = [r for r in rows if r["error"]]
    if failures:
        lines.append(f"{len(failures)} counts failed, e.g.: {failures[0]['error']}")
    return "\n".join(lines)
