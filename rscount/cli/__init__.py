"""The command line: one module per subcommand plus shared options; the only code that knows flags
and exit codes. Library errors reach `main`, which prints them as one line."""

from .main import main

__all__ = ["main"]
