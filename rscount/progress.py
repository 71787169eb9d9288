"""Progress of long work: a status line on a terminal's stderr (silent when piped or quiet), and
what the work has established so far (a lower bound, classes done), which a time limit reports."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from .sinks import terminal

Known = dict[str, Any]  # e.g. {"lower_bound": 1200, "classes_done": 3, "classes_total": 40}


class Progress:
    """Rewrites one status line at most ten times a second; does nothing unless enabled. `known`
    records what is established so far and hands every report to `sink` (set by a process that
    reports it to its parent), so that the parent holds the latest one when it stops the work."""

    def __init__(self, enabled: bool | None = None, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._last = 0.0
        self.state: Known = {}
        self.sink: Callable[[Known], None] | None = None

    def update(self, message: str, force: bool = False) -> None:
        """Show `message` as the current status."""
        now = time.monotonic()
        if not self.enabled or (not force and now - self._last < 0.1):
            return
        self._last = now
        self.stream.write("\r\033[K" + terminal(message))
        self.stream.flush()

    def known(self, **state: Any) -> None:
        """Record what is established so far (replacing what was)."""
        self.state = dict(state)
        if self.sink is not None:
            self.sink(self.state)

    def clear(self) -> None:
        """Remove the status line (also one a forked child drew through a copy of this object)."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
