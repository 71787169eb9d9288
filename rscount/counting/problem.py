"""A task to count in one mode, with its CNF built only when a method needs it: the decomposition
by permutation works on small encodings and per-class value-map constraints, so a large support
(exhaustive XOR-16: 65536 rows, a 4 GB CNF) is never encoded whole unless a backend asks."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, TypeVar, cast

from ..encoding.model import Encoding
from ..encoding.modes import encode
from ..progress import Progress
from ..task.model import Mode, Task

Kept = TypeVar("Kept")


class CountProblem:
    """`task` counted in `mode`; `encoding` is built on first use (or given)."""

    def __init__(
        self, task: Task, mode: Mode, progress: Progress | None = None, encoding: Encoding | None = None
    ) -> None:
        self.task = task
        self.mode = mode
        self._progress = progress
        self._kept: dict[Callable[[CountProblem], Any], Any] = {}
        if encoding is not None:
            self.__dict__["encoding"] = encoding

    @classmethod
    def of(cls, encoding: Encoding, progress: Progress | None = None) -> CountProblem:
        """The problem an encoding states (its task, in its mode)."""
        return cls(encoding.task, encoding.mode, progress, encoding)

    @cached_property
    def encoding(self) -> Encoding:
        """The CNF of the task in this mode."""
        if self._progress:
            self._progress.update(f"encoding {self.task.name}", force=True)
        return encode(self.task, self.mode, self._progress)

    @property
    def encoded(self) -> bool:
        """Whether the CNF has been built."""
        return "encoding" in self.__dict__

    def kept(self, make: Callable[[CountProblem], Kept]) -> Kept:
        """make(self), made on first use and kept with the problem: what a method builds for every
        count of it (search's Counter), so that whoever holds the problem holds that too, and a
        race's forked child inherits what a count in this process built (auto's head start)."""
        if make not in self._kept:
            self._kept[make] = make(self)
        return cast(Kept, self._kept[make])
