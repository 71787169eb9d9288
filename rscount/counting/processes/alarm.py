"""Work in this process cut short after a few seconds of wall clock (auto's head start): SIGALRM
raises AlarmRang in the main thread, which stops Python code (C code runs on to its next return).
Where that cannot be done (another thread, or SIGALRM already in use) the work is not started."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class AlarmRang(Exception):
    """The work's seconds ran out."""


def within_seconds(seconds: float, fn: Callable[[], T]) -> T | None:
    """fn() if it returns within `seconds`; None if the alarm rang first, or if no alarm can be set
    here. Exceptions of fn propagate; the previous handler and timer are restored."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None):
        return None
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        return None

    def ring(signum: int, frame: Any) -> None:
        raise AlarmRang

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except AlarmRang:
        return None
    finally:
        signal.signal(signal.SIGALRM, previous)
