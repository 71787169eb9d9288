"""`rscount sweep`: count over shrinking nested random supports; CSV, plot, robustness score."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OutputError
from ..insight.sweep import parse_levels, sweep
from ..outputs import write_output
from ..report.files import sweep_csv
from ..report.insight_text import sweep_text
from ..report.plots import PLOT_SUFFIXES, sweep_plot
from ..report.records import to_json
from . import options
from .advise import parallel_options
from .explain import TASK_HELP, refuse
from .output import say
from .status import Exit


def add_commands(sub: Any) -> None:
    """The sweep subcommand."""
    p = sub.add_parser(
        "sweep", help="count over shrinking nested random supports; CSV, plot, robustness score"
    )
    p.add_argument("file", metavar="TASK", help=TASK_HELP)
    p.add_argument(
        "--fractions",
        default="0.1:1.0:0.1",
        metavar="A:B:STEP|LIST",
        help="support fractions (of the task's support) to count; 1 is always added (default 0.1:1.0:0.1)",
    )
    p.add_argument(
        "--seeds",
        type=options.positive_int,
        default=5,
        metavar="N",
        help="seeds --seed..--seed+N-1 (default 5)",
    )
    p.add_argument(
        "--supervision",
        default="0",
        metavar="A:B:STEP|LIST",
        help="fractions of each support concept-supervised (default 0)",
    )
    p.add_argument("--csv", metavar="PATH", help="write one row per count")
    p.add_argument("--plot", metavar="PATH", help="write the plot (.png or .svg)")
    parallel_options(p)
    options.common_options(p)


def run(args: argparse.Namespace) -> int:
    """`rscount sweep`."""
    chosen = "sweep chooses the supports itself (--fractions, --seeds, --supervision)"
    unused = {
        "fraction": chosen,
        "examples": chosen,
        "concept_sup": "use --supervision",
        "emit": "sweep writes no DIMACS",
    }
    refuse(args, unused)
    fractions = parse_levels(args.fractions, "fractions")
    supervision = parse_levels(args.supervision, "supervision", zero=True)
    if args.plot and not str(args.plot).lower().endswith(PLOT_SUFFIXES):
        raise OutputError(args.plot, "the file name must end in .png or .svg", "plot")
    outputs = {"csv": args.csv, "plot": args.plot}
    options.check_command_outputs(args, outputs)
    settings = options.settings(args)
    progress = options.progress(args)
    task, settings = options.task_within(args, settings)
    options.check_command_outputs(args, outputs, task)
    seeds = list(range(args.seed, args.seed + args.seeds))
    try:
        record = sweep(task, seeds, fractions, supervision, settings, args.jobs, args.dask, progress)
    finally:
        progress.clear()
    if args.csv:
        write_output(args.csv, sweep_csv(record), "csv", args.force)
    if args.plot:
        sweep_plot(record, args.plot)
    if args.json:
        say(to_json(record.to_dict()))
    else:
        say(sweep_text(record))
        for what, path in (("CSV", args.csv), ("plot", args.plot)):
            if path:
                say(f"wrote {what} {path}")
    return Exit.LIMIT if record.stopped else Exit.OK


HANDLERS = {"sweep": run}
