"""`rscount xor|and|or|random|cnf` (built-in knowledge) and `rscount count FILE` (a task file, an
rsbench config or DIMACS knowledge): build the task, optionally emit its DIMACS, count, print."""

from __future__ import annotations

import argparse
from typing import Any

from ..counting.dispatch import count_task
from ..counting.processes.isolation import run_stoppable
from ..encoding.modes import encode
from ..errors import LimitReached
from ..formats import dimacs
from ..progress import Progress
from ..report.records import count_record, to_json
from ..report.text import human_summary
from . import options
from .output import say
from .status import Exit


def add_commands(sub: Any) -> None:
    """The counting subcommands."""
    for kind, what in (("xor", "y = parity"), ("and", "y = conjunction"), ("or", "y = disjunction")):
        p = sub.add_parser(kind, help=f"{what} of N bits (rsbench MNLogic family)")
        p.add_argument("--bits", type=int, required=True, metavar="N")
        options.common_options(p)
        options.class_jobs_option(p)
    p = sub.add_parser("random", help="random l-CNF knowledge over N bits (as MNLogic)")
    p.add_argument("--bits", type=int, required=True, metavar="N")
    p.add_argument("--clauses", type=int, required=True, metavar="M")
    p.add_argument("--length", type=int, required=True, metavar="L")
    options.common_options(p)
    options.class_jobs_option(p)
    p = sub.add_parser("cnf", help="knowledge from a DIMACS CNF (variable i = concept c<i>)")
    p.add_argument("file", metavar="FILE.cnf")
    options.common_options(p)
    options.class_jobs_option(p)
    p = sub.add_parser("count", help="count a task file (YAML, rsbench config, or DIMACS knowledge)")
    p.add_argument(
        "file", metavar="TASK", help="a task file (.yaml) or DIMACS knowledge (.cnf or a p cnf header)"
    )
    options.common_options(p)
    options.class_jobs_option(p)


def _job(args: argparse.Namespace, progress: Progress) -> str:
    """Build the task, encode, emit and count: the whole of a command's work, so one time limit
    covers it."""
    task = options.task_from_args(args)
    settings = options.settings(args)
    mode = settings.mode_for(task)
    encoding = None
    if args.emit:
        progress.update(f"encoding {task.name}", force=True)
        encoding = encode(task, mode, progress)
        dimacs.dump(encoding.cnf, args.emit, ind=args.ind, overwrite=args.force)
        if args.method is None:
            cnf = encoding.cnf
            if args.json:
                message = {"task": task.name, "emitted": args.emit, "variables": cnf.num_vars}
                message.update(clauses=len(cnf.clauses), map_variables=len(encoding.projection))
                return to_json(message)
            return (
                f"wrote {args.emit}: {cnf.num_vars} variables, {len(cnf.clauses)} clauses, "
                f"projection on {len(encoding.projection)} map variables"
            )
    result = count_task(task, settings.replace(mode=mode), progress, encoding)
    record = count_record(task, result, mode)
    return to_json(record.to_dict()) if args.json else human_summary(record, args.verbose)


def run(args: argparse.Namespace) -> int:
    """Count; exit 0 once counted (shortcuts or not: `check` and `report` judge)."""
    settings = options.settings(args)  # bad flags are refused here, before any work
    options.check_command_outputs(args, {"emit": args.emit})
    progress = options.progress(args)
    try:
        text = run_stoppable(_job, args, progress, **settings.limits(), progress=progress)
    except LimitReached as exc:
        if args.json:  # what is known still reaches a JSON reader; the error line and exit 3 follow
            say(to_json({"stopped": str(exc), "exact": False, **exc.partial}))
        raise
    finally:
        progress.clear()
    say(text)
    return Exit.OK


HANDLERS = {name: run for name in ("xor", "and", "or", "random", "cnf", "count")}
