"""Joint reasoning shortcuts (`--mode jrs`): pairs of a concept map and a learned inference layer,
counted by their own sum over value-map kernels (kernels.py; docs/closed-forms.md)."""

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

    method = Method.JRS
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
