"""The subcommands that look at the shortcuts themselves: `explain` (which maps), `advise` (what
removes them) and `sweep` (how they grow as the support shrinks)."""

from __future__ import annotations

import argparse
from typing import Any

from .advise import ACTIONS, Advisor, advise, advise_text
from .cliargs import build_task, check_counting_args, common_options
from .counting import run_stoppable
from .errors import RscountError
from .explain import explain, explain_text
from .progress import Progress
from .report import to_json
from .sweep import parse_levels, plot, sweep, sweep_text, write_csv
from .task import Task
from .taskdump import refuse_existing

TASK_HELP = "a task file (.yaml) or DIMACS knowledge (.cnf, variable i = concept c<i>)"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def _parallel_options(parser: argparse.ArgumentParser) -> None:
    run = parser.add_argument_group("running the counts")
    run.add_argument(
        "--jobs",
        type=_positive_int,
        metavar="N",
        help="local processes (default: one per core; 1: this process)",
    )
    run.add_argument(
        "--dask", metavar="ADDRESS", help="run the counts on the Dask scheduler at ADDRESS instead"
    )


def add_commands(sub: Any) -> None:
    """Add explain, advise and sweep to the subcommand parsers."""
    p = sub.add_parser("explain", help="show optimal maps other than the intended one, readably")
    p.add_argument("file", metavar="TASK", help=TASK_HELP)
    p.add_argument("--show", type=_positive_int, default=5, metavar="N", help="maps to show (default 5)")
    p.add_argument(
        "--random", action="store_true", help="draw the maps shown uniformly at random (with --seed)"
    )
    common_options(p)

    p = sub.add_parser("advise", help="find a small change of the training data that removes every shortcut")
    p.add_argument("file", metavar="TASK", help=TASK_HELP)
    p.add_argument(
        "--actions",
        default=",".join(ACTIONS),
        metavar="LIST",
        help="what the search may do, comma-separated: supervise (concept-supervise a support row), add (add "
        "a concept combination), annotate (annotate one concept on every example); default all",
    )
    p.add_argument(
        "--candidates",
        type=_positive_int,
        default=40,
        metavar="N",
        help="candidates of each kind counted per step, drawn with --seed; the others only when none "
        "of them lowers the count (default 40)",
    )
    p.add_argument("--max-steps", type=_positive_int, default=100, metavar="N", help="plan length limit")
    p.add_argument(
        "--emit-task", metavar="PATH", help="write the modified task file (keeps files unless --force)"
    )
    _parallel_options(p)
    common_options(p)

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
        "--seeds", type=_positive_int, default=5, metavar="N", help="seeds --seed..--seed+N-1 (default 5)"
    )
    p.add_argument(
        "--supervision",
        default="0",
        metavar="A:B:STEP|LIST",
        help="fractions of each support concept-supervised (default 0)",
    )
    p.add_argument("--csv", metavar="PATH", help="write one row per count")
    p.add_argument("--plot", metavar="PATH", help="write the plot (.png or .svg)")
    _parallel_options(p)
    common_options(p)


def command_task(args: argparse.Namespace) -> Task:
    """The task of TASK with the support flags applied; DIMACS knowledge for a .cnf file."""
    if str(args.file).endswith(".cnf"):
        return build_task(argparse.Namespace(**{**vars(args), "command": "cnf"}))
    return build_task(args)


def _check(args: argparse.Namespace, unused: dict[str, str]) -> Progress:
    """Validate the shared flags; `unused` maps flags (attribute names) this command refuses to why."""
    for dest, why in unused.items():
        if getattr(args, dest, None) not in (None, False):
            raise RscountError(f"--{dest.replace('_', '-')}: {why}")
    check_counting_args(args)
    return Progress(enabled=False if args.quiet or args.json else None)


def run_explain(args: argparse.Namespace) -> int:
    """`rscount explain`."""
    why = "explain finds every map through the exact decomposition; it takes no counting method"
    progress = _check(args, {"emit": "explain writes no DIMACS", "method": why})
    task = command_task(args)
    mode = args.mode or task.mode
    try:
        record = run_stoppable(
            explain, task, mode, args.show, args.random, args.seed, progress, timeout=args.timeout
        )
    finally:
        progress.clear()
    print(to_json(record) if args.json else explain_text(record))
    return 0


def run_advise(args: argparse.Namespace) -> int:
    """`rscount advise`."""
    progress = _check(args, {"emit": "advise writes no DIMACS; --emit-task writes the modified task"})
    actions = [a.strip() for a in args.actions.split(",") if a.strip()]
    unknown = [a for a in actions if a not in ACTIONS]
    if unknown or not actions:
        raise RscountError(
            f"--actions: {', '.join(unknown) or 'none given'}: choose from {', '.join(ACTIONS)}"
        )
    task = command_task(args)
    mode = args.mode or task.mode
    advisor = Advisor(
        task,
        mode,
        args.method or "auto",
        args.epsilon,
        args.delta,
        args.seed,
        args.timeout,
        args.jobs,
        args.dask,
    )
    advisor.progress = progress
    try:
        record = advise(advisor, actions, args.candidates, args.max_steps, args.emit_task, args.force)
    finally:
        progress.clear()
    print(to_json(record) if args.json else advise_text(record))
    return 0


def run_sweep(args: argparse.Namespace) -> int:
    """`rscount sweep`."""
    chosen = "sweep chooses the supports itself (--fractions, --seeds, --supervision)"
    progress = _check(
        args,
        {
            "fraction": chosen,
            "examples": chosen,
            "concept_sup": "use --supervision",
            "emit": "sweep writes no DIMACS",
        },
    )
    fractions = parse_levels(args.fractions, "--fractions")
    supervision = parse_levels(args.supervision, "--supervision", zero=True)
    if args.plot and not str(args.plot).lower().endswith((".png", ".svg")):
        raise RscountError(f"--plot {args.plot}: the file name must end in .png or .svg")
    for flag, path in (("--csv", args.csv), ("--plot", args.plot)):
        if path:
            refuse_existing(path, args.force, flag)
    task = command_task(args)
    mode = args.mode or task.mode
    seeds = list(range(args.seed, args.seed + args.seeds))
    job = {
        "method": args.method or "auto",
        "epsilon": args.epsilon,
        "delta": args.delta,
        "seed": args.seed,
        "timeout": args.timeout,
    }
    try:
        record = sweep(task, mode, seeds, fractions, supervision, job, args.jobs, args.dask, progress)
    finally:
        progress.clear()
    if args.csv:
        write_csv(record, args.csv)
    if args.plot:
        plot(record, args.plot)
    if args.json:
        print(to_json(record))
    else:
        print(sweep_text(record))
        for flag, path in (("CSV", args.csv), ("plot", args.plot)):
            if path:
                print(f"wrote {flag} {path}")
    return 0


HANDLERS = {"explain": run_explain, "advise": run_advise, "sweep": run_sweep}
