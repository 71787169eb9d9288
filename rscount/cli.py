"""The `rscount` command: build a task (built-in family, DIMACS or task file), encode, count, report."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__, design_commands, shortcut_commands
from .backends import CountOptions
from .batch import Settings, count_files, describe
from .catalogue import markdown, task_files
from .cliargs import build_task, check_counting_args, common_options
from .counting import build_encoding, count_task, run_stoppable
from .dimacs import write_dimacs
from .errors import RscountError
from .progress import Progress
from .report import human_summary, result_record, to_json
from .report_files import refuse_overwrite
from .task import Task
from .taskfile import load_task

# Modules adding subcommands: each has add_commands(subparsers) and HANDLERS {name: run(args) -> exit code}.
COMMAND_MODULES: list[Any] = [design_commands, shortcut_commands]


def make_parser() -> argparse.ArgumentParser:
    """The argument parser of all subcommands."""
    parser = argparse.ArgumentParser(
        prog="rscount", description="Count the reasoning shortcuts of a neuro-symbolic learning task."
    )
    parser.add_argument("--version", action="version", version=f"rscount {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for kind, what in (("xor", "y = parity"), ("and", "y = conjunction"), ("or", "y = disjunction")):
        p = sub.add_parser(kind, help=f"{what} of N bits (rsbench MNLogic family)")
        p.add_argument("--bits", type=int, required=True, metavar="N")
        common_options(p)
    p = sub.add_parser("random", help="random l-CNF knowledge over N bits (as MNLogic)")
    p.add_argument("--bits", type=int, required=True, metavar="N")
    p.add_argument("--clauses", type=int, required=True, metavar="M")
    p.add_argument("--length", type=int, required=True, metavar="L")
    common_options(p)
    p = sub.add_parser("cnf", help="knowledge from a DIMACS CNF (variable i = concept i)")
    p.add_argument("file", metavar="FILE.cnf")
    common_options(p)
    p = sub.add_parser("count", help="count a YAML task file")
    p.add_argument("file", metavar="TASK.yaml")
    common_options(p)
    p = sub.add_parser("list", help="the task files of a directory; --markdown also counts them")
    p.add_argument("directory", nargs="?", default="tasks", help="directory of task files (default tasks)")
    p.add_argument("--markdown", metavar="PATH", help="count every task by auto and write a Markdown table")
    p.add_argument("--timeout", type=float, default=120, metavar="SECONDS", help="per task (default 120)")
    p.add_argument("--force", action="store_true", help="let --markdown overwrite an existing file")
    for module in COMMAND_MODULES:
        module.add_commands(sub)
    return parser


def list_tasks(args: argparse.Namespace) -> int:
    """`rscount list`: describe the task files of a directory, or count them into a Markdown table."""
    files = task_files(args.directory)
    if not args.markdown:
        rows = [{"file": f.name, **describe(load_task(f))} for f in files]
        keys = ["file", "task", "concepts", "labels", "support", "supervised", "mode"]
        widths = {k: max(len(k), *(len(str(r[k])) for r in rows)) if rows else len(k) for k in keys}
        print("  ".join(k.ljust(widths[k]) for k in keys))
        for r in rows:
            print("  ".join(str(r[k]).ljust(widths[k]) for k in keys))
        return 0
    refuse_overwrite({"markdown": args.markdown}, args.force)
    progress = Progress()
    entries = count_files(files, Settings(timeout=args.timeout), jobs=1, progress=progress)
    progress.clear()
    command = f"rscount list {args.directory} --markdown {args.markdown} --timeout {args.timeout:g}"
    Path(args.markdown).write_text(markdown(entries, command))
    print(f"wrote {args.markdown}: {len(entries)} tasks")
    return 0


def _job(task: Task, args: argparse.Namespace, progress: Progress) -> str:
    """Encode, emit and count: the whole of a command's work, so one time limit covers it."""
    mode = args.mode or task.mode
    encoding = None
    if args.emit:
        progress.update(f"encoding {task.name}", force=True)
        encoding = build_encoding(task, mode, progress)
        write_dimacs(encoding.cnf, args.emit, ind=args.ind, force=args.force)
        if args.method is None:
            cnf = encoding.cnf
            message = {
                "task": task.name,
                "emitted": args.emit,
                "variables": cnf.num_vars,
                "clauses": len(cnf.clauses),
                "map_variables": len(encoding.projection),
            }
            if args.json:
                return json.dumps(message)
            return (
                f"wrote {args.emit}: {cnf.num_vars} variables, {len(cnf.clauses)} clauses, "
                f"projection on {len(encoding.projection)} map variables"
            )
    options = CountOptions(epsilon=args.epsilon, delta=args.delta, seed=args.seed, progress=progress)
    result, encoding = count_task(task, mode, args.method or "auto", options, encoding)
    record = result_record(task, result, encoding, mode)
    return to_json(record) if args.json else human_summary(record)


def run(args: argparse.Namespace) -> int:
    """Execute a parsed command line; returns the exit code."""
    if args.command == "list":
        return list_tasks(args)
    for module in COMMAND_MODULES:
        if args.command in module.HANDLERS:
            return module.HANDLERS[args.command](args)
    progress = Progress(enabled=False if args.quiet or args.json else None)
    check_counting_args(args)
    task = build_task(args)
    try:
        text = run_stoppable(_job, task, args, progress, timeout=args.timeout)
    finally:
        progress.clear()
    print(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: user errors become one line on stderr and exit code 2."""
    args = make_parser().parse_args(argv)
    try:
        return run(args)
    except RscountError as exc:
        print(f"rscount: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rscount: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader (e.g. `head`) closed the pipe: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
