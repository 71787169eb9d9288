"""Running work in a forked child process that a time limit (or Ctrl-C) can stop.

Solver libraries run C code that ignores Python signals and has no timeout of its own, so each
count runs in a child; the parent kills it on timeout or interrupt. Errors meant for the user come
back with their type (they pickle, see rscount.errors); any other exception is a bug and comes
back as a RuntimeError carrying the child's traceback.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import RscountError, TimeLimitExceeded
from ..progress import Known, Progress

T = TypeVar("T")


def run_stoppable(
    fn: Callable[..., T],
    *args: Any,
    timeout: float | None = None,
    what: str = "",
    progress: Progress | None = None,
) -> T:
    """fn(*args) in a forked child; TimeLimitExceeded (naming `what`) after `timeout` seconds,
    with what the child last reported through `progress.known` (if `progress` is given: the child's
    copy of it forwards its reports)."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        if progress is not None:
            progress.sink = lambda state: sender.send(("known", state))
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
        kind, payload = _receive(receiver, timeout, what)
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


def _receive(receiver: Any, timeout: float | None, what: str) -> tuple[str, Any]:
    """The child's result, keeping its reports of what is known until then; TimeLimitExceeded with
    the last report at the deadline."""
    deadline = None if timeout is None else time.monotonic() + timeout
    known: Known = {}
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0 or not receiver.poll(left):
            raise TimeLimitExceeded(timeout or 0, what, known_text(known), known)
        kind, payload = receiver.recv()
        if kind != "known":
            return kind, payload
        known = payload


def known_text(known: Known) -> str:
    """`at least 1200 optimal maps (3 of 40 classes counted)`, or '' when nothing is known."""
    if "lower_bound" not in known:
        return ""
    done, total = known.get("classes_done"), known.get("classes_total")
    classes = (
        f"{done} of {total} permutation classes counted"
        if total is not None
        else (f"{done} permutation classes counted, more not yet found")
    )
    return f"at least {_number(known['lower_bound'])} optimal maps ({classes})"


def _number(n: int) -> str:
    """A count in full, or its size when Python refuses to write so many digits."""
    try:
        return str(n)
    except ValueError:
        return f"a {int(n.bit_length() * 0.30103) + 1}-digit number"


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
