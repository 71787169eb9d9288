"""How to count: the method, the mode, ApproxMC's tolerance and confidence, the seed and the time
limit, in one immutable value that every command, the API and the batch runners share."""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from ..errors import InvalidSetting, UnknownMethod, UnknownMode
from ..task.model import Mode, Task

DEFAULT_EPSILON = 0.8
DEFAULT_DELTA = 0.2


class Method(StrEnum):
    """A counting method: a policy (auto, closed-form, exact, approx) or a backend. The jrs mode is
    not counted by a method of its own: its sum is chosen by the mode (methods.MODE_COUNTERS)."""

    AUTO = "auto"  # a closed form if one applies, else the backend the task's shape calls for
    CLOSED_FORM = "closed-form"
    EXACT = "exact"  # the fastest exact backend measured for the mode
    APPROX = "approx"  # ApproxMC per permutation class when few, else on the whole CNF
    ENUMERATE = "enumerate"
    SDD = "sdd"
    DECOMPOSE = "decompose"
    DECOMPOSE_APPROX = "decompose-approx"
    SOURCE_SETS = "source-sets"
    SOURCE_TUPLES = "source-tuples"
    SEARCH = "search"
    APPROXMC = "approxmc"
    GANAK = "ganak"  # GANAK on the whole CNF (installed apart: `rscount install-ganak`)
    LINEAR = "linear"  # affine labels: a linear system per concept permutation
    EQUALITIES = "equalities"  # equality labels: colourings per concept permutation
    PAIRWISE = "pairwise"  # labels of two-concept tests: a pair CNF's models, an orbit at a time

    @classmethod
    def parse(cls, name: Any) -> Method:
        """The method called `name`; UnknownMethod otherwise."""
        try:
            return cls(name)
        except ValueError:
            raise UnknownMethod(str(name), list(cls)) from None


def parse_mode(name: Any) -> Mode:
    """The counting mode called `name`; UnknownMode otherwise."""
    try:
        return Mode(name)
    except ValueError:
        raise UnknownMode(str(name), list(Mode)) from None


class Limits(TypedDict):
    """A time limit in seconds of which `elapsed` are spent, and a memory limit in GB (None: no
    limit)."""

    timeout: float | None
    memory: float | None
    elapsed: float


@dataclass(frozen=True)
class CountSettings:
    """How to count a task. `mode` None counts in the task's own mode; `timeout` (seconds) and
    `memory` (GB) None set no limit (nor do infinite ones); epsilon and delta are ApproxMC's, used by
    approximate methods. `elapsed` is the part of the time limit an earlier step of the same job
    (reading the task) used; `jobs` processes count permutation classes side by side, or the workers
    of the Dask cluster whose scheduler is at `dask`; `cross_check` recounts an exact answer by an
    independent route (rscount.counting.cross_check)."""

    method: Method = Method.AUTO
    mode: Mode | None = None
    epsilon: float = DEFAULT_EPSILON
    delta: float = DEFAULT_DELTA
    seed: int = 1
    timeout: float | None = None
    memory: float | None = None
    elapsed: float = 0.0
    deadline: float | None = None  # time.time() by which the whole command must end (see commanded)
    jobs: int = 1
    dask: str | None = None
    cross_check: bool = False
    head_start: bool = True  # auto's head start (off where the caller already tried it)

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", Method.parse(self.method))
        if self.mode is not None:
            object.__setattr__(self, "mode", parse_mode(self.mode))
        if not self.epsilon > 0 or math.isinf(self.epsilon):
            raise InvalidSetting("epsilon", f"must be a positive number, not {self.epsilon}")
        if not 0 < self.delta < 1:
            raise InvalidSetting("delta", f"must lie in (0, 1), not {self.delta}")
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or self.jobs < 1:
            raise InvalidSetting("jobs", f"must be a whole number >= 1, not {self.jobs}")
        if self.dask is not None and (not isinstance(self.dask, str) or not self.dask.strip()):
            raise InvalidSetting("dask", f"must be a scheduler's address, not {self.dask!r}")
        for name, unit in (("timeout", "seconds"), ("memory", "GB")):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidSetting(name, f"must be a positive number of {unit}, not {value}")
            if math.isinf(value):
                object.__setattr__(self, name, None)

    @property
    def limited(self) -> bool:
        """Whether a time or memory limit is set (the work then runs in a child process)."""
        return self.timeout is not None or self.memory is not None

    def limits(self) -> Limits:
        """The time and memory limits, as rscount.counting.processes.isolation.run_stoppable takes them
        (the time spent: what the job used, or what the command's deadline leaves, if that is less)."""
        left = self.left()
        spent = self.elapsed if self.timeout is None or left is None else self.timeout - left
        return {"timeout": self.timeout, "memory": self.memory, "elapsed": spent}

    def after(self, seconds: float) -> CountSettings:
        """These settings for what follows `seconds` more of the same job."""
        return self.replace(elapsed=self.elapsed + seconds)

    def left(self) -> float | None:
        """Seconds left of the time limit (None: no limit): of this job's, and of the command's
        deadline when one is set."""
        if self.timeout is None:
            return None
        left = self.timeout - self.elapsed
        if self.deadline is not None:
            left = min(left, self.deadline - time.time())
        return max(left, 0.0)

    def commanded(self) -> CountSettings:
        """These settings with the time they have left made the deadline of every count that uses
        them: a batch of counts (advise's candidates, a sweep) ends when the command's time does,
        instead of giving each count the whole limit again. A wall-clock time, so that it holds in
        forked children and on a Dask worker (of a clock that agrees with this one)."""
        left = self.left()
        return self if left is None else self.replace(deadline=time.time() + left)

    def portion(self, fraction: float) -> CountSettings:
        """These settings with a deadline once `fraction` of the time left has passed (a part of a
        command that must leave time for the parts after it)."""
        left = self.left()
        return self if left is None else self.replace(deadline=time.time() + fraction * left)

    def mode_for(self, task: Task) -> Mode:
        """The mode a task is counted in: this one, or the task's own."""
        return self.mode or task.mode

    def replace(self, **changes: Any) -> CountSettings:
        """These settings with some changed (checked again)."""
        return dataclasses.replace(self, **changes)


DEFAULT_SETTINGS = CountSettings()
