"""`rscount check`: validate task files and say whether they admit shortcuts (also the pre-commit
hook: it takes several files and exits with the worst status)."""

from __future__ import annotations

import argparse
from typing import Any

from ..insight.judging import CHECK_TIMEOUT, Status, check_file
from ..report.records import to_json
from ..report.text import check_text
from . import options
from .output import say
from .status import Exit, worst


def judged_exit(status: Status, refuse_shortcuts: bool) -> Exit:
    """The exit code of a judged task: 2 invalid, 3 a limit, 1 a failed pin (or, with
    `refuse_shortcuts`, check's rule, shortcuts no pin allows), else 0."""
    if status == Status.INVALID:
        return Exit.INVALID
    if status == Status.LIMIT:
        return Exit.LIMIT
    if status == Status.FAILED or (refuse_shortcuts and status == Status.SHORTCUTS):
        return Exit.SHORTCUTS
    return Exit.OK


def add_commands(sub: Any) -> None:
    """The check subcommand."""
    p = sub.add_parser("check", help="validate task files and say whether they admit shortcuts")
    p.add_argument("files", nargs="+", metavar="TASK", help="task files (YAML, rsbench config or DIMACS)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="ApproxMC seed (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object per file")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    p.add_argument(
        "--verbose", "-v", action="store_true", help="also show auto's race and why no closed form applied"
    )
    options.counting_options(p, timeout=CHECK_TIMEOUT, per=f" (default {CHECK_TIMEOUT:g})")


def run(args: argparse.Namespace) -> int:
    """Check each file: exit 0 when every one is free of shortcuts or meets its expectations, 1 when
    one has shortcuts or fails an expectation, 2 when one is invalid, 3 when one hit a limit (the
    worst, in the order 2, 3, 1, 0)."""
    settings = options.settings(args)
    codes = []
    for path in args.files:
        progress = options.progress(args)
        try:
            found = check_file(path, settings, progress)
        finally:
            progress.clear()
        say(to_json(found.to_dict()) if args.json else check_text(found, args.verbose))
        codes.append(judged_exit(found.status, refuse_shortcuts=True))  # the pre-commit hook's rule
    return worst(codes)


HANDLERS = {"check": run}
