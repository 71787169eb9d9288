"""The `rscount` command: one parser with a subcommand per module, errors mapped to one line on
stderr and an exit code (rscount.cli.status)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

from ..errors import InternalError, RscountError, short
from ..sinks import terminal
from ..version import __version__
from .status import Exit, exit_code, message

# The command modules (rscount.cli.<name>) and the subcommands each adds (add_commands) and handles
# (HANDLERS): a command line imports only the module of the command it names, as importing every
# module's library took 0.6 s a run (hwf3 counts in 0.03 s once its program is read).
COMMANDS: dict[str, tuple[str, ...]] = {
    "count": ("xor", "and", "or", "random", "cnf", "count"),
    "listing": ("list",),
    "report": ("report",),
    "check": ("check",),
    "explain": ("explain",),
    "forecast": ("forecast",),
    "advise": ("advise",),
    "sweep": ("sweep",),
    "install": ("install-ganak",),
}


def command_modules(command: str | None = None) -> list[ModuleType]:
    """The module of `command`, or every module when it names none of theirs (for the help, and
    the error of an unknown command)."""
    named = [m for m, commands in COMMANDS.items() if command in commands] or list(COMMANDS)
    return [importlib.import_module(f"{__package__}.{m}") for m in named]


def make_parser(modules: Sequence[ModuleType] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the subcommands of `modules` (every module's when None)."""
    parser = argparse.ArgumentParser(
        prog="rscount", description="Count the reasoning shortcuts of a neuro-symbolic learning task."
    )
    parser.add_argument("--version", action="version", version=f"rscount {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in modules or command_modules():
        module.add_commands(sub)
    return parser


def run(args: argparse.Namespace) -> int:
    """Execute a parsed command line; returns the exit code."""
    for module in command_modules(args.command):
        if args.command in module.HANDLERS:
            return int(module.HANDLERS[args.command](args))
    raise AssertionError(f"no handler for {args.command}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: library errors become one line on stderr and their exit code."""
    given = sys.argv[1:] if argv is None else argv
    command = next((a for a in given if not a.startswith("-")), None)  # no top-level option takes a value
    args = make_parser(command_modules(command)).parse_args(argv)
    try:
        return run(args)
    except RscountError as exc:
        return _report(exc)
    except KeyboardInterrupt:
        print("rscount: interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:  # the reader (e.g. `head`) closed the pipe: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return Exit.BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - a bug is one line too, its traceback on request
        first = str(exc).splitlines()[0] if str(exc) else ""
        return _report(InternalError(f"{type(exc).__name__}: {short(first)}", traceback.format_exc()))


def _report(error: RscountError) -> int:
    """Print a library error as one line (and an internal error's traceback with RSCOUNT_DEBUG=1)."""
    print(f"rscount: error: {terminal(message(error))}", file=sys.stderr)
    if isinstance(error, InternalError) and error.details and os.environ.get("RSCOUNT_DEBUG") == "1":
        print(error.details, file=sys.stderr)
    return exit_code(error)
