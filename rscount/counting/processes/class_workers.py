"""Permutation classes counted by several processes while this one finds them: each worker is a
fork of this process with its own value-map counter (rscount.counting.methods.decompose.backend), fed
small batches of classes as the class search yields them, so that the search and the counting
overlap and every core counts. Workers die with this process (Linux's parent-death signal), so a
time limit that kills it stops them too."""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from multiprocessing.connection import Connection, wait
from typing import Any

from ...errors import InternalError, RscountError
from .isolation import bug, die_with_parent, start_process

Pi = tuple[int, ...]
BATCH = 8  # classes per message: small enough to keep every worker busy to the end


def _serve(conn: Connection, make_counter: Callable[[], Any]) -> None:
    """A worker: count each batch of permutations it receives; None ends it with the counter's details."""
    die_with_parent()
    counter = make_counter()
    while True:
        batch = conn.recv()
        try:
            if batch is None:
                conn.send(("done", counter.details()))
                return
            conn.send(("ok", [counter.count(pi) for pi in batch]))
        except RscountError as exc:
            conn.send(("user", exc))
        except MemoryError:
            conn.send(("memory", None))
        except BaseException:  # a bug: its traceback goes to the parent
            conn.send(("bug", traceback.format_exc()))


class ClassWorkers:
    """`jobs` worker processes counting N(pi) with the counters `make_counter` builds (a forked
    worker inherits everything the factory reads). Use as a context manager."""

    def __init__(self, make_counter: Callable[[], Any], jobs: int) -> None:
        context = multiprocessing.get_context("fork")
        self.conns: list[Connection] = []
        self.processes = []
        for _ in range(jobs):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, make_counter), daemon=True)
            start_process(process)
            theirs.close()
            self.conns.append(mine)
            self.processes.append(process)
        self.details: dict[str, Any] = {}

    def counts(self, classes: Iterable[tuple[Pi, int]]) -> Iterator[tuple[int, int, Pi]]:
        """(N(pi), class size, pi) for every class, in the order the workers finish them."""
        found = iter(classes)
        idle, pending = list(self.conns), {}
        more = True
        while True:
            while idle and more:
                batch = list(islice(found, BATCH))
                if not batch:
                    more = False
                    break
                conn = idle.pop()
                conn.send([pi for pi, _ in batch])
                pending[conn] = batch
            if not pending:
                return
            for ready in wait(list(pending)):
                done = next(c for c in pending if c is ready)
                batch = pending.pop(done)
                yield from ((models, size, pi) for models, (pi, size) in zip(self._answer(done), batch))
                idle.append(done)

    @staticmethod
    def _answer(conn: Connection) -> list[int]:
        try:
            kind, payload = conn.recv()
        except EOFError:
            raise InternalError("a class-counting worker ended without an answer") from None
        if kind == "ok":
            return payload  # type: ignore[no-any-return]
        if kind == "user":
            raise payload
        if kind == "memory":
            raise MemoryError("a class-counting worker ran out of memory")
        raise bug("a class-counting worker", payload)

    def __enter__(self) -> ClassWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the workers; when all went well, gather their counters' details (summed)."""
        for conn in self.conns:
            try:
                conn.send(None)
                if exc[0] is None:
                    kind, details = conn.recv()
                    for key, value in details.items():  # factors counted add up, the rest is shared
                        summed = key.endswith("_counted")
                        self.details[key] = self.details.get(key, 0) + value if summed else value
            except (OSError, EOFError):
                pass
        for process in self.processes:
            process.kill()
            process.join()
