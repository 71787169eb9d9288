"""Plots of what the insight commands found (PNG or SVG, by matplotlib without a display)."""

from __future__ import annotations

import os
import statistics

from ..errors import OutputError
from ..insight.sweep import Sweep

PLOT_SUFFIXES = (".png", ".svg")


def sweep_plot(record: Sweep, path: str | os.PathLike[str]) -> None:
    """Count (log scale) against the support fraction: the median over seeds, the min-max band and
    each seed's counts, one colour per supervision level; PNG or SVG by the file's extension (the
    output 'plot', checked with the other outputs before the sweep)."""
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
        ax.fill_between(
            xs, low, high, color=colour, alpha=0.18, label="min to max over seeds" if n == 0 else None
        )
        score = next(sc["R"] for sc in record.scores if sc["supervision"] == g)
        label = "median over seeds" if len(levels) == 1 else f"{g:.0%} of each support concept-supervised"
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
    ax.set_title(
        f"{record.task}: {record.mode} count, {len(record.seeds)} seeds of nested supports{approx}",
        fontsize=10,
    )
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as exc:
        raise OutputError(str(path), f"cannot write: {exc.strerror}", "plot") from None
