"""Progress lines on a terminal's stderr; silent when piped or quiet."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Rewrites one status line at most ten times a second; does nothing unless enabled."""

    def __init__(self, enabled: bool | None = None, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._last = 0.0

    def update(self, message: str, force: bool = False) -> None:
        """Show `message` as the current status."""
        now = time.monotonic()
        if not self.enabled or (not force and now - self._last < 0.1):
            return
        self._last = now
        self.stream.write("\r\033[K" + message)
        self.stream.flush()

    def clear(self) -> None:
        """Remove the status line (also one a forked child drew through a copy of this object)."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
