"""`rscount forecast`: what a model that reaches an optimal map is expected to make of the concepts."""

from __future__ import annotations

import argparse
from typing import Any

from ..counting.jobs import within
from ..counting.processes.isolation import run_stoppable
from ..errors import OutputError
from ..formats.rows.inline import rows_from
from ..insight.forecast import forecast
from ..report.insight_text import forecast_text
from ..report.plots import PLOT_SUFFIXES, forecast_plot
from ..report.records import to_json
from . import options
from .explain import TASK_HELP, refuse
from .output import say
from .status import Exit


def add_commands(sub: Any) -> None:
    """The forecast subcommand."""
    p = sub.add_parser(
        "forecast",
        help="which concepts a model reaching an optimal map reads, and its expected concept accuracy",
    )
    p.add_argument("file", metavar="TASK", help=TASK_HELP)
    p.add_argument(
        "--test",
        metavar="FILE|ROWS",
        help="test or OOD concept vectors: a CSV / JSON lines file (a column per concept), a YAML or JSON "
        "list of rows, or the rows inline ('[[0, 1, 1], [1, 0, 0]]'): concept and label accuracy there",
    )
    p.add_argument(
        "--samples",
        type=options.positive_int,
        metavar="N",
        help="estimate from N optimal maps drawn uniformly (with --seed) instead of exactly: for tasks "
        "whose value maps form large SDDs (docs/shortcuts.md)",
    )
    p.add_argument(
        "--plot", metavar="PATH", help="write a heat map of reads and the accuracies (.png or .svg)"
    )
    options.common_options(p)


def run(args: argparse.Namespace) -> int:
    """`rscount forecast`."""
    why = "forecast counts through the decomposition (exactly, or --samples); it takes no counting method"
    refuse(args, {"emit": "forecast writes no DIMACS", "method": why})
    if args.plot and not str(args.plot).lower().endswith(PLOT_SUFFIXES):
        raise OutputError(args.plot, "the file name must end in .png or .svg", "plot")
    options.check_command_outputs(args, {"plot": args.plot})
    settings = options.settings(args)
    progress = options.progress(args)
    task, settings = options.task_within(args, settings)
    options.check_command_outputs(args, {"plot": args.plot}, task)
    test = None
    if args.test:
        test, settings = within(settings, "reading the test vectors", rows_from, args.test, task, "--test")
    try:
        record = run_stoppable(
            forecast, task, settings.mode, test, progress, args.samples, args.seed, **settings.limits()
        )
    finally:
        progress.clear()
    if args.plot:
        forecast_plot(record, args.plot)
    say(to_json(record.to_dict()) if args.json else forecast_text(record))
    if args.plot and not args.json:
        say(f"wrote plot {args.plot}")
    return Exit.OK


HANDLERS = {"forecast": run}
