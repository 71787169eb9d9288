"""Command-line pieces every counting subcommand shares: the support/counting/output flags and the
task a command line describes."""

from __future__ import annotations

import argparse
from typing import Any

from .backends import backends
from .counting import APPROX, CLOSED_FORM, EXACT, MODES
from .dimacs import read_dimacs
from .errors import RscountError
from .knowledge import random_cnf
from .support import Support
from .task import Task
from .taskfile import build_support, builtin_task, load_task

BUILTIN_COMMANDS = ("xor", "and", "or", "random", "cnf")


def _amount(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def common_options(parser: argparse.ArgumentParser) -> None:
    """The support, counting and output flags every counting command shares."""
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
    counting_options(parser)
    out = parser.add_argument_group("output")
    out.add_argument(
        "--emit", metavar="PATH", help="write the DIMACS encoding; counts too only if a method is given"
    )
    out.add_argument("--ind", action="store_true", help="write the projection as 'c ind' (with --emit)")
    out.add_argument("--force", action="store_true", help="let --emit overwrite an existing file")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--quiet", "-q", action="store_true", help="no progress display")


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
    if args.command not in BUILTIN_COMMANDS:  # a task file
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


def counting_options(parser: argparse.ArgumentParser, timeout: float | None = None, per: str = "") -> None:
    """The mode, method, ApproxMC and time-limit flags (`per` qualifies the time limit's help)."""
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
    how.add_argument(
        "--timeout",
        type=float,
        default=timeout,
        metavar="SECONDS",
        help="stop counting after this long" + per,
    )


def check_counting_args(args: argparse.Namespace) -> None:
    """Refuse ApproxMC settings and time limits that mean nothing."""
    if not args.epsilon > 0 or not 0 < args.delta < 1:
        raise RscountError("--epsilon must be > 0 and --delta in (0, 1)")
    if args.timeout is not None and args.timeout <= 0:
        raise RscountError("--timeout must be positive")
