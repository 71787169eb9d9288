"""The jrs mode's own counter (`--mode jrs`, chosen by the mode: methods.MODE_COUNTERS): pairs of a
concept map and a learned inference layer, counted by their sum over value-map kernels (kernels.py;
docs/closed-forms.md), stated as a closed form."""

from __future__ import annotations

from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, Unsuited
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method
from .kernels import count_jrs


class JrsBackend:
    """The jrs count: a sum over value-map kernels, or the concept maps listed under supervision."""

    method = Method.CLOSED_FORM  # its results state the sum's formula, as closed forms do
    exact = True
    description = "pairs (concept map, inference layer): a sum over value-map kernels"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact jrs count; Unsuited in the other modes."""
        if problem.mode != Mode.JRS:
            raise Unsuited(f"joint reasoning shortcuts are counted in the jrs mode, not {problem.mode}")
        return count_jrs(problem.task)
