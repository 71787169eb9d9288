"""The `rscount` command: build a task (built-in family, DIMACS or task file), encode, count, report."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .backends import CountOptions, backends
from .catalogue import count_entry, describe, markdown, task_files
from .counting import APPROX, CLOSED_FORM, EXACT, MODES, build_encoding, count_task, run_stoppable
from .dimacs import read_dimacs, write_dimacs
from .errors import RscountError
from .knowledge import random_cnf
from .progress import Progress
from .report import human_summary, result_record, to_json
from .support import Support
from .task import Task
from .taskfile import build_support, builtin_task, load_task


def _amount(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _common(parser: argparse.ArgumentParser) -> None:
    sup = parser.add_argument_group("training support")
    size = sup.add_mutually_exclusive_group()
    size.add_argument(
        "--fraction",
        type=_amount,
        metavar="F",
        help="sample this fraction (<= 1) of the support, or this many vectors (> 1)",
    )
    size.add_argument("--examples", type=int, metavar="N", help="sample N distinct concept vectors")
    sup.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="S",
        help="seed for sampling, random knowledge and ApproxMC (default 1)",
    )
    sup.add_argument(
        "--concept-sup",
        type=_amount,
        metavar="F|N",
        help="concept-supervise this fraction (<= 1) or number (> 1) of support rows",
    )
    how = parser.add_argument_group("counting")
    how.add_argument(
        "--mode",
        choices=list(MODES),
        help="disentangled: maps (pi, f) as rsbench countrss (default, or the task file's mode:); "
        "joint: any map D -> D (eq. 7); "
        "objects: object and attribute permutations with one value map per attribute shared by all objects",
    )
    method = how.add_mutually_exclusive_group()
    method.add_argument(
        "--closed-form",
        dest="method",
        action="store_const",
        const=CLOSED_FORM,
        help="exact count by a closed form (fails, saying why, where none applies)",
    )
    method.add_argument(
        "--exact",
        dest="method",
        action="store_const",
        const=EXACT,
        help="exact count: decomposition by permutation with SDDs (disentangled), SDD (joint)",
    )
    method.add_argument(
        "--approx",
        dest="method",
        action="store_const",
        const=APPROX,
        help="approximate count: ApproxMC per permutation class when few, else on the whole CNF",
    )
    method.add_argument(
        "--enumerate",
        dest="method",
        action="store_const",
        const="enumerate",
        help="exact count by SAT enumeration (small counts)",
    )
    method.add_argument(
        "--method",
        dest="method",
        metavar="NAME",
        help=f"auto (default: a closed form if one applies, else a backend), {CLOSED_FORM}, {EXACT}, "
        f"{APPROX}, or a backend: " + ", ".join(sorted(backends())),
    )
    how.add_argument("--epsilon", type=float, default=0.8, help="ApproxMC tolerance (default 0.8)")
    how.add_argument("--delta", type=float, default=0.2, help="ApproxMC confidence 1-delta (default 0.2)")
    how.add_argument("--timeout", type=float, metavar="SECONDS", help="stop counting after this long")
    out = parser.add_argument_group("output")
    out.add_argument(
        "--emit", metavar="PATH", help="write the DIMACS encoding; counts too only if a method is given"
    )
    out.add_argument("--ind", action="store_true", help="write the projection as 'c ind' (with --emit)")
    out.add_argument("--force", action="store_true", help="let --emit overwrite an existing file")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--quiet", "-q", action="store_true", help="no progress display")


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
        _common(p)
    p = sub.add_parser("random", help="random l-CNF knowledge over N bits (as MNLogic)")
    p.add_argument("--bits", type=int, required=True, metavar="N")
    p.add_argument("--clauses", type=int, required=True, metavar="M")
    p.add_argument("--length", type=int, required=True, metavar="L")
    _common(p)
    p = sub.add_parser("cnf", help="knowledge from a DIMACS CNF (variable i = concept i)")
    p.add_argument("file", metavar="FILE.cnf")
    _common(p)
    p = sub.add_parser("count", help="count a YAML task file")
    p.add_argument("file", metavar="TASK.yaml")
    _common(p)
    p = sub.add_parser("list", help="the task files of a directory; --markdown also counts them")
    p.add_argument("directory", nargs="?", default="tasks", help="directory of task files (default tasks)")
    p.add_argument("--markdown", metavar="PATH", help="count every task by auto and write a Markdown table")
    p.add_argument("--timeout", type=float, default=120, metavar="SECONDS", help="per task (default 120)")
    p.add_argument("--force", action="store_true", help="let --markdown overwrite an existing file")
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
    out = Path(args.markdown)
    if out.exists() and not args.force:
        raise RscountError(f"{out}: exists; pass --force to overwrite it")
    progress = Progress()
    entries = []
    for n, f in enumerate(files, start=1):
        progress.update(f"counting {f.name} ({n}/{len(files)})", force=True)
        entries.append(count_entry(f, args.timeout))
    progress.clear()
    command = f"rscount list {args.directory} --markdown {args.markdown} --timeout {args.timeout:g}"
    out.write_text(markdown(entries, command))
    print(f"wrote {out}: {len(entries)} tasks")
    return 0


def _support_override(args: argparse.Namespace) -> tuple[Any, Any]:
    """Support and supervision specs from the flags (None where the flags say nothing)."""
    support: Any = None
    if args.fraction is not None:
        support = {"sample": args.fraction, "seed": args.seed}
    elif args.examples is not None:
        support = {"examples": args.examples, "seed": args.seed}
    supervision = {"sample": args.concept_sup, "seed": args.seed} if args.concept_sup else None
    return support, supervision


def build_task(args: argparse.Namespace) -> Task:
    """The task a command line describes."""
    support, supervision = _support_override(args)
    if args.command == "count":
        task = load_task(args.file)
        if support is None and supervision is None:
            return task
        old = task.support
        if support is None:
            support = "exhaustive" if old.exhaustive else [list(r) for r in old.rows]
        new = build_support(task.concepts, support, supervision, "--fraction/--examples", old)
        if supervision is None:  # the file's supervision, on the rows the sample kept
            rows = None if new.exhaustive else new.rows
            kept = [r for r in old.supervised if rows is None or r in set(rows)]
            new = Support(new.domains, rows, kept)
        task.support = new
        return task
    support = support or "exhaustive"
    if args.command in ("xor", "and", "or"):
        return builtin_task(args.command, args.bits, support, supervision)
    if args.command == "random":
        clauses = random_cnf(args.bits, args.clauses, args.length, args.seed)
        name = f"random{args.bits}-m{args.clauses}-l{args.length}-seed{args.seed}"
        return builtin_task("random", args.bits, support, supervision, clauses=clauses, name=name)
    cnf = read_dimacs(args.file)
    name = args.file.rsplit("/", 1)[-1].removesuffix(".cnf")
    return builtin_task("cnf", cnf.num_vars, support, supervision, clauses=cnf.clauses, name=name)


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
    progress = Progress(enabled=False if args.quiet or args.json else None)
    if not args.epsilon > 0 or not 0 < args.delta < 1:
        raise RscountError("--epsilon must be > 0 and --delta in (0, 1)")
    if args.timeout is not None and args.timeout <= 0:
        raise RscountError("--timeout must be positive")
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
