"""Running work in a forked child process that a time limit (or Ctrl-C) can stop.

Solver libraries run C code that ignores Python signals and has no timeout of its own, so each
count runs in a child; the parent kills it on timeout or interrupt. Errors meant for the user come
back with their type (they pickle, see rscount.errors); any other exception is a bug and comes
back as a RuntimeError carrying the child's traceback.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import RscountError, TimeLimitExceeded

T = TypeVar("T")


def run_stoppable(fn: Callable[..., T], *args: Any, timeout: float | None = None, what: str = "") -> T:
    """fn(*args) in a forked child; TimeLimitExceeded (naming `what`) after `timeout` seconds."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        try:
            sender.send(("ok", fn(*args)))
        except RscountError as exc:
            sender.send(("user", exc))
        except BaseException:  # an internal error: hand the traceback to the parent
            sender.send(("bug", traceback.format_exc()))

    process = context.Process(target=child, daemon=True)
    _start_even_in_a_daemon(process)
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise TimeLimitExceeded(timeout or 0, what)
        kind, payload = receiver.recv()
    except EOFError:
        raise RuntimeError(f"the counting process died (exit code {process.exitcode})") from None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
    if kind == "user":
        raise payload
    if kind == "bug":
        raise RuntimeError(f"counting failed in the child process:\n{payload}")
    return payload  # type: ignore[no-any-return]


def _start_even_in_a_daemon(process: multiprocessing.process.BaseProcess) -> None:
    """Start `process`, also from a daemonic process such as a Dask worker. multiprocessing refuses
    children of daemons so that none outlive them; run_stoppable always kills and joins its child."""
    config = multiprocessing.current_process()._config  # type: ignore[attr-defined]
    daemonic = config.get("daemon", False)
    config["daemon"] = False
    try:
        process.start()
    finally:
        config["daemon"] = daemonic
