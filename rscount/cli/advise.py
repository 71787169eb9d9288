"""`rscount advise`: find a small change of the training data that removes every shortcut."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InvalidSetting
from ..insight.advise import SEARCH_BUDGET, AdviseSettings, TaskOutput, advise
from ..insight.plan_counts import Advisor
from ..insight.plan_search import Costs
from ..insight.steps import ACTIONS
from ..report.insight_text import advise_text
from ..report.records import to_json
from . import options
from .explain import TASK_HELP, refuse
from .output import say
from .status import Exit


def parallel_options(parser: argparse.ArgumentParser) -> None:
    """--jobs and --dask: where the counts run."""
    run = parser.add_argument_group("running the counts")
    run.add_argument(
        "--jobs",
        type=options.positive_int,
        metavar="N",
        help="local processes (default: one per core; 1: this process)",
    )
    run.add_argument(
        "--dask", metavar="ADDRESS", help="run the counts on the Dask scheduler at ADDRESS instead"
    )


def add_commands(sub: Any) -> None:
    """The advise subcommand."""
    p = sub.add_parser("advise", help="find a small change of the training data that removes every shortcut")
    p.add_argument("file", metavar="TASK", help=TASK_HELP)
    p.add_argument(
        "--actions",
        default=",".join(ACTIONS),
        metavar="LIST",
        help="what the search may do, comma-separated: supervise (concept-supervise a support row), add (add "
        "a concept combination), annotate (annotate one concept on every example), annotate-one (annotate "
        "one concept on one example); default all",
    )
    p.add_argument(
        "--candidates",
        type=options.positive_int,
        default=40,
        metavar="N",
        help="candidates of each kind counted per step, drawn with --seed; the others only when none "
        "of them lowers the count (default 40)",
    )
    p.add_argument(
        "--max-steps", type=options.positive_int, default=100, metavar="N", help="greedy plan length limit"
    )
    p.add_argument(
        "--target",
        type=options.positive_int,
        default=1,
        metavar="N",
        help="optimal maps the plan may leave (default 1: no shortcut)",
    )
    p.add_argument(
        "--cost",
        default="",
        metavar="KIND=N,...",
        help="cost of each kind of step, e.g. add=1,supervise=3,annotate-one=1 (default 1 each)",
    )
    p.add_argument(
        "--budget",
        type=options.positive_int,
        default=SEARCH_BUDGET,
        metavar="N",
        help=f"plans the exact search may count (default {SEARCH_BUDGET}); beyond, the best plan found "
        "and the cost below which none exists",
    )
    p.add_argument(
        "--by-counts",
        action="store_true",
        help="find a plan by counting candidate plans (greedy, then exact), as for other targets and modes, "
        "instead of by SAT (the default for --target 1 in the disentangled and objects modes)",
    )
    p.add_argument(
        "--emit-task", metavar="PATH", help="write the modified task file (keeps files unless --force)"
    )
    parallel_options(p)
    options.common_options(p)


def run(args: argparse.Namespace) -> int:
    """`rscount advise`."""
    refuse(args, {"emit": "advise writes no DIMACS; --emit-task writes the modified task"})
    actions = [a.strip() for a in args.actions.split(",") if a.strip()]
    unknown = [a for a in actions if a not in ACTIONS]
    if unknown or not actions:
        raise InvalidSetting(
            "actions", f"{', '.join(unknown) or 'none given'}: choose from {', '.join(ACTIONS)}"
        )
    settings = options.settings(args)
    progress = options.progress(args)
    task, settings = options.task_within(args, settings)
    options.check_command_outputs(args, {"emit_task": args.emit_task}, task)
    advisor = Advisor(task, settings, args.jobs, args.dask, progress)
    try:
        record = advise(
            advisor,
            AdviseSettings(
                actions=tuple(actions),
                candidates=args.candidates,
                max_steps=args.max_steps,
                target=args.target,
                costs=Costs.parse(args.cost),
                budget=args.budget,
                by_counts=args.by_counts,
            ),
            TaskOutput(
                path=args.emit_task,
                overwrite=args.force,
                # a support given on the command line differs from the file's: a new file, not an edit
                source=None if options.support_overridden(args) else args.file,
            ),
        )
    finally:
        progress.clear()
    say(to_json(record.to_dict()) if args.json else advise_text(record))
    return Exit.LIMIT if record.stopped else Exit.OK


HANDLERS = {"advise": run}
