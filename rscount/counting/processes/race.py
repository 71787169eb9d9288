"""Several counting methods raced on one task: each in a forked child, at most `cores` of them running
at once, the others paused (SIGSTOP), and every `slice` seconds of wall clock the running ones
paused and the next ones in turn resumed (SIGCONT), so that each method gets an equal share of the
machine and one that stalls cannot starve one that would answer: a method that answers alone in t
seconds answers in the race within about t * (methods / cores). A `steady` entrant (with two or more
processors) is never paused: it holds one processor while the others share the rest, so it answers
in the race as fast as alone. The slices start short and double each round up to SLICE, so a
race among methods that each answer in milliseconds takes milliseconds.
An entrant that says how much of its work is done (`progress.known(work_done=share)`, or x_done=
and x_total=) and, at the pace it has kept, expects to finish within the time the race has run,
gets slices m + 1 times as long as the others' (m entrants sharing by turns): so it answers sooner,
and they, even where the expectation fails, keep half of their shares (on one processor, each of
the m - 1 others then has 1 / 2m of it).
A helper (an entrant with a delay: it never answers, it finds bounds) runs at most its part of
HELPER_SHARE of the time of the processors shared by turns (those no steady entrant holds) since it
joined, so the methods that answer keep nearly all of it.
The first answer wins and the other children are killed; a method that declines (it does not apply,
or passed its budget) leaves its turn to the next. What the children establish on the way
(`progress.known`: lower bounds) is merged and passed up, the best of each kind kept."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from ...errors import RscountError
from ...progress import Known, Progress
from ..budget import Declined
from .isolation import bug, die_with_parent, died, start_process

SLICE = 0.5  # seconds a running method keeps the processor before the next one's turn (at most)
FIRST_SLICE = 0.02  # the first round's slice
# The helpers' share of the processors shared by turns, together: with equal shares, auto's two
# helpers took two thirds of the processor the answering methods shared (kandy-hard-17: decompose
# 46 s alone, 89 s in the race); with a tenth of both processors each, a fifth of the one search did
# not hold (random 3-CNF on 8 bits, 51 rows: 13 of 73 s, decompose answering after 30 s of its own).
HELPER_SHARE = 0.1


@dataclass
class Entrant:
    """One method in the race: its name and what it does (given a progress that reports upwards)."""

    name: str
    run: Callable[[Progress], Any]
    delay: float = 0.0  # seconds of the race before this one may run (helpers that never answer)
    steady: bool = False  # never paused while there is another processor for the rest to share
    process: multiprocessing.process.BaseProcess | None = None
    receiver: Connection | None = None
    outcome: str = "not started"
    seconds: float = 0.0  # wall-clock seconds it held the processor
    known: Known = field(default_factory=dict)

    def remaining(self) -> float | None:
        """The seconds of processor it expects to need still, at the pace it kept, from the share
        of its work it reported done (`work_done`, or x_done of x_total); None when it reported none."""
        share = self.known.get("work_done")
        if isinstance(share, float) and 0 < share <= 1:
            return self.seconds * (1 - share) / share
        for key, done in self.known.items():
            total = self.known.get(key.removesuffix("_done") + "_total")
            if key.endswith("_done") and isinstance(total, int) and 0 < done <= total:
                return float(self.seconds * (total - done) / done)
        return None


@dataclass
class Race:
    """The entrants and the winner's result (None while no one answered)."""

    entrants: list[Entrant]
    winner: Entrant | None = None
    result: Any = None

    def summary(self) -> list[dict[str, Any]]:
        """Per entrant: name, how it ended, the seconds it ran (for --verbose and the details)."""
        return [
            {"method": e.name, "outcome": e.outcome, "seconds": round(e.seconds, 3)} for e in self.entrants
        ]


