"""What a command prints on stdout, where a CI runner may read it: every line through
rscount.sinks.log_lines, so no task text starts a workflow command or moves a terminal's cursor.
Only `report --github-annotations` writes commands, and it prints them itself."""

from __future__ import annotations

from ..sinks import log_lines


def say(text: str, end: str = "\n") -> None:
    """Print `text` on stdout, made safe for a terminal and a CI log."""
    print(log_lines(text), end=end)
