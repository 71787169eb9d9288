"""Plots of what the insight commands found (PNG or SVG, by matplotlib without a display)."""

from __future__ import annotations

import io
import os
import statistics
from pathlib import Path
from typing import Any

from ..errors import OutputError
from ..insight.forecast import Forecast
from ..insight.sweep import Sweep
from ..outputs import replace_atomically
from ..sinks import plot_text
from .records import counted_as
from .text import optimal_maps

PLOT_SUFFIXES = (".png", ".svg")


def sweep_plot(record: Sweep, path: str | os.PathLike[str]) -> None:
    """Count (log scale) against the support fraction: the median over seeds, the min-max band and
    each seed's counts, one colour per supervision level; PNG or SVG by the file's extension (the
    output 'plot', checked with the other outputs before the sweep)."""
    task = plot_text(record.task)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    figure = Figure(figsize=(7.5, 4.8), dpi=120)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    rows = [r for r in record.rows if r["count"] is not None]
    levels = record.supervision
    for n, g in enumerate(levels):
        colour = f"C{n}"
        xs, low, mid, high = [], [], [], []
        for f in record.fractions:
            ys = [r["log10_count"] for r in rows if r["supervision"] == g and r["fraction"] == f]
            if ys:
                xs.append(f)
                low.append(min(ys))
                mid.append(statistics.median_low(ys))
                high.append(max(ys))
        points = [(r["fraction"], r["log10_count"]) for r in rows if r["supervision"] == g]
        ax.scatter(
            [x for x, _ in points], [y for _, y in points], s=10, color=colour, alpha=0.35, linewidths=0
        )
        series = "" if len(levels) == 1 else f"{g:.0%} of each support concept-supervised: "
        ax.fill_between(xs, low, high, color=colour, alpha=0.18, label=f"{series}min to max over seeds")
        score = next(sc["R"] for sc in record.scores if sc["supervision"] == g)
        label = f"{series}median over seeds"
        label += "" if score is None else f" (robustness R = {score:.3g})"
        ax.plot(xs, mid, marker="o", markersize=4, color=colour, label=label)
    ax.axhline(0, color="0.4", linestyle="--", linewidth=1, label="1 map: no reasoning shortcut")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"$10^{{{y:g}}}$"))
    ax.set_xlim(0, 1.02)
    ax.set_ylim(bottom=-0.3)
    ax.set_xlabel(f"fraction of the support kept (1 = all {record.full_support} concept vectors)")
    ax.set_ylabel("optimal concept maps (log scale)")
    approx = "" if all(r["exact"] for r in rows) else "; some counts approximate"
    what = counted_as(record.mode, record.extractor)
    ax.set_title(
        f"{task}: {what}, {len(record.seeds)} seeds of nested supports{approx}",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    figure.tight_layout()
    _save(figure, path)


def forecast_plot(record: Forecast, path: str | os.PathLike[str]) -> None:
    """A heat map of `reads` (predicted concepts down, ground-truth concepts across) beside the
    expected accuracy of each predicted concept (on the support, and on the test vectors if any)."""
    task = plot_text(record.task)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = list(record.reads)
    k = len(names)
    side = max(3.0, 0.35 * k + 1.5)
    figure = Figure(figsize=(side + 3.2, side), dpi=120)
    FigureCanvasAgg(figure)
    heat, bars = figure.subplots(1, 2, gridspec_kw={"width_ratios": [max(k, 3), 3]})
    matrix = [[float(record.reads[j][i]) for i in names] for j in names]
    image = heat.imshow(matrix, vmin=0, vmax=1, cmap="viridis")
    heat.set_xticks(range(k), names, rotation=90, fontsize=8)
    heat.set_yticks(range(k), names, fontsize=8)
    heat.set_xlabel("ground-truth concept read")
    heat.set_ylabel("predicted concept")
    if k <= 12:
        for j in range(k):
            for i in range(k):
                colour = "black" if matrix[j][i] > 0.5 else "white"
                heat.text(i, j, f"{matrix[j][i]:.2f}", ha="center", va="center", fontsize=7, color=colour)
    figure.colorbar(image, ax=heat, fraction=0.046, pad=0.04, label="probability")
    series = [("training vectors", record.accuracy)]
    if record.test is not None:
        series.append(("test vectors", record.test["accuracy"]))
    height = 0.8 / len(series)
    for n, (label, accuracy) in enumerate(series):
        ys = [y + n * height for y in range(k)]
        bars.barh(ys, [float(accuracy[c]) for c in names], height=height, label=label, color=f"C{n}")
    bars.set_yticks([y + 0.4 - height / 2 for y in range(k)], names, fontsize=8)
    bars.invert_yaxis()
    bars.set_xlim(0, 1)
    bars.set_xlabel("expected accuracy")
    bars.legend(fontsize=7, loc="lower right")
    maps = optimal_maps(record.count)
    figure.suptitle(f"{task}: concepts under a uniformly drawn optimal map ({maps})", fontsize=9)
    figure.tight_layout()
    _save(figure, path)


def _save(figure: Any, path: str | os.PathLike[str]) -> None:
    """The figure in the format the path's suffix names, written atomically."""
    image = io.BytesIO()
    figure.savefig(image, format=Path(path).suffix.lstrip(".").lower())
    try:
        replace_atomically(Path(path), image.getvalue())
    except OSError as exc:
        raise OutputError(str(path), f"cannot write: {exc.strerror}", "plot") from None