def race(entrants: Sequence[Entrant], cores: int, progress: Progress | None = None) -> Race:
    """Run the entrants as described above until one answers (its result in the Race) or all have
    declined (Declined, saying why each did). A user error in one is raised at once; so is a
    crash of one (InternalError, with its traceback)."""
    state = Race(list(entrants))
    turn = [e for e in state.entrants]  # round-robin order of those not finished
    running: list[Entrant] = []
    begun = time.monotonic()
    slices = 0
    helpers = sum(1 for e in state.entrants if e.delay)
    shared = max(1, cores - sum(1 for e in state.entrants if _holds_one(e, cores)))
    share = HELPER_SHARE * shared / max(1, helpers)  # of the wall-clock time, per helper
    try:
        while any(e.delay == 0 for e in turn):  # helpers alone do not keep a race going
            running = _resume(turn, running, max(1, cores), progress, time.monotonic() - begun, share)
            length = min(SLICE, FIRST_SLICE * 2 ** min(slices * max(1, cores) // len(turn), 5))
            if _favoured(turn, time.monotonic() - begun, cores) in running:
                length *= len(_sharing(turn, cores)) + 1
            slices += 1
            if _slice(state, running, turn, length, progress):
                _declines_sent(state)
                return state
            elapsed = time.monotonic() - begun
            waiting = [e for e in turn if e not in running and _may_run(e, elapsed, share)]
            if waiting:  # others wait: the running ones go to the back (a steady one keeps running)
                for e in [e for e in running if not _holds_one(e, cores)]:
                    _signal(e, signal.SIGSTOP)
                    turn.remove(e)
                    turn.append(e)
                    running.remove(e)
        why = "; ".join(f"{e.name}: {e.outcome}" for e in state.entrants if e.outcome != "not started")
        raise Declined(f"every method declined ({why})")
    finally:
        for e in state.entrants:
            if e.process is not None and e.process.is_alive():
                e.process.kill()
                e.process.join()
                if e.outcome == "running":
                    e.outcome = "stopped"


def _slice(
    state: Race, running: list[Entrant], turn: list[Entrant], length: float, progress: Progress | None
) -> bool:
    """Let the running entrants run for `length` seconds, reading their reports as they come (a
    report does not end the slice: one that reports often would get less of the machine); True once
    one answered. An entrant that declines leaves `running` and `turn`, and ends the slice early, so
    that the next in turn takes its processor."""
    deadline = time.monotonic() + length
    while True:
        since = time.monotonic()
        ready = wait(
            [e.receiver for e in running if e.receiver is not None], timeout=max(0.0, deadline - since)
        )
        held = time.monotonic() - since
        for e in running:
            e.seconds += held
        left = False
        for e in [e for e in running if e.receiver in ready]:
            status = _read(state, e, progress)
            if status == "answered":
                return True
            if status == "declined":
                running.remove(e)
                turn.remove(e)
                left = True
        if left or not running or time.monotonic() >= deadline:
            return False


def _declines_sent(state: Race) -> None:
    """Record the declines the other entrants had sent when the winner answered, so that the race's
    summary says they declined rather than that they were stopped."""
    for e in state.entrants:
        if e is state.winner or e.receiver is None:
            continue
        with contextlib.suppress(EOFError, OSError):
            while e.receiver.poll():
                kind, payload = e.receiver.recv()
                if kind == "declined":
                    e.outcome = f"declined: {payload}"


def _resume(
    turn: list[Entrant],
    running: list[Entrant],
    cores: int,
    progress: Progress | None,
    elapsed: float,
    share: float,
) -> list[Entrant]:
    """The entrants that run this slice: those running, then the steady ones, then the next in turn
    up to `cores` (started if new and past its delay, resumed if paused)."""
    for e in sorted(turn, key=lambda e: not _holds_one(e, cores)):
        if len(running) >= cores:
            break
        if e in running or not _may_run(e, elapsed, share):
            continue
        if e.process is None:
            _start(e, progress)
        else:
            _signal(e, signal.SIGCONT)
        running.append(e)
    return running


def _sharing(turn: list[Entrant], cores: int) -> list[Entrant]:
    """The entrants that share processors by turns (helpers, and steady entrants where they hold a
    processor, aside: they have their own shares)."""
    return [e for e in turn if not (e.delay or _holds_one(e, cores))]


def _holds_one(e: Entrant, cores: int) -> bool:
    """Whether the entrant holds a processor of its own (steady, with others left to share)."""
    return e.steady and cores > 1


def _favoured(turn: list[Entrant], elapsed: float, cores: int) -> Entrant | None:
    """The sharing entrant that expects to finish soonest, if it expects to within `elapsed` seconds."""
    expected = [(r, e) for e in _sharing(turn, cores) if (r := e.remaining()) is not None]
    soonest = min(expected, key=lambda pair: pair[0], default=None)
    return soonest[1] if soonest is not None and soonest[0] <= elapsed else None


def _may_run(e: Entrant, elapsed: float, share: float) -> bool:
    """Whether the entrant may take a processor `elapsed` seconds into the race: past its delay,
    and for a helper, within its `share` of the time since."""
    return e.delay <= elapsed and (e.delay == 0 or e.seconds <= share * (elapsed - e.delay))


def _start(e: Entrant, progress: Progress | None) -> None:
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        die_with_parent()
        reports = Progress(enabled=False)
        reports.sink = lambda known: sender.send(("known", known))
        try:
            sender.send(("ok", e.run(reports)))
        except Declined as exc:
            sender.send(("declined", str(exc)))
        except RscountError as exc:
            sender.send(("user", exc))
        except MemoryError:
            sender.send(("bug", "out of memory"))
        except BaseException:
            sender.send(("bug", traceback.format_exc()))

    e.process = context.Process(target=child, daemon=True)
    start_process(e.process)
    sender.close()
    e.receiver = receiver
    e.outcome = "running"


def _read(state: Race, e: Entrant, progress: Progress | None) -> str:
    """Read what entrant `e` sent: 'answered' (the race is won), 'declined', or 'running' (a report
    of progress)."""
    assert e.receiver is not None
    try:
        kind, payload = e.receiver.recv()
    except EOFError:
        raise died(f"the {e.name} counting process", _exit_code(e)) from None
    if kind == "known":
        e.known = payload
        _merge(state, progress)
        return "running"
    if kind == "ok":
        e.outcome = "answered"
        state.winner, state.result = e, payload
        return "answered"
    if kind == "declined":
        e.outcome = f"declined: {payload}"
        return "declined"
    if kind == "user":
        raise payload
    raise bug(f"counting by {e.name}", payload)


def _merge(state: Race, progress: Progress | None) -> None:
    """What the entrants established so far, passed up: the best lower bound any reported (with its
    details), the smallest upper bound and the sampled estimate of the most draws."""
    known = [e.known for e in state.entrants]
    lower = max((k for k in known if "lower_bound" in k), key=lambda k: k["lower_bound"], default={})
    upper = min((k for k in known if "upper_bound" in k), key=lambda k: k["upper_bound"], default={})
    sampled = max((k for k in known if "estimate" in k), key=lambda k: k["estimate_draws"], default={})
    merged = {
        **{k: v for k, v in upper.items() if k.startswith("upper")},
        **{k: v for k, v in sampled.items() if k.startswith("estimate")},
        **lower,
    }
    if progress is not None and merged:
        progress.known(**merged)


def _signal(e: Entrant, sig: signal.Signals) -> None:
    if e.process is not None and e.process.pid is not None and e.process.is_alive():
        with contextlib.suppress(ProcessLookupError):
            os.kill(e.process.pid, sig)


def _exit_code(e: Entrant) -> int | None:
    if e.process is None:
        return None
    e.process.join(1)
    return e.process.exitcode
