"""Running work in a forked child process that a time or memory limit (or Ctrl-C) can stop.

Solver libraries run C code that ignores Python signals and has no timeout of its own, so each
count runs in a child; the parent kills it on timeout, interrupt, or when the memory of the child and
its own children passes the memory limit (read from Linux's /proc every 0.1 s). Forked processes
share their parent's pages until they write them, so each page counts in proportion to the
processes that share it (Linux's PSS): a tree of five forks of a 2 GB process uses about 2 GB, not 10.
Errors meant for the user come back with their type (they pickle, see rscount.errors); a
MemoryError as the memory limit; any other exception is a bug and comes back as an InternalError
carrying the child's traceback, and a child killed by a signal rscount did not send as a crash.
"""

from __future__ import annotations

import ctypes
import math
import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from ...errors import InternalError, MemoryLimitExceeded, RscountError, TimeLimitExceeded, short
from ...limits import number_text
from ...progress import Known, Progress

T = TypeVar("T")
POLL = 0.1  # seconds between two looks at the child's memory
GB = 2**30


def run_stoppable(
    fn: Callable[..., T],
    *args: Any,
    timeout: float | None = None,
    what: str = "",
    progress: Progress | None = None,
    memory: float | None = None,
    elapsed: float = 0.0,
) -> T:
    """fn(*args) in a forked child; TimeLimitExceeded (naming `what`) after `timeout` seconds, or
    MemoryLimitExceeded once the child (with its children) holds more than `memory` GB, with what
    the child last reported through `progress.known` (if `progress` is given: the child's copy of
    it forwards its reports). `elapsed` seconds of the time limit were spent before this call."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        die_with_parent()
        if progress is not None:
            progress.sink = lambda state: sender.send(("known", state))
        try:
            sender.send(("ok", fn(*args)))
        except RscountError as exc:
            sender.send(("user", exc))
        except MemoryError:
            sender.send(("memory", None))
        except BaseException:  # an internal error: hand the traceback to the parent
            sender.send(("bug", traceback.format_exc()))

    process = context.Process(target=child, daemon=True)
    start_process(process)
    sender.close()
    watch = _Watch(process.pid, timeout, memory, what, elapsed)
    try:
        kind, payload = watch.receive(receiver)
    except EOFError:
        process.join()
        if memory is not None and process.exitcode == -signal.SIGKILL:  # the kernel's OOM killer
            raise MemoryLimitExceeded(memory, what, *watch.known_now()) from None
        raise died(what or "the counting process", process.exitcode) from None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
    if kind == "memory":
        raise MemoryLimitExceeded(memory or 0, what, *watch.known_now())
    if kind == "user":
        raise payload
    if kind == "bug":
        raise bug(what or "counting", payload)
    return payload  # type: ignore[no-any-return]


def died(what: str, exit_code: int | None) -> InternalError:
    """The error of a child process that ended without an answer: a crash when a signal it did not
    get from rscount killed it (a segmentation fault in a solver library), else its exit code."""
    if exit_code is not None and exit_code < 0:
        try:
            name = signal.Signals(-exit_code).name
        except ValueError:
            name = f"signal {-exit_code}"
        return InternalError(f"{what} crashed ({name})")
    return InternalError(f"{what} ended without an answer (exit code {exit_code})")


def bug(what: str, trace: str) -> InternalError:
    """The error of an exception a child raised that is not one meant for the user, with its traceback."""
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return InternalError(f"{what} failed: {short(lines[-1]) if lines else 'no traceback'}", trace)


class _Watch:
    """The parent's side of a child: its result, its reports of what is known until then, and the
    limits: TimeLimitExceeded at the deadline, MemoryLimitExceeded past the memory limit."""

    def __init__(
        self, pid: int | None, timeout: float | None, memory: float | None, what: str, elapsed: float
    ) -> None:
        self.pid = pid
        self.timeout = timeout
        self.memory = memory
        self.what = what
        self.deadline = None if timeout is None else time.monotonic() + timeout - elapsed
        self.known: Known = {}

    def known_now(self) -> tuple[str, Known]:
        """What the child last reported, in words and as data."""
        return known_text(self.known), self.known

    def receive(self, receiver: Any) -> tuple[str, Any]:
        """The child's result (kind, payload)."""
        while True:
            left = None if self.deadline is None else self.deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeLimitExceeded(self.timeout or 0, self.what, *self.known_now())
            wait = left if self.memory is None else POLL if left is None else min(left, POLL)
            if not receiver.poll(wait):
                if self.memory is not None and self.pid and over_memory(self.pid, self.memory * GB):
                    raise MemoryLimitExceeded(self.memory, self.what, *self.known_now())
                continue
            kind, payload = receiver.recv()
            if kind != "known":
                return kind, payload
            self.known = payload


def over_memory(pid: int, limit: float) -> bool:
    """Whether process `pid` and its descendants use more than `limit` bytes (tree_memory), asked of
    the resident sizes first: they bound the proportional ones from above and cost a fraction to
    read (smaps_rollup walks the page tables: 9 ms a look at a 1 GB count, 20 s of a 150 s one)."""
    return tree_memory(pid, proportional=False) > limit and tree_memory(pid) > limit


