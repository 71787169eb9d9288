"""Work in this process cut short after a few seconds of wall clock (auto's head start): SIGALRM
raises AlarmRang in the main thread, which stops Python code (C code runs on to its next return).
Where that cannot be done (another thread, or SIGALRM already in use) the work is not started.

Python drops an exception raised in a finalizer (a pysat Solver's `__del__` once swallowed the
alarm, and the head start ran on unbounded), so the alarm rings again every RING_AGAIN seconds
until the work has stopped, and a ring swallowed that way is not printed. A ring inside pysat's own
Python code waits for it to return: between freeing a solver and forgetting it (Solver.delete), an
exception left the solver to be freed again by its finalizer, a crash (SIGSEGV in CaDiCaL's
destructor, seen in explain's count)."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

RING_AGAIN = 0.05
UNINTERRUPTED = "pysat"  # the package whose Python code a ring waits for (see above)


class AlarmRang(Exception):
    """The work's seconds ran out."""


def within_seconds(seconds: float, fn: Callable[[], T]) -> T | None:
    """fn() if it returns within `seconds`; None if the alarm rang first, or if no alarm can be set
    here. Exceptions of fn propagate; the previous handler, timer and unraisable hook are restored."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None):
        return None
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        return None
    stopped = False

    def ring(signum: int, frame: Any) -> None:
        if not stopped:
            signal.setitimer(signal.ITIMER_REAL, RING_AGAIN)
            if not _uninterrupted(frame):
                raise AlarmRang

    hook = sys.unraisablehook

    def unraisable(info: Any) -> None:
        if not isinstance(info.exc_value, AlarmRang):
            hook(info)

    previous = signal.signal(signal.SIGALRM, ring)
    sys.unraisablehook = unraisable
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return fn()
        finally:
            stopped = True
            signal.setitimer(signal.ITIMER_REAL, 0)
    except AlarmRang:
        return None
    finally:
        stopped = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.unraisablehook = hook
        signal.signal(signal.SIGALRM, previous)


def _uninterrupted(frame: Any) -> bool:
    """Whether the code a ring stopped in is UNINTERRUPTED's (a module of that package)."""
    module = str(frame.f_globals.get("__name__", "")) if frame is not None else ""
    return module == UNINTERRUPTED or module.startswith(UNINTERRUPTED + ".")
