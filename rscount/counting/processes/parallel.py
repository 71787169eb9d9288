"""Independent jobs side by side: in this process, on a local process pool (`jobs`), or on an
existing Dask distributed cluster (`dask`: the scheduler's address). Results come back in input
order."""

from __future__ import annotations

import os
import re
import socket
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from typing import Any, TypeVar

from ...errors import InvalidSetting, TimeLimitExceeded, quote, short
from ...progress import Progress

Item = TypeVar("Item")
Result = TypeVar("Result")


# While a job of run_jobs' pool runs (and in the processes it forks): the processors it may count on.
# Set and reset around each job by _with_share, so the share travels with the job, not the worker.
_SHARE: ContextVar[int | None] = ContextVar("rscount_processors_share", default=None)


def processors() -> int:
    """The processors this process may use; in a job of run_jobs' pool, its share of them: the
    pool's workers split the machine, so a race run in one plans for its part (two races each
    holding a "steady" processor on a 2-core machine had four busy processes)."""
    share = _SHARE.get()
    if share is not None:
        return share
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def default_jobs() -> int:
    """One job per processor this process may use."""
    return processors()


def _with_share(fn: Callable[[Item], Result], share: int, item: Item) -> Result:
    """fn(item) as a job of run_jobs' pool, planning for `share` processors (processors())."""
    token = _SHARE.set(share)
    try:
        return fn(item)
    finally:
        _SHARE.reset(token)


def run_jobs(
    fn: Callable[[Item], Result],
    items: Sequence[Item],
    jobs: int | None = None,
    dask: str | None = None,
    progress: Progress | None = None,
    what: str = "jobs",
    crashed: Callable[[Item], Result] | None = None,
    timeout: float | None = None,
) -> list[Result]:
    """[fn(item) for item in items], run on `jobs` local processes (1: in this process) or on the
    Dask scheduler at address `dask`. `fn` and the items must be picklable (module-level functions).
    A local worker that dies (a crash in C code) breaks its pool: the items it left unfinished are
    run again one by one, each in a pool of its own, and an item that kills that one too gets
    `crashed(item)` as its result (without `crashed`, the error propagates). `timeout`: the seconds
    left to the command, which connecting to Dask may not outlast."""
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise InvalidSetting("jobs", f"must be at least 1, not {jobs}")
    if dask:
        return _on_dask(fn, items, dask, progress, what, timeout)
    if jobs == 1 or len(items) <= 1:
        here = []
        for done, item in enumerate(items):
            _show(progress, what, done, len(items))
            here.append(fn(item))
        return here
    results: list[Any] = [None] * len(items)
    again = []
    workers = min(jobs, len(items))
    share = max(1, processors() // workers)
    with ProcessPoolExecutor(workers) as pool:
        futures = {pool.submit(_with_share, fn, share, item): index for index, item in enumerate(items)}
        for done, future in enumerate(as_completed(futures), 1):
            try:
                results[futures[future]] = future.result()
            except BrokenProcessPool:
                again.append(futures[future])
            _show(progress, what, done, len(items))
    for index in again:
        results[index] = _alone(fn, items[index], crashed)
    return results


def _alone(fn: Callable[[Item], Result], item: Item, crashed: Callable[[Item], Result] | None) -> Result:
    """fn(item) in a process pool of its own; `crashed(item)` when that process dies."""
    with ProcessPoolExecutor(1) as pool:
        try:
            return pool.submit(fn, item).result()
        except BrokenProcessPool:
            if crashed is None:
                raise
            return crashed(item)


CONNECT_SECONDS = 20.0  # how long a scheduler may take to answer a new client (distributed's default: 30 s)


def dask_client(address: str, timeout: float | None = None) -> Any:
    """A distributed.Client connected to the scheduler at `address` (use as a context manager),
    within CONNECT_SECONDS or the `timeout` left to the command, whichever ends first; InvalidSetting
    naming --dask when Dask is missing, the address is malformed, nothing listens there, or what
    answers is not a scheduler; TimeLimitExceeded when the command's time runs out first."""
    try:
        from distributed import Client
    except ImportError:
        raise InvalidSetting("dask", "needs Dask distributed (pip install 'rscount[dask]')") from None
    host, port = _scheduler_place(address)
    limit = CONNECT_SECONDS if timeout is None else max(0.1, min(timeout, CONNECT_SECONDS))
    try:  # refused at once here, where distributed would retry until its timeout
        socket.create_connection((host, port), timeout=limit).close()
    except OSError as exc:
        raise InvalidSetting("dask", f"cannot reach the scheduler at {short(address)} ({exc})") from None
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = Client(address, timeout=f"{limit}s")  # type: ignore[no-untyped-call]
        except Exception as exc:  # noqa: BLE001 - whatever the far end sent, the command says it in one line
            made["error"] = exc

    thread = threading.Thread(target=connect, daemon=True)  # a silent peer stalls the handshake itself
    thread.start()
    thread.join(limit + 1.0)
    if "client" in made:
        return made["client"]
    if "error" not in made and timeout is not None and timeout <= CONNECT_SECONDS:
        raise TimeLimitExceeded(timeout, f"connecting to the Dask scheduler at {short(address)}")
    why = f"{type(made['error']).__name__}: {short(str(made['error']))}" if "error" in made else "no answer"
    raise InvalidSetting("dask", f"no Dask scheduler answered at {short(address)} in {limit:g} s ({why})")


def _scheduler_place(address: str) -> tuple[str, int]:
    """The host and port of a scheduler address (`tcp://HOST:PORT`, `tls://...` or `HOST:PORT`)."""
    found = re.fullmatch(r"(?:(?:tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+):(\d{1,5})", address)
    if found is None or not 0 < int(found[2]) < 65536:
        raise InvalidSetting("dask", f"{quote(address)} is not a scheduler address such as tcp://HOST:8786")
    return found[1].strip("[]"), int(found[2])


def _on_dask(
    fn: Callable[[Item], Result],
    items: Sequence[Item],
    address: str,
    progress: Progress | None,
    what: str,
    timeout: float | None,
) -> list[Result]:
    from distributed import as_completed as dask_completed

    with dask_client(address, timeout) as client:
        futures = client.map(fn, list(items), pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        results: list[Any] = [None] * len(items)
        completed = dask_completed(futures)  # type: ignore[no-untyped-call]
        for done, future in enumerate(completed, 1):
            results[index[future.key]] = future.result()
            _show(progress, what, done, len(items))
    return results


def _show(progress: Progress | None, what: str, done: int, total: int) -> None:
    if progress:
        progress.update(f"{what}: {done}/{total} done", force=True)