def tree_memory(pid: int, proportional: bool = True) -> int:
    """The bytes process `pid` and all its descendants use (Linux /proc; 0 where there is none): the
    proportional set size, where the kernel has it and `proportional`, else the resident set size."""
    total, todo, seen = 0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            total += _process_memory(current, proportional)
            for thread in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{thread}/children") as children:
                    todo.extend(int(child) for child in children.read().split())
        except (OSError, ValueError, IndexError):  # the process ended meanwhile, or no /proc
            continue
    return total


def _process_memory(pid: int, proportional: bool) -> int:
    """Process `pid`'s proportional set size in bytes (Linux 4.14 on) when `proportional`, else (or
    without it) its resident set size."""
    if proportional:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def known_text(known: Known) -> str:
    """`at least 1200 optimal maps (3 of 40 classes counted)`, `at least 1200 and at most 5000
    optimal maps (...)`, a count whose cross-check was stopped, or '' when nothing is known; then
    the sampled estimate, if any, with its confidence, and the search probes' lower bound."""
    sampled = ""
    if "estimate" in known:
        confidence = f"{known['estimate_confidence']:.0%}"
        sampled = (
            f"{known['estimate_draws']} uniformly drawn maps put the count between "
            f"{number_text(known['estimate_low'], 40)} and {number_text(known['estimate_high'], 40)} "
            f"with probability at least {confidence} (estimate {number_text(known['estimate'], 40)})"
        )
    if "estimate_probes" in known:
        probed, mean = known["estimate_probes"], number_text(known["estimate_probe_mean"], 40)
        sampled += (
            f"; {probed} random search probes put it at least {number_text(known['estimate_at_least'], 40)} "
            f"with probability at least {confidence} (their mean, unbiased but with no bound on its "
            f"error: {mean})"
            if known["estimate_at_least"]
            else f"; {probed} random search probes have a mean of {mean} (unbiased but with no bound "
            "on its error; too few kept every row for a lower bound)"
        )
    if "lower_bound" not in known and "upper_bound" not in known:
        return sampled
    lower = number_text(known.get("lower_bound", 1), 40)
    if "counted_by" in known:
        return (
            f"{lower} optimal maps by {known['counted_by']} (its cross-check by another route did not finish)"
        )
    upper = f" and at most {number_text(known['upper_bound'], 40)}" if "upper_bound" in known else ""
    done, total = known.get("classes_done"), known.get("classes_total")
    if "lower_bound" not in known:
        what = "nothing counted yet"
    elif known.get("tuples_done") == 0:
        what = (
            f"none of {known.get('tuples_total')} source tuples of the first label group summed yet: "
            "the identity map, the maps the knowledge's symmetries make of it, and their images of "
            "values no row shows"
        )
    elif "tuples_done" in known:
        done, total = known["tuples_done"], known.get("tuples_total")
        what = f"{done} of {total} source tuples of the first label group summed"
    elif total is not None:
        what = f"{done} of {total} permutation classes counted"
    elif "classes_found" in known:
        counted = f"{done} counted" if done else "none counted"
        what = f"{known['classes_found']} permutation classes found so far, {counted}"
    elif done is None:  # a method that keeps the maps it finds (pairwise), not classes
        what = "the maps found so far; the search for more did not finish"
    else:
        what = f"{done} permutation classes counted, more not yet found"
    if "work_done" in known:
        what += f", {_percent(known['work_done'])} of the permutation tree walked"
    if "permutations_done" in known:
        share = Fraction(known["permutations_done"], known["permutations_total"])
        what += f"; the classes counted hold {_percent(share)} of the concept permutations"
    rows = known.get("upper_bound_rows")
    if "upper_bound_tuples" in known:
        what += (
            f"; the upper bound sums over {known['upper_bound_tuples']} source tuples the value maps"
            " that some of their rows allow"
        )
    elif rows:
        what += f"; the upper bound counts the first {rows} support rows alone"
    elif rows == 0:
        what += "; the upper bound is the number of maps there are, optimal or not"
    certain = f"at least {lower}{upper} optimal maps ({what})"
    return f"{certain}; {sampled}" if sampled else certain


def _percent(share: float | Fraction) -> str:
    """A share as a whole percentage rounded down: 100% only when the work is done."""
    return f"{math.floor(share * 100)}%"


def start_process(process: multiprocessing.process.BaseProcess) -> None:
    """Start `process`, also from a daemonic process such as a Dask worker. multiprocessing refuses
    children of daemons so that none outlive them; run_stoppable always kills and joins its child."""
    config = multiprocessing.current_process()._config  # type: ignore[attr-defined]
    daemonic = config.get("daemon", False)
    config["daemon"] = False
    try:
        process.start()
    finally:
        config["daemon"] = daemonic


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies, so that no count outlives the command
    that started it (a no-op elsewhere)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request
        os._exit(1)
