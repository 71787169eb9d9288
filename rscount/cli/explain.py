"""`rscount explain`: show optimal maps other than the intended one, readably."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InvalidSetting
from ..insight.explain import explain
from ..report.insight_text import explain_text
from ..report.records import to_json
from . import options
from .output import say
from .status import Exit

TASK_HELP = "a task file (.yaml) or DIMACS knowledge (.cnf, variable i = concept c<i>)"


def add_commands(sub: Any) -> None:
    """The explain subcommand."""
    p = sub.add_parser("explain", help="show optimal maps other than the intended one, readably")
    p.add_argument("file", metavar="TASK", help=TASK_HELP)
    p.add_argument(
        "--show", type=options.positive_int, default=5, metavar="N", help="maps to show (default 5)"
    )
    p.add_argument(
        "--random", action="store_true", help="draw the maps shown uniformly at random (with --seed)"
    )
    options.common_options(p)


def refuse(args: argparse.Namespace, unused: dict[str, str]) -> None:
    """Refuse shared flags a command does not use (`unused`: flag attribute -> why)."""
    for dest, why in unused.items():
        if getattr(args, dest, None) not in (None, False):
            raise InvalidSetting(dest, why)


def run(args: argparse.Namespace) -> int:
    """`rscount explain`."""
    why = "explain finds every map through the exact decomposition; it takes no counting method"
    refuse(args, {"emit": "explain writes no DIMACS", "method": why})
    settings = options.settings(args)
    progress = options.progress(args)
    task, settings = options.task_within(args, settings)
    try:
        record = explain(task, settings.mode, args.show, args.random, args.seed, progress, settings)
    finally:
        progress.clear()
    say(to_json(record.to_dict()) if args.json else explain_text(record))
    return Exit.LIMIT if record.stopped else Exit.OK


HANDLERS = {"explain": run}
