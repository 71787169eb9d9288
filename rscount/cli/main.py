"""The `rscount` command: one parser with a subcommand per module, errors mapped to one line on
stderr and an exit code (rscount.cli.status)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from ..errors import RscountError
from ..version import __version__
from . import advise, check, count, explain, forecast, install, listing, report, sweep
from .status import Exit, exit_code, message

# Each module adds its subcommands (add_commands) and maps them to handlers (HANDLERS).
COMMAND_MODULES: list[ModuleType] = [count, listing, report, check, explain, forecast, advise, sweep, install]


def make_parser() -> argparse.ArgumentParser:
    """The argument parser of all subcommands."""
    parser = argparse.ArgumentParser(
        prog="rscount", description="Count the reasoning shortcuts of a neuro-symbolic learning task."
    )
    parser.add_argument("--version", action="version", version=f"rscount {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.add_commands(sub)
    return parser


def run(args: argparse.Namespace) -> int:
    """Execute a parsed command line; returns the exit code."""
    for module in COMMAND_MODULES:
        if args.command in module.HANDLERS:
            return int(module.HANDLERS[args.command](args))
    raise AssertionError(f"no handler for {args.command}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: library errors become one line on stderr and their exit code."""
    args = make_parser().parse_args(argv)
    try:
        return run(args)
    except RscountError as exc:
        print(f"rscount: error: {message(exc)}", file=sys.stderr)
        return exit_code(exc)
    except KeyboardInterrupt:
        print("rscount: interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:  # the reader (e.g. `head`) closed the pipe: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return Exit.BROKEN_PIPE
