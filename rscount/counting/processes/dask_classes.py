"""Permutation classes counted on a Dask cluster (`count --dask ADDRESS`): batches of classes go to
the cluster's workers as the class search yields them, a few per worker in flight. Each worker
builds the count's class counter once (kept per worker process, for the most recent counts) and
counts its batches. A batch is a pure function of its classes, so Dask reruns the batches of a
worker lost mid-count on another one: a lost worker costs only its units, and the sum stays exact.
Where the lost worker held the only copy of the scattered counter maker (a worker that joined after
the scatter has none), Dask cancels the batches that needed it: they are sent again, with the maker
scattered again (once per loss, not once per batch), each batch up to RESUBMIT times."""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from ...errors import InvalidSetting
from .class_workers import BATCH
from .parallel import dask_client

Pi = tuple[int, ...]
KEPT = 4  # class counters a worker keeps (of the most recent counts)
IN_FLIGHT = 2  # batches per worker thread submitted ahead
RESUBMIT = 3  # times a batch Dask cancelled is sent again before the count fails
WORKERS_BACK = 120  # seconds the cluster has to get a worker back (a nanny restarts lost ones)

_COUNTERS: OrderedDict[str, Any] = OrderedDict()


def _count_batch(key: str, make_counter: Callable[[], Any], batch: list[Pi]) -> list[int]:
    """On a worker: N(pi) for each class of the batch, by the count's counter (built once here)."""
    counter = _COUNTERS.get(key)
    if counter is None:
        counter = _COUNTERS[key] = make_counter()
        while len(_COUNTERS) > KEPT:
            _COUNTERS.popitem(last=False)
    return [counter.count(pi) for pi in batch]


class DaskClassWorkers:
    """The workers of the Dask cluster at `address` counting N(pi) with the counters `make_counter`
    builds (it and what it reads must pickle). Use as a context manager."""

    def __init__(self, make_counter: Callable[[], Any], address: str) -> None:
        self.client = dask_client(address)
        self.maker = make_counter
        self.make_counter = self.client.scatter(make_counter, broadcast=True)
        self.key = uuid.uuid4().hex
        threads = sum(self.client.nthreads().values())
        self.in_flight = max(1, threads) * IN_FLIGHT
        self.details: dict[str, Any] = {"dask_workers": len(self.client.nthreads()), "dask_threads": threads}

    def counts(self, classes: Iterable[tuple[Pi, int]]) -> Iterator[tuple[int, int, Pi]]:
        """(N(pi), class size, pi) for every class, in the order the batches finish."""
        from concurrent.futures import CancelledError

        from distributed import as_completed

        found = iter(classes)
        batches: dict[str, tuple[list[tuple[Pi, int]], int, Any]] = {}  # key: batch, times sent, maker

        def send(batch: list[tuple[Pi, int]], times: int = 1) -> Any:
            maker = self.make_counter
            future = self.client.submit(_count_batch, self.key, maker, [pi for pi, _ in batch], pure=False)
            batches[future.key] = (batch, times, maker)
            return future

        def submit() -> Any:
            batch = list(islice(found, BATCH))
            return send(batch) if batch else None

        first = [f for f in (submit() for _ in range(self.in_flight)) if f is not None]
        pending = as_completed(first)  # type: ignore[no-untyped-call]
        for future in pending:
            batch, times, maker = batches.pop(future.key)
            try:
                counted = future.result()
            except CancelledError:
                if times > RESUBMIT:
                    raise
                if maker is self.make_counter:  # the first of this loss's cancellations scatters again
                    self.make_counter = self._scatter_again()
                pending.add(send(batch, times + 1))  # type: ignore[no-untyped-call]
                continue
            yield from ((models, size, pi) for models, (pi, size) in zip(counted, batch))
            following = submit()
            if following is not None:
                pending.add(following)  # type: ignore[no-untyped-call]

    def _scatter_again(self) -> Any:
        """The counter maker scattered again, once the cluster has a worker (all may have been lost)."""
        try:
            self.client.wait_for_workers(1, timeout=WORKERS_BACK)
        except TimeoutError:
            raise InvalidSetting("dask", f"the cluster lost every worker for {WORKERS_BACK} s") from None
        return self.client.scatter(self.maker, broadcast=True)

    def __enter__(self) -> DaskClassWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()
